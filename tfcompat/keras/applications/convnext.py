"""`keras.applications.convnext`: ConvNeXtTiny/Small/Base/Large/XLarge (patchify stem, 7x7 grouped-conv blocks with
LayerScale, downsampling Sequentials); the ImageNet normalization is a layer of the model (`include_preprocessing`),
so `preprocess_input` passes its input through."""

import numpy as np

from tfcompat.keras import initializers, layers, ops
from tfcompat.keras import random as keras_random
from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils
from tfcompat.keras.layers import Layer

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"
_HASHES = {   # Keras's weight files (SHA-256): (with top, without top)
    "convnext_tiny": ("8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
                      "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1"),
    "convnext_small": ("ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
                       "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab"),
    "convnext_base": ("52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
                      "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45"),
    "convnext_large": ("070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
                       "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd"),
    "convnext_xlarge": ("c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
                        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05"),
}
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024], "default_size": 224},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536], "default_size": 224},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048], "default_size": 224},
}


class StochasticDepth(Layer):
    """Drops whole samples of a residual branch while training (scaling the kept ones by 1 / keep probability)."""

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x, training=None):
        if training:
            keep_prob = 1 - self.drop_path_rate
            shape = (ops.shape(x)[0],) + (1,) * (len(ops.shape(x)) - 1)
            return (x / keep_prob) * ops.floor(keep_prob + keras_random.uniform(shape, 0, 1))
        return x

    def get_config(self):
        config_ = super().get_config()
        config_.update({"drop_path_rate": self.drop_path_rate})
        return config_


class LayerScale(Layer):
    """Multiplies its input by a learned per-channel `gamma` (initially `init_values`)."""

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values
        self.projection_dim = projection_dim

    def build(self, _):
        self.gamma = self.add_weight(shape=(self.projection_dim,),
                                     initializer=initializers.Constant(self.init_values), trainable=True)

    def call(self, x):
        return x * self.gamma

    def get_config(self):
        config_ = super().get_config()
        config_.update({"init_values": self.init_values, "projection_dim": self.projection_dim})
        return config_


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0, layer_scale_init_value=1e-6, name=None):
    """7x7 depthwise (grouped) conv, LayerNorm, two pointwise Dense layers with GELU, LayerScale, residual."""
    def apply(inputs):
        x = layers.Conv2D(filters=projection_dim, kernel_size=7, padding="same", groups=projection_dim,
                          name=f"{name}_depthwise_conv")(inputs)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_layernorm")(x)
        x = layers.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = layers.Activation("gelu", name=f"{name}_gelu")(x)
        x = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim, name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            layer = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")
        else:
            layer = layers.Activation("linear", name=f"{name}_identity")
        return inputs + layer(x)
    return apply


def _convnext(size, include_top, include_preprocessing, weights, input_tensor, input_shape, pooling, classes,
              classifier_activation, name, drop_path_rate=0.0, layer_scale_init_value=1e-6):
    from tfcompat.keras.models import Functional, Sequential
    depths, dims = MODEL_CONFIGS[size]["depths"], MODEL_CONFIGS[size]["projection_dims"]
    weights_name = f"convnext_{size}"
    if config.image_data_format == "channels_first":
        raise ValueError("ConvNeXt does not support the `channels_first` image data format. Switch to "
                         "`channels_last` by editing your local config file at ~/.keras/keras.json")
    imagenet_utils.check_weights_as(weights, include_top, classes, ".",
                                    'If using `weights="imagenet"` with `include_top=True`, `classes` should '
                                    'be 1000. Received classes={classes}')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=MODEL_CONFIGS[size]["default_size"],
                                                    min_size=32, data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    inputs = img_input if input_tensor is None else imagenet_utils._source_input(input_tensor)
    x = img_input
    if include_preprocessing and input_shape[2] == 3:
        x = layers.Normalization(mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                                 variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2, (0.225 * 255) ** 2],
                                 name=f"{name}_prestem_normalization")(x)
    downsample = [Sequential([layers.Conv2D(dims[0], kernel_size=4, strides=4, name=f"{name}_stem_conv"),
                              layers.LayerNormalization(epsilon=1e-6, name=f"{name}_stem_layernorm")],
                             name=f"{name}_stem")]
    for i in range(3):
        downsample.append(Sequential([
            layers.LayerNormalization(epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
            layers.Conv2D(dims[i + 1], kernel_size=2, strides=2, name=f"{name}_downsampling_conv_{i}")],
            name=f"{name}_downsampling_block_{i}"))
    rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    cur = 0
    for i in range(4):
        x = downsample[i](x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(projection_dim=dims[i], drop_path_rate=rates[cur + j],
                              layer_scale_init_value=layer_scale_init_value, name=f"{name}_stage_{i}_block_{j}")(x)
        cur += depths[i]
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=1e-6, name=f"{name}_head_layernorm")(x)
        x = layers.Dense(classes, activation=classifier_activation, name=f"{name}_head_dense")(x)
    else:
        if pooling == "avg":
            x = layers.GlobalAveragePooling2D()(x)
        elif pooling == "max":
            x = layers.GlobalMaxPooling2D()(x)
        x = layers.LayerNormalization(epsilon=1e-6)(x)
    model = Functional(inputs=inputs, outputs=x, name=name)
    if weights == "imagenet":
        if weights_name not in name:
            raise ValueError(f'Model name "{name}" does not match weights variant "{weights_name}". When using '
                             'imagenet weights, model name must contain the weights variant (e.g., '
                             f'"{weights_name}").')
        fname = f"{name}{'.h5' if include_top else '_notop.h5'}"
        model.load_weights(imagenet_utils._cached_weights(fname, _BASE + fname,
                                                          _HASHES[weights_name][0 if include_top else 1]))
    elif weights is not None:
        model.load_weights(weights)
    return model


def _make(size, public):
    def constructor(include_top=True, include_preprocessing=True, weights="imagenet", input_tensor=None,
                    input_shape=None, pooling=None, classes=1000, classifier_activation="softmax",
                    name=f"convnext_{size}"):
        return _convnext(size, include_top, include_preprocessing, weights, input_tensor, input_shape, pooling,
                         classes, classifier_activation, name)
    constructor.__name__ = constructor.__qualname__ = public
    constructor.__doc__ = (f"{public} (Liu et al., 2022), as Keras builds it (default input 224x224); inputs are "
                           "pixels in [0, 255].")
    return constructor


ConvNeXtTiny = _make("tiny", "ConvNeXtTiny")
ConvNeXtSmall = _make("small", "ConvNeXtSmall")
ConvNeXtBase = _make("base", "ConvNeXtBase")
ConvNeXtLarge = _make("large", "ConvNeXtLarge")
ConvNeXtXLarge = _make("xlarge", "ConvNeXtXLarge")


def preprocess_input(x, data_format=None):
    """A placeholder: ConvNeXt models normalize their inputs themselves; `x` is returned unchanged."""
    return x


decode_predictions = imagenet_utils.decode_predictions
