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


# TF 2.21: (constructor, positional inputs, call kwargs, [(weight path, shape)], outputs), weights from `_gqa_weights`
GQA_CASES = [
    ('L.GroupQueryAttention(head_dim=2, num_query_heads=4, num_key_value_heads=2)', '(q, v)', {},
     [('grouped_query_attention/query/kernel', (6, 4, 2)), ('grouped_query_attention/query/bias', (4, 2)), ('grouped_query_attention/key/kernel', (6, 2, 2)), ('grouped_query_attention/key/bias', (2, 2)), ('grouped_query_attention/value/kernel', (6, 2, 2)), ('grouped_query_attention/value/bias', (2, 2)), ('grouped_query_attention/attention_output/kernel', (4, 2, 6)), ('grouped_query_attention/attention_output/bias', (6,))],
     [[[[6.7342, 6.8662, 6.6505, 6.1916, 5.7111, 5.4412], [7.5746, 7.7063, 7.6466, 7.4246, 7.1475, 6.9492], [5.1388, 5.0803, 4.9017, 4.6893, 4.5459, 4.5407], [6.1307, 6.2171, 5.99, 5.5592, 5.1329, 4.9171]], [[7.9125, 8.0713, 7.9817, 7.6871, 7.3297, 7.0824], [6.0155, 5.9953, 5.8712, 5.703, 5.5721, 5.5418], [5.7447, 5.7765, 5.5243, 5.1099, 4.7335, 4.5771], [7.782, 7.9494, 7.8222, 7.4618, 7.0424, 6.7667]]]]),
    ('L.GroupQueryAttention(3, 2, 1, use_bias=False)', '(q, v, kk)', {'return_attention_scores': True},
     [('grouped_query_attention/query/kernel', (6, 2, 3)), ('grouped_query_attention/key/kernel', (5, 1, 3)), ('grouped_query_attention/value/kernel', (6, 1, 3)), ('grouped_query_attention/attention_output/kernel', (2, 3, 6))],
     [[[[-0.2256, -0.2132, -0.1985, -0.1886, -0.1884, -0.1979], [-0.3874, -0.3816, -0.363, -0.3405, -0.325, -0.3241], [0.001, 0.013, 0.006, -0.0168, -0.0443, -0.0632], [-0.1162, -0.1024, -0.0951, -0.0977, -0.109, -0.1236]], [[-0.2782, -0.2628, -0.2524, -0.2519, -0.2616, -0.2769], [0.1188, 0.1233, 0.1137, 0.0947, 0.0756, 0.0654], [-0.0944, -0.0833, -0.0801, -0.0863, -0.0989, -0.1118], [-0.3449, -0.3274, -0.313, -0.3088, -0.3168, -0.3331]]], [[[[0.4323, 0.3276, 0.2401], [0.2024, 0.2936, 0.504], [0.3392, 0.3429, 0.3178], [0.4752, 0.3249, 0.1999]], [[0.2081, 0.2937, 0.4982], [0.3398, 0.3446, 0.3156], [0.4668, 0.3275, 0.2056], [0.2377, 0.3021, 0.4603]]], [[[0.2499, 0.3519, 0.3981], [0.3413, 0.3451, 0.3136], [0.4217, 0.2971, 0.2812], [0.2685, 0.3411, 0.3904]], [[0.3459, 0.3439, 0.3102], [0.4298, 0.2972, 0.273], [0.2596, 0.3399, 0.4005], [0.2988, 0.3563, 0.3449]]]]]),
    ('L.GroupQueryAttention(2, 4, 2)', '(q, q)', {'use_causal_mask': True},
     [('grouped_query_attention/query/kernel', (6, 4, 2)), ('grouped_query_attention/query/bias', (4, 2)), ('grouped_query_attention/key/kernel', (6, 2, 2)), ('grouped_query_attention/key/bias', (2, 2)), ('grouped_query_attention/value/kernel', (6, 2, 2)), ('grouped_query_attention/value/bias', (2, 2)), ('grouped_query_attention/attention_output/kernel', (4, 2, 6)), ('grouped_query_attention/attention_output/bias', (6,))],
     [[[[10.6466, 10.7216, 10.4599, 9.988, 9.5338, 9.317], [10.5984, 10.7308, 10.5505, 10.1447, 9.7094, 9.455], [5.8987, 5.8669, 5.696, 5.4686, 5.2946, 5.2581], [6.3677, 6.3838, 6.1011, 5.6563, 5.2643, 5.1145]], [[13.7269, 14.0162, 13.9263, 13.5005, 12.9446, 12.5274], [6.6362, 6.6711, 6.6153, 6.4957, 6.3701, 6.2992], [5.101, 5.1044, 4.8654, 4.4993, 4.1831, 4.0697], [9.2055, 9.4226, 9.3165, 8.9386, 8.4715, 8.1409]]]]),
    ('L.GroupQueryAttention(2, 2, 2, sliding_window=2)', '(q, q)', {'return_attention_scores': True},
     [('grouped_query_attention/query/kernel', (6, 2, 2)), ('grouped_query_attention/query/bias', (2, 2)), ('grouped_query_attention/key/kernel', (6, 2, 2)), ('grouped_query_attention/key/bias', (2, 2)), ('grouped_query_attention/value/kernel', (6, 2, 2)), ('grouped_query_attention/value/bias', (2, 2)), ('grouped_query_attention/attention_output/kernel', (2, 2, 6)), ('grouped_query_attention/attention_output/bias', (6,))],
     [[[[6.187, 5.9329, 5.5115, 5.1264, 4.9638, 5.1021], [4.2097, 4.0415, 3.7457, 3.4654, 3.3359, 3.4199], [3.0989, 2.8803, 2.5903, 2.3691, 2.3236, 2.4757], [1.0239, 0.8919, 0.73, 0.6166, 0.6064, 0.7043]], [[4.3544, 4.195, 3.8931, 3.5945, 3.4437, 3.5134], [3.4349, 3.2225, 2.9251, 2.6864, 2.6218, 2.7625], [2.785, 2.5983, 2.339, 2.1324, 2.0783, 2.203], [5.0915, 4.9644, 4.6744, 4.3617, 4.1774, 4.2105]]], [[[[0.4784, 0.5216, 0.0, 0.0], [0.3764, 0.4237, 0.1999, 0.0], [0.0, 0.333, 0.3302, 0.3368], [0.0, 0.0, 0.5298, 0.4702]], [[0.4455, 0.5545, 0.0, 0.0], [0.3469, 0.3314, 0.3216, 0.0], [0.0, 0.341, 0.3086, 0.3505], [0.0, 0.0, 0.6187, 0.3813]]], [[[0.6685, 0.3315, 0.0, 0.0], [0.3848, 0.2993, 0.316, 0.0], [0.0, 0.373, 0.3448, 0.2822], [0.0, 0.0, 0.3668, 0.6332]], [[0.4683, 0.5317, 0.0, 0.0], [0.3687, 0.2898, 0.3414, 0.0], [0.0, 0.4192, 0.3204, 0.2604], [0.0, 0.0, 0.544, 0.456]]]]]),
    ('L.GroupQueryAttention(2, 4, 4, use_gate=True)', '(q, v)', {'attention_mask': 'AM'},
     [('grouped_query_attention/query/kernel', (6, 4, 2)), ('grouped_query_attention/query/bias', (4, 2)), ('grouped_query_attention/key/kernel', (6, 4, 2)), ('grouped_query_attention/key/bias', (4, 2)), ('grouped_query_attention/gate/kernel', (6, 4, 2)), ('grouped_query_attention/gate/bias', (4, 2)), ('grouped_query_attention/value/kernel', (6, 4, 2)), ('grouped_query_attention/value/bias', (4, 2)), ('grouped_query_attention/attention_output/kernel', (4, 2, 6)), ('grouped_query_attention/attention_output/bias', (6,))],
     [[[[5.8898, 5.334, 4.9573, 4.9418, 5.295, 5.8462], [9.3191, 9.035, 8.7901, 8.7029, 8.8155, 9.0734], [3.1158, 3.0038, 3.0441, 3.2172, 3.4393, 3.6033], [4.2006, 3.7715, 3.5399, 3.6175, 3.967, 4.4194]], [[12.2741, 11.7522, 11.3705, 11.3135, 11.6086, 12.1134], [6.3649, 6.089, 5.9705, 6.0666, 6.331, 6.6357], [6.7374, 6.5893, 6.5875, 6.7329, 6.9553, 7.1471], [12.1234, 11.6341, 11.2845, 11.2435, 11.531, 12.008]]]]),
    ('L.GroupQueryAttention(2, 2, 1)', '(q, v)', {'query_mask': 'QM', 'value_mask': 'VM', 'return_attention_scores': True},
     [('grouped_query_attention/query/kernel', (6, 2, 2)), ('grouped_query_attention/query/bias', (2, 2)), ('grouped_query_attention/key/kernel', (6, 1, 2)), ('grouped_query_attention/key/bias', (1, 2)), ('grouped_query_attention/value/kernel', (6, 1, 2)), ('grouped_query_attention/value/bias', (1, 2)), ('grouped_query_attention/attention_output/kernel', (2, 2, 6)), ('grouped_query_attention/attention_output/bias', (6,))],
     [[[[5.7836, 5.5589, 5.0941, 4.6139, 4.3502, 4.4306], [4.6827, 4.2923, 3.7169, 3.2343, 3.078, 3.3234], [1.0262, 0.843, 0.6391, 0.5129, 0.5255, 0.6707], [5.9608, 5.8045, 5.4064, 4.9587, 4.6779, 4.6997]], [[2.0567, 1.6618, 1.2126, 0.9263, 0.9411, 1.2499], [2.1296, 1.8931, 1.5922, 1.3722, 1.3396, 1.51], [4.4128, 4.2749, 3.9658, 3.6349, 3.4421, 3.4805], [2.4893, 2.0848, 1.6124, 1.3004, 1.2996, 1.6104]]], [[[[0.4975, 0.0, 0.5025], [0.1613, 0.0, 0.8387], [0.0, 0.0, 0.0], [0.608, 0.0, 0.392]], [[0.6409, 0.0, 0.3591], [0.5146, 0.0, 0.4854], [0.0, 0.0, 0.0], [0.6275, 0.0, 0.3725]]], [[[0.0635, 0.3768, 0.5597], [0.2032, 0.3467, 0.45], [0.4853, 0.3012, 0.2135], [0.0907, 0.404, 0.5053]], [[0.3479, 0.3628, 0.2894], [0.2569, 0.3696, 0.3735], [0.4756, 0.2685, 0.2559], [0.4121, 0.3294, 0.2585]]]]]),
]


def _gqa_input(shape, k=0.0):
    return (np.sin(np.arange(int(np.prod(shape)), dtype="float32") * 1.37 + 0.2 + k) * 2).reshape(shape).astype(
        "float32")


def _gqa_weights(layer):
    return [(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
            .astype("float32") for i, w in enumerate(layer.weights)]


_GQA_MASKS = {"AM": np.array([[[1, 0, 1]] * 4, [[1, 1, 0]] * 4], bool), "QM": np.array([[1, 1, 0, 1], [1, 1, 1, 1]], bool),
              "VM": np.array([[1, 0, 1], [1, 1, 1]], bool)}


@pytest.mark.parametrize("ctor,args,kwargs,paths,outputs", GQA_CASES)
def test_group_query_attention(ctor, args, kwargs, paths, outputs):
    tf.keras.backend.clear_session()
    q, v, kk = _gqa_input((2, 4, 6)), _gqa_input((2, 3, 6), 1.0), _gqa_input((2, 3, 5), 2.0)  # noqa: F841 - in args
    layer = eval(ctor)
    inputs = eval(args)
    layer(*inputs)
    assert [(w.path, tuple(w.shape)) for w in layer.weights] == paths
    layer.set_weights(_gqa_weights(layer))
    out = layer(*inputs, **{k: _GQA_MASKS.get(x, x) if isinstance(x, str) else x for k, x in kwargs.items()})
    for got, want in zip(out if isinstance(out, (list, tuple)) else [out], outputs):
        close(got, want, atol=2e-4)


def test_group_query_attention_config_shapes_errors():
    layer = L.GroupQueryAttention(2, 4, 2)
    config = layer.get_config()
    assert config["name"] == "grouped_query_attention"
    assert list(config)[3:] == ["head_dim", "num_query_heads", "num_key_value_heads", "use_bias", "use_gate",
                                "sliding_window", "dropout", "kernel_initializer", "bias_initializer",
                                "kernel_regularizer", "bias_regularizer", "activity_regularizer", "kernel_constraint",
                                "bias_constraint", "seed"]
    qi, vi = tf.keras.Input((4, 6)), tf.keras.Input((3, 6))
    assert tuple(layer(qi, vi).shape) == (None, 4, 6)
    assert [tuple(t.shape) for t in layer(qi, vi, return_attention_scores=True)] == [(None, 4, 6), (None, 4, 4, 3)]
    assert layer.get_build_config() == {"shapes_dict": {"query_shape": (None, 4, 6), "value_shape": (None, 3, 6)}}
    assert L.GroupQueryAttention.from_config(config).num_key_value_heads == 2
    with pytest.raises(ValueError, match="`num_query_heads` must be divisible by `num_key_value_heads`."):
        L.GroupQueryAttention(2, 3, 2)
    with pytest.raises(ValueError, match="`sliding_window` must be `None` or a positive integer. Received: "
                       "sliding_window=0"):
        L.GroupQueryAttention(2, 4, 2, sliding_window=0)
    drop = L.GroupQueryAttention(2, 4, 2, dropout=0.5)
    x = _gqa_input((2, 4, 6))
    np.testing.assert_array_equal(drop(x, x), drop(x, x))


# TF 2.21: MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8, sampling_rate=8000)(_AUDIO)[:, :, :4],
# and the hamming / sequence_length=48 / power_to_db=False layer of the test on _AUDIO[0], [:, :5]
MEL_DB = [[[13.559, 22.492, 19.369, 22.476], [10.397, 2.944, 5.599, 2.983], [8.02, 8.386, 8.445, 8.391], [13.706, 14.209, 14.2, 14.208], [0.709, 1.148, 1.192, 1.152], [-18.063, -39.288, -46.664, -39.833], [-20.973, -53.544, -55.913, -54.812], [-22.764, -57.508, -57.508, -57.508]], [[18.862, 21.505, 20.778, 21.662], [11.791, 4.217, 4.744, 4.069], [11.88, 8.408, 8.378, 8.421], [13.503, 14.206, 14.213, 14.203], [0.238, 1.159, 1.129, 1.176], [-9.612, -39.286, -36.401, -43.673], [-14.484, -51.21, -47.295, -57.508], [-17.113, -57.508, -55.93, -57.508]]]
MEL_LINEAR = [[4.39268, 5.53379, 5.91586, 5.24625, 4.47192], [2.17059, 1.17015, 0.83324, 0.80881, 0.73412], [6.20983, 6.73463, 6.67463, 6.68724, 6.69175], [2.47015, 2.44298, 2.34349, 2.4021, 2.40994], [0.3888, 0.25573, 0.16651, 0.20625, 0.2127], [0.36744, 0.23087, 0.16658, 0.19719, 0.20449]]
_AUDIO = (np.sin(np.arange(600, dtype="float32").reshape(2, 300) * 0.05)
          + 0.3 * np.cos(np.arange(600, dtype="float32").reshape(2, 300) * 0.71)).astype("float32")


def test_mel_spectrogram():
    m = L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8, sampling_rate=8000)
    y = m(_AUDIO)
    assert tuple(y.shape) == (2, 8, 10) and y.dtype == tf.float32 and m.weights == []
    close(np.asarray(y)[:, :, :4], MEL_DB, atol=3e-3)
    m2 = L.MelSpectrogram(fft_length=64, sequence_stride=16, sequence_length=48, num_mel_bins=6, sampling_rate=8000,
                          power_to_db=False, mag_exp=1.0, window="hamming", min_freq=100.0, max_freq=3000.0)
    y2 = m2(_AUDIO[0])
    assert tuple(y2.shape) == (6, 19)
    close(np.asarray(y2)[:, :5], MEL_LINEAR, atol=1e-4)
    config = m.get_config()
    assert list(config)[3:] == ["fft_length", "sequence_stride", "sequence_length", "window", "sampling_rate",
                                "num_mel_bins", "min_freq", "max_freq", "power_to_db", "top_db", "mag_exp",
                                "min_power", "ref_power"]
    assert config["max_freq"] == 4000 and config["sequence_length"] == 64
    assert tuple(m(tf.keras.Input((300,))).shape) == (None, 8, 10)
    with pytest.raises(ValueError, match=r"`fft_length` must be greater than or equal to   `sequence_length`. "
                       r"Received: `sequence_length`=64, `fft_length`=32."):
        L.MelSpectrogram(fft_length=32, sequence_length=64)
    with pytest.raises(ValueError, match='must be one of `"hann"`, `"hamming"`. Received: window=blackman'):
        L.MelSpectrogram(window="blackman")(_AUDIO)


def test_mixed_float16_outputs_and_variables():
    # TF 2.21: every layer below returns float16 under mixed_float16 and keeps float32 variables
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        x = np.sin(np.arange(2 * 3 * 4 * 4 * 2, dtype="float32") * 0.3).reshape(2, 3, 4, 4, 2)
        for layer, args in [(L.GroupNormalization(2), (x[:, 0],)), (L.RMSNormalization(), (x[:, 0],)),
                            (L.UnitNormalization(), (x[:, 0],)), (L.ConvLSTM2D(2, 2), (x,)),
                            (L.SpectralNormalization(L.Dense(2)), (x[:, 0],)), (L.DepthwiseConv1D(2), (x[:, 0, 0],)),
                            (L.SeparableConv1D(2, 2), (x[:, 0, 0],)), (L.SeparableConv2D(2, 2), (x[:, 0],)),
                            (L.AdaptiveAveragePooling2D(2), (x[:, 0],)),
                            (L.GroupQueryAttention(2, 2, 1), (x[:, 0, 0], x[:, 0, 0]))]:
            y = layer(*args)
            assert y.dtype == tf.float16 and all(w.dtype == "float32" for w in layer.weights)
            assert np.isfinite(np.asarray(y, "float32")).all()
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


def test_hashed_crossing():
    a, b = np.array([1, 2, 3, 4, 5]), np.array(["a", "b", "c", "d", "e"])
    h = L.HashedCrossing(num_bins=7)
    y = h((a, b))
    assert y.dtype == tf.int64 and np.asarray(y).tolist() == [1, 3, 5, 0, 3]          # TF 2.21
    assert np.asarray(h((a.reshape(-1, 1), b.reshape(-1, 1)))).tolist() == [[1], [3], [5], [0], [3]]
    assert int(h((tf.constant(3), tf.constant("x")))) == 5
    assert np.asarray(h([tf.constant([10, 20], dtype=tf.int32), tf.constant([7, 8], dtype=tf.int64),
                         tf.constant(["p", "q"])])).tolist() == [2, 6]
    o = L.HashedCrossing(num_bins=5, output_mode="one_hot")
    y = o((a, b))
    assert y.dtype == tf.float32
    assert np.asarray(y).argmax(-1).tolist() == [0, 4, 3, 0, 3] and np.asarray(y).sum() == 5
    assert tuple(o((a.reshape(-1, 1), b.reshape(-1, 1))).shape) == (5, 5)
    assert h.get_config() == {"num_bins": 7, "output_mode": "int", "sparse": False, "name": "hashed_crossing",
                              "dtype": "int64"}
    assert o.get_config()["dtype"] == "float32"
    i1, i2 = tf.keras.Input((1,), dtype="int64"), tf.keras.Input((1,), dtype="string")
    assert tuple(h((i1, i2)).shape) == (None, 1) and tuple(o((i1, i2)).shape) == (None, 5)
    for bad, message in [((a,), "should be called on at least two inputs"),
                         ((a.reshape(-1, 1, 1), b.reshape(-1, 1, 1)), r"should have shape `\(\)`, `\(batch_size\)`"),
                         ((a, b[:3]), "All `HashedCrossing` inputs should have equal shape"),
                         ((a.astype("float32"), b), "should have an integer or string dtype")]:
        with pytest.raises(ValueError, match=message):
            h(bad)
    with pytest.raises(ValueError, match="should be called on a list or tuple of inputs"):
        h(a)
    with pytest.raises(ValueError, match=r"Allowed values are: \('int', 'one_hot'\). Received: output_mode=count"):
        L.HashedCrossing(3, output_mode="count")


# TF 2.21 (its venv has no scipy, so string windows are given as NumPy's equal arrays; names are checked against
# NumPy's windows below): (constructor, output shape, [(weight path, shape)], output[0, :2])
STFT_CASES = [
    ('L.STFTSpectrogram(frame_length=8, window=H8)', (2, 9, 10), [('stft_spectrogram/real_kernel', (8, 1, 5)), ('stft_spectrogram/imag_kernel', (8, 1, 5))],
     [[0.6397, 0.1957, -0.8013, -1.3513, -3.2021, 0.6023, 0.1179, -1.0454, -1.3039, -3.6528], [-0.9088, -0.0792, -0.6275, -1.4246, -2.9505, -0.2511, -0.0611, -0.8251, -1.363, -2.5509]]),
    ("L.STFTSpectrogram(mode='magnitude', frame_length=8, frame_step=3, fft_length=16, window=list(np.hamming(8)), padding='same')", (2, 14, 18), [('stft_spectrogram/real_kernel', (8, 1, 9)), ('stft_spectrogram/imag_kernel', (8, 1, 9))],
     [[0.7779, 0.6897, 0.4629, 0.1914, 0.0354, 0.1338, 0.1326, 0.0826, 0.0515, 0.9575, 0.8618, 0.6127, 0.3057, 0.0692, 0.1475, 0.2072, 0.2165, 0.2156], [1.9011, 1.7141, 1.2801, 0.8493, 0.5655, 0.3942, 0.2516, 0.1192, 0.0268, 1.8933, 1.701, 1.2427, 0.7741, 0.4896, 0.3691, 0.2634, 0.1431, 0.0847]]),
    ("L.STFTSpectrogram(mode='psd', frame_length=6, scaling='spectrum', window=None)", (2, 12, 10), [('stft_spectrogram/real_kernel', (6, 1, 5)), ('stft_spectrogram/imag_kernel', (6, 1, 5))],
     [[15.8152, 9.3127, 1.8694, 0.1315, 0.0258, 17.3376, 9.5178, 0.6345, 0.8759, 0.0077], [12.5523, 12.4366, 2.3638, 1.8764, 0.7917, 6.8646, 15.3737, 1.962, 2.8659, 1.2355]]),
    ("L.STFTSpectrogram(mode='real', frame_length=8, expand_dims=True, window=None)", (2, 9, 5, 2), [('stft_spectrogram/real_kernel', (8, 1, 5))],
     [[[5.0782, 4.8779], [-1.4896, -1.4485], [0.2898, -0.3261], [-0.1399, 0.6212], [0.001, 0.5314]], [[0.0237, -1.265], [1.4197, 1.4298], [0.6446, 0.1424], [1.649, 1.6009], [1.4677, 1.3306]]]),
    ("L.STFTSpectrogram(mode='imag', frame_length=8, data_format='channels_first', window=H8)", (2, 10, 9), [('stft_spectrogram/imag_kernel', (8, 1, 5))],
     [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.1658, -0.869, 0.2931, 0.8324, -0.3904, -0.7069, 0.493, 0.5176, -0.6201]]),
    ("L.STFTSpectrogram(mode='angle', frame_length=8, window=list(np.blackman(8)))", (2, 9, 10), [('stft_spectrogram/real_kernel', (8, 1, 5)), ('stft_spectrogram/imag_kernel', (8, 1, 5))],
     [[0.0, -2.7646, 0.8216, -1.784, -3.1416, 0.0, -2.6108, 1.2656, -0.9525, -3.1416], [3.1416, -1.2007, 2.2807, -0.5324, -3.1416, 3.1416, -0.6381, 2.8316, 0.2201, -3.1416]]),
    ("L.STFTSpectrogram(mode='stft', frame_length=4, window=list(np.bartlett(4)), scaling=None)", (2, 19, 12), [('stft_spectrogram/real_kernel', (4, 1, 3)), ('stft_spectrogram/imag_kernel', (4, 1, 3))],
     [[0.5438, -0.329, 0.1142, 0.0, -0.2148, -0.0, 0.7708, -0.5658, 0.3608, 0.0, -0.205, -0.0], [1.5304, -0.7431, -0.0441, 0.0, -0.7873, -0.0, 1.3925, -0.5343, -0.3239, 0.0, -0.8582, -0.0]]),
    ('L.STFTSpectrogram(frame_length=5, window=[0.1, 0.5, 1.0, 0.5, 0.1])', (2, 18, 10), [('stft_spectrogram/real_kernel', (5, 1, 5)), ('stft_spectrogram/imag_kernel', (5, 1, 5))],
     [[0.1174, -0.1188, -0.7978, -1.6994, -2.3579, 0.3588, 0.1724, -0.3384, -1.0831, -1.9797], [0.5328, 0.3469, -0.1621, -0.81, -1.2479, 0.4124, 0.1775, -0.4945, -1.4291, -3.3371]]),
    ("L.STFTSpectrogram(mode='imag', frame_length=8, data_format='channels_first', window=H8, expand_dims=True)", (2, 2, 9, 5), [('stft_spectrogram/imag_kernel', (8, 1, 5))],
     [[[0.0, -0.1658, 0.3157, -0.2454, -0.0], [0.0, -0.869, 0.4681, -0.1691, -0.0], [0.0, 0.2931, -0.1796, 0.0775, 0.0], [0.0, 0.8324, -0.5333, 0.242, 0.0], [0.0, -0.3904, -0.0263, 0.1467, -0.0], [0.0, -0.7069, 0.3843, -0.1409, -0.0], [0.0, 0.493, 0.1401, -0.2859, 0.0], [0.0, 0.5176, -0.1011, -0.0665, 0.0], [0.0, -0.6201, -0.0633, 0.2533, -0.0]], [[0.0, -0.3316, 0.3506, -0.2265, -0.0], [0.0, -0.7447, 0.1869, 0.0567, -0.0], [0.0, 0.5025, -0.4243, 0.2424, 0.0], [0.0, 0.7155, -0.4021, 0.155, 0.0], [0.0, -0.6025, 0.2973, -0.0917, -0.0], [0.0, -0.6194, 0.4724, -0.2512, -0.0], [0.0, 0.6531, -0.077, -0.1315, 0.0], [0.0, 0.4444, -0.3305, 0.1723, 0.0], [0.0, -0.6919, -0.0736, 0.2854, -0.0]]]),
    ("L.STFTSpectrogram(mode='log', frame_length=7, padding='same', window=None)", (2, 14, 10), [('stft_spectrogram/real_kernel', (7, 1, 5)), ('stft_spectrogram/imag_kernel', (7, 1, 5))],
     [[0.8314, 0.4614, -0.1276, 0.0687, -0.3429, 1.0407, 0.693, 0.0795, 0.1098, -1.0266], [1.5279, 0.6397, -0.8861, -0.1939, -0.753, 1.575, 0.5607, -0.5895, -0.1415, -0.5468]]),
]
_SIGNAL = (np.sin(np.arange(160, dtype="float32").reshape(2, 40, 2) * 0.21)
           + 0.3 * np.cos(np.arange(160, dtype="float32").reshape(2, 40, 2) * 0.93)).astype("float32")
H8 = list(np.hanning(9)[:8])


@pytest.mark.parametrize("ctor,shape,paths,head", STFT_CASES)
def test_stft_spectrogram(ctor, shape, paths, head):
    tf.keras.backend.clear_session()
    layer = eval(ctor)
    x = _SIGNAL.transpose(0, 2, 1) if "channels_first" in ctor else _SIGNAL
    y = layer(x)
    assert tuple(y.shape) == shape and [(w.path, tuple(w.shape)) for w in layer.weights] == paths
    close(np.asarray(y)[0, :2], head, atol=2e-4)
    assert tuple(layer(tf.keras.Input(x.shape[1:])).shape) == (None,) + shape[1:]


def test_stft_spectrogram_windows_config_errors():
    x = _SIGNAL
    for name, periodic, array in [("hann", True, H8), ("hamming", False, list(np.hamming(8))),
                                  ("blackman", False, list(np.blackman(8))), ("bartlett", True, list(np.bartlett(9)[:8]))]:
        by_name = L.STFTSpectrogram(frame_length=8, window=name, periodic=periodic)(x)
        close(by_name, L.STFTSpectrogram(frame_length=8, window=array)(x), atol=1e-5)
    config = L.STFTSpectrogram(frame_length=8, window=None).get_config()
    assert list(config)[3:] == ["mode", "frame_length", "frame_step", "fft_length", "window", "periodic", "scaling",
                                "padding", "data_format", "expand_dims"]
    with pytest.raises(ValueError, match="`frame_step` should be a positive integer not greater than `frame_length`. "
                       "Received frame_step=9, frame_length=8"):
        L.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="`fft_length` should be not less than `frame_length`"):
        L.STFTSpectrogram(frame_length=8, fft_length=4)
    with pytest.raises(ValueError, match="it must be one of log, magnitude, psd, real, imag, angle, stft. Received: "
                       "mode=x"):
        L.STFTSpectrogram(mode="x")
    with pytest.raises(ValueError, match="Padding is invalid, it should be 'valid', 'same'. Received: padding=causal"):
        L.STFTSpectrogram(padding="causal")
    with pytest.warns(UserWarning, match="`fft_length` is recommended to be a power of two. Received fft_length=12"):
        L.STFTSpectrogram(frame_length=8, fft_length=12, window=None)
    with pytest.raises(TypeError, match="Expected `float16`, `float32` or `float64`. Received: input "
                       "type=<dtype: 'int32'>"):
        L.STFTSpectrogram(frame_length=8, window=None)(x.astype("int32"))
    with pytest.raises(NotImplementedError, match="kaiser|taylor"):
        L.STFTSpectrogram(frame_length=8, window="taylor")(x)


def test_time_distributed_with_mask():
    # TF 2.21: Embedding(mask_zero) -> LSTM(return_sequences) -> TimeDistributed(Dense): values and mask
    tf.keras.utils.set_random_seed(0)
    ids = np.array([[3, 1, 0, 0], [2, 5, 4, 0]])
    inp = tf.keras.Input((4,), dtype="int32")
    h = L.LSTM(2, return_sequences=True)(L.Embedding(6, 3, mask_zero=True)(inp))
    model = tf.keras.Model(inp, L.TimeDistributed(L.Dense(2, activation="softmax"))(h))
    model.set_weights([(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
                       .astype("float32") for i, w in enumerate(model.weights)])
    y = model(ids)
    close(y, [[[0.4417, 0.5583], [0.434, 0.566], [0.434, 0.566], [0.434, 0.566]],
              [[0.4434, 0.5566], [0.4311, 0.5689], [0.4266, 0.5734], [0.4266, 0.5734]]], atol=1e-4)
    np.testing.assert_array_equal(y._keras_mask, [[True, True, False, False], [True, True, True, False]])

    class Masked(L.Layer):
        def call(self, x, mask=None):
            return x if mask is None else x * tf.cast(mask, x.dtype)[..., None]

    td = L.TimeDistributed(Masked())
    x = np.ones((2, 3, 4, 2), "float32")
    mask = np.array([[[1, 0, 1, 1]] * 3, [[0, 1, 1, 0]] * 3], bool)
    np.testing.assert_array_equal(np.asarray(td(x, mask=mask))[:, :, :, 0], mask.astype("float32"))
    with pytest.raises(ValueError, match=r"must be at least 2D \(e.g., `\(batch_size, timesteps\)`\), but it has 1 "
                       r"dimension\(s\) with shape \(2,\)."):
        td(x, mask=np.ones((2,), bool))
    with pytest.raises(ValueError, match=r"has a shape \(3, 3\) that is incompatible with the input shape "
                       r"\(2, 3, 4, 2\).*Expected mask shape prefix: \(2, 3\)."):
        td(x, mask=np.ones((3, 3), bool))


def test_fit_tiny_language_model_matches_tf():
    # ReversibleEmbedding (tied) -> causal GroupQueryAttention -> RMSNormalization -> UnitNormalization -> logits
    tf.keras.utils.set_random_seed(0)
    ids = (np.arange(24) * 7 % 11).reshape(4, 6).astype("int32")
    targets = (np.arange(24) * 5 % 11).reshape(4, 6).astype("int32")
    inp = tf.keras.Input((6,), dtype="int32")
    emb = L.ReversibleEmbedding(11, 8)
    h = emb(inp)
    a = L.GroupQueryAttention(4, 4, 2)(h, h, use_causal_mask=True)
    h = L.UnitNormalization()(L.RMSNormalization()(L.Add()([h, a])))
    model = tf.keras.Model(inp, emb(L.AlphaDropout(0.0)(h), reverse=True))
    model.set_weights([(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
                       .astype("float32") for i, w in enumerate(model.weights)])
    assert [w.path for w in model.weights][-1] == "rms_normalization/scale" and len(model.weights) == 10
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = model.fit(ids, targets, epochs=3, batch_size=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [2.40364, 2.39618, 2.39105], rtol=1e-4)      # TF 2.21
    close(model.predict(ids[:1], verbose=0)[0, 0], [0.2929, 0.1872, 0.1316, 0.1656, 0.2157, 0.4211, 0.2111, 0.1575,
                                                    0.1148, 0.1536, 0.2059], atol=2e-4)


def test_group_query_attention_flash_attention_errors():
    # TF 2.21 (Keras's TF backend has no flash attention): Keras's ValueErrors; flash_attention=False is plain
    x = np.ones((1, 3, 4), "float32")
    assert tuple(L.GroupQueryAttention(2, 2, 1, flash_attention=False)(x, x).shape) == (1, 3, 4)
    layer = L.GroupQueryAttention(2, 2, 1, flash_attention=True)
    with pytest.raises(ValueError, match="Flash attention is not supported in tensorflow backend."):
        layer(x, x)
    with pytest.raises(ValueError, match="Returning attention scores is not supported when flash attention is "
                       "enabled."):
        layer(x, x, return_attention_scores=True)
    with pytest.raises(ValueError, match="Dropout is not supported when flash attention is enabled. Please set "
                       "dropout to 0.0 to use flash attention."):
        L.GroupQueryAttention(2, 2, 1, flash_attention=True, dropout=0.1)


# TF 2.21: MultiHeadAttention's use_gate / sliding_window (inputs and weights as the GroupQueryAttention cases)
MHA_EXTRA_CASES = [
    ('L.MultiHeadAttention(2, 3, use_gate=True)', '(q, v)', {},
     [('multi_head_attention/query/kernel', (6, 2, 3)), ('multi_head_attention/query/bias', (2, 3)), ('multi_head_attention/key/kernel', (6, 2, 3)), ('multi_head_attention/key/bias', (2, 3)), ('multi_head_attention/gate/kernel', (6, 2, 3)), ('multi_head_attention/gate/bias', (2, 3)), ('multi_head_attention/value/kernel', (6, 2, 3)), ('multi_head_attention/value/bias', (2, 3)), ('multi_head_attention/attention_output/kernel', (2, 3, 6)), ('multi_head_attention/attention_output/bias', (6,))],
     [[[[3.0667, 2.9446, 2.9837, 3.165, 3.401, 3.5775], [6.8731, 7.033, 7.2526, 7.4258, 7.4689, 7.3611], [2.4466, 2.4509, 2.5741, 2.7567, 2.9104, 2.9609], [2.4252, 2.2825, 2.3099, 2.4941, 2.7462, 2.9442]], [[7.0951, 7.1767, 7.3441, 7.5164, 7.6104, 7.5807], [3.2122, 3.3138, 3.5132, 3.714, 3.8193, 3.778], [1.2484, 1.1077, 1.1495, 1.3537, 1.6216, 1.8237], [7.1527, 7.1778, 7.2978, 7.4549, 7.573, 7.5952]]]]),
    ('L.MultiHeadAttention(2, 3, sliding_window=2)', '(q, q)', {'return_attention_scores': True},
     [('multi_head_attention/query/kernel', (6, 2, 3)), ('multi_head_attention/query/bias', (2, 3)), ('multi_head_attention/key/kernel', (6, 2, 3)), ('multi_head_attention/key/bias', (2, 3)), ('multi_head_attention/value/kernel', (6, 2, 3)), ('multi_head_attention/value/bias', (2, 3)), ('multi_head_attention/attention_output/kernel', (2, 3, 6)), ('multi_head_attention/attention_output/bias', (6,))],
     [[[[6.3498, 6.2139, 6.083, 6.0204, 6.0564, 6.1735], [5.4688, 5.3977, 5.1777, 4.9153, 4.7372, 4.7295], [3.7505, 3.6011, 3.4102, 3.2699, 3.2481, 3.3553], [0.4642, 0.2551, 0.04, -0.0771, -0.0397, 0.1342]], [[6.9045, 6.779, 6.6452, 6.5678, 6.5843, 6.6866], [4.5363, 4.3969, 4.19, 4.0155, 3.9578, 4.0448], [2.5493, 2.3488, 2.2082, 2.1954, 2.3167, 2.5133], [5.2892, 5.1625, 4.9675, 4.7986, 4.7373, 4.8132]]], [[[[0.4181, 0.5819, 0.0, 0.0], [0.8065, 0.1856, 0.0079, 0.0], [0.0, 0.4984, 0.2732, 0.2283], [0.0, 0.0, 0.9089, 0.0911]], [[0.502, 0.498, 0.0, 0.0], [0.4258, 0.2698, 0.3044, 0.0], [0.0, 0.339, 0.4863, 0.1747], [0.0, 0.0, 0.5034, 0.4966]]], [[[0.9635, 0.0365, 0.0, 0.0], [0.7264, 0.0999, 0.1737, 0.0], [0.0, 0.8523, 0.1199, 0.0278], [0.0, 0.0, 0.2943, 0.7057]], [[0.5987, 0.4013, 0.0, 0.0], [0.2405, 0.5013, 0.2581, 0.0], [0.0, 0.4197, 0.2284, 0.3519], [0.0, 0.0, 0.4664, 0.5336]]]]]),
    ('L.MultiHeadAttention(2, 3, sliding_window=1, use_gate=True, value_dim=2)', '(q, q)', {'use_causal_mask': True},
     [('multi_head_attention/query/kernel', (6, 2, 3)), ('multi_head_attention/query/bias', (2, 3)), ('multi_head_attention/key/kernel', (6, 2, 3)), ('multi_head_attention/key/bias', (2, 3)), ('multi_head_attention/gate/kernel', (6, 2, 2)), ('multi_head_attention/gate/bias', (2, 2)), ('multi_head_attention/value/kernel', (6, 2, 2)), ('multi_head_attention/value/bias', (2, 2)), ('multi_head_attention/attention_output/kernel', (2, 2, 6)), ('multi_head_attention/attention_output/bias', (6,))],
     [[[[4.7139, 4.4483, 4.4404, 4.694, 5.0865, 5.4283], [7.3356, 7.0457, 7.0405, 7.3225, 7.7554, 8.1299], [-0.2488, -0.2115, -0.0691, 0.1096, 0.2383, 0.2548], [1.9389, 1.8081, 1.867, 2.0871, 2.3621, 2.5591]], [[8.9542, 8.558, 8.4979, 8.8028, 9.3254, 9.8132], [0.3867, 0.4002, 0.5302, 0.7137, 0.8622, 0.9039], [0.0599, 0.0384, 0.1581, 0.3613, 0.5497, 0.6324], [9.0171, 8.5856, 8.5051, 8.8147, 9.3646, 9.8892]]]]),
]


@pytest.mark.parametrize("ctor,args,kwargs,paths,outputs", MHA_EXTRA_CASES)
def test_multi_head_attention_gate_and_sliding_window(ctor, args, kwargs, paths, outputs):
    tf.keras.backend.clear_session()
    q, v = _gqa_input((2, 4, 6)), _gqa_input((2, 3, 6), 1.0)  # noqa: F841 - in args
    layer = eval(ctor)
    inputs = eval(args)
    layer(*inputs)
    assert [(w.path, tuple(w.shape)) for w in layer.weights] == paths
    layer.set_weights(_gqa_weights(layer))
    out = layer(*inputs, **kwargs)
    for got, want in zip(out if isinstance(out, (list, tuple)) else [out], outputs):
        close(got, want, atol=2e-4)
    config = layer.get_config()
    assert (config["use_gate"], config["sliding_window"]) == ("use_gate=True" in ctor, layer._sliding_window)
    x = np.ones((1, 3, 4), "float32")
    with pytest.raises(ValueError, match="Flash attention is not supported in tensorflow backend."):
        L.MultiHeadAttention(2, 2, flash_attention=True)(x, x)


def test_legacy_layers_serialize_as_keras_legacy(tmp_path):
    # TF 2.21 writes tf.keras's AlphaDropout/ThresholdedReLU with module 'keras._legacy.layers' (real Keras refuses
    # 'keras.layers.ThresholdedReLU'); a model holding them round-trips
    from tfcompat.keras.saving_utils import serialize_keras_object
    for layer in (L.ThresholdedReLU(0.5), L.AlphaDropout(0.2)):
        config = serialize_keras_object(layer)
        assert (config["module"], config["class_name"]) == ("keras._legacy.layers", type(layer).__name__)
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.ThresholdedReLU(0.5), L.AlphaDropout(0.2)])
    path = str(tmp_path / "legacy.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert [type(layer).__name__ for layer in loaded.layers] == ["ThresholdedReLU", "AlphaDropout"]
    close(loaded(np.array([[0.1, 0.6, 2.0]], "float32")), [[0.0, 0.6, 2.0]])


def test_new_layers_keras_file_paths(tmp_path):
    # TF 2.21's .keras of such a model stores the attention under layers/grouped_query_attention/_query_dense/...
    # (Keras's class GroupedQueryAttention) while its config names the class GroupQueryAttention
    import zipfile

    import h5py
    inp = tf.keras.Input((12, 4))
    h = L.SeparableConv1D(6, 2, padding="same")(L.DepthwiseConv1D(3, depth_multiplier=2, padding="same")(inp))
    h = L.RMSNormalization()(h)
    h = L.Add()([h, L.GroupQueryAttention(2, 2, 1, use_gate=True)(h, h)])
    out = L.SpectralNormalization(L.Dense(3))(L.AdaptiveMaxPooling1D(5)(L.GroupNormalization(3)(h)))
    model = tf.keras.Model(inp, out)
    assert type(model.layers[4]).__name__ == "GroupedQueryAttention" and model.layers[4].name == "grouped_query_attention"
    path = str(tmp_path / "m.keras")
    model.save(path)
    with zipfile.ZipFile(path) as z:
        assert '"class_name": "GroupQueryAttention"' in z.read("config.json").decode()
        z.extract("model.weights.h5", tmp_path)
    names = []
    with h5py.File(tmp_path / "model.weights.h5") as f:
        f.visit(names.append)
    assert "layers/grouped_query_attention/_query_dense/vars/0" in names
    assert "layers/spectral_normalization/layer/vars/0" in names or any("spectral_normalization" in n for n in names)
    x = np.sin(np.arange(96, dtype="float32")).reshape(2, 12, 4)
    close(tf.keras.models.load_model(path)(x), model(x))


def test_time_distributed_per_sample_layers_in_one_call():
    # TF 2.21: the same values as Keras's call per time step (Conv2D, MaxPooling2D, SeparableConv2D, global pooling,
    # Activation, Flatten run once over batch * time here)
    x = np.sin(np.arange(2 * 5 * 8 * 8 * 3, dtype="float32")).reshape(2, 5, 8, 8, 3)
    model = tf.keras.Sequential([tf.keras.Input((5, 8, 8, 3)), L.TimeDistributed(L.Conv2D(4, 3, activation="relu")),
                                 L.TimeDistributed(L.MaxPooling2D()), L.TimeDistributed(L.SeparableConv2D(2, 2)),
                                 L.TimeDistributed(L.GlobalAveragePooling2D()),
                                 L.TimeDistributed(L.Activation("tanh")), L.TimeDistributed(L.Flatten())])
    model.set_weights([(0.3 * np.cos(np.arange(int(np.prod(w.shape))) * 0.71 + i) + 0.1 * (i + 1)).reshape(w.shape)
                       .astype("float32") for i, w in enumerate(model.weights)])
    assert model.output_shape == (None, 5, 2)
    close(np.asarray(model(x)).ravel()[:8], [0.88189, 0.92938, 0.89249, 0.93514, 0.89901, 0.9369, 0.90242, 0.94045])
