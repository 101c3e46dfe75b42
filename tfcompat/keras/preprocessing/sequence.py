"""`keras.preprocessing.sequence`."""
from tfcompat.keras.utils import pad_sequences  # noqa: F401
