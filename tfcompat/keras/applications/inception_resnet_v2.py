"""`keras.applications.inception_resnet_v2`: InceptionResNetV2 (inception modules with scaled residual connections)
and its "tf" preprocessing."""

from tfcompat.keras import layers
from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils
from tfcompat.keras.layers import Layer

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/inception_resnet_v2/"
_HASHES = ("e693bd0210a403b3192acc6073ad2e96", "d19885ff4a710c122648d3b5c3b684e4")


def _axis():
    return 1 if config.image_data_format == "channels_first" else 3


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same", activation="relu", use_bias=False, name=None):
    """Convolution, batch normalization without scale (unless `use_bias`), activation."""
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias, name=name)(x)
    if not use_bias:
        x = layers.BatchNormalization(axis=_axis(), scale=False, name=None if name is None else f"{name}_bn")(x)
    if activation is not None:
        x = layers.Activation(activation, name=None if name is None else f"{name}_ac")(x)
    return x


class CustomScaleLayer(Layer):
    """`inputs[0] + inputs[1] * scale`: the scaled residual connection."""

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def get_config(self):
        config_ = super().get_config()
        config_.update({"scale": self.scale})
        return config_

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale


# the branches of each block type: lists of (filters, kernel) convolutions
_BLOCKS = {
    "block35": ([(32, 1)], [(32, 1), (32, 3)], [(32, 1), (48, 3), (64, 3)]),
    "block17": ([(192, 1)], [(128, 1), (160, [1, 7]), (192, [7, 1])]),
    "block8": ([(192, 1)], [(192, 1), (224, [1, 3]), (256, [3, 1])]),
}


def inception_resnet_block(x, scale, block_type, block_idx, activation="relu"):
    if block_type not in _BLOCKS:
        raise ValueError('Unknown Inception-ResNet block type. Expects "block35", "block17" or "block8", but got: '
                         f"{block_type}")
    branches = []
    for steps in _BLOCKS[block_type]:
        branch = x
        for filters, kernel in steps:
            branch = conv2d_bn(branch, filters, kernel)
        branches.append(branch)
    name = f"{block_type}_{block_idx}"
    axis = _axis()
    mixed = layers.Concatenate(axis=axis, name=f"{name}_mixed")(branches)
    up = conv2d_bn(mixed, x.shape[axis], 1, activation=None, use_bias=True, name=f"{name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{name}_ac")(x)
    return x


def InceptionResNetV2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None,
                      classes=1000, classifier_activation="softmax", name="inception_resnet_v2"):
    """InceptionResNetV2 (Szegedy et al., 2016), as Keras builds it (default input 299x299, at least 75x75)."""
    imagenet_utils.check_weights_as(weights, include_top, classes, ".",
                                    'If using `weights="imagenet"` with `include_top=True`, `classes` should '
                                    'be 1000. Received classes={classes}')
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=75,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = _axis()
    x = conv2d_bn(img_input, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)
    branch_0 = conv2d_bn(x, 96, 1)
    branch_1 = conv2d_bn(conv2d_bn(x, 48, 1), 64, 5)
    branch_2 = conv2d_bn(conv2d_bn(conv2d_bn(x, 64, 1), 96, 3), 96, 3)
    branch_pool = conv2d_bn(layers.AveragePooling2D(3, strides=1, padding="same")(x), 64, 1)
    x = layers.Concatenate(axis=axis, name="mixed_5b")([branch_0, branch_1, branch_2, branch_pool])
    for block_idx in range(1, 11):
        x = inception_resnet_block(x, scale=0.17, block_type="block35", block_idx=block_idx)
    branch_0 = conv2d_bn(x, 384, 3, strides=2, padding="valid")
    branch_1 = conv2d_bn(conv2d_bn(conv2d_bn(x, 256, 1), 256, 3), 384, 3, strides=2, padding="valid")
    branch_pool = layers.MaxPooling2D(3, strides=2, padding="valid")(x)
    x = layers.Concatenate(axis=axis, name="mixed_6a")([branch_0, branch_1, branch_pool])
    for block_idx in range(1, 21):
        x = inception_resnet_block(x, scale=0.1, block_type="block17", block_idx=block_idx)
    branch_0 = conv2d_bn(conv2d_bn(x, 256, 1), 384, 3, strides=2, padding="valid")
    branch_1 = conv2d_bn(conv2d_bn(x, 256, 1), 288, 3, strides=2, padding="valid")
    branch_2 = conv2d_bn(conv2d_bn(conv2d_bn(x, 256, 1), 288, 3), 320, 3, strides=2, padding="valid")
    branch_pool = layers.MaxPooling2D(3, strides=2, padding="valid")(x)
    x = layers.Concatenate(axis=axis, name="mixed_7a")([branch_0, branch_1, branch_2, branch_pool])
    for block_idx in range(1, 10):
        x = inception_resnet_block(x, scale=0.2, block_type="block8", block_idx=block_idx)
    x = inception_resnet_block(x, scale=1.0, activation=None, block_type="block8", block_idx=10)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                             top_pool_name="avg_pool")
    fname = f"inception_resnet_v2_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, _HASHES[0 if include_top else 1]))


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
