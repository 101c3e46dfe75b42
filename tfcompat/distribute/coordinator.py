"""`tf.distribute.coordinator`: ParameterServerStrategy's scheduler, which tfcompat does not provide."""
from tfcompat.distribute.unsupported import ClusterCoordinator  # noqa: F401


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("distribute.coordinator", attr)
