"""Histograms, zero fraction, monotonicity, invert_permutation, reciprocal_no_nan and the special functions
(Bessel, lbeta, erfcinv, polyval), golden values and errors recorded from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

nan, inf = np.nan, np.inf


def test_histogram_fixed_width():
    v = [-1.0, 0.0, 1.5, 2.0, 5.0, 15]
    np.testing.assert_array_equal(tf.histogram_fixed_width(v, [0.0, 5.0], nbins=5), [2, 1, 1, 0, 2])
    h = tf.histogram_fixed_width(tf.constant([-1, 0, 1, 2, 5, 15]), tf.constant([0, 5]), nbins=5)
    assert h.dtype == tf.int32
    np.testing.assert_array_equal(h, [2, 1, 1, 0, 2])
    h64 = tf.histogram_fixed_width([1., 2.], [0., 5.], nbins=3, dtype=tf.int64)
    assert h64.dtype == tf.int64 and h64.numpy().tolist() == [1, 1, 0]
    np.testing.assert_array_equal(tf.histogram_fixed_width([[1., 2.], [3., 4.]], [0., 5.], nbins=2), [2, 2])
    np.testing.assert_array_equal(tf.histogram_fixed_width([1., 2.], [0, 5], nbins=2), [2, 0])
    f32 = tf.constant([0.1, 0.2, 0.3, 0.7, 0.6])
    np.testing.assert_array_equal(tf.histogram_fixed_width(f32, tf.constant([0., 1.]), nbins=10),
                                  [0, 1, 1, 1, 0, 0, 2, 0, 0, 0])
    f64 = tf.constant([0.1, 0.2, 0.3], tf.float64)
    np.testing.assert_array_equal(tf.histogram_fixed_width(f64, tf.constant([0., 1.], tf.float64), nbins=10),
                                  [0, 1, 2, 0, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(tf.histogram_fixed_width(tf.zeros([0]), [0., 1.], nbins=3), [0, 0, 0])
    np.testing.assert_array_equal(tf.histogram_fixed_width([1., 2.], [0., 5.], nbins=tf.constant(2)), [2, 0])
    np.testing.assert_array_equal(tf.histogram_fixed_width([-1e30, 3e38, 1.], [0., 5.], nbins=5), [1, 1, 0, 0, 1])


@pytest.mark.parametrize("args, kwargs, message", [
    ([[nan, inf, -inf, 2.4999999], [0., 5.]], {"nbins": 2}, "Histogram values must not contain NaN"),
    ([[1., 2.], [5., 0.]], {"nbins": 2}, "value_range should satisfy value_range[0] < value_range[1], but got '[5, 0]'"),
    ([[1., 2.], [0., 5.]], {"nbins": 0}, "nbins should be a positive number, but got '0'"),
    ([[1., 2.], [0., 5., 6.]], {"nbins": 2}, "value_range should be a vector of 2 elements."),
    ([[1., 2.], [[0., 5.]]], {"nbins": 2}, "value_range should be a vector."),
    ([[1., 2.], [0., 5.]], {"nbins": [2]}, "nbins should be a scalar."),
])
def test_histogram_fixed_width_errors(args, kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.histogram_fixed_width(*args, **kwargs)
    assert str(e.value) == ("{{function_node __wrapped__HistogramFixedWidth_device_/job:localhost/replica:0/task:0/"
                            f"device:CPU:0}}}} {message} [Op:HistogramFixedWidth]")


def test_histogram_fixed_width_dtype_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of float is not in the list of "
                                                             "allowed values: int32, int64"):
        tf.histogram_fixed_width([1., 2.], [0., 5.], nbins=2, dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint8 is not in the list of "
                                                             "allowed values: int32, int64, float, double"):
        tf.histogram_fixed_width(tf.constant([1, 2], tf.uint8), tf.constant([0, 5], tf.uint8), nbins=2)


def test_histogram_fixed_width_bins():
    b = tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    assert b.dtype == tf.int32 and b.numpy().tolist() == [0, 0, 1, 2, 4, 4]
    np.testing.assert_array_equal(tf.histogram_fixed_width_bins([[-1.0, 0.0], [1.5, 2.0]], [0.0, 5.0], nbins=5),
                                  [[0, 0], [1, 2]])
    np.testing.assert_array_equal(tf.histogram_fixed_width_bins([nan, inf, -inf], [0.0, 5.0], nbins=5),
                                  [-2147483648, 4, 0])
    np.testing.assert_array_equal(
        tf.histogram_fixed_width_bins(tf.constant([0.1, 0.2, 0.3, 0.7, 0.6]), tf.constant([0., 1.]), nbins=10),
        [1, 2, 3, 7, 6])
    np.testing.assert_array_equal(tf.histogram_fixed_width_bins([1., 2.], [5., 0.], nbins=2), [1, 1])
    np.testing.assert_array_equal(tf.histogram_fixed_width_bins([3., 1., 0., 5., 2.], [5., 0.], nbins=5),
                                  [2, 4, 4, 0, 3])
    assert tf.histogram_fixed_width_bins([1., 2.], [0., 5.], nbins=2, dtype=tf.int64).dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.histogram_fixed_width_bins([1., 2.], [0., 5.], nbins=0)
    assert str(e.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
                            "b'nbins tf.Tensor(0, shape=(), dtype=int32) must > 0'")
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Mul as input #1"):
        tf.histogram_fixed_width_bins(tf.constant([-1, 0, 1]), tf.constant([0, 5]), nbins=5)


def test_reciprocal_no_nan():
    np.testing.assert_array_equal(tf.math.reciprocal_no_nan([0., 2., -0., inf, nan]), [0., 0.5, 0., 0., nan])
    np.testing.assert_array_equal(tf.math.reciprocal_no_nan(tf.constant([0j, 1 + 1j])), [0j, 0.5 - 0.5j])
    h = tf.math.reciprocal_no_nan(tf.constant([0., 4.], tf.float16))
    assert h.dtype == tf.float16 and h.numpy().tolist() == [0., 0.25]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list"):
        tf.math.reciprocal_no_nan(tf.constant([1, 2]))


def test_zero_fraction():
    assert tf.math.zero_fraction([0., 1., 0., 3.]).numpy() == 0.5
    z = tf.nn.zero_fraction(tf.constant([[0, 1], [2, 0]], tf.int32))
    assert z.dtype == tf.float32 and z.numpy() == 0.5
    assert np.isnan(tf.nn.zero_fraction(tf.zeros([0])).numpy())
    assert tf.nn.zero_fraction(tf.constant([True, False])).numpy() == 0.5
    assert tf.nn.zero_fraction(tf.constant(["a"])).numpy() == 0.0
    assert tf.nn.zero_fraction(tf.constant([0., 1., 2.], tf.float64)).numpy() == np.float32(1 / 3)
    assert tf.nn.zero_fraction(tf.constant([nan, -0.])).numpy() == 0.5


def test_monotonicity():
    assert tf.math.is_non_decreasing([1, 1, 2]).numpy()
    assert not tf.math.is_non_decreasing([[1, 2], [0, 3]]).numpy()
    assert tf.math.is_non_decreasing([]).numpy() and tf.math.is_non_decreasing(3).numpy()
    assert not tf.math.is_non_decreasing([1., nan, 2.]).numpy()
    assert not tf.math.is_non_decreasing(tf.constant([2, 1], tf.uint8)).numpy()
    assert not tf.math.is_strictly_increasing([1, 1, 2]).numpy()
    assert tf.math.is_strictly_increasing([1, 2, 3.5]).numpy()
    with pytest.raises(TypeError) as e:
        tf.math.is_strictly_increasing(["a", "b"])
    assert str(e.value) == "Expected x to be numeric, instead found: tf.Tensor([b'a' b'b'], shape=(2,), dtype=string)"
    with pytest.raises(TypeError, match=r"instead found: tf.Tensor\(\[ True\], shape=\(1,\), dtype=bool\)"):
        tf.math.is_non_decreasing([[True]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex128"):
        tf.math.is_strictly_increasing([1j, 2j])


def test_invert_permutation():
    y = tf.math.invert_permutation([3, 4, 0, 2, 1])
    assert y.dtype == tf.int32 and y.numpy().tolist() == [2, 4, 3, 0, 1]
    assert tf.math.invert_permutation(tf.constant([1, 0], tf.int64)).dtype == tf.int64
    assert tf.math.invert_permutation(tf.zeros([0], tf.int32)).shape == (0,)
    prefix = "{{function_node __wrapped__InvertPermutation_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    for perm, message in [([3, 3, 0], "3 is not between 0 and 3"), ([3, 1, 0], "3 is not between 0 and 3"),
                          ([0, 0, 1], "0 is duplicated in the input."), ([1, 0, 0], "0 is duplicated in the input."),
                          ([2, 2, -1], "2 is duplicated in the input."), ([-1, 0], "-1 is not between 0 and 2"),
                          ([[0]], "invert_permutation expects a 1D vector.")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.math.invert_permutation(perm)
        assert str(e.value) == prefix + message + " [Op:InvertPermutation]"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of float is not in the list of "
                                                             "allowed values: int32, int64"):
        tf.math.invert_permutation([0.])


X = [-1., 0., 0.5, 1., 2.5, 10., nan]
BESSEL = {
    "bessel_j0": [0.7651977, 1., 0.9384699, 0.7651977, -0.04838379, -0.24593574, nan],
    "bessel_j1": [-0.4400506, 0., 0.24226847, 0.4400506, 0.49709406, 0.0434728, nan],
    "bessel_y0": [-inf, -inf, -0.44451872, 0.08825697, 0.49807036, 0.05567125, nan],
    "bessel_y1": [-inf, nan, -1.4714724, -0.7812128, 0.14591809, 0.24901544, nan],
    "bessel_k0": [inf, inf, 9.2441911e-01, 4.2102444e-01, 6.2347557e-02, 1.7780063e-05, nan],
    "bessel_k1": [inf, inf, 1.6564410e+00, 6.0190731e-01, 7.3890820e-02, 1.8648774e-05, nan],
    "bessel_k0e": [inf, inf, 1.5241094, 1.1444631, 0.7595488, 0.39163196, nan],
    "bessel_k1e": [inf, inf, 2.7310095, 1.6361537, 0.90017444, 0.41076657, nan],
}


@pytest.mark.parametrize("name", sorted(BESSEL))
def test_bessel_functions(name):
    fn = getattr(tf.math.special, name)
    np.testing.assert_allclose(fn(tf.constant(X)), BESSEL[name], rtol=2e-6)
    half = fn(tf.constant([0.5], tf.float16))
    assert half.dtype == tf.float16
    np.testing.assert_allclose(half, [BESSEL[name][2]], rtol=1e-3)
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node Bessel"):
        fn(tf.constant([0.5], tf.bfloat16))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        fn(tf.constant([1]))


def test_bessel_edges():
    x = tf.constant([-2., -0.5, -0.0, 0.0, 1e-30, inf, -inf])
    np.testing.assert_array_equal(tf.math.special.bessel_y0(x), [-inf, -inf, -inf, -inf, np.float32(-4.4049938e+01),
                                                                nan, -inf])
    np.testing.assert_array_equal(tf.math.special.bessel_y1(x)[:4], [-inf, -inf, nan, nan])
    np.testing.assert_array_equal(tf.math.special.bessel_k1(x), np.float32([inf, inf, inf, inf, 1e30, 0., inf]))


def test_lbeta():
    np.testing.assert_allclose(tf.math.lbeta([[1., 2.], [3., 4.], [0.5, 0.5]]), [-0.6931472, -4.0943446, 1.1447299],
                               rtol=1e-6)
    assert tf.math.lbeta([1., 2., 3.]).numpy() == pytest.approx(-4.094344615936279, rel=1e-6)
    np.testing.assert_array_equal(tf.math.lbeta(tf.zeros([2, 0])), [-inf, -inf])
    assert tf.math.lbeta(tf.constant([[1., 2.]], tf.float64)).dtype == tf.float64
    assert tf.math.lbeta([-1., 2.]).numpy() == inf
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.math.lbeta(2.)
    assert str(e.value) == ("{{function_node __wrapped__Sum_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            "Invalid reduction dimension (-1 for input with 0 dimension(s) [Op:Sum]")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.math.lbeta(tf.constant([1, 2]))


def test_erfcinv_and_polyval():
    np.testing.assert_allclose(tf.math.erfcinv([0., 0.5, 1., 1.5, 2., 2.5]),
                               [inf, 0.4769363, -0., -0.4769363, -inf, nan], rtol=1e-6)
    with pytest.raises(TypeError, match="Cannot convert 0.5 to EagerTensor of dtype int32"):
        tf.math.erfcinv([1, 2])
    np.testing.assert_array_equal(tf.math.polyval([2., 1., 3.], tf.constant([[1., 2.], [3., 0.]])), [[6., 13.], [24., 3.]])
    p = tf.math.polyval([2, 1, 3], 3)
    assert p.dtype == tf.int32 and p.numpy() == 24
    np.testing.assert_array_equal(tf.math.polyval([], tf.constant([1., 2.])), [0., 0.])
    with pytest.raises(ValueError, match="Argument coeffs must be list type. Received type <class"):
        tf.math.polyval(tf.constant([1., 2.]), 3.)


BESSEL_GRADS = {   # d/dx at [0.3, 1.0, 2.5, 7.0], from TF 2.21's gradient tape
    "bessel_j0": [-0.14832, -0.44005, -0.49709, 0.00468],
    "bessel_j1": [0.48323, 0.32515, -0.24722, 0.30075],
    "bessel_y0": [2.29311, 0.78121, -0.14592, 0.30267],
    "bessel_y1": [6.83641, 0.86947, 0.4397, 0.01729],
    "bessel_k0": [-3.05599, -0.60191, -0.07389, -0.00045],
    "bessel_k1": [-11.5591, -1.02293, -0.0919, -0.00049],
    "bessel_k0e": [-2.27253, -0.49169, -0.14063, -0.03223],
    "bessel_k1e": [-11.478, -1.14446, -0.21944, -0.03893],
}


@pytest.mark.parametrize("name", sorted(BESSEL_GRADS))
def test_bessel_gradients(name):
    x = tf.Variable(np.array([0.3, 1.0, 2.5, 7.0], np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(getattr(tf.math.special, name)(x))
    np.testing.assert_allclose(tape.gradient(y, x), BESSEL_GRADS[name], rtol=1e-4, atol=1e-5)


def test_betainc():
    y = tf.math.betainc([0.5, 1., 2., 10., 0.1, 30.], [0.5, 3., 2., 2., 0.2, 40.], [0.2, 0.5, 0.9, 0.7, 0.01, 0.45])
    assert y.dtype == tf.float32
    np.testing.assert_allclose(y, [0.2951672375202179, 0.875, 0.972000002861023, 0.11299008131027222,
                                   0.4324969947338104, 0.6447491645812988], rtol=3e-6)
    d = tf.math.betainc(tf.constant([0.5, 200.], tf.float64), tf.constant([0.5, 300.], tf.float64),
                        tf.constant([0.2, 0.4], tf.float64))
    np.testing.assert_allclose(d, [0.29516723530086664, 0.5024286163200112], rtol=1e-12)
    np.testing.assert_array_equal(tf.math.betainc([1., 1., 1., -1., 0., 1., nan, 1.], [1., 1., 1., 1., 1., 0., 1., inf],
                                                  [0., 1., 1.5, 0.5, 0.5, 0.5, 0.5, 0.5]),
                                  [0., 1., nan, nan, nan, nan, nan, nan])
    np.testing.assert_allclose(tf.math.betainc(2., [1., 2.], [0.5, 0.5]), [0.25, 0.5], rtol=1e-6)
    prefix = "{{function_node __wrapped__Betainc_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.math.betainc(tf.ones([2, 1]), tf.ones([3]), tf.ones([3]) * 0.5)
    assert str(e.value) == prefix + "Shapes of a and b are inconsistent: [2,1] vs. [3] [Op:Betainc] name: "
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shapes of b and x are inconsistent: \[3\] vs. \[2\]"):
        tf.math.betainc(1., tf.ones([3]), tf.ones([2]) * 0.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #1.zero-based. was expected to be a double tensor "
                                                             "but is a float tensor"):
        tf.math.betainc(tf.constant([0.5], tf.float64), tf.constant([0.5]), tf.constant([0.2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of half is not in the list of "
                                                             "allowed values: float, double"):
        tf.math.betainc(tf.constant([0.5], tf.float16), tf.constant([0.5], tf.float16), tf.constant([0.2], tf.float16))


def test_expint_and_spence():
    x = tf.constant([-1., 0., 0.25, 1., 2.5, 10., 50., nan], tf.float64)
    np.testing.assert_allclose(tf.math.special.expint(x), [nan, -inf, -0.5425432646619137, 1.895117816355937,
                                                           7.073765894578601, 2492.228976241878, 1.058563689713169e+20,
                                                           nan], rtol=1e-12)
    y = tf.constant([-1., 0., 0.25, 1., 1.8, 2.5, 10., inf], tf.float64)
    np.testing.assert_allclose(tf.math.special.spence(y), [nan, 1.6449340668482264, 0.9784693929303059, 0.0,
                                                           -0.6797815878346818, -1.1473806603755703, -3.950663778244157,
                                                           nan], rtol=1e-12, atol=1e-15)
    assert tf.math.special.spence(tf.constant([2.5])).dtype == tf.float32
    for fn, op in ((tf.math.special.expint, "Expint"), (tf.math.special.spence, "Spence")):
        with pytest.raises(tf.errors.NotFoundError, match=rf"\{{\{{node {op}\}}\}} = {op}\[T=DT_HALF\]"):
            fn(tf.constant([1.], tf.float16))


def test_zero_fraction_of_wide_unsigned():
    assert tf.nn.zero_fraction(tf.constant([3, 7, 3, 0], tf.uint32)).numpy() == 0.25
    assert tf.nn.zero_fraction(tf.constant(7, tf.uint64)).numpy() == 0.0
