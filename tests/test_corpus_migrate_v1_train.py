"""TF1's learning-rate decay functions of `tf.compat.v1.train` (eagerly a callable, in a TF1 graph a node), and TF1
optimizers taking such a callable learning rate.

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import functools

import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1
T = v1.train


def _make(gs):
    return [T.polynomial_decay(0.1, gs, 100, 0.0, 1.0), T.polynomial_decay(0.1, gs, 5, cycle=True),
            T.exponential_decay(0.1, gs, 10, 0.5, staircase=True), T.exponential_decay(0.1, gs, 10, 0.5),
            T.piecewise_constant(gs, [5, 10], [1., .5, .1]), T.inverse_time_decay(0.1, gs, 10, 0.5),
            T.natural_exp_decay(0.1, gs, 10, 0.5), T.cosine_decay(0.1, gs, 100),
            T.cosine_decay(0.1, gs, 100, alpha=0.1), T.cosine_decay_restarts(0.1, gs, 10)]


# TF 2.21: the values at global steps 0, 7 and 14
AT_0 = [0.1, 0.1, 0.1, 0.1, 1.0, 0.1, 0.1, 0.1, 0.1, 0.1]
AT_7 = [0.093, 0.030070001, 0.1, 0.061557222, 0.5, 0.074074075, 0.070468806, 0.09879584, 0.098916255, 0.02061074]
AT_14 = [0.086, 0.0067599993, 0.05, 0.037892915, 0.1, 0.05882353, 0.049658533, 0.09524136, 0.09571722, 0.090450846]


def test_decay_functions_in_a_graph():
    with tf.Graph().as_default():
        gs = T.get_or_create_global_step()
        outs = _make(gs)
        # TF 2.21's node names
        assert [o.name for o in outs] == [
            "PolynomialDecay:0", "PolynomialDecay_1:0", "ExponentialDecay:0", "ExponentialDecay_1:0",
            "PiecewiseConstant/case/cond/Identity:0", "InverseTimeDecay:0", "ExponentialDecay_2:0",
            "CosineDecay/Mul_3:0", "CosineDecay_1/Mul_3:0", "SGDRDecay:0"]
        assert all(o.dtype == tf.float32 and o.shape.rank == 0 for o in outs)
        inc = gs.assign_add(7)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            np.testing.assert_allclose(sess.run(outs), AT_0, rtol=1e-6)
            sess.run(inc)
            np.testing.assert_allclose(sess.run(outs), AT_7, rtol=1e-6)
            sess.run(inc)
            np.testing.assert_allclose(sess.run(outs), AT_14, rtol=1e-6)


def test_decay_functions_eagerly_are_partials_of_the_step():
    step = tf.Variable(0, dtype=tf.int64)
    outs = _make(step)
    assert isinstance(outs[0], functools.partial) and outs[0].args == (step,)
    assert type(outs[0].func).__name__ == "PolynomialDecay"
    np.testing.assert_allclose([float(o()) for o in outs], AT_0, rtol=1e-6)
    step.assign(14)
    np.testing.assert_allclose([float(o()) for o in outs], AT_14, rtol=1e-6)
    assert float(T.polynomial_decay(0.1, 5, 100)()) == pytest.approx(0.09500499814748764, rel=1e-6)


def test_decay_function_errors():
    with pytest.raises(ValueError, match="Attempt to convert a value \\(None\\) with an unsupported type"):
        T.piecewise_constant(None, [1], [1., 2.])
    with pytest.raises(ValueError, match="The length of boundaries should be 1 less than the length of values"):
        T.piecewise_constant(1, [1, 2], [1.])


def test_tf1_optimizer_calls_a_callable_learning_rate_eagerly():
    step = tf.Variable(14, dtype=tf.int64)
    opt = T.GradientDescentOptimizer(T.exponential_decay(0.5, step, 10, 0.5))
    v = tf.Variable(1.0)
    opt.minimize(lambda: v * 3., var_list=[v])
    assert v.numpy() == pytest.approx(0.4316063, rel=1e-6)      # TF 2.21 (step 14: 1 - 3 * 0.5 * 0.5 ** 1.4)


def test_tf1_adadelta_optimizer_graph_and_eager():
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=tf.constant([1.0, 2.0]))
        opt = T.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-6)
        step = opt.minimize(tf.reduce_sum(w * w))
        # TF 2.21
        assert step.name == "Adadelta"
        assert [v.name for v in v1.global_variables()] == ['w:0', 'w/Adadelta:0', 'w/Adadelta_1:0']
        assert opt.get_slot_names() == ['accum', 'accum_update']
        assert opt.get_slot(w, "accum_update").name == "w/Adadelta_1:0"
        got = []
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(3):
                sess.run(step)
                got.append(sess.run(w))
        np.testing.assert_allclose(got, [[0.9968377351760864, 1.9968377351760864],
                                         [0.9935981631278992, 1.9935957193374634],
                                         [0.9903090596199036, 1.9903007745742798]], rtol=1e-6)
    w = tf.Variable([1.0, 2.0])
    opt = T.AdadeltaOptimizer()
    for _ in range(2):
        opt.minimize(lambda: tf.reduce_sum(w * w), var_list=[w])
    np.testing.assert_allclose(w.numpy(), [0.9999990463256836, 1.9999990463256836], rtol=1e-7)


def test_tf1_ftrl_optimizer_graph_and_eager():
    cfgs = [dict(), dict(l1_regularization_strength=0.1, l2_regularization_strength=0.2),
            dict(learning_rate_power=-0.7, initial_accumulator_value=0.5),
            dict(l2_shrinkage_regularization_strength=0.3, l1_regularization_strength=0.05),
            dict(beta=0.4, l2_regularization_strength=0.1)]
    with tf.Graph().as_default():
        ws, steps = [], []
        for i, c in enumerate(cfgs):
            w = v1.get_variable(f"w{i}", initializer=tf.constant([1.0, -2.0, 0.3]))
            opt = T.FtrlOptimizer(0.5, **c)
            steps.append(opt.minimize(tf.reduce_sum(w * w * w)))
            ws.append(w)
        # TF 2.21
        assert steps[0].name == "Ftrl" and opt.get_slot_names() == ["accum", "linear"]
        assert [v.name for v in v1.global_variables()][:3] == ["w0:0", "w0/Ftrl:0", "w0/Ftrl_1:0"]
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            for _ in range(3):
                sess.run(steps)
            got = sess.run(ws)
        np.testing.assert_allclose(got, [[0.27005690336227417, -3.2384636402130127, -0.8690295219421387],
                                         [0.25736668705940247, -3.1812615394592285, -0.13785327970981598],
                                         [0.4077727496623993, -2.354937791824341, -0.35642221570014954],
                                         [0.17406515777111053, -3.1138713359832764, -0.8942791819572449],
                                         [0.2558964788913727, -3.1091551780700684, -0.16658103466033936]],
                                   rtol=1e-6)
    w = tf.Variable([1.0, -2.0, 0.3])
    opt = T.FtrlOptimizer(0.5, l1_regularization_strength=0.1)
    for _ in range(2):
        opt.minimize(lambda: tf.reduce_sum(w * w * w), var_list=[w])
    np.testing.assert_allclose(w.numpy(), [0.30978232622146606, -2.858271598815918, -0.19546721875667572], rtol=1e-6)
    with pytest.raises(ValueError, match="^initial_accumulator_value -1.000000 needs to be positive or zero$"):
        T.FtrlOptimizer(0.5, initial_accumulator_value=-1.)
    with pytest.raises(ValueError, match="^learning_rate_power 0.500000 needs to be negative or zero$"):
        T.FtrlOptimizer(0.5, learning_rate_power=0.5)
