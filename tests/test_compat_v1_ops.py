"""tf.compat.v1's TF1 signatures of reductions and its TF1 losses: golden values from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1


def test_v1_reductions_take_keep_dims_and_reduction_indices():
    r = v1.reduce_sum(tf.ones([2, 3]), axis=1, keep_dims=True)
    assert r.shape == (2, 1) and r.numpy().tolist() == [[3.0], [3.0]]
    r = v1.reduce_mean(tf.ones([2, 3]), reduction_indices=[0])
    assert r.shape == (3,) and r.numpy().tolist() == [1.0, 1.0, 1.0]
    assert v1.reduce_max(tf.ones([2, 3]), 1, True).shape == (2, 1)
    with pytest.raises(ValueError, match=r"^Cannot specify both 'keep_dims' and 'keepdims'\.$"):
        v1.reduce_sum(tf.ones([2, 3]), axis=1, keep_dims=True, keepdims=True)
    with pytest.raises(ValueError, match=r"^Cannot specify both 'reduction_indices' and 'axis'\.$"):
        v1.reduce_sum(tf.ones([2, 3]), axis=1, reduction_indices=1)
    a = v1.argmax(tf.constant([[1, 3], [4, 2]]), dimension=1)
    assert a.dtype == tf.int64 and a.numpy().tolist() == [1, 0]
    assert v1.argmin(tf.constant([[1, 3], [4, 2]])).numpy().tolist() == [0, 1]
    assert v1.count_nonzero([[0, 1], [2, 0]], keep_dims=True).numpy().tolist() == [[2]]


def test_v1_reductions_in_a_graph():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 2])
        y = v1.reduce_sum(x, 1, keep_dims=True)
        with v1.Session() as s:
            assert s.run(y, {x: [[1.0, 2.0]]}).tolist() == [[3.0]]


def test_v1_losses():
    labels, preds = tf.constant([[1.0], [0.0]]), tf.constant([[0.8], [0.3]])
    L = v1.losses
    cases = [
        (L.absolute_difference(labels, preds), 0.25),
        (L.log_loss(labels, preds), 0.28990909457206726),
        (L.huber_loss(labels, preds), 0.032499998807907104),
        (L.hinge_loss(labels, preds), 0.75),
        (L.sigmoid_cross_entropy(labels, preds, label_smoothing=0.1), 0.6252279877662659),
        (L.cosine_distance(tf.constant([[0.6, 0.8]]), tf.constant([[1.0, 0.0]]), axis=1), 0.3999999761581421),
        (L.log_loss(labels, preds, weights=tf.constant([[2.0], [0.0]])), 0.44628676772117615),
        (L.huber_loss([1.0, 2.0], [1.5, 4.0], delta=0.5), 0.5),
        (L.compute_weighted_loss(tf.constant([1.0, 2.0, 3.0]), weights=[1.0, 0.0, 1.0]), 2.0),
        (L.hinge_loss(tf.constant([1.0, 0.0]), tf.constant([0.3, -0.2])), 0.75),
    ]
    for got, want in cases:
        assert got.dtype == tf.float32 and got.shape == ()
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    none = L.absolute_difference([1.0, 2.0], [1.5, 4.0], reduction=L.Reduction.NONE)
    assert none.numpy().tolist() == [0.5, 2.0]
    assert L.Reduction.all() == ('none', 'weighted_sum', 'weighted_mean', 'weighted_sum_over_batch_size',
                                 'weighted_sum_by_nonzero_weights', 'weighted_sum_by_nonzero_weights')
    with pytest.raises(ValueError, match=r"^Shapes \(1,\) and \(2,\) are incompatible$"):
        L.mean_squared_error([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="^You must specify argument `axis`.$"):
        L.cosine_distance([1.0], [1.0])


def test_v1_div_has_python2_semantics(caplog):
    r = v1.div(7, 2)
    assert r.dtype == tf.int32 and r.numpy() == 3
    assert v1.div(7.0, 2).numpy() == 3.5
    assert any("div (from tensorflow.python.ops.math_ops) is deprecated" in rec.getMessage() for rec in caplog.records) \
        or "div" in __import__("tfcompat.ops.deprecation", fromlist=["_WARNED"])._WARNED


def test_v1_nn_signatures():
    labels, logits = [[0.0, 1.0]], [[1.0, 2.0]]
    np.testing.assert_allclose(v1.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits).numpy(),
                               [0.31326166], rtol=1e-6)
    r = v1.nn.softmax_cross_entropy_with_logits_v2(labels, logits, dim=0)
    assert r.numpy().tolist() == [0.0, 0.0] and not np.signbit(r.numpy()).any()      # TF's kernel: +0, not -0
    np.testing.assert_allclose(v1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits).numpy(),
                               [0.31326166], rtol=1e-6)
    assert v1.nn.dropout(tf.ones([4]), keep_prob=1.0).numpy().tolist() == [1.0] * 4
    with pytest.raises(ValueError, match=r"^Cannot specify both 'keep_prob' and 'rate'\.$"):
        v1.nn.dropout(tf.ones([4]), keep_prob=0.5, rate=0.5)
    assert v1.nn.xw_plus_b(tf.ones([1, 2]), tf.ones([2, 3]), [1., 2., 3.]).numpy().tolist() == [[3.0, 4.0, 5.0]]
    assert v1.nn.relu_layer(tf.ones([1, 2]), -tf.ones([2, 3]), [1., 2., 3.]).numpy().tolist() == [[0.0, 0.0, 1.0]]
    mean, var = v1.nn.moments(tf.constant([[1.0, 2.0]]), [1], keep_dims=True)
    assert mean.numpy().tolist() == [[1.5]] and var.numpy().tolist() == [[0.25]]
    assert v1.nn.max_pool(tf.ones([1, 2, 2, 1]), [1, 2, 2, 1], [1, 2, 2, 1], "VALID").shape == (1, 1, 1, 1)
    assert v1.nn.conv2d(tf.ones([1, 2, 2, 1]), filter=tf.ones([1, 1, 1, 1]), strides=[1, 1, 1, 1],
                        padding="SAME").shape == (1, 2, 2, 1)
    assert v1.nn.relu is tf.nn.relu
    with pytest.raises(AttributeError, match="^module 'tensorflow.compat.v1.nn' has no attribute 'no_such'$"):
        v1.nn.no_such  # noqa: B018 - the access raises


def test_v1_placeholder_with_default_eagerly_is_its_input():
    r = v1.placeholder_with_default([1.0, 2.0], shape=[3])       # eager TF 2 does not check the shape
    assert r.numpy().tolist() == [1.0, 2.0]


def test_v1_dropout_keep_prob_warns_in_a_graph(caplog):
    with tf.Graph().as_default():
        v1.nn.dropout(tf.ones([4]), keep_prob=0.5)
    assert any("calling dropout (from tensorflow.python.ops.nn_ops) with keep_prob is deprecated" in r.getMessage()
               for r in caplog.records)
