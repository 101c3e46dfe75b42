"""`keras.applications.resnet_v2`: ResNet50V2/101V2/152V2 and their "tf" preprocessing (to [-1, 1])."""
from tfcompat.keras.applications import _resnet, imagenet_utils


def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
               classifier_activation="softmax", name="resnet50v2"):
    """ResNet50V2 (He et al., 2016, pre-activation), as Keras builds it."""
    return _resnet.build((3, 4, 6, 3), True, include_top, weights, input_tensor, input_shape, pooling, classes,
                         classifier_activation, name, "resnet50v2")


def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="resnet101v2"):
    """ResNet101V2, as Keras builds it."""
    return _resnet.build((3, 4, 23, 3), True, include_top, weights, input_tensor, input_shape, pooling, classes,
                         classifier_activation, name, "resnet101v2")


def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="resnet152v2"):
    """ResNet152V2, as Keras builds it."""
    return _resnet.build((3, 8, 36, 3), True, include_top, weights, input_tensor, input_shape, pooling, classes,
                         classifier_activation, name, "resnet152v2")


def preprocess_input(x, data_format=None):
    """Pixels in [0, 255] scaled to [-1, 1] ("tf")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
