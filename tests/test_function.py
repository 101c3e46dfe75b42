"""tf.function: tracing counts, side-effect timing, retracing rules, input_signature errors, replay values."""
import sys

import numpy as np
import pytest

import tfcompat as tf


def test_tracing_counts_and_side_effects(capsys):
    @tf.function
    def f(x):
        print("Tracing with", x)
        tf.print("Executing with", x, output_stream=sys.stdout)
        return x + 1
    for x in (tf.constant(1), tf.constant(2), tf.constant([1, 2]), 2, 3, 2.0, 2):
        f(x)
    assert f.experimental_get_tracing_count() == 4
    assert capsys.readouterr().out.splitlines() == [
        'Tracing with Tensor("x:0", shape=(), dtype=int32)', "Executing with 1", "Executing with 2",
        'Tracing with Tensor("x:0", shape=(2,), dtype=int32)', "Executing with [1 2]",
        "Tracing with 2", "Executing with 2", "Tracing with 3", "Executing with 3",
        "Executing with 2", "Executing with 2"]


def test_list_append_only_while_tracing():
    trace = []

    @tf.function
    def f(x):
        trace.append(1)
        return x * 2
    for i in range(3):
        assert f(tf.constant(float(i))).numpy() == 2.0 * i
    assert trace == [1]


def test_run_functions_eagerly():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x
    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        f(tf.constant(1))
        f(tf.constant(1))
    finally:
        tf.config.run_functions_eagerly(False)
    assert calls == [1, 1] and not tf.config.functions_run_eagerly()


def test_variable_updates_replayed():
    v = tf.Variable(1.0)

    @tf.function
    def g(x):
        v.assign_add(x)
        return v * 2
    assert [g(tf.constant(1.0)).numpy() for _ in range(3)] == [4.0, 6.0, 8.0]
    assert v.numpy() == 4.0 and g.experimental_get_tracing_count() == 1


def test_training_step_matches_eager():
    def make():
        w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

        def step(x):
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(tf.matmul(x, w) ** 2)
            w.assign_sub(0.01 * tape.gradient(y, w))
            return y
        return w, step
    x = tf.constant([[1.0, 1.0]])
    w1, eager = make()
    w2, traced = make()
    traced = tf.function(traced)
    for _ in range(3):
        np.testing.assert_allclose(eager(x).numpy(), traced(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(w1.numpy(), w2.numpy(), rtol=1e-6)
    np.testing.assert_allclose(w2.numpy(), [[0.769472, 1.654208], [2.769472, 3.6542082]], rtol=1e-5)


def test_data_dependent_branch_is_guarded():
    @tf.function
    def f(x):
        if x > 0:
            return x
        return -x
    assert [f(tf.constant(v)).numpy() for v in (3, -4, 5)] == [3, 4, 5]
    assert f.experimental_get_tracing_count() == 1


def test_tensor_bool_without_autograph():
    @tf.function(autograph=False)
    def k(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Using a symbolic `tf.Tensor` as a Python `bool`"):
        k(tf.constant(1))


def test_input_signature_errors():
    g = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([None], tf.float32)])
    with pytest.raises(TypeError) as e:
        g(tf.constant([1], tf.int32))
    assert str(e.value) == (
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.int32, name=None) "
        "to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`. Received args: (<tf.Tensor: shape=(1,), "
        "dtype=int32, numpy=array([1], dtype=int32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(None,), "
        "dtype=tf.float32, name=None)).")
    with pytest.raises(TypeError, match="too many positional arguments"):
        g(tf.constant([1.0]), tf.constant([1.0]))
    np.testing.assert_array_equal(g([1.0, 2.0]).numpy(), [2.0, 4.0])
    g(tf.constant([1.0, 2.0, 3.0]))
    assert g.experimental_get_tracing_count() == 1


def test_reduce_retracing():
    @tf.function(reduce_retracing=True)
    def h(x):
        return x * 2
    for n in (1, 2, 3, 4):
        np.testing.assert_array_equal(h(tf.range(n)).numpy(), np.arange(n) * 2)
    assert h.experimental_get_tracing_count() == 2


def test_get_concrete_function():
    @tf.function
    def f(x):
        return x + 1
    cf = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
    assert repr(cf.structured_input_signature) == "((TensorSpec(shape=(None,), dtype=tf.int32, name='x'),), {})"
    assert f.experimental_get_tracing_count() == 1
    np.testing.assert_array_equal(f(tf.constant([4, 5, 6])).numpy(), [5, 6, 7])
    np.testing.assert_array_equal(cf(tf.constant([1])).numpy(), [2])
    assert f.experimental_get_tracing_count() == 1


def test_variables_as_arguments_share_a_trace():
    v1, v2 = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f(v):
        v.assign_add(1.0)
        return v * 2
    assert f(v1).numpy() == 4.0 and f(v2).numpy() == 6.0
    assert (v1.numpy(), v2.numpy()) == (2.0, 3.0) and f.experimental_get_tracing_count() == 1


def test_python_outputs_become_tensors():
    @tf.function
    def r():
        return 1, "a", None
    a, b, c = r()
    assert a.dtype == tf.int32 and b.numpy() == b"a" and c is None


def test_methods_trace_per_instance():
    class M:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k
    a, b = M(2.0), M(3.0)
    assert a(tf.constant(1.0)).numpy() == 2.0 and b(tf.constant(1.0)).numpy() == 3.0
    assert a.__call__.experimental_get_tracing_count() == 1


def test_outer_tape_differentiates_replay():
    w = tf.Variable(3.0)

    @tf.function
    def f(x):
        return w * x * x
    f(tf.constant(1.0))
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gw, gx = tape.gradient(y, [w, x])
    assert (gw.numpy(), gx.numpy()) == (4.0, 12.0)


def test_jit_compile_values():
    f = tf.function(lambda x: tf.nn.relu(x) * 2.0, jit_compile=True)
    np.testing.assert_array_equal(f(tf.constant([-1.0, 2.0])).numpy(), [0.0, 4.0])


def test_attributes_and_autograph():
    def fn(x):
        return x
    f = tf.function(fn)
    assert f.__name__ == "fn" and f.python_function is fn
    with pytest.raises(NotImplementedError, match="to_code"):
        tf.autograph.to_code(fn)
    assert tf.autograph.experimental.do_not_convert(fn) is fn


def test_generalized_shapes_print_none_and_trace_once(capsys):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def g(x):
        print("Tracing with", x)
        return x * 2
    assert g(tf.constant([1, 2, 3])).numpy().tolist() == [2, 4, 6]
    assert g(tf.constant([1, 2])).numpy().tolist() == [2, 4]
    assert capsys.readouterr().out.splitlines() == ['Tracing with Tensor("x:0", shape=(None,), dtype=int32)']


def test_variable_creation_rules(capsys):
    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            print("tracing")
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)
    c = Count()
    assert [int(c()), int(c())] == [1, 2]
    assert capsys.readouterr().out.splitlines() == ["tracing", "tracing"]
    assert c.__call__.experimental_get_tracing_count() == 2

    @tf.function
    def f(x):
        return tf.Variable(1.0) + x
    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call"):
        f(1.0)


def test_concrete_function_signatures_and_binding():
    @tf.function
    def pow_(a, b):
        return a ** b
    square = pow_.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    assert float(square(tf.constant(10.0))) == 100.0
    with pytest.raises(TypeError, match=r"Can not cast 3 to Literal\[2\]"):
        square(tf.constant(10.0), b=3)
    assert str(square).splitlines()[:3] == [
        "ConcreteFunction Input Parameters:",
        "  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)",
        "  b (POSITIONAL_OR_KEYWORD): Literal[2]"]

    @tf.function
    def double(a):
        return a + a
    cf = double.get_concrete_function(tf.constant(1.0))
    assert str(cf.function_type) == ("(a: TensorSpec(shape=(), dtype=tf.float32, name=None)) -> "
                                     "TensorSpec(shape=(), dtype=tf.float32, name=None)")
    assert double.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)\n"
        "Output Type:\n  TensorSpec(shape=(), dtype=tf.float32, name=None)\nCaptures:\n  None")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input #0\(zero-based\) was expected to be a float "
                                                             r"tensor but is a int32 tensor"):
        cf(tf.constant(1))
    assert float(cf.inference_fn(tf.constant(2.0))) == 4.0


def test_gradient_through_first_call_and_dataset_iterator(capsys):
    @tf.function
    def add(a, b):
        return a + b
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        r = add(v, 1.0)
    assert float(tape.gradient(r, v)) == 1.0

    @tf.function
    def consume(it):
        tf.print("Value:", next(it), output_stream=sys.stdout)
    it = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
    for _ in range(3):
        consume(it)
    assert capsys.readouterr().out.splitlines() == ["Value: 1", "Value: 2", "Value: 3"]


def _sgd_step(w, **kw):
    @tf.function(**kw)
    def step(x):
        w.assign_sub(0.5 * x)
        return w * 2.0
    return step


def test_torch_compile_failing_at_wrap_fails_the_trace_without_effects(monkeypatch):
    import torch

    def broken(*a, **k):
        raise RuntimeError("compile unavailable")
    monkeypatch.setattr(torch, "compile", broken)
    w = tf.Variable(1.0)
    step = _sgd_step(w, jit_compile=True)
    with pytest.raises(RuntimeError, match="compile unavailable"):
        step(tf.constant(1.0))
    assert float(w) == 1.0


def test_torch_compile_failing_at_first_replay_warns_once_and_falls_back(monkeypatch, recwarn):
    import torch
    calls = []

    def lazy_broken(fn, **k):
        def run(*a):
            calls.append(1)
            raise RuntimeError("backend failed")
        return run
    monkeypatch.setattr(torch, "compile", lazy_broken)
    w = tf.Variable(1.0)
    step = _sgd_step(w, jit_compile=True)
    values = [float(step(tf.constant(1.0))) for _ in range(4)]
    assert values == [1.0, 0.0, -1.0, -2.0] and float(w) == -1.0      # each step applied exactly once
    assert calls == [1]
    assert [str(r.message)[:70] for r in recwarn.list if r.category is RuntimeWarning] == [
        "tf.function 'step' (jit_compile=True): torch.compile failed, running t"]


def test_failed_compile_changes_no_variable(monkeypatch):
    from tfcompat.eager.function import _program

    def broken(source, name, entry="program"):
        raise RuntimeError("no program")
    monkeypatch.setattr(_program, "compile_program", broken)
    w = tf.Variable(1.0)
    step = _sgd_step(w)
    with pytest.raises(RuntimeError, match="no program"):
        step(tf.constant(1.0))
    assert float(w) == 1.0


def test_jit_compile_checks_labels_inside_the_compiled_program():
    w = tf.Variable(np.eye(3, dtype="float32"))

    @tf.function(jit_compile=True)
    def step(x, y):
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, tf.matmul(x, w)))
        w.assign_sub(0.1 * w)
        return loss
    x = tf.constant(np.ones((2, 3), "float32"))
    good = tf.constant([0, 2])
    for _ in range(2):
        np.testing.assert_allclose(float(step(x, good)), 1.0986123, rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Received a label value of 3 which is outside the valid range of \[0, 3\)"):
        step(x, tf.constant([0, 3]))
    np.testing.assert_allclose(w.numpy(), np.eye(3) * 0.81, rtol=1e-6)    # the failed call changed nothing
    step(x, good)
    p = next(iter(step._concrete[0]._programs.values()))
    assert step.experimental_get_tracing_count() == 1 and p.run.args[0].compiled is not None


def test_optimizer_step_replays_with_new_learning_rate():
    def run(as_function):
        w = tf.Variable([1.0, -2.0])
        opt = tf.keras.optimizers.Adam(0.1)

        def step():
            with tf.GradientTape() as t:
                loss = tf.reduce_sum(w * w)
            opt.apply_gradients([(t.gradient(loss, w), w)])
        f = tf.function(step) if as_function else step
        f()
        f()
        opt.learning_rate = 0.5
        f()
        f()
        return w.numpy(), int(opt.iterations), f
    (w1, n1, _), (w2, n2, f) = run(False), run(True)
    np.testing.assert_array_equal(w1, w2)
    assert n1 == n2 == 4 and f.experimental_get_tracing_count() == 2
