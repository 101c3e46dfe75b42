"""Property tests (hypothesis) where NumPy is the oracle: elementwise math, broadcasting, reductions, dtypes.

TF 2.21 agrees with NumPy on these (same-dtype elementwise ops, broadcasting rules, floor division and
modulo signs, reductions): this file passes unchanged against TF 2.21 with `import tensorflow as tf`.
Each test draws a few dozen cases, derandomized so CI runs the same ones.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tfcompat as tf

FAST = settings(max_examples=25, deadline=None, derandomize=True, database=None)
DTYPES = {"float32": tf.float32, "float64": tf.float64, "int32": tf.int32, "int64": tf.int64}


def values(dtype):
    if dtype.startswith("float"):
        # no subnormals: TF's CPU kernels flush them to zero (tf.math.ceil(1e-45) is 0.0), torch does not
        return st.floats(-1e3, 1e3, width=32, allow_nan=False, allow_infinity=False, allow_subnormal=False)
    return st.integers(-1000, 1000)


def arrays(dtype, shape):
    return hnp.arrays(np.dtype(dtype), shape, elements=values(dtype))


@st.composite
def broadcast_pair(draw, dtypes=tuple(DTYPES)):
    dtype = draw(st.sampled_from(dtypes))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
    a, b = (draw(arrays(dtype, s)) for s in shapes.input_shapes)
    return dtype, a, b


def check(result, expected, dtype):
    assert result.dtype == DTYPES[dtype]
    assert tuple(result.shape) == expected.shape
    if dtype.startswith("float"):
        np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6 if dtype == "float32" else 1e-12, atol=1e-6)
    else:
        np.testing.assert_array_equal(result.numpy(), expected)


BINARY = [(tf.add, np.add), (tf.subtract, np.subtract), (tf.multiply, np.multiply), (tf.maximum, np.maximum),
          (tf.minimum, np.minimum), (tf.math.squared_difference, lambda a, b: (a - b) ** 2)]


@pytest.mark.parametrize("op,oracle", BINARY, ids=[op.__name__ for op, _ in BINARY])
@FAST
@given(case=broadcast_pair())
def test_binary_elementwise_broadcasts_as_numpy(op, oracle, case):
    dtype, a, b = case
    check(op(a, b), oracle(a, b).astype(dtype), dtype)


@FAST
@given(case=broadcast_pair(("int32", "int64")))
def test_floordiv_and_floormod_follow_python_signs(case):
    dtype, a, b = case
    b = np.where(b == 0, 1, b).astype(dtype)
    check(tf.math.floordiv(a, b), np.floor_divide(a, b), dtype)
    check(tf.math.floormod(a, b), np.mod(a, b), dtype)


UNARY = [(tf.abs, np.abs), (tf.negative, np.negative), (tf.square, np.square), (tf.math.sign, np.sign),
         (tf.math.floor, np.floor), (tf.math.ceil, np.ceil), (tf.math.round, np.round)]


@pytest.mark.parametrize("op,oracle", UNARY, ids=[op.__name__ for op, _ in UNARY])
@FAST
@given(dtype=st.sampled_from(["float32", "float64"]), shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
       data=st.data())
def test_unary_float_ops_as_numpy(op, oracle, dtype, shape, data):
    a = data.draw(arrays(dtype, shape))
    check(op(a), oracle(a), dtype)          # tf.math.round rounds half to even, as np.round


@FAST
@given(shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=4), data=st.data())
def test_exp_log_sqrt_float32(shape, data):
    a = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(0.125, 50, width=32)))
    np.testing.assert_allclose(tf.exp(a).numpy(), np.exp(a), rtol=2e-6)
    np.testing.assert_allclose(tf.math.log(a).numpy(), np.log(a), rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(tf.sqrt(a).numpy(), np.sqrt(a), rtol=2e-6)


@st.composite
def reduction_case(draw, dtypes=tuple(DTYPES)):
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = draw(arrays(dtype, shape))
    axis = draw(st.none() | st.integers(-len(shape), len(shape) - 1) |
                st.lists(st.integers(0, len(shape) - 1), min_size=1, max_size=len(shape), unique=True).map(tuple))
    return dtype, a, axis, draw(st.booleans())


REDUCTIONS = [(tf.reduce_sum, np.sum), (tf.reduce_max, np.max), (tf.reduce_min, np.min)]


@pytest.mark.parametrize("op,oracle", REDUCTIONS, ids=[op.__name__ for op, _ in REDUCTIONS])
@FAST
@given(case=reduction_case())
def test_reductions_as_numpy(op, oracle, case):
    dtype, a, axis, keepdims = case
    tf_axis = list(axis) if isinstance(axis, tuple) else axis
    check(op(a, axis=tf_axis, keepdims=keepdims), np.asarray(oracle(a, axis=axis, keepdims=keepdims), dtype), dtype)


@FAST
@given(case=reduction_case(("float32", "float64")))
def test_reduce_mean_of_floats_as_numpy(case):
    dtype, a, axis, keepdims = case
    tf_axis = list(axis) if isinstance(axis, tuple) else axis
    check(tf.reduce_mean(a, axis=tf_axis, keepdims=keepdims), np.mean(a, axis=axis, keepdims=keepdims).astype(dtype),
          dtype)


@FAST
@given(case=reduction_case(("int32", "int64")))
def test_reduce_mean_of_integers_truncates(case):
    dtype, a, axis, keepdims = case
    tf_axis = list(axis) if isinstance(axis, tuple) else axis
    total = np.sum(a, axis=axis, keepdims=keepdims)
    count = a.size // max(total.size, 1) if a.size else 1
    check(tf.reduce_mean(a, axis=tf_axis, keepdims=keepdims), np.trunc(total / count).astype(dtype), dtype)


@FAST
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=5))
def test_broadcast_shapes_and_broadcast_to(shapes):
    s1, s2 = shapes.input_shapes
    assert tf.broadcast_static_shape(tf.TensorShape(s1), tf.TensorShape(s2)).as_list() == list(shapes.result_shape)
    assert tf.broadcast_dynamic_shape(s1, s2).numpy().tolist() == list(shapes.result_shape)
    a = np.arange(int(np.prod(s1)), dtype=np.float32).reshape(s1)
    np.testing.assert_array_equal(tf.broadcast_to(a, shapes.result_shape).numpy(), np.broadcast_to(a, shapes.result_shape))


@FAST
@given(shape=hnp.array_shapes(min_dims=1, max_dims=3, max_side=4), data=st.data())
def test_cumsum_and_transpose_as_numpy(shape, data):
    a = data.draw(arrays("int32", shape))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    check(tf.cumsum(a, axis=axis), np.cumsum(a, axis=axis).astype("int32"), "int32")
    perm = data.draw(st.permutations(range(len(shape))))
    check(tf.transpose(a, perm), np.transpose(a, perm), "int32")


@FAST
@given(value=st.one_of(st.integers(-2**31, 2**31 - 1), st.floats(allow_nan=False, width=32), st.booleans()))
def test_python_scalar_dtypes(value):
    expected = {bool: tf.bool, int: tf.int32, float: tf.float32}[type(value)]
    t = tf.constant(value)
    assert t.dtype == expected and t.numpy() == np.asarray(value, expected.as_numpy_dtype)


@FAST
@given(dtype=st.sampled_from(["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"]),
       shape=hnp.array_shapes(min_dims=0, max_dims=2, max_side=3), data=st.data())
def test_numpy_arrays_keep_their_dtype(dtype, shape, data):
    a = data.draw(hnp.arrays(np.dtype(dtype), shape))
    t = tf.constant(a)
    assert t.dtype.as_numpy_dtype == np.dtype(dtype)
    np.testing.assert_array_equal(t.numpy(), a)
