"""`keras.applications.efficientnet`: EfficientNetB0..B7 as Keras 3.15.1 builds them (structure fingerprints and
outputs for fixed weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_value_error
from keras_applications_checks import fixed_weights_output as _fixed_weights_output
from keras_applications_checks import signature as _signature
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("EfficientNetB0", {"input_shape": (64, 64, 3), "classes": 10},
     ("efficientnetb0", 240, 4062381, 213, 101, (None, 10), "4f1bddde629db97c"),
     2.0, [0.10503852367401123, 0.09693105518817902, 0.10567670315504074]),
    ("EfficientNetB1", {"input_shape": (32, 32, 3), "include_top": False, "pooling": "max"},
     ("efficientnetb1", 340, 6575239, 299, 141, (None, 1280), "6d0711b2c757cbc0"),
     101.49427795410156, [-0.01239855121821165, -0.04549145698547363, 0.19598545134067535]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    # TF 2.21: EfficientNetB7(weights=None, include_top=False, input_shape=(32, 32, 3)) has 813 layers and
    # 64,097,687 parameters (as here; too slow for the suite)
    model = getattr(apps, name)(weights=None, **kwargs)
    assert (model.name, len(model.layers), model.count_params(), len(model.trainable_weights),
            len(model.non_trainable_weights), model.output_shape, _signature(model)) == expected
    y = _fixed_weights_output(model)
    np.testing.assert_allclose(np.abs(y).sum(), y_sum, rtol=1e-4)
    np.testing.assert_allclose(y.ravel()[:3], y_first, rtol=1e-4, atol=1e-6)


def test_preprocess_input_passes_through():
    x = np.array([1.0, 2.0])
    assert apps.efficientnet.preprocess_input(x) is x
    assert apps.efficientnet.decode_predictions is apps.imagenet_utils.decode_predictions


@pytest.mark.parametrize("kwargs, message", [
    ({"weights": "nope"}, "The `weights` argument should be either `None` (random initialization), `imagenet` "
                          "(pre-training on ImageNet), or the path to the weights file to be loaded."),
    ({"classes": 10}, 'If using `weights="imagenet"` with `include_top` as true, `classes` should be 1000'),
])
def test_errors(kwargs, message):
    check_value_error(lambda: apps.EfficientNetB0(**kwargs), message)


def test_imagenet_weights_come_from_keras_file(tmp_path, monkeypatch):
    from tfcompat.keras.datasets import _download
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def offline(origin, target):
        raise OSError("offline")
    monkeypatch.setattr(_download, "_fetch", offline)
    with pytest.raises(_download.DownloadError) as e:
        apps.EfficientNetB0(include_top=False, input_shape=(32, 32, 3))
    assert str(e.value).startswith("URL fetch failure on https://storage.googleapis.com/keras-applications/"
                                   "efficientnetb0_notop.h5")
    keras.backend.clear_session()
    model = apps.EfficientNetB0(weights=None, include_top=False, input_shape=(32, 32, 3))
    assert [layer.name for layer in model.layers[:4]] == ["input_layer", "rescaling", "normalization",
                                                          "stem_conv_pad"]


def test_per_channel_rescaling_of_imagenet_models():
    # TF 2.21: the Rescaling layer of ImageNet EfficientNets scales each channel by its own factor
    out = keras.layers.Rescaling([1.0, 2.0, 3.0])(np.ones((1, 2, 3), "float32"))
    np.testing.assert_array_equal(np.asarray(out), [[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]])


def _write_keras2_weights(model, path):
    """The layout of Keras's ImageNet weight files: `layer_names`, then per layer `weight_names` and datasets."""
    import h5py
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


def test_imagenet_weights_load_from_the_keras_cache(tmp_path, monkeypatch):
    from tfcompat.keras.datasets import _download
    kwargs = {"include_top": False, "input_shape": (32, 32, 3)}
    source = apps.EfficientNetB0(weights=None, **kwargs)
    rng = np.random.default_rng(5)
    for w in source.weights:
        w.assign(rng.uniform(0.5, 1.5, w.shape).astype(w.dtype) if "variance" in w.path else
                 rng.normal(0, 0.1, w.shape).astype(w.dtype))
    (tmp_path / "models").mkdir()
    _write_keras2_weights(source, str(tmp_path / "models" / "efficientnetb0_notop.h5"))
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(_download, "_valid", lambda path, file_hash: True)     # not Keras's own file
    model = apps.EfficientNetB0(weights="imagenet", **kwargs)
    assert [np.asarray(w).tolist() for w in model.weights[:3]] == [np.asarray(w).tolist() for w in source.weights[:3]]
    for mine, theirs in zip(model.weights, source.weights):
        np.testing.assert_array_equal(np.asarray(mine), np.asarray(theirs))
    # TF 2.21: ImageNet EfficientNets divide by the ImageNet std once more, in a third data layer
    layer = model.layers[3]
    assert (type(layer).__name__, len(model.layers)) == ("Rescaling", len(source.layers) + 1)
    np.testing.assert_allclose(layer.scale, [1 / 0.229 ** 0.5, 1 / 0.224 ** 0.5, 1 / 0.225 ** 0.5])
