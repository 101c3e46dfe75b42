"""`keras.layers`: every Keras layer tfcompat provides."""
from tfcompat.keras.layers.base import Layer  # noqa: F401
from tfcompat.keras.layers.input_layer import Input, InputLayer  # noqa: F401
from tfcompat.keras.layers.core import Activation, Dense, Dropout, Flatten, Identity, Lambda  # noqa: F401
from tfcompat.keras.layers.pooling import (  # noqa: F401
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D, GlobalAvgPool1D, GlobalAvgPool2D,
    GlobalAvgPool3D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D, GlobalMaxPooling1D, GlobalMaxPooling2D,
    GlobalMaxPooling3D)
