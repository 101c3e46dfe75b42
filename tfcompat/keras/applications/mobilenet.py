"""`keras.applications.mobilenet`: MobileNet v1 (depthwise separable convolutions) and its "tf" preprocessing."""
import os
import warnings

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet/"
_SIZES = (128, 160, 192, 224)
_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}
# (pointwise filters, stride) of the depthwise blocks 1..13
_BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1), (512, 1),
           (512, 1), (1024, 2), (1024, 1))


def _depthwise_block(x, filters, alpha, depth_multiplier, stride, block_id, axis):
    """Depthwise 3x3 conv, BN, ReLU6, then pointwise 1x1 conv, BN, ReLU6 (strided blocks pad bottom/right)."""
    from tfcompat.keras import layers
    if stride != 1:
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if stride == 1 else "valid", depth_multiplier=depth_multiplier,
                               strides=(stride, stride), use_bias=False, name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(int(filters * alpha), (1, 1), padding="same", use_bias=False, strides=(1, 1),
                      name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def _default_size(input_shape):
    if input_shape is None:
        return 224
    first = config.image_data_format == "channels_first"
    rows, cols = (input_shape[1], input_shape[2]) if first else (input_shape[0], input_shape[1])
    return rows if rows == cols and rows in _SIZES else 224


def _check_imagenet(alpha, depth_multiplier, rows, cols):
    """Keras's limits on ImageNet weights; returns the input size whose weights load."""
    if depth_multiplier != 1:
        raise ValueError("If imagenet weights are being loaded, depth multiplier must be 1.  "
                         f"Received depth_multiplier={depth_multiplier}")
    if alpha not in _ALPHA_TEXT:
        raise ValueError("If imagenet weights are being loaded, alpha can be one of`0.25`, `0.50`, `0.75` or `1.0` "
                         f"only.  Received alpha={alpha}")
    if rows != cols or rows not in _SIZES:
        warnings.warn("`input_shape` is undefined or non-square, or `rows` is not in [128, 160, 192, 224]. Weights "
                      "for input shape (224, 224) will be loaded as the default.", stacklevel=3)
        return 224
    return rows


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3, include_top=True, weights="imagenet",
              input_tensor=None, pooling=None, classes=1000, classifier_activation="softmax", name=None):
    """MobileNet (Howard et al., 2017), as Keras builds it; `alpha` scales the width."""
    from tfcompat.keras import layers
    if not (weights in ("imagenet", None) or os.path.exists(weights)):
        raise ValueError("The `weights` argument should be either `None` (random initialization), 'imagenet' "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded. "
                         f"Received weights={weights}")
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=_default_size(input_shape),
                                                    min_size=32, data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    first = config.image_data_format == "channels_first"
    rows, cols = (input_shape[1], input_shape[2]) if first else (input_shape[0], input_shape[1])
    if weights == "imagenet":
        rows = _check_imagenet(alpha, depth_multiplier, rows, cols)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = 1 if first else -1
    x = layers.Conv2D(int(32 * alpha), (3, 3), padding="same", use_bias=False, strides=(2, 2), name="conv1")(img_input)
    x = layers.BatchNormalization(axis=axis, name="conv1_bn")(x)
    x = layers.ReLU(6.0, name="conv1_relu")(x)
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_block(x, filters, alpha, depth_multiplier, stride, block_id, axis)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = imagenet_utils.classifier_or_pooling(x, False, pooling, classes, classifier_activation, weights)
    if name is None:
        name = f"mobilenet_{alpha:0.2f}_{rows}"
    fname = f"mobilenet_{_ALPHA_TEXT.get(alpha)}_{rows}_tf{'' if include_top else '_no_top'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights, (fname, _BASE + fname, None))


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
