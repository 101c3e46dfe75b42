"""tf.image colour spaces and colour adjustments against TF 2.21 (golden values recorded from TF)."""
import numpy as np
import pytest

import tfcompat as tf

IMG = np.array([[[0.5, 0.5, 0.5], [0.2, 0.7, 0.7], [0.9, 0.9, 0.1]], [[0., 0., 0.], [1., 0., 1.], [0.3, 0.25, 0.9]]],
               np.float32)
U8 = np.array([[[200, 100, 7], [0, 255, 30]]], np.uint8)
GOLDEN = {
    'rgb_to_hsv': [[[0.0, 0.0, 0.5], [0.5, 0.7142857, 0.7], [0.1666667, 0.8888888, 0.9]], [[0.0, 0.0, 0.0], [0.8333333, 1.0, 1.0], [0.6794872, 0.7222222, 0.9]]],
    'hsv_to_rgb': [[[0.25, 0.5, 0.5], [0.6019999, 0.7, 0.21], [0.1, 0.01, 0.064]], [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.7199999, 0.9, 0.675]]],
    'rgb_to_yuv': [[[0.5, 0.0, 0.0], [0.5505, 0.0735706, -0.3074877], [0.8088, -0.3488083, 0.0800082]], [[0.0, 0.0, 0.0], [0.413, 0.2888692, 0.5149651], [0.33905, 0.2760497, -0.0342579]]],
    'yuv_to_rgb': [[[1.0699415, 0.0123679, 1.5160309], [0.9979181, -0.4826849, 1.6224433], [1.0139883, 0.4867597, 2.7288556]], [[0.0, 0.0, 0.0], [2.139883, 0.4193782, 1.0], [1.3258947, -0.3212202, 0.8080155]]],
    'rgb_to_yiq': [[[0.5, 0.0, -1.83e-05], [0.5505, -0.2979503, -0.1057756], [0.8088, 0.2570751, -0.2489926]], [[0.0, 0.0, 0.0], [0.413, 0.2745567, 0.5226995], [0.33905, -0.1790785, 0.2128455]]],
    'yiq_to_rgb': [[[1.2884055, 0.0403915, 0.7987452], [1.3037678, -0.4434519, 0.6182432], [1.8224702, 0.590468, 0.0743568]], [[0.0, 0.0, 0.0], [1.6208248, 0.3527958, 2.7042305], [1.0977389, -0.350487, 1.5571223]]],
    'adjust_hue 0.3': [[[0.5, 0.5, 0.5], [0.6000001, 0.2, 0.7], [0.1, 0.9, 0.7400001]], [[0.0, 0.0, 0.0], [1.0, 0.8000002, 0.0], [0.9, 0.25, 0.33]]],
    'adjust_hue -0.7': [[[0.5, 0.5, 0.5], [0.6000001, 0.2, 0.7], [0.1, 0.9, 0.7400001]], [[0.0, 0.0, 0.0], [1.0, 0.8000002, 0.0], [0.9, 0.25, 0.33]]],
    'adjust_saturation 0.4': [[[0.5, 0.5, 0.5], [0.5, 0.7, 0.7], [0.9, 0.9, 0.58]], [[0.0, 0.0, 0.0], [1.0, 0.6, 1.0], [0.66, 0.64, 0.9]]],
    'adjust_saturation 2.5': [[[0.5, 0.5, 0.5], [0.0, 0.7, 0.7], [0.9, 0.9, 0.0]], [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0692306, 0.0, 0.9]]],
    'adjust_hue u8': [[[7.0, 200.0, 61.0], [0.0, 21.0, 255.0]]],
    'adjust_saturation u8': [[[200.0, 150.0, 103.0], [127.0, 255.0, 142.0]]],
    'rgb_to_hsv u8 numpy': [[[0.0803109, 0.965, 200.0], [0.3529412, 1.0, 255.0]]],
}
CALLS = {
    "rgb_to_hsv": lambda: tf.image.rgb_to_hsv(IMG),
    "hsv_to_rgb": lambda: tf.image.hsv_to_rgb(IMG),
    "rgb_to_yuv": lambda: tf.image.rgb_to_yuv(IMG),
    "yuv_to_rgb": lambda: tf.image.yuv_to_rgb(IMG),
    "rgb_to_yiq": lambda: tf.image.rgb_to_yiq(IMG),
    "yiq_to_rgb": lambda: tf.image.yiq_to_rgb(IMG),
    "adjust_hue 0.3": lambda: tf.image.adjust_hue(IMG, 0.3),
    "adjust_hue -0.7": lambda: tf.image.adjust_hue(IMG, -0.7),
    "adjust_saturation 0.4": lambda: tf.image.adjust_saturation(IMG, 0.4),
    "adjust_saturation 2.5": lambda: tf.image.adjust_saturation(IMG, 2.5),
    "adjust_hue u8": lambda: tf.image.adjust_hue(U8, 0.3),
    "adjust_saturation u8": lambda: tf.image.adjust_saturation(U8, 0.5),
    "rgb_to_hsv u8 numpy": lambda: tf.image.rgb_to_hsv(U8),
}


@pytest.mark.parametrize("key", sorted(CALLS))
def test_colour_values(key):
    y = CALLS[key]()
    want_dtype = tf.uint8 if key.endswith(" u8") else tf.float32
    assert y.dtype == want_dtype
    np.testing.assert_allclose(y.numpy(), GOLDEN[key], rtol=1e-6, atol=5e-7)


def test_colour_round_trips_and_dtypes():
    rng = np.random.RandomState(0)
    x = rng.rand(2, 4, 5, 3).astype(np.float32)
    np.testing.assert_allclose(tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x)), x, atol=1e-6)
    np.testing.assert_allclose(tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x)), x, atol=1e-5)
    assert tf.image.rgb_to_hsv(tf.constant(x, tf.float64)).dtype == tf.float64
    assert tf.image.rgb_to_hsv(x.astype(np.float64)).dtype == tf.float32      # numpy input: the op's default type
    assert tf.image.adjust_hue(tf.constant(x, tf.float64), 0.2).dtype == tf.float64
    np.testing.assert_allclose(tf.image.adjust_hue(x, 1.0), x, atol=1e-6)
    np.testing.assert_allclose(tf.image.adjust_saturation(x, 1.0), x, atol=1e-6)


def test_colour_errors():
    four = np.ones([2, 2, 4], np.float32)
    prefix = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    for fn, op in ((tf.image.rgb_to_hsv, "RGBToHSV"), (tf.image.hsv_to_rgb, "HSVToRGB")):
        with pytest.raises(tf.errors.FailedPreconditionError) as e:
            fn(four)
        assert str(e.value) == (prefix % op) + ("input must have 3 channels but input only has 4 channels. "
                                                f"[Op:{op}] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[4,4\], "
                                                             r"In\[1\]: \[3,3\] \[Op:MatMul\]"):
        tf.image.rgb_to_yuv(four)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint8"):
        tf.image.rgb_to_hsv(tf.constant(U8))
    with pytest.raises(TypeError):
        tf.image.rgb_to_yuv(tf.constant(U8))
    with pytest.raises(ValueError, match=r"delta must be in the interval \[-1, 1\]"):
        tf.image.adjust_hue(IMG, 1.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must have 3 channels but instead has 4 channels"):
        tf.image.adjust_hue(four, 0.1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must be at least 3-D"):
        tf.image.adjust_saturation(np.ones([2, 3], np.float32), 0.1)
    for fn, op in ((tf.image.adjust_hue, "AdjustHue"), (tf.image.adjust_saturation, "AdjustSaturation")):
        with pytest.raises(tf.errors.NotFoundError) as e:
            fn(IMG.astype(np.float16), 0.3)
        assert str(e.value) == (f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_HALF]\nAll kernels "
                                f"registered for op {op}:\n  device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_HALF]\n  "
                                f"device='CPU'; T in [DT_FLOAT]\n [Op:{op}] name: ")


@pytest.mark.parametrize("call, message", [
    (lambda: tf.image.random_hue(IMG, 0.6), "max_delta must be <= 0.5."),
    (lambda: tf.image.random_hue(IMG, -0.1), "max_delta must be non-negative."),
    (lambda: tf.image.random_saturation(IMG, 0.5, 0.4), "upper must be > lower."),
    (lambda: tf.image.random_saturation(IMG, -0.5, 0.4), "lower must be non-negative."),
    (lambda: tf.image.random_brightness(IMG, -0.5), "max_delta must be non-negative."),
    (lambda: tf.image.random_contrast(IMG, 1., 1.), "upper must be > lower."),
    (lambda: tf.image.stateless_random_hue(IMG, 0.6, (1, 2)), "max_delta must be <= 0.5."),
    (lambda: tf.image.stateless_random_contrast(IMG, -1., 1., (1, 2)), "lower must be non-negative."),
])
def test_random_adjustment_argument_checks(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_random_adjustments_stay_in_range():
    x = tf.constant(IMG)
    for fn in (lambda s: tf.image.stateless_random_hue(x, 0.2, s), lambda s: tf.image.stateless_random_saturation(
            x, 0.5, 1.5, s), lambda s: tf.image.stateless_random_brightness(x, 0.2, s),
            lambda s: tf.image.stateless_random_contrast(x, 0.5, 1.5, s)):
        a, b = fn((1, 2)), fn((1, 2))
        np.testing.assert_array_equal(a, b)                  # a function of the seed
        assert a.shape == x.shape and a.dtype == tf.float32
    hue = tf.image.random_hue(x, 0.5)
    np.testing.assert_allclose(tf.reduce_max(hue, -1), tf.reduce_max(x, -1), atol=1e-6)   # hue keeps value
    b = tf.image.random_brightness(tf.constant(U8), 0.2)
    assert b.dtype == tf.uint8
    c = tf.image.random_contrast(x, 0.9, 1.1)
    np.testing.assert_allclose(tf.reduce_mean(c, [0, 1]), tf.reduce_mean(x, [0, 1]), atol=1e-6)
    s = tf.image.random_saturation(x, 0.5, 1.5)
    np.testing.assert_allclose(tf.reduce_max(s, -1), tf.reduce_max(x, -1), atol=1e-6)


def test_colour_gradients_as_tf():
    x = tf.Variable(IMG[None])
    for fn, op in ((lambda v: tf.image.adjust_hue(v, 0.2), "AdjustHue"),
                   (lambda v: tf.image.adjust_saturation(v, 0.5), "AdjustSaturation")):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(fn(x))
        with pytest.raises(LookupError, match=f"gradient registry has no entry for: {op}"):
            tape.gradient(y, x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.hsv_to_rgb(x))
    assert tape.gradient(y, x) is None                     # TF: HSVToRGB is not differentiable
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.rgb_to_yuv(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy()[0, 0, 0], [0.7668342, -0.21683428, 0.4500001], rtol=1e-5)
