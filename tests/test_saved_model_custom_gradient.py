"""A `tf.custom_gradient` call inside a saved tf.function keeps its gradient after load (TF's default
`SaveOptions(experimental_custom_gradients=True)`); the saved gradient program is checked at load like any program.
Golden values from TF 2.21."""
import json

import numpy as np
import pytest

import tfcompat as tf


@tf.custom_gradient
def _exp_clipped(x):
    y = tf.exp(x)

    def grad(dy):
        return tf.clip_by_norm(dy * y, 0.5)
    return y, grad


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([1.0, -2.0, 0.5])

    @tf.function(input_signature=[tf.TensorSpec([3])])
    def __call__(self, x):
        return _exp_clipped(x * self.w) + 1.0


def _saved(tmp_path):
    tf.saved_model.save(_Model(), str(tmp_path), options=tf.saved_model.SaveOptions(experimental_custom_gradients=True))
    return str(tmp_path)


def test_loaded_function_keeps_its_custom_gradient(tmp_path):
    m = tf.saved_model.load(_saved(tmp_path))
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        out = m(x)
    np.testing.assert_allclose(out.numpy(), [3.7182817, 1.0183157, 5.481689], rtol=1e-6)
    np.testing.assert_allclose(t.gradient(out, x).numpy(), [0.25929624, -0.00349425, 0.21375361], rtol=1e-5)
    with tf.GradientTape() as t:
        out = tf.reduce_sum(m(x))
    np.testing.assert_allclose(t.gradient(out, m.w).numpy(), [0.25929624, 0.00349425, 1.2825217], rtol=1e-5)


def test_advanced_autodiff_guide_clip_gradients(tmp_path):
    @tf.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
        return y, backward

    class MyModule(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(None)])
        def call_custom_grad(self, x):
            return clip_gradients(x)

    tf.saved_model.save(MyModule(), str(tmp_path))
    v = tf.Variable(2.0)
    loaded = tf.saved_model.load(str(tmp_path))
    with tf.GradientTape() as t:
        output = loaded.call_custom_grad(v * v)
    assert str(t.gradient(output, v)) == "tf.Tensor(2.0, shape=(), dtype=float32)"


def _tamper(path, change):
    marker = f"{path}/tfcompat_saved_model.json"
    with open(marker) as fh:
        meta = json.load(fh)
    program = meta["functions"]["__call__"][0]["programs"][0]
    change(program, next(s for s in program["steps"] if s["op"] == "custom"))
    with open(marker, "w") as fh:
        json.dump(meta, fh)


def _aten_op(program, step):
    step["f"] = next(i for i, n in enumerate(program["ops"]) if n != "tfcompat::custom_gradient")


def _custom_as_call(program, step):
    for key in ("grad", "grad_out"):
        del step[key]
    step["op"] = "call"


def _dy_outside(program, step):
    program["outputs"][0] = {"ref": "D[0]"}


def _grad_value_outside(program, step):
    program["outputs"][0] = {"ref": step["grad"][0]["out"]}


def _nested_custom(program, step):
    step["grad"].append(json.loads(json.dumps(step)))


@pytest.mark.parametrize("change", [_aten_op, _custom_as_call, _dy_outside, _grad_value_outside, _nested_custom])
def test_tampered_custom_steps_are_refused(tmp_path, change):
    path = _saved(tmp_path)
    _tamper(path, change)
    with pytest.raises((tf.errors.DataLossError, tf.errors.InvalidArgumentError), match="tfcompat SavedModel"):
        tf.saved_model.load(path)
