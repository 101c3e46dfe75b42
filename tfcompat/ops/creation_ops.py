"""TF's tensor creation ops: `tf.range`, `fill`, `zeros`/`ones` (and `*_like`), `eye`, `linspace`, `meshgrid`."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, input_storage, int_list, int_value, wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.ops._array_util import _IAE, _dims, _is_str, _kfail, _tdtype


_RANGE_ORDER = [torch.int32, torch.int64, torch.float32, torch.float64]


_RANGE_TYPES = "bfloat16, half, float, double, int8, int16, int32, int64, uint16, uint32, uint64"
_RANGE_KERNELS = frozenset([torch.bfloat16, torch.float16, torch.float32, torch.float64, torch.int32, torch.int64])


def _range_arg(v, dtype):
    """One bound of `tf.range` as (Python number, storage dtype); a Python value converts strictly to `dtype`."""
    if isinstance(v, (Tensor, Variable)):
        t = input_storage(v)
        return t.item(), t.dtype
    if isinstance(v, (np.ndarray, np.generic)):
        return v.item(), dtypes.as_dtype(v.dtype).torch_dtype
    if dtype is not None and (isinstance(v, float) and not dtype.is_floating or
                              isinstance(v, (int, float)) and (dtype.is_bool or dtype is dtypes.string)):
        raise TypeError(f"Cannot convert {v!r} to EagerTensor of dtype {dtype.name}")
    if isinstance(v, float):
        return v, torch.float32
    return int(v), torch.int32


def _check_range_dtype(tdt):
    """TF's errors for a `tf.range` dtype outside Range's registration, or one without a CPU kernel."""
    if tdt in _RANGE_KERNELS:
        return
    name = dtypes.FROM_STORAGE[tdt].name if tdt in dtypes.FROM_STORAGE else dtypes.string.name
    ctype = {"float16": "half", "float32": "float", "float64": "double"}.get(name, name)
    if ctype in _RANGE_TYPES.split(", "):
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node Range}}}} = "
                              f"Range[Tidx=DT_{ctype.upper()}]\nAll kernels registered for op Range:\n  device='CPU'; "
                              f"Tidx in [DT_INT64]\n  device='CPU'; Tidx in [DT_INT32]\n  device='CPU'; Tidx in "
                              f"[DT_DOUBLE]\n  device='CPU'; Tidx in [DT_FLOAT]\n  device='CPU'; Tidx in [DT_BFLOAT16]"
                              f"\n  device='CPU'; Tidx in [DT_HALF]\n", "Range")
    allowed = ", ".join("DT_" + n.upper() for n in _RANGE_TYPES.split(", "))
    raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'Tidx' of {ctype} is not in the list of "
                          f"allowed values: {_RANGE_TYPES}\n\t; NodeDef: {{{{node Range}}}}; Op<name=Range; signature="
                          f"start:Tidx, limit:Tidx, delta:Tidx -> output:Tidx; attr=Tidx:type,default=DT_INT32,"
                          f"allowed=[{allowed}]>", "Range")


@tf_export("range")
def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """`[start, start+delta, ...)` up to `limit`; ints give int32, any float gives float32 (or `dtype`)."""
    if limit is None:
        start, limit = 0, start
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    vals = [_range_arg(v, dt) for v in (start, limit, delta)]
    if dtype is not None:
        tdt = _tdtype(dtype)
    else:
        tdt = max((d for _, d in vals), key=lambda d: _RANGE_ORDER.index(d) if d in _RANGE_ORDER else -1)
    _check_range_dtype(tdt)
    s, l_, d = (v for v, _ in vals)
    if d == 0:
        raise _kfail("Requires delta != 0: 0", "Range", "")
    if d > 0 and s > l_:
        raise _kfail(f"Requires start <= limit when delta > 0: {s}/{l_}", "Range", "")
    if d < 0 and s < l_:
        raise _kfail(f"Requires start >= limit when delta < 0: {s}/{l_}", "Range", "")
    if tdt.is_floating_point:
        n = int(np.ceil(abs((l_ - s) / d)))
        return wrap(torch.arange(n, dtype=tdt, device=current_device()) * d + s)
    return wrap(torch.arange(s, l_, d, dtype=tdt, device=current_device()))


@tf_export("fill")
def fill(dims, value, name=None):
    """A tensor of shape `dims` filled with the scalar `value` (dtype inferred from it)."""
    v = input_storage(value)
    shp = _fill_dims(int_list(dims, "Fill"))
    if tuple(v.shape) not in ((), (1,)):     # TF's legacy scalar: a one-element vector fills too
        raise errors.kernel_error(_IAE, f"value must represent a scalar, got shape {_dims(v.shape)}", "Fill",
                                  name=None)
    if _is_str(v):
        return wrap(np.full(shp, v.reshape(())[()], dtype=object))
    v = v.reshape(())
    return wrap(v.expand(shp).clone() if shp else v.clone())


def _fill_dims(dims):
    """`dims` of a Fill, checked non-negative as TF's kernel does."""
    for d in dims:
        if d < 0:
            raise errors.kernel_error(_IAE, f"Dimension {d} must be >= 0", "Fill")
    return dims


def _filled(shape, dtype, value):
    dtype = dtypes.as_dtype(dtype)
    shp = _fill_dims([int(shape)] if isinstance(shape, (int, np.integer))
                     else int_list(shape, "Fill" if isinstance(shape, Tensor) else None))
    if dtype is dtypes.string:
        if value != 0:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        return wrap(np.full(shp, b"", dtype=object))
    return wrap(torch.full(shp, value, dtype=dtype.torch_dtype, device=current_device()))


@tf_export("zeros")
def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of zeros of `shape` and `dtype` (float32 by default)."""
    return _filled(shape, dtype, 0)


@tf_export("ones")
def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of ones of `shape` and `dtype` (float32 by default)."""
    return _filled(shape, dtype, 1)


def _like(input, dtype, value):  # noqa: A002
    t = input_storage(input)
    if dtype is None:
        if _is_str(t):
            if value != 0:
                raise _ONES_LIKE_STRING
            return wrap(np.full(t.shape, b"", dtype=object))
        return wrap(torch.full_like(t, value))
    return _filled(list(t.shape), dtype, value)


_ONES_LIKE_TYPES = ("bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64, "
                    "complex64, complex128, bool")
_ONES_LIKE_STRING = errors.op_error(
    _IAE, f"Value for attr 'T' of string is not in the list of allowed values: {_ONES_LIKE_TYPES}\n\t; NodeDef: "
    f"{{{{node OnesLike}}}}; Op<name=OnesLike; signature=x:T -> y:T; attr=T:type,allowed=["
    f"{', '.join('DT_' + n.upper() for n in _ONES_LIKE_TYPES.split(', '))}]>", "OnesLike")


@tf_export("zeros_like")
def zeros_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    """Zeros with the shape (and dtype, unless given) of `input`."""
    return _like(input, dtype, 0)


@tf_export("ones_like")
def ones_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    """Ones with the shape (and dtype, unless given) of `input`."""
    return _like(input, dtype, 1)


@tf_export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix (or a batch of them) of `dtype`."""
    r = int_value(num_rows)
    c = r if num_columns is None else int_value(num_columns)
    b = [] if batch_shape is None else int_list(batch_shape)
    _fill_dims(b + [r, c])
    if dtypes.as_dtype(dtype) is dtypes.string:
        raise TypeError("Cannot convert 1 to EagerTensor of dtype string")
    tdt = _tdtype(dtype)
    out = torch.eye(r, c, dtype=torch.int64 if tdt in _NO_EYE else tdt, device=current_device()).to(tdt)
    if b:
        out = out.expand(b + [r, c]).clone()
    return wrap(out)


_NO_EYE = frozenset([torch.uint16, torch.uint32, torch.uint64])    # torch.eye has no kernel for these


@tf_export("linspace")
def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` inclusive (N-D start/stop along `axis`)."""
    a = input_storage(start)
    try:
        b = to_storage(stop, dtypes.FROM_STORAGE[a.dtype]) if not _is_str(a) else input_storage(stop)
    except ValueError as e:
        raise ValueError(f"stop: {e}") from None
    if isinstance(num, float) or isinstance(num, Tensor) and not num.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received `tensor` = {num} of "
                        f"dtype: {dtypes.float32 if isinstance(num, float) else num.dtype}")
    if a.dtype not in FLOAT:
        a, b = a.to(torch.float64), b.to(torch.float64)
    n = int_value(num)
    if n < 0:     # TF builds the inner points with range(1, num - 1)
        raise errors.kernel_error(_IAE, f"Requires start <= limit when delta > 0: 1/{n + 1 if n < -1 else n}",
                                  "Range")
    a, b = torch.broadcast_tensors(a, b)
    steps = max(n - 1, 1)
    delta = (b - a) / steps
    shape = [1] * (a.ndim + 1)
    shape[0] = -1
    mid = torch.arange(1, steps, dtype=a.dtype, device=a.device).reshape(shape)
    out = torch.cat([a.unsqueeze(0), a.unsqueeze(0) + mid * delta.unsqueeze(0), b.unsqueeze(0)], 0)[:n]
    ax = int_value(axis)
    if ax < 0:
        ax += out.ndim
    return wrap(out.movedim(0, ax) if ax else out)


@tf_export("meshgrid")
def meshgrid(*args, **kwargs):
    """Coordinate grids of 1-D inputs; `indexing='xy'` (default) swaps the first two output axes."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments: {list(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    ts = [input_storage(a).reshape(-1) for a in args]
    if not ts:
        return []
    return [wrap(g) for g in torch.meshgrid(*ts, indexing=indexing)]
