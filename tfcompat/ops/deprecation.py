"""TF's deprecation warnings: logged once per deprecated function, naming the caller, as TF's `@deprecated` does."""
import os
import sys

from tfcompat.ops.misc_ops import get_logger

_WARNED = set()
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def warn_deprecated(name, tf_module, instructions, date=None):
    """Logs TF's "`name` (from `tf_module`) is deprecated" warning with `instructions`, once per process; the
    location is the first caller outside tfcompat, the removal "in a future version" or "after `date`"."""
    if name in _WARNED:
        return
    _WARNED.add(name)
    _log(f"{name} (from {tf_module}) is", instructions, date)


def warn_deprecated_arg(name, tf_module, arg, instructions, date=None):
    """Logs TF's "calling `name` (from `tf_module`) with `arg` is deprecated" warning (`@deprecated_args`), once
    per process for each function and argument."""
    if (name, arg) in _WARNED:
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
