"""`tf.distribute.Strategy`, `StrategyExtended`, `ReplicaContext` and the default (no-distribution) strategy.

A strategy has `_num_local` replicas in this process (one per local device) and `_world` worker processes
(1 outside `MultiWorkerMirroredStrategy`); `num_replicas_in_sync` is their product. Reductions sum the local
components, then all-reduce across workers (`cross_device_ops.Collective`).
"""
import contextlib

import torch

from tfcompat.distribute import context, mirrored_run
from tfcompat.distribute.reduce_util import ReduceOp, as_reduce_op
from tfcompat.distribute.values import (DistributedValues, Mirrored, MirroredVariable, PerReplica, SyncOnReadVariable,
                                       map_values, regroup)
from tfcompat.framework import variables
from tfcompat.framework.export import tf_export, unsupported_args
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import VariableAggregation, VariableSynchronization
from tfcompat.util import nest


def _t(x):
    """The torch storage of a tensor-like value."""
    if isinstance(x, (Tensor, variables.Variable)):
        return storage(x)
    from tfcompat.framework.convert import to_storage
    return to_storage(x)


def _sum(ts):
    """The sum of the replicas' tensors, on the first one's device (replicas with devices of their own: the primary)."""
    total = ts[0]
    for t in ts[1:]:
        total = torch.add(total, t.to(total.device))
    return total


def _divide(t, n):
    return torch.div(t, n) if t.is_floating_point() or t.is_complex() else torch.div(t, n, rounding_mode="floor")


@tf_export("distribute.StrategyExtended")
def tf_object_repr(obj, path):
    """TF's default repr of its distribute objects: `<tensorflow.python.distribute.<module.Class> object at 0x...>`
    (None: Python's own)."""
    if path is None:
        return object.__repr__(obj)
    return f"<tensorflow.python.distribute.{path} object at {hex(id(obj))}>"


class StrategyExtended:
    """The strategy's devices and the operations on values of its replicas."""

    _tf_path = None           # TF's module.Class of this object (its repr)

    def __repr__(self):
        return tf_object_repr(self, self._tf_path)

    _world = 1
    _rank = 0
    _collective = None     # cross_device_ops.Collective across the worker processes (None in one process)
    _replica_devices = None    # each local replica's torch device when they have their own (several GPUs)

    def __init__(self, container_strategy, devices):
        self._container_strategy = container_strategy
        self._devices = tuple(devices)
        self._num_local = len(self._devices)

    def _primary_device(self):
        """Where variables' primary copies live and merges run: the first replica's device when replicas have their
        own (as TF's primary component), else wherever the caller is."""
        if self._replica_devices is None:
            return contextlib.nullcontext()
        from tfcompat.framework.device import device
        return device(self._devices[0])

    @property
    def worker_devices(self):
        return self._devices

    @property
    def parameter_devices(self):
        return self._devices

    @property
    def experimental_between_graph(self):
        return self._world > 1

    @property
    def experimental_should_init(self):
        return True

    @property
    def should_checkpoint(self):
        return self._rank == 0

    @property
    def should_save_summary(self):
        return self._rank == 0

    def _num_replicas(self):
        return self._num_local * self._world

    # -- reductions ------------------------------------------------------------------------------
    def _reduce_values(self, reduce_op, values):
        """The reduction (torch tensor) of the local components `values` and the other workers'."""
        total = _sum([_t(v) for v in values])
        if self._world > 1:
            total = self._collective.all_reduce([total])[0]
        return _divide(total, self._num_replicas()) if reduce_op == ReduceOp.MEAN else total

    def _batch_reduce(self, reduce_op, per_replica_lists):
        """Reductions of several values at once (one bucketed all-reduce across workers): gradients."""
        locals_ = [_sum([_t(v) for v in vals]) for vals in zip(*per_replica_lists)]
        if self._world > 1:
            locals_ = self._collective.all_reduce(locals_)
        if reduce_op == ReduceOp.MEAN:
            locals_ = [_divide(t, self._num_replicas()) for t in locals_]
        return locals_

    def _aggregate_workers(self, aggregation, value):
        """A worker-local value combined across workers by a variable aggregation."""
        t = storage(value)
        if aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
            return _wrap(self._collective.broadcast(t))
        return _wrap(self._reduce_values(ReduceOp.from_variable_aggregation(aggregation), [t]) * self._num_local
                     if aggregation == VariableAggregation.MEAN else self._reduce_values(ReduceOp.SUM, [t]))

    def _local_values(self, value):
        return value._values if isinstance(value, DistributedValues) else (value,) * self._num_local

    def reduce_to(self, reduce_op, value, destinations, options=None):
        """`value` reduced across replicas (placed on this process's devices)."""
        return self._container_strategy._reduce_value(as_reduce_op(reduce_op), value)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        return [self.reduce_to(reduce_op, v, d) for v, d in value_destination_pairs]

    # -- updates -----------------------------------------------------------------------------------
    def update(self, var, fn, args=(), kwargs=None, group=True):
        """Runs `fn(var, *args, **kwargs)` once per variable copy (cross-replica context); returns its result.

        As TF: `Mirrored` results when the strategy has several local replicas and `group=True`."""
        strategy, ctx = context.current()
        if ctx is not None and strategy is self._container_strategy:
            raise RuntimeError("update() must be called in cross-replica context")
        kwargs = kwargs or {}
        args, kwargs = map_values(_first_value, (args, kwargs))
        with context.enter(self._container_strategy, None):
            result = fn(var, *args, **kwargs)
        if self._num_local > 1:
            result = map_values(lambda r: Mirrored((_read(r),) * self._num_local), result)
        return result

    def value_container(self, value):
        return value

    def variable_created_in_scope(self, v):
        return getattr(v, "_distribute_strategy", None) is self._container_strategy

    def colocate_vars_with(self, colocate_with_variable):
        return contextlib.nullcontext()

    def _update_in_replica(self, ctx, var, method, value):
        """`var.<method>(value)` of each replica of this process, aggregated by `var.aggregation` and applied once."""
        aggregation = var.aggregation
        if aggregation == VariableAggregation.NONE:
            if self._num_local > 1:
                raise NotImplementedError(
                    f"{method} of a MirroredVariable with aggregation NONE in replica context over several local "
                    "replicas (their copies would diverge; tfcompat's replicas share one copy): give the variable "
                    "an aggregation (SUM, MEAN or ONLY_FIRST_REPLICA)")
            getattr(variables.ResourceVariable, method)(var, value, read_value=False)
            return

        def merge(strategy, per_replica):
            values = self._local_values(per_replica)
            if aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
                t = _t(values[0])
                reduced = self._collective.broadcast(t) if self._world > 1 else t
            else:
                reduced = self._reduce_values(ReduceOp.from_variable_aggregation(aggregation), values)
            getattr(variables.ResourceVariable, method)(var, _wrap(reduced), read_value=False)

        ctx.merge_call(merge, args=(value,))

    # -- variables created in scope -----------------------------------------------------------------
    def _on_variable_created(self, v):
        """A variable created under this strategy: mirrored (tf.Variable's class shows it), same on every worker."""
        v._distribute_strategy = self._container_strategy
        if type(v) is variables.ResourceVariable:
            on_read = v.synchronization == VariableSynchronization.ON_READ
            if on_read and self._num_local > 1 and v.aggregation == VariableAggregation.MEAN:
                raise NotImplementedError("a sync-on-read variable with MEAN aggregation over several local replicas")
            v.__class__ = SyncOnReadVariable if on_read else MirroredVariable
        if self._world > 1:
            v._set_storage(self._collective.broadcast_untraced(storage(v)))


def _read(r):
    return r.read_value() if isinstance(r, variables.Variable) else r


def _first_value(x):
    return x._values[0] if isinstance(x, DistributedValues) else x


_EAGER_RUN_WARNINGS = {}      # call site -> warnings given (TF's log_first_n: 5 per site)


def _warn_eager_run(strategy, fn):
    """TF's warning when a mirrored-style strategy runs `fn` eagerly (not while a tf.function traces, nor for a
    tf.function `fn` unless functions run eagerly)."""
    from tfcompat.eager.function import Function, current_recorder, functions_run_eagerly
    if current_recorder() is not None or (isinstance(fn, Function) and not functions_run_eagerly()):
        return
    site = strategy._eager_run_site
    count = _EAGER_RUN_WARNINGS.get(site, 0)
    if count >= 5:
        return
    _EAGER_RUN_WARNINGS[site] = count + 1
    from tfcompat.ops.misc_ops import get_logger
    get_logger().warning(f"Using {type(strategy).__name__} eagerly has significant "
                         "overhead currently. We will be working on improving this in the future, but for now "
                         "please wrap `call_for_each_replica` or `experimental_run` or `run` inside a tf.function "
                         "to get the best performance.")


@tf_export("distribute.Strategy")
class Strategy:
    """A way to run a computation over several replicas (devices, workers)."""

    _eager_run_site = None     # strategies whose eager `run` TF warns about: the call site counting the warnings
    _tf_path = None            # TF's module.Class of this strategy and of its replicas' contexts (their reprs)
    _tf_replica_context_path = None
    _always_wrap_values = False    # values from functions are PerReplica even with one replica (mirrored strategies)

    def __repr__(self):
        return tf_object_repr(self, self._tf_path)

    def __init__(self, extended):
        self._extended = extended

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return self._extended._num_replicas()

    @property
    def cluster_resolver(self):
        return None

    @contextlib.contextmanager
    def scope(self):
        """Variables created inside are distributed by this strategy; `get_strategy()` returns it."""
        current = context.scoped_strategy()
        if current is not None and current is not self:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: {current} is not {self}")
        ctx = context.current()[1] if current is self else None
        with context.enter(self, ctx):
            yield self

    @unsupported_args("options", api_name="tf.distribute.Strategy.run")
    def run(self, fn, args=(), kwargs=None, options=None):
        """Runs `fn` once per local replica (in replica context); results of several replicas are `PerReplica`."""
        if context.current()[1] is not None and context.current()[0] is self:
            raise RuntimeError("`run` must be called in cross-replica context (not inside another `run`)")
        if self._eager_run_site is not None:
            _warn_eager_run(self, fn)
        return mirrored_run.call_for_each_replica(self, fn, args, kwargs or {})

    def reduce(self, reduce_op, value, axis):
        """`value` (per replica) reduced across replicas, and along `axis` of each first when given."""
        reduce_op = as_reduce_op(reduce_op)
        if axis is not None:
            return self._reduce_along(reduce_op, value, axis)
        return self._reduce_value(reduce_op, value)

    def _reduce_along(self, reduce_op, value, axis):
        from tfcompat.ops.reduction_ops import reduce_sum

        def local(v):
            return reduce_sum(v, axis=axis)
        sums = mirrored_run.call_for_each_replica(self, local, (value,), {})
        total = self._reduce_value(ReduceOp.SUM, sums)
        if reduce_op == ReduceOp.SUM:
            return total
        counts = [storage(v).shape[axis] if isinstance(v, Tensor) else torch.as_tensor(v).shape[axis]
                  for v in self.experimental_local_results(value)]
        count = torch.tensor(float(sum(counts)))
        if self._extended._world > 1:
            count = self._extended._collective.all_reduce([count])[0]
        t = storage(total)
        return _wrap(torch.div(t, count.to(t.dtype)) if t.is_floating_point() else
                     torch.div(t, count, rounding_mode="floor").to(t.dtype))

    def _reduce_value(self, reduce_op, value):
        ext = self._extended
        one_local = ext._world > 1 and ext._num_local == 1     # `run` gives this worker's one value as is

        def one(v):
            if isinstance(v, DistributedValues):
                return _wrap(ext._reduce_values(reduce_op, v._values))
            if one_local:
                return _wrap(ext._reduce_values(reduce_op, [v]))
            if reduce_op == ReduceOp.MEAN or self.num_replicas_in_sync == 1:
                return v
            raise ValueError(f"A non-DistributedValues value {v!s} cannot be reduced with the given reduce op "
                             f"{reduce_op}.")
        return map_values(one, value)

    def gather(self, value, axis):
        """The replicas' values of `value` concatenated along `axis` (every worker's, in replica order)."""
        def one(v):
            parts = [_t(x) for x in self.experimental_local_results(v)]
            local = torch.cat([p.to(parts[0].device) for p in parts], dim=axis) if len(parts) > 1 else parts[0]
            if self._extended._world > 1:
                local = self._extended._collective.all_gather(local, axis)
            return _wrap(local)
        return map_values(one, value)

    def experimental_local_results(self, value):
        """The components of `value` for this process's replicas, as a tuple."""
        if isinstance(value, DistributedValues):
            return value._values
        found = []
        map_values(lambda x: found.append(x) if isinstance(x, DistributedValues) else None, value)
        if found:
            return tuple(map_values(lambda x, i=i: x._values[i] if isinstance(x, DistributedValues) else x, value)
                         for i in range(self._extended._num_local))
        return (value,)

    @unsupported_args("options", api_name="tf.distribute.Strategy.experimental_distribute_dataset")
    def experimental_distribute_dataset(self, dataset, options=None):
        """`dataset` (of global batches) with each batch split among the replicas (this worker's share)."""
        from tfcompat.distribute.input import DistributedDataset
        return DistributedDataset(self, dataset)

    @unsupported_args("options", api_name="tf.distribute.Strategy.distribute_datasets_from_function")
    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """One dataset per worker from `dataset_fn(InputContext)`; its consecutive batches go to the replicas."""
        from tfcompat.distribute.input import DistributedDatasetsFromFunction
        return DistributedDatasetsFromFunction(self, dataset_fn)

    def experimental_distribute_values_from_function(self, value_fn):
        """`PerReplica` of `value_fn(ValueContext)` for each local replica."""
        from tfcompat.distribute.input import ValueContext
        ext = self._extended
        values = [value_fn(ValueContext(ext._rank * ext._num_local + i, self.num_replicas_in_sync))
                  for i in range(ext._num_local)]
        if self._always_wrap_values and len(values) == 1:      # TF's regroup(always_wrap=True)
            return map_values(lambda x: PerReplica((x,)), values[0])
        return regroup(values)

    def __deepcopy__(self, memo):
        raise RuntimeError("Must only deepcopy DistributionStrategy.")


@tf_export("distribute.ReplicaContext")
class ReplicaContext:
    """What a replica sees while `strategy.run` runs it: its id, and cross-replica calls."""

    def __init__(self, strategy, replica_id_in_sync_group, local_index=0, runner=None):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._local_index = local_index
        self._runner = runner

    def __repr__(self):
        return tf_object_repr(self, self._strategy._tf_replica_context_path)

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        from tfcompat.framework.convert import constant
        return constant(self._replica_id, dtype="int32")

    @property
    def devices(self):
        return (self._strategy.extended.worker_devices[self._local_index],)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Runs `merge_fn(strategy, *args)` once in cross-replica context with the replicas' args (`PerReplica`)."""
        kwargs = kwargs or {}
        if self._runner is not None:
            return self._runner.merge_call(merge_fn, args, kwargs)
        with context.enter(self._strategy, None):
            return merge_fn(self._strategy, *args, **kwargs)

    def all_reduce(self, reduce_op, value, options=None):
        """`value` reduced across all replicas; every replica gets the result."""
        reduce_op = as_reduce_op(reduce_op)
        if self._strategy.num_replicas_in_sync == 1:
            return nest.map_structure(lambda v: v, value)
        flat = nest.flatten(value)

        def merge(strategy, *per_replica):
            ext = strategy.extended
            reduced = ext._batch_reduce(reduce_op, list(zip(*[ext._local_values(v) for v in per_replica])))
            return [_wrap(t) for t in reduced]
        out = self.merge_call(merge, args=tuple(flat))
        return nest.pack_sequence_as(value, [_wrap(storage(t)) for t in out])    # each replica's own tensor

    def all_gather(self, value, axis, options=None):
        """The replicas' values concatenated along `axis`; every replica gets the result."""
        def merge(strategy, *per_replica):
            return [strategy.gather(v, axis) for v in per_replica]
        return nest.pack_sequence_as(value, self.merge_call(merge, args=tuple(nest.flatten(value))))


class _DefaultDistributionExtended(StrategyExtended):
    _tf_path = "distribute_lib._DefaultDistributionExtended"


class _DefaultDistributionStrategy(Strategy):
    """The strategy in effect outside any scope: one replica, the current device, plain variables."""

    _tf_path = "distribute_lib._DefaultDistributionStrategy"
    _tf_replica_context_path = "distribute_lib.ReplicaContext"

    def experimental_distribute_dataset(self, dataset, options=None):
        """TF's default strategy hands the dataset back as it is."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        from tfcompat.distribute.input import InputContext
        return dataset_fn(InputContext())

    @contextlib.contextmanager
    def scope(self):
        yield self

    def _reduce_value(self, reduce_op, value):
        return value

    def run(self, fn, args=(), kwargs=None, options=None):
        return fn(*args, **(kwargs or {}))


class _DefaultReplicaContext(ReplicaContext):
    def __repr__(self):
        return tf_object_repr(self, "distribute_lib._DefaultReplicaContext")


def default_strategy_pair():
    strategy = _DefaultDistributionStrategy.__new__(_DefaultDistributionStrategy)
    Strategy.__init__(strategy, _DefaultDistributionExtended(strategy, ("/job:localhost/replica:0/task:0/device:CPU:0",)))
    return strategy, _DefaultReplicaContext(strategy, 0)
