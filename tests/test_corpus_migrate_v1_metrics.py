"""`tf.compat.v1.metrics`: TF1's streaming metrics in a TF1 graph (the migrate guides' metrics_optimizers slice).

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1


def _build():
    labels = v1.placeholder(tf.int64, [None])
    preds = v1.placeholder(tf.int64, [None])
    fl = v1.placeholder(tf.float32, [None])
    fp = v1.placeholder(tf.float32, [None])
    m = {
        "acc": v1.metrics.accuracy(labels=labels, predictions=preds),
        "acc2": v1.metrics.accuracy(labels, preds, weights=[1., 2., 0., 1.]),
        "mean": v1.metrics.mean(fl),
        "mse": v1.metrics.mean_squared_error(fl, fp),
        "mae": v1.metrics.mean_absolute_error(fl, fp),
        "rmse": v1.metrics.root_mean_squared_error(fl, fp),
        "p": v1.metrics.precision(labels, preds),
        "r": v1.metrics.recall(labels, preds),
        "tp": v1.metrics.true_positives(labels, preds),
        "fp": v1.metrics.false_positives(labels, preds),
        "tn": v1.metrics.true_negatives(labels, preds),
        "fn": v1.metrics.false_negatives(labels, preds),
    }
    return (labels, preds, fl, fp), m


def test_metric_variables_names_and_collections():
    with tf.Graph().as_default():
        _, m = _build()
        # TF 2.21
        names = ['accuracy/total:0', 'accuracy/count:0', 'accuracy_1/total:0', 'accuracy_1/count:0', 'mean/total:0',
                 'mean/count:0', 'mean_squared_error/total:0', 'mean_squared_error/count:0',
                 'mean_absolute_error/total:0', 'mean_absolute_error/count:0', 'root_mean_squared_error/total:0',
                 'root_mean_squared_error/count:0', 'precision/true_positives/count:0',
                 'precision/false_positives/count:0', 'recall/true_positives/count:0',
                 'recall/false_negatives/count:0', 'true_positives/count:0', 'false_positives/count:0',
                 'true_negatives/count:0', 'false_negatives/count:0']
        assert [v.name for v in v1.local_variables()] == names
        assert [v.name for v in v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)] == names
        assert v1.global_variables() == [] and v1.trainable_variables() == []
        assert m["acc"][0].name == "accuracy/value:0" and m["acc"][1].name == "accuracy/update_op:0"
        assert m["mean"][0].name == "mean/value:0" and m["mean"][1].name == "mean/update_op:0"
        assert m["rmse"][0].name == "Sqrt:0" and m["rmse"][1].name == "Sqrt_1:0"
        assert m["p"][0].name == "precision/value:0" and m["p"][1].name == "precision/update_op:0"
        assert m["tp"][0].name == "true_positives/Identity:0"
        assert m["acc"][0].shape.rank == 0 and m["acc"][0].dtype == tf.float32


def test_metric_updates_accumulate_across_runs():
    with tf.Graph().as_default():
        (labels, preds, fl, fp), m = _build()
        keys = ["acc", "acc2", "mean", "mse", "mae", "rmse", "p", "r", "tp", "fp", "tn", "fn"]
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            np.testing.assert_allclose(sess.run([m[k][0] for k in ("acc", "acc2", "mean", "mse", "p", "tp")]),
                                       [0.0] * 6)
            feed = {labels: [0, 1, 1, 0], preds: [0, 1, 0, 1], fl: [1., 2., 3., 4.], fp: [1.5, 2., 2., 6.]}
            # TF 2.21
            np.testing.assert_allclose(sess.run([m[k][1] for k in keys], feed),
                                       [0.5, 0.75, 2.5, 1.3125, 0.875, 1.145644, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0],
                                       rtol=1e-6)
            feed = {labels: [1, 1, 1], preds: [1, 1, 0], fl: [5., 6.], fp: [5., 9.]}
            np.testing.assert_allclose(sess.run([m[k][1] for k in ("acc", "mean", "p", "r", "tp")], feed),
                                       [0.5714286, 3.5, 0.75, 0.6, 3.0], rtol=1e-6)
            feed = {labels: [1, 1, 1, 0], preds: [1, 1, 0, 0], fl: [5., 6.], fp: [5., 9.]}
            np.testing.assert_allclose(
                sess.run([m[k][1] for k in ("acc", "acc2", "mean", "mse", "rmse", "p", "r", "tp")], feed),
                [0.6363636, 0.875, 4.0, 2.375, 1.5411035, 0.8333333, 0.625, 5.0], rtol=1e-6)
            np.testing.assert_allclose(
                sess.run([m[k][0] for k in keys]),
                [0.6363636, 0.875, 4.0, 2.375, 0.875, 1.5411035, 0.8333333, 0.625, 5.0, 1.0, 1.0, 1.0], rtol=1e-6)


def test_named_metric_weights_and_collections():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
            v1.metrics.accuracy(labels=tf.constant([1, 2]), predictions=tf.constant([1., 2., 3.]))
        value, update = v1.metrics.accuracy(labels=tf.constant([1, 2]), predictions=tf.constant([1., 2.]),
                                            name="myacc")
        assert (value.name, update.name) == ("myacc/value:0", "myacc/update_op:0")
        assert [v.name for v in v1.local_variables()] == ['myacc/total:0', 'myacc/count:0']
        m2 = v1.metrics.mean(tf.constant([[1., 2.], [3., 4.]]), weights=tf.constant([[1.], [0.]]),
                             metrics_collections=["mc"], updates_collections=["uc"])
        assert v1.get_collection("mc") == [m2[0]] and v1.get_collection("uc") == [m2[1]]
        assert m2[0].name == "mean/value:0"
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            assert sess.run(m2[1]) == 1.5 and sess.run(m2[0]) == 1.5      # TF 2.21


@pytest.mark.parametrize("name,args,message", [
    ("accuracy", ([1], [1]), "tf.metrics.accuracy is not supported when eager execution is enabled."),
    ("mean", ([1.],), "tf.metrics.mean is not supported when eager execution is enabled."),
    ("precision", ([1], [1]), "tf.metrics.precision is not supported when eager execution is enabled."),
    ("recall", ([1], [1]), "tf.metrics.recall is not supported is not supported when eager execution is enabled."),
])
def test_eager_raises_runtime_error(name, args, message):
    # TF 2.21: TF1 metrics refuse eager execution
    with pytest.raises(RuntimeError) as e:
        getattr(v1.metrics, name)(*args)
    assert str(e.value) == message


def test_auc_curves_summations_and_errors():
    with tf.Graph().as_default():
        lab = v1.placeholder(tf.int64, [None])
        pred = v1.placeholder(tf.float32, [None])
        w = v1.placeholder(tf.float32, [None])
        a = v1.metrics.auc(lab, pred)
        b = v1.metrics.auc(lab, pred, curve="PR", num_thresholds=50)
        c = v1.metrics.auc(lab, pred, summation_method="minoring", name="mn")
        d = v1.metrics.auc(lab, pred, summation_method="majoring", weights=w)
        e = v1.metrics.auc(lab, pred, thresholds=[0.3, 0.6])
        f = v1.metrics.auc(lab, pred, curve="PR", summation_method="careful_interpolation", num_thresholds=20)
        # TF 2.21
        assert [m[0].name for m in (a, b, c, d)] == ["auc/value:0", "auc_1/value:0", "mn/value:0", "auc_2/value:0"]
        assert a[1].name == "auc/update_op:0"
        assert [(v.name, v.shape.as_list()) for v in v1.local_variables()][:5] == [
            ("auc/true_positives:0", [200]), ("auc/false_negatives:0", [200]), ("auc/true_negatives:0", [200]),
            ("auc/false_positives:0", [200]), ("auc_1/true_positives:0", [50])]
        ms = [a, b, c, d, e, f]
        with v1.Session() as sess:
            sess.run(v1.local_variables_initializer())
            f1 = {lab: [0, 1, 1, 0, 1], pred: [0.1, 0.8, 0.4, 0.35, 0.9], w: [1., 2., 1., 1., 0.5]}
            np.testing.assert_allclose(sess.run([m[1] for m in ms], f1),
                                       [0.9999995, 0.99999964, 0.9999995, 0.9999995, 0.91666627, 1.0], rtol=1e-5)
            f2 = {lab: [1, 0, 0], pred: [0.2, 0.7, 0.05], w: [1., 1., 3.]}
            expected = [0.8124999, 0.8354165, 0.8124999, 0.8888888, 0.6562499, 0.8369187]
            np.testing.assert_allclose(sess.run([m[1] for m in ms], f2), expected, rtol=1e-5)
            np.testing.assert_allclose(sess.run([m[0] for m in ms]), expected, rtol=1e-5)
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
                sess.run(a[1], {lab: [1], pred: [1.5]})
        with pytest.raises(ValueError, match="Curve must be either ROC or PR. Curve XY is unknown."):
            v1.metrics.auc(lab, pred, curve="XY")
        with pytest.raises(ValueError, match="Invalid summation_method: foo summation_method should be "
                                             "'trapezoidal', 'careful_interpolation', 'minoring', or 'majoring'."):
            v1.metrics.auc(lab, pred, summation_method="foo")
    with pytest.raises(RuntimeError, match="tf.metrics.auc is not supported when eager execution is enabled."):
        v1.metrics.auc([1], [0.5])
