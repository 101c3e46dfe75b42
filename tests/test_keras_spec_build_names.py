"""fit's symbolic build of an unbuilt subclassed model names only the data spec's input KerasTensors, as Keras (whose
build runs the call on backend placeholders): later auto-names stay Keras's. Counts recorded from TF 2.21."""
import numpy as np

import tfcompat as tf
from tfcompat.keras._config import config


def _count():
    return config.uids.get("keras_tensor", 0)


class _DictModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.seq = tf.keras.Sequential([tf.keras.layers.Dense(10, activation="relu"), tf.keras.layers.Dense(1)])
        self.concat = tf.keras.layers.Concatenate(axis=1)

    def call(self, inputs):
        return self.seq(self.concat([v for _, v in sorted(inputs.items())]))


def test_fit_of_a_subclassed_model_names_only_its_input_keras_tensors():
    config.uids.pop("keras_tensor", None)
    d = {k: np.random.rand(20, 1).astype("float32") for k in "abcde"}
    m = _DictModel()
    m.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), run_eagerly=True)
    m.fit(d, np.random.randint(0, 2, (20, 1)), epochs=1, batch_size=5, verbose=0)
    assert _count() == 5
    s = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    s(np.zeros((2, 4), "float32"))
    assert _count() == 8
    s2 = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    s2.compile("sgd", "mse")
    s2.fit(np.zeros((4, 4)), np.zeros((4, 1)), verbose=0)
    assert _count() == 11
