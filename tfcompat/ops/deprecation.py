"""TF's deprecation warnings: logged once per deprecated function, naming the caller, as TF's `@deprecated` does;
and whether this thread builds a graph in TF's terms, which they (and op_def's graph-time errors) ask."""
import os
import sys

from tfcompat.framework import context, graph_state, op_def
from tfcompat.ops.misc_ops import get_logger

_WARNED = set()
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_GRAPH_CODE = set()     # code objects of the tfcompat functions calling user code that TF traces into a graph
_GRAPH_CHECKS = []      # predicates: whether this thread builds a graph in TF's terms (a tf.function trace)


def traces_graph(fn):
    """Marks `fn` as calling user functions that TF traces into a graph (tf.data's `map`, `filter`, ...)."""
    _GRAPH_CODE.add(fn.__code__)
    return fn


def graph_check(predicate):
    """Registers `predicate()`: true while this thread traces a graph (a `tf.function` body)."""
    _GRAPH_CHECKS.append(predicate)


def _in_graph_mode(frame):
    """TF's `IS_IN_GRAPH_MODE()`: no eager context yet (no op has run), a TF1 graph being built, or a graph being
    traced."""
    return not context._default_device or bool(graph_state.state.graphs) or _building_graph(frame)


def _building_graph(frame):
    """Whether this thread traces a graph: a `tf.function` body or a function tf.data traces (`traces_graph`)."""
    if any(check() for check in _GRAPH_CHECKS):
        return True
    while frame is not None:
        if frame.f_code in _GRAPH_CODE:
            return True
        frame = frame.f_back
    return False


op_def.GRAPH_BUILDING.append(lambda: _building_graph(sys._getframe(1)))


def warn_deprecated(name, tf_module, instructions, date=None):
    """Logs TF's "`name` (from `tf_module`) is deprecated" warning with `instructions`, once per process; the
    location is the first caller outside tfcompat, the removal "in a future version" or "after `date`"."""
    if name in _WARNED:
        return
    _WARNED.add(name)
    _log(f"{name} (from {tf_module}) is", instructions, date)


def warn_deprecated_arg(name, tf_module, arg, instructions, date=None):
    """Logs TF's "calling `name` (from `tf_module`) with `arg` is deprecated" warning (`@deprecated_args`), once
    per process for each function and argument; as TF, only in graph mode (see `_in_graph_mode`): an eager call
    after the first op logs nothing."""
    if (name, arg) in _WARNED or not _in_graph_mode(sys._getframe(1)):
        return
    _WARNED.add((name, arg))
    _log(f"calling {name} (from {tf_module}) with {arg} is", instructions, date)


def _log(what, instructions, date):
    frame = sys._getframe(2)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    when = f"after {date}" if date else "in a future version"
    get_logger().warning(f"From {frame.f_code.co_filename}:{frame.f_lineno}: {what} deprecated and will be removed "
                         f"{when}.\nInstructions for updating:\n{instructions}")
