"""The VGG16/VGG19 graph: five blocks of 3x3 convolutions and max pooling, then Keras's classifier head."""
from tfcompat.keras._config import config
from tfcompat.keras.applications import imagenet_utils

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/"


def build(convs_per_block, include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation,
          name, file_hashes):
    """VGG with `convs_per_block[i]` convolutions in block i+1 (VGG16: 2, 2, 3, 3, 3; VGG19: 2, 2, 4, 4, 4)."""
    from tfcompat.keras import layers
    imagenet_utils.check_weights(weights, include_top, classes)
    input_shape = imagenet_utils.obtain_input_shape(input_shape, default_size=224, min_size=32,
                                                    data_format=config.image_data_format,
                                                    require_flatten=include_top, weights=weights)
    img_input = imagenet_utils.image_input(input_tensor, input_shape)
    x = img_input
    for block, (filters, convs) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block), start=1):
        for i in range(1, convs + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same", name=f"block{block}_conv{i}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = imagenet_utils.classifier_or_pooling(x, False, pooling, classes, classifier_activation, weights)
    fname = f"{name}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
    folder = "vgg16/" if name == "vgg16" else "vgg19/"
    return imagenet_utils.build_model(img_input, input_tensor, x, name, weights,
                                      (fname, _BASE + folder + fname, file_hashes[0 if include_top else 1]))
