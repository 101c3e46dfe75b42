"""Model.export / keras.export.ExportArchive as Keras 3.15 on TF 2.21: a `serve` endpoint, `serving_default`, the
variable lists, Keras's printed endpoint text and errors (texts recorded from TF 2.21 + Keras 3.15.1)."""
import re

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras
X = np.array([[1.0, 2.0, 3.0]], np.float32)


def _sequential():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="relu"), keras.layers.Dense(1)])


def test_model_export_serve_and_serving_default(tmp_path, capsys):
    model = _sequential()
    want = model(X).numpy()
    model.export(str(tmp_path))
    out = re.sub(r"\d{6,}", "<ID>", capsys.readouterr().out)
    assert out == (f"Saved artifact at '{tmp_path}'. The following endpoints are available:\n\n"
                   "* Endpoint 'serve'\n"
                   "  args_0 (POSITIONAL_ONLY): TensorSpec(shape=(None, 3), dtype=tf.float32, name='keras_tensor')\n"
                   "Output Type:\n  TensorSpec(shape=(None, 1), dtype=tf.float32, name=None)\nCaptures:\n" +
                   "  <ID>: TensorSpec(shape=(), dtype=tf.resource, name=None)\n" * 4)
    loaded = tf.saved_model.load(str(tmp_path))
    assert {"non_trainable_variables", "serve", "signatures", "trainable_variables", "variables"} <= set(vars(loaded))
    np.testing.assert_allclose(loaded.serve(X).numpy(), want, rtol=1e-6)
    sig = loaded.signatures["serving_default"]
    assert repr(sig.structured_input_signature) == \
        "((), {'keras_tensor': TensorSpec(shape=(None, 3), dtype=tf.float32, name='keras_tensor')})"
    assert repr(sig.structured_outputs) == \
        "{'output_0': TensorSpec(shape=(None, 1), dtype=tf.float32, name='output_0')}"
    np.testing.assert_allclose(sig(keras_tensor=tf.constant(X))["output_0"].numpy(), want, rtol=1e-6)
    assert len(loaded.variables) == len(loaded.trainable_variables) == 4 and loaded.non_trainable_variables == []
    assert loaded.variables[0] is loaded.trainable_variables[0]
    with pytest.raises(TypeError, match=r"^Binding inputs to tf.function failed due to `Can not cast "
                                        r"TensorSpec\(shape=\(1, 3\), dtype=tf.int32"):
        loaded.serve(tf.constant([[1, 2, 3]]))


def test_export_errors():
    class Sub(keras.Model):
        def call(self, x):
            return x

    with pytest.raises(ValueError, match=r"^The model provided has not yet been built. It must be built before "
                                         r"export.$"):
        Sub().export("unused")
    with pytest.raises(ValueError, match=r"^Unrecognized format=h5. Supported formats are: \['tf_saved_model', "):
        _sequential().export("unused", format="h5")
    with pytest.raises(ValueError, match=r"^Torch export requires PyTorch backend.$"):
        _sequential().export("unused", format="torch")
    with pytest.raises(NotImplementedError, match=r"^Model.export\(format='onnx'\) is not supported by tfcompat$"):
        _sequential().export("unused", format="onnx")
    archive = keras.export.ExportArchive()
    with pytest.raises(ValueError, match=r"^No endpoints have been set yet. Call add_endpoint\(\).$"):
        archive.write_out("unused")
    with pytest.raises(ValueError, match=r"^If the `fn` argument provided is not a `tf.function`, you must provide "):
        archive.add_endpoint("f", lambda x: x)
    archive.add_endpoint("f", lambda x: x, input_signature=[tf.TensorSpec([None], tf.float32)])
    with pytest.raises(ValueError, match=r"^Endpoint name 'f' is already taken.$"):
        archive.add_endpoint("f", lambda x: x, input_signature=[tf.TensorSpec([None], tf.float32)])


def test_export_archive_endpoints_and_variable_collections(tmp_path):
    model = _sequential()
    want = model(X).numpy()
    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", model.call, input_signature=[keras.InputSpec(shape=(None, 3), dtype="float32")])
    archive.add_endpoint("double", lambda x: model(x) * 2.0, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    archive.add_variable_collection("kernels", [model.layers[0].kernel])
    archive.write_out(str(tmp_path), verbose=False)
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded.serve(X).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(loaded.double(X).numpy(), want * 2, rtol=1e-6)
    assert list(loaded.signatures) == ["serve", "double", "serving_default"]
    assert loaded.kernels[0] is loaded.variables[0]


def test_an_endpoint_from_a_traced_tf_function(tmp_path, capsys):
    model = _sequential()
    f = tf.function(lambda x: model(x) + 1.0)
    x = np.ones((2, 3), np.float32)
    want = f(x).numpy()
    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("plus", f)
    archive.write_out(str(tmp_path))
    out = re.sub(r"\d{6,}", "<ID>", capsys.readouterr().out)
    assert out.splitlines()[2:6] == [
        "* Endpoint 'plus'", "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2, 3), dtype=tf.float32, name=None)",
        "Output Type:", "  TensorSpec(shape=(2, 1), dtype=tf.float32, name=None)"]
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded.plus(x).numpy(), want, rtol=1e-6)
    assert list(loaded.signatures) == ["plus", "serving_default"]
    assert repr(loaded.signatures["serving_default"].structured_input_signature) == \
        "((), {'x': TensorSpec(shape=(2, 3), dtype=tf.float32, name='x')})"
