"""`tf.math` reductions (`reduce_*`, `count_nonzero`), `argmax`/`argmin` and scans (`cumsum`, `cumprod`, ...)."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (BOOL, FLOAT, FLOAT_COMPLEX, NUMERIC, REAL, axis_list, check_dtype,
                                      input_storage, kernel_error, wrap)
from tfcompat.framework.tensor import EagerTensor, Tensor
from tfcompat.framework.variables import Variable
from tfcompat.ops._array_util import _fast_name


def _reduce(x, axis, keepdims, fn, op, allowed, unreduced=None):
    """`fn(t, dims, keepdims)`; when no axis is reduced, `unreduced(t)` (the input itself by default)."""
    t = input_storage(x)
    check_dtype(t, op, allowed)
    try:
        dims = axis_list(axis, t.ndim)
    except errors.InvalidArgumentError as e:
        raise _axis_error(e, op, axis, t, x) from None
    if dims is None:
        dims = tuple(range(t.ndim))
    if not dims:
        return wrap(unreduced(t) if unreduced is not None else t.clone() if t.requires_grad else t)
    if len(dims) > 1 and len(set(dims)) != len(dims):
        seen = [d for i, d in enumerate(dims) if d in dims[:i]][0]
        raise _axis_error(errors.InvalidArgumentError(None, None, "Invalid reduction arguments: Axes contains "
                                                                  f"duplicate dimension: {seen}"), op, axis, t, x)
    return wrap(fn(t, dims, keepdims))


_AXIS_OP = {"IsFinite": "Max"}   # reduce_logsumexp's axes are checked by its Max kernel


def _axis_error(e, op, axis, t, x=None):
    """A bad axis as the reduction kernel reports it: ` name: ` only when TF's fast path ran the op (no list among
    the input and axis)."""
    op = _AXIS_OP.get(op, op)
    name = _fast_name(axis) if x is None else _fast_name(x, axis)
    return errors.kernel_error(type(e), e.message, op, EagerTensor.device.fget(wrap(t)), name=name)


def _sum(t, dims, keepdims):
    if t.dtype is torch.bool:
        raise RuntimeError("bool sum")
    out = torch.sum(t, dim=dims, keepdim=keepdims)
    return out.to(t.dtype) if out.dtype != t.dtype else out


def _mean(t, dims, keepdims):
    if t.dtype.is_floating_point or t.dtype.is_complex:
        return torch.mean(t, dim=dims, keepdim=keepdims)
    n = 1
    for d in dims:
        n *= t.shape[d]
    s = torch.sum(t, dim=dims, keepdim=keepdims, dtype=torch.int64)
    return torch.div(s, max(n, 1), rounding_mode="trunc").to(t.dtype) if n else torch.zeros_like(s).to(t.dtype)


def _prod(t, dims, keepdims):
    out = t
    for d in sorted(dims, reverse=True):
        out = torch.prod(out, dim=d, keepdim=keepdims)
    return out.to(t.dtype) if out.dtype != t.dtype else out


def _unordered(y, dtype):
    """Undoes `_ordered` on a reduction result."""
    if dtype is torch.uint64:
        return (y ^ torch.iinfo(torch.int64).min).view(torch.uint64)
    return y.to(dtype)


def _amax(t, dims, keepdims):
    if t.dtype in _UNSIGNED_WIDE and t.numel():
        return _unordered(torch.amax(_ordered(t), dim=dims, keepdim=keepdims), t.dtype)
    if t.numel() == 0:
        shape = [1 if (i in dims) else s for i, s in enumerate(t.shape)] if keepdims else \
            [s for i, s in enumerate(t.shape) if i not in dims]
        lo = -float("inf") if t.dtype.is_floating_point else torch.iinfo(t.dtype).min
        return torch.full(shape, lo, dtype=t.dtype, device=t.device)
    return torch.amax(t, dim=dims, keepdim=keepdims)


def _amin(t, dims, keepdims):
    if t.dtype in _UNSIGNED_WIDE and t.numel():
        return _unordered(torch.amin(_ordered(t), dim=dims, keepdim=keepdims), t.dtype)
    if t.numel() == 0:
        shape = [1 if (i in dims) else s for i, s in enumerate(t.shape)] if keepdims else \
            [s for i, s in enumerate(t.shape) if i not in dims]
        hi = float("inf") if t.dtype.is_floating_point else torch.iinfo(t.dtype).max
        return torch.full(shape, hi, dtype=t.dtype, device=t.device)
    return torch.amin(t, dim=dims, keepdim=keepdims)


def _all(t, dims, keepdims):
    return torch.all(t, dim=dims, keepdim=keepdims) if len(dims) else t


def _any(t, dims, keepdims):
    return torch.any(t, dim=dims, keepdim=keepdims) if len(dims) else t


def _logsumexp(t, dims, keepdims):
    if t.numel() == 0:
        return torch.logsumexp(t, dim=dims, keepdim=keepdims)
    # TF's formula: log(sum(exp(x - m))) + m, with m the max where finite (else 0)
    m = torch.amax(t, dim=dims, keepdim=True).detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    out = torch.log(torch.sum(torch.exp(t - m), dim=dims, keepdim=True)) + m
    return out if keepdims else out.squeeze(dims)


def _var(t, dims, keepdims):
    # TF's formula: mean(|x - mean(x)|^2), in the input's precision
    d = t - torch.mean(t, dim=dims, keepdim=True)
    sq = (d.real * d.real + d.imag * d.imag) if t.is_complex() else d * d
    return torch.mean(sq, dim=dims, keepdim=keepdims)


def _std(t, dims, keepdims):
    return torch.sqrt(_var(t, dims, keepdims))


def _euclidean(t, dims, keepdims):
    """TF's EuclideanNorm: sqrt(sum(x * conj(x))) accumulated in the input's dtype (integers wrap, then the
    square root truncates; a complex inf gives a NaN imaginary part, x*(-y) + y*x)."""
    def total(v):
        return torch.sum(v, dim=dims, keepdim=keepdims) if dims else v
    if t.dtype.is_floating_point:
        return torch.sqrt(total(t * t))
    if t.is_complex():
        x, y = t.real, t.imag
        return torch.sqrt(torch.complex(total(x * x + y * y), total(x * -y + y * x)))
    if t.dtype in _UNSIGNED_WIDE:     # no torch multiply: the int64 bits hold the sum modulo 2**64
        w = t.view(torch.int64) if t.dtype is torch.uint64 else t.to(torch.int64)
        sq = total(w * w)
        if t.dtype is torch.uint64:
            sq = sq.double() + (sq < 0).double() * 2.0 ** 64
        else:
            sq = (sq & (2 ** (8 * t.element_size()) - 1)).double()
        return torch.floor(torch.sqrt(sq)).to(torch.int64).to(t.dtype)
    sq = total(t * t).to(t.dtype) if dims else t * t           # torch's integer sum widens: wrap back
    root = torch.floor(torch.sqrt(sq.double()))
    if t.dtype is torch.uint8:
        return root.to(t.dtype)
    nan_as = -2 ** 63 if t.dtype is torch.int64 else -2 ** 31   # x86's conversion of NaN, truncated to the dtype
    return torch.where(sq < 0, torch.tensor(nan_as, dtype=torch.int64),
                       root.nan_to_num(0).to(torch.int64)).to(t.dtype)


def _no_spread(t):
    """Variance/std over no axis: |x - x|^2, zero except NaN for inf and NaN (real for complex input)."""
    d = t - t
    return (d.real * d.real + d.imag * d.imag) if t.is_complex() else d * d


_UNSIGNED = frozenset([torch.uint8, torch.uint16, torch.uint32, torch.uint64])
_UNSIGNED_WIDE = frozenset([torch.uint16, torch.uint32, torch.uint64])      # no torch comparison kernels


# composite type (tf.RaggedTensor) -> handler(reduction name, input, axis, keepdims), registered by the type's module:
# tried when the dense conversion refuses the input (TF's dispatch), so dense calls pay nothing for it
COMPOSITE_REDUCTIONS = {}


def _composite(f, input_tensor, axis, keepdims):
    """The reduction `f` of a composite input (its handler), or None for an input no handler takes."""
    handler = COMPOSITE_REDUCTIONS.get(type(input_tensor))
    return None if handler is None else handler(f.__name__, input_tensor, axis, keepdims)


def _reduction(name, op, fn, allowed, *aliases, unreduced=None):
    def f(input_tensor, axis=None, keepdims=False, name=None):
        try:
            return _reduce(input_tensor, axis, keepdims, fn, op, allowed, unreduced)
        except (TypeError, ValueError):
            out = _composite(f, input_tensor, axis, keepdims)
            if out is None:
                raise
            return out
    f.__name__ = name
    f.__doc__ = f"TF's `tf.math.{name}`: reduces along `axis` (all axes when None), keeping them if `keepdims`."
    return tf_export("math." + name, *aliases)(f)


reduce_sum = _reduction("reduce_sum", "Sum", _sum, NUMERIC, "reduce_sum")
reduce_mean = _reduction("reduce_mean", "Mean", _mean, NUMERIC, "reduce_mean")
reduce_prod = _reduction("reduce_prod", "Prod", _prod, NUMERIC, "reduce_prod")
reduce_max = _reduction("reduce_max", "Max", _amax, REAL, "reduce_max")
reduce_min = _reduction("reduce_min", "Min", _amin, REAL, "reduce_min")
def _logical(name, op, fn):
    def f(input_tensor, axis=None, keepdims=False, name=None):
        try:
            return _reduce(_bool_input(input_tensor, axis), axis, keepdims, fn, op, BOOL)
        except (TypeError, ValueError):
            out = _composite(f, input_tensor, axis, keepdims)
            if out is None:
                raise
            return out
    f.__name__ = name
    f.__doc__ = f"TF's `tf.math.{name}` of a bool tensor along `axis` (all axes when None), keeping them if `keepdims`."
    return tf_export("math." + name, name)(f)


def _bool_input(x, axis):
    """The input as TF's wrapper converts it: Python values strictly to bool, NumPy arrays cast, and (with an
    empty `axis`, which TF's wrapper handles itself) a tensor of another dtype refused by its conversion."""
    if isinstance(x, np.ndarray):
        return x.astype(np.bool_)
    if not isinstance(x, (Tensor, Variable)):
        return wrap(to_storage(x, dtypes.bool))
    if isinstance(axis, (list, tuple)) and not axis and x.dtype is not dtypes.bool:
        if isinstance(x, Variable):
            raise ValueError(f"Incompatible type conversion requested to type bool for `tf.Variable of type "
                             f"{x.dtype.name}. (Variable: {x!r})")
        raise ValueError(f"Tensor conversion requested dtype bool for Tensor with dtype {x.dtype.name}: {x!r}")
    return x


reduce_all = _logical("reduce_all", "All", _all)
reduce_any = _logical("reduce_any", "Any", _any)
reduce_logsumexp = _reduction("reduce_logsumexp", "IsFinite", _logsumexp, FLOAT, "reduce_logsumexp")


def _moment(name, fn):
    def f(input_tensor, axis=None, keepdims=False, name=None):
        t = input_storage(input_tensor)
        check_dtype(t, "Mean", NUMERIC)               # TF takes the mean first: its dtype and axis errors come first
        try:
            axis_list(axis, t.ndim)
        except errors.InvalidArgumentError as e:
            raise _axis_error(e, "Mean", axis, t, input_tensor) from None
        if t.dtype not in FLOAT_COMPLEX:
            d = dtypes.FROM_STORAGE[t.dtype]
            kind = "integer" if d.is_integer else d.name
            raise TypeError(f"Input must be either real or complex. Received {kind} type {d}.")
        return _reduce(wrap(t), axis, keepdims, fn, "Mean", FLOAT_COMPLEX, _no_spread)
    f.__name__ = name
    f.__doc__ = f"TF's `tf.math.{name}` (population statistic; complex inputs give a real result)."
    return tf_export("math." + name)(f)


reduce_std = _moment("reduce_std", _std)
reduce_variance = _moment("reduce_variance", _var)
reduce_euclidean_norm = _reduction("reduce_euclidean_norm", "EuclideanNorm", _euclidean, NUMERIC,
                                   unreduced=lambda t: _euclidean(t, (), False))


@tf_export("math.count_nonzero")
def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):  # noqa: A002
    t = input_storage(input)
    dims = axis_list(axis, t.ndim)
    if type(t) is np.ndarray:
        nz = torch.from_numpy(np.asarray(t != b"", dtype=np.bool_))
    else:
        nz = (t != 0) if t.dtype is not torch.bool else t
    if dims is None:
        dims = tuple(range(t.ndim))
    out = torch.sum(nz, dim=dims, keepdim=bool(keepdims)) if dims else nz.to(torch.int64)
    return wrap(out.to(dtypes.as_dtype(dtype).torch_dtype))


_ARG_TYPES = REAL | BOOL


_ARG_SIG = ("Op<name={op}; signature=input:T, dimension:Tidx -> output:output_type; attr=T:type,allowed=[DT_FLOAT, "
            "DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_INT64, DT_BFLOAT16, DT_UINT16, DT_HALF, DT_UINT32, "
            "DT_UINT64, DT_QINT8, DT_QUINT8, DT_QINT32, DT_QINT16, DT_QUINT16, DT_BOOL]; attr=Tidx:type,default=DT_INT32,"
            "allowed=[{idx}]; attr=output_type:type,default=DT_INT64,allowed=[{out}]>")
_ARG_OUT = {   # op -> (output types, Tidx types, output types as the OpDef lists them)
    "ArgMax": ("int16, uint16, int32, int64", "DT_INT16, DT_INT32, DT_INT64", "DT_INT16, DT_UINT16, DT_INT32, DT_INT64"),
    "ArgMin": ("int32, int64", "DT_INT32, DT_INT64", "DT_INT32, DT_INT64")}


def _arg_axis(axis, op, t):
    """The axis of TF's argmax/argmin as their Python wrappers and kernels accept it."""
    if axis is None:
        return 0
    if op == "ArgMax":
        if isinstance(axis, (Tensor, np.ndarray, np.generic)):
            d = axis.dtype if isinstance(axis, Tensor) else dtypes.as_dtype(np.asarray(axis).dtype)
            if not d.is_integer or (not isinstance(axis, Tensor) and d is not dtypes.int32):
                raise TypeError(f"axis tensor dtypes {d if isinstance(axis, Tensor) else d.name} is not supported")
            return int(np.asarray(axis.numpy() if isinstance(axis, Tensor) else axis))
        if not isinstance(axis, int):
            raise TypeError("axis must be int or Tensor with integer datatype")
        return int(axis)
    a = input_storage(axis, dtypes.int32) if not isinstance(axis, (Tensor, Variable)) else input_storage(axis)
    if a.ndim != 0:
        raise errors.kernel_error(errors.InvalidArgumentError, f"dim must be a scalar, but received tensor of shape: "
                                  f"[{','.join(map(str, a.shape))}]", op, EagerTensor.device.fget(wrap(t)), name=None)
    return int(a)


def _ordered(t):
    """`t` in a dtype torch can compare: unsigned ints as int64 in the same order."""
    if t.dtype in (torch.uint16, torch.uint32):
        return t.to(torch.int64)
    if t.dtype is torch.uint64:                 # flip the sign bit: unsigned order as signed int64
        return t.view(torch.int64) ^ torch.iinfo(torch.int64).min
    return t


def _arg(x, axis, output_type, fn, op):
    t = input_storage(x)
    check_dtype(t, op, _ARG_TYPES)
    out_dt = dtypes.as_dtype(output_type)
    names, idx, outs = _ARG_OUT[op]
    if out_dt.name not in names.split(", "):
        got = {"float32": "float", "float64": "double", "float16": "half"}.get(out_dt.name, out_dt.name)
        raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'output_type' of {got} is not in the list "
                              f"of allowed values: {names}\n\t; NodeDef: {{{{node {op}}}}}; "
                              + _ARG_SIG.format(op=op, idx=idx, out=outs), op)
    a = _arg_axis(axis, op, t)
    if not -t.ndim <= a < t.ndim:
        raise kernel_error(errors.InvalidArgumentError, f"Expected dimension in the range [{-t.ndim}, {t.ndim}), but "
                           f"got {a}", op, t)
    if t.shape[a] == 0:
        raise kernel_error(errors.InvalidArgumentError, f"Reduction axis {a % t.ndim} is empty in shape "
                           f"[{','.join(map(str, t.shape))}]", op, t)
    if t.dtype is torch.bool:
        t = t.to(torch.uint8)
    elif t.is_floating_point():
        t = _nan_skipped(t, fn is torch.argmax)
    else:
        t = _ordered(t)
    return wrap(fn(t, dim=a).to(out_dt.torch_dtype))


def _nan_skipped(t, largest):
    """TF's arg-reduction scans from the dtype's lowest (highest) finite value and takes only strictly greater
    (smaller) values: NaN and values at or beyond that bound never win, and index 0 wins when nothing does."""
    info = torch.finfo(t.dtype)
    if largest:
        return torch.nan_to_num(t, nan=info.min, posinf=float("inf"), neginf=info.min)
    return torch.nan_to_num(t, nan=info.max, posinf=info.max, neginf=-float("inf"))


@tf_export("math.argmax", "argmax")
def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the largest value along `axis` (default 0); first occurrence on ties, NaN skipped."""
    return _arg(input, axis, output_type, torch.argmax, "ArgMax")


@tf_export("math.argmin", "argmin")
def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Index of the smallest value along `axis` (default 0); first occurrence on ties, NaN skipped."""
    return _arg(input, axis, output_type, torch.argmin, "ArgMin")


def _scan_input(x, axis, op, allowed):
    if type(axis) is float:
        raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
    t = input_storage(x)
    check_dtype(t, op, allowed)
    axis = int(axis)
    if not -t.ndim <= axis < t.ndim:
        raise kernel_error(errors.InvalidArgumentError, f"ScanOp: Expected scan axis in the range "
                           f"[{-t.ndim}, {t.ndim}), but got {axis}", op, t)
    return t, axis


def _shifted(t, axis, fill):
    """`t` moved one step along `axis`, `fill` entering at the start: an exclusive scan's input."""
    n = t.shape[axis]
    if n == 0:
        return t
    pad = torch.full_like(t.narrow(axis, 0, 1), fill)
    return torch.cat([pad, t.narrow(axis, 0, n - 1)], dim=axis)


def _scan(x, axis, exclusive, reverse, op, kinds, kernel, identity):
    """A cumulative `kernel` along `axis`; `exclusive` shifts `identity` in first, `reverse` scans from the end."""
    t, axis = _scan_input(x, axis, op, kinds)
    if reverse:
        t = _flip(t, axis)
    if exclusive:
        t = _shifted(t, axis, identity)
    out = kernel(t, dim=axis).to(t.dtype)
    if reverse:
        out = _flip(out, axis)
    return wrap(out)


_SAME_WIDTH_SIGNED = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}


def _flip(t, axis):
    """`t` reversed along `axis` (uint16/32/64, which torch cannot flip, through their signed bit views)."""
    signed = _SAME_WIDTH_SIGNED.get(t.dtype)
    return torch.flip(t, [axis]) if signed is None else torch.flip(t.view(signed), [axis]).view(t.dtype)


@tf_export("math.cumsum", "cumsum")
def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along `axis`; `exclusive` shifts by one, `reverse` scans from the end."""
    return _scan(x, axis, exclusive, reverse, "Cumsum", NUMERIC, torch.cumsum, 0)


@tf_export("math.cumprod", "cumprod")
def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along `axis`; `exclusive` starts at 1, `reverse` scans from the end."""
    return _scan(x, axis, exclusive, reverse, "Cumprod", NUMERIC, torch.cumprod, 1)


@tf_export("math.cumulative_logsumexp")
def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, computed stably."""
    return _scan(x, axis, exclusive, reverse, "CumulativeLogsumexp", FLOAT, torch.logcumsumexp, -float("inf"))
