"""`keras.applications.resnet`: ResNet50/101/152 (v1) and their "caffe" preprocessing."""
from tfcompat.keras.applications import _resnet, imagenet_utils


def ResNet50(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="resnet50"):
    """ResNet50 (He et al., 2015), as Keras builds it."""
    return _resnet.build((3, 4, 6, 3), False, include_top, weights, input_tensor, input_shape, pooling, classes,
                         classifier_activation, name, "resnet50")


def ResNet101(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet101"):
    """ResNet101, as Keras builds it."""
    return _resnet.build((3, 4, 23, 3), False, include_top, weights, input_tensor, input_shape, pooling, classes,
                         classifier_activation, name, "resnet101")


def ResNet152(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet152"):
    """ResNet152, as Keras builds it."""
    return _resnet.build((3, 8, 36, 3), False, include_top, weights, input_tensor, input_shape, pooling, classes,
                         classifier_activation, name, "resnet152")


def preprocess_input(x, data_format=None):
    """RGB in [0, 255] to BGR with the ImageNet means subtracted ("caffe")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


decode_predictions = imagenet_utils.decode_predictions
