"""Keras losses on the mistakes training scripts make: texts recorded from TF 2.21 (tensorflow-cpu 2.21, keras
3.15.1)."""
import numpy as np
import pytest

import tfcompat as tf

X = (np.arange(12).reshape(3, 4) % 5).astype("float32")
LABELS = np.array([0, 2, 1])


def test_categorical_crossentropy_on_integer_labels():
    m = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, activation="softmax")])
    probs = m.predict(X, verbose=0)
    message = ("Arguments `target` and `output` must have the same rank (ndim). Received: target.shape=(3,), "
               "output.shape=(3, 3)")       # TF 2.21
    for call in (lambda: tf.keras.losses.categorical_crossentropy(LABELS, probs),
                 lambda: tf.keras.losses.CategoricalCrossentropy()(LABELS, probs),
                 lambda: tf.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)(LABELS, probs)):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == message
    m.compile("sgd", "categorical_crossentropy")
    with pytest.raises(ValueError, match=r"must have the same rank \(ndim\)"):
        m.fit(X, LABELS, verbose=0)
