"""Keras losses as the TF tutorials hit them: a regression loss given labels of the wrong shape raises TF's Sub error
(tutorials/keras: a model fitted with "mse" on class labels).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers


@pytest.mark.parametrize("loss, message", [
    (tf.keras.losses.MeanSquaredError(), "Incompatible shapes: [8,3] vs. [8,10]"),
    (tf.keras.losses.MAE, "Incompatible shapes: [8,3] vs. [8,10]"),
    (tf.keras.losses.Huber(), "Incompatible shapes: [8,10] vs. [8,3]"),
    (tf.keras.losses.MeanSquaredLogarithmicError(), "Incompatible shapes: [8,10] vs. [8,3]"),
])
def test_regression_losses_of_unbroadcastable_shapes_raise_tfs_error(loss, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:     # TF 2.21: Sub's error, no torch RuntimeError
        loss(np.zeros((8, 3)), np.ones((8, 10)))
    assert message in str(info.value) and "[Op:Sub]" in str(info.value)


def test_fit_with_unbroadcastable_loss_shapes_raises_invalid_argument():
    m = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), L.Flatten(), L.Dense(10)])
    m.compile(optimizer="adam", loss="mse")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[8\] vs. \[8,10\]"):
        m.evaluate(np.zeros((8, 8, 8, 1), "float32"), np.zeros((8,), "int64"), verbose=0)     # TF 2.21
