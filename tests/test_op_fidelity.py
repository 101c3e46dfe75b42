"""Golden values from TF 2.21 for the op classes the differential fuzzer (tools/op_fuzz) found differing:
shift clamping, Eigen's special-function domains, complex parts and `tf.complex`, kernels TF lacks."""
import math

import numpy as np
import pytest

import tfcompat as tf

INF, NAN = math.inf, math.nan


def _same(got, want):
    got = np.asarray(got, dtype=np.result_type(got)).ravel().tolist()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, float) and math.isnan(w):
            assert math.isnan(g), (got, want)
        else:
            assert g == pytest.approx(w, rel=1e-12, abs=1e-300), (got, want)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64", "int8"])
def test_shift_amounts_are_clamped_to_the_width(dtype):
    x = tf.constant([3, 5, 200, 1], dtype)
    y = tf.constant([1, 9, 70, 100], dtype)
    bits = tf.as_dtype(dtype).size * 8
    top = {"int8": -128}.get(dtype, 2 ** (bits - 1))
    assert tf.bitwise.left_shift(x, y).numpy().tolist() == [6, 5 << 9 if bits > 8 else (-128 if dtype == "int8" else 128),
                                                          0, top]
    assert tf.bitwise.right_shift(x, y).numpy().tolist() == [1, 0, -1 if dtype == "int8" else (1 if bits == 8 else 0),
                                                           0]


def test_shifts_negative_amounts_and_uint64_logical_right_shift():
    assert tf.bitwise.left_shift(tf.constant([-2, 6]), tf.constant([-2])).numpy().tolist() == [-2, 6]
    assert tf.bitwise.left_shift(tf.constant([7, 1]), tf.constant([2, 2147483647])).numpy().tolist() == [28, -2 ** 31]
    assert tf.bitwise.right_shift(tf.constant([-4], tf.int8), tf.constant([-128], tf.int8)).numpy().tolist() == [-4]
    x = tf.constant([2 ** 64 - 1, 2 ** 63, 5], tf.uint64)
    y = tf.constant([1, 63, 2 ** 64 - 1], tf.uint64)
    assert tf.bitwise.right_shift(x, y).numpy().tolist() == [2 ** 63 - 1, 1, 0]
    assert tf.bitwise.left_shift(x, y).numpy().tolist() == [2 ** 64 - 2, 0, 2 ** 63]


def test_dawsn():
    x = [0.0, -0.0, 0.1, -0.5, 1.0, 2.5, 3.9, 4.1, 5.9, 6.0, 6.1, 10.0, -30.0, 1e10, 1e300, INF, -INF, NAN]
    want = [0.0, 0.0, 0.09933599239785286, -0.4244363835020223, 0.5380795069127684, 0.22308372216743552,
            0.13292729108108928, 0.12596465843434612, 0.08601968199264808, 0.08454268897454385, 0.08311633050835149,
            0.05025384718759853, -0.016675941401059175, 5e-11, 5e-301, 0.0, 0.0, NAN]
    got = tf.math.special.dawsn(tf.constant(x, tf.float64))
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-14)
    np.testing.assert_allclose(tf.math.special.dawsn(tf.constant([0.3, 5.5, 1e30, 7.0])).numpy(),
                               [0.28263166546821594, 0.09249323606491089, 5.000000015855384e-31, 0.07218097895383835],
                               rtol=2e-7)
    with pytest.raises(tf.errors.NotFoundError, match="Dawsn"):
        tf.math.special.dawsn(tf.constant([1.0], tf.float16))
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values: bfloat16, half, float, double"):
        tf.math.special.dawsn(tf.constant([1]))


def test_digamma_is_nan_at_non_positive_integers():
    got = tf.math.digamma(tf.constant([0.0, -0.0, -2.0, -INF, INF, NAN, -2.5], tf.float64))
    _same(got.numpy(), [NAN, NAN, NAN, NAN, INF, NAN, 1.1031566406452433])


def test_zeta_domain_values_as_eigen():
    xs = [2.1, 2.0, 4.0, 3.0, 1.0, 0.5, -2.0, 2.5, NAN, INF]
    want = {-0.0: [NAN, INF, INF, NAN, INF, NAN, NAN, NAN, NAN, INF],
            -1e30: [NAN, INF, INF, NAN, INF, NAN, NAN, NAN, NAN, INF],
            -2.5: [NAN, 9.539246644989124, 32.457979369864596, 0.0541020258208641, INF, NAN, NAN, NAN, NAN, INF],
            1.0: [1.5602165335033618, 1.6449340668482266, 1.0823232337111381, 1.202056903159594, INF, NAN, NAN,
                  1.3414872572509176, NAN, 1.0],
            INF: [0.0, 0.0, 0.0, 0.0, INF, NAN, NAN, 0.0, NAN, 0.0],
            -INF: [NAN, INF, INF, NAN, INF, NAN, NAN, NAN, NAN, INF]}
    for q, row in want.items():
        _same(tf.math.zeta(tf.constant(xs, tf.float64), tf.constant([q] * len(xs), tf.float64)).numpy(), row)


def test_complex():
    z = tf.complex([1.0, 2.5], [[3.0], [4.0]])
    assert z.dtype == tf.complex64 and z.shape == (2, 2)
    assert z.numpy().tolist() == [[1 + 3j, 2.5 + 3j], [1 + 4j, 2.5 + 4j]]
    assert tf.complex(tf.constant([1.0, 2.0], tf.float64), tf.constant(3.0, tf.float64)).dtype == tf.complex128
    assert tf.complex(tf.zeros([2, 0]), 1.0).shape == (2, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\] \[Op:Complex\]"):
        tf.complex(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0, 5.0]))
    for re, im, names in ((tf.constant([1]), tf.constant([3]), "int32 int32"),
                          (tf.constant([1.0], tf.float64), tf.constant([3.0]), "float64 float32")):
        with pytest.raises(TypeError, match=f"incorrect types: {names}. They must be consistent, and one of "
                                            r"\[tf.float32, tf.float64\]"):
            tf.complex(re, im)
    assert str(tf.constant([1 + 2j])) == "tf.Tensor([1.+2.j], shape=(1,), dtype=complex128)"


def test_complex_parts_of_real_inputs_follow_tf_wrappers():
    assert tf.math.angle(tf.constant([NAN, -0.0, -1.0])).numpy().tolist() == [0.0, 0.0, np.float32(math.pi)]
    np.testing.assert_allclose(tf.math.angle(tf.constant([1 + 2j, -3 - 4j])).numpy(), [1.10714872, -2.21429744])
    for dtype, bad in (("int32", "3.141592653589793"), ("uint16", "3.141592653589793"), ("bool", "0"),
                       ("string", "0")):
        x = tf.constant({"string": ["a"], "bool": [True]}.get(dtype, [1, 0]), dtype)
        with pytest.raises(TypeError, match=f"Cannot convert {bad} to EagerTensor of dtype {dtype}"):
            tf.math.angle(x)
    assert tf.math.real(tf.constant([1, 0], tf.uint16)).dtype == tf.uint16
    with pytest.raises(TypeError, match="input must be a numeric tensor, but got tensor with dtype <dtype: 'bool'>"):
        tf.math.real(tf.constant([True]))
    assert tf.math.imag(tf.constant(["a"])).numpy().tolist() == [b""]
    assert tf.math.imag(tf.constant([True])).numpy().tolist() == [False]
    assert tf.math.conj(tf.constant([1 + 2j])).numpy().tolist() == [1 - 2j]
    with pytest.raises(TypeError, match=r"Expected numeric or variant tensor, got dtype tf.string\."):
        tf.math.conj(tf.constant(["a"]))


def test_complex_xlogy_and_squared_difference():
    got = tf.math.xlogy(tf.constant([0j, 1 + 2j, -1e-30 + 3j], tf.complex64),
                        tf.constant([5 + 1j, -1 + 2j, -1 + 2j], tf.complex64)).numpy().tolist()
    np.testing.assert_allclose(got, [0j, -3.2641687393188477 + 3.6438817977905273j,
                                     -6.103331565856934 + 2.414156913757324j], rtol=1e-6)
    got = tf.math.xlog1py(tf.constant([0j, 5 - 1e-30j]), tf.constant([5 + 1j, 5.12 - 5j])).numpy().tolist()
    np.testing.assert_allclose(got, [0j, 10.336091726136864 - 3.425086301572387j], rtol=1e-14)
    got = tf.math.squared_difference(tf.constant([5.448 + 4.026j, 1 + 1j]), tf.constant([3e38 - 4.168j, 2 - 3j]))
    assert got.numpy().tolist() == [9.000000000000001e+76 + 0j, 17 + 0j]      # the imaginary part exactly 0


@pytest.mark.parametrize("value, dtype, want", [
    ([1, True], "int32", [1, 1]),
    ([1, np.float32(2.5)], "float32", [1.0, 2.5]),
    ([np.float32(2.5), 1], "float32", [2.5, 1.0]),
    ([2.5, np.float32(1.5)], "float32", [2.5, 1.5]),
    ([np.float64(1.5), np.float32(2.5)], "float64", [1.5, 2.5]),
    ([np.float16(1.5), 2.5], "float16", [1.5, 2.5]),
    ([np.int8(1), 2.5], "float32", [1.0, 2.5]),
    ([np.int64(1), 2], "int32", [1, 2]),
    ([np.int64(2 ** 40), 2], "int64", [2 ** 40, 2]),
    ([[np.float32(1.5), 2.0], [3.0, 4.0]], "float32", [[1.5, 2.0], [3.0, 4.0]]),
    ([np.array([1.5], np.float32), [2.5]], "float32", [[1.5], [2.5]]),
    ([np.float32(1.5), True], "float32", [1.5, 1.0]),
    ([np.bool_(True), False], "bool", [True, False]),
])
def test_list_inference_with_numpy_scalars_and_bools(value, dtype, want):
    t = tf.constant(value)
    assert t.dtype == dtype and t.numpy().tolist() == want


@pytest.mark.parametrize("value", [[True, 1], [True, 1.5], [[True], [1]], [True, np.int32(1)], [np.bool_(True), 1],
                                   [True, 0j]])
def test_a_bool_first_then_a_number_is_mixed(value):
    with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types to Tensor."):
        tf.constant(value)


def test_list_inference_out_of_range_and_requested_dtypes():
    with pytest.raises(ValueError, match="out of range for a double-precision float"):
        tf.constant([np.float16(1.5), 1e10])
    assert tf.convert_to_tensor([True, 1], tf.int32).numpy().tolist() == [1, 1]
    assert tf.convert_to_tensor([True, 1], tf.float32).numpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="mixed types"):
        tf.convert_to_tensor([True, 1], tf.bool)


def test_wrapper_conversions_of_multiply_no_nan_and_divide():
    assert tf.math.multiply_no_nan(tf.constant([1.0, 2.0]), 3).numpy().tolist() == [3.0, 6.0]
    with pytest.raises(ValueError, match=r"^y: Tensor conversion requested dtype int32 for Tensor with dtype float32"):
        tf.math.multiply_no_nan(2, tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"^y: Tensor conversion requested dtype float32 for Tensor with dtype "
                                         "float64"):
        tf.math.multiply_no_nan(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int8"):
        tf.math.multiply_no_nan(tf.constant([1, 2], tf.int8), 2.5)
    got = tf.math.divide(3, tf.constant([7, 2], tf.uint8))
    assert got.dtype == tf.float32 and got.numpy().tolist() == [np.float32(3 / 7), 1.5]
    got = tf.math.divide_no_nan(5, tf.constant([9, 0], tf.int64))
    assert got.dtype == tf.float64 and got.numpy().tolist() == [5 / 9, 0.0]
    with pytest.raises(TypeError, match="Cannot convert 5.5 to EagerTensor of dtype int64"):
        tf.math.divide_no_nan(5.5, tf.constant([9, 0], tf.int64))


def test_linalg_wrappers_checks():
    with pytest.raises(tf.errors.FailedPreconditionError, match="Cross-products are only defined for 3-element "
                                                                r"vectors. \[Op:Cross\]"):
        tf.linalg.cross(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Both inputs must be of same shape: \[1,3\] vs. \[3\]"):
        tf.linalg.cross(tf.constant([[1.0, 2.0, 3]]), tf.constant([1.0, 2.0, 3]))
    got = tf.linalg.cross(tf.constant([1, 2, 3], tf.uint32), tf.constant([4, 5, 6], tf.uint32))
    assert got.dtype == tf.uint32 and got.numpy().tolist() == [4294967293, 6, 4294967293]
    with pytest.raises(ValueError, match="tf.linalg.expm does not support matrices of type <dtype: 'int32'>"):
        tf.linalg.expm(tf.constant([[1, 2], [3, 4]]))
    assert tf.linalg.expm(tf.zeros([4, 0, 0], tf.int16)).shape == (4, 0, 0)
    with pytest.raises(tf.errors.NotFoundError, match="MatrixSolve"):
        tf.linalg.expm(tf.zeros([2, 2], tf.float16))
    got = [tf.linalg.logdet(tf.constant(m)).numpy() for m in ([[0.0]], [[-1.0]], [[1.0, 2.0], [2.0, 1.0]])]
    assert all(math.isnan(v) for v in got)
    assert tf.linalg.logdet(tf.constant([[2.0, 1.0], [1.0, 2.0]])).numpy() == pytest.approx(1.0986123085021973)
    with pytest.raises(tf.errors.NotFoundError, match=r"Unique\[T=DT_COMPLEX128, out_idx=DT_INT32\]"):
        tf.unique(tf.constant([1 + 2j]))
    assert tf.linalg.adjoint(tf.constant([["a", "b"]])).numpy().tolist() == [[b"a"], [b"b"]]
    assert tf.linalg.matrix_transpose(tf.zeros([1, 0, 0], tf.string)).shape == (1, 0, 0)


def test_string_ops_conversions_and_formats():
    z = tf.constant([1.5 + 2j, -0.0 - 3j], tf.complex64)
    assert tf.strings.as_string(z).numpy().tolist() == [b"(1.500000,2.000000)", b"(-0.000000,-3.000000)"]
    z = tf.constant([1.5 + 2j], tf.complex128)
    assert tf.strings.as_string(z, precision=2).numpy().tolist() == [b"(1.50,2.00)"]
    assert tf.strings.as_string(z, scientific=True).numpy().tolist() == [b"(1.500000e+00,2.000000e+00)"]
    assert tf.strings.as_string(z, shortest=True).numpy().tolist() == [b"(1.5,2)"]
    assert tf.strings.as_string(z, width=12, fill="0").numpy().tolist() == [b"(00001.500000,00002.000000)"]
    with pytest.raises(ValueError, match=r"^input: Tensor conversion requested dtype string for Tensor with dtype "
                                         "float32"):
        tf.strings.split(tf.constant([1.0]))
    with pytest.raises(ValueError, match=r"^Tensor conversion requested dtype string for Tensor with dtype float32"):
        tf.strings.bytes_split(tf.constant([1.0]))
    with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
        tf.strings.reduce_join(tf.constant([True]), axis=1.0)
    assert tf.strings.reduce_join(tf.constant([], tf.string), axis=0, separator=",").numpy() == b""
    assert tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=1).numpy().tolist() == [b"", b""]
    assert tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=0).shape == (0,)
    got = tf.strings.to_number(tf.constant(["0x1F", "0X1f", "0x1p3", "-0x10"]))
    assert got.numpy().tolist() == [31.0, 31.0, 8.0, -16.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="could not correctly convert string: 0x1F"):
        tf.strings.to_number(tf.constant(["0x1F"]), tf.int32)


def test_jpeg_without_the_vision_extra_names_it(monkeypatch):
    import sys
    from tfcompat.ops.io_ops.vision_extra import VisionExtraMissing
    monkeypatch.setitem(sys.modules, "PIL", None)             # as if Pillow (torchvision's dependency) were absent
    jpeg = b"\xff\xd8\xff\xe0" + b"\x00" * 16 + b"\xff\xd9"
    for call in (lambda: tf.io.decode_jpeg(jpeg), lambda: tf.io.encode_jpeg(tf.zeros([2, 2, 3], tf.uint8))):
        with pytest.raises(ImportError, match=r"need the vision extra: pip install tfcompat\[vision\]") as e:
            call()
        assert isinstance(e.value, VisionExtraMissing)


def test_scatter_max_min_keep_the_current_value_over_a_nan_update():
    x = tf.constant([1.5, -3.3], tf.float64)
    nan = tf.constant([3.2, NAN], tf.float64)
    _same(tf.tensor_scatter_nd_max(x, [[1], [1]], nan).numpy(), [1.5, 3.2])
    _same(tf.tensor_scatter_nd_max(tf.constant([1.5, NAN], tf.float64), [[1], [0]], nan).numpy(), [1.5, NAN])
    _same(tf.tensor_scatter_nd_min(x, [[1], [1]], tf.constant([-5.2, NAN], tf.float64)).numpy(), [1.5, -5.2])
    _same(tf.tensor_scatter_nd_min(x, [[1], [1]], tf.constant([NAN, -5.0], tf.float64)).numpy(), [1.5, -5.0])


def test_segment_mean_of_integers_wraps_the_sum_in_the_dtype():
    got = tf.math.segment_mean(tf.constant([[4, 5], [4294967295, 9], [3, 0]], tf.uint32), [0, 1, 1])
    assert got.numpy().tolist() == [[4, 5], [1, 4]]
    assert tf.math.segment_mean(tf.constant([250, 10, 3], tf.uint8), [0, 0, 1]).numpy().tolist() == [2, 3]
    assert tf.math.segment_mean(tf.constant([120, 10, -3], tf.int8), [0, 0, 1]).numpy().tolist() == [-63, -3]


@pytest.mark.parametrize("call, error", [
    (lambda: tf.einsum("ij->i", tf.ones([2, 2], tf.uint32)), r'Einsum\[N=1, T=DT_UINT32, equation="ij->i"\]'),
    (lambda: tf.einsum("ij->i", tf.ones([2, 2], tf.int8)), r"T=DT_INT8"),
    (lambda: tf.linalg.tensor_diag(tf.ones([2], tf.bfloat16)), r"Diag\[T=DT_BFLOAT16\]"),
    (lambda: tf.linalg.cholesky(tf.ones([2, 2], tf.float16)), r"Cholesky\[T=DT_HALF\]"),
    (lambda: tf.linalg.sqrtm(tf.ones([2, 2], tf.float16)), r"MatrixSquareRoot\[T=DT_HALF\]"),
    (lambda: tf.linalg.triangular_solve(tf.ones([2, 2], tf.bfloat16), tf.ones([2, 2], tf.bfloat16)),
     r"MatrixTriangularSolve\[T=DT_BFLOAT16"),
    (lambda: tf.tensordot(tf.ones([2], tf.uint8), tf.ones([2], tf.uint8), 0), r"MatMul\[T=DT_UINT8"),
])
def test_dtypes_tf_has_no_kernel_for_raise_not_found(call, error):
    with pytest.raises(tf.errors.NotFoundError, match=error):
        call()


def test_dtypes_outside_the_registration_and_contraction_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int16 is not in the list of "
                                                             "allowed values: bfloat16, half, float, double, int32"):
        tf.tensordot(tf.ones([3, 3, 0], tf.int16), tf.ones([0], tf.int16), 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bfloat16 is not in the list of "
                                                             "allowed values: double, float, half, complex64"):
        tf.linalg.cholesky(tf.ones([2, 2], tf.bfloat16))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.tensordot(tf.ones([2, 3]), tf.ones([4, 2]), 1)


def test_no_torch_error_escapes_convert_image_dtype_or_softmax_xent():
    got = tf.image.convert_image_dtype(tf.constant([0.816, 0.486], tf.float16), tf.int32, saturate=True)
    assert got.numpy().tolist() == [65504, 65504]         # the scale is inf in float16; saturation at 65504 (TF)
    got = tf.image.convert_image_dtype(tf.constant([0.816, 0.486]), tf.uint8, saturate=True)
    assert got.numpy().tolist() == [208, 124]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 4 values, but the "
                                                             r"requested shape has 1 \[Op:Reshape\]"):
        tf.nn.softmax_cross_entropy_with_logits(labels=tf.ones([4, 1]), logits=tf.constant([3e38]))


def test_wide_unsigned_reversed_slices_and_saturate_cast():
    x = tf.constant([[3], [2 ** 64 - 1]], tf.uint64)
    assert x[::-1, None, -1:9].numpy().tolist() == [[[2 ** 64 - 1]], [[3]]]
    assert tf.constant([1, 2, 3], tf.uint16)[::-1].numpy().tolist() == [3, 2, 1]
    assert tf.saturate_cast(tf.constant([4, 65535], tf.uint16), tf.uint8).numpy().tolist() == [4, 255]
    assert tf.saturate_cast(tf.constant(65535, tf.uint16), tf.int8).numpy() == 127
