"""`keras.applications.nasnet`: NASNetMobile and NASNetLarge as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_value_error
from keras_applications_checks import fixed_weights_output as _fixed_weights_output
from keras_applications_checks import signature as _signature
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("NASNetMobile", {"input_shape": (32, 32, 3), "include_top": False, "pooling": "avg"},
     ("nasnet_mobile", 770, 4269716, 740, 384, (None, 1056), "e143829d08dd17c2"),
     132.86920166015625, [0.08164174854755402, 0.0259487796574831, 0.029922613874077797]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    # TF 2.21: NASNetLarge(weights=None, include_top=False, input_shape=(32, 32, 3), pooling="avg") has 1040 layers
    # and 84,916,818 parameters (as here; too slow for the suite)
    model = getattr(apps, name)(weights=None, **kwargs)
    assert (model.name, len(model.layers), model.count_params(), len(model.trainable_weights),
            len(model.non_trainable_weights), model.output_shape, _signature(model)) == expected
    # TF 2.21: Keras's name scopes show in the variables' paths
    assert [w.path for w in model.weights[:2]] == ["stem_conv1/kernel", "stem_bn1/gamma"]
    assert model.weights[-1].path == ("normal_A_block_12/block_5/separable_conv_block_normal_left5_12/"
                                      "separable_conv_2_bn_normal_left5_12/moving_variance")
    y = _fixed_weights_output(model)
    np.testing.assert_allclose(np.abs(y).sum(), y_sum, rtol=1e-4)
    np.testing.assert_allclose(y.ravel()[:3], y_first, rtol=1e-4, atol=1e-6 * np.abs(y).max())


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.NASNetMobile(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded."),
    (lambda: apps.NASNetMobile(classes=10),
     'If using `weights` as `"imagenet"` with `include_top` as true, `classes` should be 1000'),
    (lambda: apps.NASNetLarge(input_shape=(None, None, 3), include_top=False),
     "When specifying the input shape of a NASNet and loading `ImageNet` weights, the input_shape argument must be "
     "static (no None entries). Got: `input_shape=(None, None, 3)`."),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_imagenet_file(tmp_path, monkeypatch):
    from tfcompat.keras.datasets import _download
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))

    def offline(origin, target):
        raise OSError("offline")
    monkeypatch.setattr(_download, "_fetch", offline)
    with pytest.raises(_download.DownloadError) as e:
        apps.NASNetMobile(include_top=False, input_shape=(32, 32, 3))
    assert str(e.value).startswith("URL fetch failure on https://storage.googleapis.com/tensorflow/keras-applications/"
                                   "nasnet/NASNet-mobile-no-top.h5")
