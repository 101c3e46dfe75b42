"""Transformations that combine datasets: `zip`, `concatenate`, `flat_map`, `interleave`,
`sample_from_datasets`, `choose_from_datasets`."""
import itertools

import torch

from tfcompat.data import structure as st
from tfcompat.data._common import (AUTOTUNE, INFINITE, UNKNOWN, call, cpu_count, dataset_op_error, get_next_error, parallel_cycle_length,
                                   round_robin, to_int)
from tfcompat.data.dataset import Dataset, DerivedDataset, unknown_cardinality
from tfcompat.eager.function._autograph import warn_if_unlocatable
from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops.random_ops import stateless_categorical


def as_dataset(value):
    """`value`, which a user function returned, if it is a Dataset (TF's TypeError otherwise)."""
    if not isinstance(value, Dataset):
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got {type(value)!r}.")
    return value


class FlatMapDataset(DerivedDataset):
    """`flat_map`: the elements of the dataset `fn(element)` returns, in order."""

    _tf_name = "_FlatMapDataset"

    def __init__(self, input_dataset, fn):
        super().__init__(input_dataset)
        self._fn = fn
        warn_if_unlocatable(fn)

    _card = unknown_cardinality

    def _compute_spec(self):
        spec = self._first_output(lambda e: as_dataset(call(self._fn, e)).element_spec)
        if spec is None:
            raise NotImplementedError("element_spec of flat_map over an empty dataset")
        return spec

    def _elements(self):
        for element in self._input._elements():
            yield from as_dataset(call(self._fn, element))._elements()


class InterleaveDataset(FlatMapDataset):
    """`interleave`: blocks of `block_length` from `cycle_length` datasets of `fn`, round robin."""

    _tf_name = "_InterleaveDataset"

    def __init__(self, input_dataset, fn, cycle_length, block_length, num_parallel_calls):
        super().__init__(input_dataset, fn)
        cycle = AUTOTUNE if cycle_length is None else to_int(cycle_length)
        self._parallel = None if num_parallel_calls is None else to_int(num_parallel_calls)
        if cycle == AUTOTUNE:
            cycle = cpu_count() if self._parallel is None else parallel_cycle_length(self._parallel)
        self._block = 1 if block_length is None else to_int(block_length)
        for name, v in (("cycle_length", cycle), ("block_length", self._block)):
            if v <= 0:
                raise dataset_op_error(errors.InvalidArgumentError, f"{name} must be greater than zero.",
                                       "InterleaveDataset", "_Targuments_0")
        self._cycle = cycle
        if num_parallel_calls is not None:
            self._tf_name = "_ParallelInterleaveDataset"

    def _elements(self):
        parallel = self._parallel
        if parallel is not None and parallel != AUTOTUNE and parallel > self._cycle:
            raise errors.op_error(errors.InvalidArgumentError, (
                "If `cycle_length` is set to a fixed value, `num_parallel_calls` must be either `tf.data.AUTOTUNE` "
                f"or a value less than or equal to `cycle_length`. However, `num_parallel_calls` is {parallel} and "
                f"`cycle_length` is {self._cycle}"), "MakeIterator")
        datasets = (iter(as_dataset(call(self._fn, element))._elements()) for element in self._input._elements())
        return round_robin(datasets, self._cycle, self._block)


class ZipDataset(DerivedDataset):
    """`zip`: tuples (or structures) of one element of each input; ends with the shortest."""

    _tf_name = "_ZipDataset"

    def __init__(self, structure):
        flat = st.flatten(structure)
        for d in flat:
            if not isinstance(d, Dataset):
                raise TypeError("Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                                "`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                                "`tuple` instead.")
        super().__init__(*flat)
        self._structure = structure

    def _compute_spec(self):
        return st.pack(self._structure, [d.element_spec for d in self._inputs])

    def _card(self):
        cards = [d._card() for d in self._inputs]
        if UNKNOWN in cards:
            return UNKNOWN
        finite = [c for c in cards if c >= 0]
        return min(finite) if finite else INFINITE

    def _elements(self):
        tmpl = self._structure
        return (st.pack(tmpl, list(parts)) for parts in zip(*(d._elements() for d in self._inputs)))


def _common_spec(datasets):
    """The most specific spec compatible with all of `datasets`' element specs (TF's TypeError if none)."""
    spec = datasets[0].element_spec
    for d in datasets[1:]:
        other = d.element_spec
        fa, fb = st.flatten(spec), st.flatten(other)
        relaxed = [st.relax(x, y) for x, y in zip(fa, fb)] if len(fa) == len(fb) else [None]
        if None in relaxed:
            raise TypeError(f"Incompatible dataset elements:\n  {spec!r} vs.   {other!r}")
        spec = st.pack(spec, relaxed)
    return spec


class ConcatenateDataset(DerivedDataset):
    """`concatenate`: the first input's elements, then the second's."""

    _tf_name = "_ConcatenateDataset"

    def __init__(self, first, second):
        super().__init__(first, second)
        self._spec = _common_spec(self._inputs)

    def _card(self):
        a, b = (d._card() for d in self._inputs)
        if INFINITE in (a, b):
            return INFINITE
        return UNKNOWN if UNKNOWN in (a, b) else a + b

    def _elements(self):
        return itertools.chain(self._inputs[0]._elements(), self._inputs[1]._elements())


def sample_from_datasets(datasets, weights, seed, stop_on_empty, rerandomize):
    """`Dataset.sample_from_datasets`, as TF builds it: datasets of zero (Python) weight dropped, a single dataset
    returned as is, else a `SampleDataset`."""
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if isinstance(weights, Dataset):
        raise NotImplementedError("sample_from_datasets with a `weights` dataset")
    if weights is None:
        logits = torch.ones(1, len(datasets))
    else:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible with "
                                 f"`[len(datasets)]` but is {weights.shape}.")
        else:
            if len(datasets) != len(weights):
                raise ValueError(f"Invalid `weights`. `weights` should have the same length as `datasets` but got "
                                 f"`len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
            kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
            datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept else \
                ([datasets[0].take(0)], [1.0])
        weights = convert_to_tensor(weights)
        if weights.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but is "
                            f"{weights.dtype}.")
        logits = torch.log(storage(weights)).reshape(1, -1)
    if len(datasets) == 1:
        return datasets[0]
    from tfcompat.data.sources import RandomDataset
    return SampleDataset(datasets, logits, RandomDataset(seed, rerandomize), stop_on_empty)


class SampleDataset(DerivedDataset):
    """Draws each element from a dataset chosen at random (TF's `_DirectedInterleaveDataset` over a selector): each
    choice is `stateless_multinomial(log(weights), 1)` seeded by the next two values of a `Dataset.random`; a choice
    of an exhausted dataset draws again (or ends the dataset with `stop_on_empty_dataset`)."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, logits, random_dataset, stop_on_empty):
        super().__init__(*datasets, random_dataset)
        self._datasets, self._random, self._stop = tuple(datasets), random_dataset, bool(stop_on_empty)
        self._logits = wrap(logits)
        self._spec = _common_spec(self._datasets)

    def _card(self):
        cards = [d._card() for d in self._datasets]
        return INFINITE if any(c == INFINITE for c in cards) else UNKNOWN

    def _elements(self):
        its = [iter(d._elements()) for d in self._datasets]
        active = len(its)
        words = self._random._elements()
        for a in words:
            seed = wrap(torch.stack([storage(a), storage(next(words))]))
            i = int(storage(stateless_categorical(self._logits, 1, seed=seed)).reshape(()))
            if its[i] is None:
                continue
            try:
                yield next(its[i])
            except StopIteration:
                if self._stop:
                    return
                its[i] = None
                active -= 1
                if not active:
                    return


class ChooseDataset(DerivedDataset):
    """Takes the next element of `datasets[i]` for each `i` of `choice_dataset`."""

    _tf_name = "_DirectedInterleaveDataset"

    def __init__(self, datasets, choice_dataset, stop_on_empty):
        datasets = tuple(datasets)
        if not datasets:
            raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
        super().__init__(*datasets, choice_dataset)
        cs = choice_dataset.element_spec
        if st.is_nested(cs) or cs.dtype != dtypes.int64 or cs.shape.rank != 0:
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` "
                            f"tensors but are {cs!r}.")
        self._datasets, self._choices, self._stop = datasets, choice_dataset, bool(stop_on_empty)
        self._spec = _common_spec(self._datasets)

    _card = unknown_cardinality

    def _elements(self):
        its = [iter(d._elements()) for d in self._datasets]
        for choice in self._choices._elements():
            c = storage(choice)
            i = int(c) if isinstance(c, torch.Tensor) else int(choice._array())
            if not 0 <= i < len(its):
                raise get_next_error(errors.InvalidArgumentError,
                                     f"Selector index out of range: {i} >= {len(its)}")
            try:
                yield next(its[i])
            except StopIteration:
                if self._stop:
                    return
