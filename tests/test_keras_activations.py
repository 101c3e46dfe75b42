"""tf.keras.activations against Keras 3 values.

Golden values recorded from TensorFlow 2.21 + Keras 3.15 (see the case definitions below).
"""
import numpy as np
import pytest

import tfcompat as tf

x = np.array([[-3.5, -1.0, -0.2, 0.0], [0.3, 1.0, 2.5, 7.0]], np.float32)
def run(tf):
    A = tf.keras.activations
    out = {}
    for n in ["relu", "sigmoid", "softmax", "log_softmax", "tanh", "elu", "selu", "gelu", "silu", "swish", "softplus",
              "softsign", "exponential", "hard_sigmoid", "hard_silu", "leaky_relu", "relu6", "mish", "linear",
              "log_sigmoid", "celu", "hard_tanh", "tanh_shrink", "soft_shrink", "hard_shrink", "squareplus"]:
        out[n] = np.asarray(A.get(n)(tf.constant(x))).tolist()
    out["relu_opts"] = np.asarray(A.relu(tf.constant(x), negative_slope=0.1, max_value=2.0, threshold=0.5)).tolist()
    out["relu_slope"] = np.asarray(A.relu(tf.constant(x), negative_slope=0.1)).tolist()
    out["relu_max6"] = np.asarray(A.relu(tf.constant(x), max_value=6)).tolist()
    out["gelu_approx"] = np.asarray(A.gelu(tf.constant(x), approximate=True)).tolist()
    out["softmax_axis0"] = np.asarray(A.softmax(tf.constant(x), axis=0)).tolist()
    out["elu_alpha"] = np.asarray(A.elu(tf.constant(x), alpha=0.5)).tolist()
    out["serialize"] = [A.serialize(A.relu), A.serialize(A.swish), A.serialize(A.get("linear"))]
    return out

GOLDEN = {'celu': [[-0.9698026, -0.63212055, -0.18126927, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'elu': [[-0.9698026, -0.63212055, -0.18126923, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'elu_alpha': [[-0.4849013, -0.31606027, -0.090634614, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'exponential': [[0.030197384, 0.36787945, 0.8187308, 1.0], [1.3498588, 2.7182817, 12.182494, 1096.6332]],
 'gelu': [[-0.00081420154, -0.15865526, -0.08414806, 0.0], [0.18537343, 0.8413447, 2.4844759, 7.0]],
 'gelu_approx': [[-0.0006162524, -0.158808, -0.08414857, 0.0], [0.18537094, 0.841192, 2.4849157, 7.0]],
 'hard_shrink': [[-3.5, -1.0, 0.0, 0.0], [0.0, 1.0, 2.5, 7.0]],
 'hard_sigmoid': [[0.0, 0.33333334, 0.46666667, 0.5], [0.55, 0.6666667, 0.9166667, 1.0]],
 'hard_silu': [[-0.0, -0.33333334, -0.093333334, 0.0], [0.165, 0.6666667, 2.2916667, 7.0]],
 'hard_tanh': [[-1.0, -1.0, -0.2, 0.0], [0.3, 1.0, 1.0, 1.0]],
 'leaky_relu': [[-0.7, -0.2, -0.040000003, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'linear': [[-3.5, -1.0, -0.2, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'log_sigmoid': [[-3.5297503, -1.3132616, -0.7981389, -0.6931472],
                 [-0.5543552, -0.3132617, -0.07888974, -0.00091146637]],
 'log_softmax': [[-4.296068, -1.7960682, -0.9960681, -0.79606813], [-6.7147098, -6.01471, -4.51471, -0.014709945]],
 'mish': [[-0.10409577, -0.3034015, -0.10714479, 0.0], [0.20800139, 0.8650984, 2.4713924, 6.999989]],
 'relu': [[0.0, 0.0, 0.0, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'relu6': [[0.0, 0.0, 0.0, 0.0], [0.3, 1.0, 2.5, 6.0]],
 'relu_max6': [[0.0, 0.0, 0.0, 0.0], [0.3, 1.0, 2.5, 6.0]],
 'relu_opts': [[-0.4, -0.15, -0.07, -0.05], [-0.02, 1.0, 2.0, 2.0]],
 'relu_slope': [[-0.35, -0.1, -0.020000001, 0.0], [0.3, 1.0, 2.5, 7.0]],
 'selu': [[-1.7050093, -1.1113307, -0.31868932, 0.0], [0.3152103, 1.050701, 2.6267526, 7.354907]],
 'sigmoid': [[0.02931223, 0.2689414, 0.45016593, 0.5], [0.57444245, 0.73105854, 0.9241418, 0.99908894]],
 'silu': [[-0.10259281, -0.2689414, -0.09003319, 0.0], [0.17233273, 0.73105854, 2.3103545, 6.993623]],
 'soft_shrink': [[-3.0, -0.5, 0.0, 0.0], [0.0, 0.5, 2.0, 6.5]],
 'softmax': [[0.013622014, 0.16595012, 0.3693287, 0.45109913], [0.001212938, 0.002442557, 0.0109467795, 0.9853977]],
 'softmax_axis0': [[0.02188127, 0.11920291, 0.06297334, 0.00091105123], [0.97811866, 0.880797, 0.9370266, 0.999089]],
 'softplus': [[0.029750422, 0.3132617, 0.59813887, 0.6931472], [0.8543552, 1.3132616, 2.5788898, 7.0009117]],
 'softsign': [[-0.7777778, -0.5, -0.16666666, 0.0], [0.23076925, 0.5, 0.71428573, 0.875]],
 'squareplus': [[0.26556444, 0.618034, 0.9049876, 1.0], [1.1611874, 1.618034, 2.850781, 7.1400547]],
 'swish': [[-0.10259281, -0.2689414, -0.09003319, 0.0], [0.17233273, 0.73105854, 2.3103545, 6.993623]],
 'tanh': [[-0.99817795, -0.7615942, -0.19737533, 0.0], [0.29131263, 0.7615942, 0.98661435, 0.99999833]],
 'tanh_shrink': [[-2.501822, -0.23840582, -0.0026246756, 0.0], [0.008687377, 0.23840582, 1.5133857, 6.000002]]}
SERIALIZED = ['relu', 'silu', 'linear']


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_activation_values(name):
    atol = 2e-7 if name.startswith("gelu") else 1e-7          # erf/tanh kernels differ in the last ulp
    np.testing.assert_allclose(np.asarray(run(tf)[name]), GOLDEN[name], rtol=1e-6, atol=atol)


def test_serialize_get():
    A = tf.keras.activations
    assert [A.serialize(A.relu), A.serialize(A.swish), A.serialize(A.get("linear"))] == SERIALIZED
    assert A.get(None) is A.linear and A.get("swish") is A.silu
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        A.get("nope")


def test_softmax_output_keeps_logits_for_losses():
    logits = tf.constant([[30.0, 0.0, -30.0]])
    probs = tf.keras.activations.softmax(logits)
    loss = tf.keras.losses.CategoricalCrossentropy()(tf.constant([[0.0, 0.0, 1.0]]), probs)
    np.testing.assert_allclose(float(loss), 60.0, rtol=1e-6)      # from the logits, not clipped at -log(1e-7)
