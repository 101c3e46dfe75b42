"""tf.math.top_k on rows holding NaN, against TF 2.21's CPU kernel (tests/fixtures/top_k/nan_rows.json, made by
record.py beside it): NaN's comparisons are all false, so TF's answer is its algorithm's, which tfcompat replays."""
import json
import os

import numpy as np
import pytest

import tfcompat as tf

_CASES = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "top_k", "nan_rows.json")))


def _row(c):
    return np.array([np.nan if v is None else v for v in c["row"]], np.float32)


def _kind(c):
    n, k = len(c["row"]), c["k"]
    return "max" if k == 1 else "sort" if k == n else "heap"


@pytest.mark.parametrize("c", [c for c in _CASES if _kind(c) == "max" or (_kind(c) == "sort" and len(c["row"]) <= 16)],
                         ids=lambda c: f"n{len(c['row'])}-k{c['k']}")
def test_max_scan_and_small_sort_as_tf(c):
    values, indices = tf.math.top_k(_row(c), k=c["k"], sorted=c["sorted"])
    assert indices.numpy().tolist() == c["indices"]
    np.testing.assert_array_equal(values.numpy(), _row(c)[c["indices"]])


def test_heap_selection_as_tf():
    # gtl::TopN replayed on libstdc++'s heap functions (drop the least, then push the new column): all 203 rows
    heap = [c for c in _CASES if _kind(c) == "heap"]
    same = sum(tf.math.top_k(_row(c), k=c["k"], sorted=c["sorted"]).indices.numpy().tolist() == c["indices"]
               for c in heap)
    assert (len(heap), same) == (203, 203)


def test_large_nan_sort_is_declared():
    row = np.arange(17, dtype=np.float32)
    row[3] = np.nan
    with pytest.raises(NotImplementedError, match="holding NaN"):
        tf.math.top_k(row, k=17)
    assert tf.math.top_k(np.arange(17, dtype=np.float32), k=17).indices.numpy().tolist() == list(range(16, -1, -1))


def test_rows_without_nan_keep_the_fast_path_and_batches_mix():
    x = np.array([[1.0, np.nan, 3.0, 2.0], [4.0, 1.0, 3.0, 2.0]], np.float32)
    values, indices = tf.math.top_k(x, k=1)
    assert indices.numpy().tolist() == [[2], [0]]           # TF: NaN skipped by the max scan
    values, indices = tf.math.top_k(x, k=3)
    assert indices.numpy().tolist() == [[1, 2, 0], [0, 2, 3]]   # TF drops 2.0 for 1.0 next to the NaN


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64", "int8", "float16"])
def test_every_real_dtype_still_sorts(dtype):
    values, indices = tf.math.top_k(tf.constant([[7, 0, 2, 5], [1, 4, 2, 1]], getattr(tf, dtype)), k=2)
    assert values.dtype.name == dtype
    assert (values.numpy().tolist(), indices.numpy().tolist()) == ([[7, 5], [4, 2]], [[0, 3], [1, 2]])


# sorted=False returns TF's heap layout (TF 2.21 CPU, recorded; np.random.default_rng(5) drew the inputs)
_A = [[[1, 2, -3, 2, 0, 0, 1, -1, 3, -3, -2, -1, 0, -1, -3, -3, -3, -3, -2, 3, -2, 1, 2, -2, -2],
       [0, -2, 3, -2, 3, 2, 2, -3, -1, 1, 0, 1, 1, 1, -3, 3, 0, 3, -2, -1, 3, -2, -3, -1, 1],
       [-3, 3, -1, -2, 0, 3, 3, 3, -1, -3, 2, 1, 2, -3, -3, 0, -1, 0, 3, -2, 0, -1, -1, 2, -2]],
      [[-1, -3, -2, -2, 1, 1, 0, -2, 2, 2, -2, -3, -1, -2, 2, 0, 0, -1, 0, 3, -2, 2, -3, -1, 3],
       [3, -3, 2, 2, 0, -1, 3, 3, 1, -1, -2, 3, -2, 0, 1, -2, -1, 2, -2, 1, 3, 1, 1, 0, 3],
       [-2, -1, 1, 1, -3, -2, 1, 2, 1, 3, -1, -1, 2, -3, -2, -2, -1, -2, 2, 2, -1, -3, 1, -3, 1]]]
_B = [-66, 88, 35, 98, 23, 44, -25, 61, -78, -70, -28, 42, -3, 69, 88, -20, -16, 10, 29, -5, 20, 91, 46, -37, -15,
      -20, -70]
_C = [[0, 39, 21, 17, 31, 28, 46, 30, 46, 28, 16, 16, 49, 29, 9, 41, 41, 0, 7, 34, 20, 17, 3, 9, 42, 41, 41, 28, 6, 16,
       26, 49, 12, 27, 24, 25, 27, 35, 5, 49],
      [43, 38, 13, 22, 22, 15, 2, 37, 0, 38, 9, 32, 17, 11, 46, 23, 44, 9, 24, 17, 22, 0, 33, 17, 42, 10, 16, 2, 39, 26,
       19, 45, 29, 48, 36, 29, 25, 10, 34, 39]]


@pytest.mark.parametrize("x, dtype, k, expected", [
    (_A, "float32", 7, [[[6, 3, 0, 8, 1, 19, 22], [6, 17, 5, 2, 4, 15, 20], [12, 7, 10, 6, 1, 5, 18]],
                        [[4, 14, 21, 9, 8, 19, 24], [2, 11, 24, 6, 0, 7, 20], [3, 18, 2, 12, 7, 9, 19]]]),
    (_B, "int32", 11, [18, 5, 2, 7, 22, 11, 13, 1, 3, 21, 14]),
    (_C, "uint16", 13, [[19, 1, 37, 16, 25, 26, 24, 12, 8, 31, 15, 6, 39],
                        [38, 7, 34, 1, 9, 39, 14, 33, 16, 24, 0, 31, 28]]),
], ids=["float32", "int32", "uint16"])
def test_unsorted_is_tf_heap_order(x, dtype, k, expected):
    values, indices = tf.math.top_k(tf.constant(x, getattr(tf, dtype)), k=k, sorted=False)
    assert indices.numpy().tolist() == expected and values.dtype.name == dtype
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(np.array(x), np.array(expected), -1))
    # k == 1 and k == num_cols ignore sorted=False, as TF's kernel does
    assert tf.math.top_k(_B, k=27, sorted=False).indices.numpy().tolist() == np.argsort(-np.array(_B),
                                                                                       kind="stable").tolist()
    assert tf.math.top_k(_B, k=1, sorted=False).indices.numpy().tolist() == [3]
