"""Model structure cases from the Keras guides corpus (sequential_model, transfer_learning, subclassing).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np

import tfcompat as tf

keras = tf.keras


def test_sequential_config_build_input_shape():
    s = keras.Sequential([keras.layers.Dense(2)])
    assert "build_input_shape" not in s.get_config()
    s(np.ones((3, 5), "float32"))
    c = s.get_config()
    # TF 2.21
    assert c["build_input_shape"] == (3, 5)
    assert [la["class_name"] for la in c["layers"]] == ["InputLayer", "Dense"]
    s2 = keras.Sequential([keras.layers.Dense(2)])
    s2.build((None, 7))
    assert s2.get_config()["build_input_shape"] == (None, 7)
    s3 = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    assert sorted(k for k in s3.get_config() if k != "layers") == ["build_input_shape", "dtype", "name", "trainable"]
    assert s3.get_config()["build_input_shape"] == (None, 4)
    assert "build_input_shape" not in keras.Sequential([keras.Input((4,))]).get_config()
    assert keras.models.clone_model(s3).get_config()["build_input_shape"] == (None, 4)
    r = keras.Sequential.from_config(s3.get_config())
    assert r.built and tuple(r.layers[0].kernel.shape) == (4, 2)
