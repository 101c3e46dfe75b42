"""tf.function call semantics found divergent by probing against TF 2.21 (values recorded from TF 2.21)."""
import numpy as np

import tfcompat as tf


def test_numpy_array_arguments_are_tensors():
    @tf.function
    def f(x):
        return x * 2
    a, b = f(np.array([1.0, 2.0])), f(np.array([3.0, 4.0]))
    assert isinstance(a, tf.Tensor) and a.numpy().tolist() == [2.0, 4.0] and b.numpy().tolist() == [6.0, 8.0]
    assert f.experimental_get_tracing_count() == 1

    @tf.function
    def total(x):
        return tf.reduce_sum(x)
    assert [total(np.array(v)).numpy() for v in ([1.0, 2.0], [5.0, 7.0])] == [3.0, 12.0]


def test_outer_tape_sees_a_call_whose_python_branch_changed():
    @tf.function
    def cnd(x):
        return tf.cond(x > 2.5, lambda: x * x, lambda: x * 3.0)

    @tf.function
    def branch(x):
        if x > 2.5:
            return x * x
        return x * 3.0
    for f in (cnd, branch):
        got = []
        for xv in (2.0, 3.0, 1.0, 3.0):
            x = tf.constant(xv)
            with tf.GradientTape() as t:
                t.watch(x)
                y = f(x)
            got.append((y.numpy(), t.gradient(y, x).numpy()))
        assert got == [(6.0, 3.0), (9.0, 6.0), (3.0, 3.0), (9.0, 6.0)]


def test_gradients_through_loops_and_higher_order_ops_in_functions():
    @tf.function
    def loop(x):
        i, y = tf.constant(0), x
        while i < 3:
            y = y * x
            i += 1
        return y
    for xv, value, grad in ((2.0, 16.0, 32.0), (3.0, 81.0, 108.0)):
        x = tf.constant(xv)
        with tf.GradientTape() as t:
            t.watch(x)
            y = loop(x)
        assert (y.numpy(), t.gradient(y, x).numpy()) == (value, grad)

    @tf.function
    def scan(x):
        return tf.scan(lambda a, b: a * b, x)

    @tf.function
    def mfn(x):
        return tf.map_fn(lambda r: tf.reduce_sum(r * r), x)
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(scan(x))
    assert y.numpy() == 9.0 and t.gradient(y, x).numpy().tolist() == [9.0, 4.0, 2.0]
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(mfn(x))
    assert y.numpy() == 30.0 and t.gradient(y, x).numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]

    vv = tf.Variable(3.0)

    @tf.function
    def inner(x):
        return vv * x

    @tf.function
    def outer(x):
        return inner(x) * inner(x)
    with tf.GradientTape() as t:
        y = outer(tf.constant(2.0))
    assert t.gradient(y, vv).numpy() == 24.0


def test_calls_bound_with_defaults_share_a_trace():
    @tf.function
    def f(x, y=1, *, k=2, z=None):
        return x * y * k
    cf = f.get_concrete_function(tf.constant(1))
    assert repr(cf.structured_input_signature) == \
        "((TensorSpec(shape=(), dtype=tf.int32, name='x'), 1), {'k': 2, 'z': None})"
    assert cf.pretty_printed_signature().splitlines()[1:5] == [
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.int32, name=None)",
        "  y (POSITIONAL_OR_KEYWORD): Literal[1]", "  k (KEYWORD_ONLY): Literal[2]", "  z (KEYWORD_ONLY): Literal[None]"]
    x = tf.constant(1)
    f(x, 1, k=2)
    f(x=x, y=1)
    f(x, z=None)
    assert f.experimental_get_tracing_count() == 1
    assert f(x, k=3).numpy() == 3 and f.experimental_get_tracing_count() == 2

    @tf.function
    def g(x, y=1, z=None):
        return x * y
    for call in (lambda: g(x), lambda: g(x, 1), lambda: g(x, y=1), lambda: g(x, 1, None), lambda: g(x=x)):
        call()
    assert g.experimental_get_tracing_count() == 1


def test_outer_tape_gradient_when_a_random_draw_decides_a_python_branch():
    tf.random.set_seed(3)

    @tf.function
    def f(x):
        if tf.random.uniform([]) > 0.5:
            return x * 2.0
        return x * 3.0
    x = tf.constant(1.0)
    for _ in range(8):
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x)
        g = t.gradient(y, x)
        assert g is not None and g.numpy() == y.numpy()      # the gradient of the branch that ran
