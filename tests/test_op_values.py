"""Op values where tfcompat differed from TF 2.21: reductions over no axis, exclusive scans, NaN semantics,
broadcasting, empty convolutions and pools (golden values recorded from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf

nan, inf = np.nan, np.inf
LOWEST = np.finfo(np.float32).min


def test_moments_over_no_axis_are_zero():
    assert tf.math.reduce_variance(tf.constant(2.5)).numpy() == 0.0
    assert tf.math.reduce_std(tf.constant(2.5)).numpy() == 0.0
    v = tf.math.reduce_variance(tf.constant([1., 2.]), axis=[])
    np.testing.assert_array_equal(v.numpy(), [0., 0.])
    s = tf.math.reduce_std(tf.constant([1 + 2j, 3j]), axis=[])
    assert s.dtype == tf.float64
    np.testing.assert_array_equal(s.numpy(), [0., 0.])


def test_euclidean_norm_over_no_axis_is_magnitude():
    assert tf.math.reduce_euclidean_norm(tf.constant(-2.5)).numpy() == 2.5
    n = tf.math.reduce_euclidean_norm(tf.constant([-3, 4]), axis=[])
    assert n.dtype == tf.int32
    np.testing.assert_array_equal(n.numpy(), [3, 4])
    np.testing.assert_array_equal(tf.math.reduce_euclidean_norm(tf.constant([3, 4], tf.uint16), axis=[]), [3, 4])
    c = tf.math.reduce_euclidean_norm(tf.constant([3 + 4j]), axis=[])
    assert c.dtype == tf.complex128 and c.numpy()[0] == 5 + 0j
    assert tf.math.reduce_euclidean_norm(tf.constant([3 + 4j, 1j])).numpy() == pytest.approx(5.0990195135927845)
    np.testing.assert_array_equal(tf.math.reduce_euclidean_norm(tf.constant([[-3, 4], [1, 1]]), axis=1), [5, 1])


def test_exclusive_scans_are_computed_directly():
    np.testing.assert_array_equal(tf.math.cumsum([1., 2., 1e8], exclusive=True), [0., 1., 3.])
    np.testing.assert_array_equal(tf.math.cumsum([1e8, 2., 1.], exclusive=True, reverse=True), [3., 1., 0.])
    np.testing.assert_array_equal(tf.math.cumprod([2., inf, 3.], exclusive=True), [1., 2., inf])
    np.testing.assert_array_equal(tf.math.cumprod([2., nan, 3.], exclusive=True, reverse=True), [nan, 3., 1.])
    np.testing.assert_array_equal(tf.math.cumsum(tf.constant([100, 100, 100], tf.int8), exclusive=True),
                                  [0, 100, -56])
    assert tf.math.cumsum(tf.zeros([2, 0]), axis=1, exclusive=True).shape == (2, 0)
    np.testing.assert_allclose(tf.math.cumulative_logsumexp([1., 2., 1e8], exclusive=True),
                               [-inf, 1., 2.3132617], rtol=1e-6)


@pytest.mark.parametrize("fn, op", [(tf.math.cumsum, "Cumsum"), (tf.math.cumprod, "Cumprod"),
                                    (tf.math.cumulative_logsumexp, "CumulativeLogsumexp")])
def test_scans_reject_scalars(fn, op):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"ScanOp: Expected scan axis in the range \[0, 0\), but got 0 \[Op:{op}\]"):
        fn(tf.constant(3.), exclusive=True)


def test_clip_by_value_keeps_nan():
    np.testing.assert_array_equal(tf.clip_by_value([nan, 1., 5., -3.], 0., 2.), [nan, 1., 2., 0.])
    np.testing.assert_array_equal(tf.clip_by_value([0., 1., 5.], nan, 2.), [nan, nan, nan])
    np.testing.assert_array_equal(tf.clip_by_value([0., 1., 5.], 0., nan), [nan, nan, nan])
    np.testing.assert_array_equal(tf.clip_by_value([1, 5, -3], 0, 2), [1, 2, 0])


def test_bincount_binary_output_excludes_weights():
    with pytest.raises(ValueError, match="Arguments `binary_output` and `weights` are mutually exclusive. "
                                         "Please specify only one."):
        tf.math.bincount([1, 1, 3], weights=[2., 3., 4.], binary_output=True)
    np.testing.assert_array_equal(tf.math.bincount([[1, 1, 3], [0, 0, 0]], binary_output=True, axis=-1),
                                  [[0, 1, 0, 1], [1, 0, 0, 0]])
    np.testing.assert_array_equal(
        tf.math.bincount([[1, 1, 3], [0, 0, 0]], weights=[[1., 2, 3], [4, 5, 6]], axis=-1),
        [[0., 3., 0., 3.], [15., 0., 0., 0.]])


@pytest.mark.parametrize("values, index", [([1., nan, 3., nan], 2), ([nan, 5., 3.], 1), ([nan, -inf], 0),
                                           ([-inf, nan], 0), ([-inf, -inf, 1.], 2), ([-inf, -inf], 0),
                                           ([nan, nan, 1., nan], 2), ([nan, nan], 0)])
def test_argmax_argmin_skip_nan(values, index):
    assert tf.math.argmax(tf.constant(values)).numpy() == index
    assert tf.math.argmin(tf.constant(-np.array(values, np.float32))).numpy() == index


def test_argmax_skips_nan_per_row():
    x = tf.constant([[nan, 1.], [2., nan], [nan, nan]])
    np.testing.assert_array_equal(tf.math.argmax(x, axis=1), [1, 0, 0])
    np.testing.assert_array_equal(tf.math.argmax(x, axis=0), [1, 0])
    assert tf.math.argmax(tf.constant([nan, LOWEST], tf.float64)).numpy() == 1


def test_max_pool_skips_nan_from_lowest():
    x = tf.constant([[[[1.], [nan]], [[3.], [2.]]]])
    assert tf.nn.max_pool2d(x, 2, 1, "VALID").numpy().ravel().tolist() == [3.]
    allnan = tf.constant([nan] * 4, shape=[1, 2, 2, 1])
    assert tf.nn.max_pool2d(allnan, 2, 1, "VALID").numpy().ravel().tolist() == [LOWEST]
    np.testing.assert_array_equal(tf.nn.max_pool2d(allnan, 2, 1, "SAME").numpy().ravel(), [LOWEST] * 4)
    y = tf.nn.max_pool1d(tf.constant([[[nan], [1.], [nan], [nan], [5.]]]), 2, 1, "VALID")
    np.testing.assert_array_equal(y.numpy().ravel(), [1., 1., LOWEST, 5.])
    assert tf.nn.max_pool2d(tf.constant([-inf] * 4, shape=[1, 2, 2, 1]), 2, 1, "VALID").numpy().item() == LOWEST
    f16 = tf.nn.max_pool1d(tf.constant([nan, nan], shape=[1, 2, 1], dtype=tf.float16), 2, 1, "VALID")
    assert f16.numpy().item() == np.finfo(np.float16).min
    f64 = tf.nn.max_pool1d(tf.constant([nan, nan], shape=[1, 2, 1], dtype=tf.float64), 2, 1, "VALID")
    assert f64.numpy().item() == np.finfo(np.float64).min
    assert np.isnan(tf.nn.avg_pool2d(tf.constant([nan, 1., 2., 3.], shape=[1, 2, 2, 1]), 2, 1, "VALID")).all()


def test_polygamma_broadcasts():
    y = tf.math.polygamma(tf.constant([[1.], [2.]]), tf.constant([1., 2., 3.]))
    np.testing.assert_allclose(y, [[1.644934, 0.6449341, 0.39493406], [-2.404114, -0.40411383, -0.1541138]],
                               rtol=1e-6)
    np.testing.assert_allclose(tf.math.polygamma(1., tf.constant([1., 2., 3.])),
                               [1.644934, 0.6449341, 0.39493406], rtol=1e-6)
    np.testing.assert_allclose(tf.math.polygamma(tf.constant([1.5, -1., 0.]), tf.constant([1., 2., 3.])),
                               [nan, nan, 0.9227842], rtol=1e-6)
    assert tf.math.polygamma(tf.zeros([0, 1]), tf.constant([1., 2., 3.])).shape == (0, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        tf.math.polygamma(tf.zeros([2]), tf.constant([1., 2., 3.]))


@pytest.mark.parametrize("shape", [[1, 1, 1], [1, 1, 2], [1, 1, 4]])
def test_rgb_to_grayscale_needs_three_channels(shape):
    c = shape[-1]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=rf"Matrix size-incompatible: In\[0\]: \[1,{c}\], In\[1\]: \[3,1\] \[Op:MatMul\]"):
        tf.image.rgb_to_grayscale(tf.ones(shape))
    assert tf.image.rgb_to_grayscale(tf.constant([[[200, 100, 7]]], tf.uint8)).numpy().item() == 119


def test_strings_format_prints_floats_as_tf():
    x = tf.constant([1.0 / 3, 2.5, 1e10, 1e-7, 123456789.0])
    assert tf.strings.format("{}", x).numpy() == b"[0.333333343 2.5 1e+10 1e-07 123456792]"
    pair = (tf.constant(1.0 / 3), tf.constant(np.pi, tf.float64))
    assert tf.strings.format("x={} y={}", pair).numpy() == b"x=0.333333343 y=3.1415926535897931"
    assert tf.strings.format("{}", tf.constant([1.0 / 3], tf.float16)).numpy() == b"[0.333251953]"
    assert tf.strings.format("{}", tf.constant([nan, inf, -inf, -0.0, 100.0, 0.1])).numpy() == \
        b"[nan inf -inf -0 100 0.1]"
    assert tf.strings.format("{}", tf.constant([1e16, 1.5e-5, 12345678.9], tf.float64)).numpy() == \
        b"[1e+16 1.5e-05 12345678.9]"
    assert tf.strings.format("{}", tf.constant([-nan, 1.5], tf.float64)).numpy() == b"[-nan 1.5]"
    assert tf.strings.format("{}", tf.constant([[1.5, 2.25], [3., 4.]])).numpy() == b"[[1.5 2.25]\n [3 4]]"
    with pytest.raises(ValueError, match="The template expects 2 tensors, but the inputs only has 1. Please ensure "
                                         "the number of placeholders in template matches inputs length."):
        tf.strings.format("{} {}", [tf.constant(1)])


def test_strings_split_of_empty():
    assert tf.strings.split("").numpy().tolist() == []
    assert tf.strings.split("", sep=",").numpy().tolist() == [b""]
    assert tf.strings.split(["", "a,,b"], sep=",").to_list() == [[b""], [b"a", b"", b"b"]]
    assert tf.strings.split(["", "a b"]).to_list() == [[], [b"a", b"b"]]


X = tf.ones([1, 2, 2, 3])


@pytest.mark.parametrize("call, shape", [
    (lambda: tf.nn.conv2d(X, tf.ones([3, 3, 3, 4]), 1, "VALID"), (1, 0, 0, 4)),
    (lambda: tf.nn.conv2d(X, tf.ones([3, 1, 3, 4]), 2, "VALID"), (1, 0, 1, 4)),
    (lambda: tf.nn.conv1d(tf.ones([1, 2, 3]), tf.ones([3, 3, 4]), 1, "VALID"), (1, 0, 4)),
    (lambda: tf.nn.conv3d(tf.ones([1, 2, 2, 2, 3]), tf.ones([3, 1, 1, 3, 4]), [1] * 5, "VALID"), (1, 0, 2, 2, 4)),
    (lambda: tf.nn.depthwise_conv2d(X, tf.ones([3, 3, 3, 2]), [1] * 4, "VALID"), (1, 0, 0, 6)),
    (lambda: tf.nn.separable_conv2d(X, tf.ones([3, 3, 3, 2]), tf.ones([1, 1, 6, 5]), [1] * 4, "VALID"),
     (1, 0, 0, 5)),
    (lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([3, 3, 3, 0]), 1, "SAME"), (1, 4, 4, 0)),
    (lambda: tf.nn.conv2d(tf.ones([1, 0, 4, 3]), tf.ones([3, 3, 3, 4]), 1, "SAME"), (1, 0, 4, 4)),
    (lambda: tf.nn.conv2d(tf.ones([1, 2, 2, 3], tf.int32), tf.ones([3, 3, 3, 4], tf.int32), 1, "VALID"),
     (1, 0, 0, 4)),
    (lambda: tf.nn.convolution(X, tf.ones([3, 3, 3, 4]), padding="VALID"), (1, 0, 0, 4)),
    (lambda: tf.nn.atrous_conv2d(X, tf.ones([2, 2, 3, 4]), 2, "VALID"), (1, 0, 0, 4)),
    (lambda: tf.nn.conv2d(tf.ones([1, 4, 4, 3]), tf.ones([2, 2, 3, 4]), 1, "VALID", dilations=4), (1, 0, 0, 4)),
    (lambda: tf.nn.max_pool2d(X, 3, 1, "VALID"), (1, 0, 0, 3)),
    (lambda: tf.nn.avg_pool2d(X, 3, 1, "VALID"), (1, 0, 0, 3)),
    (lambda: tf.nn.max_pool1d(tf.ones([1, 2, 3]), 3, 1, "VALID"), (1, 0, 3)),
    (lambda: tf.nn.max_pool3d(tf.ones([1, 2, 2, 2, 3]), 3, 1, "VALID"), (1, 0, 0, 0, 3)),
    (lambda: tf.nn.avg_pool3d(tf.ones([1, 2, 2, 2, 3]), 3, 1, "VALID"), (1, 0, 0, 0, 3)),
    (lambda: tf.nn.max_pool2d(tf.ones([0, 4, 4, 3]), 2, 2, "SAME"), (0, 2, 2, 3)),
    (lambda: tf.nn.max_pool2d(tf.ones([1, 0, 4, 3]), 2, 2, "SAME"), (1, 0, 2, 3)),
    (lambda: tf.nn.avg_pool2d(tf.ones([1, 0, 4, 3]), 2, 2, "SAME"), (1, 0, 2, 3)),
    (lambda: tf.nn.max_pool2d(tf.ones([1, 2, 2, 3], tf.int32), 3, 1, "VALID"), (1, 0, 0, 3)),
    (lambda: tf.nn.pool(X, [3, 3], "AVG", padding="VALID"), (1, 0, 0, 3)),
])
def test_empty_conv_and_pool_outputs(call, shape):
    y = call()
    assert y.shape == shape


def test_conv_transpose_of_empty_input_is_zeros():
    y = tf.nn.conv2d_transpose(tf.ones([1, 0, 2, 3]), tf.ones([3, 3, 4, 3]), [1, 2, 4, 4], 1, "VALID")
    assert y.shape == (1, 2, 4, 4) and not y.numpy().any()


def test_conv_with_empty_filter_depth():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"filter depth must be stricly positive, got 0 "
                                                             r"\[Op:Conv2D\]"):
        tf.nn.conv2d(tf.ones([1, 4, 4, 0]), tf.ones([3, 3, 0, 4]), 1, "SAME")


ARGMAX_PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


@pytest.mark.parametrize("call, op, message", [
    (lambda: tf.math.argmax(tf.constant(1.), axis=0), "ArgMax", "Expected dimension in the range [0, 0), but got 0"),
    (lambda: tf.math.argmin(tf.constant(1.)), "ArgMin", "Expected dimension in the range [0, 0), but got 0"),
    (lambda: tf.math.argmax(tf.ones([4, 2]), axis=2), "ArgMax", "Expected dimension in the range [-2, 2), but got 2"),
    (lambda: tf.math.argmax(tf.ones([0, 4], tf.uint16)), "ArgMax", "Reduction axis 0 is empty in shape [0,4]"),
])
def test_arg_reductions_check_axes_as_tf(call, op, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == (ARGMAX_PREFIX % op) + message + f" [Op:{op}] name: "


def test_arg_reductions_arguments_and_unsigned():
    with pytest.raises(TypeError, match="^axis must be int or Tensor with integer datatype$"):
        tf.math.argmax(tf.ones([4, 2]), axis=1.0)
    with pytest.raises(TypeError, match="^axis tensor dtypes int64 is not supported$"):
        tf.math.argmax(tf.ones([4, 2]), axis=np.int64(1))
    with pytest.raises(TypeError, match="^Cannot convert 1.0 to EagerTensor of dtype int32$"):
        tf.math.argmin(tf.ones([4, 2]), axis=1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"dim must be a scalar, but received tensor of shape: "
                                                             r"\[1\] \[Op:ArgMin\]$"):
        tf.math.argmin(tf.ones([4, 2]), axis=[1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'output_type' of int16 is not in the "
                                                             "list of allowed values: int32, int64"):
        tf.math.argmin(tf.ones([2]), output_type=tf.int16)
    assert tf.math.argmax(tf.ones([2]), output_type=tf.uint16).dtype == tf.uint16
    assert tf.math.argmax(tf.constant([1, 2 ** 63 + 5, 7], tf.uint64)).numpy() == 1
    np.testing.assert_array_equal(tf.math.argmin(tf.constant([[3, 1], [0, 2]], tf.uint32), axis=1), [1, 0])
    assert tf.reduce_max(tf.constant([1, 2 ** 32 - 1], tf.uint32)).numpy() == 2 ** 32 - 1
    assert tf.reduce_min(tf.constant([2 ** 63 + 1, 5], tf.uint64)).numpy() == 5
    assert tf.math.argmax(tf.ones([4, 0]), axis=0).shape == (0,)


def test_moments_of_infinities_and_argument_order():
    assert np.isnan(tf.math.reduce_std(tf.constant(-inf, tf.float64)).numpy())
    v = tf.math.reduce_variance(tf.constant([[-0.0, -inf, 2.0]], tf.float64), axis=[])
    np.testing.assert_array_equal(v, [[0.0, nan, 0.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension \(5 for input with 1 "
                                                             r"dimension\(s\) \[Op:Mean\] name: $"):
        tf.math.reduce_variance(tf.constant([-1], tf.int64), axis=5)     # TF takes the mean before the type check
    with pytest.raises(TypeError, match="^Cannot convert 1.0 to EagerTensor of dtype int32$"):
        tf.math.cumulative_logsumexp(tf.zeros([1, 0, 4], tf.uint8), axis=1.0)


@pytest.mark.parametrize("call, message", [
    (lambda: tf.image.flip_left_right(tf.zeros([3, 3])), "'image' (shape (3, 3)) must be at least three-dimensional."),
    (lambda: tf.image.per_image_standardization(tf.zeros([3, 3])),
     "'image' (shape (3, 3)) must be at least three-dimensional."),
    (lambda: tf.image.flip_up_down(tf.zeros([0, 3, 3])), "inner 3 dims of 'image.shape' must be > 0: (0, 3, 3)"),
    (lambda: tf.image.transpose(tf.zeros([0, 3, 1])), "inner 3 dims of 'image.shape' must be > 0: (0, 3, 1)"),
    (lambda: tf.image.rot90(tf.zeros([2, 0, 1, 3], tf.int32)),
     "inner 3 dims of 'image.shape' must be > 0: (2, 0, 1, 3)"),
    (lambda: tf.image.central_crop(tf.zeros([1, 0, 3, 3], tf.uint8), 0.3),
     "inner 3 dims of 'image.shape' must be > 0: (1, 0, 3, 3)"),
    (lambda: tf.image.resize_with_crop_or_pad(tf.zeros([0, 2, 1]), 0, 3),
     "inner 3 dims of 'image.shape' must be > 0: (1, 0, 2, 1)"),
    (lambda: tf.image.resize_with_crop_or_pad(tf.zeros([1, 1, 3]), 0, 1), "target_height must be > 0."),
])
def test_image_shape_checks(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message


@pytest.mark.parametrize("method, antialias, op", [
    ("bilinear", False, "ResizeBilinear"), ("bilinear", True, "ScaleAndTranslate"),
    ("nearest", True, "ResizeNearestNeighbor"), ("bicubic", False, "ResizeBicubic"), ("area", True, "ResizeArea"),
    ("lanczos3", False, "ScaleAndTranslate")])
def test_resize_of_empty_images(method, antialias, op):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.image.resize(tf.zeros([1, 0, 2, 1]), [2, 2], method=method, antialias=antialias)
    assert str(e.value) == (ARGMAX_PREFIX % op) + f"input image must be of non-zero size [Op:{op}] name: "
    with pytest.raises(tf.errors.InvalidArgumentError, match="output dimensions must be positive"):
        tf.image.resize(tf.zeros([1, 3, 2, 1]), [0, 2], method=method, antialias=antialias)


def test_image_adjustments_compute_in_float32_as_tf():
    # TF converts images other than half/float32 to float32 and back
    g = tf.image.rgb_to_grayscale(tf.constant([[[0.3, 0.5, 0.7]]], tf.float64))
    assert g.dtype == tf.float64 and g.numpy().item() == pytest.approx(0.46297002, abs=1e-8)
    assert tf.image.adjust_gamma(tf.constant([0.5], tf.float64), 1.5).numpy().item() == np.float32(0.35355338)
    b = tf.image.adjust_brightness(tf.constant([0.335, 0.959], tf.float64), 0.5)
    np.testing.assert_array_equal(b, [0.8350000381469727, 1.4589999914169312])
    assert tf.image.adjust_brightness(tf.constant([0.5], tf.bfloat16), 0.1).dtype == tf.bfloat16
    s = tf.image.per_image_standardization(tf.constant([1e30, 0.114, 0.813, 0.874], shape=[2, 2, 1]))
    np.testing.assert_array_equal(s, np.zeros([2, 2, 1]))          # TF's reduce_std overflows to inf
    tv = tf.image.total_variation(tf.ones([2, 2, 1], tf.int32))
    assert tv.dtype == tf.int32 and tv.numpy() == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint8"):
        tf.image.total_variation(tf.ones([2, 2, 1], tf.uint8))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must be at least 3-D, got shape\[3,3\] "
                                                             r"\[Op:AdjustContrastv2\]"):
        tf.image.adjust_contrast(tf.zeros([3, 3]), 2.)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 6 values, but the "
                                                             r"requested shape has 0 \[Op:Reshape\]"):
        tf.image.image_gradients(tf.zeros([2, 3, 0, 1]))


def test_nn_ops_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.nn.softmax(tf.constant(1.))
    assert str(e.value) == (ARGMAX_PREFIX % "Softmax") + ("logits must have >= 1 dimension, got [] [Op:Softmax] "
                                                          "name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match="logits must have >= 1 dimension"):
        tf.nn.log_softmax(tf.constant(1., tf.float16))
    assert tf.nn.leaky_relu(tf.constant([-1.64], tf.float64)).numpy().tolist() == [-0.32800000488758085]
    assert tf.nn.leaky_relu(tf.constant([-3], tf.int32)).numpy().tolist() == [np.float32(-0.6000000238418579)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex128"):
        tf.nn.leaky_relu(tf.constant([1j]))
    m, v = tf.nn.moments(tf.constant([[1 + 2j, 3 - 1j]]), [1])
    assert m.numpy().tolist() == [2 + 0.5j] and v.numpy().tolist() == [3.25 + 0j]
    m, v = tf.nn.moments(tf.constant([-3.0], tf.bfloat16), [])
    assert m.shape == () and v.shape == ()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int8"):
        tf.nn.moments(tf.constant([1, 2], tf.int8), [0])
    assert tf.math.l2_normalize(tf.constant([[3.0, -4.0]]), axis=[]).numpy().tolist() == [[1.0, -1.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension \(-1 for input with 0"):
        tf.math.l2_normalize(tf.constant(1, tf.uint16), axis=-1)
    np.testing.assert_allclose(tf.nn.silu(tf.constant([2 - 0.14j], tf.complex64)),
                               [1.7611067295074463 - 0.15278393030166626j], rtol=1e-6)
    assert tf.nn.relu(tf.constant([5, 0], tf.uint16)).numpy().tolist() == [5, 0]
    with pytest.raises(ValueError, match="`features.dtype` must be a floating point tensor.Received:features.dtype="
                                         "<dtype: 'string'>"):
        tf.nn.gelu(tf.constant(["a"]))
    big = tf.math.polygamma(tf.constant([3e38, 5.0], tf.float64), tf.constant([0.0, 0.0], tf.float64))
    assert big.numpy()[0] == inf


def test_unsigned_clip_bias_and_pool():
    assert tf.clip_by_value(tf.constant(2, tf.uint32), 5, 9).numpy() == 5
    np.testing.assert_array_equal(tf.clip_by_value(tf.constant([8, 8, 2, 5], tf.uint16), 8, 5), [8, 8, 8, 8])
    big = tf.clip_by_value(tf.constant([1, 2 ** 63 + 7], tf.uint64), tf.constant(2, tf.uint64),
                           tf.constant(2 ** 63 + 3, tf.uint64))
    assert big.numpy().tolist() == [2, 2 ** 63 + 3]
    y = tf.nn.bias_add(tf.constant([4, 3, 7, 2, 5, 6], tf.uint16, shape=[2, 3, 1]), tf.constant([5], tf.uint16))
    assert y.dtype == tf.uint16 and y.numpy().ravel().tolist() == [9, 8, 12, 7, 10, 11]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint64"):
        tf.nn.max_pool2d(tf.ones([2, 2, 2, 1], tf.uint64), 2, 1, "VALID")


def test_clip_by_norm_as_tf():
    np.testing.assert_array_equal(tf.clip_by_norm(tf.constant([2.802, -0.3]), -1.0, axes=-1), [0.0, -0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension \(5 for input with 1 "
                                                             r"dimension\(s\) \[Op:Sum\]"):
        tf.clip_by_norm(tf.constant([0.7, -6.0], tf.float64), 1.0, axes=5)
    np.testing.assert_allclose(tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0), [0.6, 0.8], rtol=1e-6)


def test_string_ops_as_tf():
    assert tf.strings.substr("x y  z", 1, -1).numpy() == b" y  z"
    assert tf.strings.substr(["nan", " 12 "], -2, -1).numpy().tolist() == [b"an", b"2 "]
    assert tf.strings.substr("abc", 0, -5).numpy() == b"abc"
    assert tf.strings.substr("h\xe9llo", 1, -1, unit="UTF8_CHAR").numpy() == b""
    with pytest.raises(tf.errors.OutOfRangeError) as e:
        tf.strings.reduce_join("abc", axis=-1, separator=",")
    assert str(e.value) == (ARGMAX_PREFIX % "ReduceJoin") + ("Invalid reduction dimension -1 for input with 0 "
                                                             "dimension(s) [Op:ReduceJoin] name: ")
    with pytest.raises(tf.errors.OutOfRangeError, match="Invalid reduction dimension -3 for input with 2"):
        tf.strings.reduce_join(tf.constant([["a"]]), axis=-3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="precision not supported for datatype int32"):
        tf.strings.as_string(tf.constant([5]), precision=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="scientific and shortest format not supported for "
                                                             "datatype int32"):
        tf.strings.as_string(tf.constant([5]), scientific=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"StaticRegexFullMatch_device.*Invalid pattern: \(, "
                                                             r"error: missing \)"):
        tf.strings.regex_full_match("TensorFlow", "(")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"__wrapped__RegexFullMatch_device.*Invalid pattern"):
        tf.strings.regex_full_match("TensorFlow", tf.constant("("))
    assert tf.strings.format("{}", tf.constant([1 + 2j, 3j], tf.complex64)).numpy() == b"[? ?]"


def test_sqrtm_of_negative_real_eigenvalues_is_nan():
    y = tf.linalg.sqrtm(tf.constant([[[-0.5]], [[0.533]], [[2.0]]], tf.float64))
    np.testing.assert_allclose(y.numpy().ravel(), [nan, 0.7300684899377592, 1.4142135623730951])
    m = tf.linalg.sqrtm(tf.constant([[[0.6, -1.122], [3.7, -1.287]], [[-4.5, -1.0], [-1.0, 1.01]]], tf.float64))
    np.testing.assert_allclose(m.numpy()[0], [[1.4101953684990802, -0.6489214329179966],
                                              [2.1399369891235183, 0.31882750404608606]], rtol=1e-10)
    assert np.isnan(m.numpy()[1]).all()
