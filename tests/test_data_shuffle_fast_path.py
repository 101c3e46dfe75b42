"""`shuffle` over an input that fits in its buffer computes TF's ring-buffer order as one permutation: the same
order as the element-by-element ring buffer (whose values are checked against TF 2.21 in
tests/test_corpus_tutkeras_data.py)."""
import numpy as np
import pytest

import tfcompat as tf
from tfcompat.data import _ordering


@pytest.mark.parametrize("n, buffer", [(1, 1), (5, 5), (7, 10), (33, 33), (1000, 1000), (1000, 4096)])
@pytest.mark.parametrize("seeds", [(1, 2), (123456789, 987654321), (0, 7)])
def test_whole_buffer_order_equals_the_ring_buffer(n, buffer, seeds):
    indices = np.arange(n, dtype=np.int64) * 3 + 1
    ring = list(_ordering._buffer_shuffle(indices.tolist(), buffer, _ordering.philox_words(*seeds)))
    assert _ordering._whole_buffer_order(indices, seeds).tolist() == ring


def test_a_dataset_shuffle_takes_the_whole_buffer_path_and_the_ring_buffer_alike():
    def order(n, buffer):
        ds = tf.data.Dataset.range(n).shuffle(buffer, seed=5, reshuffle_each_iteration=True)
        return [[int(x) for x in ds] for _ in range(2)]
    fast, ring = order(20, 20), order(20, 21)      # 21 > 20: still fits; both take the fast path
    assert fast == ring and fast[0] != fast[1] and sorted(fast[0]) == list(range(20))
    streamed = tf.data.Dataset.range(20).map(lambda x: x).filter(lambda x: True)   # unknown cardinality
    assert [int(x) for x in streamed.shuffle(20, seed=5)] == fast[0]
