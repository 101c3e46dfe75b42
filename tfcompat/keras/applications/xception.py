"""`keras.applications.xception`: Xception (depthwise separable convolutions) and its "tf" preprocessing."""
from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/xception/"
_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def _sep_bn(x, filters, name, axis):
    from tfcompat.keras import layers
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=axis, name=f"{name}_bn")(x)


def _downsampling_block(x, block, filters, axis, first_relu=True):
    """Two separable convolutions and a strided max pooling, added to a strided 1x1 convolution of the input."""
    from tfcompat.keras import layers
    residual = layers.Conv2D(filters[1], (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    residual = layers.BatchNormalization(axis=axis)(residual)
    if first_relu:
        x = layers.Activation("relu", name=f"block{block}_sepconv1_act")(x)
    x = _sep_bn(x, filters[0], f"block{block}_sepconv1", axis)
    x = layers.Activation("relu", name=f"block{block}_sepconv2_act")(x)
    x = _sep_bn(x, filters[1], f"block{block}_sepconv2", axis)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same", name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="xception"):
    """Xception (Chollet, 2017), as Keras builds it (default input 299x299)."""
    from tfcompat.keras import layers
    imagenet_utils.check_weights(weights, include_top, classes, show_received=False)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=299, min_size=71,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    axis = 1 if config.image_data_format == "channels_first" else -1
    x = img_input
    for i, (filters, strides) in enumerate(((32, (2, 2)), (64, (1, 1))), start=1):
        x = layers.Conv2D(filters, (3, 3), strides=strides, use_bias=False, name=f"block1_conv{i}")(x)
        x = layers.BatchNormalization(axis=axis, name=f"block1_conv{i}_bn")(x)
        x = layers.Activation("relu", name=f"block1_conv{i}_act")(x)
    x = _downsampling_block(x, 2, (128, 128), axis, first_relu=False)
    x = _downsampling_block(x, 3, (256, 256), axis)
    x = _downsampling_block(x, 4, (728, 728), axis)
    for block in range(5, 13):              # the middle flow: eight residual blocks of three separable convs
        residual = x
        for i in (1, 2, 3):
            x = layers.Activation("relu", name=f"block{block}_sepconv{i}_act")(x)
            x = _sep_bn(x, 728, f"block{block}_sepconv{i}", axis)
        x = layers.add([x, residual])
    x = _downsampling_block(x, 13, (728, 1024), axis)
    for i, filters in ((1, 1536), (2, 2048)):
        x = _sep_bn(x, filters, f"block14_sepconv{i}", axis)
        x = layers.Activation("relu", name=f"block14_sepconv{i}_act")(x)
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                             top_pool_name="avg_pool")
    fname = f"xception_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, _HASHES[0 if include_top else 1]))


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
