"""tf.math.special.fresnel_cos/fresnel_sin and tf.nn.depthwise_conv2d_backprop_filter/_input; golden values from
TF 2.21."""
import math

import numpy as np
import pytest

import tfcompat as tf

V = [-3., -1., 0., 0.1, 0.5, 1., 2., 2.5, 3.5, 5., 10., 1e10, math.inf, -math.inf, math.nan]
# TF 2.21, float32
FRESNEL_COS = [-0.6057207584381104, -0.7798933982849121, 0.0, 0.09999752789735794, 0.4923442006111145,
               0.7798933982849121, 0.4882534444332123, 0.457412987947464, 0.5325725078582764, 0.5636311769485474,
               0.4998987913131714, 0.5, 0.5, -0.5, math.nan]
FRESNEL_SIN = [-0.4963130056858063, -0.4382591247558594, 0.0, 0.000523589551448822, 0.06473242491483688,
               0.4382591247558594, 0.34341567754745483, 0.619181752204895, 0.4152480661869049, 0.49919143319129944,
               0.4681699872016907, 0.5, 0.5, -0.5, math.nan]


def test_fresnel_values_float32_and_float64():
    v = tf.constant(V)
    c, s = tf.math.special.fresnel_cos(v), tf.math.special.fresnel_sin(v)
    assert c.dtype == tf.float32 and s.dtype == tf.float32
    np.testing.assert_allclose(c.numpy(), FRESNEL_COS, atol=2e-7)
    np.testing.assert_allclose(s.numpy(), FRESNEL_SIN, atol=2e-7)
    # TF 2.21, float64 (a sample of np.linspace(-7, 7, 57))
    x = tf.constant([-7.0, -4.5, -2.25, 0.25, 2.75, 5.25, 6.75], tf.float64)
    np.testing.assert_allclose(tf.math.special.fresnel_cos(x).numpy(),
                               [-0.5454670925469698, -0.5260259150535386, -0.6401242099465467, 0.24975915035654317,
                                0.4232637962836626, 0.4610115774407804, 0.5301662060524189], atol=1e-12)
    np.testing.assert_allclose(tf.math.special.fresnel_sin(x).numpy(),
                               [-0.4997047894534463, -0.43427297504870355, -0.5053022268236947, 0.008175600235777755,
                                0.4139909014757821, 0.45359401210824585, 0.536238693069918], atol=1e-12)


def test_fresnel_errors_and_gradient():
    # TF 2.21 messages
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of "
                                                             "allowed values: bfloat16, half, float, double"):
        tf.math.special.fresnel_cos(tf.constant([1, 2]))
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node FresnelSin\}\} = "
                                                      r"FresnelSin\[T=DT_HALF\]"):
        tf.math.special.fresnel_sin(tf.constant([1., 2.], tf.float16))
    v = tf.constant([-3., -1., 0., 0.1, 0.5, 1., 2., 2.5, 3.5, 5., 10.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.math.special.fresnel_sin(v) + 2 * tf.math.special.fresnel_cos(v)
    # TF 2.21: grad * sin(pi/2 x^2) + 2 grad * cos(pi/2 x^2)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(),
                               [0.99999994, 0.99999994, 2., 2.0154605, 2.2304425, 0.99999994, 2.0000002,
                                -2.2304425, 2.2304428, 0.9999985, 2.0000029], atol=2e-5)

    @tf.function
    def f(x):
        return tf.math.special.fresnel_cos(x)
    np.testing.assert_allclose(f(tf.constant([0.5, 1.])).numpy(), [0.4923442, 0.7798934], atol=1e-7)
    np.testing.assert_allclose(f(tf.constant([2., 2.5])).numpy(), [0.48825344, 0.457413], atol=1e-7)


X = tf.reshape(tf.range(1 * 5 * 4 * 2, dtype=tf.float32), [1, 5, 4, 2]) / 10.
W = tf.reshape(tf.range(3 * 2 * 2 * 2, dtype=tf.float32), [3, 2, 2, 2]) / 7.
DY = tf.reshape(tf.range(1 * 3 * 3 * 4, dtype=tf.float32), [1, 3, 3, 4]) / 5.


def test_depthwise_backprop_values():
    f = tf.nn.depthwise_conv2d_backprop_filter(X, [3, 2, 2, 2], DY, [1, 1, 1, 1], "VALID")
    i = tf.nn.depthwise_conv2d_backprop_input([1, 5, 4, 2], W, DY, [1, 1, 1, 1], "VALID")
    # TF 2.21
    np.testing.assert_allclose(f.numpy()[0], [[[41.28, 43.08], [48.12, 50.1]], [[47.04, 49.2], [54.6, 56.94]]],
                               rtol=1e-5)
    np.testing.assert_allclose(float(tf.reduce_sum(f)), 1775.88, rtol=1e-5)
    np.testing.assert_allclose(float(tf.reduce_sum(i)), 1249.7144, rtol=1e-5)
    np.testing.assert_allclose(i.numpy()[0, :, 1, 1], [1.8857144, 14.057142, 47.48571, 78.51428, 66.34286],
                               rtol=1e-5)
    same = tf.nn.depthwise_conv2d_backprop_filter(X, [2, 2, 2, 1], tf.ones([1, 3, 2, 2]), [1, 2, 2, 1], "SAME")
    np.testing.assert_allclose(same.numpy()[..., 0], [[[10.8, 11.4], [12., 12.6]], [[7.2, 7.6], [8., 8.4]]],
                               rtol=1e-5)
    same_in = tf.nn.depthwise_conv2d_backprop_input([1, 5, 4, 2], W, tf.ones([1, 3, 2, 4]), [1, 2, 2, 1], "SAME")
    np.testing.assert_allclose(same_in.numpy()[0, :2, :2], [[[2.4286, 3.], [3.5714, 4.1429]],
                                                            [[4.8571, 6.], [7.1429, 8.2857]]], atol=1e-4)
    explicit = tf.nn.depthwise_conv2d_backprop_filter(X, [3, 2, 2, 2], tf.ones([1, 5, 4, 4]), [1, 1, 1, 1],
                                                      [[0, 0], [1, 1], [0, 1], [0, 0]])
    np.testing.assert_allclose(explicit.numpy()[:, 0, 0], [[24., 24.], [38., 38.], [36.8, 36.8]], rtol=1e-5)


def test_depthwise_backprop_gradients_errors_and_tf_function():
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([X, W, DY])
        y = tf.reduce_sum(tf.nn.depthwise_conv2d_backprop_filter(X, [3, 2, 2, 2], DY, [1, 1, 1, 1], "VALID") ** 2)
        z = tf.reduce_sum(tf.nn.depthwise_conv2d_backprop_input([1, 5, 4, 2], W, DY, [1, 1, 1, 1], "VALID") ** 2)
    # TF 2.21: gradient sums
    gx, gw, gdy = tape.gradient(y, [X, W, DY])
    assert gw is None
    np.testing.assert_allclose([float(tf.reduce_sum(gx)), float(tf.reduce_sum(gdy))], [112395.6, 68385.4], rtol=1e-5)
    gx, gw, gdy = tape.gradient(z, [X, W, DY])
    assert gx is None
    np.testing.assert_allclose([float(tf.reduce_sum(gw)), float(tf.reduce_sum(gdy))], [69398.5, 32354.8], rtol=1e-5)

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="input depth must be evenly divisible by filter depth: 2 vs 3"):
        tf.nn.depthwise_conv2d_backprop_filter(X, [3, 2, 3, 2], DY, [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute DepthwiseConv2dNativeBackpropFilter as input #2\(zero-based\) was "
                             "expected to be a double tensor but is a float tensor"):
        tf.nn.depthwise_conv2d_backprop_filter(tf.cast(X, tf.float64), [3, 2, 2, 2], DY, [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, "
                             "float, double"):
        tf.nn.depthwise_conv2d_backprop_filter(tf.cast(X, tf.int32), [3, 2, 2, 2], tf.cast(DY, tf.int32),
                                               [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="input depth must be evenly divisible by filter depth: 5 vs 2"):
        tf.nn.depthwise_conv2d_backprop_input([1, 5, 4, 2], W, DY, [1, 1, 1, 1], "VALID", data_format="NCHW")

    @tf.function
    def g(x):
        return tf.nn.depthwise_conv2d_backprop_filter(x, [3, 2, 2, 2], DY, [1, 1, 1, 1], "VALID")
    np.testing.assert_allclose(g(X).numpy()[0, 0], [[41.28, 43.08], [48.12, 50.1]], rtol=1e-5)
    np.testing.assert_allclose(g(X * 2).numpy()[0, 0], [[82.56, 86.16], [96.24, 100.2]], rtol=1e-5)
