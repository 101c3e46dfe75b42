"""Loss-object calls from the Keras guides corpus and Keras's docstrings, with Python-list arguments.

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras

PRED = [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]


@pytest.mark.parametrize("call, message", [
    # TF 2.21: LossFunctionWrapper maps over both arguments as nested structures (optree's messages)
    (lambda: keras.losses.SparseCategoricalCrossentropy()([1, 2], PRED),
     "^Structures don't have the same nested structure.$"),
    (lambda: keras.losses.SparseCategoricalCrossentropy()(np.array([1, 2]), PRED),
     "^Structures don't have the same nested structure.$"),
    (lambda: keras.losses.SparseCategoricalCrossentropy()([1, 2], np.array(PRED)),
     r"^Expected an instance of list, got <tf.Tensor: shape=\(2, 3\), dtype=float32, numpy=\n"),
    (lambda: keras.losses.BinaryCrossentropy()([[0., 1.]], [0.6, 0.4]),
     r"^list arity mismatch; expected: 1, got: 2; list: \[<tf.Tensor: shape=\(\), dtype=float32, "
     r"numpy=0.6000000238418579>, <tf.Tensor: shape=\(\), dtype=float32, numpy=0.4000000059604645>\].$"),
    (lambda: keras.losses.MeanSquaredError()([1.0, 2.0], (1.5, 2.5)),
     r"^Expected an instance of list, got \(<tf.Tensor: shape=\(\), dtype=float32, numpy=1.5>, "
     r"<tf.Tensor: shape=\(\), dtype=float32, numpy=2.5>\).$"),
    (lambda: keras.losses.MeanSquaredError()(tf.constant([1.0, 2.0]), [1.5, 2.5]),
     "^Structures don't have the same nested structure.$"),
])
def test_loss_structure_mismatch(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_loss_same_structure_lists():
    # TF 2.21
    np.testing.assert_allclose(float(keras.losses.SparseCategoricalCrossentropy()(np.array([1, 2]), np.array(PRED))),
                               1.1769390106201172, rtol=1e-6)
    np.testing.assert_allclose(float(keras.losses.CategoricalCrossentropy()([[0, 1, 0], [0, 0, 1]], PRED)),
                               1.1769390106201172, rtol=1e-6)
    np.testing.assert_allclose(float(keras.losses.BinaryCrossentropy()([0., 1.], [0.6, 0.4])), 0.9162909984588623,
                               rtol=1e-6)
    np.testing.assert_allclose(float(keras.losses.MeanSquaredError()([[0., 1.], [0., 0.]], [[1., 1.], [1., 0.]])),
                               0.5)
    np.testing.assert_allclose(float(keras.losses.MeanSquaredError()([[0., 1.], [0., 0.]], [[1., 1.], [1., 0.]],
                                                                      sample_weight=[0.5, 1.0])), 0.375)
