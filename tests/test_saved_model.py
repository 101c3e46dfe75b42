"""tf.saved_model: save/load round trip of a tf.Module in a fresh process; TF-written SavedModels are refused."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tfcompat as tf


class _Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable([[1.0, -1.0], [2.0, 0.5], [0.0, 1.0]], name="w")
        self.b = tf.Variable([0.5, -3.0], name="b", trainable=True)
        self.steps = tf.Variable(0, trainable=False, name="steps")

    @tf.function
    def __call__(self, x):
        self.steps.assign_add(1)
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def serve(self, x):
        return {"y": tf.matmul(x, self.w) + self.b}


def test_round_trip_in_fresh_process(tmp_path):
    m = _Dense(name="dense")
    x = tf.constant([[1.0, 2.0, 3.0]])
    np.testing.assert_allclose(m(x).numpy(), [[5.5, 0.0]])
    m.serve(x)
    tf.saved_model.save(m, str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["assets", "constants.npz", "tfcompat_saved_model.json", "variables"]
    assert os.path.exists(tmp_path / "variables" / "variables.index")
    code = textwrap.dedent(f"""
        import tfcompat as tf
        m = tf.saved_model.load({str(tmp_path)!r})
        x = tf.constant([[1.0, 2.0, 3.0]])
        print(m(x).numpy().tolist(), m.steps.numpy())
        print(sorted(v.name for v in (m.w, m.b, m.steps)), hasattr(m, "variables"), hasattr(m, "trainable_variables"))
        print(m.signatures["serving_default"](x=x)["y"].numpy().tolist())
        try:
            m(tf.constant([1.0]))
        except ValueError as e:
            print(str(e).splitlines()[0])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "[[5.5, 0.0]] 2", "['b:0', 'steps:0', 'w:0'] False False", "[[5.5, 0.0]]",
        "Could not find matching concrete function to call loaded from the SavedModel. Got:"]


def test_python_callbacks_not_saved(tmp_path):
    @tf.function
    def f(x):
        tf.print(x)
        return x
    m = tf.Module()
    m.f = f
    f(tf.constant(1))
    with pytest.raises(NotImplementedError, match="calls Python"):
        tf.saved_model.save(m, str(tmp_path))


def test_tensorflow_saved_model_not_supported(tmp_path):
    (tmp_path / "saved_model.pb").write_bytes(b"")
    with pytest.raises(NotImplementedError, match="written by TensorFlow"):
        tf.saved_model.load(str(tmp_path))
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(str(tmp_path / "missing"))


def test_load_checks_tags_as_tf(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    d = str(tmp_path)
    tf.saved_model.save(m, d)
    for tags in (None, "serve", ["serve"], ("serve",)):
        assert float(tf.saved_model.load(d, tags=tags).v) == 1.0
    # TF 2.21's message for tags that name no MetaGraph
    for tags, shown in (("train", "['train']"), (["serve", "x"], "['serve', 'x']"), ([], "[]")):
        with pytest.raises(ValueError) as e:
            tf.saved_model.load(d, tags=tags)
        assert str(e.value) == (f"Got an incompatible argument to `tags`: {shown}. The SavedModel at {d} has one "
                                "MetaGraph with tags ['serve']. You may omit the argument, pass 'None', or pass "
                                "matching tags.")


def test_tracing_text_of_an_unknown_rank_argument(capsys):
    # TF 2.21 (guide/saved_model): a symbolic tensor of unknown rank prints without its shape
    @tf.function
    def f(x):
        print("Tracing with", x)
        return x

    f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    f.get_concrete_function(tf.TensorSpec(None, tf.float32))
    assert capsys.readouterr().out == ('Tracing with Tensor("x:0", shape=(None,), dtype=float32)\n'
                                       'Tracing with Tensor("x:0", dtype=float32)\n')


def test_a_signature_must_return_tensors(tmp_path):
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def mutate(self, new_v):
            self.v.assign(new_v)

    m = M()
    with pytest.raises(ValueError, match=r"^Got a non-Tensor value None for key 'output_0' in the output of the "
                                         r"function \S+ used to generate the SavedModel signature 'serving_default'. "
                                         r"Outputs for functions used as signatures must be a single Tensor, a "
                                         r"sequence of Tensors, or a dictionary from string to Tensor.$"):
        tf.saved_model.save(m, str(tmp_path), signatures=m.mutate)
    assert float(m.v) == 1.0


def test_saving_traces_signatures_without_running_them(tmp_path):
    # TF 2.21 (guide/saved_model): saving traces `mutate` (it has an input_signature) but runs nothing, so the saved
    # and the live variable keep their value; `mutate` returns nothing, so it is no default signature
    class CustomModule(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

        @tf.function
        def __call__(self, x):
            return x * self.v

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def mutate(self, new_v):
            self.v.assign(new_v)

    module = CustomModule()
    module(tf.constant(0.0))
    tf.saved_model.save(module, str(tmp_path))
    assert float(module.v) == 1.0
    imported = tf.saved_model.load(str(tmp_path))
    assert imported(tf.constant(3.0)).numpy() == 3
    imported.mutate(tf.constant(2.0))
    assert imported(tf.constant(3.0)).numpy() == 6
    assert len(imported.signatures) == 0


def test_tracing_at_save_as_tf(tmp_path, capsys):
    # TF 2.21 (guide/saved_model): saving traces each signature of a function without input_signature once more from
    # its named specs (the body runs), once per signature; get_concrete_function reuses a trace of a supertype
    class CustomModule(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

        @tf.function
        def __call__(self, x):
            print("Tracing with", x)
            return x * self.v

    module = CustomModule()
    module(tf.constant(0.0))
    print("Saving model...")
    tf.saved_model.save(module, str(tmp_path / "a"))
    assert capsys.readouterr().out == ('Tracing with Tensor("x:0", shape=(), dtype=float32)\nSaving model...\n'
                                       'Tracing with Tensor("x:0", shape=(), dtype=float32)\n')
    call = module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    tf.saved_model.save(module, str(tmp_path / "b"), signatures=call)
    assert capsys.readouterr().out == 'Tracing with Tensor("x:0", dtype=float32)\n' * 2
    signatures = {"serving_default": call,
                  "array_input": module.__call__.get_concrete_function(tf.TensorSpec([None], tf.float32))}
    tf.saved_model.save(module, str(tmp_path / "c"), signatures=signatures)
    assert capsys.readouterr().out == ""
    loaded = tf.saved_model.load(str(tmp_path / "c"))
    assert list(loaded.signatures) == ["serving_default", "array_input"]
    assert float(loaded(tf.constant(3.0))) == 3.0
    assert float(loaded.signatures["serving_default"](x=tf.constant(2.0))["output_0"]) == 2.0
