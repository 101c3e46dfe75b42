"""`tf.compat.v1.losses` in a TF1 graph (nodes named as TF names them, the LOSSES collection, get_total_loss) and
eagerly, and the names of TF1 optimizers' training ops and variables.

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1
L = v1.losses


def test_graph_losses_names_values_and_collection():
    with tf.Graph().as_default():
        lab = v1.placeholder(tf.float32, [None, 3])
        pred = v1.placeholder(tf.float32, [None, 3])
        ilab = v1.placeholder(tf.int32, [None])
        outs = [L.mean_squared_error(lab, pred), L.absolute_difference(lab, pred), L.huber_loss(lab, pred),
                L.log_loss(lab, pred), L.hinge_loss(lab, pred), L.softmax_cross_entropy(lab, pred),
                L.sparse_softmax_cross_entropy(ilab, pred), L.sigmoid_cross_entropy(lab, pred),
                L.cosine_distance(lab, pred, axis=1), L.compute_weighted_loss(pred),
                L.mean_pairwise_squared_error(lab, pred), L.mean_squared_error(lab, pred, reduction=L.Reduction.NONE),
                L.mean_squared_error(lab, pred, weights=2.0, reduction=L.Reduction.SUM),
                L.mean_squared_error(lab, pred, scope="myscope")]
        # TF 2.21
        assert [o.name for o in outs] == [
            "mean_squared_error/value:0", "absolute_difference/value:0", "huber_loss/value:0", "log_loss/value:0",
            "hinge_loss/value:0", "softmax_cross_entropy_loss/value:0", "sparse_softmax_cross_entropy_loss/value:0",
            "sigmoid_cross_entropy_loss/value:0", "cosine_distance_loss/value:0", "weighted_loss/value:0",
            "mean_pairwise_squared_error/value_2:0", "mean_squared_error_1/Mul:0", "mean_squared_error_2/Sum:0",
            "myscope/value:0"]
        assert outs[11].shape.as_list() == [None, 3] and outs[0].shape.rank == 0
        assert L.get_losses() == outs and v1.get_collection(v1.GraphKeys.LOSSES) == outs
        assert L.get_losses(scope="myscope") == outs[-1:]
        feed = {lab: [[0., 1., 0.], [1., 0., 0.]], pred: [[0.2, 0.7, 0.1], [0.3, 0.3, 0.4]], ilab: [1, 0]}
        with v1.Session() as sess:
            got = sess.run(outs, feed)
        expected = [0.14666668, 0.3333333, 0.07333334, 0.45944187, 1.0, 0.9505092, 0.9505092, 0.71124125, 0.5,
                    0.3333333, 0.88]
        np.testing.assert_allclose(got[:11], expected, rtol=1e-5)
        np.testing.assert_allclose(got[11], [[0.04, 0.09, 0.01], [0.49, 0.09, 0.16]], rtol=1e-5)
        np.testing.assert_allclose(got[12:], [1.7600001, 0.14666668], rtol=1e-5)


def test_graph_total_loss_trains_with_tf1_optimizer():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 2])
        y = v1.placeholder(tf.float32, [None, 1])
        yi = v1.placeholder(tf.int32, [None])
        w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer(0.5))
        w2 = v1.get_variable("w2", [2, 3], initializer=v1.constant_initializer(0.1))
        loss = L.mean_squared_error(labels=y, predictions=tf.matmul(x, w))
        loss2 = L.sparse_softmax_cross_entropy(labels=yi, logits=tf.matmul(x, w2) * w[0, 0])
        total = L.get_total_loss()
        step = v1.train.GradientDescentOptimizer(0.1).minimize(total)
        assert (total.name, step.name) == ("total_loss:0", "GradientDescent")       # TF 2.21
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            feed = {x: [[1., 2.], [3., 4.]], y: [[1.], [2.]], yi: [0, 2]}
            got = []
            for _ in range(3):
                got.append(sess.run([loss, loss2, total], feed))
                sess.run(step, feed)
            w_value, w2_value = sess.run([w, w2])
        # TF 2.21
        np.testing.assert_allclose(got, [[1.25, 1.0986123, 2.3486123], [4.8999996, 1.0986123, 5.998612],
                                         [19.617588, 0.96036434, 20.577953]], rtol=1e-5)
        np.testing.assert_allclose(w_value, [[-0.96806145], [-1.594167]], rtol=1e-5)
        np.testing.assert_allclose(w2_value, [[0.07809029, 0.01647492, 0.20543478],
                                              [0.10418796, -0.02655065, 0.22236267]], rtol=1e-5, atol=1e-7)


def test_collections_helpers():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                                             "the same dtype and shape."):
            L.get_total_loss()
        assert L.get_regularization_losses() == []
        assert L.get_regularization_loss().name == "Const:0"
        lab = v1.placeholder(tf.float32, [None, 1])
        a = L.mean_squared_error(lab, lab)
        L.absolute_difference(lab, lab, loss_collection=None)
        L.add_loss(tf.constant(2.0))
        assert len(L.get_losses()) == 2 and L.get_losses()[0] is a
        assert L.get_total_loss(add_regularization_losses=False, name="tl").name == "tl:0"
    # TF 2.21: eagerly nothing is collected
    assert L.get_losses() == []
    assert float(L.mean_squared_error([1.], [2.])) == 1.0
    L.add_loss(tf.constant(1.))
    assert L.get_losses() == []
    assert float(L.get_regularization_loss()) == 0.0
    with pytest.raises(ValueError, match="Inputs must be an iterable"):
        L.get_total_loss()


def test_eager_mean_pairwise_squared_error():
    lab = [[0., 1., 0.], [1., 0., 0.]]
    pred = [[0.2, 0.7, 0.1], [0.3, 0.3, 0.4]]
    # TF 2.21: eagerly a nonzero scalar weight counts all the batch's elements as present
    assert float(L.mean_pairwise_squared_error(lab, pred)) == pytest.approx(0.352, rel=1e-5)
    assert float(L.mean_pairwise_squared_error(lab, pred, weights=[[1.], [1.]])) == pytest.approx(0.88, rel=1e-5)
    assert float(L.mean_pairwise_squared_error(lab, pred, weights=0.)) == 0.0
    assert float(L.mean_pairwise_squared_error(lab, pred, weights=[[1.], [0.]])) == pytest.approx(0.14, rel=1e-5)
    assert float(L.mean_pairwise_squared_error([[1., 2., 4.]], [[1., 3., 3.]])) == 2.0
    assert float(L.mean_pairwise_squared_error([[1., 2., 4.], [0, 0, 1]], [[1., 3., 3.], [1, 1, 1]],
                                               weights=[[1.], [2.]])) == pytest.approx(3.3333332538604736)


def test_tf1_optimizer_op_and_variable_names():
    with tf.Graph().as_default():
        w = v1.get_variable("w", [2], initializer=v1.constant_initializer(0.5))
        loss = tf.reduce_sum(w * w)
        gs = v1.train.get_or_create_global_step()
        ops = [v1.train.AdamOptimizer(0.1).minimize(loss),
               v1.train.GradientDescentOptimizer(0.1).minimize(loss, name="train"),
               v1.train.GradientDescentOptimizer(0.1).minimize(loss),
               v1.train.MomentumOptimizer(0.1, 0.9).minimize(loss, global_step=gs)]
        # TF 2.21
        assert [op.name for op in ops] == ["Adam", "train", "GradientDescent", "Momentum"]
        assert [v.name for v in v1.global_variables()] == ['w:0', 'global_step:0', 'beta1_power:0',
                                                           'beta2_power:0', 'w/Adam:0', 'w/Adam_1:0', 'w/Momentum:0']


def test_get_variable_regularizer_graph_and_eager():
    with tf.Graph().as_default():
        v1.get_variable("w", initializer=tf.constant([1.0, 2.0]), regularizer=tf.keras.regularizers.L2(0.1))
        with v1.variable_scope("s"):
            v1.get_variable("u", [2], initializer=v1.ones_initializer(), regularizer=lambda x: tf.reduce_sum(x) * 3.)
        v1.get_variable("n", [2], regularizer=lambda x: None)        # None adds nothing
        assert len(L.get_regularization_losses()) == 2
        assert v1.get_collection(v1.GraphKeys.REGULARIZATION_LOSSES) == L.get_regularization_losses()
        total = L.get_regularization_loss()
        assert total.name == "total_regularization_loss:0"
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            # TF 2.21
            assert sess.run(total) == pytest.approx(6.5)
            np.testing.assert_allclose(sess.run(L.get_regularization_losses()), [0.5, 6.0], rtol=1e-6)
    # TF 2.21: eagerly the loss joins TF's global collection, evaluated whenever it is used
    losses = v1.get_collection_ref(v1.GraphKeys.REGULARIZATION_LOSSES)
    try:
        w = v1.get_variable("we", initializer=tf.constant([1.0, 2.0]), regularizer=tf.keras.regularizers.L2(0.1))
        assert len(L.get_regularization_losses()) == 1
        assert float(L.get_regularization_loss()) == pytest.approx(0.5)
        w.assign([2., 2.])
        assert float(L.get_regularization_loss()) == pytest.approx(0.8)
        assert float(L.get_total_loss()) == pytest.approx(0.8)
    finally:
        losses.clear()
