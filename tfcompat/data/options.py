"""`tf.data.Options`: typed option groups attached to a pipeline with `Dataset.with_options`.

tfcompat records them (`dataset.options()` returns the merged values) but its
pipelines run the same whatever they say: output order is always deterministic.
"""
import enum

from tfcompat.framework.export import tf_export


@tf_export("data.experimental.AutoShardPolicy")
class AutoShardPolicy(enum.IntEnum):
    """How a distributed input pipeline is sharded."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


@tf_export("data.experimental.ExternalStatePolicy")
class ExternalStatePolicy(enum.Enum):
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsGroup:
    """Options with declared `(type, default)` fields; unset fields are None and do not override on merge."""

    _FIELDS = {}

    def __init__(self):
        for name, (kind, default) in self._FIELDS.items():
            object.__setattr__(self, name, kind() if isinstance(kind, type) and issubclass(kind, _OptionsGroup)
                               else default)
        object.__setattr__(self, "_set", set())

    def __setattr__(self, name, value):
        field = self._FIELDS.get(name)
        if field is None:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = field[0]
        if value is not None and not isinstance(value, kind):
            raise TypeError(f'Property "{name}" must be of type {kind}, got: {value!r} (type: {type(value)})')
        object.__setattr__(self, name, value)
        self._set.add(name)

    def merge(self, options):
        """A copy with the fields set in `options` taking precedence."""
        out = type(self)()
        for src in (self, options):
            for name in self._FIELDS:
                value = getattr(src, name)
                if isinstance(value, _OptionsGroup):
                    object.__setattr__(out, name, getattr(out, name).merge(value))
                elif name in src._set:
                    setattr(out, name, value)
        return out

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    __hash__ = None

    def __repr__(self):
        return f"<tensorflow.python.data.ops.options.{type(self).__name__} object at {hex(id(self))}>"


def _group(name, fields, export=None, doc=""):
    cls = type(name, (_OptionsGroup,), {"_FIELDS": fields, "__doc__": doc, "__module__": __name__})
    return tf_export(export)(cls) if export else cls


_BOOL = (bool, None)
AutotuneOptions = _group("AutotuneOptions", {"enabled": _BOOL, "cpu_budget": (int, None), "ram_budget": (int, None),
                                             "autotune_algorithm": (object, None)},
                         "data.experimental.AutotuneOptions", "Autotuning options (recorded only).")
DistributeOptions = _group("DistributeOptions", {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO),
                                                 "num_devices": (int, None)},
                           "data.experimental.DistributeOptions", "Distribution options (recorded only).")
OptimizationOptions = _group("OptimizationOptions", {n: _BOOL for n in (
    "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch", "map_and_batch_fusion",
    "map_and_filter_fusion", "map_fusion", "map_parallelization", "noop_elimination", "parallel_batch",
    "shuffle_and_repeat_fusion", "seq_interleave_prefetch", "warm_start")},
    "data.experimental.OptimizationOptions", "Static optimization options (recorded only).")
ThreadingOptions = _group("ThreadingOptions", {"max_intra_op_parallelism": (int, None),
                                               "private_threadpool_size": (int, None)},
                          "data.experimental.ThreadingOptions", "Threading options (recorded only).")
Options = _group("Options", {
    "autotune": (AutotuneOptions, None), "deterministic": _BOOL, "experimental_deterministic": _BOOL,
    "experimental_distribute": (DistributeOptions, None),
    "experimental_external_state_policy": (ExternalStatePolicy, None),
    "experimental_optimization": (OptimizationOptions, None), "experimental_slack": _BOOL,
    "experimental_symbolic_checkpoint": _BOOL, "experimental_warm_start": _BOOL,
    "threading": (ThreadingOptions, None), "dataset_name": (str, None), "framework_type": (object, None)},
    "data.Options", "`tf.data.Options`: options of an input pipeline (`Dataset.with_options`).")
