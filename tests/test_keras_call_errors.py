"""Keras 3 layer calls on inputs they do not fit, and calls on Python data, as TF 2.21 + Keras 3.15 raise and return."""

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


def test_kernel_error_escaping_a_layer_is_invalid_argument():
    lstm = keras.layers.LSTM(2)
    lstm(np.zeros((2, 5, 3), "float32"))
    # Keras: InvalidArgumentError from LSTMCell's MatMul ("Matrix size-incompatible"), with Keras's call context
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Exception encountered when calling LSTMCell\.call\(\)"):
        lstm(np.zeros((2, 5, 4), "float32"))


def test_user_runtime_error_keeps_its_class():
    class Boom(keras.layers.Layer):
        def call(self, x):
            raise RuntimeError("mine")
    with pytest.raises(RuntimeError) as info:
        Boom()(np.zeros((1, 2), "float32"))
    assert type(info.value) is RuntimeError
    assert str(info.value) == ("Exception encountered when calling Boom.call().\n\n\x1b[1mmine\x1b[0m\n\n"
                               "Arguments received by Boom.call():\n  • x=tf.Tensor(shape=(1, 2), dtype=float32)")


def test_sequential_call_info_lists_kwargs_as_keras_does():
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError) as info:
        m(np.zeros((2, 5), "float32"))
    assert str(info.value) == (
        "Exception encountered when calling Sequential.call().\n\n\x1b[1mInput 0 with name 'None' of layer 'dense' is "
        "incompatible with the layer: expected axis -1 of input shape to have value 4, but received input with shape "
        "(2, 5)\x1b[0m\n\nArguments received by Sequential.call():\n  • inputs=tf.Tensor(shape=(2, 5), dtype=float32)\n"
        "  • training=None\n  • mask=None\n  • kwargs=<class 'inspect._empty'>")


def test_call_info_formats_nested_arguments_and_key_errors_as_keras():
    class Pick(keras.layers.Layer):
        def call(self, x, names=("a",)):
            return {}["b"]
    with pytest.raises(KeyError) as info:
        Pick()(np.zeros((1,), "float32"), names=["a", "c"])
    # Keras: the message is `e.args[0]` (no repr quotes), arguments by str() of the mapped structure
    assert info.value.args[0] == ("Exception encountered when calling Pick.call().\n\n\x1b[1mb\x1b[0m\n\n"
                                  "Arguments received by Pick.call():\n"
                                  "  • x=tf.Tensor(shape=(1,), dtype=float32)\n  • names=[\"'a'\", \"'c'\"]")


def test_rejected_dense_units_use_no_name():
    for units in (np.int32(3), np.int64(3), 3.0, -1):
        with pytest.raises(ValueError, match=r"^Received an invalid value for `units`, expected a positive integer\. "
                                             rf"Received: units={units}$"):
            keras.layers.Dense(units=units)
    assert keras.layers.Dense(3).name == "dense"


@pytest.mark.parametrize("make, data, want, dtype", [
    (lambda: keras.layers.Rescaling(0.5), [1., 2.], [0.5, 1.], "float32"),
    (lambda: keras.layers.Discretization([0., 1.]), [0.5, 2.], [1, 2], "int32"),
    (lambda: keras.layers.IntegerLookup(vocabulary=[1, 2]), [1, 2], [1, 2], "int64"),
    (lambda: keras.layers.StringLookup(vocabulary=["a"]), ["a", "b"], [1, 0], "int64"),
    (lambda: keras.layers.TextVectorization(vocabulary=["a", "b"]), ["a b"], [[2, 3]], "int64"),
    (lambda: keras.layers.CategoryEncoding(3), [0, 1], [1., 1., 0.], "float32"),
    (lambda: keras.layers.CategoryEncoding(num_tokens=4, output_mode="one_hot"), [3, 2, 0, 1],
     np.eye(4)[[3, 2, 0, 1]], "float32"),
    (lambda: keras.layers.Resizing(2, 2), [[[[1.]]]], np.ones((1, 2, 2, 1)), "float32"),
])
def test_data_layers_take_python_lists(make, data, want, dtype):
    out = make()(data)
    assert out.dtype.name == dtype
    np.testing.assert_array_equal(out.numpy(), want)


def test_other_layers_reject_python_lists():
    with pytest.raises(ValueError, match=r"^Only input tensors may be passed as positional arguments\. The following "
                                         r"argument value should be passed as a keyword argument: 1\.0 \(of type "
                                         r"<class 'float'>\)$"):
        keras.layers.Dense(2)([[1., 2.]])


def test_legacy_h5_model_trains_only_after_recompiling(tmp_path):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d")])
    m.compile("adam", "mean_squared_error")
    m.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    m.save(tmp_path / "m.h5")
    m2 = keras.models.load_model(tmp_path / "m.h5")
    # Keras 3.15 builds the loaded optimizer over the model's own variables (none): fit needs a new compile
    assert int(m2.optimizer.iterations.numpy()) == 1 and len(m2.optimizer.variables) == 2
    with pytest.raises(ValueError, match=r"^Unknown variable: <Variable path=sequential/d/kernel, shape=\(3, 2\), dtype=float32"):
        m2.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    m2.compile("adam", "mean_squared_error")
    assert len(m2.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0).history["loss"]) == 1


@pytest.mark.parametrize("loss, error, message", [
    ("mse", ValueError, "Could not deserialize 'keras.metrics.mse' because it is not a KerasSaveable subclass"),
    ("bce", ValueError, "Could not deserialize 'keras.metrics.bce' because it is not a KerasSaveable subclass"),
    ("logcosh", TypeError, "string indices must be integers, not 'str'"),
])
def test_legacy_h5_loss_names_keras_cannot_load(tmp_path, loss, error, message):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="sigmoid")])
    m.compile("adam", loss)
    m.save(tmp_path / "m.h5")
    with pytest.raises(error) as info:
        keras.models.load_model(tmp_path / "m.h5")
    assert str(info.value) == message


def test_legacy_h5_metric_names_load_as_keras_metrics(tmp_path):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="sigmoid")])
    m.compile("adam", "binary_crossentropy", metrics=["mse", "auc", "precision", "bce", "accuracy"])
    m.save(tmp_path / "m.h5")
    got = keras.models.load_model(tmp_path / "m.h5").evaluate(np.ones((2, 3)), np.ones((2, 2)), verbose=0,
                                                              return_dict=True)
    assert sorted(got) == ["accuracy", "auc", "binary_crossentropy", "loss", "mean_squared_error", "precision"]


def test_losses_and_metrics_deserialize_names_as_keras():
    from tfcompat.keras import losses
    assert keras.losses.deserialize("mean_squared_error") is losses.mean_squared_error
    assert keras.losses.deserialize("huber") is losses.huber
    assert keras.losses.deserialize("logcosh") == "logcosh"
    with pytest.raises(ValueError, match=r"^Could not deserialize 'keras\.metrics\.MSE' because it is not a "
                                         r"KerasSaveable subclass$"):
        keras.losses.deserialize("MSE")
    for name, cls, metric_name in [("mse", "MeanSquaredError", "mean_squared_error"), ("auc", "AUC", "auc"),
                                   ("bce", "BinaryCrossentropy", "binary_crossentropy"),
                                   ("accuracy", "Accuracy", "accuracy")]:
        metric = keras.metrics.deserialize(name)
        assert (type(metric).__name__, metric.name) == (cls, metric_name)
    assert keras.metrics.deserialize("kld") == "kld"


def test_a_layer_with_its_own_compute_mask_supports_masking():
    import warnings

    class Drop(keras.layers.Layer):
        def call(self, x):
            return x * 2.0

        def compute_mask(self, x, mask=None):
            return None

    class Keep(keras.layers.Layer):
        def call(self, x):
            return x * 2.0

    class Any(keras.layers.Layer):
        def call(self, x):
            return x * 2.0

        def compute_mask(self, x, mask=None):
            return tf.reduce_any(mask, axis=-1, keepdims=True)
    x = keras.layers.Embedding(10, 2, mask_zero=True)(np.array([[1, 0, 2]]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert (Drop().supports_masking, Keep().supports_masking, Any().supports_masking) == (True, False, True)
        assert getattr(Drop()(x), "_keras_mask", None) is None
        np.testing.assert_array_equal(Any()(x)._keras_mask.numpy(), [[True]])
        assert not caught
        Keep()(x)          # Keras warns that the mask is destroyed
    assert [str(w.message)[:60] for w in caught] == ["Layer 'keep_1' (of type Keep) was passed an input with a mas"]


def test_recompiling_without_loss_or_metrics_keeps_them():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    m.compile("sgd", "mse", metrics=["mae"])
    m.compile(optimizer="adam")
    assert m.loss == "mse" and type(m.optimizer).__name__ == "Adam"
    assert m.evaluate(np.ones((2, 3)), np.zeros((2, 2)), verbose=0, return_dict=True) == {"loss": 9.0, "mae": 3.0}
    m.compile(optimizer="adam", metrics=["mse"])
    assert m.evaluate(np.ones((2, 3)), np.zeros((2, 2)), verbose=0, return_dict=True) == {"loss": 9.0, "mse": 9.0}
