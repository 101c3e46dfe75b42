"""keras.utils.split_dataset against Keras 3.15.1 (golden values recorded from TF 2.21)."""
import random

import numpy as np
import pytest

import tfcompat as tf

X = np.arange(20).reshape(10, 2).astype("float32")
Y = np.arange(10)


def _desc(pair):
    return [(repr(d.element_spec), int(d.cardinality()),
             [tf.nest.map_structure(lambda t: t.numpy().tolist(), e) for e in d]) for d in pair]


def test_arrays_and_tuples():
    spec = "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"
    rows = X.tolist()
    assert _desc(tf.keras.utils.split_dataset(X, left_size=0.8)) == [(spec, 8, rows[:8]), (spec, 2, rows[8:])]
    pair_spec = f"({spec}, TensorSpec(shape=(), dtype=tf.int64, name=None))"
    pairs = list(zip(rows, Y.tolist()))
    assert _desc(tf.keras.utils.split_dataset((X, Y), right_size=3)) == [(pair_spec, 7, pairs[:7]),
                                                                         (pair_spec, 3, pairs[7:])]
    assert _desc(tf.keras.utils.split_dataset([X, Y], left_size=2, right_size=3)) == [(pair_spec, 2, pairs[:2]),
                                                                                      (pair_spec, 3, pairs[7:])]


def test_shuffle_uses_python_random():
    left, right = tf.keras.utils.split_dataset(Y, left_size=0.5, shuffle=True, seed=7)
    assert repr(left.element_spec) == "TensorSpec(shape=(), dtype=tf.int32, name=None)"
    assert [int(v) for v in left] == [8, 3, 1, 4, 7] and [int(v) for v in right] == [0, 9, 6, 2, 5]
    assert random.random() == 0.9097040631431023       # Keras seeds the global generator


def test_datasets():
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    spec = ("(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), "
            "TensorSpec(shape=(None,), dtype=tf.int64, name=None))")
    assert _desc(tf.keras.utils.split_dataset(ds, left_size=0.7)) == [
        (spec, 2, [(X[:4].tolist(), [0, 1, 2, 3]), (X[4:7].tolist(), [4, 5, 6])]),
        (spec, 1, [(X[7:].tolist(), [7, 8, 9])])]
    dict_spec = "{'a': TensorSpec(shape=(), dtype=tf.int64, name=None)}"
    assert _desc(tf.keras.utils.split_dataset(tf.data.Dataset.from_tensor_slices({"a": Y}), left_size=0.3)) == [
        (dict_spec, 3, [{"a": i} for i in range(3)]), (dict_spec, 7, [{"a": i} for i in range(3, 10)])]


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((X,), {}, ValueError, "At least one of the `left_size` or `right_size` must be specified. Received: "
                           "left_size=None and right_size=None"),
    ((5,), dict(left_size=1), TypeError, "Unsupported dataset type: <class 'int'>"),
    ((X,), dict(left_size=0), ValueError, "`left_size` should be either a positive integer smaller than 10, or a "
                                          "float within the range `[0, 1]`. Received: left_size=0"),
    ((X,), dict(left_size=1.0), ValueError, "`left_size` should be either a positive integer smaller than 10, or a "
                                            "float within the range `[0, 1]`. Received: left_size=1.0"),
    ((X,), dict(left_size=0.6, right_size=0.6), ValueError,
     "The sum of `left_size` and `right_size` is greater than 1. It must be less than or equal to 1."),
    ((X,), dict(left_size=6, right_size=6), ValueError, "The sum of `left_size` and `right_size` should be smaller "
                                                        "than the 10. Received: left_size + right_size = 12.0and "
                                                        "total_length = 10"),
    ((X,), dict(left_size="a"), TypeError, "Invalid `left_size` Type. Expected: int or float or None, Received: "
                                           "type(left_size)=<class 'str'>.  "),
    ((X,), dict(left_size=np.int64(3)), TypeError, "Invalid `left_size` Type. Expected: int or float or None, "
                                                   "Received: type(left_size)=<class 'numpy.int64'>.  "),
    ((X,), dict(left_size=0.01), ValueError, "With `dataset` of length=10, `left_size`=0 and `right_size`=10."
                                             "Resulting left side dataset split will be empty. Adjust any of the "
                                             "aforementioned parameters"),
    (([],), dict(left_size=1), ValueError, "Received an empty list dataset. Please provide a non-empty list of "
                                           "arrays."),
    (([X, Y[:3]],), dict(left_size=1), ValueError, "Received a list of NumPy arrays with different lengths.Mismatch "
                                                   "found at index 1, Expected shape=(10, 2) Received shape=(3,)."
                                                   "Please provide a list of NumPy arrays of the same length."),
    (([[1, 2], [3, 4]],), dict(left_size=1), ValueError, "Expected a list of `numpy.ndarray` objects,Received: "
                                                         "<class 'list'> at index 0."),
])
def test_errors(args, kwargs, error, message):
    with pytest.raises(error) as info:
        tf.keras.utils.split_dataset(*args, **kwargs)
    assert str(info.value) == message
