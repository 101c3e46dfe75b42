"""`keras.applications.mobilenet_v3`: MobileNetV3Small/Large as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import warnings

import numpy as np
import pytest

from keras_applications_checks import check_architecture
from keras_applications_checks import check_value_error
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("MobileNetV3Small", {"input_shape": (32, 32, 3), "classes": 10},
     ("MobileNetV3Small", 164, 1540218, 142, 68, (None, 10), "20c0fe9c968022f2"),
     1.999999761581421, [0.09556524455547333, 0.08369196951389313, 0.11029289662837982]),
    ("MobileNetV3Small", {"input_shape": (40, 40, 3), "include_top": False, "pooling": "max", "minimalistic": True},
     ("MobileNetV3Small", 104, 441000, 102, 68, (None, 576), "b53d96b2f47a3654"),
     45.574317932128906, [0.043783605098724365, 1.9218772649765015e-05, 0.0034323297441005707]),
    ("MobileNetV3Large", {"input_shape": (64, 64, 3), "include_top": False, "pooling": "avg", "alpha": 0.75},
     ("MobileNetV3Large", 188, 1808736, 170, 92, (None, 720), "7bf746949ca30c43"),
     55.783782958984375, [-0.01492178626358509, -0.0663110688328743, 0.005501953884959221]),
    ("MobileNetV3Large", {"input_shape": (32, 32, 3), "alpha": 1.25, "classes": 5, "classifier_activation": None,
                          "include_preprocessing": False},
     ("MobileNetV3Large", 192, 6693765, 174, 92, (None, 5), "b715757571d34204"),
     2.0590524673461914, [-0.545603334903717, 0.3587072491645813, 0.04364166408777237]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    check_architecture(lambda: getattr(apps, name)(weights=None, **kwargs), expected, y_sum, y_first)


_ALPHA = ("If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for non minimalistic or `1.0` for "
          "minimalistic only.")


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.MobileNetV3Small(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded.  Received weights=nope"),
    (lambda: apps.MobileNetV3Small(classes=10),
     'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000.  Received classes=10'),
    (lambda: apps.MobileNetV3Large(weights=None, input_shape=(31, 64, 3)),
     "Input size must be at least 32x32; Received `input_shape=(31, 64, 3)`"),
    (lambda: apps.MobileNetV3Large(alpha=0.5), _ALPHA),
    (lambda: apps.MobileNetV3Large(alpha=0.75, minimalistic=True), _ALPHA),
    (lambda: apps.MobileNetV3Small(weights=None, input_shape=(64, 64, 3), input_tensor=keras.Input((64, 48, 3))),
     "input_shape[1] must equal input_tensor.shape[2].  Received input_shape=(64, 64, 3), "
     "input_tensor.shape=(None, 64, 48, 3)"),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_imagenet_file_and_warning(tmp_path, monkeypatch):
    from tfcompat.keras.datasets import _download
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def offline(origin, target):
        raise OSError("offline")
    monkeypatch.setattr(_download, "_fetch", offline)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(_download.DownloadError) as e:
            apps.MobileNetV3Small(input_shape=(64, 64, 3), include_top=False)
    # TF 2.21
    assert str(e.value).startswith("URL fetch failure on https://storage.googleapis.com/tensorflow/keras-applications/"
                                   "mobilenet_v3/weights_mobilenet_v3_small_224_1.0_float_no_top_v2.h5")
    assert [str(w.message) for w in caught] == ["`input_shape` is undefined or non-square, or `rows` is not 224. "
                                                "Weights for input shape (224, 224) will be loaded as the default."]


def test_preprocess_input_passes_through():
    x = np.array([1.0, 2.0])
    assert apps.mobilenet_v3.preprocess_input(x) is x
