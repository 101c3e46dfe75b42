"""`tf.distribute.MirroredStrategy`: synchronous replicas on the local devices of one process.

The replicas are the given devices (default: every CUDA GPU, else the CPU), e.g. logical CPU devices made with
`tf.config.set_logical_device_configuration`, which share the process's torch device and one copy of each
variable. Several GPUs: each replica computes on its own GPU on copies of the variables there; the primary copies
live on the first GPU, where the replicas' gradients are summed and applied (TF's reduction to one device).
"""
import contextlib

from tfcompat.distribute import devices
from tfcompat.distribute.strategy import Strategy, StrategyExtended
from tfcompat.framework.export import tf_export


class MirroredExtended(StrategyExtended):
    _tf_path = "mirrored_strategy.MirroredExtended"

    def __init__(self, container_strategy, names):
        super().__init__(container_strategy, names)
        self._replica_devices = devices.replica_devices(self._devices)


@tf_export("distribute.MirroredStrategy")
class MirroredStrategy(Strategy):
    """Synchronous training on several devices of one machine (replicas in lock-step, variables mirrored)."""

    _eager_run_site = "mirrored_run"
    _always_wrap_values = True
    _tf_path = "mirrored_strategy.MirroredStrategy"
    _tf_replica_context_path = "mirrored_run._MirroredReplicaContext"

    def __init__(self, devices=None, cross_device_ops=None):
        # TF: `devices or all_local_devices()`, so an empty list means the local devices; LogicalDevices count
        # by their names (tf.config.list_logical_devices' result can be passed as it is).
        names = [_canonical(getattr(d, "name", d)) for d in (devices or _default())]
        if not names:
            raise AssertionError("Got an empty `devices` list and unable to recognize any local devices.")
        _check(names)
        super().__init__(MirroredExtended(self, names))

    @contextlib.contextmanager
    def scope(self):
        with super().scope(), self.extended._primary_device():     # variables' primary copies on the first device
            yield self


_canonical = devices.canonical
_default = devices.default_local_devices
_check = devices.check_local
