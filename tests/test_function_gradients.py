"""tf.function and gradients: custom gradients, tapes inside and outside the function (values from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf


@tf.custom_gradient
def _square_grad_one(x):
    def grad(dy):
        return dy * 1.0
    return x * x, grad


@tf.custom_gradient
def _log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def _outer_gradient(f, *xs):
    with tf.GradientTape() as t:
        t.watch(list(xs))
        y = f(*xs)
    return y, t.gradient(y, list(xs))


@pytest.mark.parametrize("arg", ["variable", "constant"])
def test_custom_gradient_inside_function_under_outer_tape(arg):
    @tf.function
    def g(x):
        return _square_grad_one(x) * 2.0
    x = tf.Variable(2.0) if arg == "variable" else tf.constant(2.0)
    for _ in range(3):      # the trace, then replays
        _, (d,) = _outer_gradient(g, x)
        assert d.numpy() == 2.0     # autograd's own gradient of x * x would give 8.0


def test_custom_gradient_replay_uses_the_call_values():
    @tf.function
    def g(x):
        return tf.reduce_sum(_log1pexp(x) * x)
    expected = [([0.0, 1.0], 1.3132616, [0.6931472, 2.04432]),
                ([2.0, -3.0], 4.108094, [3.8885221, -0.09369025]),
                ([100.0, 5.0], np.inf, [np.inf, 9.973251])]
    for vals, value, grad in expected:
        y, (d,) = _outer_gradient(g, tf.constant(vals))
        np.testing.assert_allclose(y.numpy(), value, rtol=1e-6)
        np.testing.assert_allclose(d.numpy(), grad, rtol=1e-6)


def test_custom_gradient_two_outputs_persistent_outer_tape():
    @tf.custom_gradient
    def two(x, y):
        def grad(dz1, dz2):
            return dz1 * y + dz2, dz1 * x * 3.0
        return (x * y, x + y), grad

    @tf.function
    def h(x, y):
        a, b = two(x, y)
        return a + 2.0 * b
    for (xv, yv), value, grads in (((1.0, 2.0), 8.0, [4.0, 3.0]), ((3.0, 4.0), 26.0, [6.0, 9.0])):
        x, y = tf.constant(xv), tf.constant(yv)
        with tf.GradientTape(persistent=True) as t:
            t.watch([x, y])
            z = h(x, y)
        assert z.numpy() == value
        assert [g.numpy() for g in t.gradient(z, [x, y])] == grads
        assert t.gradient(z, x).numpy() == grads[0]


def test_custom_gradient_with_variables_inside_and_outside_function():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def fv(x):
        def grad(dy, variables=None):
            return dy * 10.0, [dy * 100.0]
        return x * v, grad

    @tf.function
    def inside(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = fv(x)
        return t.gradient(y, [x, v])

    @tf.function
    def plain(x):
        return fv(x)
    c = tf.constant(2.0)
    for _ in range(2):
        assert [g.numpy() for g in inside(c)] == [10.0, 100.0]
        _, _ = _outer_gradient(plain, c)
        with tf.GradientTape() as t:
            t.watch(c)
            y = plain(c)
        assert [g.numpy() for g in t.gradient(y, [c, v])] == [10.0, 100.0]


def test_custom_gradient_of_a_variable_argument_gets_no_variables_keyword():
    x = tf.Variable(2.0)
    with tf.GradientTape() as t:
        y = _square_grad_one(x)
    assert t.gradient(y, x).numpy() == 1.0      # TF: an argument variable is not one of `variables=`


def test_second_order_through_custom_gradient_in_function():
    @tf.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x
        return x * x * x, grad

    @tf.function
    def f(x):
        return cube(x)
    for xv, first, second in ((2.0, 12.0, 12.0), (3.0, 27.0, 18.0)):
        c = tf.constant(xv)
        with tf.GradientTape() as t2:
            t2.watch(c)
            with tf.GradientTape() as t1:
                t1.watch(c)
                y = f(c)
            d = t1.gradient(y, c)
        assert (d.numpy(), t2.gradient(d, c).numpy()) == (first, second)


def test_tapes_inside_function():
    @tf.function
    def inner(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = _log1pexp(x) * 2.0
        return t.gradient(y, x)
    np.testing.assert_allclose(inner(tf.constant([0.0, 1.0])).numpy(), [1.0, 1.4621172], rtol=1e-6)
    np.testing.assert_allclose(inner(tf.constant([2.0, -1.0])).numpy(), [1.7615942, 0.5378828], rtol=1e-6)

    @tf.function
    def persistent(x):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = _square_grad_one(x) * 3.0
            z = x * x * x
        return t.gradient(y, x), t.gradient(z, x)

    @tf.function
    def second(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x * x * x
            d = t1.gradient(y, x)
        return d, t2.gradient(d, x)

    @tf.function
    def stop(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.stop_gradient(x * x) * x + x
        return t.gradient(y, x)

    @tf.function
    def recompute(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.recompute_grad(lambda a: a * a * a)(x)
        return t.gradient(y, x)
    c = tf.constant(2.0)
    for _ in range(2):
        assert [g.numpy() for g in persistent(c)] == [3.0, 12.0]
        assert [g.numpy() for g in second(c)] == [12.0, 12.0]
        assert stop(c).numpy() == 5.0
        assert recompute(c).numpy() == 12.0
    assert [g.numpy() for g in second(tf.constant(3.0))] == [27.0, 18.0]


def test_second_order_over_a_function_call():
    @tf.function
    def k(x):
        return x * x * x
    c = tf.constant(2.0)
    for _ in range(2):
        with tf.GradientTape() as t2:
            t2.watch(c)
            with tf.GradientTape() as t1:
                t1.watch(c)
                y = k(c)
            d = t1.gradient(y, c)
        assert (d.numpy(), t2.gradient(d, c).numpy()) == (12.0, 12.0)


def test_custom_gradient_clipping_in_a_train_step():
    v = tf.Variable([1.0, 2.0])

    @tf.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return tf.clip_by_norm(dy, 0.5)
        return tf.identity(x), grad

    @tf.function
    def step():
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(clip_grad(v * 3.0) ** 2)
        gv = t.gradient(loss, v)
        v.assign_sub(0.1 * gv)
        return loss, gv
    expected = [(45.0, [0.93291795, 1.8658359]), (39.16511, [0.8658359, 1.7316718]),
                (33.735233, [0.79875386, 1.5975077])]
    for loss, after in expected:
        value, gv = step()
        np.testing.assert_allclose(value.numpy(), loss, rtol=1e-6)
        np.testing.assert_allclose(gv.numpy(), [0.67082036, 1.3416407], rtol=1e-6)
        np.testing.assert_allclose(v.numpy(), after, rtol=1e-6)



def test_custom_gradient_of_a_traced_function_called_in_another_trace():
    @tf.function
    def inner(x):
        return _square_grad_one(x) * 2.0

    @tf.function
    def outer(x):
        return inner(x) + 1.0

    @tf.function
    def taped(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = inner(x)
        return t.gradient(y, x)
    x = tf.constant(2.0)
    assert inner(x).numpy() == 8.0          # inner is traced first: outer replays it while tracing
    for _ in range(2):
        _, (d,) = _outer_gradient(outer, x)
        assert d.numpy() == 2.0
        assert taped(x).numpy() == 2.0
