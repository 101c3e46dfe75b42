"""`keras.models`: Model, Sequential, and (later) saving and cloning."""
from tfcompat.keras.models.functional import Functional  # noqa: F401
from tfcompat.keras.models.model import Model  # noqa: F401
from tfcompat.keras.models.sequential import Sequential  # noqa: F401
