"""A Python number beside a tensor converts to the tensor's dtype as TF converts it (values recorded from TF 2.21)."""
import numpy as np

import tfcompat as tf


def test_a_number_beyond_the_dtype_range_is_inf_there():
    x = tf.constant([1.0, 2.0])
    assert (x + 1e300).numpy().tolist() == [np.inf, np.inf]
    assert (x * 1e300).numpy().tolist() == [np.inf, np.inf]
    assert (tf.constant([1.0], tf.float16) + 100000.0).numpy().tolist() == [np.inf]
    assert (tf.constant([1.0], tf.float16) + 1e300).numpy().tolist() == [np.inf]
    assert (tf.constant([1.0], tf.bfloat16) * 1e300).numpy().astype(np.float32).tolist() == [np.inf]


def test_an_int_beyond_int64_beside_a_float_tensor():
    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal((x * 2 ** 70).numpy(), np.array([1.1805916e+21, 2.3611832e+21], np.float32))
    np.testing.assert_array_equal((x / 2 ** 70).numpy(), np.array([8.4703295e-22, 1.6940659e-21], np.float32))


def test_division_by_a_python_number():
    x = tf.constant([1.0, 2.0])
    assert (x / 1e300).numpy().tolist() == [0.0, 0.0]
    np.testing.assert_array_equal((x / 3).numpy(), np.array([0.33333334, 0.6666667], np.float32))
    assert (x / -0.0).numpy().tolist() == [-np.inf, -np.inf]
    assert np.isnan((x / float("nan")).numpy()).all()
    assert (x / True).numpy().tolist() == [1.0, 2.0]
    y = tf.constant([1.0, 2.0], tf.float64) / 3
    assert y.dtype == tf.float64 and y.numpy().tolist() == [1 / 3, 2 / 3]
    z = tf.constant([4, 6]) / 2
    assert z.dtype == tf.float64 and z.numpy().tolist() == [2.0, 3.0]
    try:
        tf.constant([4, 6]) / 2.5
    except TypeError as e:
        assert str(e) == "`x` and `y` must have the same dtype, got tf.int32 != tf.float32."
    else:
        raise AssertionError("int tensor / 2.5 must raise")


def test_constant_of_python_numbers_takes_tf_default_dtypes():
    cases = [(3, "int32", 3), (-2 ** 31, "int32", -2 ** 31), (2 ** 31, "int64", 2 ** 31), (2.5, "float32", 2.5),
             (-0.0, "float32", -0.0), ([1, 2, 3], "int32", [1, 2, 3]), ([1, 2.5], "float32", [1.0, 2.5]),
             ([2 ** 31, 1], "int64", [2 ** 31, 1]), ((1, 2), "int32", [1, 2]), ([], "float32", []),
             ([3.4028234663852886e38, 16777217], "float32", [3.4028234663852886e38, 16777216.0])]
    for value, dtype, expected in cases:
        t = tf.constant(value)
        assert (t.dtype.name, t.numpy().tolist()) == (dtype, expected), value
    assert str(tf.constant([-0.0, 1])) == "tf.Tensor([-0.  1.], shape=(2,), dtype=float32)"
    x = tf.constant([1.0, float("nan"), 3e38]).numpy()
    assert np.isnan(x[1]) and x[2] == np.float32(3e38)


def test_constant_of_a_matrix_of_python_numbers():
    for value, dtype in [([[1, 2], [3, 4]], "int32"), ([[1.5, 2], [3, 4]], "float32"), ([(1, 2), (3, 4)], "int32"),
                         ([[2 ** 31, 1], [1, 1]], "int64")]:
        t = tf.constant(value)
        assert (t.dtype.name, t.numpy().tolist()) == (dtype, [list(r) for r in value])
    assert tf.constant([[]]).shape == (1, 0)
    for value, message in [([[1, 2], [3]], "Can't convert non-rectangular Python sequence to Tensor."),
                           ([[True, 1], [1, 1]], "Can't convert Python sequence with mixed types to Tensor.")]:
        try:
            tf.constant(value)
        except ValueError as e:
            assert str(e) == message
        else:
            raise AssertionError(value)
