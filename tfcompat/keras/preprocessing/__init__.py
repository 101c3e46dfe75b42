"""`keras.preprocessing`: the sequence helpers (`sequence.pad_sequences`)."""
from tfcompat.keras.preprocessing import sequence  # noqa: F401
