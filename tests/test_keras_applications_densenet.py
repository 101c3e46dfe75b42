"""`keras.applications.densenet`: DenseNet121/169/201 as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_architecture
from keras_applications_checks import check_value_error
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("DenseNet121", {"input_shape": (32, 32, 3), "classes": 10},
     ("densenet121", 429, 7047754, 364, 242, (None, 10), "d8d69112f03e3335"),
     1.9999998807907104, [0.0863356739282608, 0.11084426194429398, 0.074283167719841]),
    ("DenseNet169", {"input_shape": (32, 32, 3), "include_top": False, "pooling": "avg"},
     ("densenet169", 596, 12642880, 506, 338, (None, 1664), "0cc06f2446d515d7"),
     135.38931274414062, [0.10368078947067261, 0.062471263110637665, 0.0]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    check_architecture(lambda: getattr(apps, name)(weights=None, **kwargs), expected, y_sum, y_first)


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.DenseNet121(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded."),
    (lambda: apps.DenseNet201(classes=10),
     'If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000'),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_preprocess_input():
    # TF 2.21
    x = np.array([[[0.0, 127.5, 255.0]]], "float32")
    np.testing.assert_allclose(apps.densenet.preprocess_input(x.copy()), [[[-2.1179039478302, 0.1964285671710968, 2.640000104904175]]], rtol=1e-6)
    assert apps.densenet.decode_predictions is apps.imagenet_utils.decode_predictions


def test_channels_first_is_refused():
    # TF 2.21
    keras.config.set_image_data_format("channels_first")
    try:
        with pytest.raises(ValueError, match="^DenseNet does not support the `channels_first` image data format. "
                                             "Switch to `channels_last` by editing your local config file at "
                                             "~/.keras/keras.json$"):
            apps.DenseNet121(weights=None)
    finally:
        keras.config.set_image_data_format("channels_last")
