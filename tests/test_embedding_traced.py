"""Embedding in a traced step: no host read of the ids (fit replays it), TF's out-of-range error on a replay too."""
import warnings

import numpy as np
import pytest

import tfcompat as tf


def test_fit_of_an_embedding_model_replays_its_step():
    m = tf.keras.Sequential([tf.keras.Input((5,), dtype="int32"), tf.keras.layers.Embedding(20, 4),
                             tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(1)])
    m.compile(optimizer="sgd", loss="mse")
    x = np.arange(60, dtype=np.int32).reshape(12, 5) % 20
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # the eager fallback warns
        m.fit(x, np.ones((12, 1)), batch_size=4, epochs=2, verbose=0)


def test_out_of_range_and_negative_ids_in_a_replayed_function():
    e = tf.keras.layers.Embedding(10, 3)
    f = tf.function(lambda x: e(x))
    f(tf.constant([1, 2]))
    np.testing.assert_array_equal(f(tf.constant([3, -2])).numpy(), e(tf.constant([3, 8])).numpy())
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 12 is not in \[0, 10\)"):
        f(tf.constant([1, 12]))
