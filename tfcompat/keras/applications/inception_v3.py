"""`keras.applications.inception_v3`: InceptionV3 (factorized inception modules mixed0..mixed10) and its "tf"
preprocessing."""

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/inception_v3/"
_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63")


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1), name=None):
    """Convolution without bias, batch normalization without scale, ReLU (Keras's auto names unless `name`)."""
    from tfcompat.keras import layers
    axis = 1 if config.image_data_format == "channels_first" else 3
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides, padding=padding, use_bias=False,
                      name=None if name is None else f"{name}_conv")(x)
    x = layers.BatchNormalization(axis=axis, scale=False, name=None if name is None else f"{name}_bn")(x)
    return layers.Activation("relu", name=name)(x)


def _branch(x, steps):
    """One branch: `steps` of (filters, rows, cols[, strided valid]) convolutions, or "avg"/"max" pooling."""
    from tfcompat.keras import layers
    for step in steps:
        if step == "avg":
            x = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
        elif step == "max":
            x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
        elif len(step) == 4:
            x = conv2d_bn(x, *step[:3], strides=(2, 2), padding="valid")
        else:
            x = conv2d_bn(x, *step)
    return x


def _mixed(x, branches, name, axis):
    from tfcompat.keras import layers
    return layers.concatenate([_branch(x, steps) for steps in branches], axis=axis, name=name)


def _mixed_a(pool_filters):        # 35x35 modules
    return ([(64, 1, 1)], [(48, 1, 1), (64, 5, 5)], [(64, 1, 1), (96, 3, 3), (96, 3, 3)],
            ["avg", (pool_filters, 1, 1)])


def _mixed_c(width):               # 17x17 modules with factorized 7x7 convolutions
    return ([(192, 1, 1)], [(width, 1, 1), (width, 1, 7), (192, 7, 1)],
            [(width, 1, 1), (width, 7, 1), (width, 1, 7), (width, 7, 1), (192, 1, 7)], ["avg", (192, 1, 1)])


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="inception_v3"):
    """InceptionV3 (Szegedy et al., 2015), as Keras builds it (default input 299x299, at least 75x75)."""
    from tfcompat.keras import layers
    imagenet_utils.check_weights_as(weights, include_top, classes, "; Received: weights={weights}",
                                    'If using `weights="imagenet"` with `include_top=True`, `classes` should '
                                    'be 1000. Received classes={classes}')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=75,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = 1 if config.image_data_format == "channels_first" else 3
    x = conv2d_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _mixed(x, _mixed_a(pool_filters), f"mixed{i}", axis)
    x = _mixed(x, ([(384, 3, 3, 2)], [(64, 1, 1), (96, 3, 3), (96, 3, 3, 2)], ["max"]), "mixed3", axis)
    for i, width in enumerate((128, 160, 160, 192)):
        x = _mixed(x, _mixed_c(width), f"mixed{4 + i}", axis)
    x = _mixed(x, ([(192, 1, 1), (320, 3, 3, 2)], [(192, 1, 1), (192, 1, 7), (192, 7, 1), (192, 3, 3, 2)], ["max"]),
               "mixed8", axis)
    for i in range(2):                 # 8x8 modules with split 1x3/3x1 branches
        branch1x1 = conv2d_bn(x, 320, 1, 1)
        branch3x3 = conv2d_bn(x, 384, 1, 1)
        branch3x3 = layers.concatenate([conv2d_bn(branch3x3, 384, 1, 3), conv2d_bn(branch3x3, 384, 3, 1)],
                                       axis=axis, name=f"mixed9_{i}")
        branch3x3dbl = _branch(x, [(448, 1, 1), (384, 3, 3)])
        branch3x3dbl = layers.concatenate([conv2d_bn(branch3x3dbl, 384, 1, 3), conv2d_bn(branch3x3dbl, 384, 3, 1)],
                                          axis=axis)
        branch_pool = _branch(x, ["avg", (192, 1, 1)])
        x = layers.concatenate([branch1x1, branch3x3, branch3x3dbl, branch_pool], axis=axis, name=f"mixed{9 + i}")
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                             top_pool_name="avg_pool")
    fname = f"inception_v3_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, _HASHES[0 if include_top else 1]))


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
