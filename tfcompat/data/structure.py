"""Element structures of `tf.data`: nesting, conversion to tensors and `TensorSpec`s.

As in TF's `tf.data` nest, tuples (namedtuples) and dicts nest while lists are
leaves that convert to one tensor. Dicts flatten in sorted-key order and keep
the user's key order when rebuilt.
"""
import collections.abc

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.convert import to_storage
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.ragged.tensor import splits_from_lengths, take
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import EagerTensor, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops.extension_type import children as extension_children
from tfcompat.ops.extension_type import is_extension, rebuild_like
from tfcompat.ops.io_ops._common import ProbedTensor
from tfcompat.ops.misc_ops import SparseTensorSpec, TensorSpec
from tfcompat.ops.ragged_spec import RaggedTensorSpec
from tfcompat.util.nest import _rebuild


class DatasetBase:
    """The base of `tf.data.Dataset`, defined here so element structures can hold datasets (`window`, `flat_map`)
    without this module importing `dataset.py`, which builds on it."""

    __slots__ = ()

_FROM = dtypes.FROM_STORAGE


def is_nested(x):
    t = type(x)
    if t is EagerTensor:        # the common leaf, without the abstract Mapping check
        return False
    return t is tuple or t is dict or isinstance(x, (tuple, collections.abc.Mapping)) or is_extension(x)


def _keys(d):
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def flatten(x):
    """The leaves of an element, depth first (dicts by sorted key)."""
    if type(x) is tuple:
        if all(not is_nested(c) for c in x):
            return list(x)
    elif not is_nested(x):
        return [x]
    out = []
    _flatten_into(x, out)
    return out


def _flatten_into(x, out):
    if isinstance(x, collections.abc.Mapping):
        for k in _keys(x):
            _flatten_into(x[k], out)
    elif isinstance(x, tuple):
        for c in x:
            _flatten_into(c, out)
    elif is_extension(x):           # an ExtensionType (or its spec) nests as its components
        for c in extension_children(x):
            _flatten_into(c, out)
    else:
        out.append(x)


def pack(template, flat):
    """An element shaped like `template` from its leaves `flat`."""
    if not is_nested(template):
        return flat[0]
    if type(template) is tuple and all(not is_nested(c) for c in template):
        return tuple(flat)
    it = iter(flat)
    return _build(template, it)


def _build(tmpl, it):
    if is_extension(tmpl):
        return rebuild_like(tmpl, [_build(c, it) for c in extension_children(tmpl)])
    if isinstance(tmpl, collections.abc.Mapping):
        return _rebuild(tmpl, [_build(tmpl[k], it) for k in _keys(tmpl)])
    if isinstance(tmpl, tuple):
        return _rebuild(tmpl, [_build(c, it) for c in tmpl])
    return next(it)


def flatten_up_to_leaves(template, value):
    """The parts of `value` at the leaf positions of `template` (TypeError/ValueError when they differ)."""
    if not is_nested(template):
        return [value]
    if isinstance(template, collections.abc.Mapping):
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"expected a mapping, got {type(value).__name__}")
        if set(template) != set(value):
            raise ValueError("the keys differ")
        pairs = [(template[k], value[k]) for k in _keys(template)]
    elif is_extension(template):
        value_type = template.value_type if hasattr(template, "value_type") else type(template)
        if type(value) is not value_type:
            raise TypeError(f"expected a {value_type.__name__}, got {type(value).__name__}")
        pairs = zip(extension_children(template), extension_children(value))
    else:
        if not isinstance(value, tuple) or len(value) != len(template):
            raise TypeError(f"expected a tuple of {len(template)}, got {type(value).__name__}")
        pairs = zip(template, value)
    out = []
    for t, v in pairs:
        out.extend(flatten_up_to_leaves(t, v))
    return out


def map_leaves(fn, x):
    return pack(x, [fn(v) for v in flatten(x)])


def to_tensor(value, dtype=None):
    """One element component as a Tensor (lists convert as TF converts them)."""
    if (type(value) is EagerTensor or type(value) is ProbedTensor) and dtype is None:
        return value        # (a probed tensor keeps its identity: the spec probe recognises it by it)
    if isinstance(value, DatasetBase):
        return value
    if isinstance(value, Variable):
        return wrap(value._read())
    if isinstance(value, (SparseTensor, RaggedTensor)):
        return value
    return wrap(to_storage(value, dtype, strict=dtype is not None))


def normalize(element):
    """An element structure with every leaf converted to a Tensor; lists inside tuples/dicts are leaves."""
    t = type(element)
    if t is EagerTensor or (t is tuple and all(type(c) is EagerTensor for c in element)):
        return element
    return map_leaves(to_tensor, element)


def spec_of_tensor(t):
    if isinstance(t, DatasetBase):
        return DatasetSpec(t.element_spec)
    if isinstance(t, SparseTensor):
        return SparseTensorSpec(t.shape, t.dtype)
    if isinstance(t, RaggedTensor):
        return RaggedTensorSpec.from_value(t)
    s = storage(t)
    return TensorSpec(TensorShape._from_tuple(tuple(s.shape)), _FROM[s.dtype])


def spec_of(element):
    return map_leaves(spec_of_tensor, element)


def relax(spec, other):
    """The most specific spec compatible with both (unequal dims become None), or None if dtypes differ."""
    if isinstance(spec, DatasetSpec) or type(spec) is not type(other) or spec.dtype != other.dtype:
        return spec if spec == other else None
    a, b = spec.shape, other.shape
    if a.rank is None or b.rank is None or a.rank != b.rank:
        shape = TensorShape(None)
    else:
        shape = TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])
    if isinstance(spec, RaggedTensorSpec):
        return spec.with_shape(shape) if spec.ragged_rank == other.ragged_rank else None
    return type(spec)(shape, spec.dtype)


def with_shape(spec, shape, rank_change=0):
    """`spec` with another shape; a RaggedTensorSpec's ragged_rank changes with a batch (+1) or unbatch (-1)."""
    if isinstance(spec, RaggedTensorSpec):
        return spec.with_shape(shape, spec.ragged_rank + rank_change)
    return type(spec)(TensorShape(shape), spec.dtype)


def stand_in(spec):
    """An element of `spec` with zeros / empty strings (unknown dimensions 0), or None for specs it cannot fill."""
    leaves = []
    for s in flatten(spec):
        if type(s) is not TensorSpec or s.shape.rank is None:
            return None
        shape = [0 if d is None else d for d in s.shape.as_list()]
        leaves.append(wrap(np.full(shape, b"", dtype=object)) if s.dtype == dtypes.string else
                      wrap(torch.zeros(shape, dtype=s.dtype.torch_dtype)))
    return pack(spec, leaves)


class DatasetSpec:
    """The spec of a dataset-valued element (`Dataset.window`): `DatasetSpec(element_spec, dataset_shape)`."""

    def __init__(self, element_spec, dataset_shape=()):
        self._element_spec = element_spec
        self._dataset_shape = TensorShape(dataset_shape)

    element_spec = property(lambda self: self._element_spec)
    shape = property(lambda self: self._dataset_shape)

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and other._element_spec == self._element_spec

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self._element_spec!r}, {self._dataset_shape!r})"


def numpy_of(value):
    """A NumPy value of a tensor element leaf (`bytes` for string scalars), as `as_numpy_iterator` yields."""
    if isinstance(value, DatasetBase):
        return value.as_numpy_iterator()
    if isinstance(value, SparseTensor):
        return sparse_to_numpy(value)
    return value.numpy()   # a RaggedTensor's rows: an object array when their lengths differ, as in TF


def sparse_to_numpy(sp):
    """A sparse element as `as_numpy_iterator` yields it in TF 2.21: its dense NumPy array."""
    values = sp.values.numpy()
    out = np.zeros(sp.dense_shape.numpy(), dtype=values.dtype) if values.dtype != object else \
        np.full(sp.dense_shape.numpy(), b"", dtype=object)
    out[tuple(sp.indices.numpy().T)] = values
    return out


def _take(values, pos):
    """Entries `pos` (an int64 torch tensor) of a values storage (NumPy object array for strings)."""
    return values[pos.numpy()] if type(values) is np.ndarray else values[pos.to(values.device)]


def _concat(parts):
    return np.concatenate(parts) if type(parts[0]) is np.ndarray else torch.cat(parts)


class Rows:
    """Rows (slices along the first dimension) of a composite component: `nrows`, `row(i)`, `gather(rows)`,
    `spec()` (of one row)."""


class RaggedRows(Rows):
    """Rows of a RaggedTensor: Tensors for ragged_rank 1 (their spec a RaggedTensorSpec of ragged_rank 0)."""

    def __init__(self, rt):
        self._rt = rt
        self.nrows = rt.nrows_int()

    def row(self, i):
        return self._rt[i]

    def gather(self, rows):
        return take(self._rt, torch.as_tensor(np.asarray(rows, dtype=np.int64)))

    def spec(self):
        rt = self._rt
        return RaggedTensorSpec(rt.shape[1:], rt.dtype, rt.ragged_rank - 1, rt.row_splits_dtype)


def rows_of(t):
    """The Rows of a composite component, or None for a Tensor."""
    if isinstance(t, SparseTensor):
        return SparseRows(t)
    if isinstance(t, RaggedTensor):
        return RaggedRows(t)
    return None


def batch_ragged(parts):
    """Rows (RaggedTensors, or Tensors of a ragged_rank-0 spec) stacked into a RaggedTensor one rank higher."""
    if isinstance(parts[0], RaggedTensor):
        values = batch_ragged([p.values for p in parts]) if isinstance(parts[0].values, RaggedTensor) else \
            wrap(_concat([storage(p.values) for p in parts]))
        lengths = torch.cat([storage(p.row_lengths()).to(torch.int64) for p in parts])
        inner = RaggedTensor(values, wrap(splits_from_lengths(lengths)), internal=True)
        counts = torch.tensor([p.nrows_int() for p in parts], dtype=torch.int64)
        return RaggedTensor(inner, wrap(splits_from_lengths(counts)), internal=True)
    lengths = torch.tensor([storage(p).shape[0] for p in parts], dtype=torch.int64)
    return RaggedTensor(wrap(_concat([storage(p) for p in parts])), wrap(splits_from_lengths(lengths)),
                        internal=True)


class SparseRows(Rows):
    """Rows (slices along the first dimension) of a SparseTensor, found by one sort of its indices."""

    def __init__(self, sp):
        idx = storage(sp.indices)
        self.dense = [int(d) for d in storage(sp.dense_shape)]
        if not self.dense:
            raise ValueError("Unbatching a sparse tensor is only supported for rank >= 1. Obtained input: "
                             f"{sp}.")
        self.dtype = sp.dtype
        self._order = torch.argsort(idx[:, 0], stable=True)
        self._idx, self._values = idx[self._order], storage(sp.values)
        self._starts = torch.searchsorted(self._idx[:, 0].contiguous(), torch.arange(self.dense[0] + 1)).tolist()
        self.nrows = self.dense[0]

    def spec(self):
        return SparseTensorSpec(self.dense[1:], self.dtype)

    def _part(self, i, column):
        lo, hi = self._starts[i], self._starts[i + 1]
        idx = self._idx[lo:hi, 1:]
        if column is not None:
            idx = torch.cat([torch.full((hi - lo, 1), column, dtype=torch.int64), idx], dim=1)
        return idx, _take(self._values, self._order[lo:hi])

    def row(self, i):
        idx, values = self._part(i, None)
        return SparseTensor(wrap(idx), wrap(values), self.dense[1:])

    def gather(self, rows):
        parts = [self._part(int(i), k) for k, i in enumerate(rows)]
        return SparseTensor(wrap(torch.cat([p[0] for p in parts])), wrap(_concat([p[1] for p in parts])),
                            [len(parts)] + self.dense[1:])


def batch_sparse(parts):
    """SparseTensor elements stacked along a new first dimension (dense shape: the largest of each dim)."""
    dense = [max(d) for d in zip(*(p.shape.as_list() for p in parts))]
    idx = [torch.cat([torch.full((storage(p.indices).shape[0], 1), k, dtype=torch.int64), storage(p.indices)], dim=1)
           for k, p in enumerate(parts)]
    return SparseTensor(wrap(torch.cat(idx)), wrap(_concat([storage(p.values) for p in parts])), [len(parts)] + dense)
