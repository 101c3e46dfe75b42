"""`keras.applications.mobilenet_v2`: MobileNetV2 (inverted residual blocks) and its "tf" preprocessing."""
import warnings

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v2/"
_SIZES = (96, 128, 160, 192, 224)
# (filters, stride, expansion) of blocks 0..16
_BLOCKS = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6), (64, 2, 6), (64, 1, 6),
           (64, 1, 6), (64, 1, 6), (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6), (160, 1, 6), (160, 1, 6),
           (320, 1, 6))


def _make_divisible(v, divisor, min_value=None):
    """`v` rounded to a multiple of `divisor`, never below `min_value` nor more than 10% under `v`."""
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


def _inverted_res_block(inputs, expansion, stride, alpha, filters, block_id, axis):
    from tfcompat.keras import layers
    in_channels = inputs.shape[axis]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same", use_bias=False, activation=None,
                          name=f"{prefix}expand")(x)
        x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=f"{prefix}expand_BN")(x)
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3), name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None, use_bias=False,
                               padding="same" if stride == 1 else "valid", name=f"{prefix}depthwise")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=f"{prefix}depthwise_BN")(x)
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same", use_bias=False, activation=None,
                      name=f"{prefix}project")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=f"{prefix}project_BN")(x)
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def _default_size(input_shape, input_tensor):
    """224, or the square input size when it is one of the sizes ImageNet weights exist for."""
    first = config.image_data_format == "channels_first"
    if input_shape is not None:
        rows, cols = (input_shape[1], input_shape[2]) if first else (input_shape[0], input_shape[1])
    elif input_tensor is not None:
        rows, cols = (input_tensor.shape[2], input_tensor.shape[3]) if first else \
            (input_tensor.shape[1], input_tensor.shape[2])
    else:
        return 224
    return rows if rows == cols and rows in _SIZES else 224


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                classes=1000, classifier_activation="softmax", name=None):
    """MobileNetV2 (Sandler et al., 2018), as Keras builds it; `alpha` scales the width."""
    from tfcompat.keras import layers
    imagenet_utils.check_weights_as(weights, include_top, classes, ".  Received `weights={weights}`",
                                    'If using `weights="imagenet"` with `include_top` as true, `classes` '
                                    'should be 1000. Received `classes={classes}`')
    if input_shape is not None and input_tensor is not None:
        raise NotImplementedError("MobileNetV2 with both `input_shape` and `input_tensor` is not supported by "
                                  "tfcompat (pass one of them)")
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=_default_size(input_shape, input_tensor),
                                                    min_size=32, data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    rows, cols = (input_shape[0], input_shape[1]) if config.image_data_format == "channels_last" else \
        (input_shape[1], input_shape[2])
    if weights == "imagenet":
        if alpha not in (0.35, 0.5, 0.75, 1.0, 1.3, 1.4):
            raise ValueError("If imagenet weights are being loaded, alpha must be one of `0.35`, `0.50`, `0.75`, "
                             f"`1.0`, `1.3` or `1.4` only; Received `alpha={alpha}`")
        if rows != cols or rows not in _SIZES:
            rows = 224
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [96, 128, 160, 192, 224]. "
                          "Weights for input shape (224, 224) will be loaded as the default.", stacklevel=2)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = 1 if config.image_data_format == "channels_first" else -1
    x = layers.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2), padding="same", use_bias=False,
                      name="Conv1")(img_input)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, expansion, stride, alpha, filters, block_id, axis)
    last = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights)
    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    fname = f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}{'' if include_top else '_no_top'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights, (fname, _BASE + fname, None))


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
