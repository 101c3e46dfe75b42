"""The strategies tfcompat does not provide: constructing one raises NotImplementedError naming it."""
from tfcompat.framework.export import tf_export


def _message(name, why):
    return (f"tf.distribute.{name} is not supported by tfcompat ({why}); use MirroredStrategy (one process) or "
            "MultiWorkerMirroredStrategy (torch.distributed workers)")


@tf_export("distribute.ParameterServerStrategy", "distribute.experimental.ParameterServerStrategy")
class ParameterServerStrategy:
    def __init__(self, cluster_resolver=None, variable_partitioner=None):
        raise NotImplementedError(_message("ParameterServerStrategy", "no parameter servers or coordinator"))


@tf_export("distribute.TPUStrategy", "distribute.experimental.TPUStrategy")
class TPUStrategy:
    def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                 experimental_spmd_xla_partitioning=False):
        raise NotImplementedError(_message("TPUStrategy", "no TPUs"))


@tf_export("distribute.coordinator.ClusterCoordinator", "distribute.experimental.coordinator.ClusterCoordinator")
class ClusterCoordinator:
    def __init__(self, strategy):
        raise NotImplementedError(_message("coordinator.ClusterCoordinator",
                                           "it schedules on ParameterServerStrategy's workers"))
