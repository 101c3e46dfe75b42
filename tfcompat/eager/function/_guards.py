"""Guards: Python reads of traced values during a trace, seen in the tracing thread only.

- `HostReads` (a `TorchFunctionMode`, so per thread and only while the trace runs) turns `torch.Tensor.numpy`,
  `.tolist` and `__array__` of a traced value into a guard step: the replay stays valid while the value is the
  same, else it raises `GuardFailed` and the Python body runs again. torch's methods themselves are never replaced.
  (Scalar reads, `.item()`/`bool()`, reach the recorder as `aten._local_scalar_dense`.)
- `Tensor.__str__`/`__repr__`/`__format__`/`__bool__` get, once at import, a wrapper that checks this thread's trace
  state: inside a trace a traced tensor prints as TF's symbolic `Tensor("x:0", ...)`, and with `autograph=False`
  using it as a Python bool raises TF's `OperatorNotAllowedInGraphError`. Outside a trace the wrapper costs one
  thread-local attribute read.
"""
import torch
from torch.overrides import TorchFunctionMode

from tfcompat.eager.function._state import tls
from tfcompat.framework import errors
from tfcompat.framework.tensor import Tensor, storage


class GuardFailed(Exception):
    """Raised by a replay whose recorded Python-visible tensor values differ: the body must run again."""


def equal(a, b):
    """A replay's array guard: `b` (recorded) still equals `a`."""
    return a.shape == b.shape and bool(torch.equal(a, b))


_HOST_READS = frozenset((torch.Tensor.numpy, torch.Tensor.tolist, torch.Tensor.__array__))


class HostReads(TorchFunctionMode):
    """Turns host reads of traced values (`numpy`, `tolist`, `__array__`) in the tracing thread into guards."""

    def __init__(self, recorder):
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in _HOST_READS:
            rec = self.recorder
            if not rec.paused and rec.is_dynamic(args[0]):
                rec.paused += 1
                try:
                    rec.guard_array(args[0])
                finally:
                    rec.paused -= 1
        return func(*args, **(kwargs or {}))


# -- trace-time views of tfcompat tensors (installed once; a no-op outside a trace) ----------------------------------
_str, _repr, _format, _bool = Tensor.__str__, Tensor.__repr__, Tensor.__format__, Tensor.__bool__


def _symbolic(x):
    """TF's text of `x` as a symbolic tensor of the trace running in this thread, or None."""
    symbols = tls.symbols
    if symbols and id(x) in symbols:
        label, shape = symbols[id(x)]
        return _text(label, shape if shape is not None else x.shape, x.dtype)
    rec = tls.recorder
    t = storage(x)
    if rec is not None and not rec.paused and isinstance(t, torch.Tensor) and rec.is_dynamic(t):
        label, shape = rec.symbol(t)
        return _text(label, shape if shape is not None else x.shape, x.dtype)
    return None


def _text(label, shape, dtype):
    """TF's symbolic tensor text; the shape is left out when its rank is unknown."""
    if getattr(shape, "rank", 0) is None:
        return f'Tensor("{label}", dtype={dtype.name})'
    return f'Tensor("{label}", shape={shape}, dtype={dtype.name})'


def _traced_str(self):
    if tls.recorder is None and tls.symbols is None:
        return _str(self)
    return _symbolic(self) or _str(self)


def _traced_repr(self):
    if tls.recorder is None and tls.symbols is None:
        return _repr(self)
    return _symbolic(self) or _repr(self)


def _traced_format(self, spec):
    if tls.recorder is None and tls.symbols is None:
        return _format(self, spec)
    s = _symbolic(self)
    return format(s, spec) if s is not None else _format(self, spec)


def _traced_bool(self):
    rec = tls.recorder
    if rec is not None and not tls.autograph and not rec.paused and isinstance(storage(self), torch.Tensor) \
            and rec.is_dynamic(storage(self)):
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the following "
            "resolutions to the problem: If you are running in Graph mode, use Eager execution mode or decorate "
            "this function with @tf.function. If you are using AutoGraph, you can try decorating this function "
            "with @tf.function. If that does not work, then you may be using an unsupported feature or your source "
            "code may not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/"
            "tensorflow/python/autograph/g3doc/reference/limitations.md#access-to-source-code for more "
            "information.")
    return _bool(self)


for _name, _fn in (("__str__", _traced_str), ("__repr__", _traced_repr), ("__format__", _traced_format),
                   ("__bool__", _traced_bool)):
    _fn.__doc__ = getattr(Tensor, _name).__doc__
    setattr(Tensor, _name, _fn)
del _name, _fn
