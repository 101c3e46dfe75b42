"""Helpers shared by the `keras.ops` family modules: inputs as storages, Keras 3's dtype promotion."""
import torch

from tfcompat.framework import dtypes as _dtypes
from tfcompat.framework.convert import to_storage
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap

_FLOATX = torch.float32
_SCALARS = (bool, int, float)


def _st(x):
    """Storage of a tensor-like input (Python lists infer TF dtypes: int32 / float32)."""
    return input_storage(x)


def _floating(t):
    return t if t.is_floating_point() else t.to(_FLOATX)


def _torch_dtype(dtype):
    return _dtypes.as_dtype(dtype).torch_dtype


def _pair(x, y):
    """Both operands as storages of one dtype, with Keras 3's promotion (Python scalars are weak)."""
    sx, sy = isinstance(x, _SCALARS), isinstance(y, _SCALARS)
    if sx and sy:
        a, b = to_storage(x), to_storage(y)
    elif sx or sy:
        t = _st(y if sx else x)
        s = x if sx else y
        dt = t.dtype
        if isinstance(s, float) and not (dt.is_floating_point or dt.is_complex):
            dt = _FLOATX
        elif isinstance(s, int) and not isinstance(s, bool) and dt is torch.bool:
            dt = torch.int32
        t = t.to(dt)
        other = torch.tensor(s, device=t.device).to(dt)       # a Python int wraps into the dtype, as TF's cast
        return (other, t) if sx else (t, other)
    else:
        a, b = _st(x), _st(y)
    if a.dtype is not b.dtype:
        dt = torch.promote_types(a.dtype, b.dtype)
        a, b = a.to(dt), b.to(dt)
    return a, b


def _binary(fn, doc):
    def op(x1, x2):
        a, b = _pair(x1, x2)
        return _wrap(fn(a, b))
    op.__doc__ = doc
    return op


def _unary_float(fn, doc):
    def op(x):
        return _wrap(fn(_floating(_st(x))))
    op.__doc__ = doc
    return op


def _unary(fn, doc):
    def op(x):
        return _wrap(fn(_st(x)))
    op.__doc__ = doc
    return op


def _axes(axis):
    return None if axis is None else (axis if isinstance(axis, int) else tuple(axis))


def _reduce(t, fn, axis, keepdims):
    axis = _axes(axis)
    if axis is None:
        out = fn(t)
        return out.reshape((1,) * t.ndim) if keepdims else out
    return fn(t, dim=axis, keepdim=keepdims)


def _creation_dtype(dtype, default=_FLOATX):
    return default if dtype is None else _torch_dtype(dtype)


def _promoted(xs):
    ts = [_st(x) for x in xs]
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = torch.promote_types(dt, t.dtype)
    return [t.to(dt) for t in ts]


def _sparse_of(dense):
    """A tf.SparseTensor of the nonzero entries of storage `dense` (row-major, int64 indices), as TF's sparse
    encoders return them."""
    from tfcompat.framework.sparse import SparseTensor
    idx = torch.nonzero(dense)
    values = dense[tuple(idx.t())] if dense.ndim else dense.reshape(-1)[idx.reshape(-1)]
    return SparseTensor(_wrap(idx.to(torch.int64)), _wrap(values),
                        _wrap(torch.tensor(tuple(dense.shape), dtype=torch.int64)))


def _tf_error(name, t):
    """Runs tfcompat's TF op `name` on `t` for its error (TF's kernel refuses the dtype)."""
    from tfcompat.ops import math_ops, nn_ops
    fn = getattr(math_ops, name, None) or getattr(nn_ops, name)
    fn(_wrap(t), *(() if name not in ("add", "subtract") else (_wrap(t),)))
    raise AssertionError(f"tfcompat: tf.math.{name} accepted {t.dtype}")   # pragma: no cover


def _float_kernel(fn, tf_name, doc, ints=False):
    """A function of TF's float kernel `tf_name`: other dtypes (ints too unless `ints`) get TF's error."""
    def op(x):
        t = _st(x)
        if not (t.is_floating_point() or t.is_complex()) and (not ints or t.dtype is torch.bool):
            _tf_error(tf_name, t)
        return _wrap(fn(t))
    op.__doc__ = doc
    return op


def _no_bool(fn, tf_name):
    def op(a, b):
        if a.dtype is torch.bool:
            _tf_error(tf_name, a)
        return fn(a, b)
    return op
