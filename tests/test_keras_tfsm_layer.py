"""`keras.layers.TFSMLayer` over tfcompat's SavedModels, against Keras 3.15.1 on TF 2.21 (values and text recorded
from TF with the same programs): endpoints by attribute or signature, Keras's weights, fine-tuning, config, errors."""
import re

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


class _Module(tf.Module):
    def __init__(self):
        self.v = tf.Variable([[1.0], [2.0]])
        self.w = tf.Variable(3.0, trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def serve(self, x):
        return {"out": tf.matmul(x, self.v) * self.w}

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def plain(self, x):
        return tf.matmul(x, self.v)


@pytest.fixture
def module_path(tmp_path):
    m = _Module()
    tf.saved_model.save(m, str(tmp_path / "sm"), signatures={"serving_default": m.serve, "other": m.plain})
    return str(tmp_path / "sm")


def test_endpoints_weights_and_config(module_path):
    layer = keras.layers.TFSMLayer(module_path, call_endpoint="serving_default")
    assert layer.built and layer.name == "tfsm_layer"
    out = layer(tf.constant([[1.0, 1.0]]))
    assert list(out) == ["out"] and out["out"].numpy().tolist() == [[9.0]]
    assert [(w.name, w.path, w.trainable, tuple(w.shape)) for w in layer.weights] == [
        ("Variable:0", "Variable:0", True, (2, 1)), ("Variable:0", "Variable:0", False, ())]
    assert len(layer.trainable_weights) == 1 and len(layer.non_trainable_weights) == 1
    assert layer.get_config() == {
        "name": "tfsm_layer", "trainable": True,
        "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None},
        "filepath": module_path, "call_endpoint": "serving_default", "call_training_endpoint": None}
    other = keras.layers.TFSMLayer(module_path, call_endpoint="other")(np.ones((1, 2), "float32"))
    assert list(other) == ["output_0"] and other["output_0"].numpy().tolist() == [[3.0]]
    # an attribute is looked up before the signatures; `training=True` calls the training endpoint
    assert keras.layers.TFSMLayer(module_path)(tf.constant([[1.0, 1.0]]))["out"].numpy().tolist() == [[9.0]]
    both = keras.layers.TFSMLayer(module_path, call_training_endpoint="other")
    assert both(tf.constant([[1.0, 1.0]]), training=True)["output_0"].numpy().tolist() == [[3.0]]
    assert keras.layers.TFSMLayer(module_path, trainable=False).trainable_weights == []
    # a symbolic call takes the endpoint's output specs (the function's, through the signature calling it)
    kt = keras.layers.TFSMLayer(module_path)(keras.Input((2,)))
    assert list(kt) == ["out"] and kt["out"].shape == (None, 1) and kt["out"].dtype == "float32"


def test_errors(module_path):
    with pytest.raises(ValueError, match=re.escape(
            "The endpoint 'nope' is neither an attribute of the reloaded SavedModel, nor an entry in the `signatures` "
            "field of the reloaded SavedModel. Select another endpoint via the `call_endpoint` argument. Available "
            "endpoints for this SavedModel: ['serving_default', 'other']")):
        keras.layers.TFSMLayer(module_path, call_endpoint="nope")
    with pytest.raises(ValueError, match=re.escape(
            "The endpoint 'nope' is neither an attribute of the reloaded SavedModel, nor an entry in the `signatures` "
            "field of the reloaded SavedModel. Available endpoints for this SavedModel: ['serving_default', 'other']")):
        keras.layers.TFSMLayer(module_path, call_training_endpoint="nope")
    layer = keras.layers.TFSMLayer(module_path)
    with pytest.raises(ValueError, match=re.escape(
            "Requested the deserialization of a `TFSMLayer`, which loads an external SavedModel. This carries a "
            "potential risk of arbitrary code execution and thus it is disallowed by default.")):
        keras.layers.TFSMLayer.from_config(layer.get_config())
    again = keras.layers.TFSMLayer.from_config(layer.get_config(), safe_mode=False)
    assert again.call_endpoint == "serve" and again.filepath == module_path


def test_exported_model_reloads_and_fine_tunes_as_in_tf(tmp_path):
    inp = keras.Input((3,))
    model = keras.Model(inp, keras.layers.Dense(1, name="e")(keras.layers.Dense(2, name="d")(inp)))
    model.set_weights([np.arange(6, dtype="float32").reshape(3, 2) / 10, np.array([0.1, -0.1], "float32"),
                       np.array([[1.0], [-2.0]], "float32"), np.array([0.5], "float32")])
    model.export(str(tmp_path / "exp"), verbose=False)
    layer = keras.layers.TFSMLayer(str(tmp_path / "exp"))
    assert [(w.name, w.path, w.trainable, tuple(w.shape)) for w in layer.weights] == [
        ("d_kernel:0", "d_kernel:0", True, (3, 2)), ("d_bias:0", "d_bias:0", True, (2,)),
        ("e_kernel:0", "e_kernel:0", True, (2, 1)), ("e_bias:0", "e_bias:0", True, (1,))]
    assert repr(layer.weights[0]) == ("<Variable path=d_kernel:0, shape=(3, 2), dtype=float32, value=[[0.  0.1]\n"
                                      " [0.2 0.3]\n [0.4 0.5]]>")
    x = np.array([[1., 2., 3.], [0., 1., 0.]], "float32")
    np.testing.assert_allclose(layer(x).numpy(), [[-2.0000002], [0.39999998]], rtol=1e-6)
    i2 = keras.Input((3,))
    out = layer(i2)
    assert out.shape == (None, 1)
    fm = keras.Model(i2, out)
    fm.compile(keras.optimizers.SGD(0.1), "mse")
    history = fm.fit(x, np.array([[1.0], [0.0]], "float32"), epochs=2, verbose=0, batch_size=2)
    np.testing.assert_allclose(history.history["loss"], [4.580001, 172.594208], rtol=1e-5)
    np.testing.assert_allclose(fm.predict(x, verbose=0), [[728.0657958984375], [163.02841186523438]], rtol=1e-5)
    np.testing.assert_allclose(layer.weights[3].numpy(), [-1.486739993095398], rtol=1e-5)
    frozen = keras.Sequential([keras.Input((3,)), keras.layers.TFSMLayer(str(tmp_path / "exp"), trainable=False)])
    assert (len(frozen.trainable_weights), len(frozen.non_trainable_weights)) == (0, 4)
    np.testing.assert_allclose(frozen.predict(x, verbose=0), [[-2.0], [0.4]], rtol=1e-6)


def test_loaded_functions_list_their_variables_and_keep_output_specs(module_path):
    # TF 2.21: the restored function's concrete functions and the signatures read the saved variables; the
    # signatures' output specs keep the traced None dimensions
    loaded = tf.saved_model.load(module_path)
    cf, = loaded.serve.concrete_functions
    assert [v.numpy().tolist() for v in cf.variables] == [[[1.0], [2.0]], 3.0]
    assert [v.numpy().tolist() for v in cf.trainable_variables] == [[[1.0], [2.0]]]
    assert [v.numpy().tolist() for v in loaded.signatures["other"].variables] == [[[1.0], [2.0]]]
    assert repr(loaded.signatures["serving_default"].structured_outputs) == \
        "{'out': TensorSpec(shape=(None, 1), dtype=tf.float32, name='out')}"
    assert repr(loaded.signatures["other"].structured_outputs) == \
        "{'output_0': TensorSpec(shape=(None, 1), dtype=tf.float32, name='output_0')}"
