"""Keras's training loops under a `tf.distribute` strategy: each replica steps on its share of the global batch.

`fit`/`evaluate`/`predict` of a model whose variables were created under a strategy's `scope()` wrap their step
with `wrap`: the global batch is split among the replicas (`strategy.experimental_distribute_dataset`'s split;
across workers a `tf.data.Dataset` is distributed by it before the loop, `distribute_input`, as Keras 3 on TF does),
`strategy.run` runs the step on each, the optimizer sums the gradients of the replicas (one bucketed
all-reduce across workers, `optimizers.base`) and applies them once; the loss a replica differentiates is
divided by the replicas in sync (`scale_loss`), so the update equals one device's on the global batch. Metric
state is shared by the replicas of a process and summed across workers when read (`synced_metrics`), so logs,
callbacks and progress bars see the global values on every worker; only the chief writes the callbacks' files
(`is_chief`).
"""
import contextlib
import sys

import torch

from tfcompat.framework.tensor import _wrap, storage


def _context():
    """tf.distribute's context module; None until `tfcompat.distribute` is imported (no strategy exists before),
    so Keras neither imports it nor pays for it without tf.distribute."""
    return sys.modules.get("tfcompat.distribute.context")


def replica_context():
    """The replica context of a strategy with several replicas in sync running this thread, else None (asked by
    every optimizer step: `_context()` inlined)."""
    context = sys.modules.get("tfcompat.distribute.context")
    return None if context is None else context.distributed_replica_context()


def _scoped_strategy():
    context = _context()
    return None if context is None else context.scoped_strategy()


def remember_strategy(model):
    """`compile` notes the strategy in scope (a model still unbuilt then has no variables to tell it later)."""
    object.__setattr__(model, "_compile_strategy", _scoped_strategy())


def strategy_of(model):
    """The strategy whose scope created the model's variables (or that `compile` ran under, else the one in scope),
    or None without one."""
    for v in model.weights:
        strategy = getattr(v, "_distribute_strategy", None)
        if strategy is not None:
            return strategy
    return model.__dict__.get("_compile_strategy") or _scoped_strategy()


def across_workers(model):
    """Whether the model trains under a strategy with several worker processes."""
    strategy = strategy_of(model)
    return strategy is not None and strategy.extended._world > 1


def _distributed(strategy):
    return strategy is not None and strategy.num_replicas_in_sync > 1


def wrap(model, step_fn, kind="train"):
    """`step_fn(data)` run by each replica on its share of `data`; the last replica's logs (the metrics are shared).

    `kind="predict"`: the replicas' outputs concatenated in replica order (across workers too)."""
    strategy = strategy_of(model)
    object.__setattr__(model, "_distribute_strategy_cache", strategy)
    if not _distributed(strategy):
        return step_fn

    from tfcompat.distribute.input import split_batch

    def step(data):
        shares = data if _is_share(data) else split_batch(strategy, data)
        with strategy.scope():
            out = strategy.run(step_fn, args=(shares,))
            if kind == "predict":
                return strategy.gather(out, axis=0)
        return strategy.experimental_local_results(out)[-1]
    return step


def _is_share(data):
    """Whether `data` is already this worker's share (an element of `distribute_input`'s dataset: PerReplica leaves)."""
    from tfcompat.distribute.values import DistributedValues, map_values
    found = []
    map_values(lambda x: found.append(isinstance(x, DistributedValues)), data)
    return any(found)


def distribute_input(model, x):
    """`fit`/`evaluate`'s `x` as Keras 3 on TF hands it to the replicas: across workers, a `tf.data.Dataset` goes
    through `experimental_distribute_dataset` (sharded by its AutoShardPolicy: by file for pipelines reading files,
    else by data, none with OFF); other data (arrays, generators: Keras's DATA policy) is split at each step."""
    strategy = strategy_of(model)
    if strategy is None or strategy.extended._world == 1 or not hasattr(x, "element_spec") or \
            not hasattr(x, "options"):
        return x
    from tfcompat.distribute.input import WorkerShares
    return WorkerShares(strategy, x)


def is_chief(model):
    """Whether this process writes the model's callback files (ModelCheckpoint, BackupAndRestore): the chief."""
    strategy = model.__dict__.get("_distribute_strategy_cache")
    return strategy is None or strategy.extended.should_checkpoint


def scale_loss(loss):
    """The loss a replica differentiates: divided by the replicas in sync (the gradients are then summed)."""
    ctx = replica_context()
    return loss if ctx is None else loss / ctx.num_replicas_in_sync


@contextlib.contextmanager
def synced_metrics(model, metrics):
    """Inside: the metrics' variables hold their sums over the workers (their local values come back after)."""
    strategy = model.__dict__.get("_distribute_strategy_cache")
    ext = strategy.extended if strategy is not None else None
    if ext is None or ext._world == 1:
        yield
        return
    variables = [v for m in metrics for v in m.variables]
    local = [storage(v) for v in variables]
    summed = ext._collective.all_reduce([t.to(torch.float64) if not t.is_floating_point() else t for t in local])
    for v, t, s in zip(variables, local, summed):
        v._set_storage(s.to(t.dtype))
    try:
        yield
    finally:
        for v, t in zip(variables, local):
            v._set_storage(t)


def reduce_gradients(optimizer, ctx, grads, variables):
    """In a replica: the gradients summed over all replicas, applied once by `optimizer` (cross-replica)."""
    from tfcompat.distribute.reduce_util import ReduceOp

    def merge(strategy, per_replica_grads):
        ext = strategy.extended
        present = [i for i, g in enumerate(per_replica_grads) if ext._local_values(g)[0] is not None]
        lists = list(zip(*[ext._local_values(per_replica_grads[i]) for i in present]))
        reduced = ext._batch_reduce(ReduceOp.SUM, lists) if present else []
        out = [None] * len(per_replica_grads)
        for i, t in zip(present, reduced):
            out[i] = _wrap(t)
        optimizer.apply(out, variables)
    ctx.merge_call(merge, args=(list(grads),))
