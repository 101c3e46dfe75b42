"""`keras.applications.inception_resnet_v2`: InceptionResNetV2 as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_architecture
from keras_applications_checks import check_value_error
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("InceptionResNetV2", {"input_shape": (75, 75, 3), "include_top": False, "pooling": "avg"},
     ("inception_resnet_v2", 781, 54336736, 488, 408, (None, 1536), "aa7efba74f449a42"),
     15844090314752.0, [6363582464.0, 0.0, 0.0]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    # TF 2.21: with include_top=True, classes=10 at 75x75: 782 layers, 54,352,106 parameters
    check_architecture(lambda: getattr(apps, name)(weights=None, **kwargs), expected, y_sum, y_first)


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.InceptionResNetV2(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded."),
    (lambda: apps.InceptionResNetV2(classes=10),
     'If using `weights="imagenet"` with `include_top=True`, `classes` should be 1000. Received classes=10'),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_scaled_residual_layer_and_preprocessing():
    from tfcompat.keras.applications.inception_resnet_v2 import CustomScaleLayer     # not in tf.keras's names
    layer = CustomScaleLayer(0.5)
    out = layer([np.ones((1, 2), "float32"), np.full((1, 2), 4.0, "float32")])
    np.testing.assert_array_equal(np.asarray(out), [[3.0, 3.0]])
    assert layer.get_config()["scale"] == 0.5
    np.testing.assert_allclose(apps.inception_resnet_v2.preprocess_input(np.array([0.0, 127.5, 255.0], "float32")),
                               [-1.0, 0.0, 1.0])
