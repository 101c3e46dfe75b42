"""Keras 3 layers added beside the common ones (normalization, wrappers, dropout, convolution, pooling):
values against TF 2.21 / Keras 3.15.1 with the same weights, weight paths and order, configs and errors."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers
X = (np.sin(np.arange(2 * 3 * 8, dtype="float32").reshape(2, 3, 8) * 0.37) * 2).astype("float32")

# TF 2.21 (tf.keras.layers, Keras 3.15.1), rounded to 5 decimals
GN = [[[-1.00232, 0.39018, 0.23276, 1.06301, 1.15028, 1.53571, 2.02149, 1.73172], [-0.61505, -1.29135, -1.49902, -1.93974, -1.75106, -1.81945, -2.03155, -1.47498], [-1.76411, -0.69672, -0.2078, 0.67997, 1.00636, 1.59608, 2.41213, 2.45294]], [[-0.65493, -0.69956, -0.84684, -1.99542, -0.84469, -1.04854, -0.61239, -0.25628], [-1.80444, -1.4256, -0.18626, 1.56771, 1.83331, 2.83863, 3.2759, 3.78243], [-0.39241, -0.22944, 0.30228, -0.68381, -0.37099, -0.72329, -0.55803, -0.48427]]]
GN_AX1 = [[[-2.03084, -0.90305, 0.0721, 0.76262, 1.07507, 0.96714, 0.45345, -0.39648], [2.02985, 1.08192, 0.1993, -0.49855, -0.91717, -0.9999, -0.73555, -0.1599], [-1.94148, -1.15911, -0.37872, 0.29405, 0.76814, 0.97941, 0.89924, 0.53849]], [[1.83451, 1.18968, 0.50079, -0.13894, -0.64293, -0.94294, -0.99839, -0.80177], [-1.72792, -1.19827, -0.58929, 0.01659, 0.53737, 0.90256, 1.06274, 0.99622], [1.62466, 1.19523, 0.65786, 0.08526, -0.44506, -0.86133, -1.1072, -1.14941]]]
UN = [[[0.0, 0.17618, 0.32852, 0.4364, 0.48521, 0.46835, 0.3881, 0.25532], [0.08863, -0.09191, -0.26001, -0.39292, -0.47265, -0.48841, -0.43806, -0.32843], [-0.17605, 0.00338, 0.18234, 0.33663, 0.44536, 0.49381, 0.47542, 0.39269]], [[0.25968, 0.08714, -0.09721, -0.26839, -0.40325, -0.48353, -0.49837, -0.44576], [-0.33652, -0.17677, 0.00691, 0.18965, 0.34672, 0.45687, 0.50518, 0.48512], [0.40323, 0.26211, 0.08552, -0.10265, -0.27692, -0.41372, -0.49452, -0.50839]]]
UN12 = [[[0.0, 0.10254, 0.1912, 0.25398, 0.28239, 0.27258, 0.22587, 0.1486], [0.05121, -0.05311, -0.15024, -0.22704, -0.2731, -0.28221, -0.25312, -0.18977], [-0.10073, 0.00193, 0.10434, 0.19262, 0.25484, 0.28256, 0.27204, 0.2247]], [[0.15151, 0.05084, -0.05671, -0.15659, -0.23528, -0.28212, -0.29077, -0.26008], [-0.19418, -0.102, 0.00398, 0.10943, 0.20006, 0.26362, 0.2915, 0.27992], [0.23046, 0.1498, 0.04888, -0.05867, -0.15827, -0.23645, -0.28263, -0.29056]]]
RMS = [[[0.0, 0.3551, 0.86079, 1.40732, 1.85811, 2.07673, 1.95556, 1.44091], [0.12504, -0.18525, -0.68126, -1.26707, -1.80995, -2.1656, -2.20723, -1.8534], [-0.24836, 0.00681, 0.47774, 1.0855, 1.70536, 2.18945, 2.39537, 2.21596]], [[0.36633, 0.1756, -0.25466, -0.8654, -1.54404, -2.14377, -2.51086, -2.51527], [-0.4747, -0.35622, 0.01809, 0.61147, 1.32751, 2.02544, 2.54502, 2.73722], [0.56876, 0.52816, 0.22402, -0.33095, -1.06023, -1.83405, -2.49118, -2.86837]]]
RMS12 = [[[0.0, 0.50234, 0.93668, 1.24425, 1.38342, 1.33535, 1.10654, 0.72797], [0.25087, -0.26018, -0.73602, -1.11224, -1.33793, -1.38253, -1.24001, -0.92967], [-0.4935, 0.00947, 0.51115, 0.94365, 1.24843, 1.38425, 1.33271, 1.10079]], [[0.74225, 0.24906, -0.27784, -0.76714, -1.15261, -1.38208, -1.42449, -1.2741], [-0.95127, -0.49969, 0.01952, 0.53609, 0.9801, 1.29146, 1.42803, 1.37132], [1.12901, 0.73389, 0.23944, -0.28741, -0.77537, -1.15838, -1.38461, -1.42344]]]
TRELU = [[0.0, 0.72323, 1.34858, 1.7914, 1.99176, 1.92255, 1.59313, 1.04809], [0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0], [-0.0, 0.0, 0.73592, 1.35861, 1.79742, 1.99295, 1.91875, 1.58485]]
SN_INF = [[[0.96903, 1.97501, 2.98099], [-1.93374, -2.67851, -3.42329], [3.23156, 4.08735, 4.94314]], [[-4.0264, -4.56836, -5.11031], [5.08554, 5.69255, 6.29956], [-5.58073, -5.83612, -6.09151]]]
SN_TRAIN = [[[0.39892, 0.81054, 1.22217], [-0.59953, -0.79011, -0.98068], [1.17715, 1.53711, 1.89708]], [[-1.31934, -1.44015, -1.56096], [1.81485, 2.08925, 2.36364], [-1.85397, -1.87621, -1.89846]]]
SN_U = [[0.56711, 0.57729, 0.58747]]
SN_K = [[-0.34397, -0.31406, -0.28415], [-0.25424, -0.22433, -0.19442], [-0.16451, -0.1346, -0.10469], [-0.07478, -0.04487, -0.01496], [0.01496, 0.04487, 0.07478], [0.10469, 0.1346, 0.16451], [0.19442, 0.22433, 0.25424], [0.28415, 0.31406, 0.34397]]
SN2_TRAIN = [[[-2.75733, -3.74383], [3.48155, 2.46193]], [[2.64813, 1.61838], [-1.11791, -2.08447]]]
SN2_U = [[0.70711, 0.70711]]


def close(a, b, atol=2e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=atol, rtol=1e-5)


def test_group_normalization_values_weights_config():
    g = L.GroupNormalization(groups=4)
    g.build(X.shape)
    assert [w.path for w in g.weights] == ["group_normalization/gamma", "group_normalization/beta"]
    g.set_weights([np.linspace(0.5, 2, 8).astype("float32"), np.linspace(-1, 1, 8).astype("float32")])
    close(g(X), GN)
    close(L.GroupNormalization(groups=-1, axis=1, center=False)(X), GN_AX1)
    config = g.get_config()
    assert list(config)[3:] == ["groups", "axis", "epsilon", "center", "scale", "beta_initializer",
                                "gamma_initializer", "beta_regularizer", "gamma_regularizer", "beta_constraint",
                                "gamma_constraint"]
    assert config["groups"] == 4 and config["epsilon"] == 0.001
    assert L.GroupNormalization.from_config(config).groups == 4


def test_group_normalization_errors():
    with pytest.raises(ValueError, match=r"expected a positive integer \(or `-1` for instance normalization\)"
                       r". Received: groups=0"):
        L.GroupNormalization(groups=0)
    with pytest.raises(ValueError, match=r"Number of groups \(3\) must be a multiple of the number of channels "
                       r"\(8\)."):
        L.GroupNormalization(groups=3)(X)
    with pytest.raises(ValueError, match=r"Number of groups \(16\) cannot be more than the number of channels"):
        L.GroupNormalization(groups=16)(X)


def test_unit_and_rms_normalization():
    u = L.UnitNormalization()
    close(u(X), UN)
    close(L.UnitNormalization(axis=[1, 2])(X), UN12)
    assert u.get_config()["axis"] == -1 and u.weights == []
    with pytest.raises(TypeError, match="expected an int or a list/tuple of ints. Received: axis=a"):
        L.UnitNormalization(axis="a")
    r = L.RMSNormalization(epsilon=0.01)
    r.build(X.shape)
    assert [w.path for w in r.weights] == ["rms_normalization/scale"]
    assert r.get_config()["axis"] == [-1] and r.get_config()["epsilon"] == 0.01
    r.set_weights([np.linspace(0.5, 2, 8).astype("float32")])
    close(r(X), RMS)
    close(L.RMSNormalization(axis=[1, 2])(X), RMS12)


def test_thresholded_relu_and_alpha_dropout():
    t = L.ThresholdedReLU(theta=0.5)
    close(t(X[0]), TRELU)
    assert t.name == "thresholded_re_lu" and t.get_config()["theta"] == 0.5
    with pytest.raises(ValueError, match="The theta value of a Thresholded ReLU layer should be >=0. Received: -1"):
        L.ThresholdedReLU(theta=-1)
    a = L.AlphaDropout(0.3)
    assert {k: v for k, v in a.get_config().items() if k not in ("dtype",)} == {
        "name": "alpha_dropout", "trainable": True, "rate": 0.3, "seed": None}   # tf.keras's (legacy) config
    np.testing.assert_array_equal(a(X), X)
    y = np.asarray(a(X, training=True))
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    aa = ((1 - 0.3) * (1 + 0.3 * alpha_p ** 2)) ** -0.5
    dropped = np.isclose(y, aa * alpha_p - aa * alpha_p * 0.3, atol=1e-5)
    close(y[~dropped], aa * X[~dropped] - aa * alpha_p * 0.3)
    assert 0 < dropped.sum() < y.size


def test_spectral_normalization_dense():
    s = L.SpectralNormalization(L.Dense(3))
    s.build(X.shape)
    assert [w.path for w in s.weights] == ["spectral_normalization/dense/kernel", "spectral_normalization/vector_u",
                                           "spectral_normalization/dense/bias"]
    assert [w.trainable for w in s.weights] == [True, False, True]
    k = np.linspace(-1, 1, 24).reshape(8, 3).astype("float32")
    s.set_weights([k, np.array([[0.3, -0.5, 0.8]], "float32"), np.array([0.1, 0.2, 0.3], "float32")])
    close(s(X), SN_INF)
    close(s(X, training=True), SN_TRAIN)
    close(s.get_weights()[1], SN_U)
    close(s.get_weights()[0], SN_K)
    config = s.get_config()
    assert config["power_iterations"] == 1 and config["layer"]["class_name"] == "Dense"
    clone = L.SpectralNormalization.from_config(config)
    assert clone.layer.units == 3


def test_spectral_normalization_conv_power_iterations_and_errors():
    s = L.SpectralNormalization(L.Conv1D(2, 2), power_iterations=3)
    s.build(X.shape)
    assert [w.path for w in s.weights] == ["spectral_normalization/conv1d/kernel",
                                           "spectral_normalization/vector_u", "spectral_normalization/conv1d/bias"]
    s.set_weights([np.linspace(-1, 1, 32).reshape(2, 8, 2).astype("float32"), np.array([[0.6, -0.2]], "float32"),
                   np.array([0.5, -0.5], "float32")])
    close(s(X, training=True), SN2_TRAIN)
    close(s.get_weights()[1], SN2_U)
    with pytest.raises(ValueError, match="`power_iterations` should be greater than zero. Received: "
                       "`power_iterations=0`"):
        L.SpectralNormalization(L.Dense(3), power_iterations=0)
    with pytest.raises(ValueError, match="ReLU object has no attribute 'kernel' nor 'embeddings'"):
        L.SpectralNormalization(L.ReLU())(X)


def test_wrapper_base_and_functional_shapes():
    with pytest.raises(ValueError, match="Layer 3 supplied to Wrapper isn't a supported layer type"):
        L.Wrapper(3)
    td = L.TimeDistributed(L.Dense(2))
    td(X)
    assert isinstance(td, L.Wrapper) and not isinstance(L.Bidirectional(L.LSTM(2)), L.Wrapper)
    assert [w.path for w in td.weights] == ["time_distributed/dense/kernel", "time_distributed/dense/bias"]
    inp = tf.keras.Input((3, 8))
    for layer, shape in [(L.GroupNormalization(groups=2), (None, 3, 8)), (L.UnitNormalization(), (None, 3, 8)),
                         (L.RMSNormalization(), (None, 3, 8)), (L.AlphaDropout(0.1), (None, 3, 8)),
                         (L.SpectralNormalization(L.Dense(5)), (None, 3, 5)), (L.ThresholdedReLU(), (None, 3, 8))]:
        assert tuple(layer(inp).shape) == shape
    model = tf.keras.Sequential([tf.keras.Input((3, 8)), L.SpectralNormalization(L.Dense(4))])
    assert model.count_params() == 40 and len(model.non_trainable_weights) == 1


# TF 2.21: (constructor, [(weight path, shape)], output) on X1 with weights from `_weights`
CONV_CASES = [
    ('L.DepthwiseConv1D(3)', [('depthwise_conv1d/kernel', (3, 3, 1)), ('depthwise_conv1d/bias', (3,))],
     [[[0.20652, 0.20877, -0.04131], [0.99607, 0.42831, -0.36541], [1.08147, 0.34803, -0.31168], [0.36787, 0.05711, 0.06021], [-0.35215, -0.12134, 0.33721]], [[1.13131, 0.43797, -0.39708], [0.90197, 0.25848, -0.20416], [0.07299, -0.0322, 0.1875], [-0.43489, -0.11121, 0.34289], [-0.05758, 0.10919, 0.08942]]]),
    ("L.DepthwiseConv1D(2, strides=2, padding='same', depth_multiplier=2)", [('depthwise_conv1d/kernel', (2, 3, 2)), ('depthwise_conv1d/bias', (6,))],
     [[[0.30632, 0.47443, 0.77095, 0.65054, 0.30586, 0.13267], [1.01101, 0.61405, -0.24095, -0.58403, -0.5861, -0.09308], [-0.36674, -0.70864, -0.56057, -0.26522, 0.30729, 0.46605], [0.65646, 0.39939, 0.17186, -0.18035, -0.36491, -0.16364]], [[1.127, 0.99395, 0.37382, -0.07496, -0.44374, -0.17028], [-0.00446, -0.5434, -0.87617, -0.71338, -0.07554, 0.3395], [0.04038, 0.17131, 0.6046, 0.61667, 0.43957, 0.24596], [1.12803, 0.78551, 0.20347, -0.19324, -0.22084, -0.02817]]]),
    ("L.DepthwiseConv1D(2, dilation_rate=2, data_format='channels_first', use_bias=False)", [('depthwise_conv1d/kernel', (2, 7, 1))],
     [[[0.23793], [1.25394], [0.37497], [-0.46683], [0.15709], [0.23351], [-0.3722]], [[1.0768], [0.2048], [-0.92405], [-0.28796], [0.21483], [-0.41016], [-0.25876]]]),
    ('L.SeparableConv1D(4, 3)', [('separable_conv1d/depthwise_kernel', (3, 3, 1)), ('separable_conv1d/pointwise_kernel', (1, 3, 4)), ('separable_conv1d/bias', (4,))],
     [[[0.10966, 0.00513, 0.03139, 0.17574], [0.23452, 0.0551, 0.04853, 0.21797], [0.29345, 0.07443, 0.0246, 0.16804], [0.22099, 0.04164, -0.01382, 0.08141], [0.09763, -0.00684, -0.02406, 0.05429]], [[0.2681, 0.0674, 0.04454, 0.21057], [0.28237, 0.06837, 0.01088, 0.13768], [0.17755, 0.02396, -0.02203, 0.0618], [0.07008, -0.01651, -0.01764, 0.06722], [0.07931, -0.00809, 0.01917, 0.14791]]]),
    ("L.SeparableConv1D(4, 2, strides=2, padding='same', depth_multiplier=2, activation='relu')", [('separable_conv1d/depthwise_kernel', (2, 3, 2)), ('separable_conv1d/pointwise_kernel', (1, 6, 4)), ('separable_conv1d/bias', (4,))],
     [[[0.6179, 0.48384, 0.46622, 0.57354], [0.08204, 0.0, 0.0, 0.00955], [0.0, 0.0, 0.0, 0.0], [0.23059, 0.05166, 0.0, 0.08277]], [[0.43064, 0.24707, 0.21364, 0.34652], [0.0, 0.0, 0.0, 0.0], [0.51363, 0.3917, 0.38025, 0.48481], [0.46889, 0.24945, 0.16635, 0.25974]]]),
    ("L.SeparableConv1D(2, 2, dilation_rate=2, data_format='channels_first')", [('separable_conv1d/depthwise_kernel', (2, 7, 1)), ('separable_conv1d/pointwise_kernel', (1, 7, 2)), ('separable_conv1d/bias', (2,))],
     [[[0.19347], [-0.18505]], [[0.56069], [-0.00986]]]),
]
X1 = (np.sin(np.arange(2 * 7 * 3, dtype="float32").reshape(2, 7, 3) * 0.37) * 2).astype("float32")


def _weights(layer):
    return [(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
            .astype("float32") for i, w in enumerate(layer.weights)]


@pytest.mark.parametrize("ctor,paths,expected", CONV_CASES)
def test_depthwise_and_separable_conv1d(ctor, paths, expected):
    tf.keras.backend.clear_session()
    layer = eval(ctor)
    layer.build(X1.shape)
    assert [(w.path, tuple(w.shape)) for w in layer.weights] == paths
    layer.set_weights(_weights(layer))
    close(layer(X1), expected)
    sym = layer(tf.keras.Input(X1.shape[1:]))
    assert tuple(sym.shape) == (None,) + np.asarray(expected).shape[1:]


def test_conv1d_variants_config_aliases_errors():
    assert L.SeparableConvolution1D is L.SeparableConv1D and L.Convolution1DTranspose is L.Conv1DTranspose
    assert L.Convolution3DTranspose is L.Conv3DTranspose
    assert list(L.DepthwiseConv1D(3).get_config())[3:] == [
        "depth_multiplier", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
        "use_bias", "depthwise_initializer", "bias_initializer", "depthwise_regularizer", "bias_regularizer",
        "activity_regularizer", "depthwise_constraint", "bias_constraint"]
    config = L.SeparableConv1D(2, 3).get_config()
    assert list(config)[3:6] == ["depth_multiplier", "filters", "kernel_size"] and config["kernel_size"] == (3,)
    assert L.SeparableConv1D.from_config(config).filters == 2
    with pytest.raises(ValueError, match=r"one of \{'same', 'valid'\}. Received: causal"):
        L.DepthwiseConv1D(3, padding="causal")
    with pytest.raises(ValueError, match=r"one of \{'same', 'valid'\}. Received: causal"):
        L.SeparableConv1D(4, 3, padding="causal")
    with pytest.raises(ValueError, match="Expected a strictly positive value. Received depth_multiplier=0."):
        L.DepthwiseConv1D(3, depth_multiplier=0)
    with pytest.raises(ValueError, match=r"Computed output size would be zero or negative. Received `inputs shape="
                       r"\(2, 7, 3\)`, `kernel shape=\(9, 3, 3\)`, `dilation_rate=\[1\]`"):
        L.DepthwiseConv1D(9)(X1)
    with pytest.raises(ValueError, match=r"`kernel shape=\(9, 3, 2\)`"):
        L.SeparableConv1D(2, 9)(X1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list"):
        L.DepthwiseConv1D(3)(np.ones((2, 7, 3), "int32"))


# TF 2.21: adaptive pooling of `_pool_input(shape)` ((n, output_size, {layer: output}) for 1-D)
ADAPTIVE_1D = [
    (7, 3, {'AdaptiveAveragePooling1D': [[[-0.11225, 0.51581], [-0.47316, 0.20022], [-0.54489, -0.23774]]], 'AdaptiveMaxPooling1D': [[[0.40046, 2.0], [1.68809, 1.38769], [1.94401, 0.84819]]]}),
    (5, 3, {'AdaptiveAveragePooling1D': [[[0.3989, 0.07987], [0.318, -0.38896], [-0.14247, -0.39352]]], 'AdaptiveMaxPooling1D': [[[0.40046, 2.0], [1.68809, 1.38769], [1.68809, -0.07273]]]}),
    (3, 5, {'AdaptiveAveragePooling1D': [[[0.39734, 2.0], [0.3989, 0.07987], [0.40046, -1.84026], [-0.36704, -0.22628], [-1.13454, 1.38769]]], 'AdaptiveMaxPooling1D': [[[0.39734, 2.0], [0.40046, 2.0], [0.40046, -1.84026], [0.40046, 1.38769], [-1.13454, 1.38769]]]}),
    (2, 7, {'AdaptiveAveragePooling1D': [[[0.39734, 2.0], [0.39734, 2.0], [0.39734, 2.0], [0.3989, 0.07987], [0.40046, -1.84026], [0.40046, -1.84026], [0.40046, -1.84026]]], 'AdaptiveMaxPooling1D': [[[0.39734, 2.0], [0.39734, 2.0], [0.39734, 2.0], [0.40046, 2.0], [0.40046, -1.84026], [0.40046, -1.84026], [0.40046, -1.84026]]]}),
    (13, 5, {'AdaptiveAveragePooling1D': [[[-0.11225, 0.51581], [0.13113, 0.36221], [0.45006, 0.41727], [0.36621, 0.0989], [0.49333, -0.16249]]], 'AdaptiveMaxPooling1D': [[[0.40046, 2.0], [1.94401, 1.38769], [1.94401, 1.89231], [1.24875, 1.89231], [1.99131, 0.57971]]]}),
    (11, 7, {'AdaptiveAveragePooling1D': [[[0.3989, 0.07987], [0.318, -0.38896], [-0.14247, -0.39352], [-0.54489, -0.23774], [-0.29692, 0.20181], [0.07203, 0.55914], [0.35501, 0.24906]]], 'AdaptiveMaxPooling1D': [[[0.40046, 2.0], [1.68809, 1.38769], [1.68809, -0.07273], [1.94401, 0.84819], [1.01183, 1.89231], [1.01183, 1.89231], [1.24875, 1.77992]]]}),
    (1, 3, {'AdaptiveAveragePooling1D': [[[0.39734, 2.0], [0.39734, 2.0], [0.39734, 2.0]]]}),
]
ADAPTIVE_2D = {'AdaptiveAveragePooling2D': [[[[-0.02011, 0.53747], [-0.41159, 0.27975], [-0.55152, -0.14895]], [[0.16028, 0.55055], [-0.26951, 0.41937], [-0.53458, 0.03189]]]], 'AdaptiveMaxPooling2D': [[[[1.01183, 2.0], [1.68809, 1.77992], [1.99131, 0.84819]], [[1.51685, 1.97956], [1.24875, 1.97956], [1.99131, 1.16941]]]]}
ADAPTIVE_2D_CF = {'AdaptiveAveragePooling2D': [[[[0.33784, 0.20828], [0.01335, -0.35688]], [[0.36621, 0.0989], [-0.10642, -0.36557]], [[0.35496, -0.02117], [-0.21468, -0.33469]]]], 'AdaptiveMaxPooling2D': [[[[1.68809, 2.0], [1.94401, 0.84819]], [[1.24875, 1.89231], [1.99131, 0.57971]], [[1.51685, 1.97956], [1.82313, 1.16941]]]]}
ADAPTIVE_3D = {'AdaptiveAveragePooling3D': [[[[[0.60292], [0.09291], [-0.56586]], [[0.20922], [0.51052], [-0.00557]], [[-0.42982], [0.3295], [0.56125]]], [[[-0.40818], [-0.51709], [0.20191]], [[0.23278], [-0.41157], [-0.39696]], [[0.60079], [0.17655], [-0.53036]]]]], 'AdaptiveMaxPooling3D': [[[[[2.0], [2.0], [1.68809]], [[1.99131], [1.97956], [1.94401]], [[1.97956], [1.97956], [1.89231]]], [[[1.99131], [1.85773], [1.965]], [[1.99131], [1.97956], [1.965]], [[1.9976], [1.97956], [1.82313]]]]]}


def _pool_input(shape):
    return (np.sin(np.arange(int(np.prod(shape)), dtype="float32") * 1.37 + 0.2) * 2).reshape(shape).astype(
        "float32")


@pytest.mark.parametrize("n,out,expected", ADAPTIVE_1D)
def test_adaptive_pooling_1d_uneven_bins(n, out, expected):
    for cls, values in expected.items():
        close(getattr(L, cls)(out)(_pool_input((1, n, 2))), values)


def test_adaptive_pooling_2d_3d_and_config():
    x = _pool_input((1, 3, 7, 2))
    for cls, values in ADAPTIVE_2D.items():
        close(getattr(L, cls)((2, 3))(x), values)
    for cls, values in ADAPTIVE_2D_CF.items():
        close(getattr(L, cls)((2, 2), data_format="channels_first")(x), values)
    for cls, values in ADAPTIVE_3D.items():
        close(getattr(L, cls)((2, 3, 3))(_pool_input((1, 3, 5, 4, 1))), values)
    layer = L.AdaptiveAveragePooling2D(3)
    assert layer.get_config()["output_size"] == (3, 3) and layer.get_config()["data_format"] == "channels_last"
    assert tuple(layer(tf.keras.Input((8, 9, 4))).shape) == (None, 3, 3, 4)
    assert tuple(L.AdaptiveMaxPooling1D(3, data_format="channels_first")(tf.keras.Input((8, 9))).shape) == \
        (None, 8, 3)
    assert layer.weights == []


def test_adaptive_pooling_errors():
    with pytest.raises(ValueError, match=r"For 1D input, `output_size` tuple must have length 1. Received: \(2, 3\)"):
        L.AdaptiveAveragePooling1D((2, 3))
    with pytest.raises(TypeError, match=r"`output_size` must be an integer or \(height, width\) tuple. Received: "
                       r"\(2, 3, 4\) of type <class 'tuple'>"):
        L.AdaptiveAveragePooling2D((2, 3, 4))
    with pytest.raises(TypeError, match=r"\(depth, height, width\) tuple. Received: a of type <class 'str'>"):
        L.AdaptiveMaxPooling3D("a")
    with pytest.raises(ValueError, match="Invalid data_format: x. Expected 'channels_first' or 'channels_last'."):
        L.AdaptiveMaxPooling2D(2, data_format="x")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list"):
        L.AdaptiveAveragePooling1D(2)(np.ones((2, 3, 4), "int32"))


def test_reversible_embedding():
    ids = np.array([[0, 3, 4], [1, 0, 2]], "int32")
    table = np.linspace(-1, 1, 15).reshape(5, 3).astype("float32")
    e = L.ReversibleEmbedding(5, 3)
    e.build((None, 3))
    assert [(w.path, tuple(w.shape)) for w in e.weights] == [("reversible_embedding/embeddings", (5, 3))]
    e.set_weights([table])
    y = e(ids)
    close(y, table[ids])
    # TF 2.21: the tied reverse projection y @ embeddings.T
    close(e(y, reverse=True)[0, :2], [[2.2449, 1.14286, 0.04082, -1.06122, -2.16327],
                                      [-1.06122, -0.5102, 0.04082, 0.59184, 1.14286]])
    assert list(e.get_config())[3:] == ["input_dim", "output_dim", "embeddings_initializer", "embeddings_regularizer",
                                        "activity_regularizer", "embeddings_constraint", "mask_zero",
                                        "quantization_config", "tie_weights", "reverse_dtype", "logit_soft_cap"]
    e2 = L.ReversibleEmbedding(5, 3, tie_weights=False, logit_soft_cap=0.5, mask_zero=True)
    e2.build((None, 3))
    assert [(w.path, tuple(w.shape)) for w in e2.weights] == [
        ("reversible_embedding_1/embeddings", (5, 3)), ("reversible_embedding_1/reverse_embeddings", (3, 5))]
    e2.set_weights([table, np.cos(np.arange(15)).reshape(3, 5).astype("float32")])
    y2 = e2(ids)
    np.testing.assert_array_equal(y2._keras_mask, [[False, True, True], [True, False, True]])
    z = e2(y2, reverse=True)
    close(z[0], [[-0.42925, -0.49579, -0.46548, 0.36601, 0.49526], [-0.07169, 0.40667, 0.43967, 0.1667, -0.38042],
                 [0.11619, 0.49226, 0.4916, 0.07502, -0.48839]])      # TF 2.21
    inp = tf.keras.Input((3,), dtype="int32")
    h = e2(inp)
    assert tuple(h.shape) == (None, 3, 3) and tuple(e2(h, reverse=True).shape) == (None, 3, 5)


def test_pipeline():
    p = L.Pipeline([L.Rescaling(2.0), L.Dropout(0.5), L.Rescaling(1.0, offset=-1.0)])
    x = np.arange(6, dtype="float32").reshape(2, 3)
    close(p(x, training=False), [[-1.0, 1.0, 3.0], [5.0, 7.0, 9.0]])
    assert not np.allclose(p(np.ones((50, 20), "float32")), 1.0)        # training defaults to True (Keras)
    config = p.get_config()
    assert list(config) == ["layers", "name"] and config["name"] == "pipeline"
    assert [c["class_name"] for c in config["layers"]] == ["Rescaling", "Dropout", "Rescaling"]
    assert config["layers"][0]["build_config"] == {"input_shape": (2, 3)} and "build_config" not in config["layers"][1]
    q = L.Pipeline.from_config(config)
    assert [type(layer).__name__ for layer in q.layers] == ["Rescaling", "Dropout", "Rescaling"]
    close(q(x, training=False), [[-1.0, 1.0, 3.0], [5.0, 7.0, 9.0]])
    close(L.Pipeline([L.Rescaling(0.5)])([1.0, 2.0]), [0.5, 1.0])
    with pytest.raises(ValueError, match="`Pipeline` config must contain a `layers` key mapping to a list of "
                       "serialized layers. Received config with layers=None."):
        L.Pipeline.from_config({"name": "x"})
    m = tf.keras.Sequential([tf.keras.Input((3,)), L.Pipeline([L.Rescaling(2.0), L.Dense(2)])])
    assert m.output_shape == (None, 2) and len(m.weights) == 2
