"""`keras.applications.vgg19`: VGG19 (random or ImageNet weights) and its "caffe" preprocessing."""
from tfcompat.keras.applications import _vgg, imagenet_utils


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg19"):
    """The VGG19 model (Simonyan & Zisserman, 2014), as Keras builds it."""
    return _vgg.build((2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape, pooling, classes,
                      classifier_activation, name, ("cbe5617147190e668d6c5d5026f83318",
                                                    "253f8cb515780f3b799900260a226db6"))


def preprocess_input(x, data_format=None):
    """RGB in [0, 255] to BGR with the ImageNet means subtracted ("caffe")."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


decode_predictions = imagenet_utils.decode_predictions
