"""`tf.train.Checkpoint.restore` of a TF1 name-based (`Saver`) checkpoint: variables matched by their names, as TF's
`NameBasedSaverStatus`, including variables that join the object graph later (checkpoint.py's deferred restoration)."""
import weakref

from tfcompat.framework import graph_state, graph_variable
from tfcompat.framework.variables import Variable
from tfcompat.ops.deprecation import warn_deprecated


class _NameBasedRestore:
    """One name-based restore: what `checkpoint._WAITING` resumes when an object under the root gains children."""

    def __init__(self, root, reader):
        from tfcompat.train.checkpoint import _Restore
        self.uid = next(_Restore._uids)
        self._root, self.reader, self.restored = weakref.ref(root), reader, set()
        self.graph_writes = [] if graph_state.default_graph() is not None else None

    @property
    def root(self):
        return self._root()

    def variables(self, obj):
        from tfcompat.train.checkpoint import build_graph
        root = self.root
        counter = getattr(root, "_save_counter", None)
        objects = build_graph(obj)[1]
        return objects, [o for o in objects if isinstance(o, Variable) and o is not counter]

    def run(self, obj, sid=0, listeners=()):
        """Restores the variables under `obj` that have a saved name (all read before any is assigned); waits on
        every object there that announces new children."""
        from tfcompat.train.checkpoint import _announces, _full_name, _read_value, _wait
        objects, variables = self.variables(obj)
        found = [(v, _read_value(v, self.reader, _full_name(v))) for v in variables
                 if id(v) not in self.restored and _full_name(v) in self.reader.entries]
        with graph_variable.collect_restores(self.graph_writes):
            for var, value in found:
                var._set_storage(value)
        self.restored.update(id(v) for v, _ in found)
        for o in objects:
            if _announces(o):
                _wait(o, self, o, 0)


_INSTRUCTIONS = ("Restoring a name-based tf.train.Saver checkpoint using the object-based restore API. This mode uses "
                 "global names to match variables, and so is somewhat fragile. It also adds new restore ops to the "
                 "graph each time it is called when graph building. Prefer re-encoding training checkpoints in the "
                 "object-based format: run save() on the object-based saver (the same one this message is coming "
                 "from) and use that checkpoint in the future.")


def restore_by_name(root, reader):
    warn_deprecated("NameBasedSaverStatus.__init__", "tensorflow.python.checkpoint.checkpoint", _INSTRUCTIONS)
    restore = _NameBasedRestore(root, reader)
    restore.run(root)
    return NameBasedSaverStatus(restore)


class NameBasedSaverStatus:
    """What restoring a name-based checkpoint returns: its checks list the variables no saved name matched."""

    def __init__(self, restore):
        self._restore = restore

    def assert_consumed(self):
        from tfcompat.train.checkpoint import _full_name
        r = self._restore
        missing = [v for v in r.variables(r.root)[1] if id(v) not in r.restored] if r.root is not None else []
        if missing:
            lines = "".join(f"\n    {v!r}: [{_full_name(v)!r}]" for v in missing)
            raise AssertionError(f"Some objects had attributes which were not restored: {lines}")
        return self

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        """TF1 graph: assigns the restored values of graph variables in `session` (else the default session)."""
        graph_variable.apply_restores(self._restore.graph_writes, session)

    def initialize_or_restore(self, session=None):
        self.run_restore_ops(session)
