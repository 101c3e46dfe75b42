"""Element-wise transformations: `map` (sequential and parallel), `filter`, `take_while`, `scan`, `enumerate`,
`unique`, `ignore_errors`."""
import itertools

import torch

from tfcompat.data import structure as st
from tfcompat.data._common import (AUTOTUNE, StepIterator, call, call_args, check_arity, cpu_count, dataset_op_error, fn_output,
                                   pool, scalar64)
from tfcompat.data.dataset import Dataset, DerivedDataset, unknown_cardinality
from tfcompat.eager.function._autograph import warn_if_unlocatable
from tfcompat.framework import dtypes, errors
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import storage
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.io_ops._common import spec_probe


def _known_spec(dataset):
    """The dataset's element spec when it is known without running user functions (cached, or a source's), else
    None."""
    spec = dataset.__dict__.get("_spec")
    if spec is None and not isinstance(dataset, DerivedDataset) and type(dataset)._compute_spec is not \
            Dataset._compute_spec:
        spec = dataset.element_spec
    return spec


class MapDataset(DerivedDataset):
    """`map`: `fn(element)` per element, in order."""

    _tf_name = "_MapDataset"

    def __init__(self, input_dataset, fn):
        super().__init__(input_dataset)
        self._fn = fn
        warn_if_unlocatable(fn)
        check_arity(fn, _known_spec(input_dataset))

    def _apply(self, element):
        return fn_output(call(self._fn, element))

    def _compute_spec(self):
        # the function runs on the first element; an output dimension is unknown where it may follow an unknown
        # input dimension: an output of the same shape as an input component takes that component's static shape
        # (`x * 2` over (None, 2) stays (None, 2)), others lose the dimensions whose sizes unknown ones had
        in_spec = self._input.element_spec
        sizes, by_shape, dynamic = set(), {}, {}

        def run(element):
            for s, t in zip(st.flatten(in_spec), st.flatten(element)):
                if not isinstance(s, st.DatasetSpec) and s.shape.rank is not None:
                    dims = tuple(t.shape.as_list() if isinstance(t, SparseTensor) else storage(t).shape)
                    static = s.shape.as_list()
                    if not isinstance(s, st.SparseTensorSpec):
                        by_shape.setdefault(dims, static)
                    sizes.update(n for d, n in zip(static, dims) if d is None)
            outer = getattr(spec_probe, "dynamic", None)
            spec_probe.dynamic = dynamic        # results whose shapes depend on values (decoders) note themselves
            try:
                return self._apply(element)
            finally:
                spec_probe.dynamic = outer

        out = self._first_output(run)
        if out is None:
            raise NotImplementedError("element_spec of a map over an empty dataset (tfcompat runs map "
                                      "functions on the first element to find it)")

        def general(s):
            if isinstance(s, st.DatasetSpec) or s.shape.rank is None:
                return s
            dims = s.shape.as_list()
            if isinstance(s, st.SparseTensorSpec):
                return st.with_shape(s, [None] * len(dims))
            static = by_shape.get(tuple(dims))
            return st.with_shape(s, static if static is not None else [None if d in sizes else d for d in dims])

        def spec(t):
            s = general(st.spec_of(t))
            if id(t) in dynamic and dynamic[id(t)][0] is t:
                known = dynamic[id(t)][1]
                s = st.with_shape(s, None if known is None else
                                  [d if i in known else None for i, d in enumerate(s.shape.as_list())])
            return s
        return st.map_leaves(spec, out)

    def _elements(self):
        return MapIterator(iter(self._input._elements()), self._apply)


class MapIterator(StepIterator):
    """Applies a function per element; an error leaves the iterator usable (for `ignore_errors`)."""

    __slots__ = ("_it", "_fn")

    def __init__(self, it, fn):
        self._it, self._fn = it, fn

    def __next__(self):
        return self._fn(next(self._it))


class ParallelMapDataset(MapDataset):
    """`map(num_parallel_calls=...)`: `fn` runs in the thread pool, outputs in input order."""

    _tf_name = "_ParallelMapDataset"

    def __init__(self, input_dataset, fn, num_parallel_calls):
        if num_parallel_calls <= 0 and num_parallel_calls != AUTOTUNE:
            raise dataset_op_error(errors.InvalidArgumentError, "num_parallel_calls must be greater than zero.",
                                   "ParallelMapDatasetV2", "_Targuments_0")
        super().__init__(input_dataset, fn)
        self._parallel = cpu_count() if num_parallel_calls == AUTOTUNE else num_parallel_calls

    def _elements(self):
        return ParallelIterator(iter(self._input._elements()), self._apply, self._parallel)


class ParallelIterator(StepIterator):
    """Runs `fn` on up to `parallel` elements ahead in a thread pool and returns results in input order."""

    def __init__(self, it, fn, parallel):
        self._it, self._fn, self._parallel = it, fn, parallel
        self._pending = []
        self._exhausted = False

    def _fill(self):
        executor = pool()
        while not self._exhausted and len(self._pending) < self._parallel:
            try:
                element = next(self._it)
            except StopIteration:
                self._exhausted = True
                break
            self._pending.append(executor.submit(self._fn, element))

    def __next__(self):
        self._fill()
        if not self._pending:
            raise StopIteration
        return self._pending.pop(0).result()


class FilterDataset(DerivedDataset):
    """`filter`: the elements whose predicate is True."""

    _tf_name = "_FilterDataset"

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._pred = predicate
        warn_if_unlocatable(predicate)

    _card = unknown_cardinality

    def _elements(self):
        return FilterIterator(iter(self._input._elements()), self._pred)


def _predicate_value(value, what="`predicate` must return a `tf.bool` scalar tensor, but its return type is "):
    """A predicate's result as a Python bool (TF's errors for anything but a bool scalar)."""
    if type(value) is bool:
        return value
    t = st.to_tensor(value) if not isinstance(value, (tuple, list)) else None
    if t is None:
        raise AttributeError("'tuple' object has no attribute 'is_compatible_with'")
    s = storage(t)
    if s.dtype is not torch.bool or s.ndim != 0:
        raise ValueError(f"Invalid `predicate`. {what}{st.spec_of_tensor(t)!r}.")
    return bool(s)


class FilterIterator(StepIterator):
    """Yields the elements whose predicate is True; an error leaves the iterator usable."""

    __slots__ = ("_it", "_pred")

    def __init__(self, it, pred):
        self._it, self._pred = it, pred

    def __next__(self):
        pred = self._pred
        for element in self._it:
            if _predicate_value(call(pred, element)):
                return element
        raise StopIteration


class TakeWhileDataset(FilterDataset):
    """`take_while`: the elements before the first whose predicate is False."""

    _tf_name = "_TakeWhileDataset"

    def _elements(self):
        for element in self._input._elements():
            if not _predicate_value(call(self._pred, element),
                                    "`predicate` must return a `tf.bool` scalar tensor but its return type is"):
                return
            yield element


class EnumerateDataset(DerivedDataset):
    """`enumerate`: `(int64 index, element)` pairs (TF builds it as a zip)."""

    _tf_name = "_ZipDataset"

    def __init__(self, input_dataset, start):
        super().__init__(input_dataset)
        self._start = start

    def _compute_spec(self):
        return st.TensorSpec(TensorShape(()), dtypes.int64), self._input.element_spec

    def _elements(self):
        return ((scalar64(i), e) for i, e in zip(itertools.count(self._start), self._input._elements()))


class ScanDataset(DerivedDataset):
    """`scan`: `(state, output) = fn(state, element)`, emitting `output`."""

    _tf_name = "_ScanDataset"

    def __init__(self, input_dataset, initial_state, fn):
        super().__init__(input_dataset)
        self._state, self._fn = st.normalize(initial_state), fn
        warn_if_unlocatable(fn)

    def _step(self, state, element):
        out = call_args(self._fn, state, element)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("The scan function must return a pair comprising the new state and the output value.")
        return fn_output(out[0]), fn_output(out[1])

    def _compute_spec(self):
        out = self._first_output(lambda e: self._step(self._state, e)[1])
        if out is None:
            raise NotImplementedError("element_spec of scan over an empty dataset")
        return st.spec_of(out)

    def _elements(self):
        state = self._state
        for element in self._input._elements():
            state, out = self._step(state, element)
            yield out


class IgnoreErrorsDataset(DerivedDataset):
    """`ignore_errors`: skips the elements whose production raised an OpError."""

    _tf_name = "_IgnoreErrorsDataset"

    _card = unknown_cardinality

    def _elements(self):
        it = iter(self._input._elements())
        while True:
            try:
                element = next(it)
            except StopIteration:
                return
            except errors.OpError:
                continue
            yield element


class UniqueDataset(DerivedDataset):
    """`unique`: the first occurrence of each scalar int or string element."""

    _tf_name = "_UniqueDataset"

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        spec = input_dataset.element_spec
        if st.is_nested(spec) or spec.shape.rank != 0 or not (spec.dtype.is_integer or spec.dtype == dtypes.string):
            raise TypeError("`tf.data.Dataset.unique` does not support type "
                            f"{spec.dtype.name if not st.is_nested(spec) else spec}.")

    _card = unknown_cardinality

    def _elements(self):
        seen = set()
        for element in self._input._elements():
            key = element._array()[()]
            key = key.item() if hasattr(key, "item") else key
            if key not in seen:
                seen.add(key)
                yield element
