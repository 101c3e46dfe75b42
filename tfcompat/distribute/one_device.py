"""`tf.distribute.OneDeviceStrategy`: one replica on one device (variables stay plain `tf.Variable`s)."""
import contextlib

from tfcompat.distribute import devices
from tfcompat.distribute.strategy import Strategy, StrategyExtended
from tfcompat.framework.device import device as device_scope
from tfcompat.framework.export import tf_export


class OneDeviceExtended(StrategyExtended):
    _tf_path = "one_device_strategy.OneDeviceExtended"

    def _on_variable_created(self, v):
        v._distribute_strategy = self._container_strategy


@tf_export("distribute.OneDeviceStrategy")
class OneDeviceStrategy(Strategy):
    """Runs everything on `device`: variables are placed there, `run` calls the function once."""

    _tf_path = "one_device_strategy.OneDeviceStrategy"
    _tf_replica_context_path = "one_device_strategy._OneDeviceReplicaContext"

    def __init__(self, device):
        name = devices.canonical(device)
        super().__init__(OneDeviceExtended(self, [name]))

    @contextlib.contextmanager
    def scope(self):
        with super().scope(), device_scope(self.extended.worker_devices[0]):
            yield self
