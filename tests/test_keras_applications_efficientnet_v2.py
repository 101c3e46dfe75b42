"""`keras.applications.efficientnet_v2`: EfficientNetV2B0..B3, S, M, L as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_architecture
from keras_applications_checks import check_value_error
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("EfficientNetV2B0", {"input_shape": (32, 32, 3), "classes": 10},
     ("efficientnetv2-b0", 273, 5932122, 243, 118, (None, 10), "8699f5de11f92f12"),
     2.0, [0.11267819255590439, 0.10741826891899109, 0.1078060120344162]),
    ("EfficientNetV2B2", {"input_shape": (32, 32, 3), "include_top": False, "pooling": "max",
                          "include_preprocessing": False},
     ("efficientnetv2-b2", 348, 8769374, 308, 152, (None, 1408), "5a6b2a66924f72f2"),
     128.96482849121094, [-0.020658493041992188, 0.09082213044166565, 0.0014293671119958162]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    # TF 2.21: EfficientNetV2S(weights=None, include_top=False, input_shape=(32, 32, 3)) is 513 layers, 20,331,360
    # parameters, fingerprint 5c26e7230732689e (as here; too slow for the suite)
    check_architecture(lambda: getattr(apps, name)(weights=None, **kwargs), expected, y_sum, y_first)


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.EfficientNetV2B0(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded.Received: weights=nope"),
    (lambda: apps.EfficientNetV2M(classes=10),
     'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000'),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_blocks_are_found_by_the_model_name():
    # TF 2.21: Keras looks the block table up by `name`, so another name fails with KeyError('foo')
    with pytest.raises(KeyError, match="foo"):
        apps.EfficientNetV2B0(weights=None, name="foo")


def test_imagenet_file(tmp_path, monkeypatch):
    from tfcompat.keras.datasets import _download
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def offline(origin, target):
        raise OSError("offline")
    monkeypatch.setattr(_download, "_fetch", offline)
    with pytest.raises(_download.DownloadError) as e:
        apps.EfficientNetV2B0(input_shape=(32, 32, 3), include_top=False)
    assert str(e.value).startswith("URL fetch failure on https://storage.googleapis.com/tensorflow/keras-applications/"
                                   "efficientnet_v2/efficientnetv2-b0_notop.h5")


def test_preprocess_input_passes_through():
    x = np.array([1.0, 2.0])
    assert apps.efficientnet_v2.preprocess_input(x) is x
