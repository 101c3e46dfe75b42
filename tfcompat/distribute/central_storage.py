"""`tf.distribute.experimental.CentralStorageStrategy` on one compute device: variables stay plain ones."""
from tfcompat.distribute import devices
from tfcompat.distribute.strategy import Strategy, StrategyExtended
from tfcompat.framework.export import tf_export


class CentralStorageExtended(StrategyExtended):
    _tf_path = "parameter_server_strategy.ParameterServerStrategyExtended"

    def __init__(self, container_strategy, compute_devices, parameter_device):
        super().__init__(container_strategy, compute_devices)
        self._parameter_device = parameter_device

    @property
    def worker_devices(self):
        return list(self._devices)

    @property
    def parameter_devices(self):
        return (self._parameter_device,)

    def _on_variable_created(self, v):
        """As TF's on one compute device: a plain variable (on the parameter device), owned by this strategy."""
        v._distribute_strategy = self._container_strategy


@tf_export("distribute.experimental.CentralStorageStrategy")
class CentralStorageStrategy(Strategy):
    """Variables on one parameter device, computation on the compute devices (default: the first GPU, else CPU)."""

    _eager_run_site = "parameter_server"
    _tf_path = "central_storage_strategy.CentralStorageStrategy"
    _tf_replica_context_path = "mirrored_run._MirroredReplicaContext"

    def __init__(self, compute_devices=None, parameter_device=None):
        names = [devices.canonical(d) for d in (compute_devices if compute_devices is not None else
                                                devices.default_local_devices()[:1])]
        if len(names) != 1:
            raise NotImplementedError("CentralStorageStrategy over several compute devices is not supported by "
                                      "tfcompat (TF's AggregatingVariable): use MirroredStrategy")
        super().__init__(CentralStorageExtended(self, names, parameter_device or devices.canonical("CPU:0")))
