"""`tf.distribute`: TF's distribution strategies on torch.distributed.

Modules: `reduce_util` (ReduceOp), `values` (PerReplica, Mirrored, mirrored and sync-on-read variables),
`context` (the per-thread strategy / replica stack) and `distribution_context` (its public queries),
`strategy` (Strategy, StrategyExtended, ReplicaContext, the default strategy), `mirrored_run` (`run`: one
thread per local replica, `merge_call`), `one_device`, `mirrored` (local devices), `multi_worker` (processes
on a torch.distributed group), `central_storage` (one compute device), `cluster_resolver`, `input` (distributed
datasets), `cross_device_ops` (collectives), `random_draws` (tf.random.Generator in replicas), `unsupported`
(ParameterServer, TPU, coordinator: NotImplementedError).
"""
from tfcompat.distribute import cluster_resolver, coordinator, experimental  # noqa: F401
from tfcompat.distribute.cross_device_ops import (CrossDeviceOps, HierarchicalCopyAllReduce,  # noqa: F401
                                                  NcclAllReduce, ReductionToOneDevice)
from tfcompat.distribute.distribution_context import (_on_variable, experimental_set_strategy,  # noqa: F401
                                                      get_replica_context, get_strategy, has_strategy,
                                                      in_cross_replica_context, replicas_for_loss)
from tfcompat.distribute.input import (DistributedDataset, DistributedIterator, InputContext,  # noqa: F401
                                       InputOptions)
from tfcompat.distribute.mirrored import MirroredStrategy  # noqa: F401
from tfcompat.distribute.multi_worker import MultiWorkerMirroredStrategy  # noqa: F401
from tfcompat.distribute.one_device import OneDeviceStrategy  # noqa: F401
from tfcompat.distribute.reduce_util import ReduceOp  # noqa: F401
from tfcompat.distribute.strategy import ReplicaContext, Strategy, StrategyExtended  # noqa: F401
from tfcompat.distribute.unsupported import ParameterServerStrategy, TPUStrategy  # noqa: F401
from tfcompat.distribute.values import DistributedValues  # noqa: F401
from tfcompat.distribute.random_draws import replica_draw as _replica_draw
from tfcompat.framework import variables as _variables
from tfcompat.ops import nn_loss_ops as _nn_loss_ops, random_generator_ops as _random_generator_ops

if _on_variable not in _variables._creation_hooks:
    _variables._creation_hooks.append(_on_variable)
_nn_loss_ops._replicas_for_loss[:] = [replicas_for_loss]
_random_generator_ops._replica_draw[:] = [_replica_draw]
del _on_variable, replicas_for_loss


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("distribute", attr)
