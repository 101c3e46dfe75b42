"""The ResNet graphs: the stem, residual stacks (v1: post-activation, v2: pre-activation) and the head."""
from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
_HASHES = {   # Keras's weight files: (with top, without top)
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}
_EPS = 1.001e-5


def _bn_axis():
    return 3 if config.image_data_format == "channels_last" else 1


def block_v1(x, filters, stride=1, conv_shortcut=True, name=None):
    """Bottleneck block with the activation after the addition (ResNet v1)."""
    from tfcompat.keras import layers
    axis = _bn_axis()
    shortcut = x
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(x)
        shortcut = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_0_bn")(shortcut)
    for i, (width, kernel, step) in enumerate(((filters, 1, stride), (filters, 3, 1)), start=1):
        x = layers.Conv2D(width, kernel, strides=step, padding="same" if kernel == 3 else "valid",
                          name=f"{name}_{i}_conv")(x)
        x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_{i}_bn")(x)
        x = layers.Activation("relu", name=f"{name}_{i}_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_3_bn")(x)
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def stack_v1(x, filters, blocks, stride1=2, name=None):
    x = block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = block_v1(x, filters, conv_shortcut=False, name=f"{name}_block{i}")
    return x


def block_v2(x, filters, stride=1, conv_shortcut=False, name=None):
    """Bottleneck block with batch normalization and ReLU before each convolution (ResNet v2)."""
    from tfcompat.keras import layers
    axis = _bn_axis()
    preact = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_preact_bn")(x)
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=f"{name}_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=f"{name}_1_conv")(preact)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, 3, strides=stride, use_bias=False, name=f"{name}_2_conv")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name=f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def stack_v2(x, filters, blocks, stride1=2, name=None):
    x = block_v2(x, filters, conv_shortcut=True, name=f"{name}_block1")
    for i in range(2, blocks):
        x = block_v2(x, filters, name=f"{name}_block{i}")
    return block_v2(x, filters, stride=stride1, name=f"{name}_block{blocks}")


def build(blocks, preact, include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation,
          name, weights_name):
    """A ResNet with `blocks` bottlenecks in stages conv2..conv5 (v2 when `preact`)."""
    from tfcompat.keras import layers
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=True, name="conv1_conv")(x)
    if not preact:
        x = layers.BatchNormalization(axis=_bn_axis(), epsilon=_EPS, name="conv1_bn")(x)
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    for stage, (filters, count) in enumerate(zip((64, 128, 256, 512), blocks), start=2):
        if preact:
            x = stack_v2(x, filters, count, stride1=1 if stage == 5 else 2, name=f"conv{stage}")
        else:
            x = stack_v1(x, filters, count, stride1=1 if stage == 2 else 2, name=f"conv{stage}")
    if preact:
        x = layers.BatchNormalization(axis=_bn_axis(), epsilon=_EPS, name="post_bn")(x)
        x = layers.Activation("relu", name="post_relu")(x)
    x = imagenet_utils.classifier_or_pooling(x, include_top, pooling, classes, classifier_activation, weights,
                                             top_pool_name="avg_pool", pool_names=("avg_pool", "max_pool"))
    fname = f"{weights_name}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + fname, _HASHES[weights_name][0 if include_top else 1]))
