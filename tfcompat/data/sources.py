"""Dataset sources: in-memory tensors (`from_tensors`, `from_tensor_slices`), `range`, `counter`, `random`,
Python lists (window contents) and `from_generator`."""
import itertools

import numpy as np
import torch

from tfcompat.data import structure as st
from tfcompat.data._common import INFINITE, INT64, dataset_seeds, get_next_error, pass_seeds, philox_words, to_int
from tfcompat.data.dataset import Dataset
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape


class TensorDataset(Dataset):
    """`from_tensors`: one element."""

    _tf_name = "_TensorDataset"

    def __init__(self, element):
        self._element = st.normalize(element)

    def _elements(self):
        return iter((self._element,))

    def _compute_spec(self):
        return st.spec_of(self._element)

    def _card(self):
        return 1


def row(c, i):
    """Row `i` of a component storage (a 0-d object array for string scalars)."""
    r = c[i]
    if type(c) is np.ndarray and type(r) is not np.ndarray:
        a = np.empty((), dtype=object)
        a[()] = r
        return a
    return r


def gather(c, idx):
    """Rows `idx` (int64 NumPy array) of a component storage, one index_select (a view for a run)."""
    n = len(idx)
    if n and idx[-1] - idx[0] == n - 1 and (n < 3 or (np.diff(idx) == 1).all()):
        return c[int(idx[0]):int(idx[0]) + n]
    if type(c) is np.ndarray:
        return c[idx]
    return c.index_select(0, torch.from_numpy(idx).to(c.device))


def slice_spec(c):
    """The spec of one slice of a component storage (or composite Rows)."""
    if isinstance(c, st.Rows):
        return c.spec()
    return st.TensorSpec(TensorShape._from_tuple(tuple(c.shape[1:])), dtypes.FROM_STORAGE[c.dtype])


class TensorSliceDataset(Dataset):
    """`from_tensor_slices`: the rows of in-memory components; its elements have an index plan."""

    _tf_name = "_TensorSliceDataset"

    def __init__(self, tensors):
        element = st.normalize(tensors)
        flat = st.flatten(element)
        n = None
        components = []
        for t in flat:
            if isinstance(t, Dataset):
                raise TypeError("from_tensor_slices does not take datasets")
            if isinstance(t, (SparseTensor, RaggedTensor)):
                c = st.rows_of(t)
                rows = c.nrows
            else:
                c = storage(t)
                if c.ndim == 0:
                    raise ValueError("Unbatching a tensor is only supported for rank >= 1")
                rows = c.shape[0]
            if n is None:
                n = rows
            elif rows != n:
                raise ValueError(f"Dimensions {n} and {rows} are not compatible")
            components.append(c)
        self._template = element
        self._components = components
        self._n = n
        # elements of a flat tuple of torch components take the short path of `_element_at`
        self._torch_tuple = tuple(components) if type(element) is tuple and all(
            type(c) is torch.Tensor for c in components) and not any(st.is_nested(e) for e in element) else None

    def _compute_spec(self):
        return st.pack(self._template, [slice_spec(c) for c in self._components])

    def _card(self):
        return self._n

    def _plan(self):
        n = self._n
        return self, lambda: iter((np.arange(n, dtype=np.int64),))

    def _element_at(self, i):
        if self._torch_tuple is not None:
            return tuple([wrap(c[i]) for c in self._torch_tuple])
        return st.pack(self._template, [c.row(i) if isinstance(c, st.Rows) else wrap(row(c, i))
                                        for c in self._components])

    def _batch_at(self, idx):
        return st.pack(self._template, [c.gather(idx) if isinstance(c, st.Rows) else wrap(gather(c, idx))
                                        for c in self._components])

    def _elements(self):
        return map(self._element_at, range(self._n))


class ListDataset(Dataset):
    """A dataset over a Python list of elements (window contents, group windows)."""

    _tf_name = "_VariantDataset"

    def __init__(self, elements, spec):
        self._list = elements
        self._spec = spec

    def _elements(self):
        return iter(self._list)

    def _card(self):
        return len(self._list)


class RangeDataset(Dataset):
    """`range`: scalars of a Python range."""

    _tf_name = "_RangeDataset"

    def __init__(self, args, dtype):
        for a in args:
            if isinstance(a, float):
                raise TypeError(f"Cannot convert {a!r} to EagerTensor of dtype int64")
        self._range = range(*(to_int(a) for a in args))
        self._dtype = dtype

    def _compute_spec(self):
        return st.TensorSpec(TensorShape(()), self._dtype)

    def _card(self):
        return len(self._range)

    def _elements(self):
        tdt = self._dtype.torch_dtype
        return (wrap(torch.tensor(i, dtype=tdt)) for i in self._range)


class CounterDataset(RangeDataset):
    """`counter`: an infinite count."""

    _tf_name = "_ScanDataset"

    def __init__(self, start, step, dtype):
        self._start, self._step, self._dtype = to_int(start), to_int(step), dtype

    def _card(self):
        return INFINITE

    def _elements(self):
        tdt = self._dtype.torch_dtype
        return (wrap(torch.tensor(i, dtype=tdt)) for i in itertools.count(self._start, self._step))


class RandomDataset(CounterDataset):
    """`random`: an infinite stream of random int64 scalars, TF's: the 32-bit words of `PhiloxRandom(seed, seed2)`
    (TF's `get_seed(seed)`; fresh seeds made once per dataset when neither a global nor an op seed is set), the same
    stream every iteration unless `rerandomize_each_iteration` (then each pass's seeds come from the pair as
    `shuffle`'s do)."""

    _tf_name = "_RandomDataset"

    def __init__(self, seed, rerandomize):
        self._rerandomize, self._epoch, self._dtype = bool(rerandomize), 0, dtypes.int64
        self._seed = dataset_seeds(seed)

    def _elements(self):
        seeds = pass_seeds(self._seed, self._next_epoch() if self._rerandomize else None)
        return (wrap(torch.tensor(w, dtype=INT64)) for w in philox_words(*seeds))


# -- from_generator -----------------------------------------------------------------------------------------

def _signature(output_types, output_shapes, output_signature):
    """`from_generator`'s element spec from its signature arguments."""
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError("The `output_types` and `output_shapes` arguments cannot be used together with the "
                            "`output_signature` argument.")
        for s in st.flatten(output_signature):
            if not hasattr(s, "dtype") or not hasattr(s, "shape") or isinstance(s, Tensor):
                raise TypeError(f"`output_signature` must contain objects that are subclass of `tf.TypeSpec` but "
                                f"found {type(s)} which is not.")
        return st.map_leaves(lambda s: s if isinstance(s, st.RaggedTensorSpec) else
                             st.TensorSpec(TensorShape(s.shape), s.dtype), output_signature)
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the `output_signature` "
                        "argument or the `output_types` argument.")
    types = st.map_leaves(dtypes.as_dtype, output_types)
    flat_types = st.flatten(types)
    shapes = [None] * len(flat_types) if output_shapes is None else st.flatten_up_to_leaves(types, output_shapes)
    return st.pack(types, [st.TensorSpec(TensorShape(s), t) for t, s in zip(flat_types, shapes)])


class GeneratorDataset(Dataset):
    """Elements yielded by a Python generator, converted to the signature's dtypes and checked against its shapes."""

    _tf_name = "_FlatMapDataset"
    _stateful = "PyFunc"

    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        self._generator = generator
        self._args = tuple(st.to_tensor(a) for a in (args or ()))
        self._spec = _signature(output_types, output_shapes, output_signature)
        self._flat_spec = st.flatten(self._spec)

    def _elements(self):
        args = [a.numpy() for a in self._args]
        return _GeneratorIterator(iter(self._generator(*args)), self)

    def _convert(self, value):
        spec = self._spec
        try:
            flat = st.flatten_up_to_leaves(spec, value)
        except (TypeError, ValueError, KeyError):
            raise _py_error(TypeError(f"`generator` yielded an element that did not match the expected structure. "
                                      f"The expected structure was {_types_text(spec)}, but the yielded element "
                                      f"was {value}.")) from None
        out = []
        for s, v in zip(self._flat_spec, flat):
            if isinstance(s, st.RaggedTensorSpec):
                if not s.is_compatible_with(v):
                    raise _py_error(TypeError(f"`generator` yielded an element that did not match the expected "
                                              f"structure. The expected structure was {spec!r}, but the yielded "
                                              f"element was {value}."))
                out.append(v)
                continue
            try:
                arr = np.asarray(v, dtype=s.dtype.as_numpy_dtype if s.dtype != dtypes.string else object)
                if s.dtype == dtypes.string:
                    arr = np.vectorize(lambda b: b.encode() if isinstance(b, str) else bytes(b),
                                       otypes=[object])(arr) if arr.size else arr
            except (TypeError, ValueError):
                raise _py_error(TypeError(f"`generator` yielded an element that could not be converted to the "
                                          f"expected type. The expected type was {s.dtype.name}, but the yielded "
                                          f"element was {v}.")) from None
            if not s.shape.is_compatible_with(TensorShape(arr.shape)):
                raise _py_error(TypeError(f"`generator` yielded an element of shape {_tuple_text(arr.shape)} where "
                                          f"an element of shape {s.shape} was expected."))
            out.append(wrap(to_storage(arr, s.dtype, copy_numpy=not arr.flags.owndata)))
        return st.pack(spec, out)


def _tuple_text(shape):
    """A shape as Python prints a tuple."""
    return str(tuple(shape))


def _types_text(spec):
    """The dtypes of a spec's structure, as TF prints them in generator errors."""
    return repr(st.map_leaves(lambda s: s.dtype, spec))


def _py_error(e):
    """A Python error inside the generator as TF reports it: InvalidArgumentError naming the error."""
    return get_next_error(errors.InvalidArgumentError,
                           f"{type(e).__name__}: {e}\n\n\n\t [[{{{{node PyFunc}}}}]]")


class _GeneratorIterator:
    """Converts each generated value; a conversion error leaves the iterator usable (`ignore_errors`)."""

    __slots__ = ("_it", "_ds")

    def __init__(self, it, ds):
        self._it, self._ds = it, ds

    def __iter__(self):
        return self

    def __next__(self):
        try:
            value = next(self._it)
        except StopIteration:
            raise
        except Exception as e:  # noqa: BLE001  (TF wraps the generator's error)
            raise _py_error(e) from e
        return self._ds._convert(value)
