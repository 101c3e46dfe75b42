"""keras.metrics.AUC with multi_label / label_weights, and the confusion metrics' weights on [batch, labels] data,
against values recorded from TF 2.21 + Keras 3.15."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras
Y_TRUE = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]], "float32")
Y_PRED = np.array([[0.4, 0.5, 0.6], [0.7, 0.8, 0.2], [0.6, 0.3, 0.3], [0.2, 0.9, 0.7]], "float32")
WEIGHTS = np.array([1.0, 2.0, 0.5, 1.0], "float32")


@pytest.mark.parametrize("kwargs, expected", [
    ({"multi_label": True}, 0.416667),
    ({"multi_label": True, "num_labels": 3}, 0.416667),
    ({"multi_label": True, "label_weights": [1.0, 0.0, 2.0]}, 0.416667),
    ({"label_weights": [1.0, 0.5, 2.0]}, 0.403922),
    ({"multi_label": True, "curve": "PR"}, 0.583799),
    ({"multi_label": True, "curve": "PR", "label_weights": [0.5, 1, 1]}, 0.639188),
    ({"multi_label": True, "num_thresholds": 5, "summation_method": "minoring"}, 0.416667),
])
def test_auc_multi_label_and_label_weights(kwargs, expected):
    m = keras.metrics.AUC(**kwargs)
    m.update_state(Y_TRUE, Y_PRED)
    m.update_state(Y_TRUE[:2], Y_PRED[:2], sample_weight=WEIGHTS[:2])
    np.testing.assert_allclose(float(m.result()), expected, atol=1e-6)
    thresholds = kwargs.get("num_thresholds", 200)
    assert tuple(m.true_positives.shape) == ((thresholds, 3) if kwargs.get("multi_label") else (thresholds,))
    config = m.get_config()
    assert config["multi_label"] == kwargs.get("multi_label", False)
    assert config["num_labels"] == kwargs.get("num_labels")
    m.reset_state()
    assert float(m.result()) == 0.0 and tuple(m.true_positives.shape)[-1] == (3 if kwargs.get("multi_label") else 200)


def test_auc_multi_label_builds_on_first_update_and_checks_shapes():
    m = keras.metrics.AUC(multi_label=True)
    assert len(m.variables) == 0                                  # built from the first y_pred, as Keras
    with pytest.raises(ValueError, match=r"^`num_labels` is needed only when `multi_label` is True\.$"):
        keras.metrics.AUC(num_labels=3)
    with pytest.raises(ValueError, match=r"^`y_pred` must have rank 2 when `multi_label=True`. Found rank 1. Full "
                                         r"shape received for `y_pred`: \(12,\)$"):
        keras.metrics.AUC(multi_label=True).update_state(Y_TRUE.ravel(), Y_PRED.ravel())
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[200,2\] vs. \[200,3\]"):
        keras.metrics.AUC(multi_label=True, num_labels=2).update_state(Y_TRUE, Y_PRED)


def test_confusion_metrics_weight_rows_of_multi_label_data():
    results = []
    for m in [keras.metrics.Precision(), keras.metrics.Recall(class_id=1),
              keras.metrics.Precision(class_id=2, thresholds=[0.3, 0.65]), keras.metrics.AUC(),
              keras.metrics.TruePositives(), keras.metrics.AUC(multi_label=True)]:
        m.update_state(Y_TRUE, Y_PRED, sample_weight=WEIGHTS)     # one weight per row of [batch, labels]
        if not getattr(m, "class_id", None) and not getattr(m, "multi_label", False):
            m.update_state(Y_TRUE[:, 0], Y_PRED[:, 0], sample_weight=WEIGHTS)
        results.append(np.asarray(m.result()).tolist())
    np.testing.assert_allclose(results[0], 0.5)
    np.testing.assert_allclose(results[1], 0.8, rtol=1e-6)
    np.testing.assert_allclose(results[2], [1.0, 1.0])
    np.testing.assert_allclose(results[3], 0.441176, atol=1e-6)
    np.testing.assert_allclose(results[4], 5.0)
    np.testing.assert_allclose(results[5], 0.411111, atol=1e-6)
    with pytest.raises(ValueError, match=r"^When class_id is provided, y_pred must be a 2D array with shape "
                                         r"\(num_samples, num_classes\), found shape: \(4,\)$"):
        keras.metrics.Precision(class_id=1).update_state(Y_TRUE[:, 0], Y_PRED[:, 0])


def test_precision_recall_top_k_as_keras():
    results = []
    for m in [keras.metrics.Precision(top_k=1), keras.metrics.Recall(top_k=2),
              keras.metrics.Precision(top_k=1, class_id=1), keras.metrics.Recall(top_k=2, thresholds=[0.5, 0.75]),
              keras.metrics.Precision(top_k=2)]:
        m.update_state(Y_TRUE, Y_PRED, sample_weight=WEIGHTS)
        m.update_state(Y_TRUE, Y_PRED)
        results.append(np.asarray(m.result()).tolist())
        assert m.get_config()["top_k"] in (1, 2)
    np.testing.assert_allclose(results[0], 0.764706, atol=1e-6)          # TF 2.21
    np.testing.assert_allclose(results[1], 0.666667, atol=1e-6)
    np.testing.assert_allclose(results[2], 0.6, atol=1e-6)
    np.testing.assert_allclose(results[3], [0.566667, 0.2], atol=1e-6)
    np.testing.assert_allclose(results[4], 0.588235, atol=1e-6)
    assert keras.metrics.Precision(top_k=1).thresholds == [-1e10]         # below every kept prediction
