"""`tf.train.Checkpoint`: object-based checkpoints in TensorFlow's file format.

Saving walks the object graph breadth-first from the Checkpoint (children in
TF's order), numbers the objects in that order and keys each variable by the
first path that reaches it (`model/layer/kernel/.ATTRIBUTES/VARIABLE_VALUE`).
Restoring walks the saved TrackableObjectGraph and the live objects together,
matching children by name. Saved values whose objects do not exist yet wait on
the live parent that will hold them, which restores them when it gains them
(`notify_new_children`): that is how layers built and optimizer slots created
after `restore` get their values (TF's deferred restoration).
"""
import contextlib
import itertools
import logging
import os
import weakref

import numpy as np

from tfcompat.framework import dtypes, errors, graph_state, graph_variable, variables
from tfcompat.framework.export import EXPORTS, unsupported_args
from tfcompat.framework.tensor import storage
from tfcompat.framework.variables import Variable
from tfcompat.train import _bundle, _keras_children, _proto
from tfcompat.train.data_structures import ListWrapper, _DictWrapper, wrap

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VALUE_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
ITERATOR_SUFFIX = "/.ATTRIBUTES/ITERATOR"    # TF's object graph names the attribute ITERATOR, its tensor ITERATOR_STATE
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


# -- the object graph ---------------------------------------------------------------------------------------------------
def _is_module(obj):
    module = EXPORTS.get("Module")
    return module is not None and isinstance(obj, module)


def _iterator_class():
    """tf.data's iterator class if tf.data is loaded (an iterator cannot exist before)."""
    import sys
    module = sys.modules.get("tfcompat.data.dataset")
    return module.OwnedIterator if module is not None else None


def _is_iterator(obj):
    cls = _iterator_class()
    return cls is not None and isinstance(obj, cls)


def is_trackable(obj):
    """Whether TF would track `obj` as a checkpoint dependency."""
    if isinstance(obj, (Variable, Checkpoint, list, tuple, dict, _keras_children.Empty)) or _is_iterator(obj):
        return True
    if hasattr(type(obj), "_checkpoint_children") or _is_module(obj):
        return True
    return _keras_children.kind(obj) not in (None, "metric")


def children(obj):
    """[(local_name, child)] of a trackable object, in TF's order."""
    if isinstance(obj, (Variable, _keras_children.Empty)) or _is_iterator(obj):
        return []
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if is_trackable(v)]
    if isinstance(obj, dict):
        out = []
        for k, v in obj.items():
            if is_trackable(v):
                if not isinstance(k, str):
                    raise ValueError(f"Unable to save the object {obj} (a dictionary wrapper constructed automatically "
                                     "on attribute assignment). The wrapped dictionary contains a non-string key which "
                                     "maps to a trackable object or mutable data structure.")
                out.append((k, v))
        return out
    method = getattr(type(obj), "_checkpoint_children", None)
    if method is not None:
        return method(obj)
    kind = _keras_children.kind(obj)
    if kind is not None:
        return _keras_children.children(obj, kind)
    return [(k, v) for k, v in vars(obj).items() if is_trackable(v)]


def _escape(name):
    return name.replace(".", "..").replace("/", ".S")


def _full_name(var):
    path = getattr(var, "path", None)
    if isinstance(path, str):
        return path
    name = Variable.name.fget(var)
    return name[:-2] if name.endswith(":0") else name


def _dtype(var):
    if getattr(var, "_graph_variable", False):     # a TF1 graph variable may have no value yet
        return var.dtype
    return dtypes.FROM_STORAGE[storage(var).dtype]


def build_graph(root):
    """(nodes, objects, paths) of the live graph under `root`, breadth first."""
    objects, ids, paths, nodes = [root], {id(root): 0}, [()], [_proto.Node()]
    i = 0
    while i < len(objects):
        for name, child in children(objects[i]):
            cid = ids.get(id(child))
            if cid is None:
                cid = ids[id(child)] = len(objects)
                objects.append(child)
                paths.append(paths[i] + (name,))
                nodes.append(_proto.Node())
            nodes[i].children.append((cid, name))
        i += 1
    for node, obj, path in zip(nodes, objects, paths):
        if isinstance(obj, Variable):
            node.attributes.append(("VARIABLE_VALUE", _full_name(obj), "/".join(map(_escape, path)) + VALUE_SUFFIX))
        elif _is_iterator(obj):
            node.attributes.append(("ITERATOR", "", "/".join(map(_escape, path)) + ITERATOR_SUFFIX))
        elif hasattr(obj, "_saveable_tensors"):      # a SaveableObject of several tensors (mutable lookup tables)
            name = obj._SAVEABLE_NAME
            node.attributes.append((name, "", "/".join(map(_escape, path)) + "/.ATTRIBUTES/" + name))
    _mark_values(nodes)
    return nodes, objects, paths


def _mark_values(nodes):
    has = _with_values(nodes)
    for i, n in enumerate(nodes):
        n.has_checkpoint_values = i in has


def save_objects(root, prefix, sync_dir=True):
    """Writes the graph under `root` to the bundle at `prefix` (`sync_dir`: see `_bundle.write_bundle`)."""
    if not logging.root.handlers:
        # TF's object-based saver logs each save through absl, whose first log configures Python's root logger
        # (`basicConfig`): from then on the process's TF warnings also reach the root handler (printed twice)
        logging.basicConfig()
    nodes, objects, _ = build_graph(root)
    tensors = {}
    for node, obj in zip(nodes, objects):
        for _, _, key in node.attributes:
            if _is_iterator(obj):
                tensors[key + "_STATE"] = _iterator_tensor(obj)
            elif hasattr(obj, "_saveable_tensors"):
                for suffix, value in obj._saveable_tensors().items():
                    tensors[key + suffix] = value
            else:
                t = storage(obj)
                tensors[key] = (_dtype(obj), tuple(t.shape), t)
    graph = np.empty((), dtype=object)
    graph[()] = _proto.encode_object_graph(nodes)
    tensors[OBJECT_GRAPH_KEY] = (dtypes.string, (), graph)
    _bundle.write_bundle(prefix, tensors, sync_dir)


def _iterator_tensor(iterator):
    """A tf.data iterator's ITERATOR_STATE: a scalar tf.string holding tfcompat's JSON state (TF stores a
    DT_VARIANT; TF refuses to restore this one with a dtype error)."""
    value = np.empty((), dtype=object)
    value[()] = iterator._serialize_state()
    return dtypes.string, (), value


def _read_iterator_state(reader, key):
    """The saved state of a tf.data iterator (applied with `_restore_state`)."""
    key += "_STATE"
    if key not in reader.entries:
        raise errors.NotFoundError(None, None, f"Key {key} not found in checkpoint")
    if reader.dtype(key) is not dtypes.string or reader.shape(key) != ():
        raise NotImplementedError(f"restoring the tf.data iterator state {key} written by TensorFlow (a "
                                  f"{reader.dtype(key).name} tensor of shape {list(reader.shape(key))}) is not "
                                  "supported by tfcompat: only iterator states saved by tfcompat can be restored")
    return reader.read(key)[()]


# -- restoring ----------------------------------------------------------------------------------------------------------
def _node_text(node):
    """A node in protobuf text format, as TF's messages print it."""
    lines = []
    for cid, name in node.children:
        lines += ["children {", f"  node_id: {cid}", f'  local_name: "{name}"', "}"]
    for name, full, key in node.attributes:
        lines += ["attributes {", f'  name: "{name}"', f'  full_name: "{full}"', f'  checkpoint_key: "{key}"', "}"]
    for orig, slot, sid in node.slot_variables:
        lines += ["slot_variables {", f"  original_variable_node_id: {orig}", f'  slot_name: "{slot}"',
                  f"  slot_variable_node_id: {sid}", "}"]
    if node.has_checkpoint_values is not None:
        lines += ["has_checkpoint_values {", f"  value: {str(node.has_checkpoint_values).lower()}", "}"]
    return "\n".join(lines) + "\n"


def _read_value(var, reader, key):
    """The saved value of `var`, read and checked (dtype, shape, checksum) but not assigned."""
    saved = reader.dtype(key)
    have = _dtype(var)
    if saved is not have:
        raise errors.InvalidArgumentError(
            None, None, f"tensor_name = {key}; expected dtype {_CPP_NAMES.get(have.name, have.name)} does not equal "
            f"original dtype {_CPP_NAMES.get(saved.name, saved.name)} [Op:RestoreV2]")
    shape = reader.shape(key)
    if var._shape.rank is not None and not var._shape.is_compatible_with(shape):
        raise ValueError(f"Received incompatible tensor with shape {shape} when attempting to restore variable "
                         f"with shape {tuple(storage(var).shape)} and name {Variable.name.fget(var)}.")
    value = reader.read(key)
    if getattr(var, "_graph_variable", False):
        return value
    device = storage(var).device
    if not isinstance(value, np.ndarray) and value.device != device:
        value = value.to(device)
    return value


class _Restore:
    """One restore: the saved graph, the reader, and which saved nodes have been matched and restored.

    It holds its root and the objects it matched weakly: what keeps it alive are the status and the live objects
    still waiting for children (entries in `_WAITING`).
    """

    _uids = itertools.count()

    def __init__(self, root, reader, nodes):
        self.uid = next(self._uids)
        self._pending = None
        self._root = weakref.ref(root)
        self.reader = reader
        self.nodes = nodes
        self.matched = {0}
        self.bound = weakref.WeakValueDictionary()       # saved node id -> the variable/iterator it restored
        self.restored = set()
        self.complete = set()
        self.valued = {i for i, n in enumerate(nodes) if n.attributes}
        self.has_values = _with_values(nodes)
        # saved nodes ever matched to a live object (a failed pass too) and whether the status expects a partial
        # restore: what TF's warning lists when the restore is let go (see `_warn_unrestored`)
        self.touched = {0}
        self.partial = [False]
        weakref.finalize(self, _warn_unrestored, nodes, self.touched, self.partial)

    @property
    def root(self):
        return self._root()

    def run(self, obj, sid, listeners=()):
        """`bind`s `obj` to saved node `sid`, reading and checking every value of the pass before assigning
        any (TF's RestoreV2: all or nothing); if a value is bad, raises with nothing changed."""
        self._pending = pending = []
        before = set(self.matched), set(self.complete)
        try:
            self.bind(obj, sid, set(), listeners)
            # lifted out of a tf.function trace (TF restores a variable created there as its initial value)
            with variables._init_scope[0]():
                for target, _, value in sorted(pending, key=lambda p: isinstance(p[0], Variable)):
                    if isinstance(target, Variable):
                        target._set_storage(value)
                    else:
                        target._restore_state(value)     # iterators first: their state can still be refused
        except BaseException:
            self.matched, self.complete = before
            self._touch(obj, sid, set())     # TF matched the whole graph before reading a value
            raise
        finally:
            self._pending = None
        for target, node_id, _ in pending:
            self.restored.add(node_id)
            self.bound[node_id] = target

    def bind(self, obj, sid, seen, listeners=()):
        """Matches live `obj` to saved node `sid`: restores its value and its children's, depth first.

        A missing child with saved values waits on `listeners` (the nearest objects that announce new
        children); returns whether the saved subtree under `sid` is fully restored.
        """
        seen.add(sid)
        self.matched.add(sid)
        self.touched.add(sid)
        node = self.nodes[sid]
        if node.attributes and sid not in self.restored:
            self._restore_attributes(obj, sid, node)
        if node.children and _announces(obj):
            listeners = _listeners(obj, sid)
        done = True
        if node.children:
            kids = {}
            for name, child in children(obj):
                kids.setdefault(name, child)
            for cid, name in node.children:
                if cid in self.complete or cid not in self.has_values:
                    continue
                child = kids.get(name)
                if cid in seen:
                    done = False                        # a shared or cyclic node still in progress
                elif child is None:
                    done = False
                    for listener, owner, owner_sid in listeners:
                        _wait(listener, self, owner, owner_sid)
                elif not self.bind(child, cid, seen, listeners):
                    done = False
        if done:
            self.complete.add(sid)
        return done

    def _touch(self, obj, sid, seen):
        """Marks the saved nodes under `sid` that live objects under `obj` match, by name, as matched."""
        seen.add(sid)
        self.touched.add(sid)
        if self.nodes[sid].children:
            kids = {}
            for name, child in children(obj):
                kids.setdefault(name, child)
            for cid, name in self.nodes[sid].children:
                child = kids.get(name)
                if child is not None and cid not in seen:
                    self._touch(child, cid, seen)

    def _restore_attributes(self, obj, sid, node):
        """Reads the saved value(s) of `obj` into the pass's pending assignments."""
        if isinstance(obj, Variable):
            for name, _, key in node.attributes:
                if name == "VARIABLE_VALUE":
                    self._pending.append((obj, sid, _read_value(obj, self.reader, key)))
        elif _is_iterator(obj):
            for name, _, key in node.attributes:
                if name == "ITERATOR":
                    self._pending.append((obj, sid, _read_iterator_state(self.reader, key)))
        elif hasattr(obj, "_saveable_tensors"):
            for name, _, key in node.attributes:
                if name == obj._SAVEABLE_NAME:
                    saved = {}
                    for suffix in obj._SAVEABLE_SUFFIXES:
                        if key + suffix not in self.reader.entries:
                            raise errors.NotFoundError(None, None, f"Key {key + suffix} not found in checkpoint")
                        saved[suffix] = (key + suffix, self.reader.dtype(key + suffix), self.reader.read(key + suffix))
                    self._pending.append((obj, sid, saved))

    def names(self):
        """TF's pretty names of saved nodes: `(root).a.b`."""
        out, queue = {0: "(root)"}, [0]
        while queue:
            i = queue.pop(0)
            for c, name in self.nodes[i].children:
                if c not in out:
                    out[c] = out[i] + "." + name
                    queue.append(c)
        return out


def _warn_unrestored(nodes, touched, partial):
    """TF's warning when a restore whose status did not `expect_partial()` is let go (its status and the objects
    waiting for deferred values gone, or at exit) with saved values no live object was matched to."""
    if partial[0]:
        return
    unused = [i for i, n in enumerate(nodes) if n.attributes and i not in touched]
    if not unused:
        return
    names = _Restore.names(_NodesOnly(nodes))
    log = logging.getLogger("tensorflow")
    log.warning("Detecting that an object or model or tf.train.Checkpoint is being deleted with unrestored values. "
                "See the following logs for the specific values in question. To silence these warnings, use "
                "`status.expect_partial()`. See https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restore"
                "for details about the status object returned by the restore function.")
    for i in unused:
        log.warning(f"Value in checkpoint could not be found in the restored object: {names[i]}")


class _NodesOnly:
    __slots__ = ("nodes",)

    def __init__(self, nodes):
        self.nodes = nodes


def _with_values(nodes):
    """Ids of the saved nodes that have values in their subtree."""
    has = [bool(n.attributes) for n in nodes]
    changed = True
    while changed:
        changed = False
        for i, n in enumerate(nodes):
            if not has[i] and any(has[c] for c, _ in n.children):
                has[i] = changed = True
    return {i for i, h in enumerate(has) if h}


# -- deferred restoration -----------------------------------------------------------------------------------------------
# As in TF, restores wait on parent objects: a live object matched to a saved node with missing children is
# registered here, and calls `notify_new_children` when it gains children (Keras layers on attribute assignment
# and after `build`, optimizers when they create variables, tf.Module / Checkpoint / tracked lists and dicts on
# assignment). Entries die with their object.
_WAITING = {}      # id(object) -> (weakref to it, [(restore, weakref to the object bound to the node, node id)])


def notify_new_children(parent):
    """`parent` gained children: restores waiting on it give them their saved values (TF's deferred restoration)."""
    if _WAITING:
        _resume(parent)


def _resume(parent):
    entry = _WAITING.get(id(parent))
    if entry is None or entry[0]() is not parent:
        return
    del _WAITING[id(parent)]
    positions = entry[1]
    for i, (restore, owner_ref, sid) in enumerate(positions):
        owner = owner_ref()
        if owner is None:
            continue
        try:
            restore.run(owner, sid, _listeners(owner, sid))
        except BaseException:
            for later in positions[i + 1:]:
                _wait(parent, later[0], later[1](), later[2])
            raise


def _wait(listener, restore, owner, sid):
    """Registers that `restore`'s node `sid`, bound to `owner`, waits for children announced by `listener`."""
    if owner is None:
        return
    key = id(listener)
    entry = _WAITING.get(key)
    if entry is None or entry[0]() is not listener:
        try:
            ref = weakref.ref(listener, lambda r, k=key: _forget(k, r))
        except TypeError:
            return
        entry = _WAITING[key] = (ref, [])
    positions = entry[1]
    root = restore.root
    for i in range(len(positions) - 1, -1, -1):
        other, _, other_sid = positions[i]
        if other is restore and other_sid == sid:
            return
        if other.uid < restore.uid and root is not None and other.root is root:
            del positions[i]                            # a newer restore of the same root replaces it
    positions.append((restore, weakref.ref(owner), sid))


def _forget(key, ref):
    entry = _WAITING.get(key)
    if entry is not None and entry[0] is ref:
        del _WAITING[key]


def _announces(obj):
    """Whether `obj` calls `notify_new_children` when it gains children."""
    return (isinstance(obj, (Checkpoint, ListWrapper, _DictWrapper)) or _is_module(obj)
            or _keras_children.kind(obj) in ("optimizer", "sequential", "functional", "layer"))


def _listeners(obj, sid):
    """[(listener, owner, sid)]: the objects whose new children can complete node `sid` bound to `obj`.

    A Checkpoint built with `root=` lists the root's children as its own: the root announces them, and is
    matched to the same node (it outlives a Checkpoint made just to restore it, as in TF).
    """
    out = [(obj, obj, sid)]
    root = obj._root if isinstance(obj, Checkpoint) else None
    if root is not None and _announces(root):
        out.append((root, root, sid))
    return out


class _Status:
    """What `restore` returns."""

    _restore = None

    def expect_partial(self):
        """Silences the warning about saved values left unrestored."""
        if self._restore is not None:
            self._restore.partial[0] = True
        return self

    def __repr__(self):
        return f"<tensorflow.python.checkpoint.checkpoint.{type(self).__name__} object at {hex(id(self))}>"

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class CheckpointLoadStatus(_Status):
    """The status of a restore: checks how saved values and live objects matched."""

    def __init__(self, restore, graph_writes=None):
        self._restore = restore
        self._graph_writes = graph_writes or []

    def run_restore_ops(self, session=None):
        """TF1 graph: assigns the restored values of graph variables in `session` (else the default session)."""
        graph_variable.apply_restores(self._graph_writes, session)

    @staticmethod
    def _unbound(r):
        """The live variables and iterators under the root that no saved value was bound to."""
        root = r.root
        if root is None:
            return []
        bound = {id(o) for o in r.bound.values()}
        return [o for o in build_graph(root)[1] if (isinstance(o, Variable) or _is_iterator(o)) and id(o) not in bound]

    def _unmatched_python(self, r):
        unused = self._unbound(r)
        if unused:
            shown = min(10, len(unused))
            raise AssertionError(
                f"Found {len(unused)} Python objects that were not bound to checkpointed values, likely due to changes "
                f"in the Python program. Showing {shown} of {len(unused)} unmatched objects: {unused[:shown]}")

    def assert_consumed(self):
        """Every saved value was restored and every live variable got a value."""
        r = self._restore
        names = r.names()
        for i in sorted(r.valued - r.restored):
            raise AssertionError(f"Unresolved object in checkpoint {names.get(i, i)}: {_node_text(r.nodes[i])}")
        self._unmatched_python(r)
        return self

    def assert_existing_objects_matched(self):
        """Every live object that has a saved counterpart was restored, and every live variable matched."""
        r = self._restore
        for i in sorted((r.valued & r.matched) - r.restored):
            raise AssertionError(f"Object {_node_text(r.nodes[i])} not assigned a value from checkpoint.")
        self._unmatched_python(r)
        return self

    def assert_nontrivial_match(self):
        """Something besides the root matched."""
        r = self._restore
        if len(r.matched) <= 1:
            live = self._unbound(r)
            if live:
                raise AssertionError(
                    "Nothing except the root object matched a checkpointed value. Typically this means that the "
                    f"checkpoint does not match the Python program. The following objects have no matching "
                    f"checkpointed value: {live}")
            raise AssertionError(f"Nothing to load. No dependencies have been added to {r.root} yet.")
        return self


class InitializationOnlyStatus(_Status):
    """What `restore(None)` returns: nothing is restored."""

    _MESSAGE = "No checkpoint specified (save_path=None); nothing is being restored."

    def assert_consumed(self):
        raise AssertionError(self._MESSAGE)

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def run_restore_ops(self, session=None):
        raise AssertionError("No checkpoint specified, so no restore ops are available "
                             "(save_path=None to Saver.restore).")


def open_reader(save_path):
    """A BundleReader for `save_path`, with TF's errors for missing files."""
    if os.path.isdir(save_path):
        raise errors.DataLossError(
            None, None, f"Unable to open table file {save_path}: FAILED_PRECONDITION: {save_path}; Is a directory: "
            "perhaps your file is in a different file format and you need to use a different restore operator?")
    if not os.path.exists(_bundle.index_path(save_path)):
        raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader constructor: Failed to find any "
                                               f"matching files for {save_path}")
    return _bundle.BundleReader(save_path)


def restore_objects(root, save_path):
    """Restores the checkpoint at `save_path` into the graph under `root`; returns the status."""
    try:
        reader = open_reader(save_path)
    except errors.NotFoundError as e:
        raise errors.NotFoundError(
            None, None, f"Error when restoring from checkpoint or SavedModel at {save_path}: {e.message}\nPlease "
            "double-check that the path is correct. You may be missing the checkpoint suffix (e.g. the '-1' in "
            "'path/to/ckpt-1').") from None
    if OBJECT_GRAPH_KEY not in reader.entries:       # a TF1 Saver checkpoint: variables matched by name
        from tfcompat.train.name_based import restore_by_name
        return restore_by_name(root, reader)
    try:
        nodes = _proto.decode_object_graph(reader.read(OBJECT_GRAPH_KEY)[()])
    except _proto.ProtoError as e:
        raise errors.DataLossError(None, None, f"corrupt object graph in {reader.index}: {e}") from None
    restore = _Restore(root, reader, nodes)
    with graph_variable.collect_restores([] if graph_state.default_graph() is not None else None) as graph_writes:
        restore.run(root, 0, _listeners(root, 0) if _announces(root) else ())   # values for objects not yet
        # built wait even if this pass raises: they are restored when their objects appear (as TF)
    return CheckpointLoadStatus(restore, graph_writes)


def _graph_io():
    """TF1 graph: graph variables' values are read from the default session, where TF runs its save ops."""
    session = graph_state.default_session()
    return graph_variable.session_io(session) if session is not None else contextlib.nullcontext()


# -- tf.train.Checkpoint ------------------------------------------------------------------------------------------------
@unsupported_args("experimental_sharding_callback", "experimental_skip_slot_variables",
                  api_name="tf.train.CheckpointOptions")
class CheckpointOptions:
    """`tf.train.CheckpointOptions`: options for saving and restoring (`experimental_io_device` changes no file:
    tfcompat reads and writes on the host)."""

    __slots__ = ("experimental_io_device", "experimental_enable_async_checkpoint", "experimental_write_callbacks",
                 "enable_async", "experimental_sharding_callback", "experimental_skip_slot_variables")

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_sharding_callback=None,
                 experimental_skip_slot_variables=False):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = enable_async or experimental_enable_async_checkpoint
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables


def _run_callbacks(options, path):
    for callback in (options.experimental_write_callbacks or ()) if options is not None else ():
        try:
            callback(path)
        except TypeError:
            callback()


class Checkpoint:
    """`tf.train.Checkpoint(root=None, **kwargs)`: groups trackable objects for saving and restoring.

    `save` numbers checkpoints with `save_counter`; `write`/`read` use the exact prefix; asynchronous options
    write synchronously (the files are the same).
    """

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_kids", {})
        object.__setattr__(self, "_root", root)
        object.__setattr__(self, "_save_counter", None)
        if root is not None and not is_trackable(root):
            raise ValueError(f"`Checkpoint` was expecting root to be a trackable object (an object derived from "
                             f"`Trackable`), got {root}. If you believe this object should be trackable (i.e. it is "
                             "part of the TensorFlow Python API and manages state), please open an issue.")
        for k, v in sorted(kwargs.items(), key=lambda item: item[0]):
            if not is_trackable(v):
                raise ValueError(f"`Checkpoint` was expecting {k} to be a trackable object (an object derived from "
                                 f"`Trackable`), got {v}. If you believe this object should be trackable (i.e. it is "
                                 "part of the TensorFlow Python API and manages state), please open an issue.")
            setattr(self, k, v)

    def __setattr__(self, name, value):
        if not name.startswith("_"):
            value = wrap(value)
        object.__setattr__(self, name, value)
        if not name.startswith("_"):
            if is_trackable(value):
                self._kids[name] = value
                notify_new_children(self)
            else:
                self._kids.pop(name, None)

    def __delattr__(self, name):
        object.__delattr__(self, name)
        self._kids.pop(name, None)

    def _checkpoint_children(self):
        kids = list(children(self._root)) if self._root is not None else []
        return kids + list(self._kids.items())

    @property
    def save_counter(self):
        """The int64 variable counting `save` calls (created on first use)."""
        if self._save_counter is None:
            counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter")
            object.__setattr__(self, "_save_counter", counter)
            self._kids["save_counter"] = counter
            notify_new_children(self)
        return self._save_counter

    def write(self, file_prefix, options=None):
        """Writes the checkpoint to exactly `file_prefix` (no counter, no state file); returns the prefix."""
        return self._write(os.fspath(file_prefix), options)

    def _write(self, file_prefix, options=None, sync_dir=True):
        with _graph_io():
            save_objects(self, file_prefix, sync_dir)
        _run_callbacks(options, file_prefix)
        return file_prefix

    def save(self, file_prefix, options=None):
        """Saves to `file_prefix-N` (N = incremented save_counter), records it in the `checkpoint` state file."""
        from tfcompat.train.checkpoint_management import update_checkpoint_state
        file_prefix = os.fspath(file_prefix)
        counter = self.save_counter
        session = graph_state.default_session()
        if getattr(counter, "_graph_variable", False) and session is not None:
            # TF1 graph: the counter's initializer (first save) and increment run in the default session, as in TF
            if not session.initialized(counter):
                session.run(counter.initializer)
            number = int(session.run(counter.assign_add(1)))
        else:
            counter.assign_add(1)
            number = int(counter.numpy())
        path = f"{file_prefix}-{number}"
        with _graph_io():
            save_objects(self, path, sync_dir=False)      # the state file's directory fsync covers both
        update_checkpoint_state(os.path.dirname(file_prefix), path, [path])
        _run_callbacks(options, path)
        return path

    def read(self, save_path, options=None):
        """Restores from `save_path` (written by `write` or `save`); returns a load status."""
        return restore_objects(self, os.fspath(save_path))

    def restore(self, save_path, options=None):
        """Restores from `save_path`; None restores nothing. Values for objects created later are deferred."""
        if graph_state.default_graph() is not None:
            self.save_counter  # noqa: B018 - in a TF1 graph, first: its restore is collected with the others'
        status = InitializationOnlyStatus() if save_path is None else restore_objects(self, os.fspath(save_path))
        # eagerly TF creates the counter after reading: its saved value reaches it as a deferred restore (a restore
        # that raised leaves it unmatched)
        self.save_counter  # noqa: B018
        return status

    def sync(self):
        """Waits for asynchronous saves (saves are synchronous in tfcompat)."""

    def __repr__(self):
        return f"<tensorflow.python.checkpoint.checkpoint.Checkpoint object at {hex(id(self))}>"
