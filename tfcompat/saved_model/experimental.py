"""`tf.saved_model.experimental`: the names of it tfcompat has (`VariablePolicy`)."""
from tfcompat.saved_model._options import VariablePolicy  # noqa: F401


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("saved_model.experimental", attr)
