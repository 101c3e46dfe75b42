"""Keras 3's Dice, Tversky, Circle, CategoricalGeneralizedCrossEntropy losses and the PrecisionAtRecall family and
correlation metrics, against values recorded from TF 2.21 / Keras 3.15.1 (inputs from seeded NumPy generators)."""
import numpy as np
import pytest

import tfcompat as tf
import tfcompat.keras as keras

GOLD = {
    'dice': 0.509029,
    'dice_ax': [0.210733, 0.968704, 0.61052],
    'tversky': 0.509029,
    'tversky_ab': [0.138079, 0.966309, 0.675938],
    'Dice': 0.509029,
    'Dice_ax': 0.596652,
    'Dice_sum_w': 2.453401,
    'Tversky': 0.587502,
    'Dice_grad': [[-0.107468, -0.107468, -0.107468, -0.107468], [-0.107468, 0.034965, -0.107468, 0.034965], [0.034965, 0.034965, -0.107468, 0.034965]],
    'circle': [3.209498, 14.378292, 1.451678, 0.0, 14.783756],
    'circle_kw': [3.439416, 3.955894, 3.231027, 3.020878, 4.062455],
    'Circle': 8.455806,
    'Circle_g2': 1.455001,
    'Circle_uniq': 0.0,
    'gce': [0.343713, 1.262409, 1.015653, 1.288291],
    'GCE': 0.977517,
    'GCE_q2': 1.154353,
    'PrecisionAtRecall_0.8': [0.606061, 0.610803, 0.571429],
    'RecallAtPrecision_0.8': [0.571429, 0.480603, 0.428571],
    'SensitivityAtSpecificity_0.6': [0.619048, 0.650005, 0.428571],
    'SpecificityAtSensitivity_0.9': [0.315789, 0.312519, 0.210526],
    'PrecisionAtRecall_1.0': [0.0, 0.0, 0.0],
    'RecallAtPrecision_0.99': [0.0, 0.0, 0.0],
    'class_id': 0.4,
    'pc': [-0.005547, -0.357462, 0.33517, 0.130741],
    'pc0': [-0.449755, 0.998532, 0.55585, 0.584361, 0.260235, 0.801785],
    'cc': [-0.005301, -0.154228, 0.28403, 0.129084],
    'cc0': [-0.250733, 0.465094, 0.481769, 0.497373, 0.176574, 0.438571],
    'PC': -0.121879,
    'CC': 0.063396,
}


def _close(got, key, rtol=1e-5):
    np.testing.assert_allclose(np.asarray(got, np.float64), GOLD[key], rtol=rtol, atol=1e-6)


def _seg_inputs():
    rng = np.random.RandomState(4)
    yt = (rng.rand(3, 4) > 0.5).astype(np.float32)
    yp = rng.rand(3, 4).astype(np.float32)
    lab = np.array([0, 1, 0, 2, 1])
    emb = rng.randn(5, 3).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    probs = rng.dirichlet([1, 1, 1], size=4).astype(np.float32)
    return yt, yp, lab, emb, probs


def test_dice_and_tversky():
    yt, yp, *_ = _seg_inputs()
    _close(keras.losses.dice(yt, yp), "dice")
    _close(keras.losses.dice(yt, yp, axis=-1), "dice_ax")
    _close(keras.losses.tversky(yt, yp), "tversky")
    _close(keras.losses.tversky(yt, yp, alpha=0.3, beta=0.7, axis=-1), "tversky_ab")
    _close(keras.losses.Dice()(yt, yp), "Dice")
    _close(keras.losses.Dice(axis=-1)(yt, yp), "Dice_ax")
    _close(keras.losses.Dice(axis=-1, reduction="sum")(yt, yp, sample_weight=[1., 2., 0.5]), "Dice_sum_w")
    _close(keras.losses.Tversky(0.2, 0.8, axis=-1)(yt, yp), "Tversky")
    assert keras.losses.Dice().get_config() == {"name": "dice", "reduction": "sum_over_batch_size", "axis": None}
    assert keras.losses.Tversky(0.2, 0.8).get_config() == {"name": "tversky", "reduction": "sum_over_batch_size",
                                                          "alpha": 0.2, "beta": 0.8, "axis": None}
    x = tf.Variable(yp)
    with tf.GradientTape() as tape:
        loss = keras.losses.Dice()(yt, x)
    _close(tape.gradient(loss, x), "Dice_grad")
    assert tf.keras.losses.Dice is keras.losses.Dice and tf.losses.Tversky is keras.losses.Tversky
    assert keras.losses.get("dice") is keras.losses.dice


def test_circle():
    _, _, lab, emb, _ = _seg_inputs()
    _close(keras.losses.circle(lab, emb), "circle")
    assert keras.losses.circle(lab, emb)._keras_mask.numpy().tolist() == [True, True, True, False, True]   # TF 2.21
    _close(keras.losses.circle(lab, emb, remove_diagonal=False, gamma=10, margin=0.2), "circle_kw")
    _close(keras.losses.Circle()(lab, emb), "Circle")      # the zero loss of a lone label is masked out of the mean
    _close(keras.losses.Circle(gamma=2.0)(lab, emb), "Circle_g2")
    _close(keras.losses.Circle()(np.arange(5), emb), "Circle_uniq")
    assert keras.losses.Circle().get_config() == {"name": "circle", "reduction": "sum_over_batch_size",
                                                  "gamma": 80.0, "margin": 0.4, "remove_diagonal": True}


def test_categorical_generalized_cross_entropy():
    *_, probs = _seg_inputs()
    y = np.array([0, 2, 1, 2])
    _close(keras.losses.categorical_generalized_cross_entropy(y, probs, q=0.5), "gce")
    _close(keras.losses.CategoricalGeneralizedCrossEntropy()(y, probs), "GCE")
    _close(keras.losses.CategoricalGeneralizedCrossEntropy(q=0.2)(y.reshape(-1, 1), probs), "GCE_q2")
    assert keras.losses.CategoricalGeneralizedCrossEntropy().get_config() == {
        "name": "categorical_generalized_cross_entropy", "reduction": "sum_over_batch_size", "q": 0.5}
    with pytest.raises(ValueError, match=r"q must be in the interval \(0, 1\)"):
        keras.losses.CategoricalGeneralizedCrossEntropy(q=1.5)


def _metric_inputs():
    rng = np.random.RandomState(5)
    yt = (rng.rand(40) > 0.4).astype(np.float32)
    yp = np.clip(yt * 0.3 + rng.rand(40) * 0.7, 0, 1).astype(np.float32)
    yp[0], yp[1] = 1.3, -0.2
    sw = rng.rand(40).astype(np.float32)
    y2 = (rng.rand(10, 3) > 0.5).astype(np.float32)
    p2 = rng.rand(10, 3).astype(np.float32)
    a = rng.randn(4, 6).astype(np.float32)
    b = (a * 0.5 + rng.randn(4, 6)).astype(np.float32)
    return yt, yp, sw, y2, p2, a, b


@pytest.mark.parametrize("cls,value,arg", [
    ("PrecisionAtRecall", 0.8, "recall"), ("RecallAtPrecision", 0.8, "precision"),
    ("SensitivityAtSpecificity", 0.6, "specificity"), ("SpecificityAtSensitivity", 0.9, "sensitivity"),
    ("PrecisionAtRecall", 1.0, "recall"), ("RecallAtPrecision", 0.99, "precision")])
def test_value_at_constraint_metrics(cls, value, arg):
    yt, yp, sw, *_ = _metric_inputs()
    m = getattr(keras.metrics, cls)(value)
    m.update_state(yt, yp)
    a = float(m.result())
    m.update_state(yt[:20], yp[:20], sample_weight=sw[:20])
    b = float(m.result())
    m7 = getattr(keras.metrics, cls)(value, num_thresholds=7)
    m7.update_state(yt, yp)
    _close([a, b, float(m7.result())], f"{cls}_{value}")
    assert m.get_config() == {"name": m.name, "dtype": "float32", "class_id": None, "num_thresholds": 200,
                              arg: value}
    assert [v.name for v in m.variables] == ["true_positives", "false_positives", "true_negatives",
                                             "false_negatives"]
    m.reset_state()
    assert float(m.result()) == 0.0


def test_value_at_constraint_class_id_and_errors():
    *_, y2, p2, _, _ = _metric_inputs()
    m = keras.metrics.PrecisionAtRecall(0.5, class_id=1)
    assert m.name == "precision_at_recall"
    m.update_state(y2, p2)
    _close(float(m.result()), "class_id")
    with pytest.raises(ValueError, match=r"Argument `recall` must be in the range \[0, 1\]. Received: recall=1.5"):
        keras.metrics.PrecisionAtRecall(1.5)
    with pytest.raises(ValueError, match="Argument `num_thresholds` must be an integer > 0. Received: num_thresholds=0"):
        keras.metrics.SensitivityAtSpecificity(0.5, num_thresholds=0)


def test_correlations():
    *_, a, b = _metric_inputs()
    _close(keras.metrics.pearson_correlation(a, b), "pc")
    _close(keras.metrics.pearson_correlation(a, b, axis=0), "pc0")
    _close(keras.metrics.concordance_correlation(a, b), "cc")
    _close(keras.metrics.concordance_correlation(a, b, axis=0), "cc0")
    m = keras.metrics.PearsonCorrelation()
    m.update_state(a, b)
    m.update_state(a[:2], b[:2], sample_weight=[1., 3.])
    _close(float(m.result()), "PC")
    assert m.get_config() == {"name": "pearson_correlation", "dtype": "float32", "axis": -1}
    m = keras.metrics.ConcordanceCorrelation()
    m.update_state(a, b)
    _close(float(m.result()), "CC")
    assert np.isnan(keras.metrics.pearson_correlation(a[:, :1], b[:, :1]).numpy()).all()     # TF 2.21: 0 / 0
    assert tf.keras.metrics.PearsonCorrelation is keras.metrics.PearsonCorrelation
    assert isinstance(keras.metrics.get("pearson_correlation"), keras.metrics.PearsonCorrelation)
