"""`keras.applications.densenet`: DenseNet121/169/201 (densely connected blocks and transitions) and their "torch"
preprocessing."""

from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/densenet/"
_HASHES = {   # Keras's weight files: (with top, without top)
    (6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
    (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
    (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1"),
}
_EPS = 1.001e-5


def _axis():
    return 3 if config.image_data_format == "channels_last" else 1


def conv_block(x, growth_rate, name):
    """BN-ReLU-1x1 conv (4 x growth), BN-ReLU-3x3 conv (growth), concatenated to the input."""
    from tfcompat.keras import layers
    axis = _axis()
    x1 = x
    for i, (filters, kernel) in enumerate(((4 * growth_rate, 1), (growth_rate, 3))):
        x1 = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_{i}_bn")(x1)
        x1 = layers.Activation("relu", name=f"{name}_{i}_relu")(x1)
        x1 = layers.Conv2D(filters, kernel, padding="same" if kernel == 3 else "valid", use_bias=False,
                           name=f"{name}_{i + 1}_conv")(x1)
    return layers.Concatenate(axis=axis, name=f"{name}_concat")([x, x1])


def dense_block(x, blocks, name):
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """BN-ReLU, a 1x1 convolution to `reduction` of the channels, 2x2 average pooling."""
    from tfcompat.keras import layers
    axis = _axis()
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_bn")(x)
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[axis] * reduction), 1, use_bias=False, name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def _densenet(blocks, include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation,
              name):
    from tfcompat.keras import layers
    if config.image_data_format == "channels_first":
        raise ValueError("DenseNet does not support the `channels_first` image data format. Switch to "
                         "`channels_last` by editing your local config file at ~/.keras/keras.json")
    imagenet_utils.check_weights_as(weights, include_top, classes, ".",
                                    'If using `weights` as `"imagenet"` with `include_top` as true, `classes` '
                                    'should be 1000')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = _axis()
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name="conv1_bn")(x)
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        x = dense_block(x, count, name=f"conv{stage}")
        if stage < 5:
            x = transition_block(x, 0.5, name=f"pool{stage}")
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name="bn")(x)
    x = layers.Activation("relu", name="relu")(x)
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                             top_pool_name="avg_pool", pool_names=("avg_pool", "max_pool"))
    stem, top_hash, notop_hash = _HASHES[tuple(blocks)]
    fname = f"{stem}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, top_hash if include_top else notop_hash))


def DenseNet121(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet121"):
    """DenseNet121 (Huang et al., 2016), as Keras builds it."""
    return _densenet((6, 12, 24, 16), include_top, weights, input_tensor, input_shape, pooling, classes,
                     classifier_activation, name)


def DenseNet169(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet169"):
    """DenseNet169, as Keras builds it."""
    return _densenet((6, 12, 32, 32), include_top, weights, input_tensor, input_shape, pooling, classes,
                     classifier_activation, name)


def DenseNet201(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="densenet201"):
    """DenseNet201, as Keras builds it."""
    return _densenet((6, 12, 48, 32), include_top, weights, input_tensor, input_shape, pooling, classes,
                     classifier_activation, name)


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [0, 1], then normalized with ImageNet's per-channel mean and std ("torch")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


decode_predictions = imagenet_utils.decode_predictions
