"""`tf.compat`: Python 2/3 string helpers, forward-compatibility checks, and `tf.compat.v1`."""
import datetime as _datetime
import numbers as _numbers
import os as _os

import numpy as _np

integral_types = (_numbers.Integral, _np.integer)
real_types = (_numbers.Real, _np.integer, _np.floating)
complex_types = (_numbers.Complex, _np.number)
bytes_or_text_types = (bytes, str)

# TF 2.21's forward-compatibility horizon (the date its graph producers assume consumers understand)
_HORIZON = _datetime.date(2026, 1, 16)


def as_bytes(bytes_or_text, encoding="utf-8"):
    """`bytes_or_text` as bytes (text encoded with `encoding`)."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8"):
    """`bytes_or_text` as str (bytes decoded with `encoding`)."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding="utf-8"):
    """`str(value)`, decoding bytes with `encoding`."""
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


def path_to_str(path):
    """The str of an os.PathLike path (other values unchanged)."""
    if hasattr(path, "__fspath__"):
        path = as_str_any(_os.fspath(path))
    return path


def dimension_value(dimension):
    """The int (or None) of a TensorShape dimension."""
    return getattr(dimension, "value", dimension)


def dimension_at_index(shape, index):
    """Dimension `index` of a TensorShape (None for an unknown rank)."""
    if shape.rank is None:
        return None
    return shape[index]


def forward_compatible(year, month, day):
    """True when the given date is before TF 2.21's forward-compatibility horizon."""
    return _HORIZON > _datetime.date(year, month, day)


def forward_compatibility_horizon(year, month, day):
    """Moving the forward-compatibility horizon is not supported."""
    raise NotImplementedError("tf.compat.forward_compatibility_horizon is not supported by tfcompat")


def __getattr__(attr):
    if attr == "v1":
        import importlib
        module = importlib.import_module("tfcompat.compat.v1")
        globals()["v1"] = module
        return module
    if attr == "v2":
        import tfcompat
        return tfcompat
    from tfcompat import _api
    if attr.startswith("__"):
        raise AttributeError(attr)
    raise _api.missing("compat", attr)
