"""Dataset sources built from Python: `from_generator`, `sample_from_datasets`, `choose_from_datasets`."""

import numpy as np
import torch

from tfcompat.data import structure as st
from tfcompat.data.dataset import INFINITE, UNKNOWN, Dataset, _get_next_error, _int
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.random_ops import draw_seed


def _signature(output_types, output_shapes, output_signature):
    if output_signature is not None:
        if output_types is not None or output_shapes is not None:
            raise TypeError("The `output_types` and `output_shapes` arguments cannot be used together with the "
                            "`output_signature` argument.")
        for s in st.flatten(output_signature):
            if not hasattr(s, "dtype") or not hasattr(s, "shape") or isinstance(s, Tensor):
                raise TypeError(f"`output_signature` must contain objects that are subclass of `tf.TypeSpec` but "
                                f"found {type(s)} which is not.")
        return st.map_leaves(lambda s: st.TensorSpec(TensorShape(s.shape), s.dtype), output_signature)
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
    return str(tuple(shape))


def _types_text(spec):
    return repr(st.map_leaves(lambda s: s.dtype, spec))


def _py_error(e):
    """A Python error inside the generator as TF reports it: InvalidArgumentError naming the error."""
    return _get_next_error(errors.InvalidArgumentError,
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


def _common_spec(datasets):
    spec = datasets[0].element_spec
    for d in datasets[1:]:
        other = d.element_spec
        fa, fb = st.flatten(spec), st.flatten(other)
        relaxed = [st.relax(x, y) for x, y in zip(fa, fb)] if len(fa) == len(fb) else [None]
        if None in relaxed:
            raise TypeError(f"Incompatible dataset elements:\n  {spec!r} vs.   {other!r}")
        spec = st.pack(spec, relaxed)
    return spec


class SampleDataset(Dataset):
    """Draws each element from a dataset chosen at random with `weights` (TF's `_DirectedInterleaveDataset`)."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, weights, seed, stop_on_empty, rerandomize):
        self._inputs = tuple(datasets)
        if not self._inputs:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        if isinstance(weights, Dataset):
            raise NotImplementedError("sample_from_datasets with a `weights` dataset")
        n = len(self._inputs)
        w = np.full(n, 1.0 / n) if weights is None else np.asarray(
            weights._array() if isinstance(weights, Tensor) else weights, dtype=np.float64)
        if w.shape != (n,):
            raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible with `[len(datasets)]` "
                             f"but is {list(w.shape)}.")
        self._weights, self._stop = w, bool(stop_on_empty)
        self._rerandomize, self._epoch = bool(rerandomize), 0
        self._seed = draw_seed() if seed is None else _int(seed)
        self._spec = _common_spec(self._inputs)

    def _card(self):
        cards = [d._card() for d in self._inputs]
        return INFINITE if all(c == INFINITE for c in cards) else UNKNOWN

    def _elements(self):
        rng = np.random.default_rng([self._seed, self._next_epoch()] if self._rerandomize else self._seed)
        its = [iter(d._elements()) for d in self._inputs]
        w = self._weights.copy()
        while w.sum() > 0:
            i = int(rng.choice(len(its), p=w / w.sum()))
            try:
                yield next(its[i])
            except StopIteration:
                if self._stop:
                    return
                w[i] = 0


class ChooseDataset(Dataset):
    """Takes the next element of `datasets[i]` for each `i` of `choice_dataset`."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, choice_dataset, stop_on_empty):
        self._inputs = tuple(datasets) + (choice_dataset,)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        cs = choice_dataset.element_spec
        if st.is_nested(cs) or cs.dtype != dtypes.int64 or cs.shape.rank != 0:
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` "
                            f"tensors but are {cs!r}.")
        self._datasets, self._choices, self._stop = tuple(datasets), choice_dataset, bool(stop_on_empty)
        self._spec = _common_spec(self._datasets)

    def _card(self):
        return UNKNOWN

    def _elements(self):
        its = [iter(d._elements()) for d in self._datasets]
        for choice in self._choices._elements():
            i = int(choice._t) if isinstance(choice._t, torch.Tensor) else int(choice._array())
            if not 0 <= i < len(its):
                raise _get_next_error(errors.InvalidArgumentError,
                                      f"Selector index out of range: {i} >= {len(its)}")
            try:
                yield next(its[i])
            except StopIteration:
                if self._stop:
                    return
