"""`tf.distribute.MultiWorkerMirroredStrategy` on a torch.distributed process group (one replica per process).

The cluster comes from, in order: the `cluster_resolver` argument, `TF_CONFIG` (the chief, or else worker 0,
hosts the rendezvous at its address), the launcher's environment (`RANK`, `WORLD_SIZE`, `MASTER_ADDR`,
`MASTER_PORT`, `LOCAL_RANK` of `torch.distributed.run` / `python -m tfcompat run --nproc-per-node N`), or an
already initialized default process group; without any, one worker. Backend: NCCL on CUDA (each process on
GPU `LOCAL_RANK`), gloo on CPU. `CommunicationOptions(timeout_seconds=...)` bounds every collective: a worker
that died makes the others raise `tf.errors.UnavailableError` (gloo notices a closed peer at once).
Workers sharing a host share its cores: each runs torch's intra-op pool on its part of them (as
`torch.distributed.run` sets `OMP_NUM_THREADS=1`), unless `OMP_NUM_THREADS` says otherwise.
"""
import atexit
import datetime
import os
import sys

import torch

from tfcompat.distribute import _cluster, cluster_resolver as resolvers
from tfcompat.distribute.cross_device_ops import Collective, CommunicationImplementation, CommunicationOptions
from tfcompat.distribute.strategy import Strategy, StrategyExtended
from tfcompat.framework.export import tf_export


class CollectiveAllReduceExtended(StrategyExtended):
    def __init__(self, strategy, device, rank, world, collective):
        super().__init__(strategy, [device])
        self._rank, self._world, self._collective = rank, world, collective

    @property
    def should_checkpoint(self):
        return self._rank == 0

    @property
    def should_save_summary(self):
        return self._rank == 0


def _launcher_env():
    env = os.environ
    if "RANK" in env and "WORLD_SIZE" in env:
        return int(env["RANK"]), int(env["WORLD_SIZE"])
    return None


def _join(rank, world, address, options, workers_here):
    """Initializes torch.distributed's default group (unless it is): the backend for this process's device."""
    import torch.distributed as dist
    if dist.is_initialized():
        return
    _share_cores(workers_here)
    cuda = torch.cuda.is_available() and options.implementation != CommunicationImplementation.RING
    backend = "nccl" if cuda else "gloo"
    if options.implementation == CommunicationImplementation.NCCL and not cuda:
        raise ValueError("NCCL communication needs CUDA GPUs")
    timeout = datetime.timedelta(seconds=options.timeout_seconds) if options.timeout_seconds else None
    kwargs = {"timeout": timeout} if timeout is not None else {}
    init = f"tcp://{address}" if address else "env://"
    hook = sys.excepthook       # torch's group prefixes "[rank<i>]: " to every line of a traceback; TF does not
    dist.init_process_group(backend, init_method=init, rank=rank, world_size=world, **kwargs)
    sys.excepthook = hook
    atexit.register(_leave)


def _share_cores(workers_here):
    """Each of the `workers_here` workers of this host computes on its share of the cores: torch's intra-op pools
    of several processes on the same cores wait on each other at every parallel op (several times slower)."""
    if workers_here > 1 and "OMP_NUM_THREADS" not in os.environ:
        torch.set_num_threads(max(1, torch.get_num_threads() // workers_here))


def _leave():
    """Destroys the group this module made before the interpreter exits: otherwise gloo's threads can still be
    joinable when static destructors run, and the process aborts (SIGABRT) after the script has finished."""
    import torch.distributed as dist
    if dist.is_initialized():
        dist.destroy_process_group()


def _local_device(rank):
    """This worker's device: GPU `LOCAL_RANK` on CUDA (made tfcompat's default device), else the CPU."""
    if not torch.cuda.is_available():
        return "CPU", 0
    local = int(os.environ.get("LOCAL_RANK", 0))
    torch.cuda.set_device(local)
    from tfcompat.framework import context
    context._default_device[:] = [torch.device("cuda", local)]
    return "GPU", 0


@tf_export("distribute.MultiWorkerMirroredStrategy")
class MultiWorkerMirroredStrategy(Strategy):
    """Synchronous training over worker processes (one replica each), gradients all-reduced every step."""

    _eager_run_site = "mirrored_run"
    _always_wrap_values = True

    def __init__(self, cluster_resolver=None, communication_options=None):
        import torch.distributed as dist
        options = communication_options or CommunicationOptions()
        tf_config, here = None, 1
        if cluster_resolver is None:
            tf_config = resolvers.TFConfigClusterResolver()
            if tf_config.cluster_spec():
                cluster_resolver = tf_config
        if cluster_resolver is not None:
            rank, world, address = _cluster.collective_rank(cluster_resolver)
            here = _cluster.workers_on_host(cluster_resolver) if world > 1 else 1
            job = cluster_resolver.task_type or "worker"
            task = cluster_resolver.task_id or 0
        elif _launcher_env() is not None:
            (rank, world), address = _launcher_env(), None
            here = int(os.environ.get("LOCAL_WORLD_SIZE", 1))
            job, task = "worker", rank
            cluster_resolver = resolvers.SimpleClusterResolver({}, task_type="worker", task_id=rank)
        elif dist.is_initialized():
            rank, world, address, job, task = dist.get_rank(), dist.get_world_size(), None, "worker", dist.get_rank()
            cluster_resolver = resolvers.SimpleClusterResolver({}, task_type="worker", task_id=rank)
        else:
            rank, world, address, job, task = 0, 1, None, "localhost", 0
            cluster_resolver = tf_config
        if world > 1:
            _join(rank, world, address, options, here)
        kind, index = _local_device(rank) if world > 1 else ("GPU" if torch.cuda.is_available() else "CPU", 0)
        device = f"/job:{job}/replica:0/task:{task}/device:{kind}:{index}"
        collective = Collective(None, options.bytes_per_pack) if world > 1 else None
        self._cluster_resolver = cluster_resolver
        super().__init__(CollectiveAllReduceExtended(self, device, rank, world, collective))

    @property
    def cluster_resolver(self):
        return self._cluster_resolver


@tf_export("distribute.experimental.MultiWorkerMirroredStrategy")
class _ExperimentalMultiWorkerMirroredStrategy(MultiWorkerMirroredStrategy):
    """TF's older spelling: `communication` instead of `communication_options`."""

    def __init__(self, communication=CommunicationImplementation.AUTO, cluster_resolver=None,
                 communication_options=None):
        options = communication_options or CommunicationOptions(implementation=communication)
        super().__init__(cluster_resolver, options)


# TF's class behind both names is CollectiveAllReduceStrategy (what type(strategy).__name__ and its repr show)
for _cls in (MultiWorkerMirroredStrategy, _ExperimentalMultiWorkerMirroredStrategy):
    _cls.__name__ = _cls.__qualname__ = "CollectiveAllReduceStrategy"
del _cls
