"""Transformations that reorder or select elements: `shuffle`, `repeat`, `take`, `skip`, `shard`.

Over in-memory slices (`from_tensor_slices`), `shuffle`/`repeat`/`take`/`skip` rewrite the pipeline's index
stream instead of its elements, so a following `batch` gathers each batch with one `index_select`.
"""
import itertools

import numpy as np

from tfcompat.data._common import INFINITE, UNKNOWN, dataset_op_error, dataset_seeds, pass_seeds, philox_words
from tfcompat.data.dataset import DerivedDataset
from tfcompat.framework import errors
from tfcompat.ops import _philox


class IndexStreamDataset(DerivedDataset):
    """A transformation that over an index plan rewrites the index chunks (`_indices`), else the elements
    (`_stream`)."""

    def _indices(self, chunks):
        """The rewritten index stream, from `chunks`, the input's callable that starts its index stream."""
        raise NotImplementedError(type(self).__name__)

    def _stream(self):
        """The elements when the input has no index plan."""
        raise NotImplementedError(type(self).__name__)

    def _plan(self):
        plan = self._input._plan()
        if plan is None:
            return None
        source, chunks = plan
        return source, lambda: self._indices(chunks)

    def _elements(self):
        plan = self._plan()
        if plan is None:
            return self._stream()
        return _plan_elements(*plan)


def _plan_elements(source, chunks):
    """The elements of an index plan: `source`'s element at each index of the chunks."""
    for idx in chunks():
        yield from map(source._element_at, idx.tolist())


class ShuffleDataset(IndexStreamDataset):
    """`shuffle`: TF's buffer shuffle (`ShuffleDatasetV3`), its order bit for bit.

    The seed pair is TF's `get_seed(seed)` taken when the dataset is made (two draws of the global stream when
    neither a global nor an op seed is set). Each pass over the input (an iterator) takes its Philox seeds from the
    dataset's seed generator, as TF's `RandomSeedGenerator` does: two successive 32-bit words of
    `PhiloxRandom(seed, seed2)` per pass (`reshuffle_each_iteration=False`: the seed pair itself, every pass).
    """

    _tf_name = "_ShuffleDataset"

    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        super().__init__(input_dataset)
        if buffer_size <= 0 and buffer_size != UNKNOWN:
            raise dataset_op_error(errors.InvalidArgumentError, "buffer_size must be greater than zero or "
                                   "UNKNOWN_CARDINALITY", "ShuffleDatasetV3")
        # UNKNOWN_CARDINALITY: a buffer that grows to hold the whole input
        n = input_dataset._card()
        self._buffer = buffer_size if buffer_size > 0 else n if n > 0 else 1 << 16
        self._seed = dataset_seeds(seed)
        self._reshuffle = reshuffle_each_iteration is None or bool(reshuffle_each_iteration)
        self._epoch = 0

    def _pass_seeds(self):
        """This pass's Philox seeds (TF's `SingleSampleAdapter<PhiloxRandom>` of the iterator)."""
        return pass_seeds(self._seed, self._next_epoch() if self._reshuffle else None)

    def _indices(self, chunks):
        seeds = self._pass_seeds()
        n = self._input._card()
        if 0 <= n <= self._buffer:      # the whole input fits in the buffer: one permutation, made at once
            return iter([_whole_buffer_order(np.concatenate([np.empty(0, np.int64), *chunks()]), seeds)])
        return _chunked(_buffer_shuffle(itertools.chain.from_iterable(c.tolist() for c in chunks()), self._buffer,
                                        philox_words(*seeds)))

    def _stream(self):
        return _buffer_shuffle(self._input._elements(), self._buffer, philox_words(*self._pass_seeds()))


def _whole_buffer_order(indices, seeds):
    """`_buffer_shuffle`'s order of `indices` when they all fit in the buffer: the ring never wraps, so output `i`
    is the element at slot `i + word_i % (n - i)`, whose slot then takes slot `i`'s element (a Fisher-Yates swap).
    The words and picks are computed as arrays; only the swaps run in Python (~20 ms for 60,000 elements)."""
    n = len(indices)
    words = _philox._bits((n + 3) // 4, _philox.Stateful(*seeds, 0)).reshape(-1)[:n].astype(np.int64)
    order = indices.tolist()
    for i, j in enumerate((words % np.arange(n, 0, -1) + np.arange(n)).tolist()):
        order[i], order[j] = order[j], order[i]
    return np.array(order, dtype=np.int64)


def _buffer_shuffle(elements, k, words):
    """TF's shuffle iterator: a ring buffer of `k` slots filled from `elements`; each output takes the element at
    `(start + word % filled) % k`, moves the slot at `start` into its place and advances `start`."""
    buf = [None] * k
    start = end = 0
    it = iter(elements)
    exhausted = False
    while True:
        while not exhausted and end - start < k:
            for element in it:
                buf[end % k] = element
                end += 1
                break
            else:
                exhausted = True
        if end == start:
            return
        j = (start + next(words) % (end - start)) % k
        s = start % k
        yield buf[j]
        buf[j], buf[s] = buf[s], None
        start += 1


def _chunked(indices, size=1024):
    """An index stream as int64 chunks."""
    while True:
        chunk = list(itertools.islice(indices, size))
        if not chunk:
            return
        yield np.array(chunk, dtype=np.int64)


class RepeatDataset(IndexStreamDataset):
    """`repeat`: the input `count` times (forever if negative); stops early on an empty input."""

    _tf_name = "_RepeatDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = count

    def _card(self):
        n, c = self._input._card(), self._count
        if c == 0 or n == 0:
            return 0
        if n == INFINITE or c < 0:
            return INFINITE
        return UNKNOWN if n == UNKNOWN else n * c

    def _epochs(self):
        return itertools.count() if self._count < 0 else range(self._count)

    def _indices(self, chunks):
        for _ in self._epochs():
            empty = True
            for idx in chunks():
                empty = empty and not len(idx)
                yield idx
            if empty:
                return

    def _stream(self):
        for _ in self._epochs():
            empty = True
            for element in self._input._elements():
                empty = False
                yield element
            if empty:
                return


class TakeDataset(IndexStreamDataset):
    """`take`: the first `count` elements (all if negative)."""

    _tf_name = "_TakeDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = count

    def _card(self):
        n, c = self._input._card(), self._count
        if c < 0:
            return n
        if n == INFINITE:
            return c
        return UNKNOWN if n == UNKNOWN else min(n, c)

    def _indices(self, chunks):
        return chunks() if self._count < 0 else _take_indices(chunks, self._count)

    def _stream(self):
        if self._count < 0:
            return self._input._elements()
        return itertools.islice(self._input._elements(), self._count)


def _take_indices(chunks, count):
    """The first `count` indices of an index stream."""
    left = count
    for idx in chunks():
        if left <= 0:
            return
        idx = idx[:left]
        left -= len(idx)
        yield idx


class SkipDataset(IndexStreamDataset):
    """`skip`: all but the first `count` elements (none if negative)."""

    _tf_name = "_SkipDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = count

    def _card(self):
        n, c = self._input._card(), self._count
        if c < 0:
            return 0 if n != INFINITE else INFINITE
        if n < 0:
            return n
        return max(n - c, 0)

    def _indices(self, chunks):
        left = self._count
        for idx in chunks():
            if left < 0:
                return
            if left:
                cut = min(left, len(idx))
                idx, left = idx[cut:], left - cut
            yield idx

    def _stream(self):
        if self._count < 0:
            for _ in self._input._elements():
                pass
            return iter(())
        return itertools.islice(self._input._elements(), self._count, None)


class ShardDataset(DerivedDataset):
    """`shard`: every `num_shards`-th element from `index`."""

    _tf_name = "_ShardDataset"

    def __init__(self, input_dataset, num_shards, index):
        if num_shards <= 0:
            raise dataset_op_error(errors.InvalidArgumentError, "Number of shards must be greater than zero "
                                   f"(currently num_shards = {num_shards}).", "ShardDataset")
        if not 0 <= index < num_shards:
            raise dataset_op_error(errors.InvalidArgumentError, "Index must be between 0 and "
                                   f"{num_shards - 1} (currently index = {index}).", "ShardDataset")
        super().__init__(input_dataset)
        self._num, self._index = num_shards, index

    def _card(self):
        n = self._input._card()
        return n if n < 0 else max(n - self._index + self._num - 1, 0) // self._num

    def _elements(self):
        return itertools.islice(self._input._elements(), self._index, None, self._num)
