"""tf.keras.metrics against Keras 3 values (updates, sample weights, names, repr).

Golden values recorded from TensorFlow 2.21 + Keras 3.15 (see the case definitions below).
"""
import numpy as np
import pytest

import tfcompat as tf

yt_reg = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, 3.0]], np.float32)
yp_reg = np.array([[0.7, -0.5, 1.0], [1.0, 0.25, 3.5]], np.float32)
probs = np.array([[0.7, 0.2, 0.1], [0.05, 0.05, 0.9], [0.3, 0.6, 0.1], [1.0, 0.0, 0.0]], np.float32)
onehot = np.array([[1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]], np.float32)
labels = np.array([0, 2, 0, 1], np.int32)
logits = np.array([[2.0, 1.0, -1.0], [0.5, -0.5, 3.0], [-1.0, 2.0, 0.0], [4.0, -2.0, 1.0]], np.float32)
bt = np.array([[0, 1, 1], [1, 0, 0]], np.float32)
bp = np.array([[0.1, 0.8, 0.6], [0.9, 0.3, 0.0]], np.float32)
sw = np.array([1.0, 0.5], np.float32)
sw4 = np.array([1.0, 0.0, 2.0, 0.5], np.float32)
pos = np.abs(yp_reg) + 0.1

scores = np.array([0.1, 0.4, 0.35, 0.8, 0.65, 0.2, 0.9, 0.55], np.float32)
truth = np.array([0, 0, 1, 1, 1, 0, 1, 0], np.float32)
w8 = np.array([1, 2, 1, 0.5, 1, 1, 3, 1], np.float32)

def two(m, *batches):
    for b in batches:
        m.update_state(*b[:2], **({"sample_weight": b[2]} if len(b) > 2 else {}))
    return m.result()

def cases(tf):
    M = tf.keras.metrics
    return {
        "mean_scalars": lambda: (lambda m: (m(0), m(5), m([8, 9]))[-1])(M.Mean("loss")),
        "mean_sw": lambda: (lambda m: (m.update_state([1.0, 2.0, 3.0], sample_weight=[1.0, 0.0, 2.0]), m.result())[-1])(M.Mean()),
        "mean_2d": lambda: (lambda m: (m.update_state(yt_reg, sample_weight=sw), m.result())[-1])(M.Mean()),
        "sum": lambda: (lambda m: (m([1, 2, 3]), m(4.5))[-1])(M.Sum()),
        "accuracy": lambda: two(M.Accuracy(), ([1, 2, 3, 4], [1, 2, 0, 4]), ([1, 1], [0, 1], [1.0, 2.0])),
        "binary_accuracy": lambda: two(M.BinaryAccuracy(), (bt, bp)),
        "binary_accuracy_thr": lambda: two(M.BinaryAccuracy(threshold=0.7), (bt, bp, sw)),
        "categorical_accuracy": lambda: two(M.CategoricalAccuracy(), (onehot, probs), (onehot, logits, sw4)),
        "sparse_categorical_accuracy": lambda: two(M.SparseCategoricalAccuracy(), (labels, probs), (labels[:, None], logits)),
        "top_k": lambda: two(M.TopKCategoricalAccuracy(k=2), (onehot, probs)),
        "sparse_top_k": lambda: two(M.SparseTopKCategoricalAccuracy(k=1), (labels, logits, sw4)),
        "precision": lambda: two(M.Precision(), (truth, scores), (truth, scores * 0.9, w8)),
        "recall": lambda: two(M.Recall(), (truth, scores), (truth, scores * 0.9, w8)),
        "precision_thr": lambda: two(M.Precision(thresholds=[0.3, 0.5, 0.7]), (truth, scores)),
        "recall_class": lambda: two(M.Recall(class_id=2), (onehot, probs)),
        "auc": lambda: two(M.AUC(), (truth, scores)),
        "auc_w": lambda: two(M.AUC(num_thresholds=50), (truth, scores, w8)),
        "auc_pr": lambda: two(M.AUC(curve="PR"), (truth, scores)),
        "auc_minoring": lambda: two(M.AUC(summation_method="minoring"), (truth, scores)),
        "tp": lambda: two(M.TruePositives(), (truth, scores)),
        "fn": lambda: two(M.FalseNegatives(thresholds=[0.2, 0.6]), (truth, scores, w8)),
        "mse": lambda: two(M.MeanSquaredError(), (yt_reg, yp_reg), (yt_reg, yp_reg * 2, sw)),
        "rmse": lambda: two(M.RootMeanSquaredError(), (yt_reg, yp_reg), (yt_reg, yp_reg * 2, sw)),
        "mae": lambda: two(M.MeanAbsoluteError(), (yt_reg, yp_reg)),
        "cce": lambda: two(M.CategoricalCrossentropy(), (onehot, probs)),
        "cce_logits": lambda: two(M.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1), (onehot, logits)),
        "scce": lambda: two(M.SparseCategoricalCrossentropy(), (labels, probs, sw4)),
        "scce_logits": lambda: two(M.SparseCategoricalCrossentropy(from_logits=True), (labels, logits)),
        "bce": lambda: two(M.BinaryCrossentropy(), (bt, bp)),
        "mean_iou": lambda: two(M.MeanIoU(num_classes=3), ([0, 1, 2, 2, 1], [0, 2, 2, 1, 1]), ([0, 0], [0, 1], [1.0, 2.0])),
        "mean_iou_dense": lambda: two(M.MeanIoU(num_classes=3, sparse_y_pred=False), (labels, probs)),
    }

def meta(tf):
    M = tf.keras.metrics
    m, a, p, s = M.Mean("loss"), M.AUC(), M.Precision(), M.SparseCategoricalAccuracy()
    iou = M.MeanIoU(num_classes=2)
    return {"repr": [repr(m), repr(s), str(a)],
            "paths": [v.path.split("/", 1)[1] for x in (m, a, p, s, iou) for v in x.variables],
            "names": [m.name, s.name, M.Accuracy().name, M.RootMeanSquaredError().name],
            "configs": [s.get_config(), M.BinaryAccuracy().get_config(), M.Mean().get_config()]}


GOLDEN = {'accuracy': 0.71428573,
 'auc': 0.875,
 'auc_minoring': 0.875,
 'auc_pr': 0.9088392,
 'auc_w': 0.8909091,
 'bce': 0.21689421,
 'binary_accuracy': 1.0,
 'binary_accuracy_thr': 0.77777785,
 'categorical_accuracy': 0.4,
 'cce': 4.446026,
 'cce_logits': 2.3940547,
 'fn': [0.0, 1.0],
 'mae': 0.49166667,
 'mean_2d': 0.8333333,
 'mean_iou': 0.34444442,
 'mean_iou_dense': 0.44444442,
 'mean_scalars': 5.5,
 'mean_sw': 2.3333333,
 'mse': 1.0392857,
 'precision': 0.88235295,
 'precision_thr': [0.6666667, 0.75, 1.0],
 'recall': 0.7894737,
 'recall_class': 1.0,
 'rmse': 1.0194536,
 'scce': 3.0924766,
 'scce_logits': 2.4190545,
 'sparse_categorical_accuracy': 0.5,
 'sparse_top_k': 0.2857143,
 'sum': 10.5,
 'top_k': 1.0,
 'tp': 3.0}
META = {'configs': [{'dtype': 'float32', 'name': 'sparse_categorical_accuracy'},
             {'dtype': 'float32', 'name': 'binary_accuracy', 'threshold': 0.5},
             {'dtype': 'float32', 'name': 'mean'}],
 'names': ['loss', 'sparse_categorical_accuracy', 'accuracy', 'root_mean_squared_error'],
 'paths': ['total', 'count', 'true_positives', 'false_positives', 'true_negatives', 'false_negatives',
           'true_positives', 'false_positives', 'total', 'count', 'total_confusion_matrix'],
 'repr': ['<Mean name=loss>', '<SparseCategoricalAccuracy name=sparse_categorical_accuracy>', '<AUC name=auc_4>']}


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_metric_values(case):
    got = np.asarray(cases(tf)[case]())
    np.testing.assert_allclose(got, np.array(GOLDEN[case]).reshape(got.shape), rtol=1e-6, atol=1e-7)


def test_names_paths_repr_configs():
    for _ in range(4):      # the golden run had built the four AUCs of `cases` first (names auc .. auc_3)
        tf.keras.metrics.AUC()
    assert meta(tf) == META


def test_mean_scalars_and_reset():
    m = tf.keras.metrics.Mean("loss")
    m(0)
    assert float(m(5)) == 2.5
    m([8, 9])
    assert float(m.result()) == 5.5
    m.reset_state()
    assert float(m.result()) == 0.0 and [float(v) for v in m.variables] == [0.0, 0.0]


def test_get_and_serialize():
    M = tf.keras.metrics
    assert isinstance(M.get("SparseCategoricalAccuracy"), M.SparseCategoricalAccuracy)
    assert isinstance(M.get("sparse_categorical_accuracy"), M.SparseCategoricalAccuracy)   # Keras 3's table: classes
    ser = M.serialize(M.Mean(name="m"))
    assert ser["class_name"] == "Mean" and ser["config"] == {"name": "m", "dtype": "float32"}


def test_top_k_accuracies_take_k_first_as_keras():
    # Keras 3.15: (k=5, name=..., dtype=None)
    m = tf.keras.metrics.SparseTopKCategoricalAccuracy(2)
    assert (m.k, m.name) == (2, "sparse_top_k_categorical_accuracy")
    m = tf.keras.metrics.TopKCategoricalAccuracy(3, "top3")
    assert (m.k, m.name) == (3, "top3")
    m.update_state([[0, 0, 1, 0]], [[0.1, 0.2, 0.3, 0.4]])
    assert float(m.result()) == 1.0
