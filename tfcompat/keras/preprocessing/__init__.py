"""`keras.preprocessing`: the sequence helpers (`sequence.pad_sequences`), the image file helpers (`image`), the
legacy text helpers (`text`: `Tokenizer`, TF's `tf.keras.preprocessing.text`) and the
dataset builders `keras.utils` also exports."""
from tfcompat.keras.preprocessing import image, sequence, text  # noqa: F401
from tfcompat.keras.utils_data import (  # noqa: F401
    image_dataset_from_directory, text_dataset_from_directory, timeseries_dataset_from_array)
