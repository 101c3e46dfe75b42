"""Checkpoint files on disk: the `checkpoint` state file, `CheckpointManager`, and checkpoint readers."""
import collections
import gc
import glob
import logging
import os
import time
import weakref

from tfcompat.framework import dtypes, errors, graph_state
from tfcompat.framework.export import unsupported_args
from tfcompat.framework.tensor import _wrap
from tfcompat.framework.variables import Variable, VariableAggregation
from tfcompat.train import _bundle, _proto
from tfcompat.train._unordered_map import iteration_order
from tfcompat.train.checkpoint import open_reader
from tfcompat.util import atomic_file

_log = logging.getLogger("tfcompat")


# -- the `checkpoint` state file ----------------------------------------------------------------------------------------
class CheckpointState:
    """TF's `CheckpointState` proto: the latest checkpoint and the ones kept. Prints as TF's text format."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(), all_model_checkpoint_timestamps=(),
                 last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __str__(self):
        return _proto.encode_state(self.model_checkpoint_path, self.all_model_checkpoint_paths,
                                   self.all_model_checkpoint_timestamps, self.last_preserved_timestamp or None)

    __repr__ = __str__


def _state_file(directory, latest_filename=None):
    return os.path.join(directory, latest_filename or "checkpoint")


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState in `checkpoint_dir` (relative paths joined to it), or None if there is none."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    path = _state_file(checkpoint_dir, latest_filename)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            fields = _proto.decode_state(f.read())
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, _proto.ProtoError) as e:
        _log.warning("%s: %s", type(e).__name__, e)
        _log.warning("%s: Checkpoint ignored", path)
        return None
    if not fields["model_checkpoint_path"]:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)

    def full(p):
        return p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)

    return CheckpointState(full(fields["model_checkpoint_path"]), [full(p) for p in fields["all_model_checkpoint_paths"]],
                           fields["all_model_checkpoint_timestamps"], fields["last_preserved_timestamp"])


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths, timestamps=None,
                            last_preserved_timestamp=None, latest_filename=None):
    """Atomically rewrites the state file in `save_dir`, with paths relative to it (as TF saves them)."""
    base = save_dir or "."
    state = _state_file(save_dir, latest_filename)
    if os.path.abspath(state) == os.path.abspath(model_checkpoint_path):
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for checkpoint state.  "
                           "Please use a different save path.")
    paths = list(all_model_checkpoint_paths)
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    if timestamps and len(timestamps) != len(paths):
        raise ValueError("Checkpoint timestamps, if provided, must match checkpoint paths (got paths "
                         f"{paths} and timestamps {timestamps})")
    text = _proto.encode_state(os.path.relpath(model_checkpoint_path, base),
                               [os.path.relpath(p, base) for p in paths], timestamps, last_preserved_timestamp)
    atomic_file.write_bytes(state, [text.encode("utf-8")])


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint recorded in `checkpoint_dir`, or None."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state and state.model_checkpoint_path and os.path.exists(state.model_checkpoint_path + ".index"):
        return state.model_checkpoint_path
    if state and state.model_checkpoint_path:
        _log.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
    return None


def _delete_checkpoint(prefix):
    data = glob.glob(glob.escape(prefix) + ".data-?????-of-?????")
    for path in [prefix + ".index"] + data + [_bundle.previous_data_path(p) for p in data]:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


def _lock_directory(directory):
    """An open descriptor of `directory` holding an exclusive advisory lock (`flock`) on it, or None if
    another descriptor (in this or another process) holds one."""
    import fcntl
    os.makedirs(directory, exist_ok=True)
    for attempt in range(2):
        fd = os.open(directory, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            os.close(fd)
        if attempt == 0:
            gc.collect()          # an unreachable manager of this process may still hold it
    return None


_LOCKING = weakref.WeakSet()     # managers holding their directory's lock


def _drop_inherited_locks():
    """In a forked child: closes the copies of the parent's locked descriptors (the parent keeps its locks;
    a manager used in the child locks the directory anew)."""
    for manager in list(_LOCKING):
        manager._lock()
    _LOCKING.clear()


os.register_at_fork(after_in_child=_drop_inherited_locks)


class CheckpointManager:
    """`tf.train.CheckpointManager`: numbered saves in a directory, keeping the newest `max_to_keep`.

    A save writes the checkpoint files, then the state file, then deletes the old checkpoints, so a crash at
    any point leaves a state file that names only complete checkpoints. One writer per directory (tfcompat
    addition; TF does not check): the first `save` locks the directory (`flock`) for the life of the manager,
    and a `save` of another manager on it, in this process or another (a forked child included), raises
    `FailedPreconditionError` instead of overwriting that manager's checkpoints. Managers that only restore
    take no lock.
    """

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None, checkpoint_name="ckpt",
                 step_counter=None, checkpoint_interval=None, init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self._checkpoint = checkpoint
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._directory = os.fspath(directory)
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._last_checkpoint_step = None
        self._init_fn = init_fn
        self._lock = None                 # finalizer closing the locked directory descriptor
        self._maybe_delete = collections.OrderedDict()
        now = time.time()
        state = get_checkpoint_state(self._directory)
        if state is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now
            return
        self._latest_checkpoint = state.model_checkpoint_path
        self._last_preserved_timestamp = min(state.last_preserved_timestamp, now)
        stamps = state.all_model_checkpoint_timestamps or [self._last_preserved_timestamp] * len(
            state.all_model_checkpoint_paths)
        for path, stamp in zip(state.all_model_checkpoint_paths, stamps):
            stamp = min(stamp, now)
            if stamp > self._last_preserved_timestamp:
                self._maybe_delete[path] = stamp

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The managed checkpoint prefixes, oldest first."""
        return list(self._maybe_delete)

    def _record_state(self):
        if self._latest_checkpoint is None:
            return
        update_checkpoint_state(self._directory, self._latest_checkpoint, list(self._maybe_delete),
                                list(self._maybe_delete.values()), self._last_preserved_timestamp)

    def _sweep(self):
        """Drops the checkpoints beyond `max_to_keep` from the managed list; returns those to delete."""
        doomed = []
        if not self._max_to_keep:
            return doomed
        while len(self._maybe_delete) > self._max_to_keep:
            path, stamp = self._maybe_delete.popitem(last=False)
            hours = self._keep_checkpoint_every_n_hours
            if hours and stamp - hours * 3600.0 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = stamp
                continue
            doomed.append(path)
        return doomed

    def _own_directory(self):
        if self._lock is not None and self._lock.alive:
            return
        fd = _lock_directory(self._directory)
        if fd is None:
            raise errors.FailedPreconditionError(
                None, None, f"Another CheckpointManager (in this or another process) is saving to {self._directory}: "
                "two writers would overwrite and delete each other's checkpoints. Use one CheckpointManager per "
                "directory, or another directory.")
        self._lock = weakref.finalize(self, os.close, fd)
        _LOCKING.add(self)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Saves `checkpoint_name-N` (N: `checkpoint_number` or the incremented save_counter); returns its path.

        Temporaries of `checkpoint_name-*` files left by killed saves are removed first."""
        self._own_directory()
        atomic_file.remove_stale(self._prefix + "-", any_suffix=True)
        if self._checkpoint_interval is not None:
            step = int(_wrap(self._step_counter._read()).numpy()) if isinstance(self._step_counter, Variable) \
                else int(self._step_counter)
            if self._last_checkpoint_step is not None:
                if step == self._last_checkpoint_step:
                    return None
                if check_interval and step < self._last_checkpoint_step + self._checkpoint_interval:
                    return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        number = counter if checkpoint_number is None else checkpoint_number
        path = f"{self._prefix}-{int(number)}"
        self._checkpoint._write(path, options, sync_dir=False)    # the state file's directory fsync covers it
        self._maybe_delete.pop(path, None)
        self._maybe_delete[path] = time.time()
        self._latest_checkpoint = path
        doomed = self._sweep()
        self._record_state()          # before deleting: the state file never names a deleted checkpoint
        for old in doomed:
            _delete_checkpoint(old)
        return path

    def restore_or_initialize(self):
        """Restores the latest checkpoint and returns its path, or runs `init_fn` and returns None."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(self._step_counter)
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def sync(self):
        """Waits for asynchronous saves (saves are synchronous in tfcompat)."""


# -- reading tensors ----------------------------------------------------------------------------------------------------
class CheckpointReader:
    """Reads the tensors of one checkpoint (TF's `CheckpointReader`)."""

    def __init__(self, filename):
        self._reader = open_reader(os.fspath(filename))
        self._order = None

    def _keys(self):
        """The keys in the order TF's maps hold them: a C++ unordered_map filled in the bundle's sorted key order."""
        if self._order is None:
            self._order = iteration_order(sorted(self._reader.entries, key=lambda k: k.encode("utf-8")))
        return self._order

    def get_variable_to_shape_map(self):
        return {k: list(self._reader.shape(k)) for k in self._keys()}

    def get_variable_to_dtype_map(self):
        return {k: self._reader.dtype(k) for k in self._keys()}

    def has_tensor(self, name):
        return name in self._reader.entries

    def get_tensor(self, name):
        """The saved value as NumPy (a NumPy scalar for scalars, `bytes` for a scalar string)."""
        if name not in self._reader.entries:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        value = self._reader.read(name)
        if self._reader.dtype(name) is not dtypes.string:
            value = _wrap(value)._array()
        return value[()] if value.ndim == 0 else value


def _checkpoint_file(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return latest
    return path


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader for a checkpoint prefix, or for the latest checkpoint in a directory."""
    return CheckpointReader(_checkpoint_file(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """Sorted [(key, shape)] of the tensors in a checkpoint."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def load_variable(ckpt_dir_or_file, name):
    """The saved value of tensor `name` (a trailing ':0' is ignored)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


_global_step = None


@unsupported_args("graph", api_name="tf.train.get_or_create_global_step")     # graph mode only; tfcompat is eager
def get_or_create_global_step(graph=None):
    """`tf.compat.v1.train.get_or_create_global_step`: the int64 `global_step` variable, made once (per TF1 graph
    inside one, kept in its `global_step` collection)."""
    global _global_step
    graph = graph_state.default_graph()
    if graph is not None:
        if not graph.get_collection("global_step"):
            graph.add_to_collection("global_step", Variable(0, dtype=dtypes.int64, trainable=False, name="global_step"))
        return graph.get_collection("global_step")[0]
    if _global_step is None:
        _global_step = Variable(0, dtype=dtypes.int64, trainable=False, name="global_step",
                                aggregation=VariableAggregation.ONLY_FIRST_REPLICA)
    return _global_step


@unsupported_args("graph", api_name="tf.compat.v1.train.get_global_step")
def get_global_step(graph=None):
    """`tf.compat.v1.train.get_global_step`: the `global_step` variable if one was made, else None."""
    graph = graph_state.default_graph()
    if graph is not None:
        return next(iter(graph.get_collection("global_step")), None)
    return _global_step
