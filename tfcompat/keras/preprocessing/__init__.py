"""`keras.preprocessing`: the sequence helpers (`sequence.pad_sequences`) and the image file helpers (`image`)."""
from tfcompat.keras.preprocessing import image, sequence  # noqa: F401
