"""`tf.distribute.experimental.coordinator`: the older spelling of `tf.distribute.coordinator` (not provided)."""
from tfcompat.distribute.unsupported import ClusterCoordinator  # noqa: F401


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("distribute.experimental.coordinator", attr)
