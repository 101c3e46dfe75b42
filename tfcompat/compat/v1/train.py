"""`tf.compat.v1.train`: TF1's name-based `Saver` (eagerly, or in a graph through a session), `init_from_checkpoint`
and `SessionRunHook`; other names are `tf.train`'s."""
import contextlib
import functools
import os

from tfcompat import train as _train
from tfcompat.compat.v1.graph_gradients import GradientDescentOptimizer  # noqa: F401
from tfcompat.compat.v1.optimizers import (AdadeltaOptimizer, AdagradOptimizer, AdamOptimizer,  # noqa: F401
                                          FtrlOptimizer, MomentumOptimizer, RMSPropOptimizer)
from tfcompat.compat.v1.session_run_hook import SessionRunArgs, SessionRunHook  # noqa: F401
from tfcompat.framework import errors, graph_state
from tfcompat.framework.graph_variable import session_io
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import storage
from tfcompat.framework.variables import Variable
from tfcompat.ops.deprecation import warn_deprecated
from tfcompat.ops.misc_ops import get_logger
from tfcompat.train import _bundle, checkpoint_management
from tfcompat.train.checkpoint_management import get_global_step  # noqa: F401

_DEPRECATED = ("Saver is deprecated, please switch to tf.train.Checkpoint or tf.keras.Model.save_weights for "
               "training checkpoints. When executing eagerly variables do not necessarily have unique names, and so "
               "the variable.name-based lookups Saver performs are error-prone.")


def _op_name(variable):
    name = variable.name
    return name[:-2] if name.endswith(":0") else name


class Saver:
    """Saves and restores variables by name in TF's checkpoint format (keys: the variables' names without ':0')."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5, keep_checkpoint_every_n_hours=10000.0,
                 name=None, restore_sequentially=False, saver_def=None, builder=None, defer_build=False,
                 allow_empty=False, write_version=2, pad_step_number=False, save_relative_paths=False, filename=None):
        graph = graph_state.default_graph()
        if graph is None:
            get_logger().warning(_DEPRECATED)
        elif var_list is None:          # TF1 graph: every global variable of the graph
            var_list = graph.get_collection("variables")
        if var_list is None:
            raise RuntimeError("When eager execution is enabled, `var_list` must specify a list or dict of variables "
                               "to save")
        if reshape or sharded or saver_def is not None or builder is not None:
            raise NotImplementedError("tf.compat.v1.train.Saver(reshape/sharded/saver_def/builder) is not supported "
                                      "by tfcompat")
        items = var_list.items() if isinstance(var_list, dict) else [(_op_name(v), v) for v in var_list]
        self._vars = {}
        for key, v in items:
            if not isinstance(v, Variable):
                raise TypeError(f"Variable to save is not a Variable: {v}")
            if key in self._vars:
                raise ValueError(f"At least two variables have the same name: {key}")
            self._vars[key] = v
        self._max_to_keep = max_to_keep
        self._last = []

    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
        """Writes the variables to `save_path` (`-<global_step>` appended); returns the checkpoint prefix."""
        if not self._graph_mode():
            get_logger().warning(_DEPRECATED)
        if global_step is not None:
            step = int(global_step.numpy() if hasattr(global_step, "numpy") else global_step)
            save_path = f"{save_path}-{step}"
        with self._session(sess):
            tensors = {k: (v.dtype, tuple(v.shape.as_list()), storage(v)) for k, v in self._vars.items()}
        _bundle.write_bundle(save_path, tensors)
        if write_state:
            self._last = [p for p in self._last if p != save_path] + [save_path]
            if self._max_to_keep:
                for old in self._last[:-self._max_to_keep]:
                    checkpoint_management._delete_checkpoint(old)
                self._last = self._last[-self._max_to_keep:]
            checkpoint_management.update_checkpoint_state(os.path.dirname(save_path), save_path, self._last,
                                                          latest_filename=latest_filename)
        return save_path

    def restore(self, sess, save_path):
        """Assigns every variable its value saved under its name (all values are read before any is assigned)."""
        if not self._graph_mode():
            get_logger().warning(_DEPRECATED)
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        if not os.path.exists(_bundle.index_path(save_path)):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        reader = _bundle.BundleReader(save_path)
        values = {}
        for key in self._vars:
            if key not in reader.entries:
                raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
            values[key] = reader.read(key)
        if self._graph_mode():          # TF1 graph: the restore ops run in `sess` now
            with self._session(sess):
                for key, v in self._vars.items():
                    v._set_storage(values[key])
            return
        for key, v in self._vars.items():
            v.assign(values[key])

    def _graph_mode(self):
        return any(getattr(v, "_graph_variable", False) for v in self._vars.values())

    def _session(self, sess):
        """Lends `sess` (else the default session) to graph variables' storage; nothing eagerly."""
        if not self._graph_mode():
            return contextlib.nullcontext()
        sess = sess if sess is not None else graph_state.default_session()
        if sess is None:
            raise ValueError("The session used to save or restore graph variables is None.")
        return session_io(sess)

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False):
        raise NotImplementedError("tf.compat.v1.train.Saver.export_meta_graph (a MetaGraphDef of the graph) is not "
                                  "supported by tfcompat")

    @property
    def last_checkpoints(self):
        return list(self._last)


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Makes the initializers of graph variables load checkpoint tensors instead: `assignment_map` maps checkpoint
    names or scopes (`'scope/'`, `'/'` for the root) to `get_variable` names, scopes or variables."""
    reader = checkpoint_management.load_checkpoint(ckpt_dir_or_file)
    graph = graph_state.default_graph()
    if graph is None:
        raise NotImplementedError("tf.compat.v1.train.init_from_checkpoint outside a tf.Graph (TF1's variable "
                                  "store) is not supported by tfcompat")
    shapes = reader.get_variable_to_shape_map()
    store = graph.variable_store
    for ckpt_name, current in sorted(assignment_map.items(), key=lambda kv: kv[0]):
        var = current if isinstance(current, Variable) else store.get(current)
        if var is not None:
            if ckpt_name not in shapes:
                raise ValueError(f"Tensor {ckpt_name} is not found in {ckpt_dir_or_file} checkpoint {shapes}")
            _load_initializer(var, reader, ckpt_name, shapes, ckpt_name)
            continue
        scope = current[:current.rindex("/")] if "/" in current else ""
        if not ckpt_name.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scope} should map to scope only {ckpt_name}. "
                             "Should be 'scope/': 'other_scope/'.")
        for name in sorted(n for n in store if not scope or n.startswith(scope + "/")):
            key = name[len(scope):] if current == "/" else name[len(scope) + 1:]
            key = (key if ckpt_name == "/" else ckpt_name + key).rstrip("/")
            if key not in shapes:
                raise ValueError(f"Tensor {key} ({name[len(scope) + 1:]} in {ckpt_name}) is not found in "
                                 f"{ckpt_dir_or_file} checkpoint")
            _load_initializer(store[name], reader, key, shapes, key)


def _load_initializer(var, reader, key, shapes, shown):
    if not var.shape.is_compatible_with(shapes[key]):
        raise ValueError(f"Shape of variable {var.name} ({tuple(var.shape.as_list())}) doesn't match with shape of "
                         f"tensor {shown} ({shapes[key]}) from checkpoint reader.")
    dtype = var.dtype
    var._set_initial_value(lambda: convert_to_tensor(reader.get_tensor(key), dtype=dtype))


_TF1_OPTIMIZERS = {"Optimizer", "ProximalGradientDescentOptimizer",
                   "ProximalAdagradOptimizer", "AdagradDAOptimizer"}
_GRAPH_ONLY = {"import_meta_graph", "export_meta_graph", "QueueRunner", "start_queue_runners"}
# TF1's monitored training loop (`monitored_session.py`)
_MONITORED = {"MonitoredSession", "MonitoredTrainingSession", "SingularMonitoredSession", "Scaffold",
              "ChiefSessionCreator", "SessionRunContext", "SessionRunValues", "Coordinator", "SecondOrStepTimer",
              "StopAtStepHook", "LoggingTensorHook", "NanTensorHook", "NanLossDuringTrainingError",
              "StepCounterHook", "CheckpointSaverHook", "CheckpointSaverListener", "FinalOpsHook", "FeedFnHook"}


def _decayed(make, global_step, op_name):
    """TF1's decay functions: eagerly `functools.partial(schedule, global_step)` (a callable the TF1 optimizers call
    at each step); in a graph the schedule's value at `global_step` as a node (`op_name`, unique in the graph)."""
    schedule = make()
    graph = graph_state.default_graph()
    if graph is None:
        return functools.partial(schedule, global_step)
    from tfcompat.framework.graph import Operation, is_graph_value, scoped
    scope, _, rest = op_name.partition("/")
    # the node is uniquified by its graph; a node inside a TF scope (CosineDecay/Mul_3) by its scope
    name = f"{graph.unique_name(scoped(scope))}/{rest}" if rest else scoped(scope)
    inputs = (global_step,) if is_graph_value(global_step) else ()
    step = (lambda session, value: schedule(value)) if inputs else (lambda session: schedule(global_step))
    return Operation(graph, name, scope, step, inputs, output_spec=()).output


def _schedules():
    from tfcompat.keras.optimizers import schedules
    return schedules


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    return _decayed(lambda: _schedules().PolynomialDecay(learning_rate, decay_steps, end_learning_rate, power, cycle,
                                                         name=name), global_step, "PolynomialDecay")


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    return _decayed(lambda: _schedules().ExponentialDecay(learning_rate, decay_steps, decay_rate, staircase,
                                                          name=name), global_step, "ExponentialDecay")


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """`learning_rate * exp(-decay_rate * global_step / decay_steps)` (TF's ExponentialDecay of rate exp(-rate))."""
    import math
    return _decayed(lambda: _schedules().ExponentialDecay(learning_rate, decay_steps, math.exp(-decay_rate),
                                                          staircase, name=name), global_step, "ExponentialDecay")


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    return _decayed(lambda: _schedules().InverseTimeDecay(learning_rate, decay_steps, decay_rate, staircase,
                                                          name=name), global_step, "InverseTimeDecay")


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    return _decayed(lambda: _schedules().CosineDecay(learning_rate, decay_steps, alpha, name=name), global_step,
                    "CosineDecay/Mul_3")


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    return _decayed(lambda: _schedules().CosineDecayRestarts(learning_rate, first_decay_steps, t_mul, m_mul, alpha,
                                                             name=name), global_step, "SGDRDecay")


def piecewise_constant(x, boundaries, values, name=None):
    """`values[i]` while `boundaries[i-1] < x <= boundaries[i]`."""
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    if x is None:
        convert_to_tensor(x)        # TF's ValueError for None
    return _decayed(lambda: _schedules().PiecewiseConstantDecay(boundaries, values, name=name), x,
                    "PiecewiseConstant/case/cond/Identity")


def summary_iterator(path):
    """`tf.compat.v1.train.summary_iterator`: the `Event` protos of an event file, in order (CRCs checked); TF's
    deprecation of the `tf_record_iterator` it uses is logged at the call, as TF logs it."""
    warn_deprecated("tf_record_iterator", "tensorflow.python.lib.io.tf_record",
                    "Use eager execution and: \n`tf.data.TFRecordDataset(path)`")
    return _events(path)


def _events(path):
    from tensorboard.compat.proto import event_pb2
    from tfcompat.data.tfrecord import read_records
    with open(path, "rb") as f:
        for record in read_records(f):
            yield event_pb2.Event.FromString(record)


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    if attr in _MONITORED:
        from tfcompat.compat.v1 import monitored_session
        return getattr(monitored_session, attr)
    if attr in _GRAPH_ONLY:
        raise NotImplementedError(f"tf.compat.v1.train.{attr} is TF1 graph-mode API that tfcompat's graph mode lacks "
                                  "(no MetaGraphDefs, monitored sessions or queue runners)")
    if attr in _TF1_OPTIMIZERS:
        raise NotImplementedError(f"tf.compat.v1.train.{attr} is not supported by tfcompat (of TF1's optimizers, only "
                                  "GradientDescent, Adam, Adadelta, Ftrl, Momentum, Adagrad and RMSProp)")
    try:
        return getattr(_train, attr)
    except AttributeError:
        raise AttributeError(f"module 'tensorflow.compat.v1.train' has no attribute '{attr}'") from None
