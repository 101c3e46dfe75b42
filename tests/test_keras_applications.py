"""`keras.applications`: architectures, argument checks, preprocessing and weight files as Keras 3.15.1
(signatures and texts recorded from Keras 3.15.1 with TF 2.21)."""
import hashlib
import json
import os
import warnings

import h5py
import numpy as np
import pytest

from tfcompat import keras

apps = keras.applications


def _signature(model):
    """What Keras 3.15.1 built, hashed: each layer's name, class, weight shapes and output shape."""
    sig = [(layer.name, type(layer).__name__, [tuple(w.shape) for w in layer.weights]) for layer in model.layers]
    shapes = [str(layer.output.shape) for layer in model.layers]
    return hashlib.sha256(json.dumps([sig, shapes]).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name, kwargs, expected", [
    ("VGG16", {"include_top": False, "input_shape": (32, 32, 3), "pooling": "max"},
     ("vgg16", 20, 14714688, 26, 0, (None, 512), "ab6d689699ee7444")),
    ("VGG19", {"include_top": False, "input_shape": (32, 32, 3)},
     ("vgg19", 22, 20024384, 32, 0, (None, 1, 1, 512), "6635798719b43f70")),
    ("ResNet50", {"include_top": False, "input_shape": (32, 32, 3), "pooling": "avg"},
     ("resnet50", 176, 23587712, 212, 106, (None, 2048), "39db3d55801a2a6a")),
    ("ResNet50V2", {"classes": 10, "input_shape": (32, 32, 3)},
     ("resnet50v2", 192, 23585290, 174, 98, (None, 10), "4f2ad825b41a1dcf")),
    ("Xception", {"include_top": False, "input_shape": (71, 71, 3)},
     ("xception", 132, 20861480, 154, 80, (None, 3, 3, 2048), "c54e8386d4d0e886")),
    ("MobileNetV2", {"alpha": 0.35, "input_shape": (96, 96, 3), "include_top": False, "pooling": "avg"},
     ("mobilenetv2_0.35_96", 155, 410208, 156, 104, (None, 1280), "c86b2cb4788eeedd")),
    ("MobileNetV2", {"alpha": 1.4, "classes": 7, "input_shape": (32, 32, 3)},
     ("mobilenetv2_1.40_32", 156, 4376263, 158, 104, (None, 7), "888fe58970f805bd")),
    ("MobileNet", {"alpha": 0.25, "input_shape": (32, 32, 3), "include_top": False, "pooling": "max"},
     ("mobilenet_0.25_32", 87, 218544, 81, 54, (None, 256), "d7fae08fd87d4a3e")),
    ("MobileNet", {"alpha": 0.5, "classes": 7, "input_shape": (64, 64, 3), "depth_multiplier": 2},
     ("mobilenet_0.50_64", 91, 1650263, 83, 54, (None, 7), "4eae1594c1c62016")),
    ("MobileNet", {"input_shape": (128, 128, 3), "include_top": False},
     ("mobilenet_1.00_128", 86, 3228864, 81, 54, (None, 4, 4, 1024), "f12a1843954386f2")),
])
def test_architectures_match_keras(name, kwargs, expected):
    # Keras 3.15.1 builds, with weights=None, the models of the keras.io guides: VGG19() has 143,667,240
    # parameters, ResNet50() 25,636,712, Xception() 22,910,480, MobileNetV2() 3,538,984, MobileNet() 4,253,864
    # (as here; too slow to build in the suite, so smaller inputs are pinned)
    model = getattr(apps, name)(weights=None, **kwargs)
    assert (model.name, len(model.layers), model.count_params(), len(model.trainable_weights),
            len(model.non_trainable_weights), model.output_shape, _signature(model)) == expected


def test_input_tensor_builds_from_its_source_input():
    inputs = keras.Input((64, 64, 3))
    x = keras.layers.Rescaling(1 / 255.0)(inputs)
    model = apps.MobileNetV2(weights=None, include_top=False, input_tensor=x)
    assert (model.name, model.input_shape, len(model.layers), model.layers[1].name) == \
        ("mobilenetv2_1.00_None", (None, 64, 64, 3), 155, "rescaling")


def test_preprocess_input_modes():
    x = np.array([[[[0.0, 127.5, 255.0], [10.0, 20.0, 30.0]]]], dtype="float32")
    expected = {
        "caffe": [[[[151.061, 10.721, -123.68], [-73.939, -96.779, -113.68]]]],
        "tf": [[[[-1.0, 0.0, 1.0], [-0.9215686321258545, -0.843137264251709, -0.7647058963775635]]]],
        "torch": [[[[-2.1179039478302, 0.1964285671710968, 2.640000104904175],
                    [-1.9466564655303955, -1.6855741739273071, -1.2815686464309692]]]],
    }
    for mode, values in expected.items():
        np.testing.assert_allclose(apps.imagenet_utils.preprocess_input(x.copy(), mode=mode), values, rtol=1e-6)
        tensor = apps.imagenet_utils.preprocess_input(keras.ops.convert_to_tensor(x), mode=mode)
        np.testing.assert_allclose(np.asarray(tensor), values, rtol=1e-6)
    first = apps.imagenet_utils.preprocess_input(x.transpose(0, 3, 1, 2).copy(), data_format="channels_first")
    np.testing.assert_allclose(first, [[[[151.061, -73.939]], [[10.721, -96.779]], [[-123.68, -113.68]]]], rtol=1e-6)
    out = apps.vgg16.preprocess_input(np.array([[[1, 2, 3]]], dtype="uint8"))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[[-100.939, -114.779, -122.68]]], rtol=1e-6)
    np.testing.assert_array_equal(apps.xception.preprocess_input(np.array([255.0, 0.0, 0.0], "float32")),
                                  [1.0, -1.0, -1.0])


@pytest.mark.parametrize("call, message", [
    (lambda: apps.imagenet_utils.preprocess_input(np.zeros((1, 3)), mode="x"),
     "Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode=x"),
    (lambda: apps.imagenet_utils.preprocess_input(np.zeros((1, 3)), data_format="nhwc"),
     "Expected data_format to be one of `channels_first` or `channels_last`. Received: data_format=nhwc"),
    (lambda: apps.imagenet_utils.decode_predictions(np.zeros((2, 10))),
     "`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape (samples, 1000)). Received "
     "array with shape: (2, 10)"),
    (lambda: apps.ResNet50(weights="nope.h5"),
     "The `weights` argument should be either `None` (random initialization), 'imagenet' (pre-training on "
     "ImageNet), or the path to the weights file to be loaded.  Received: weights=nope.h5"),
    (lambda: apps.ResNet50(weights="imagenet", classes=10),
     "If using `weights='imagenet'` with `include_top=True`, `classes` should be 1000.  Received classes=10"),
    (lambda: apps.ResNet50(weights=None, input_shape=(20, 20, 3), include_top=False),
     "Input size must be at least 32x32; Received: input_shape=(20, 20, 3)"),
    (lambda: apps.ResNet50(weights=None, input_shape=(64, 64)), "`input_shape` must be a tuple of three integers."),
    (lambda: apps.Xception(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), 'imagenet' (pre-training on "
     "ImageNet), or the path to the weights file to be loaded."),
    (lambda: apps.MobileNet(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), 'imagenet' (pre-training on "
     "ImageNet), or the path to the weights file to be loaded. Received weights=nope"),
    (lambda: apps.MobileNet(weights="imagenet", depth_multiplier=2),
     "If imagenet weights are being loaded, depth multiplier must be 1.  Received depth_multiplier=2"),
    (lambda: apps.MobileNet(weights="imagenet", alpha=0.3),
     "If imagenet weights are being loaded, alpha can be one of`0.25`, `0.50`, `0.75` or `1.0` only.  "
     "Received alpha=0.3"),
    (lambda: apps.VGG16(weights="imagenet", input_shape=(100, 100, 3)),
     "When setting `include_top=True` and loading `imagenet` weights, `input_shape` should be (224, 224, 3).  "
     "Received: input_shape=(100, 100, 3)"),
])
def test_errors(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == message


def test_unusual_channel_count_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        apps.VGG16(weights=None, include_top=False, input_shape=(64, 64, 5))
    assert [str(w.message) for w in caught] == ["This model usually expects 1 or 3 input channels. However, it was "
                                                "passed an input_shape with 5 input channels."]


def _write_keras2_weights(model, path):
    """The layout of Keras's ImageNet weight files: `layer_names`, then per layer `weight_names` and datasets."""
    with h5py.File(path, "w") as f:
        f.attrs["layer_names"] = np.array([layer.name.encode() for layer in model.layers])
        f.attrs["backend"] = b"tensorflow"
        f.attrs["keras_version"] = b"2.2.4"
        for layer in model.layers:
            group = f.create_group(layer.name)
            names = [f"{layer.name}/{w.name}:0" for w in layer.weights]
            group.attrs["weight_names"] = np.array([n.encode() for n in names])
            for name, w in zip(names, layer.weights):
                group.create_dataset(name, data=w.numpy())


def test_weights_from_a_file_and_from_the_keras_cache(tmp_path, monkeypatch):
    kwargs = {"alpha": 0.35, "include_top": False, "input_shape": (32, 32, 3), "pooling": "avg"}
    source = apps.MobileNetV2(weights=None, **kwargs)
    rng = np.random.default_rng(3)
    for w in source.weights:
        w.assign(rng.uniform(0.5, 1.5, w.shape).astype("float32") if "variance" in w.name else
                 rng.normal(0, 0.1, w.shape).astype("float32"))
    path = str(tmp_path / "weights.h5")
    _write_keras2_weights(source, path)
    x = apps.mobilenet_v2.preprocess_input(rng.uniform(0, 255, (2, 32, 32, 3)).astype("float32"))
    expected = source.predict(x, verbose=0)
    np.testing.assert_allclose(apps.MobileNetV2(weights=path, **kwargs).predict(x, verbose=0), expected, atol=1e-6)
    home = tmp_path / "keras_home"
    os.makedirs(home / "models")
    # 32x32 has no ImageNet file of its own: Keras warns and takes the 224x224 one
    os.replace(path, home / "models" / "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_224_no_top.h5")
    monkeypatch.setenv("KERAS_HOME", str(home))
    with pytest.warns(UserWarning, match="^`input_shape` is undefined or non-square, or `rows` is not in \\[96, 128, "
                                         "160, 192, 224\\]. Weights for input shape \\(224, 224\\) will be loaded as "
                                         "the default.$"):
        model = apps.MobileNetV2(weights="imagenet", **kwargs)
    assert model.name == "mobilenetv2_0.35_224"
    np.testing.assert_allclose(model.predict(x, verbose=0), expected, atol=1e-6)


def test_missing_imagenet_weights_say_where_to_put_them(tmp_path, monkeypatch):
    from tfcompat.keras.datasets import _download
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def offline(origin, target):
        raise OSError("offline")
    monkeypatch.setattr(_download, "_fetch", offline)
    with pytest.raises(_download.DownloadError) as e:
        apps.VGG16(include_top=False, input_shape=(32, 32, 3))
    text = str(e.value)
    assert text.startswith("URL fetch failure on https://storage.googleapis.com/tensorflow/keras-applications/vgg16/"
                           "vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5")
    assert text.endswith("Or pass `weights=` the path of a local copy of "
                         "vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5.")
