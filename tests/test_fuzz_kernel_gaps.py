"""Kernel gaps of TF 2.21's CPU build that the op fuzzer's fresh-seed run found tfcompat accepting (messages
recorded from TF): Tile has no uint16 case, Where none for float16, Shape's out_type is int32 or int64."""
import numpy as np
import pytest

import tfcompat as tf

_TILE = ("{{function_node __wrapped__Tile_device_/job:localhost/replica:0/task:0/device:CPU:0}} TileOp : The input "
         "data type is not supported, DataType : uint16, Dimension : %d [Op:Tile]")


@pytest.mark.parametrize("call, rank", [
    (lambda: tf.tile(tf.zeros([2, 1, 3], tf.uint16), [2, 1, 1]), 3),
    (lambda: tf.repeat(tf.zeros([2, 1, 3], tf.uint16), 2, axis=0), 4),
    (lambda: tf.repeat(tf.zeros([2, 1, 3], tf.uint16), 2), 2),
    (lambda: tf.repeat(tf.zeros([2, 1, 3], tf.uint16), [1, 2], axis=0), 4),
])
def test_uint16_tile_is_unimplemented(call, rank):
    with pytest.raises(tf.errors.UnimplementedError) as e:
        call()
    assert str(e.value) == _TILE % rank


def test_uint16_tile_without_work_returns():
    assert tf.tile(tf.zeros([0], tf.uint16), [2]).shape == (0,)
    assert tf.tile(tf.zeros([2], tf.uint16), [1]).shape == (2,)
    assert tf.repeat(tf.zeros([2, 1, 3], tf.uint16), 1, axis=0).shape == (2, 1, 3)
    assert tf.repeat(tf.zeros([0, 2], tf.uint16), 2, axis=1).shape == (0, 4)


def test_where_of_float16_and_shape_out_type():
    with pytest.raises(tf.errors.UnimplementedError) as e:
        tf.where(tf.zeros([1, 0, 3], tf.float16))
    assert str(e.value) == ("{{function_node __wrapped__Where_device_/job:localhost/replica:0/task:0/device:CPU:0}} No "
                            "WhereOp available for float16/half type on CPU; dying in CPU WhereOp to avoid silently "
                            "creating costly copies from device. [Op:Where] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.shape(tf.zeros([4]), out_type=tf.float32)
    assert str(e.value) == ("Value for attr 'out_type' of float is not in the list of allowed values: int32, int64\n\t; "
                            "NodeDef: {{node Shape}}; Op<name=Shape; signature=input:T -> output:out_type; attr=T:type; "
                            "attr=out_type:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> [Op:Shape] name: ")
    assert tf.shape(tf.zeros([4]), out_type=tf.int64).dtype.name == "int64"


def test_unsigned_relu6_and_reverse_scans_as_tf():
    # torch has no clamp or flip for uint16/32/64: its NotImplementedError escaped (values recorded from TF 2.21)
    assert tf.nn.relu6(tf.constant([1, 5, 9, 2**64 - 1], tf.uint64)).numpy().tolist() == [1, 5, 6, 6]
    assert tf.nn.relu6(tf.constant([1, 7, 2**32 - 1], tf.uint32)).numpy().tolist() == [1, 6, 6]
    assert tf.math.cumprod(tf.constant([5, 8, 4], tf.uint32), reverse=True).numpy().tolist() == [160, 32, 4]
    assert tf.math.cumsum(tf.constant([5, 8, 2**64 - 1], tf.uint64), reverse=True,
                          exclusive=True).numpy().tolist() == [7, 2**64 - 1, 0]


def test_tensordot_contracts_as_tf_matmul():
    # TF reshapes to [free, contracted] x [contracted, free]: only the products must agree (torch broadcast a 1)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.tensordot(tf.ones([2, 1]), tf.ones([3]), 1)
    assert str(e.value) == ("{{function_node __wrapped__MatMul_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            "Matrix size-incompatible: In[0]: [2,1], In[1]: [3,1] [Op:MatMul] name: ")
    r = tf.tensordot(tf.reshape(tf.range(12.), [2, 2, 3]), tf.reshape(tf.range(18.), [3, 2, 3]), 2)
    assert r.numpy().tolist() == [[165.0, 180.0, 195.0], [435.0, 486.0, 537.0]]
    with pytest.raises(ValueError, match=r"^`axes` must not be larger than the number of dimensions of tensor "
                       r"\[\[1. 1. 1.\]\n \[1. 1. 1.\]\].  Received 3, vs tensor dimensions 2.$"):
        tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), 3)


def test_saturate_cast_of_integers_to_float16():
    r = tf.saturate_cast(tf.constant([-1, 70000, -70000], tf.int64), tf.float16)
    assert r.dtype.name == "float16" and r.numpy().tolist() == [-1.0, 65504.0, -65504.0]


def test_moments_over_no_axes_reduce_nothing():
    # torch's empty `dim` reduces every axis; TF's axes=[] keeps x (squeezing size-1 axes) and a zero variance
    mean, var = tf.nn.moments(tf.zeros([0, 4, 1]), [])
    assert mean.shape == (0, 4) and var.shape == (0, 4)
    mean, var = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, float("inf")]]), [])
    assert mean.numpy().tolist() == [[1.0, 2.0], [3.0, float("inf")]]
    assert str(var.numpy().tolist()) == "[[0.0, 0.0], [0.0, nan]]"


def test_argument_checks_in_tf_order():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.linalg.cross(tf.zeros([3], tf.complex128), tf.zeros([3], tf.complex128))
    assert str(e.value).startswith("Value for attr 'T' of complex128 is not in the list of allowed values: float, "
                                   "double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64\n")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"output dimensions must be positive \[Op:ResizeArea\]"):
        tf.image.resize(tf.zeros([1, 3, 3]), [1, 1], method="area", preserve_aspect_ratio=True)
    assert tf.image.resize(tf.zeros([5, 7, 3]), [4, 4], preserve_aspect_ratio=True).shape == (3, 4, 3)
    with pytest.raises(tf.errors.NotFoundError):                  # the missing kernel before the rank check
        tf.unique(tf.zeros([1, 2], tf.complex64))
    with pytest.raises(TypeError, match="^Cannot convert 1 to EagerTensor of dtype bool$"):   # on_value first
        tf.one_hot(tf.zeros([4]), 3, dtype=tf.bool)
    for x, name in ((tf.constant([True]), "bool"), (tf.constant(["a"]), "string")):
        with pytest.raises(TypeError, match=f"^Cannot convert 1 to EagerTensor of dtype {name}$"):
            tf.math.reciprocal_no_nan(x)


def test_complex_add_and_subtract_keep_infinite_parts_apart():
    # torch multiplies the second operand by 1+0j: 0 * inf made the other part NaN (TF 2.21 values)
    inf = float("inf")
    a, b = tf.constant([1 + 2j], tf.complex64), tf.constant([complex(inf, 1), complex(1, inf)], tf.complex64)
    assert str((a + b).numpy().tolist()) == "[(inf+3j), (2+infj)]"
    assert str(tf.subtract(a, b).numpy().tolist()) == "[(-inf+1j), -infj]"
    r = tf.nn.bias_add(tf.constant([[-0.7 + 4.874j]], tf.complex128), tf.constant([complex(inf, 2.454)], tf.complex128))
    assert r.numpy().tolist() == [[complex(inf, 7.327999999999999)]]


def test_incomplete_gamma_edges_as_eigen():
    nan = float("nan")
    a = tf.constant([-1.0, 0.0, 0.0, float("inf"), nan, nan, 2.0], tf.float64)
    x = tf.constant([0.0, 0.0, 2.0, float("inf"), 0.0, 2.0, 2.0], tf.float64)
    np.testing.assert_allclose(tf.math.igamma(a, x).numpy(), [0.0, 0.0, nan, 0.0, 0.0, nan, 0.5939941502901617],
                               rtol=1e-14)
    np.testing.assert_allclose(tf.math.igammac(a, x).numpy(), [nan, nan, nan, 0.0, nan, nan, 0.406005849709838],
                               rtol=1e-14)


@pytest.mark.parametrize("values, dtype, axis, expected", [
    ([254], "uint8", [], [2]), ([100, 100], "int8", None, 5), ([200, 200], "int16", None, 120),
    ([-100, 200], "int16", [], [100, 0]), ([46341], "int32", None, -2147483648), ([2**64 - 1, 5], "uint64", None, 5),
    ([1e30, -3.0], "float32", [], [float("inf"), 3.0]),
])
def test_euclidean_norm_accumulates_in_the_dtype(values, dtype, axis, expected):
    r = tf.math.reduce_euclidean_norm(tf.constant(values, getattr(tf, dtype)), axis=axis)
    assert r.dtype.name == dtype and r.numpy().tolist() == expected


def test_complex_euclidean_norm_of_inf_has_nan_imaginary_part():
    r = tf.math.reduce_euclidean_norm(tf.constant([-2.99 + 0.2j, complex(3.93, -3e38)], tf.complex64))
    assert str(r.numpy()) == "(inf+nanj)"
    assert tf.math.reduce_euclidean_norm(tf.constant([3 + 4j], tf.complex64)).numpy() == 5 + 0j


def test_cholesky_of_a_matrix_that_is_not_positive_definite():
    # TF's CPU kernel raises nothing: NaN over the lower triangle, 0 above (TF 2.21, fuzz case 787 of seed 20261203)
    r = tf.linalg.cholesky(tf.constant([[[3.2, -2.919, -2.392], [1.8, 1.44, -5.07], [-1.0, 4.0, 2.0]],
                                        [[4.0, 0.0, 0.0], [1.0, 9.0, 0.0], [0.0, 0.0, 1.0]]]))
    assert str(r.numpy()[0].tolist()) == "[[nan, 0.0, 0.0], [nan, nan, 0.0], [nan, nan, nan]]"
    np.testing.assert_allclose(r.numpy()[1], [[2.0, 0.0, 0.0], [0.5, 2.9580398, 0.0], [0.0, 0.0, 1.0]], rtol=1e-6)


@pytest.mark.parametrize("src, dst, expected", [
    # TF 2.21's wrapper always clamps, with limits cast to the input's dtype and nudged toward 0 (recorded from TF)
    ("float32", "int32", [-2147483648, 2147483520, -2147483648, 3, -3, 2147483520]),
    ("float16", "int64", [-9223372036854775808, 65504, -65504, 3, -3, 65504]),
    ("bfloat16", "int16", [0, 32640, -32768, 3, -3, 32640]),
    ("float16", "uint16", [0, 65504, 0, 3, 0, 65504]),
])
def test_saturate_cast_of_floats_clamps_with_tf_limits(src, dst, expected):
    x = tf.constant([float("nan"), float("inf"), -float("inf"), 3.7, -3.7, 1e10], getattr(tf, src))
    assert tf.saturate_cast(x, getattr(tf, dst)).numpy().tolist() == expected


def test_saturate_cast_follows_tf_wrapper_corners():
    # int64's max rounds to 2**63 through float64 and wraps: TF clamps every value to the lower limit
    assert tf.saturate_cast(tf.constant([3, 7, 1], tf.int64), tf.uint64).numpy().tolist() == [0, 0, 0]
    assert tf.saturate_cast(tf.constant([-3], tf.int64), tf.complex128).numpy().tolist() == [complex(-2**63, 0)]
    with pytest.raises(tf.errors.NotFoundError, match="ClipByValue"):      # even to its own dtype
        tf.saturate_cast(tf.constant([4, 0], tf.uint32), tf.uint32)


def test_reduce_any_all_convert_as_tf_wrapper():
    with pytest.raises(TypeError, match=r"^Cannot convert \[1, 2\] to EagerTensor of dtype bool$"):
        tf.reduce_any([1, 2])
    with pytest.raises(ValueError, match="^Tensor conversion requested dtype bool for Tensor with dtype float32: "):
        tf.reduce_any(tf.constant([1.0, 2.0]), axis=())
    assert bool(tf.reduce_any(np.array([1, 2])))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute All as input #0"):
        tf.reduce_all(tf.constant([1, 2], tf.int16), axis=0)


def test_euclidean_norms_as_tf_formula():
    # sqrt(sum(x * conj(x))) in the input's dtype: no rescaling against overflow (TF 2.21 values)
    assert tf.norm(tf.constant([1e30, 1.0])).numpy() == float("inf")
    assert tf.norm(tf.constant([300.0, 400.0], tf.float16)).numpy() == float("inf")
    assert str(tf.norm(tf.constant([1 - 1.72j, complex(0.2, float("inf"))], tf.complex64)).numpy()) == "(inf+nanj)"
    assert tf.norm(tf.constant([[3.0, 4.0], [1.0, 2.0]]), axis=1).numpy().tolist() == [5.0, 2.2360680103302]


@pytest.mark.parametrize("value", [2**64, -2**63 - 1, [1, 2**64], [[2**63], [1]]])
def test_ints_beyond_int64_refused_as_bfloat16_and_complex64(value):
    # TF 2.21 converts Python ints to these dtypes through int64 (float16/32/64 and complex128 take them)
    for dtype in (tf.bfloat16, tf.complex64):
        with pytest.raises(ValueError, match="^Can't convert Python sequence with out-of-range integer to Tensor.$"):
            tf.convert_to_tensor(value, dtype)
    assert tf.convert_to_tensor(value, tf.complex128).dtype.name == "complex128"
