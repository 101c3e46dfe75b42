"""GradientTape, custom_gradient and forward mode: values recorded from TF 2.21."""
import threading

import numpy as np
import pytest

import tfcompat as tf


def val(t):
    return None if t is None else np.asarray(t.numpy()).tolist()


def test_basic_and_second_call_error():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    assert repr(t.gradient(y, x)) == "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to compute one set "
                                           r"of gradients \(or jacobians\)"):
        t.gradient(y, x)


def test_seed_variable_gradient():
    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    assert str(tape.gradient(loss, w)) == "tf.Tensor([[2.]], shape=(1, 1), dtype=float32)"


def test_persistent_tape():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    assert val(t.gradient(z, x)) == 108.0
    assert val(t.gradient(y, x)) == 6.0
    assert val(t.gradient(z, y)) == 18.0
    del t


def test_structures():
    a, b = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as t:
        loss = a * b
    g = t.gradient(loss, {"a": a, "b": b})
    assert {k: val(v) for k, v in g.items()} == {"a": 3.0, "b": 2.0}
    with tf.GradientTape() as t:
        l1, l2 = a * b, a + b
    assert val(t.gradient([l1, l2], a)) == 4.0          # a list target is summed
    with tf.GradientTape() as t:
        loss = a * b
    g = t.gradient(loss, [(a,), [b]])
    assert isinstance(g, list) and isinstance(g[0], tuple) and val(g[1][0]) == 2.0


def test_nonscalar_target_and_output_gradients():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        y = v * v
    assert val(t.gradient(y, v)) == [2.0, 4.0, 6.0]
    with tf.GradientTape() as t:
        y = v * v
    assert val(t.gradient(y, v, output_gradients=tf.constant([1.0, 0.5, 0.0]))) == [2.0, 2.0, 0.0]


def test_unconnected_and_non_float_sources():
    a, c = tf.Variable(2.0), tf.Variable(1.0)
    with tf.GradientTape() as t:
        y = a * 2
    assert t.gradient(y, c) is None
    with tf.GradientTape() as t:
        y = a * 2
    assert repr(t.gradient(y, c, unconnected_gradients=tf.UnconnectedGradients.ZERO)) == \
        "<tf.Tensor: shape=(), dtype=float32, numpy=0.0>"
    i = tf.constant(3)
    with tf.GradientTape() as t:
        t.watch(i)
        y = i * i
    assert t.gradient(y, i) is None


def test_watching_rules():
    a, b = tf.Variable(2.0), tf.Variable(3.0)
    nt = tf.Variable(2.0, trainable=False)
    with tf.GradientTape() as t:
        y = nt * nt
    assert t.gradient(y, nt) is None
    with tf.GradientTape() as t:
        y = a * b
    assert [v.name for v in t.watched_variables()] == ["Variable:0", "Variable:0"]
    with tf.GradientTape(watch_accessed_variables=False) as t:
        t.watch(a)
        y = a * b
    g = t.gradient(y, [a, b])
    assert val(g[0]) == 3.0 and g[1] is None


def test_stop_recording():
    a = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = a * a
        with t.stop_recording():
            z = a * a
        w = y + z
    assert val(t.gradient(w, a)) == 4.0


def test_ops_outside_tape_are_constants():
    w = tf.Variable(2.0)
    z = w * 3                      # computed before the tape: a constant to it
    with tf.GradientTape() as t:
        out = z * w
    assert val(t.gradient(out, w)) == 6.0
    x = tf.constant(2.0)
    with tf.GradientTape() as t1:
        t1.watch(x)
        y = x * x
    zz = y * 3                     # outside any tape: no graph is built
    assert not zz._t.requires_grad
    with tf.GradientTape() as t2:
        t2.watch(x)
        w2 = zz + x
    assert val(t2.gradient(w2, x)) == 1.0


def test_jacobians():
    xv = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(xv)
        y = xv * xv
    assert val(t.jacobian(y, xv)) == [[2.0, 0.0], [0.0, 4.0]]
    xb = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as t:     # TF 2.21 requires it without pfor (RuntimeError otherwise)
        t.watch(xb)
        y = xb * xb
    j = t.batch_jacobian(y, xb, experimental_use_pfor=False)
    assert j.shape == (2, 2, 2)
    assert val(j) == [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]]


def test_higher_order():
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy = t1.gradient(y, x)
    assert (val(dy), val(t2.gradient(dy, x))) == (3.0, 6.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x * x * x * x
            dy = t1.gradient(y, x)
        d2 = t2.gradient(dy, x)
    assert val(t3.gradient(d2, x)) == 24.0


def test_gradient_inside_own_context():
    a = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = a * a
        dy = t.gradient(y, a)
    assert val(dy) == 4.0


def test_tf_gradients_rejected_in_eager():
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled. "
                                           "Use tf.GradientTape instead."):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))


def test_custom_gradient_log1pexp():
    def log1pexp(x):
        return tf.math.log(1 + tf.exp(x))

    def grad(f, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = f(x)
        return tape.gradient(value, x)

    assert repr(grad(log1pexp, tf.constant(0.)).numpy()) == "np.float32(0.5)"
    assert repr(grad(log1pexp, tf.constant(100.)).numpy()) == "np.float32(nan)"

    @tf.custom_gradient
    def stable(x):
        e = tf.exp(x)

        def g(dy):
            return dy * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), g

    assert repr(grad(stable, tf.constant(0.)).numpy()) == "np.float32(0.5)"
    assert repr(grad(stable, tf.constant(100.)).numpy()) == "np.float32(1.0)"


def test_custom_gradient_non_tensor_arg_and_two_inputs():
    @tf.custom_gradient
    def scale_grad(x, factor):
        y = x * 1.0

        def g(dy):
            return [dy * factor, None]
        return y, g

    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = scale_grad(x, 0.5)
    assert val(t.gradient(y, x)) == [0.5, 0.5]

    @tf.custom_gradient
    def g2(x, y):
        def grad(dz):
            return dz * 2.0, dz * 3.0
        return x * y, grad

    p, q = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch([p, q])
        out = g2(p, q)
    assert [val(g) for g in t.gradient(out, [p, q])] == [2.0, 3.0]


def test_custom_gradient_with_variables():
    vv = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        y = x * vv

        def grad(dy, variables=None):
            assert [v is vv for v in variables] == [True]
            return dy * 10.0, [dy * 100.0]
        return y, grad

    xx = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(xx)
        out = f(xx)
    assert [val(g) for g in t.gradient(out, [xx, vv])] == [10.0, 100.0]


def test_custom_gradient_in_nested_tapes():
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3 * x * x
        return x * x * x, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = cube(x)
        dy = t1.gradient(y, x)
    assert val(dy) == 12.0
    assert val(t2.gradient(dy, x)) == 12.0     # d/dx 3x^2 through grad_fn's own ops


def test_forward_accumulator():
    xf = tf.constant([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(xf, tf.constant([1.0, 0.0])) as acc:
        yf = xf * xf
    assert val(acc.jvp(yf)) == [2.0, 0.0]
    v = tf.Variable(3.0)
    with tf.autodiff.ForwardAccumulator(v, tf.constant(1.0)) as acc:
        y = v * v
    assert val(acc.jvp(y)) == 6.0


def test_tapes_are_thread_local():
    a = tf.Variable(2.0)
    seen = {}

    def other():
        seen["recording_in_thread"] = tf.GradientTape is not None and _recording()

    with tf.GradientTape() as t:
        th = threading.Thread(target=other)
        th.start()
        th.join()
        y = a * a
    assert seen["recording_in_thread"] is False
    assert val(t.gradient(y, a)) == 4.0


def _recording():
    from tfcompat.framework.context import state
    return state.recording > 0


def test_memory_flat_over_many_steps():
    import gc
    W, B = tf.Variable(5.0), tf.Variable(10.0)
    xs = tf.constant(np.linspace(-1, 1, 200, dtype=np.float32))
    ys = xs * 3 + 2

    def step():
        with tf.GradientTape() as t:
            loss = tf.reduce_mean(tf.square(xs * W + B - ys))
        gW, gB = t.gradient(loss, [W, B])
        W.assign_sub(0.01 * gW)
        B.assign_sub(0.01 * gB)

    for _ in range(50):
        step()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(500):
        step()
    gc.collect()
    assert len(gc.get_objects()) - before < 50


def _gan_like_graph():
    w = tf.Variable([[0.5, -1.0], [2.0, 0.25]])
    v = tf.Variable([[1.5], [-0.5]])
    x = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    return w, v, x


def test_two_tapes_over_one_forward_pass_each_take_their_gradient():
    # the GAN step: both tapes record the shared forward pass; each takes one gradient (values from TF 2.21)
    w, v, x = _gan_like_graph()
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        h = tf.nn.relu(tf.matmul(x, w))
        o = tf.sigmoid(tf.matmul(h, v))
        gen_loss = tf.reduce_mean(tf.math.log(o))
        disc_loss = tf.reduce_mean(tf.square(o - 1.0)) + tf.reduce_sum(h)
    np.testing.assert_allclose(val(gen_tape.gradient(gen_loss, w)),
                               [[0.0008771270513534546, 0.0], [0.0017542541027069092, 0.0]], rtol=1e-5)
    gv, gw = disc_tape.gradient(disc_loss, [v, w])
    np.testing.assert_allclose(val(gv), [[-6.1476171140384395e-06], [0.0]], rtol=1e-4)
    np.testing.assert_allclose(val(gw), [[0.9999979734420776, 0.0], [1.9999959468841553, 0.0]], rtol=1e-5)


def test_inner_tape_gradient_keeps_the_graph_of_a_persistent_outer_tape():
    w, _, x = _gan_like_graph()
    golden = [[2.3598368167877197, 0.8044348359107971], [-0.7854605913162231, 1.5668997764587402]]
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape() as inner:
            y = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
        with outer.stop_recording():
            np.testing.assert_allclose(val(inner.gradient(y, w)), golden, rtol=1e-5)
    np.testing.assert_allclose(val(outer.gradient(y, w)), golden, rtol=1e-5)
    np.testing.assert_allclose(val(outer.gradient(y, w)), golden, rtol=1e-5)


def test_keras_gan_step_with_two_tapes():
    gen = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(3)])
    disc = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    noise, real = tf.random.normal((5, 2)), tf.random.normal((5, 3))
    for _ in range(2):
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            fake_out = disc(gen(noise, training=True), training=True)
            real_out = disc(real, training=True)
            gen_loss = bce(tf.ones_like(fake_out), fake_out)
            disc_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
        gen_grads = gen_tape.gradient(gen_loss, gen.trainable_variables)
        disc_grads = disc_tape.gradient(disc_loss, disc.trainable_variables)
        assert [g.shape.as_list() for g in gen_grads] == [[2, 4], [4], [4, 3], [3]]
        assert [g.shape.as_list() for g in disc_grads] == [[3, 4], [4], [4, 1], [1]]


def test_overlapping_tapes_in_any_order_and_with_a_persistent_one():
    # values from TF 2.21: each tape takes its gradients over the one shared forward pass
    x, w = tf.Variable([1.0, 2.0]), tf.Variable(3.0)
    with tf.GradientTape() as a, tf.GradientTape() as b:
        h = tf.sin(x) * w
        la, lb = tf.reduce_sum(h * h), tf.reduce_sum(tf.exp(h))
    np.testing.assert_allclose(val(b.gradient(lb, w)), 24.41735, rtol=1e-5)
    np.testing.assert_allclose(val(a.gradient(la, x)), [8.18368, -6.81122], rtol=1e-5)
    with tf.GradientTape(persistent=True) as p, tf.GradientTape() as q:
        h = tf.tanh(x * w)
        l1, l2 = tf.reduce_sum(h), tf.reduce_prod(h)
    np.testing.assert_allclose(val(q.gradient(l1, w)), 0.00992, rtol=1e-3)
    np.testing.assert_allclose(val(p.gradient(l2, x)), [0.0296, 7e-05], atol=5e-6)
    np.testing.assert_allclose(val(p.gradient(l1, [x, w])[1]), 0.00992, rtol=1e-3)
    np.testing.assert_allclose(val(p.jacobian(h, x)), [[0.0296, 0.0], [0.0, 7e-05]], atol=5e-6)
    with tf.GradientTape() as t1, tf.GradientTape() as t2, tf.GradientTape() as t3:
        l3 = tf.reduce_sum(tf.exp(x * w))
    np.testing.assert_allclose(val(t3.gradient(l3, x)), [60.25661, 1210.28638], rtol=1e-5)
    np.testing.assert_allclose(val(t1.gradient(l3, w)), 826.94312, rtol=1e-5)
    np.testing.assert_allclose(val(t2.gradient(l3, [x])[0]), [60.25661, 1210.28638], rtol=1e-5)
