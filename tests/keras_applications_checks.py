"""Shared checks of the keras.applications tests: a model's structure fingerprint and its output for seeded
weights (the values the tests hold were recorded from Keras 3.15.1 with TF 2.21 by the same two functions)."""
import hashlib
import json

import numpy as np
import pytest


def signature(model):
    """What Keras 3.15.1 built, hashed: each layer's name, class, weight shapes and output shape."""
    sig = [(layer.name, type(layer).__name__, [tuple(w.shape) for w in layer.weights]) for layer in model.layers]
    shapes = [str(layer.output.shape) for layer in model.layers]
    return hashlib.sha256(json.dumps([sig, shapes]).encode()).hexdigest()[:16]


def fixed_weights_output(model):
    """The model's output on a fixed input once every weight, in `model.weights` order, has a seeded value."""
    rng = np.random.default_rng(3)
    for w in model.weights:
        w.assign(rng.uniform(0.5, 1.5, w.shape).astype("float32") if "variance" in w.path else
                 rng.normal(0, 0.1, w.shape).astype("float32"))
    x = np.random.default_rng(0).uniform(0, 255, (2,) + tuple(model.input_shape[1:])).astype("float32")
    return np.asarray(model.predict(x, verbose=0))


def check_architecture(build, expected, y_sum, y_first):
    """`build()`'s model against Keras's record: (name, layer count, parameters, trainable and non-trainable weight
    counts, output shape, signature) and its seeded output's absolute sum and first three values."""
    model = build()
    assert (model.name, len(model.layers), model.count_params(), len(model.trainable_weights),
            len(model.non_trainable_weights), model.output_shape, signature(model)) == expected
    y = fixed_weights_output(model)
    np.testing.assert_allclose(np.abs(y).sum(), y_sum, rtol=1e-4)
    np.testing.assert_allclose(y.ravel()[:3], y_first, rtol=1e-4, atol=1e-6 * np.abs(y).max())


def check_value_error(call, message):
    """`call()` raises ValueError with exactly Keras's `message`."""
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message
