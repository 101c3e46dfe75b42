"""`keras.applications.mobilenet_v3`: MobileNetV3Small/Large (inverted residuals with squeeze-and-excitation and
hard-swish); the [-1, 1] input scaling is a layer of the model (`include_preprocessing`), so `preprocess_input`
passes its input through. As in Keras, the constructors are exported as `keras.applications.MobileNetV3Small` and
`MobileNetV3Large` only."""
import warnings

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/mobilenet_v3/"
_HASHES = {   # Keras's weight files: (with top, without top)
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb", "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7", "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c", "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7", "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862", "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37", "cde8136e733e811080d9fcd8a252f7e4"),
}
# (expansion, filters, kernel ("k": 3 or, unless minimalistic, 5), stride, squeeze-excite, activation ("relu" or
# "act": relu if minimalistic, else hard-swish)) of each inverted residual block
_SMALL = ((1, 16, 3, 2, True, "relu"), (72.0 / 16, 24, 3, 2, False, "relu"), (88.0 / 24, 24, 3, 1, False, "relu"),
          (4, 40, "k", 2, True, "act"), (6, 40, "k", 1, True, "act"), (6, 40, "k", 1, True, "act"),
          (3, 48, "k", 1, True, "act"), (3, 48, "k", 1, True, "act"), (6, 96, "k", 2, True, "act"),
          (6, 96, "k", 1, True, "act"), (6, 96, "k", 1, True, "act"))
_LARGE = ((1, 16, 3, 1, False, "relu"), (4, 24, 3, 2, False, "relu"), (3, 24, 3, 1, False, "relu"),
          (3, 40, "k", 2, True, "relu"), (3, 40, "k", 1, True, "relu"), (3, 40, "k", 1, True, "relu"),
          (6, 80, 3, 2, False, "act"), (2.5, 80, 3, 1, False, "act"), (2.3, 80, 3, 1, False, "act"),
          (2.3, 80, 3, 1, False, "act"), (6, 112, 3, 1, True, "act"), (6, 112, 3, 1, True, "act"),
          (6, 160, "k", 2, True, "act"), (6, 160, "k", 1, True, "act"), (6, 160, "k", 1, True, "act"))


def relu(x):
    from tfcompat.keras import layers
    return layers.ReLU()(x)


def hard_sigmoid(x):
    from tfcompat.keras import layers
    return layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def hard_swish(x):
    from tfcompat.keras import layers
    return layers.Activation("hard_swish")(x)


def _depth(v, divisor=8, min_value=None):
    min_value = divisor if min_value is None else min_value
    rounded = max(min_value, int(v + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * v else rounded


def _bn(x, name):
    from tfcompat.keras import layers
    axis = 1 if config.image_data_format == "channels_first" else -1
    return layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name=name)(x)


def _se_block(inputs, filters, se_ratio, prefix):
    from tfcompat.keras import layers
    x = layers.GlobalAveragePooling2D(keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = layers.Conv2D(_depth(filters * se_ratio), kernel_size=1, padding="same",
                      name=f"{prefix}squeeze_excite_conv")(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, kernel_size=1, padding="same", name=f"{prefix}squeeze_excite_conv_1")(x)
    x = hard_sigmoid(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride, se_ratio, activation, block_id):
    from tfcompat.keras import layers
    axis = 1 if config.image_data_format == "channels_first" else -1
    shortcut = x
    prefix = "expanded_conv_"
    infilters = x.shape[axis]
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = layers.Conv2D(_depth(infilters * expansion), kernel_size=1, padding="same", use_bias=False,
                          name=f"{prefix}expand")(x)
        x = activation(_bn(x, f"{prefix}expand_bn"))
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size), name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=stride, padding="same" if stride == 1 else "valid",
                               use_bias=False, name=f"{prefix}depthwise")(x)
    x = activation(_bn(x, f"{prefix}depthwise_bn"))
    if se_ratio:
        x = _se_block(x, _depth(infilters * expansion), se_ratio, prefix)
    x = layers.Conv2D(filters, kernel_size=1, padding="same", use_bias=False, name=f"{prefix}project")(x)
    x = _bn(x, f"{prefix}project_bn")
    if stride == 1 and infilters == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


def _input_shape(input_shape, input_tensor):
    """Keras's MobileNetV3 checks of `input_shape` against `input_tensor` (its own, not `obtain_input_shape`)."""
    from tfcompat.keras.engine.keras_tensor import is_keras_tensor
    first = config.image_data_format == "channels_first"
    if input_tensor is not None:
        if not is_keras_tensor(input_tensor):
            if input_shape is not None:
                raise ValueError("input_tensor specified: ", input_tensor, "is not a keras tensor")
            imagenet_utils.image_input(input_tensor, input_shape)      # tfcompat's NotImplementedError
        if input_shape is not None:
            if first and input_tensor.shape[1] != input_shape[1]:
                raise ValueError("When backend.image_data_format()=channels_first, input_shape[1] must equal "
                                 f"input_tensor.shape[1].  Received input_shape={input_shape}, "
                                 f"input_tensor.shape={input_tensor.shape}")
            if not first and input_tensor.shape[2] != input_shape[1]:
                raise ValueError("input_shape[1] must equal input_tensor.shape[2].  Received "
                                 f"input_shape={input_shape}, input_tensor.shape={input_tensor.shape}")
        else:        # Keras's order (columns before rows)
            rows, cols = (input_tensor.shape[2], input_tensor.shape[3]) if first else \
                (input_tensor.shape[1], input_tensor.shape[2])
            input_shape = (3, cols, rows) if first else (cols, rows, 3)
    if input_shape is None:
        input_shape = (3, None, None) if first else (None, None, 3)
    return input_shape


def _mobilenet_v3(blocks, last_point_ch, input_shape, alpha, model_type, minimalistic, include_top, weights,
                  input_tensor, classes, pooling, dropout_rate, classifier_activation, include_preprocessing, name):
    from tfcompat.keras import layers
    imagenet_utils.check_weights_as(weights, include_top, classes, ".  Received weights={weights}",
                                    'If using `weights="imagenet"` with `include_top` as true, `classes` '
                                    'should be 1000.  Received classes={classes}')
    input_shape = _input_shape(input_shape, input_tensor)
    rows, cols = (input_shape[1], input_shape[2]) if config.image_data_format == "channels_first" else \
        (input_shape[0], input_shape[1])
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError(f"Input size must be at least 32x32; Received `input_shape={input_shape}`")
    if weights == "imagenet":
        if (not minimalistic and alpha not in (0.75, 1.0)) or (minimalistic and alpha != 1.0):
            raise ValueError("If imagenet weights are being loaded, alpha can be one of `0.75`, `1.0` for non "
                             "minimalistic or `1.0` for minimalistic only.")
        if rows != cols or rows != 224:
            warnings.warn("`input_shape` is undefined or non-square, or `rows` is not 224. Weights for input shape "
                          "(224, 224) will be loaded as the default.", stacklevel=3)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = 1 if config.image_data_format == "channels_first" else -1
    kernel, activation, se_ratio = (3, relu, None) if minimalistic else (5, hard_swish, 0.25)
    x = img_input
    if include_preprocessing:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = layers.Conv2D(16, kernel_size=3, strides=(2, 2), padding="same", use_bias=False, name="conv")(x)
    x = activation(_bn(x, "conv_bn"))
    for block_id, (expansion, filters, size, stride, se, act) in enumerate(blocks):
        x = _inverted_res_block(x, expansion, _depth(filters * alpha), kernel if size == "k" else size, stride,
                                se_ratio if se else None, relu if act == "relu" else activation, block_id)
    last_conv_ch = _depth(x.shape[axis] * 6)
    if alpha > 1.0:
        last_point_ch = _depth(last_point_ch * alpha)
    x = layers.Conv2D(last_conv_ch, kernel_size=1, padding="same", use_bias=False, name="conv_1")(x)
    x = activation(_bn(x, "conv_1_bn"))
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Conv2D(last_point_ch, kernel_size=1, padding="same", use_bias=True, name="conv_2")(x)
        x = activation(x)
        if dropout_rate > 0:
            x = layers.Dropout(dropout_rate)(x)
        x = layers.Conv2D(classes, kernel_size=1, padding="same", name="logits")(x)
        x = layers.Flatten()(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D(name="max_pool")(x)
    model_name = f"{model_type}{'_minimalistic' if minimalistic else ''}_224_{alpha}_float"
    fname = f"weights_mobilenet_v3_{model_name}{'.h5' if include_top else '_no_top_v2.h5'}"
    file_hash = _HASHES.get(model_name, (None, None))[0 if include_top else 1]
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights, (fname, _BASE + fname, file_hash))


def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False, include_top=True, weights="imagenet",
                     input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Small"):
    """MobileNetV3Small (Howard et al., 2019), as Keras builds it; inputs are pixels in [0, 255]."""
    return _mobilenet_v3(_SMALL, 1024, input_shape, alpha, "small", minimalistic, include_top, weights, input_tensor,
                         classes, pooling, dropout_rate, classifier_activation, include_preprocessing, name)


def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False, include_top=True, weights="imagenet",
                     input_tensor=None, classes=1000, pooling=None, dropout_rate=0.2, classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Large"):
    """MobileNetV3Large (Howard et al., 2019), as Keras builds it; inputs are pixels in [0, 255]."""
    return _mobilenet_v3(_LARGE, 1280, input_shape, alpha, "large", minimalistic, include_top, weights, input_tensor,
                         classes, pooling, dropout_rate, classifier_activation, include_preprocessing, name)


def preprocess_input(x, data_format=None):
    """A placeholder: MobileNetV3 models scale their inputs themselves; `x` is returned unchanged."""
    return x


decode_predictions = imagenet_utils.decode_predictions
