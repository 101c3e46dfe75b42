"""`keras.applications.resnet50`: ResNet50 and its preprocessing (the names of `keras.applications.resnet`)."""
from tfcompat.keras.applications.resnet import ResNet50, decode_predictions, preprocess_input  # noqa: F401
