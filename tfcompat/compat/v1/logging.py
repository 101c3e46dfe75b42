"""`tf.compat.v1.logging`: TF1's logging functions, acting on the "tensorflow" logger (`tf.get_logger()`)."""
import logging as _logging

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
WARNING = _logging.WARNING
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_counts = {}


def _logger():
    from tfcompat.ops.misc_ops import get_logger
    return get_logger()


def log(level, msg, *args, **kwargs):
    _logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    _logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    _logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    _logger().fatal(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    """Logs at the numeric `level`."""
    _logger().log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args):
    """Logs `msg` when `condition` holds."""
    if condition:
        vlog(level, msg, *args)


def _caller_key():
    import sys
    frame = sys._getframe(3)
    return frame.f_code.co_filename, frame.f_lineno


def _count():
    key = _caller_key()
    n = _counts.get(key, 0)
    _counts[key] = n + 1
    return n


def log_every_n(level, msg, n, *args):
    """Logs `msg` on the 1st, (n+1)th, (2n+1)th, ... call from the same line."""
    log_if(level, msg, not _count() % n, *args)


def log_first_n(level, msg, n, *args):
    """Logs `msg` on the first `n` calls from the same line."""
    log_if(level, msg, _count() < n, *args)


def TaskLevelStatusMessage(msg):  # noqa: N802  (TF's name)
    error(msg)


def flush():
    """Not implemented, as in TF."""
    raise NotImplementedError()


def get_verbosity():
    """The effective level of the "tensorflow" logger."""
    return _logger().getEffectiveLevel()


def set_verbosity(v):
    """Sets the level of the "tensorflow" logger."""
    _logger().setLevel(v)
