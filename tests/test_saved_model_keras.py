"""tf.saved_model.save of Keras models: Keras 3's `serving_default` signature (names, specs, outputs) as TF 2.21 writes
it, and the loaded signature's outputs equal the model's (signature texts recorded from TF 2.21 + Keras 3.15.1)."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras
X = np.array([[1.0, 2.0, 3.0]], np.float32)


def _signature(model, path):
    tf.saved_model.save(model, str(path))
    loaded = tf.saved_model.load(str(path))
    assert list(loaded.signatures) == ["serving_default"]
    return loaded, loaded.signatures["serving_default"]


def test_sequential_from_input(tmp_path):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="relu"), keras.layers.Dense(1)])
    loaded, sig = _signature(model, tmp_path)
    assert repr(sig.structured_input_signature) == \
        "((), {'inputs': TensorSpec(shape=(None, 3), dtype=tf.float32, name='inputs')})"
    assert repr(sig.structured_outputs) == \
        "{'output_0': TensorSpec(shape=(None, 1), dtype=tf.float32, name='output_0')}"
    assert repr(sig).startswith("<ConcreteFunction (*, inputs: TensorSpec(shape=(None, 3), dtype=tf.float32, "
                                "name='inputs')) -> Dict[['output_0', TensorSpec(shape=(None, 1), dtype=tf.float32, "
                                "name='output_0')]] at 0x")
    want = model(X).numpy()
    np.testing.assert_allclose(sig(inputs=tf.constant(X))["output_0"].numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(sig(tf.constant(X))["output_0"].numpy(), want, rtol=1e-6)   # flat positional call
    with pytest.raises(TypeError, match=r"Fallback to flat signature also failed due to: "
                                        r"signature_wrapper_serving_default\(inputs\): expected argument "
                                        r"#0\(zero-based\) to be a Tensor; got ndarray"):
        sig(X)
    with pytest.raises(TypeError, match=r"signature_wrapper_serving_default\(inputs\) takes 1 positional "
                                        r"arguments, got 2\.$"):
        sig(tf.constant(X), tf.constant(X))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"as input #0\(zero-based\) was expected to be a float "
                                                             r"tensor but is a int32 tensor"):
        sig(tf.constant([[1, 2, 3]]))
    with pytest.raises(TypeError, match="'_UserObject' object is not callable"):
        loaded(X)
    assert not hasattr(loaded, "trainable_variables")


def test_sequential_built_by_a_call_keeps_its_batch_size(tmp_path):
    model = keras.Sequential([keras.layers.Dense(2)])
    model(X)
    _, sig = _signature(model, tmp_path)
    assert repr(sig.structured_input_signature) == \
        "((), {'inputs': TensorSpec(shape=(1, 3), dtype=tf.float32, name='inputs')})"
    assert repr(sig.structured_outputs) == \
        "{'output_0': TensorSpec(shape=(1, 2), dtype=tf.float32, name='output_0')}"


def test_functional_dict_inputs_and_outputs(tmp_path):
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    model = keras.Model({"a": a, "b": b}, {"y": keras.layers.Dense(1)(a), "z": keras.layers.Dense(2)(b)})
    _, sig = _signature(model, tmp_path)
    assert repr(sig.structured_input_signature) == (
        "((), {'inputs': TensorSpec(shape=(None, 3), dtype=tf.float32, name='inputs'), "
        "'inputs_1': TensorSpec(shape=(None, 2), dtype=tf.float32, name='inputs_1')})")
    assert repr(sig.structured_outputs) == (
        "{'y': TensorSpec(shape=(None, 1), dtype=tf.float32, name='y'), "
        "'z': TensorSpec(shape=(None, 2), dtype=tf.float32, name='z')}")
    xa, xb = tf.constant([[1.0, 2.0, 3.0]]), tf.constant([[4.0, 5.0]])
    got, want = sig(inputs=xa, inputs_1=xb), model({"a": xa, "b": xb})
    for k in ("y", "z"):
        np.testing.assert_allclose(got[k].numpy(), want[k].numpy(), rtol=1e-6)


def test_functional_list_outputs(tmp_path):
    a, b = keras.Input((3,)), keras.Input((2,))
    model = keras.Model([a, b], [keras.layers.Dense(1)(a), keras.layers.Dense(2)(b)])
    _, sig = _signature(model, tmp_path)
    assert sorted(sig.structured_outputs) == ["output_0", "output_1"]
    assert repr(sig.structured_outputs["output_1"]) == \
        "TensorSpec(shape=(None, 2), dtype=tf.float32, name='output_1')"


def test_subclassed_model_signature_has_the_build_shape(tmp_path):
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x) * 2

    model = Sub()
    want = model(X).numpy()
    _, sig = _signature(model, tmp_path / "a")
    assert repr(sig.structured_input_signature) == \
        "((), {'inputs': TensorSpec(shape=(1, 3), dtype=tf.float32, name='inputs')})"
    assert repr(sig.structured_outputs) == \
        "{'output_0': TensorSpec(shape=(1, 2), dtype=tf.float32, name='output_0')}"
    np.testing.assert_allclose(sig(inputs=tf.constant(X))["output_0"].numpy(), want, rtol=1e-6)
    tf.saved_model.save(Sub(), str(tmp_path / "b"))                 # never built: no signature, as in TF
    assert list(tf.saved_model.load(str(tmp_path / "b")).signatures) == []


def test_any_batch_size_runs_the_model_rebuilt_from_its_config(tmp_path):
    # TF's signature graph runs any batch size; tfcompat rebuilds a model of Keras's own layers from its config
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])
    loaded, sig = _signature(model, tmp_path / "a")
    x = np.arange(15, dtype=np.float32).reshape(5, 3) / 7
    np.testing.assert_allclose(sig(inputs=tf.constant(x))["output_0"].numpy(), model(x).numpy(), rtol=1e-6)
    model.export(str(tmp_path / "b"), verbose=False)
    served = tf.saved_model.load(str(tmp_path / "b"))
    np.testing.assert_allclose(served.serve(x).numpy(), model(x).numpy(), rtol=1e-6)
    np.testing.assert_allclose(served.serve(X).numpy(), model(X).numpy(), rtol=1e-6)


def test_a_model_with_custom_layers_serves_other_batch_sizes(tmp_path):
    class Twice(keras.layers.Layer):
        def call(self, x):
            return x * 2.0

    inp = keras.Input((3,))
    model = keras.Model(inp, Twice()(keras.layers.Dense(2)(inp)))
    _, sig = _signature(model, tmp_path)
    np.testing.assert_allclose(sig(inputs=tf.constant(X))["output_0"].numpy(), model(X).numpy(), rtol=1e-6)
    # as TF's signature graph: its program made general over the batch dimension (eager.function._placeholders)
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 5
    np.testing.assert_allclose(sig(inputs=tf.constant(x))["output_0"].numpy(), model(x).numpy(), rtol=1e-6)


def test_a_tampered_keras_config_is_refused(tmp_path):
    import json
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    tf.saved_model.save(model, str(tmp_path))
    path = tmp_path / "tfcompat_saved_model.json"
    meta = json.loads(path.read_text())
    meta["keras"]["config"]["config"]["layers"][-1]["module"] = "os"
    path.write_text(json.dumps(meta))
    with pytest.raises(tf.errors.InvalidArgumentError, match="keras: the model config names classes that are not "
                                                             "Keras's own"):
        tf.saved_model.load(str(tmp_path))


def test_a_trained_conv_model_with_batch_norm_and_dropout(tmp_path):
    # channels-last convolutions record views the shape-only load check must accept; the optimizer's variables are
    # saved with the model, and inference (no dropout, moving statistics) is what the signature computes
    model = keras.Sequential([
        keras.Input((8, 8, 3)), keras.layers.Conv2D(4, 3, activation="relu"), keras.layers.BatchNormalization(),
        keras.layers.DepthwiseConv2D(3), keras.layers.ReLU(6.0), keras.layers.MaxPooling2D(), keras.layers.Flatten(),
        keras.layers.Dropout(0.5), keras.layers.Dense(3, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy")
    rng = np.random.default_rng(0)
    x, y = rng.random((16, 8, 8, 3), dtype=np.float32), rng.integers(0, 3, 16)
    model.fit(x, y, epochs=1, verbose=0)
    _, sig = _signature(model, tmp_path)
    for batch in (x[:1], x):
        np.testing.assert_allclose(sig(inputs=tf.constant(batch))["output_0"].numpy(), model(batch).numpy(),
                                   rtol=1e-5, atol=1e-7)
