"""`keras.applications.nasnet`: NASNetMobile and NASNetLarge (NASNet-A normal and reduction cells) and their "tf"
preprocessing. Keras builds the cells inside name scopes, which its variables' paths show; so do these."""

from tfcompat.keras import layers
from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils
from tfcompat.keras.variables import name_scope

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/nasnet/"
_FILES = {   # default size: ((file, url name, hash) with top, without top)
    224: (("nasnet_mobile.h5", "NASNet-mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
          ("nasnet_mobile_no_top.h5", "NASNet-mobile-no-top.h5", "1ed92395b5b598bdda52abe5c0dbfd63")),
    331: (("nasnet_large.h5", "NASNet-large.h5", "11577c9a518f0070763c2b964a382f17"),
          ("nasnet_large_no_top.h5", "NASNet-large-no-top.h5", "d81d89dc07e6e56530c4e77faddd61b5")),
}
_CHANNEL = -1


def _bn(x, name):
    return layers.BatchNormalization(axis=_CHANNEL, momentum=0.9997, epsilon=1e-3, name=name)(x)


def _separable_conv_block(ip, filters, kernel_size=(3, 3), strides=(1, 1), block_id=None):
    """ReLU, separable conv (strided with Keras's padding), BN, ReLU, separable conv, BN."""
    with name_scope(f"separable_conv_block_{block_id}"):
        x = layers.Activation("relu")(ip)
        if strides == (2, 2):
            x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                     name=f"separable_conv_1_pad_{block_id}")(x)
        x = layers.SeparableConv2D(filters, kernel_size, strides=strides, name=f"separable_conv_1_{block_id}",
                                   padding="valid" if strides == (2, 2) else "same", use_bias=False)(x)
        x = _bn(x, f"separable_conv_1_bn_{block_id}")
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, kernel_size, name=f"separable_conv_2_{block_id}", padding="same",
                                   use_bias=False)(x)
        return _bn(x, f"separable_conv_2_bn_{block_id}")


def _adjust_block(p, ip, filters, block_id=None):
    """The previous cell's output matched to this cell's size (factorized reduction) or width (projection)."""
    with name_scope("adjust_block"):
        if p is None:
            return ip
        if p.shape[-2] != ip.shape[-2]:
            with name_scope(f"adjust_reduction_block_{block_id}"):
                p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
                p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                             name=f"adjust_avg_pool_1_{block_id}")(p)
                p1 = layers.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False,
                                   name=f"adjust_conv_1_{block_id}", kernel_initializer="he_normal")(p1)
                p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
                p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
                p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                             name=f"adjust_avg_pool_2_{block_id}")(p2)
                p2 = layers.Conv2D(filters // 2, (1, 1), padding="same", use_bias=False,
                                   name=f"adjust_conv_2_{block_id}", kernel_initializer="he_normal")(p2)
                p = layers.concatenate([p1, p2], axis=_CHANNEL)
                p = _bn(p, f"adjust_bn_{block_id}")
        elif p.shape[_CHANNEL] != filters:
            with name_scope(f"adjust_projection_block_{block_id}"):
                p = layers.Activation("relu")(p)
                p = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same",
                                  name=f"adjust_conv_projection_{block_id}", use_bias=False,
                                  kernel_initializer="he_normal")(p)
                p = _bn(p, f"adjust_bn_{block_id}")
    return p


def _squeeze(ip, filters, kind, block_id):
    h = layers.Activation("relu")(ip)
    h = layers.Conv2D(filters, (1, 1), strides=(1, 1), padding="same", name=f"{kind}_conv_1_{block_id}",
                      use_bias=False, kernel_initializer="he_normal")(h)
    return _bn(h, f"{kind}_bn_1_{block_id}")


def _avg_pool(x, strides, padding, name):
    return layers.AveragePooling2D((3, 3), strides=strides, padding=padding, name=name)(x)


def _normal_a_cell(ip, p, filters, block_id=None):
    with name_scope(f"normal_A_block_{block_id}"):
        p = _adjust_block(p, ip, filters, block_id)
        h = _squeeze(ip, filters, "normal", block_id)
        with name_scope("block_1"):
            x1 = layers.add([_separable_conv_block(h, filters, kernel_size=(5, 5), block_id=f"normal_left1_{block_id}"),
                             _separable_conv_block(p, filters, block_id=f"normal_right1_{block_id}")],
                            name=f"normal_add_1_{block_id}")
        with name_scope("block_2"):
            x2 = layers.add([_separable_conv_block(p, filters, (5, 5), block_id=f"normal_left2_{block_id}"),
                             _separable_conv_block(p, filters, (3, 3), block_id=f"normal_right2_{block_id}")],
                            name=f"normal_add_2_{block_id}")
        with name_scope("block_3"):
            x3 = layers.add([_avg_pool(h, (1, 1), "same", f"normal_left3_{block_id}"), p],
                            name=f"normal_add_3_{block_id}")
        with name_scope("block_4"):
            x4 = layers.add([_avg_pool(p, (1, 1), "same", f"normal_left4_{block_id}"),
                             _avg_pool(p, (1, 1), "same", f"normal_right4_{block_id}")],
                            name=f"normal_add_4_{block_id}")
        with name_scope("block_5"):
            x5 = layers.add([_separable_conv_block(h, filters, block_id=f"normal_left5_{block_id}"), h],
                            name=f"normal_add_5_{block_id}")
        x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=_CHANNEL, name=f"normal_concat_{block_id}")
    return x, ip


def _reduction_a_cell(ip, p, filters, block_id=None):
    with name_scope(f"reduction_A_block_{block_id}"):
        p = _adjust_block(p, ip, filters, block_id)
        h = _squeeze(ip, filters, "reduction", block_id)
        h3 = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3), name=f"reduction_pad_1_{block_id}")(h)
        with name_scope("block_1"):
            x1 = layers.add([
                _separable_conv_block(h, filters, (5, 5), strides=(2, 2), block_id=f"reduction_left1_{block_id}"),
                _separable_conv_block(p, filters, (7, 7), strides=(2, 2), block_id=f"reduction_right1_{block_id}")],
                name=f"reduction_add_1_{block_id}")
        with name_scope("block_2"):
            x2_1 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_left2_{block_id}")(h3)
            x2_2 = _separable_conv_block(p, filters, (7, 7), strides=(2, 2), block_id=f"reduction_right2_{block_id}")
            x2 = layers.add([x2_1, x2_2], name=f"reduction_add_2_{block_id}")
        with name_scope("block_3"):
            x3_1 = _avg_pool(h3, (2, 2), "valid", f"reduction_left3_{block_id}")
            x3_2 = _separable_conv_block(p, filters, (5, 5), strides=(2, 2), block_id=f"reduction_right3_{block_id}")
            x3 = layers.add([x3_1, x3_2], name=f"reduction_add3_{block_id}")
        with name_scope("block_4"):
            x4 = layers.add([x2, _avg_pool(x1, (1, 1), "same", f"reduction_left4_{block_id}")])
        with name_scope("block_5"):
            x5_1 = _separable_conv_block(x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}")
            x5_2 = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="valid", name=f"reduction_right5_{block_id}")(h3)
            x5 = layers.add([x5_1, x5_2], name=f"reduction_add4_{block_id}")
        x = layers.concatenate([x2, x3, x4, x5], axis=_CHANNEL, name=f"reduction_concat_{block_id}")
        return x, ip


def _nasnet(input_shape, penultimate_filters, num_blocks, stem_block_filters, skip_reduction, filter_multiplier,
            include_top, weights, input_tensor, pooling, classes, default_size, classifier_activation, name):
    if config.image_data_format == "channels_first":
        raise ValueError("NASNet does not support the `channels_first` image data format. Switch to "
                         "`channels_last` by editing your local config file at ~/.keras/keras.json")
    imagenet_utils.check_weights_as(weights, include_top, classes, ".",
                                    'If using `weights` as `"imagenet"` with `include_top` as true, `classes` '
                                    'should be 1000')
    if isinstance(input_shape, tuple) and None in input_shape and weights == "imagenet":
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` weights, the "
                         f"input_shape argument must be static (no None entries). Got: `input_shape={input_shape}`.")
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=default_size, min_size=32,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    if penultimate_filters % (24 * (filter_multiplier**2)) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of 24 * "
                         f"(`filter_multiplier` ** 2). Current value: {penultimate_filters}")
    filters = penultimate_filters // 24
    x = layers.Conv2D(stem_block_filters, (3, 3), strides=(2, 2), padding="valid", use_bias=False, name="stem_conv1",
                      kernel_initializer="he_normal")(img_input)
    x = _bn(x, "stem_bn1")
    x, p = _reduction_a_cell(x, None, filters // (filter_multiplier**2), block_id="stem_1")
    x, p = _reduction_a_cell(x, p, filters // filter_multiplier, block_id="stem_2")
    for stage in range(3):
        if stage:
            x, p0 = _reduction_a_cell(x, p, filters * filter_multiplier**stage,
                                      block_id=f"reduce_{stage * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            x, p = _normal_a_cell(x, p, filters * filter_multiplier**stage,
                                  block_id=f"{stage * num_blocks + i + (1 if stage else 0)}")
    x = layers.Activation("relu")(x)
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights)
    model = imagenet_utils.build_model(img_input, input_tensor, x, name, None if weights == "imagenet" else weights)
    if weights == "imagenet":
        if default_size not in _FILES:
            raise ValueError("ImageNet weights can only be loaded with NASNetLarge or NASNetMobile")
        fname, url_name, file_hash = _FILES[default_size][0 if include_top else 1]
        model.load_weights(imagenet_utils._cached_weights(fname, _BASE + url_name, file_hash))
    return model


def NASNetMobile(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                 classes=1000, classifier_activation="softmax", name="nasnet_mobile"):
    """NASNet-A Mobile (Zoph et al., 2017), as Keras builds it (default input 224x224)."""
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return _nasnet(input_shape, 1056, 4, 32, False, 2, include_top, weights, input_tensor, pooling, classes, 224,
                   classifier_activation, name)


def NASNetLarge(input_shape=None, include_top=True, weights="imagenet", input_tensor=None, pooling=None,
                classes=1000, classifier_activation="softmax", name="nasnet_large"):
    """NASNet-A Large, as Keras builds it (default input 331x331)."""
    return _nasnet(input_shape, 4032, 6, 96, True, 2, include_top, weights, input_tensor, pooling, classes, 331,
                   classifier_activation, name)


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
