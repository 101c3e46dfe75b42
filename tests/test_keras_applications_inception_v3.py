"""`keras.applications.inception_v3`: InceptionV3 as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_architecture
from keras_applications_checks import check_value_error
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("InceptionV3", {"input_shape": (75, 75, 3), "classes": 10},
     ("inception_v3", 313, 21823274, 190, 188, (None, 10), "3111f1c80e3e8b51"), 2.0, [0.0, 0.0, 0.0]),
    ("InceptionV3", {"input_shape": (80, 96, 3), "include_top": False, "pooling": "max"},
     ("inception_v3", 312, 21802784, 188, 188, (None, 2048), "0251ebde0dbe3483"),
     83473687642112.0, [0.0, 108710526976.0, 59825037312.0]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    check_architecture(lambda: getattr(apps, name)(weights=None, **kwargs), expected, y_sum, y_first)


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.InceptionV3(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded; Received: weights=nope"),
    (lambda: apps.InceptionV3(classes=10),
     'If using `weights="imagenet"` with `include_top=True`, `classes` should be 1000. Received classes=10'),
    (lambda: apps.InceptionV3(weights=None, include_top=False, input_shape=(74, 74, 3)),
     "Input size must be at least 75x75; Received: input_shape=(74, 74, 3)"),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_preprocess_input():
    # TF 2.21
    x = np.array([[[0.0, 127.5, 255.0]]], "float32")
    np.testing.assert_allclose(apps.inception_v3.preprocess_input(x.copy()), [[[-1.0, 0.0, 1.0]]], rtol=1e-6)
    assert apps.inception_v3.decode_predictions is apps.imagenet_utils.decode_predictions
