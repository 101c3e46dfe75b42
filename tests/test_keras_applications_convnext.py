"""`keras.applications.convnext`: ConvNeXtTiny..XLarge as Keras 3.15.1 builds them (structure fingerprints and outputs for fixed
weights recorded from Keras 3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from keras_applications_checks import check_architecture
from keras_applications_checks import check_value_error
from tfcompat import keras

apps = keras.applications


@pytest.mark.parametrize("name, kwargs, expected, y_sum, y_first", [
    # TF 2.21
    ("ConvNeXtTiny", {"input_shape": (32, 32, 3), "classes": 10},
     ("convnext_tiny", 135, 27827818, 182, 0, (None, 10), "1eda5d45a21c9df0"),
     2.0, [0.05759432166814804, 0.06474845856428146, 0.03623348847031593]),
    ("ConvNeXtTiny", {"input_shape": (32, 32, 3), "include_top": False, "pooling": "max",
                      "include_preprocessing": False},
     ("convnext_tiny", 133, 27820128, 180, 0, (None, 768), "4d3ed1e6d6d46953"),
     174.90927124023438, [-0.1225055605173111, 0.06066448241472244, 0.2869912087917328]),
])
def test_architectures_match_keras(name, kwargs, expected, y_sum, y_first):
    check_architecture(lambda: getattr(apps, name)(weights=None, **kwargs), expected, y_sum, y_first)


def test_weight_paths_and_layer_scale():
    # TF 2.21: the stem Sequential's variables are one scope deep; LayerScale's config
    model = apps.ConvNeXtTiny(weights=None, input_shape=(32, 32, 3), include_top=False)
    assert [w.path for w in model.weights[:4]] == [
        "convnext_tiny_stem/convnext_tiny_stem_conv/kernel", "convnext_tiny_stem/convnext_tiny_stem_conv/bias",
        "convnext_tiny_stem/convnext_tiny_stem_layernorm/gamma", "convnext_tiny_stem/convnext_tiny_stem_layernorm/beta"]
    layer = model.get_layer("convnext_tiny_stage_0_block_0_layer_scale")
    config = layer.get_config()
    assert (type(layer).__name__, config["init_values"], config["projection_dim"]) == ("LayerScale", 1e-06, 96)


@pytest.mark.parametrize("call, message", [
    # TF 2.21
    (lambda: apps.ConvNeXtTiny(weights="nope"),
     "The `weights` argument should be either `None` (random initialization), `imagenet` (pre-training on ImageNet), "
     "or the path to the weights file to be loaded."),
    (lambda: apps.ConvNeXtBase(classes=10),
     'If using `weights="imagenet"` with `include_top=True`, `classes` should be 1000. Received classes=10'),
    (lambda: apps.ConvNeXtTiny(name="foo", input_shape=(32, 32, 3), include_top=False),
     'Model name "foo" does not match weights variant "convnext_tiny". When using imagenet weights, model name must '
     'contain the weights variant (e.g., "convnext_tiny").'),
])
def test_errors(call, message):
    check_value_error(call, message)


def test_preprocess_input_passes_through():
    x = np.array([1.0, 2.0])
    assert apps.convnext.preprocess_input(x) is x
