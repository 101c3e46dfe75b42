"""Seeded random ops inside a tf.function trace: TF graph nodes whose first run gives TF's values.

In a traced body, `tf.random.uniform/normal/truncated_normal(..., seed=s)` is a graph node: a fresh kernel of seeds
(global seed or 87654321, s) that starts its Philox stream at 0, whatever the eager kernels drew before and without
advancing them. The tf.guide core tutorials (mlp_core, logistic regression) build their variables this way inside a
tf.function `__call__`. Golden values: TF 2.21.
"""
import numpy as np

import tfcompat as tf


def _close(x, want):
    np.testing.assert_allclose(np.asarray(x), np.asarray(want), rtol=1e-6, atol=1e-7)


def test_first_run_without_global_seed():
    @tf.function
    def f():
        return (tf.random.uniform([4], seed=7), tf.random.normal([3], seed=7, dtype=tf.float64),
                tf.random.truncated_normal([3], mean=1.0, stddev=2.0, seed=3),
                tf.random.uniform([5], minval=-3, maxval=9, dtype=tf.int32, seed=11),
                tf.random.uniform([2], minval=-2.0, maxval=2.0, dtype=tf.float64, seed=1))

    a, b, c, d, e = f()
    # TF 2.21
    _close(a, [0.4839409589767456, 0.5062030553817749, 0.25514376163482666, 0.12474226951599121])
    assert b.dtype == tf.float64
    _close(b, [0.1340862416655279, 0.5069857732211678, -1.0712938719508789])
    _close(c, [3.123324155807495, -0.7571566104888916, 1.22374427318573])
    assert d.dtype == tf.int32 and d.numpy().tolist() == [8, -3, -2, 6, 0]
    _close(e, [1.6491996938019957, -0.38360100615214954])


def test_same_op_seed_twice_in_one_trace_gives_equal_draws():
    tf.random.set_seed(22)

    @tf.function
    def f():
        return tf.random.uniform([3], seed=22), tf.random.uniform([3], seed=22), tf.random.normal([2], seed=5)

    a, b, c = f()
    # TF 2.21: each node is its own kernel, both start the (22, 22) stream
    _close(a, [0.08503413, 0.5980128, 0.9385817])
    _close(b, [0.08503413, 0.5980128, 0.9385817])
    _close(c, [0.5468742, -0.19549823])
    # a new trace (another input signature) is a new graph: its nodes start again
    g = tf.function(lambda x: tf.random.uniform([3], seed=22) + x)
    _close(g(tf.constant(0.0)), [0.08503413, 0.5980128, 0.9385817])
    _close(g(tf.constant([0.0])), [0.08503413, 0.5980128, 0.9385817])


def test_trace_draw_leaves_eager_kernels_and_takes_traced_bounds():
    tf.random.set_seed(5)
    e1 = tf.random.uniform([2], seed=9)

    @tf.function
    def f(x):
        lim = tf.sqrt(6.) / tf.sqrt(tf.cast(x, tf.float32))
        return tf.random.uniform([3, 2], minval=-lim, maxval=lim, seed=9)

    got = f(tf.constant(10))
    e2 = tf.random.uniform([2], seed=9)
    # TF 2.21
    _close(e1, [0.8590066432952881, 0.2115098237991333])
    _close(got, [[0.5561707019805908, -0.4469270706176758], [-0.5109531879425049, 0.4008800983428955],
                 [0.30735814571380615, 0.7667814493179321]])
    _close(e2, [0.5389642715454102, 0.4155099391937256])


def test_module_building_its_variables_in_a_traced_call():
    class Dense(tf.Module):
        def __init__(self):
            self.built = False

        @tf.function
        def __call__(self, x):
            if not self.built:
                self.w = tf.Variable(tf.random.uniform([x.shape[1], 2], seed=22))
                self.b = tf.Variable(tf.random.normal([2], seed=22))
                self.built = True
            return tf.matmul(x, self.w) + self.b

    tf.random.set_seed(22)
    d = Dense()
    out = d(tf.ones([1, 3]))
    # TF 2.21
    _close(out, [[0.2973555326461792, 0.01659369468688965]])
    _close(d.w, [[0.08503413200378418, 0.5980128049850464], [0.9385817050933838, 0.31118106842041016],
                 [0.5562276840209961, 0.9197545051574707]])
    _close(d.b, [-1.2824879884719849, -1.8123546838760376])
    _close(d(tf.ones([1, 3])), [[0.2973555326461792, 0.01659369468688965]])


def test_later_calls_still_draw_anew():
    @tf.function
    def f():
        return tf.random.uniform([64], seed=3)

    first, second = f().numpy(), f().numpy()
    assert not np.array_equal(first, second)
    assert ((second >= 0) & (second < 1)).all()
