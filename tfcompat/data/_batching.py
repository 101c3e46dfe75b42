"""Batching transformations: `batch`, `padded_batch`, `unbatch`, `rebatch`, `window`."""
import itertools

import numpy as np
import torch

from tfcompat.data import structure as st
from tfcompat.data._common import dataset_op_error, get_next_error, to_int
from tfcompat.data.dataset import Dataset, DerivedDataset, unknown_cardinality, unknown_unless_infinite
from tfcompat.data.sources import ListDataset, row
from tfcompat.framework import dtypes, errors
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.ragged_spec import RaggedTensorSpec


def _batch_card(n, size, drop):
    """The number of batches of `size` from `n` elements (negative cardinalities pass through)."""
    if n < 0:
        return n
    return n // size if drop else -(-n // size)


def _check_batch_size(batch_size, op="BatchDatasetV2", attrs=""):
    """TF's error for a batch size below one."""
    if batch_size <= 0:
        raise dataset_op_error(errors.InvalidArgumentError, "Batch size must be greater than zero.", op, attrs)


def _shape_text(shape):
    """A shape as TF's kernels print it: `[2,3]`."""
    return "[" + ",".join(str(d) for d in shape) + "]"


def _stack(parts, component):
    """Stacks one component of a batch's elements; shapes must agree (TF's message otherwise)."""
    first = parts[0].shape
    for i, p in enumerate(parts):
        if p.shape != first:
            raise get_next_error(errors.InvalidArgumentError,
                                  f"Cannot batch tensors with different shapes in component {component}. First "
                                  f"element had shape {_shape_text(first)} and element {i} had shape "
                                  f"{_shape_text(p.shape)}.")
    if type(parts[0]) is np.ndarray:
        return np.stack(parts)
    return torch.stack(parts)


def _batch_elements(batch, spec=None):
    """A list of elements stacked component by component into one batch element (components whose `spec` is a
    RaggedTensorSpec into RaggedTensors)."""
    flats = [st.flatten(e) for e in batch]
    ragged = [isinstance(s, RaggedTensorSpec) for s in st.flatten(spec)] if spec is not None else None
    out = []
    for j in range(len(flats[0])):
        parts = [f[j] for f in flats]
        if isinstance(parts[0], Dataset):
            raise NotImplementedError("batching dataset-valued elements")
        if isinstance(parts[0], SparseTensor):
            out.append(st.batch_sparse(parts))
        elif isinstance(parts[0], RaggedTensor) or (ragged and ragged[j]):
            out.append(st.batch_ragged(parts))
        else:
            out.append(wrap(_stack([storage(p) for p in parts], j)))
    return st.pack(batch[0], out)


def _chunks_of(elements, size, drop):
    """Lists of `size` consecutive elements (the last one shorter unless `drop`)."""
    it = iter(elements)
    while True:
        batch = list(itertools.islice(it, size))
        if len(batch) < size and (drop or not batch):
            return
        yield batch
        if len(batch) < size:
            return


def _batched_spec(spec, dim):
    """The element spec with a leading batch dimension `dim` on each tensor component."""
    return st.map_leaves(lambda s: s if isinstance(s, st.DatasetSpec) else st.with_shape(
        s, TensorShape([dim]).concatenate(s.shape), 1), spec)


class BatchDataset(DerivedDataset):
    """`batch`: consecutive elements stacked (one gather per component over an index plan)."""

    _tf_name = "_BatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        _check_batch_size(batch_size)
        self._size, self._drop = batch_size, drop_remainder

    def _compute_spec(self):
        return _batched_spec(self._input.element_spec, self._size if self._drop else None)

    def _card(self):
        return _batch_card(self._input._card(), self._size, self._drop)

    def _elements(self):
        plan = self._input._plan()
        if plan is not None:
            source, chunks = plan
            return map(source._batch_at, _index_batches(chunks(), self._size, self._drop))
        spec = self._input.element_spec
        return (_batch_elements(b, spec) for b in _chunks_of(self._input._elements(), self._size, self._drop))


def _as_ragged_spec(s):
    """What `ragged_batch` batches a component as (TF's rule): a dense component whose shape is not fully defined
    becomes ragged up to its last unknown dimension."""
    if type(s) is not st.TensorSpec or s.shape.rank is None or s.shape.is_fully_defined():
        return s
    return RaggedTensorSpec(s.shape, s.dtype, max(i for i, d in enumerate(s.shape.as_list()) if d is None))


def _as_ragged(value, spec):
    if isinstance(spec, RaggedTensorSpec) and spec.ragged_rank and not isinstance(value, RaggedTensor):
        if spec.ragged_rank > 1:
            raise NotImplementedError("ragged_batch of components with unknown dimensions beyond the second")
        return RaggedTensor.from_tensor(value)
    return value


class RaggedBatchDataset(DerivedDataset):
    """`ragged_batch`: consecutive elements batched, components of rank >= 1 into RaggedTensors."""

    _tf_name = "_BatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        _check_batch_size(batch_size)
        self._size, self._drop = batch_size, drop_remainder

    def _rows_spec(self):
        """TF's rule on the input spec, relaxed over the first batch's elements (tfcompat infers a map's spec from
        its first element, so a data-dependent dimension shows there as a size)."""
        spec = self._input.element_spec
        flat = st.flatten(spec)
        for element in itertools.islice(self._input._elements(), self._size):
            flat = [st.relax(s, st.spec_of_tensor(v)) or s for s, v in zip(flat, st.flatten(element))]
        return st.map_leaves(_as_ragged_spec, st.pack(spec, flat))

    def _compute_spec(self):
        return _batched_spec(self._rows_spec(), self._size if self._drop else None)

    def _card(self):
        return _batch_card(self._input._card(), self._size, self._drop)

    def _elements(self):
        spec = self._rows_spec()
        specs = st.flatten(spec)
        rows = (st.pack(e, [_as_ragged(v, s) for v, s in zip(st.flatten(e), specs)]) for e in self._input._elements())
        return (_batch_elements(b, spec) for b in _chunks_of(rows, self._size, self._drop))


class SparseBatchDataset(DerivedDataset):
    """`sparse_batch`: consecutive dense elements (of at most `row_shape`) batched into one SparseTensor."""

    _tf_name = "_DenseToSparseBatchDataset"

    def __init__(self, input_dataset, batch_size, row_shape):
        super().__init__(input_dataset)
        _check_batch_size(batch_size)
        spec = input_dataset.element_spec
        if type(spec) is not st.TensorSpec:
            raise TypeError(f"DenseToSparseDataset requires an input whose elements have a single component, but the "
                            f"given dataset has the following element spec: {spec!r}")
        self._size = batch_size
        self._row = [int(d) for d in (row_shape.as_list() if isinstance(row_shape, TensorShape) else
                                      storage(row_shape).tolist() if isinstance(row_shape, Tensor) else row_shape)]

    def _compute_spec(self):
        row = [None if d == -1 else d for d in self._row]
        return st.SparseTensorSpec(TensorShape([None] + row), self._input.element_spec.dtype)

    def _card(self):
        return _batch_card(self._input._card(), self._size, False)

    def _elements(self):
        for batch in _chunks_of(self._input._elements(), self._size, False):
            parts = [storage(e) for e in batch]
            for p in parts:
                if any(0 <= r < d for d, r in zip(p.shape, self._row)):
                    raise get_next_error(errors.DataLossError, f"Input element had shape ({_shape_text(p.shape)}) "
                                                               f"that is larger than the row shape "
                                                               f"({_shape_text(self._row)}).")
            row = [max(p.shape[i] for p in parts) if d == -1 else d for i, d in enumerate(self._row)]
            idx = [torch.cat([torch.full((int(np.prod(p.shape)), 1), k, dtype=torch.int64),
                              torch.from_numpy(np.indices(p.shape).reshape(len(p.shape), -1).T.astype(np.int64))], 1)
                   for k, p in enumerate(parts)]
            values = np.concatenate([p.reshape(-1) for p in parts]) if type(parts[0]) is np.ndarray else \
                torch.cat([p.reshape(-1) for p in parts])
            yield SparseTensor(wrap(torch.cat(idx)), wrap(values),
                               wrap(torch.tensor([len(parts)] + row, dtype=torch.int64)))


def _index_batches(chunks, size, drop):
    """Index arrays of `size` consecutive indices of a chunk stream (the last shorter unless `drop`)."""
    carry = np.empty(0, np.int64)
    for idx in chunks:
        if len(carry):
            idx = np.concatenate([carry, idx])
        stop = len(idx) - len(idx) % size
        for start in range(0, stop, size):
            yield idx[start:start + size]
        carry = idx[stop:]
    if len(carry) and not drop:
        yield carry


def _can_pad(padded, shape):
    """Whether elements of `shape` can be padded to `padded` (TF's check: same rank, no known dimension larger)."""
    if padded.rank is None or shape.rank is None:
        return True
    return padded.rank == shape.rank and all(p is None or d is None or p >= d
                                             for p, d in zip(padded.as_list(), shape.as_list()))


class PaddedBatchDataset(BatchDataset):
    """`padded_batch`: consecutive elements padded to common shapes, then stacked."""

    _tf_name = "_PaddedBatchDataset"

    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values, drop_remainder):
        spec = input_dataset.element_spec
        flat_spec = st.flatten(spec)
        n = len(flat_spec)
        _check_batch_size(batch_size, "PaddedBatchDatasetV2", f"_N_{n}_Toutput_types_{n}")
        super().__init__(input_dataset, batch_size, drop_remainder)
        for s in flat_spec:
            if not isinstance(s, st.TensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce tensor elements but type "
                                "spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{s!r}`.")
        if padded_shapes is None:
            shapes = [s.shape for s in flat_spec]
        else:
            shapes = [TensorShape([None if d is not None and to_int(d) == -1 else d for d in _shape_list(p)])
                      for p in _flatten_like(spec, padded_shapes)]
        for i, s in enumerate(flat_spec):
            if s.shape.rank is None:
                if padded_shapes is None:
                    raise ValueError(f"You must provide `padded_shapes` argument because component {i} has unknown "
                                     "rank.")
                raise ValueError("padded_batch requires known ranks (unknown-rank components are not supported)")
        for s, shape in zip(flat_spec, shapes):
            if not _can_pad(shape, s.shape):
                raise ValueError(f"The padded shape {shape} is not compatible with the shape {s.shape} of the "
                                 f"corresponding input component.")
        if padding_values is None:
            values = [b"" if s.dtype == dtypes.string else 0 for s in flat_spec]
        else:
            values = [v._array()[()] if isinstance(v, Tensor) else v for v in _flatten_like(spec, padding_values)]
        self._shapes, self._values = shapes, values
        # The input's spec may hold a size tfcompat read off the first element where TF's trace has None (a map whose
        # output length depends on the element's value): shapes taken from the spec then pad to the batch's largest.
        self._from_spec = padded_shapes is None

    def _compute_spec(self):
        dim = self._size if self._drop else None
        spec = self._input.element_spec
        return st.pack(spec, [st.with_shape(s, TensorShape([dim]).concatenate(shape))
                              for s, shape in zip(st.flatten(spec), self._shapes)])

    def _elements(self):
        for batch in _chunks_of(self._input._elements(), self._size, self._drop):
            flats = [st.flatten(e) for e in batch]
            out = [wrap(self._pad([storage(f[j]) for f in flats], j)) for j in range(len(self._shapes))]
            yield st.pack(batch[0], out)

    def _pad(self, parts, j):
        shape = self._shapes[j].as_list()
        target = [max(p.shape[d] for p in parts) if n is None or (self._from_spec and any(p.shape[d] != n for p in parts))
                  else n for d, n in enumerate(shape)]
        value = self._values[j]
        if type(parts[0]) is np.ndarray:
            out = np.full([len(parts)] + target, value, dtype=object)
        else:
            out = torch.full([len(parts)] + target, value, dtype=parts[0].dtype, device=parts[0].device)
        for i, p in enumerate(parts):
            if any(a > b for a, b in zip(p.shape, target)):
                raise get_next_error(errors.DataLossError,
                                      "Attempted to pad to a smaller size than the input element.")
            out[(i,) + tuple(slice(0, n) for n in p.shape)] = p
        return out


def _shape_list(p):
    """A padded shape given as a Tensor, TensorShape or sequence, as a list."""
    if isinstance(p, Tensor):
        return p._array().tolist()
    if isinstance(p, TensorShape):
        return None if p.rank is None else p.as_list()
    return list(p)


def _flatten_like(spec, value):
    """Flattens a per-component argument (padded_shapes, padding_values) up to the element structure."""
    if not st.is_nested(spec):
        return [value]
    out = []

    def walk(s, v):
        if st.is_nested(s):
            children = [(s[k], v[k]) for k in st._keys(s)] if isinstance(s, dict) else list(zip(s, v))
            for cs, cv in children:
                walk(cs, cv)
        else:
            out.append(v)
    walk(spec, value)
    return out


class UnbatchDataset(DerivedDataset):
    """`unbatch`: the rows of each element."""

    _tf_name = "_UnbatchDataset"

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        for s in st.flatten(input_dataset.element_spec):
            if s.shape.rank == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")

    def _compute_spec(self):
        return st.map_leaves(lambda s: st.with_shape(s, s.shape[1:] if s.shape.rank is not None else None, -1),
                             self._input.element_spec)

    _card = unknown_unless_infinite

    def _elements(self):
        return _unbatch(self._input._elements())


def _unbatch(elements):
    """The rows of each element (components must agree on their first dimension)."""
    for element in elements:
        flat = [st.rows_of(t) or storage(t) for t in st.flatten(element)]
        sizes = [c.nrows if isinstance(c, st.Rows) else c.shape[0] for c in flat]
        n = sizes[0]
        for j, size in enumerate(sizes):
            if size != n:
                raise get_next_error(errors.InvalidArgumentError,
                                      f"Input element must have the same batch size in each component. Component "
                                      f"0 had size {n} but component {j} had size {size}.")
        for i in range(n):
            yield st.pack(element, [c.row(i) if isinstance(c, st.Rows) else wrap(row(c, i)) for c in flat])


class RebatchDataset(DerivedDataset):
    """`rebatch`: the rows of the batched input, batched again by the sizes given (cyclically)."""

    _tf_name = "_RebatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        if any(s.shape.rank == 0 for s in st.flatten(input_dataset.element_spec)):
            raise ValueError("Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found a dataset with "
                             "scalar elements. Fix the issue by adding the `batch` transformation to the dataset.")
        sizes = _shape_list(batch_size) if not isinstance(batch_size, int) else [batch_size]
        self._sizes = [int(s) for s in sizes]
        self._drop = drop_remainder

    _card = unknown_cardinality

    def _compute_spec(self):
        spec = self._input.element_spec
        dim = None
        if len(self._sizes) == 1:
            first = st.flatten(spec)[0].shape
            known = first.rank and first[0] is not None and first[0] % self._sizes[0] == 0
            dim = self._sizes[0] if self._drop or known else None
        return st.map_leaves(lambda s: st.with_shape(s, TensorShape([dim]).concatenate(s.shape[1:])), spec)

    def _elements(self):
        rows = _unbatch(self._input._elements())
        for size in itertools.cycle(self._sizes):
            batch = list(itertools.islice(rows, size))
            if not batch or (self._drop and len(batch) < size):
                return
            yield _batch_elements(batch)
            if len(batch) < size:
                return


class WindowDataset(DerivedDataset):
    """`window`: structures of datasets over windows of the input."""

    _tf_name = "_WindowDataset"

    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        super().__init__(input_dataset)
        for name, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise dataset_op_error(errors.InvalidArgumentError, f"Window {name} must be greater than zero.",
                                       "WindowDataset")
        self._size, self._shift, self._stride, self._drop = size, shift, stride, drop_remainder

    def _compute_spec(self):
        return st.map_leaves(st.DatasetSpec, self._input.element_spec)

    def _card(self):
        n = self._input._card()
        if n < 0:
            return n
        if self._drop:
            span = (self._size - 1) * self._stride + 1
            return 0 if n < span else (n - span) // self._shift + 1
        return -(-n // self._shift)

    def _elements(self):
        spec = self._input.element_spec
        flat_spec = st.flatten(spec)
        span = (self._size - 1) * self._stride + 1
        it = iter(self._input._elements())
        buf, exhausted = [], False
        while True:
            while not exhausted and len(buf) < span:
                try:
                    buf.append(next(it))
                except StopIteration:
                    exhausted = True
            if not buf or (self._drop and len(buf) < span):
                return
            picked = buf[:span:self._stride]
            flats = [st.flatten(e) for e in picked]
            yield st.pack(spec, [ListDataset([f[j] for f in flats], s) for j, s in enumerate(flat_spec)])
            if self._shift >= len(buf):
                for _ in range(self._shift - len(buf)):
                    if next(it, None) is None:
                        exhausted = True
                        break
                buf = []
            else:
                buf = buf[self._shift:]
