"""keras.utils, keras.backend, keras.random, keras.mixed_precision, keras.preprocessing (Keras 3.15 values)."""
import random

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import keras


def test_to_categorical():
    r = keras.utils.to_categorical([0, 2, 1], 3)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64
    assert r.tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    t = keras.utils.to_categorical(tf.constant([0, 2]), 3)
    assert isinstance(t, tf.Tensor) and t.dtype == tf.float32 and t.numpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert keras.utils.to_categorical(np.array([[1], [0]])).shape == (2, 2)


def test_normalize():
    assert keras.utils.normalize(np.array([[3., 4.], [0, 0]])).tolist() == [[0.6, 0.8], [0.0, 0.0]]
    assert keras.utils.normalize(np.array([[3., 4.]], 'float32')).dtype == np.float32


def test_pad_sequences():
    p = keras.utils.pad_sequences([[1, 2, 3], [4], [5, 6]], maxlen=2)
    assert p.tolist() == [[2, 3], [0, 4], [5, 6]] and p.dtype == np.int32
    assert keras.utils.pad_sequences([[1, 2, 3], [4]], padding="post", truncating="post", value=-1).tolist() == \
        [[1, 2, 3], [4, -1, -1]]
    assert keras.utils.pad_sequences([[1.5], [2]], dtype="float32").tolist() == [[1.5], [2.0]]
    assert keras.preprocessing.sequence.pad_sequences([[1]], maxlen=3).tolist() == [[0, 0, 1]]


def test_set_random_seed_seeds_everything():
    keras.utils.set_random_seed(7)
    a = (random.random(), np.random.rand(), tf.random.uniform(()).numpy(), keras.layers.Dense(2))
    a[3].build((None, 2))
    keras.utils.set_random_seed(7)
    b = (random.random(), np.random.rand(), tf.random.uniform(()).numpy(), keras.layers.Dense(2))
    b[3].build((None, 2))
    assert a[:3] == b[:3]
    np.testing.assert_array_equal(a[3].kernel.numpy(), b[3].kernel.numpy())


def test_register_and_deserialize():
    @keras.utils.register_keras_serializable(package="MyPkg")
    class Scale(keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    assert keras.utils.get_registered_object("MyPkg>Scale") is Scale
    config = keras.utils.serialize_keras_object(Scale(3.0, name="s"))
    assert config["registered_name"] == "MyPkg>Scale" and config["config"]["factor"] == 3.0
    layer = keras.utils.deserialize_keras_object(config)
    assert isinstance(layer, Scale) and layer.factor == 3.0 and layer.name == "s"
    dense = keras.utils.deserialize_keras_object(keras.utils.serialize_keras_object(keras.layers.Dense(4)))
    assert type(dense) is keras.layers.Dense and dense.units == 4


def test_backend_config():
    assert (keras.backend.floatx(), keras.backend.epsilon(), keras.backend.image_data_format(),
            keras.backend.backend()) == ("float32", 1e-07, "channels_last", "tensorflow")
    with pytest.raises(ValueError, match="Unknown `floatx` value: int32"):
        keras.backend.set_floatx("int32")
    try:
        keras.backend.set_floatx("float64")
        assert keras.layers.Dense(2).dtype == "float64"
        assert repr(keras.mixed_precision.global_policy()) == '<DTypePolicy "float64">'
    finally:
        keras.backend.set_floatx("float32")
        keras.backend.clear_session()


def test_mixed_precision_policy():
    try:
        keras.mixed_precision.set_global_policy("mixed_float16")
        d = keras.layers.Dense(2)
        assert repr(d.dtype_policy) == '<DTypePolicy "mixed_float16">' and d.compute_dtype == "float16"
        assert d.variable_dtype == "float32"
        keras.backend.clear_session()
        assert repr(keras.mixed_precision.global_policy()) == '<DTypePolicy "float32">'
        p = keras.mixed_precision.Policy("mixed_bfloat16")
        assert (p.name, p.compute_dtype, p.variable_dtype) == ("mixed_bfloat16", "bfloat16", "float32")
        with pytest.raises(ValueError, match="Cannot convert 'foo' to a mixed precision DTypePolicy"):
            keras.mixed_precision.set_global_policy("foo")
    finally:
        keras.mixed_precision.set_global_policy("float32")


def test_random_seeded_and_generators():
    a = keras.random.normal((3,), seed=1).numpy()
    assert np.array_equal(a, keras.random.normal((3,), seed=1).numpy())
    gen = keras.random.SeedGenerator(1)
    assert gen.state.path == "seed_generator/seed_generator_state" and gen.state.numpy().tolist() == [1, 0]
    x, y = keras.random.uniform((4,), seed=gen).numpy(), keras.random.uniform((4,), seed=gen).numpy()
    assert not np.array_equal(x, y) and gen.state.numpy().tolist() == [1, 2]
    assert keras.random.randint((100,), 0, 3, seed=2).dtype == tf.int32
    assert keras.random.truncated_normal((1000,), seed=1).numpy().max() <= 2.0
    assert keras.random.categorical(tf.constant([[0.0, 20.0]]), 4, seed=1).numpy().tolist() == [[1, 1, 1, 1]]
    assert sorted(keras.random.shuffle(tf.range(5), seed=2).numpy().tolist()) == [0, 1, 2, 3, 4]
    d = keras.random.dropout(tf.ones((1000,)), 0.5, seed=3).numpy()
    assert set(np.unique(d).tolist()) == {0.0, 2.0}
    u = keras.random.uniform((10000,), minval=2.0, maxval=3.0, seed=4).numpy()
    assert u.min() >= 2.0 and u.max() < 3.0 and u.dtype == np.float32


def test_utils_names_tf_keras_exports():
    u = tf.keras.utils
    assert u.pack_x_y_sample_weight(1, 2) == (1, 2) and u.pack_x_y_sample_weight(1) == 1
    assert u.pack_x_y_sample_weight((1,)) == ((1,),) and u.pack_x_y_sample_weight(1, 2, 3) == (1, 2, 3)
    assert u.unpack_x_y_sample_weight((1, 2)) == (1, 2, None) and u.unpack_x_y_sample_weight(1) == (1, None, None)
    assert u.custom_object_scope is u.CustomObjectScope and u.is_interactive_logging_enabled() is True
    assert u.standardize_dtype(float) == "float32" and u.is_keras_tensor(tf.keras.Input((2,)))
    with pytest.raises(ValueError, match=r"^Invalid dtype: float$"):
        u.standardize_dtype("float")
    assert u.Progbar.__module__ == "tfcompat.keras.utils_progbar"       # Keras's progress bar, not a stub
    for name in ("image_dataset_from_directory", "text_dataset_from_directory", "timeseries_dataset_from_array"):
        assert getattr(tf.keras.preprocessing, name) is getattr(u, name)
    m = tf.keras.metrics
    assert [getattr(m, n).__name__ for n in ("MSE", "MAE", "MAPE", "MSLE", "KLD", "kld", "logcosh",
                                             "kullback_leibler_divergence", "huber")] == [
        "mean_squared_error", "mean_absolute_error", "mean_absolute_percentage_error",
        "mean_squared_logarithmic_error", "kl_divergence", "kl_divergence", "log_cosh", "kl_divergence", "huber"]
