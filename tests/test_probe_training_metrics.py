"""Keras metrics as typical scripts use them (AUC curves and configs, IoU errors): golden values recorded from TF 2.21
(tensorflow-cpu 2.21, keras 3.15.1)."""
import numpy as np
import pytest

import tfcompat as tf

YT = np.array([0, 1, 1, 0, 1, 0, 1], "float32")
YP = np.array([0.1, 0.8, 0.4, 0.6, 0.9, 0.3, 0.2], "float32")
SW = np.array([1, 2, 1, 0.5, 1, 1, 3], "float32")


@pytest.mark.parametrize("kw,expected", [
    (dict(curve="PRGAIN"), 0.17500001192092896),
    (dict(curve="prgain", summation_method="minoring", num_thresholds=7), 0.3999999761581421),
    (dict(curve="PRGAIN", summation_method="Majoring", thresholds=[0.25, 0.5, 0.75]), 0.0),
])
def test_auc_prgain(kw, expected):
    m = tf.keras.metrics.AUC(**kw)
    m.update_state(YT, YP, sample_weight=SW)
    assert float(m.result()) == pytest.approx(expected, abs=1e-6)      # TF 2.21


def test_auc_prgain_multi_label():
    m = tf.keras.metrics.AUC(curve="PRGAIN", multi_label=True)
    m.update_state(np.stack([YT, 1 - YT], 1), np.stack([YP, 1 - YP], 1))
    assert float(m.result()) == pytest.approx(0.379870742559433, abs=1e-6)     # TF 2.21


@pytest.mark.parametrize("kw,message", [
    (dict(curve="Roc"), 'Invalid AUC curve value: "Roc". Expected values are ["PR", "ROC", "PRGAIN"]'),
    (dict(curve="XX"), 'Invalid AUC curve value: "XX". Expected values are ["PR", "ROC", "PRGAIN"]'),
    (dict(curve=3), 'Invalid AUC curve value: "3". Expected values are ["PR", "ROC", "PRGAIN"]'),
    (dict(summation_method="INTERPOLATION"), 'Invalid AUC summation method value: "INTERPOLATION". Expected values '
                                             'are ["interpolation", "majoring", "minoring"]'),
])
def test_auc_argument_errors(kw, message):
    with pytest.raises(ValueError) as e:
        tf.keras.metrics.AUC(**kw)
    assert str(e.value) == message      # TF 2.21


def test_auc_get_config():
    # TF 2.21: name and dtype first; generated thresholds are left out, given ones kept (sorted)
    assert tf.keras.metrics.AUC(name="a").get_config() == {
        'name': 'a', 'dtype': 'float32', 'num_thresholds': 200, 'curve': 'ROC', 'summation_method': 'interpolation',
        'multi_label': False, 'num_labels': None, 'label_weights': None, 'from_logits': False}
    config = tf.keras.metrics.AUC(thresholds=[0.5, 0.2], curve="pr", summation_method="Minoring",
                                  name="auc_4").get_config()
    assert list(config) == ['name', 'dtype', 'num_thresholds', 'curve', 'summation_method', 'multi_label',
                            'num_labels', 'label_weights', 'from_logits', 'thresholds']
    assert {k: v for k, v in config.items() if k != "thresholds"} == {
        'name': 'auc_4', 'dtype': 'float32', 'num_thresholds': 4, 'curve': 'PR', 'summation_method': 'minoring',
        'multi_label': False, 'num_labels': None, 'label_weights': None, 'from_logits': False}
    np.testing.assert_allclose(config["thresholds"], [0.2, 0.5])
    again = tf.keras.metrics.AUC.from_config(config)
    assert again.thresholds == tf.keras.metrics.AUC(thresholds=[0.2, 0.5]).thresholds


@pytest.mark.parametrize("make", [lambda: tf.keras.metrics.MeanIoU(num_classes=2),
                                  lambda: tf.keras.metrics.IoU(3, [0])])
def test_iou_mismatched_lengths(make):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        make().update_state([0, 1, 2], [0, 1])
    # TF 2.21
    assert str(e.value) == ("{{function_node __wrapped__LogicalAnd_device_/job:localhost/replica:0/task:0/device:"
                            "CPU:0}} Incompatible shapes: [3] vs. [2] [Op:LogicalAnd] name: ")


A = np.random.RandomState(0).rand(4, 3).astype("float32")
_NODE = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} Incompatible shapes: "


def _update(metric, *args, **kwargs):
    metric.update_state(*args, **kwargs)
    return metric.result()


@pytest.mark.parametrize("call,message", [
    (lambda: _update(tf.keras.metrics.Mean(), A, sample_weight=np.ones(3)),
     _NODE % "BroadcastTo" + "[3] vs. [4] [Op:BroadcastTo]"),
    (lambda: _update(tf.keras.metrics.MeanSquaredError(), A, A * 2, sample_weight=np.ones(5)),
     _NODE % "BroadcastTo" + "[5] vs. [4] [Op:BroadcastTo]"),
    (lambda: _update(tf.keras.metrics.SparseCategoricalAccuracy(), np.array([0, 1, 2, 1]), A,
                     sample_weight=np.ones(3)), _NODE % "BroadcastTo" + "[3] vs. [4] [Op:BroadcastTo]"),
    (lambda: _update(tf.keras.metrics.Precision(), A > 0.5, A, sample_weight=np.ones(5)),
     _NODE % "BroadcastTo" + "[5,1] vs. [4,3] [Op:BroadcastTo]"),
    (lambda: _update(tf.keras.metrics.AUC(), A > 0.5, A, sample_weight=np.ones(5)),
     _NODE % "BroadcastTo" + "[5,1] vs. [4,3] [Op:BroadcastTo]"),
    (lambda: _update(tf.keras.metrics.R2Score(), A, A * 0.9, sample_weight=np.ones(3)),
     _NODE % "BroadcastTo" + "[3,1] vs. [4,3] [Op:BroadcastTo]"),
    (lambda: _update(tf.keras.metrics.F1Score(), (A > 0.5).astype("float32"), A, sample_weight=np.ones(3)),
     _NODE % "Mul" + "[4,3] vs. [3,1] [Op:Mul] name: "),
    (lambda: _update(tf.keras.metrics.MeanSquaredError(), A, A[:, :2]),
     _NODE % "Sub" + "[4,3] vs. [4,2] [Op:Sub] name: "),
    (lambda: _update(tf.keras.metrics.Accuracy(), A, A[:2]), _NODE % "Equal" + "[4,3] vs. [2,3] [Op:Equal] name: "),
    (lambda: tf.keras.losses.SparseCategoricalCrossentropy()(np.array([[1, 2, 0], [0, 1, 1]]),
                                                             np.ones((2, 3, 4), "float32") / 4,
                                                             sample_weight=np.array([1., 0.5])),
     _NODE % "Mul" + "[2,3] vs. [2] [Op:Mul] name: "),
    (lambda: tf.keras.losses.MeanSquaredError()(A, A * 2, sample_weight=np.ones(5)),
     _NODE % "Mul" + "[4] vs. [5] [Op:Mul] name: "),
])
def test_weights_and_targets_that_do_not_fit(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == message      # TF 2.21


def test_accuracy_broadcasts_like_tf():
    assert float(_update(tf.keras.metrics.Accuracy(), A, A[:1])) == 0.25       # TF 2.21
    assert float(_update(tf.keras.metrics.Accuracy(), A[:, :1], A[:, 0])) == 1.0
