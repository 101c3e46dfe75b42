"""`keras.applications.efficientnet`: EfficientNetB0..B7 (MBConv blocks with squeeze-and-excitation, scaled in width
and depth); the input scaling and ImageNet normalization are layers of the model, so `preprocess_input` passes
its input through."""
import math

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/keras-applications/"
_HASHES = {   # Keras's weight files: (with top, without top)
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac", "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540", "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad", "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0", "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc", "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a", "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5", "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99", "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}
# (kernel_size, repeats, filters_in, filters_out, expand_ratio, strides) of the seven stages; se_ratio 0.25, id_skip
_STAGES = ((3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2), (3, 3, 40, 80, 6, 2),
           (5, 3, 80, 112, 6, 1), (5, 4, 112, 192, 6, 2), (3, 1, 192, 320, 6, 1))
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}
IMAGENET_STDDEV_RGB = (0.229, 0.224, 0.225)
# name: (width, depth, default size, dropout)
_SCALING = {"b0": (1.0, 1.0, 224, 0.2), "b1": (1.0, 1.1, 240, 0.2), "b2": (1.1, 1.2, 260, 0.3),
            "b3": (1.2, 1.4, 300, 0.3), "b4": (1.4, 1.8, 380, 0.4), "b5": (1.6, 2.2, 456, 0.4),
            "b6": (1.8, 2.6, 528, 0.5), "b7": (2.0, 3.1, 600, 0.5)}


def _round_filters(filters, width, divisor=8):
    filters *= width
    rounded = max(divisor, int(filters + divisor / 2) // divisor * divisor)
    return int(rounded + divisor if rounded < 0.9 * filters else rounded)


def block(inputs, activation="swish", drop_rate=0.0, name="", filters_in=32, filters_out=16, kernel_size=3,
          strides=1, expand_ratio=1, se_ratio=0.0, id_skip=True):
    """The MBConv block: 1x1 expansion, depthwise convolution, squeeze-and-excitation, 1x1 projection, and the
    identity shortcut (after a per-sample Dropout) when shapes allow."""
    from tfcompat.keras import layers
    axis = 3 if config.image_data_format == "channels_last" else 1
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = layers.Conv2D(filters, 1, padding="same", use_bias=False, kernel_initializer=CONV_KERNEL_INITIALIZER,
                          name=f"{name}expand_conv")(x)
        x = layers.BatchNormalization(axis=axis, name=f"{name}expand_bn")(x)
        x = layers.Activation(activation, name=f"{name}expand_activation")(x)
    if strides == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{name}dwconv_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=strides, padding="valid" if strides == 2 else "same",
                               use_bias=False, depthwise_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}dwconv")(x)
    x = layers.BatchNormalization(axis=axis, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
        se = layers.Reshape((filters, 1, 1) if axis == 1 else (1, 1, filters), name=f"{name}se_reshape")(se)
        se = layers.Conv2D(max(1, int(filters_in * se_ratio)), 1, padding="same", activation=activation,
                           kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
        se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid", kernel_initializer=CONV_KERNEL_INITIALIZER,
                           name=f"{name}se_expand")(se)
        x = layers.multiply([x, se], name=f"{name}se_excite")
    x = layers.Conv2D(filters_out, 1, padding="same", use_bias=False, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=axis, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        if drop_rate > 0:
            x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _efficientnet(variant, include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation,
                  name, drop_connect_rate=0.2, activation="swish"):
    from tfcompat.keras import layers
    width, depth, default_size, dropout_rate = _SCALING[variant]
    imagenet_utils.check_weights_as(weights, include_top, classes, ".",
                                    'If using `weights="imagenet"` with `include_top` as true, `classes` '
                                    'should be 1000')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = 3 if config.image_data_format == "channels_last" else 1
    x = layers.Rescaling(1.0 / 255.0)(img_input)
    x = layers.Normalization(axis=axis)(x)
    if weights == "imagenet":     # the files hold the mean and variance; Keras then divides by the std once more
        x = layers.Rescaling([1.0 / math.sqrt(stddev) for stddev in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name="stem_conv_pad")(x)
    x = layers.Conv2D(_round_filters(32, width), 3, strides=2, padding="valid", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, name="stem_conv")(x)
    x = layers.BatchNormalization(axis=axis, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    repeats = [int(math.ceil(depth * stage[1])) for stage in _STAGES]
    total, b = float(sum(repeats)), 0
    for i, ((kernel_size, _, filters_in, filters_out, expand_ratio, strides), count) in enumerate(
            zip(_STAGES, repeats)):
        filters_in, filters_out = _round_filters(filters_in, width), _round_filters(filters_out, width)
        for j in range(count):
            if j > 0:
                strides, filters_in = 1, filters_out
            x = block(x, activation, drop_connect_rate * b / total, name=f"block{i + 1}{chr(j + 97)}_",
                      filters_in=filters_in, filters_out=filters_out, kernel_size=kernel_size, strides=strides,
                      expand_ratio=expand_ratio, se_ratio=0.25, id_skip=True)
            b += 1
    x = layers.Conv2D(_round_filters(1280, width), 1, padding="same", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, name="top_conv")(x)
    x = layers.BatchNormalization(axis=axis, name="top_bn")(x)
    x = layers.Activation(activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=DENSE_KERNEL_INITIALIZER,
                         name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    fname = f"{name}{'.h5' if include_top else '_notop.h5'}"      # Keras names the file after the model
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, _HASHES[variant][0 if include_top else 1]))


def _make(variant):
    def constructor(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                    classes=1000, classifier_activation="softmax", name=f"efficientnet{variant}"):
        return _efficientnet(variant, include_top, weights, input_tensor, input_shape, pooling, classes,
                             classifier_activation, name)
    constructor.__name__ = constructor.__qualname__ = f"EfficientNet{variant.upper()}"
    width, depth, size, _ = _SCALING[variant]
    constructor.__doc__ = (f"EfficientNet{variant.upper()} (Tan and Le, 2019), as Keras builds it: width x{width}, "
                           f"depth x{depth}, default input {size}x{size}; inputs are pixels in [0, 255].")
    return constructor


EfficientNetB0 = _make("b0")
EfficientNetB1 = _make("b1")
EfficientNetB2 = _make("b2")
EfficientNetB3 = _make("b3")
EfficientNetB4 = _make("b4")
EfficientNetB5 = _make("b5")
EfficientNetB6 = _make("b6")
EfficientNetB7 = _make("b7")


def preprocess_input(x, data_format=None):
    """A placeholder: EfficientNet models scale their inputs themselves; `x` is returned unchanged."""
    return x


decode_predictions = imagenet_utils.decode_predictions
