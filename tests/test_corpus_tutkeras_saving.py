"""Saving and loading cases from the TF tutorials corpus (keras/regression, keras/save_and_load).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras

X = np.array([[1., 2., 3.], [4., 6., 8.], [0., -1., 5.], [2., 2., 2.]], "float32")
# TF 2.21
MEAN = [[1.75, 2.25, 4.5]]
VARIANCE = [[2.1875, 6.1875, 5.25]]
OUT = [[-1.2622499465942383], [4.55635929107666], [-2.271547317504883], [-1.0225622653961182]]


def _adapted_model():
    n = keras.layers.Normalization(axis=-1)
    n.adapt(X)
    return keras.Sequential([keras.Input((3,)), n, keras.layers.Dense(1, kernel_initializer="ones")])


@pytest.mark.parametrize("how", ["keras_file", "weights_file"])
def test_adapted_normalization_statistics_survive_loading(tmp_path, how):
    model = _adapted_model()
    if how == "keras_file":
        model.save(str(tmp_path / "m.keras"))
        loaded = keras.models.load_model(str(tmp_path / "m.keras"))
    else:
        model.save_weights(str(tmp_path / "w.weights.h5"))
        loaded = keras.Sequential([keras.Input((3,)), keras.layers.Normalization(),
                                   keras.layers.Dense(1, kernel_initializer="ones")])
        loaded.load_weights(str(tmp_path / "w.weights.h5"))
    np.testing.assert_allclose(loaded.layers[0].mean.numpy(), MEAN, rtol=1e-6)
    np.testing.assert_allclose(loaded.layers[0].variance.numpy(), VARIANCE, rtol=1e-6)
    np.testing.assert_allclose(loaded(X).numpy(), OUT, rtol=1e-5)


class _Sub(keras.Model):
    def __init__(self):
        super().__init__()
        self.d = keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones")

    def call(self, inputs):
        return self.d(inputs)


def test_saved_model_of_a_subclassed_keras_model_loads_without_its_class(tmp_path):
    # tutorials/distribute/save_and_load: tf.saved_model.load never needs the user's Python class
    x = np.arange(8, dtype="float32").reshape(2, 4)
    model = _Sub()
    model(x)
    tf.saved_model.save(model, str(tmp_path / "sub"))
    loaded = tf.saved_model.load(str(tmp_path / "sub"))
    assert list(loaded.signatures.keys()) == ["serving_default"]
    out = loaded.signatures["serving_default"](inputs=tf.constant(x))
    assert list(out) == ["output_0"]
    np.testing.assert_array_equal(out["output_0"].numpy(), [[7., 7., 7.], [23., 23., 23.]])  # TF 2.21
