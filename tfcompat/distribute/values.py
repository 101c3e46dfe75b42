"""Values held per replica: `DistributedValues`, `PerReplica`, `Mirrored`, and mirrored / sync-on-read variables.

A distributed variable has one storage, its primary copy; its updates in replica context are aggregated once
(its `aggregation`) and applied to it, and its components (`.values`) are views of it, named as TF names them.
Replicas on the process's one device (logical CPU devices, one GPU) read the primary itself; replicas with
devices of their own (several GPUs) read a copy of it on their device, made at their first read after each
update (`replica.device` says which device the thread's replica computes on).
"""
import threading

from tfcompat.distribute import context
from tfcompat.framework.export import tf_export
from tfcompat.framework.variables import ResourceVariable, VariableAggregation, _UnreadVariable
from tfcompat.util import nest


def _text(kind, values, fmt):
    body = ",\n".join(f"  {i}: {fmt(v)}" for i, v in enumerate(values))
    return f"{kind}:{{\n{body}\n}}"


@tf_export("distribute.DistributedValues")
class DistributedValues:
    """A value with one component per local replica (`strategy.experimental_local_results` lists them)."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def __repr__(self):
        return _text(type(self).__name__, self._values, repr)

    def __str__(self):
        return _text(type(self).__name__, self._values, str)

    # a composite of its components for tf.function (traced as tensors, as TF's CompositeTensor)
    def __tf_flatten__(self):
        return None, self._values

    def __tf_unflatten__(self, metadata, components):
        return type(self)(components)


class PerReplica(DistributedValues):
    """Values that differ between replicas (what `strategy.run` returns)."""


class Mirrored(DistributedValues):
    """Values equal on every replica (what `extended.update` returns)."""


def map_values(fn, structure):
    """`fn` applied to the leaves of `structure` (lists, tuples, dicts), DistributedValues being leaves."""
    if isinstance(structure, DistributedValues):
        return fn(structure)
    if isinstance(structure, dict):
        return type(structure)((k, map_values(fn, v)) for k, v in structure.items())
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[map_values(fn, v) for v in structure])
    if isinstance(structure, (list, tuple)):
        return type(structure)(map_values(fn, v) for v in structure)
    return fn(structure)


def regroup(per_replica, kind=PerReplica):
    """One structure from the per-replica structures: leaves that are one object stay it, others become `kind`."""
    if len(per_replica) == 1:
        return per_replica[0]
    flats = [nest.flatten(s) for s in per_replica]
    leaves = [x[0] if all(y is x[0] for y in x) else kind(x) for x in zip(*flats)]
    return nest.pack_sequence_as(per_replica[0], leaves)


def select_replica(index, structure):
    """`structure` with each DistributedValues replaced by its component for local replica `index`."""
    def pick(x):
        return x._values[index] if isinstance(x, DistributedValues) else x
    return map_values(pick, structure)


class _Component(_UnreadVariable):
    """Replica `i`'s component of a distributed variable: a view of its storage, named `<name>/replica_<i>:0`."""

    def __init__(self, parent, index):
        super().__init__(parent)
        object.__setattr__(self, "_index", index)

    @property
    def name(self):
        base = self._parent.name[:-2]
        return self._parent.name if self._index == 0 else f"{base}/replica_{self._index}:0"


class _ReplicaDevice(threading.local):
    device = None       # the torch device of the replica this thread runs, when replicas have their own devices


replica = _ReplicaDevice()


def on_replica_device(t):
    """Torch tensor `t` on the device of this thread's replica (unchanged outside replicas with their own)."""
    d = replica.device
    return t if d is None or getattr(t, "device", d) == d else t.to(d)


def _copy_on(var, t, device):
    """`var`'s primary storage `t` copied to `device`, made once per value (and per tf.function trace, so that a
    trace records the copy from the variable's read and its replays copy the current value)."""
    from tfcompat.eager.function import current_recorder
    recorder = current_recorder()
    copies = var.__dict__.setdefault("_copies", {})
    hit = copies.get(device)
    if hit is not None and hit[0] is t and hit[1] is recorder:
        return hit[2]
    copy = t.to(device)
    copies[device] = (t, recorder, copy)
    return copy


class DistributedVariable(ResourceVariable):
    """A `tf.Variable` created under a strategy's scope (`_distribute_strategy` says which)."""

    def _rebinds(self, other):
        return NotImplemented        # TF's distributed variables: `v += x` falls back to `v = v + x`

    __iadd__ = __isub__ = __imul__ = __itruediv__ = __ipow__ = _rebinds

    _distribute_strategy = None

    @property
    def _t(self):
        """The primary storage; in a replica computing on a device of its own, its copy there."""
        t = self.__dict__["_t"]
        device = replica.device
        if device is None or getattr(t, "device", device) == device:
            return t
        return _copy_on(self, t, device)

    @_t.setter
    def _t(self, t):
        if replica.device is not None:      # a replica's write (sync-on-read accumulation) lands on the primary
            home = getattr(self.__dict__.get("_t"), "device", None)
            if home is not None and t.device != home:
                t = t.to(home)
        self.__dict__["_t"] = t

    @property
    def values(self):
        return tuple(_Component(self, i) for i in range(self._distribute_strategy.extended._num_local))

    @property
    def distribute_strategy(self):
        return self._distribute_strategy

    def __repr__(self):
        return _text(type(self).__name__, self.values, repr)

    __str__ = __repr__


class MirroredVariable(DistributedVariable):
    """A variable kept equal on every replica: updates in replica context are aggregated, then applied once."""

    def _update(self, method, value, read_value):
        ctx = context.distributed_replica_context()
        if ctx is None:
            getattr(ResourceVariable, method)(self, value, read_value=False)
        else:
            self._distribute_strategy.extended._update_in_replica(ctx, self, method, value)
        return _UnreadVariable(self) if read_value else None

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._update("assign", value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("assign_add", delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("assign_sub", delta, read_value)


class SyncOnReadVariable(DistributedVariable):
    """A variable each replica updates locally; reading it in cross-replica context aggregates the replicas'.

    Replicas of one process share its storage, so their updates accumulate there (SUM aggregation is exact);
    across workers, `read_value()`/`numpy()` in cross-replica context all-reduce the workers' values."""

    def read_value(self):
        value = super().read_value()
        extended = self._distribute_strategy.extended
        if context.current()[1] is None and extended._world > 1 and self.aggregation != VariableAggregation.NONE:
            return extended._aggregate_workers(self.aggregation, value)
        return value

    def numpy(self):
        return self.read_value().numpy()
