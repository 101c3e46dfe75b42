"""Transformations that reorder or select elements: `shuffle`, `repeat`, `take`, `skip`, `shard`.

Over in-memory slices (`from_tensor_slices`), `shuffle`/`repeat`/`take`/`skip` rewrite the pipeline's index
stream instead of its elements, so a following `batch` gathers each batch with one `index_select`.
"""
import itertools

import numpy as np

from tfcompat.data._common import AUTOTUNE, INFINITE, UNKNOWN, to_int
from tfcompat.data.dataset import DerivedDataset
from tfcompat.framework import errors
from tfcompat.ops.random_ops import draw_seed


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
    """`shuffle`: TF's buffer shuffle, reseeded per epoch unless `reshuffle_each_iteration=False`."""

    _tf_name = "_ShuffleDataset"

    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        super().__init__(input_dataset)
        if buffer_size <= 0 and buffer_size != AUTOTUNE:
            raise errors.InvalidArgumentError(None, None, "buffer_size must be greater than zero.")
        self._buffer = buffer_size if buffer_size > 0 else 1000
        seed = None if seed is None else to_int(seed)
        self._seed = seed if seed is not None else draw_seed()
        self._reshuffle = reshuffle_each_iteration is None or bool(reshuffle_each_iteration)
        self._epoch = 0

    def _rng(self):
        epoch = self._next_epoch() if self._reshuffle else 0
        return np.random.default_rng([self._seed, epoch])

    def _indices(self, chunks):
        return _shuffle_indices(chunks(), self._buffer, self._rng(), self._input._card())

    def _stream(self):
        return _shuffle_stream(self._input._elements(), self._buffer, self._rng())


def _shuffle_indices(chunks, k, rng, n):
    """TF's buffer shuffle of an index stream, as chunks of int64 indices."""
    if 0 <= n <= k:      # the whole input fits in the buffer: a uniform permutation
        yield rng.permutation(np.concatenate(list(chunks))) if n else np.empty(0, np.int64)
        return
    buf = []
    for chunk in chunks:
        values = chunk.tolist()
        fill = min(k - len(buf), len(values))
        buf.extend(values[:fill])
        rest = values[fill:]
        if not rest:
            continue
        picks = rng.integers(0, k, size=len(rest)).tolist()
        out = []
        for j, v in zip(picks, rest):
            out.append(buf[j])
            buf[j] = v
        yield np.array(out, dtype=np.int64)
    yield rng.permutation(np.array(buf, dtype=np.int64))


def _shuffle_stream(elements, k, rng):
    """TF's buffer shuffle of an element stream."""
    buf = []
    for element in elements:
        if len(buf) < k:
            buf.append(element)
            continue
        j = int(rng.integers(0, k))
        yield buf[j]
        buf[j] = element
    for j in rng.permutation(len(buf)).tolist():
        yield buf[j]


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
            raise errors.InvalidArgumentError(None, None, "Number of shards must be greater than zero "
                                              f"(currently num_shards = {num_shards}).")
        if not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(None, None, "Index must be between 0 and "
                                              f"{num_shards - 1} (currently index = {index}).")
        super().__init__(input_dataset)
        self._num, self._index = num_shards, index

    def _card(self):
        n = self._input._card()
        return n if n < 0 else max(n - self._index + self._num - 1, 0) // self._num

    def _elements(self):
        return itertools.islice(self._input._elements(), self._index, None, self._num)
