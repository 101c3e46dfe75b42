"""`keras.applications.efficientnet_v2`: EfficientNetV2B0..B3 and S/M/L (fused and depthwise MBConv blocks); the input
scaling is a layer of the model (`include_preprocessing`), so `preprocess_input` passes its input through."""
import math

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/efficientnet_v2/"
_HASHES = {   # Keras's weight files: (with top, without top)
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188", "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc", "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7", "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0", "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016", "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd", "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935", "b0b66b5c863aef5b46e8608fe1711615"),
}
# (kernel_size, repeats, input_filters, output_filters, expand_ratio, se_ratio, strides, fused) of each stage
_B = ((3, 1, 32, 16, 1, 0, 1, True), (3, 2, 16, 32, 4, 0, 2, True), (3, 2, 32, 48, 4, 0, 2, True),
      (3, 3, 48, 96, 4, 0.25, 2, False), (3, 5, 96, 112, 6, 0.25, 1, False), (3, 8, 112, 192, 6, 0.25, 2, False))
_STAGES = {
    "efficientnetv2-s": ((3, 2, 24, 24, 1, 0, 1, True), (3, 4, 24, 48, 4, 0, 2, True), (3, 4, 48, 64, 4, 0, 2, True),
                         (3, 6, 64, 128, 4, 0.25, 2, False), (3, 9, 128, 160, 6, 0.25, 1, False),
                         (3, 15, 160, 256, 6, 0.25, 2, False)),
    "efficientnetv2-m": ((3, 3, 24, 24, 1, 0, 1, True), (3, 5, 24, 48, 4, 0, 2, True), (3, 5, 48, 80, 4, 0, 2, True),
                         (3, 7, 80, 160, 4, 0.25, 2, False), (3, 14, 160, 176, 6, 0.25, 1, False),
                         (3, 18, 176, 304, 6, 0.25, 2, False), (3, 5, 304, 512, 6, 0.25, 1, False)),
    "efficientnetv2-l": ((3, 4, 32, 32, 1, 0, 1, True), (3, 7, 32, 64, 4, 0, 2, True), (3, 7, 64, 96, 4, 0, 2, True),
                         (3, 10, 96, 192, 4, 0.25, 2, False), (3, 19, 192, 224, 6, 0.25, 1, False),
                         (3, 25, 224, 384, 6, 0.25, 2, False), (3, 7, 384, 640, 6, 0.25, 1, False)),
    "efficientnetv2-b0": _B, "efficientnetv2-b1": _B, "efficientnetv2-b2": _B, "efficientnetv2-b3": _B,
}
CONV_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                           "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"}}
DENSE_KERNEL_INITIALIZER = {"class_name": "VarianceScaling",
                            "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"}}
# weights name: (model name, width, depth, default size)
_VARIANTS = {"b0": ("efficientnetv2-b0", 1.0, 1.0, 224), "b1": ("efficientnetv2-b1", 1.0, 1.1, 240),
             "b2": ("efficientnetv2-b2", 1.1, 1.2, 260), "b3": ("efficientnetv2-b3", 1.2, 1.4, 300),
             "-s": ("efficientnetv2-s", 1.0, 1.0, 384), "-m": ("efficientnetv2-m", 1.0, 1.0, 480),
             "-l": ("efficientnetv2-l", 1.0, 1.0, 480)}


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    filters *= width_coefficient
    return int(max(min_depth or depth_divisor, int(filters + depth_divisor / 2) // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    return int(math.ceil(depth_coefficient * repeats))


def _axis():
    return 3 if config.image_data_format == "channels_last" else 1


def _conv_bn_act(x, filters, kernel_size, strides, bn_momentum, activation, name):
    from tfcompat.keras import layers
    x = layers.Conv2D(filters, kernel_size=kernel_size, strides=strides, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      padding="same", data_format=config.image_data_format, use_bias=False, name=f"{name}_conv")(x)
    x = layers.BatchNormalization(axis=_axis(), momentum=bn_momentum, name=f"{name}_bn")(x)
    return layers.Activation(activation, name=f"{name}_activation")(x)


def _se(x, filters, input_filters, se_ratio, activation, name):
    from tfcompat.keras import layers
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    se = layers.Reshape((filters, 1, 1) if _axis() == 1 else (1, 1, filters), name=f"{name}se_reshape")(se)
    se = layers.Conv2D(max(1, int(input_filters * se_ratio)), 1, padding="same", activation=activation,
                       kernel_initializer=CONV_KERNEL_INITIALIZER, name=f"{name}se_reduce")(se)
    se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid", kernel_initializer=CONV_KERNEL_INITIALIZER,
                       name=f"{name}se_expand")(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name):
    from tfcompat.keras import layers
    if strides == 1 and input_filters == output_filters:
        if survival_probability:
            x = layers.Dropout(survival_probability, noise_shape=(None, 1, 1, 1), name=f"{name}drop")(x)
        x = layers.add([x, inputs], name=f"{name}add")
    return x


def _mbconv(inputs, input_filters, output_filters, expand_ratio, kernel_size, strides, se_ratio, bn_momentum,
            activation, survival_probability, name):
    """1x1 expansion, depthwise convolution, squeeze-and-excitation, 1x1 projection."""
    from tfcompat.keras import layers
    filters = input_filters * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = _conv_bn_act(x, filters, 1, 1, bn_momentum, activation, f"{name}expand")
    x = layers.DepthwiseConv2D(kernel_size=kernel_size, strides=strides, depthwise_initializer=CONV_KERNEL_INITIALIZER,
                               padding="same", data_format=config.image_data_format, use_bias=False,
                               name=f"{name}dwconv2")(x)
    x = layers.BatchNormalization(axis=_axis(), momentum=bn_momentum, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        x = _se(x, filters, input_filters, se_ratio, activation, name)
    x = layers.Conv2D(output_filters, kernel_size=1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      padding="same", data_format=config.image_data_format, use_bias=False,
                      name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=_axis(), momentum=bn_momentum, name=f"{name}project_bn")(x)
    return _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name)


def _fused_mbconv(inputs, input_filters, output_filters, expand_ratio, kernel_size, strides, se_ratio, bn_momentum,
                  activation, survival_probability, name):
    """The expansion and depthwise convolutions fused into one full convolution."""
    from tfcompat.keras import layers
    filters = input_filters * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = _conv_bn_act(x, filters, kernel_size, strides, bn_momentum, activation, f"{name}expand")
    if 0 < se_ratio <= 1:
        x = _se(x, filters, input_filters, se_ratio, activation, name)
    x = layers.Conv2D(output_filters, kernel_size=1 if expand_ratio != 1 else kernel_size,
                      strides=1 if expand_ratio != 1 else strides, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      padding="same", use_bias=False, name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=_axis(), momentum=bn_momentum, name=f"{name}project_bn")(x)
    if expand_ratio == 1:
        x = layers.Activation(activation=activation, name=f"{name}project_activation")(x)
    return _residual(x, inputs, strides, input_filters, output_filters, survival_probability, name)


def _efficientnet_v2(weights_name, include_top, weights, input_tensor, input_shape, pooling, classes,
                     classifier_activation, include_preprocessing, name, dropout_rate=0.2, drop_connect_rate=0.2,
                     depth_divisor=8, min_depth=8, bn_momentum=0.9, activation="swish"):
    from tfcompat.keras import initializers, layers
    default_name, width, depth, default_size = _VARIANTS[weights_name]
    if name not in _STAGES:      # Keras looks its blocks up by the model's name
        raise KeyError(name)
    stages = _STAGES[name]
    imagenet_utils.check_weights_as(weights, include_top, classes, ".Received: weights={weights}",
                                    'If using `weights="imagenet"` with `include_top` as true, `classes` '
                                    'should be 1000')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = _axis()
    x = img_input
    if include_preprocessing:
        if name.split("-")[-1].startswith("b") and input_shape[axis - 1] == 3:
            x = layers.Rescaling(scale=1.0 / 255)(x)
            x = layers.Normalization(mean=[0.485, 0.456, 0.406], variance=[0.229**2, 0.224**2, 0.225**2],
                                     axis=axis)(x)
        else:
            x = layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)

    def filters(n):
        return round_filters(n, width, min_depth, depth_divisor)
    x = layers.Conv2D(filters=filters(stages[0][2]), kernel_size=3, strides=2,
                      kernel_initializer=CONV_KERNEL_INITIALIZER, padding="same", use_bias=False, name="stem_conv")(x)
    x = layers.BatchNormalization(axis=axis, momentum=bn_momentum, name="stem_bn")(x)
    x = layers.Activation(activation, name="stem_activation")(x)
    total, b = float(sum(stage[1] for stage in stages)), 0       # Keras counts the unscaled repeats here
    for i, (kernel_size, repeats, input_filters, output_filters, expand_ratio, se_ratio, strides, fused) in \
            enumerate(stages):
        input_filters, output_filters = filters(input_filters), filters(output_filters)
        block = _fused_mbconv if fused else _mbconv
        for j in range(round_repeats(repeats, depth)):
            if j > 0:
                strides, input_filters = 1, output_filters
            x = block(x, input_filters, output_filters, expand_ratio, kernel_size, strides, se_ratio, bn_momentum,
                      activation, drop_connect_rate * b / total, name=f"block{i + 1}{chr(j + 97)}_")
            b += 1
    x = layers.Conv2D(filters=filters(1280), kernel_size=1, strides=1, kernel_initializer=CONV_KERNEL_INITIALIZER,
                      padding="same", data_format=config.image_data_format, use_bias=False, name="top_conv")(x)
    x = layers.BatchNormalization(axis=axis, momentum=bn_momentum, name="top_bn")(x)
    x = layers.Activation(activation=activation, name="top_activation")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate, name="top_dropout")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, kernel_initializer=DENSE_KERNEL_INITIALIZER,
                         bias_initializer=initializers.Constant(0.0), name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    fname = f"{name}{'.h5' if include_top else '_notop.h5'}"      # Keras names the file after the model
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, _HASHES[weights_name][0 if include_top else 1]))


def _make(weights_name, public):
    default_name, width, depth, size = _VARIANTS[weights_name]

    def constructor(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                    classes=1000, classifier_activation="softmax", include_preprocessing=True, name=default_name):
        return _efficientnet_v2(weights_name, include_top, weights, input_tensor, input_shape, pooling, classes,
                                classifier_activation, include_preprocessing, name)
    constructor.__name__ = constructor.__qualname__ = public
    constructor.__doc__ = (f"{public} (Tan and Le, 2021), as Keras builds it (default input {size}x{size}); inputs "
                           "are pixels in [0, 255].")
    return constructor


EfficientNetV2B0 = _make("b0", "EfficientNetV2B0")
EfficientNetV2B1 = _make("b1", "EfficientNetV2B1")
EfficientNetV2B2 = _make("b2", "EfficientNetV2B2")
EfficientNetV2B3 = _make("b3", "EfficientNetV2B3")
EfficientNetV2S = _make("-s", "EfficientNetV2S")
EfficientNetV2M = _make("-m", "EfficientNetV2M")
EfficientNetV2L = _make("-l", "EfficientNetV2L")


def preprocess_input(x, data_format=None):
    """A placeholder: EfficientNetV2 models scale their inputs themselves; `x` is returned unchanged."""
    return x


decode_predictions = imagenet_utils.decode_predictions
