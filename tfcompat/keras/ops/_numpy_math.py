"""`keras.ops` NumPy-style math: elementwise functions, bitwise ops, NaN-aware reductions and statistics.

Dtypes follow Keras 3 with the TF backend: ints and bools become float32 in float functions (`cbrt` of int64 is
float64, as Keras's TF backend), two operands are promoted with Python scalars weak.
"""
import builtins
import math

import torch

from tfcompat.framework.tensor import _wrap
from tfcompat.keras.ops._common import (_FLOATX, _axes, _creation_dtype, _floating, _pair, _promoted, _reduce, _sparse_of, _st,
                                        _unary_float)
from tfcompat.ops import math_ops as _math_ops

_INTS = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16, torch.uint32, torch.uint64)


def _float_pair(x1, x2):
    """Both operands promoted (a Python number as a tensor of its own dtype, as Keras's TF backend converts it
    before promoting in these functions), ints as float32."""
    a, b = _promoted([x1, x2])
    return _floating(a), _floating(b)


def _binary_float(fn, doc):
    def op(x1, x2):
        a, b = _float_pair(x1, x2)
        return _wrap(fn(a, b))
    op.__doc__ = doc
    return op


def _int_sum_dtype(t):
    """The dtype Keras's sums keep: bool -> int32, small ints widen as TF's reduce_sum with Keras's cast."""
    if t.dtype is torch.bool:
        return torch.int32
    if t.dtype in (torch.int8, torch.int16):
        return torch.int32
    if t.dtype in (torch.uint8, torch.uint16):
        return torch.uint32
    return t.dtype


# -- elementwise: trigonometric, exponential ---------------------------------------------------------------
arccos = _unary_float(torch.acos, "Inverse cosine.")
arcsin = _unary_float(torch.asin, "Inverse sine.")
arccosh = _unary_float(torch.acosh, "Inverse hyperbolic cosine.")
arcsinh = _unary_float(torch.asinh, "Inverse hyperbolic sine.")
arctanh = _unary_float(torch.atanh, "Inverse hyperbolic tangent.")
exp2 = _unary_float(torch.exp2, "`2 ** x`.")
def erfc(x):
    """Complementary error function (TF's Erfc kernel: floats only)."""
    t = _st(x)
    if not t.is_floating_point():
        _math_ops.erfc(_wrap(t))
    return _wrap(torch.erfc(t))
fabs = _unary_float(torch.abs, "`|x|` as a float.")


def _unary_float64(fn, doc):
    """A float function whose int64 inputs give float64 (other ints float32), as Keras's TF backend."""
    def op(x):
        t = _st(x)
        return _wrap(fn(t.to(torch.float64) if t.dtype is torch.int64 else _floating(t)))
    op.__doc__ = doc
    return op


deg2rad = _unary_float64(torch.deg2rad, "Degrees to radians.")
rad2deg = _unary_float64(torch.rad2deg, "Radians to degrees.")
i0 = _unary_float64(torch.special.i0, "Modified Bessel function of the first kind, order 0.")
sinc = _unary_float(torch.sinc, "`sin(pi x) / (pi x)` (1 at 0).")
arctan2 = _binary_float(torch.atan2, "Elementwise `arctan(x1 / x2)` in the right quadrant.")
def hypot(x1, x2):
    """`sqrt(x1**2 + x2**2)` (int64 operands give float64, other ints float32)."""
    a, b = _promoted([x1, x2])
    if a.dtype is torch.int64:
        a, b = a.to(torch.float64), b.to(torch.float64)
    a, b = _floating(a), _floating(b)
    return _wrap(torch.hypot(a, b))
logaddexp = _binary_float(torch.logaddexp, "`log(exp(x1) + exp(x2))`.")
logaddexp2 = _binary_float(torch.logaddexp2, "`log2(2**x1 + 2**x2)`.")
nextafter = _binary_float(torch.nextafter, "The next representable float after `x1` toward `x2`.")


def cbrt(x):
    """Cube root (int64 gives float64, other ints float32, as Keras's TF backend)."""
    t = _st(x)
    if t.dtype is torch.int64:
        t = t.to(torch.float64)
    t = _floating(t)
    return _wrap(torch.sign(t) * torch.abs(t).pow(1.0 / 3.0))


def trunc(x):
    """Rounded toward zero (ints unchanged)."""
    t = _st(x)
    return _wrap(torch.trunc(t) if t.is_floating_point() else t.clone())


def signbit(x):
    """True where the sign bit is set (-0.0 included)."""
    t = _st(x)
    return _wrap(torch.signbit(t) if t.dtype is not torch.bool else torch.zeros_like(t))


def heaviside(x1, x2):
    """0 where `x1 < 0`, `x2` where `x1 == 0`, 1 where `x1 > 0` (int64 gives float64, other ints float32)."""
    a, b = _promoted([x1, x2])
    if a.dtype is torch.int64:
        a, b = a.to(torch.float64), b.to(torch.float64)
    a, b = _floating(a), _floating(b)
    return _wrap(torch.heaviside(a, b))


def ldexp(x1, x2):
    """`x1 * 2 ** x2` (`x2` must be integer)."""
    a = _st(x1)
    b = _st(x2)
    if b.is_floating_point() or b.is_complex():
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2={b.dtype}")
    dt = torch.promote_types(a.dtype, b.dtype)
    out = torch.ldexp(_floating(a.to(dt)), b.to(torch.float64 if dt is torch.float64 else torch.float32))
    return _wrap(out.to(_floating(a.to(dt)).dtype))


def fmod(x1, x2):
    """Remainder with the sign of the dividend (C's fmod)."""
    a, b = _promoted([x1, x2])
    if a.dtype is torch.bool:
        a, b = a.to(torch.int32), b.to(torch.int32)
    return _wrap(torch.fmod(a, b))


def fmax(x1, x2):
    """Elementwise maximum ignoring NaNs."""
    a, b = _pair(x1, x2)
    if a.dtype is torch.bool:
        _math_ops.maximum(_wrap(a), _wrap(b))
    return _wrap(torch.fmax(a, b))


def fmin(x1, x2):
    """Elementwise minimum ignoring NaNs."""
    a, b = _pair(x1, x2)
    if a.dtype is torch.bool:
        _math_ops.minimum(_wrap(a), _wrap(b))
    return _wrap(torch.fmin(a, b))


def gcd(x1, x2):
    a, b = _pair(x1, x2)
    return _wrap(torch.gcd(a, b))


def lcm(x1, x2):
    a, b = _pair(x1, x2)
    return _wrap(torch.lcm(a, b))


def divide_no_nan(x1, x2):
    """`x1 / x2`, 0 where `x2` is 0."""
    a, b = _float_pair(x1, x2)
    return _wrap(torch.where(b == 0, torch.zeros((), dtype=a.dtype), a / torch.where(b == 0, torch.ones_like(b), b)))


# -- complex parts ----------------------------------------------------------------------------------------------
def real(x):
    t = _st(x)
    if t.dtype is torch.bool:
        raise TypeError("input must be a numeric tensor, but got tensor with dtype <dtype: 'bool'>")
    return _wrap(torch.real(t) if t.is_complex() else t.clone())


def imag(x):
    t = _st(x)
    return _wrap(torch.imag(t) if t.is_complex() else torch.zeros_like(t))


def conjugate(x):
    t = _st(x)
    if t.dtype is torch.bool:
        raise TypeError("Expected numeric or variant tensor, got dtype tf.bool.")
    return _wrap(torch.conj_physical(t) if t.is_complex() else t.clone())


conj = conjugate


def angle(x):
    """The complex argument (ints give float32)."""
    t = _st(x)
    return _wrap(torch.angle(t if t.is_complex() else _floating(t)))


def isreal(x):
    t = _st(x)
    return _wrap(torch.imag(t) == 0 if t.is_complex() else torch.ones_like(t, dtype=torch.bool))


def isposinf(x):
    return _wrap(torch.isposinf(_st(x)))


def isneginf(x):
    return _wrap(torch.isneginf(_st(x)))


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """Elementwise `|x1 - x2| <= atol + rtol * |x2|`."""
    a, b = _pair(x1, x2)
    return _wrap(torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    a, b = _pair(x1, x2)
    return _wrap(torch.all(torch.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


# -- bitwise: TF's bitwise kernels (their InvalidArgumentError for floats and bools) --------------------------------
def _bitwise(name, weak_int):
    def op(x, y):
        if weak_int and isinstance(y, int) and not isinstance(y, bool):
            a = _st(x)
            return getattr(_math_ops, name)(_wrap(a), _wrap(torch.tensor(y, dtype=a.dtype)))
        a, b = _promoted([x, y])
        return getattr(_math_ops, name)(_wrap(a), _wrap(b))
    op.__doc__ = f"Elementwise `{name}` of integer tensors (operands promoted as Keras does)."
    return op


bitwise_and = _bitwise("bitwise_and", False)
bitwise_or = _bitwise("bitwise_or", False)
bitwise_xor = _bitwise("bitwise_xor", False)
bitwise_left_shift = left_shift = _bitwise("left_shift", True)
bitwise_right_shift = right_shift = _bitwise("right_shift", True)


def bitwise_invert(x):
    """Bitwise NOT of an integer tensor."""
    return _math_ops.invert(_wrap(_st(x)))


bitwise_not = bitwise_invert


# -- reductions and statistics -----------------------------------------------------------------------------------
def count_nonzero(x, axis=None):
    """The number of nonzero entries (int32)."""
    t = _st(x)
    return _wrap(torch.count_nonzero(t, dim=_axes(axis)).to(torch.int32))


def ptp(x, axis=None, keepdims=False):
    """`max - min` along `axis`."""
    t = _st(x)
    if t.dtype is torch.bool:
        from tfcompat.ops import reduction_ops
        reduction_ops.reduce_max(_wrap(t))
    return _wrap(_reduce(t, torch.amax, axis, keepdims) - _reduce(t, torch.amin, axis, keepdims))


def cumprod(x, axis=None, dtype=None):
    t = _st(x)
    dt = _creation_dtype(dtype, torch.int32 if t.dtype is torch.bool else t.dtype)
    src = t.reshape(-1) if axis is None else t
    if src.dtype is torch.bool:
        src = src.to(torch.int32)
    return _wrap(torch.cumprod(src, dim=0 if axis is None else axis).to(dt))


def average(x, axis=None, weights=None):
    """The (weighted) mean along `axis` (ints give float32)."""
    t = _st(x)
    if weights is None:
        return _wrap(_reduce(_floating(t), torch.mean, axis, False))
    a, w = _float_pair(t, weights)
    if axis is not None and w.ndim == 1 and a.ndim > 1:
        shape = [1] * a.ndim
        shape[axis] = w.shape[0]
        w = w.reshape(shape)
    return _wrap(_reduce(a * w, torch.sum, axis, False) / _reduce(torch.broadcast_to(w, a.shape), torch.sum, axis,
                                                                   False))


def _quantile_dtype(t):
    return t.dtype if t.is_floating_point() else (torch.float64 if t.dtype is torch.int64 else _FLOATX)


def _quantile(x, q, axis, method, keepdims, nan):
    if method not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError("`method` must be one of 'linear', 'lower', 'higher', 'midpoint', 'nearest'. "
                         f"Received: method={method}")
    t = _st(x)
    dt = _FLOATX if not t.is_floating_point() else t.dtype
    work = t.to(torch.float64)
    qs = _st(q).to(torch.float64)
    fn = torch.nanquantile if nan else torch.quantile
    if axis is None:
        out = fn(work.reshape(-1), qs, dim=0, interpolation=method)
        if keepdims:
            out = out.reshape(qs.shape + (1,) * t.ndim)
    elif isinstance(axis, int):
        out = fn(work, qs, dim=axis, keepdim=keepdims, interpolation=method)
    else:
        axes = sorted(a % t.ndim for a in axis)
        rest = [d for d in range(t.ndim) if d not in axes]
        moved = work.permute(rest + axes).reshape([t.shape[d] for d in rest] + [-1])
        out = fn(moved, qs, dim=-1, interpolation=method)
        if keepdims:
            kshape = [1 if d in axes else t.shape[d] for d in range(t.ndim)]
            out = out.reshape(qs.shape + tuple(kshape))
    return _wrap(out.to(dt))


def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th quantiles (q in [0, 1]) along `axis`."""
    return _quantile(x, q, axis, method, keepdims, False)


def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The `q`-th percentiles (q in [0, 100]) along `axis`."""
    return _quantile(x, _st(q).to(torch.float64) / 100.0, axis, method, keepdims, False)


def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(x, q, axis, method, keepdims, True)


def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    return _quantile(x, _st(q).to(torch.float64) / 100.0, axis, method, keepdims, True)


def median(x, axis=None, keepdims=False):
    """The median along `axis` (ints give float32)."""
    return _quantile(x, 0.5, axis, "linear", keepdims, False)


def nanmedian(x, axis=None, keepdims=False):
    return _quantile(x, 0.5, axis, "linear", keepdims, True)


def _nan_zeroed(t, fill):
    return torch.where(torch.isnan(t), torch.full((), fill, dtype=t.dtype), t) if t.is_floating_point() else t


def nansum(x, axis=None, keepdims=False):
    t = _st(x)
    return _wrap(_reduce(_nan_zeroed(t, 0), torch.sum, axis, keepdims).to(_int_sum_dtype(t)))


def nanprod(x, axis=None, keepdims=False):
    t = _st(x)
    out = _nan_zeroed(t, 1)
    if out.dtype is torch.bool:
        out = out.to(torch.int32)
    axis = _axes(axis)
    if axis is None:
        r = torch.prod(out)
        r = r.reshape((1,) * t.ndim) if keepdims else r
    else:
        r = out
        for a in sorted(((axis,) if isinstance(axis, int) else axis), key=lambda a: a % t.ndim, reverse=True):
            r = torch.prod(r, dim=a % t.ndim, keepdim=keepdims)
    return _wrap(r.to(_int_sum_dtype(t)))


def nanmean(x, axis=None, keepdims=False):
    t = _floating(_st(x))
    return _wrap(torch.nanmean(t, dim=_axes(axis), keepdim=keepdims))


def _nanvar(x, axis, keepdims):
    t = _floating(_st(x))
    m = torch.nanmean(t, dim=_axes(axis), keepdim=True)
    return torch.nanmean(torch.square(t - m), dim=_axes(axis), keepdim=keepdims)


def nanvar(x, axis=None, keepdims=False):
    return _wrap(_nanvar(x, axis, keepdims))


def nanstd(x, axis=None, keepdims=False):
    return _wrap(torch.sqrt(_nanvar(x, axis, keepdims)))


def _nan_extreme(x, axis, keepdims, fn, fill):
    t = _st(x)
    if not t.is_floating_point():
        return _wrap(_reduce(t, fn, axis, keepdims))
    nan = torch.isnan(t)
    out = _reduce(torch.where(nan, torch.full((), fill, dtype=t.dtype), t), fn, axis, keepdims)
    all_nan = _reduce(nan, torch.all, axis, keepdims)
    return _wrap(torch.where(all_nan, torch.full((), math.nan, dtype=t.dtype), out))


def nanmax(x, axis=None, keepdims=False):
    return _nan_extreme(x, axis, keepdims, torch.amax, -math.inf)


def nanmin(x, axis=None, keepdims=False):
    return _nan_extreme(x, axis, keepdims, torch.amin, math.inf)


def _nan_arg(x, axis, keepdims, fn, fill):
    """Index of the extreme non-NaN value; -1 where all are NaN (as Keras's TF backend)."""
    t = _st(x)
    nan = torch.isnan(t) if t.is_floating_point() else torch.zeros_like(t, dtype=torch.bool)
    t = torch.where(nan, torch.full((), fill, dtype=t.dtype), t) if t.is_floating_point() else t
    if axis is None:
        out = fn(t.reshape(-1))
        out = out.reshape((1,) * t.ndim) if keepdims else out
    else:
        out = fn(t, dim=axis, keepdim=keepdims)
    out = torch.where(_reduce(nan, torch.all, axis, keepdims), torch.tensor(-1), out)
    return _wrap(out.to(torch.int32))


def nanargmax(x, axis=None, keepdims=False):
    return _nan_arg(x, axis, keepdims, torch.argmax, -math.inf)


def nanargmin(x, axis=None, keepdims=False):
    return _nan_arg(x, axis, keepdims, torch.argmin, math.inf)


def nancumsum(x, axis=None, dtype=None):
    t = _st(x)
    dt = _creation_dtype(dtype, torch.int32 if t.dtype is torch.bool else t.dtype)
    src = _nan_zeroed(t.reshape(-1) if axis is None else t, 0)
    return _wrap(torch.cumsum(src, dim=0 if axis is None else axis).to(dt))


def nancumprod(x, axis=None, dtype=None):
    t = _st(x)
    src = _nan_zeroed(t, 1)
    return cumprod(_wrap(src), axis, dtype)


def corrcoef(x):
    """Pearson correlation coefficients of the rows of `x`."""
    t = _floating(_st(x))
    return _wrap(torch.corrcoef(t))


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of `y` along `axis` by the trapezoidal rule."""
    t = _floating(_st(y))
    if x is None:
        return _wrap(torch.trapezoid(t, dx=dx, dim=axis))
    return _wrap(torch.trapezoid(t, _floating(_st(x)).to(t.dtype), dim=axis))


def diff(a, n=1, axis=-1):
    """The `n`-th discrete difference along `axis` (bools: `!=`)."""
    t = _st(a)
    for _ in range(n):
        hi = t.narrow(axis, 1, builtins.max(t.shape[axis] - 1, 0))
        lo = t.narrow(axis, 0, builtins.max(t.shape[axis] - 1, 0))
        t = hi != lo if t.dtype is torch.bool else hi - lo
    return _wrap(t)


def inner(x1, x2):
    """Sum product over the last axes (scalars multiply)."""
    a, b = _promoted([x1, x2])
    if a.dtype is torch.bool:
        return _wrap(torch.inner(a.to(torch.int32), b.to(torch.int32)) != 0)
    if a.ndim == 0 or b.ndim == 0:
        return _wrap(a * b)
    return _wrap(torch.inner(a, b))


def vdot(x1, x2):
    """The dot product of the flattened (conjugated first) inputs."""
    a, b = _pair(x1, x2)
    a = torch.conj_physical(a) if a.is_complex() else a
    return _wrap(torch.sum(a.reshape(-1) * b.reshape(-1)).to(a.dtype))


def kron(x1, x2):
    a, b = _promoted([x1, x2])
    if a.dtype is torch.bool:
        _math_ops.multiply(_wrap(a), _wrap(b))
    return _wrap(torch.kron(a, b))


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors (2-vectors are padded with a zero z)."""
    a, b = _pair(x1, x2)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = torch.movedim(a, axisa, -1), torch.movedim(b, axisb, -1)
    for v in (a, b):
        if v.shape[-1] not in (2, 3):
            raise ValueError("Dimension of vectors for cross product must be 2 or 3. "
                             f"Received: x1.shape={tuple(a.shape)}, x2.shape={tuple(b.shape)}")
    two = a.shape[-1] == 2 and b.shape[-1] == 2
    if a.shape[-1] == 2:
        a = torch.cat([a, torch.zeros_like(a[..., :1])], -1)
    if b.shape[-1] == 2:
        b = torch.cat([b, torch.zeros_like(b[..., :1])], -1)
    a, b = torch.broadcast_tensors(a, b)
    out = torch.linalg.cross(a, b, dim=-1)
    if two:
        return _wrap(out[..., 2])
    return _wrap(torch.movedim(out, -1, axisc))


def correlate(x1, x2, mode="valid"):
    """Cross-correlation of two 1-D sequences (`valid`, `same` or `full`), as a float."""
    a, b = _float_pair(x1, x2)
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"`mode` must be one of 'valid', 'same', 'full'. Received: mode={mode}")
    n, m = a.shape[0], b.shape[0]
    if m > n:
        a, b, n, m, swapped = b, a, m, n, True
    else:
        swapped = False
    if mode == "valid":
        pad = (0, 0)
    elif mode == "full":
        pad = (m - 1, m - 1)
    else:
        pad = (m // 2, m - 1 - m // 2)
    ap = torch.nn.functional.pad(a, pad)
    out = torch.nn.functional.conv1d(ap.reshape(1, 1, -1), b.reshape(1, 1, -1)).reshape(-1)
    return _wrap(torch.flip(out, (0,)) if swapped else out)


def bincount(x, weights=None, minlength=0, sparse=False):
    """Counts of each non-negative int of `x` (int32; weights' dtype when given)."""
    t = _st(x)
    if t.ndim not in (1, 2):
        raise ValueError(f"Input must be 1D or 2D. Received: x.shape={tuple(t.shape)}")
    length = builtins.max(int(t.max()) + 1 if t.numel() else 0, minlength)
    w = None if weights is None else _st(weights)
    rows = [t] if t.ndim == 1 else list(t)
    outs = []
    for i, r in enumerate(rows):
        wr = None if w is None else (w if w.ndim == 1 else w[i])
        outs.append(torch.bincount(r.long(), None if wr is None else wr.to(torch.float64), minlength=length))
    out = outs[0] if t.ndim == 1 else torch.stack(outs)
    out = out.to(torch.int32 if w is None else (w.dtype if w.dtype is not torch.bool else torch.int32))
    return _sparse_of(out) if sparse else _wrap(out)


def histogram(x, bins=10, range=None):  # noqa: A002
    """(counts, bin edges) of a 1-D tensor, both in the dtype of `x` (int edges truncated, as Keras's TF backend)."""
    t = _st(x)
    if t.ndim != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: input.shape={tuple(t.shape)}")
    if range is None:
        lo, hi = t.min().to(torch.float64), t.max().to(torch.float64)
    else:
        lo, hi = torch.tensor(float(range[0]), dtype=torch.float64), torch.tensor(float(range[1]), dtype=torch.float64)
    t = t[(t >= lo) & (t <= hi)]
    edges = (lo + (hi - lo) * torch.arange(bins + 1, dtype=torch.float64, device=t.device) / bins).to(t.dtype)
    idx = torch.searchsorted(edges[1:-1].contiguous(), t, right=True)
    counts = torch.zeros(bins, dtype=t.dtype, device=t.device).index_add(0, idx, torch.ones_like(t))
    return _wrap(counts), _wrap(edges)
