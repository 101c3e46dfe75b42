"""`keras.applications.vgg16`: VGG16 (random or ImageNet weights) and its "caffe" preprocessing."""
from tfcompat.keras.applications import _vgg, imagenet_utils


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg16"):
    """The VGG16 model (Simonyan & Zisserman, 2014), as Keras builds it."""
    return _vgg.build((2, 2, 3, 3, 3), include_top, weights, input_tensor, input_shape, pooling, classes,
                      classifier_activation, name, ("64373286793e3c8b2b4e3219cbf3544b",
                                                    "6d6bbae143d832006294945121d1f1fc"))


def preprocess_input(x, data_format=None):
    """RGB in [0, 255] to BGR with the ImageNet means subtracted ("caffe")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


decode_predictions = imagenet_utils.decode_predictions
