"""`keras.models`: Model, Sequential, and (later) saving and cloning."""
from tfcompat.keras.models.functional import Functional  # noqa: F401
from tfcompat.keras.models.model import Model  # noqa: F401
from tfcompat.keras.models.sequential import Sequential  # noqa: F401


def __getattr__(attr):
    # the saving functions live in tfcompat.keras.saving (imported on first use: it needs h5py)
    if attr in ("load_model", "save_model", "clone_model", "model_from_json"):
        from tfcompat.keras import saving
        return getattr(saving, attr)
    from tfcompat._api import missing
    raise missing("keras.models", attr)
