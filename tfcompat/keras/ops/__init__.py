"""`keras.ops`: Keras 3's backend-neutral NumPy-style and NN ops, returning tfcompat tensors.

Dtypes follow Keras 3 (not TF): operands are promoted like JAX/NumPy (`ops.add(int32, 1.5)` is float32,
`ops.add(int32, int64)` is int64), Python scalars are weakly typed, and ints go to float32 in float ops.
"""
import builtins as _builtins

import numpy as _np
import torch as _torch
import torch.nn.functional as _F

from tfcompat.framework import dtypes as _dtypes
from tfcompat.framework.context import current_device as _device
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.ops._common import (_FLOATX, _SCALARS, _axes, _binary, _creation_dtype, _float_kernel,
                                        _floating, _no_bool, _pair, _sparse_of, _tf_error,
                                        _promoted, _reduce, _st, _torch_dtype, _unary, _unary_float)
from tfcompat.ops import array_ops as _array_ops
from tfcompat.ops.gather_ops import one_hot_rows as _one_hot_rows


# -- creation and conversion ---------------------------------------------------------------------
def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """A tfcompat tensor of `x` (Python floats -> float32, ints -> int32, NumPy keeps its dtype); a SparseTensor or
    RaggedTensor stays one unless `sparse=False` / `ragged=False` densifies it (as Keras's TF backend)."""
    from tfcompat.framework.ragged.tensor import RaggedTensor
    from tfcompat.framework.sparse import SparseTensor
    if isinstance(x, SparseTensor) and sparse is not None and not sparse:
        from tfcompat import sparse as _tf_sparse
        x = _tf_sparse.to_dense(x)
    if isinstance(x, RaggedTensor) and ragged is not None and not ragged:
        x = x.to_tensor()
    if isinstance(x, (SparseTensor, RaggedTensor)):
        if dtype is None or x.dtype == _dtypes.as_dtype(dtype):
            return x
        if isinstance(x, SparseTensor):
            return SparseTensor(x.indices, _wrap(_st(x.values).to(_torch_dtype(dtype))), x.dense_shape)
        return x.with_flat_values(_wrap(_st(x.flat_values).to(_torch_dtype(dtype))))
    t = _st(x)
    return _wrap(t.to(_torch_dtype(dtype)) if dtype is not None else t)


def convert_to_numpy(x):
    """`x` as a NumPy array."""
    return _np.asarray(_st(x).detach().cpu().numpy())


def cast(x, dtype):
    """`x` converted to `dtype` (floats truncate toward zero when cast to ints)."""
    return _wrap(_st(x).to(_torch_dtype(dtype)))


def shape(x):
    """The static shape as a tuple of Python ints."""
    return tuple(_st(x).shape)


def ndim(x):
    return _st(x).ndim


def size(x):
    return _wrap(_torch.tensor(_st(x).numel(), dtype=_torch.int32))


def zeros(shape, dtype=None):
    return _wrap(_torch.zeros(tuple(shape) if not isinstance(shape, int) else (shape,), dtype=_creation_dtype(dtype),
                              device=_device()))


def ones(shape, dtype=None):
    return _wrap(_torch.ones(tuple(shape) if not isinstance(shape, int) else (shape,), dtype=_creation_dtype(dtype),
                             device=_device()))


def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with `fill_value` (float32 unless `dtype`)."""
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    return _wrap(_torch.full(shape, fill_value, dtype=_creation_dtype(dtype), device=_device()))


def zeros_like(x, dtype=None):
    t = _st(x)
    return _wrap(_torch.zeros_like(t, dtype=_creation_dtype(dtype, t.dtype)))


def ones_like(x, dtype=None):
    t = _st(x)
    return _wrap(_torch.ones_like(t, dtype=_creation_dtype(dtype, t.dtype)))


def full_like(x, fill_value, dtype=None):
    t = _st(x)
    return _wrap(_torch.full_like(t, fill_value, dtype=_creation_dtype(dtype, t.dtype)))


def arange(start, stop=None, step=1, dtype=None):
    """`[start, stop)` by `step`: int32 for int arguments, float32 otherwise."""
    if stop is None:
        start, stop = 0, start
    default = _torch.int32 if _builtins.all(isinstance(v, int) for v in (start, stop, step)) else _FLOATX
    return _wrap(_torch.arange(start, stop, step, dtype=_creation_dtype(dtype, default), device=_device()))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (arrays of starts and stops give a new axis `axis`);
    with `retstep`, (values, step)."""
    if num < 0:
        raise ValueError(f"`num` must be a non-negative integer. Received: num={num}")
    if dtype is None:
        found = [_st(v).dtype for v in (start, stop) if not isinstance(v, _SCALARS)]
        dt = found[0] if found else _FLOATX
        for d in found[1:]:
            dt = _torch.promote_types(dt, d)
        dt = dt if dt.is_floating_point else _FLOATX
    else:
        dt = _torch_dtype(dtype)
    s0, s1 = _st(start).to(_torch.float64), _st(stop).to(_torch.float64)
    div = (num - 1) if endpoint else num
    step = (s1 - s0) / div if div > 0 else _torch.full(_torch.broadcast_shapes(s0.shape, s1.shape), float("nan"),
                                                       dtype=_torch.float64, device=s0.device)
    frac = _torch.arange(num, dtype=_torch.float64, device=s0.device)
    frac = frac.reshape((num,) + (1,) * _builtins.max(s0.ndim, s1.ndim))
    out = s0 + frac * step if div > 0 else (s0 + frac * 0 + (s1 - s0) * 0)
    if endpoint and num > 1:
        out[-1] = s1
    if axis != 0:
        out = _torch.movedim(out, 0, axis)
    if not (dt.is_floating_point or dt.is_complex):
        out = _torch.floor(out)
    out = _wrap(out.to(dt))
    if retstep:
        sdt = dt if dt.is_floating_point else _FLOATX
        return out, _wrap(step.to(sdt))
    return out


def eye(N, M=None, k=0, dtype=None):
    out = _torch.eye(N, N if M is None else M, dtype=_creation_dtype(dtype), device=_device())
    return _wrap(_torch.diagonal_scatter(_torch.zeros_like(out), _torch.ones(out.diagonal(k).shape, dtype=out.dtype), k)
                 if k else out)


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """float32 one-hot encoding of integer `x` (out-of-range ids give all-zero rows)."""
    t = _st(x).long()
    valid = (t >= 0) & (t < num_classes)
    out = _one_hot_rows(_torch.where(valid, t, 0), num_classes) * valid.unsqueeze(-1)
    out = out.to(_creation_dtype(dtype))
    out = out if axis == -1 else _torch.movedim(out, -1, axis)
    return _sparse_of(out) if sparse else _wrap(out)


# -- elementwise -------------------------------------------------------------------------------------
add = _binary(_no_bool(_torch.add, "add"), "`x1 + x2` with Keras's dtype promotion.")
subtract = _binary(_no_bool(_torch.sub, "subtract"), "`x1 - x2`.")
multiply = _binary(_torch.mul, "`x1 * x2`.")
maximum = _binary(_torch.maximum, "Elementwise maximum.")
minimum = _binary(_torch.minimum, "Elementwise minimum.")
equal = _binary(_torch.eq, "`x1 == x2` (bool).")
not_equal = _binary(_torch.ne, "`x1 != x2` (bool).")
less = _binary(_torch.lt, "`x1 < x2` (bool).")
less_equal = _binary(_torch.le, "`x1 <= x2` (bool).")
greater = _binary(_torch.gt, "`x1 > x2` (bool).")
greater_equal = _binary(_torch.ge, "`x1 >= x2` (bool).")


def _int_checked(fn, tf_name):
    """`fn` for floats; TF's integer kernel (its division-by-zero error) for ints."""
    def op(a, b):
        if a.is_floating_point() or a.dtype is _torch.bool:
            return fn(a, b)
        from tfcompat.framework.tensor import storage
        from tfcompat.ops import math_ops
        return storage(getattr(math_ops, tf_name)(_wrap(a), _wrap(b)))
    return op


floor_divide = _binary(_int_checked(_torch.floor_divide, "floordiv"), "`x1 // x2`.")
_mod = _int_checked(_torch.remainder, "floormod")


def mod(x1, x2):
    """`x1 % x2` (sign of the divisor; a Python number is a tensor of its own dtype here, as Keras's TF backend)."""
    a, b = _promoted([x1, x2])
    return _wrap(_mod(a, b))
logical_and = _binary(_torch.logical_and, "Elementwise logical and.")
logical_or = _binary(_torch.logical_or, "Elementwise logical or.")
logical_xor = _binary(_torch.logical_xor, "Elementwise logical xor.")


def divide(x1, x2):
    """`x1 / x2` (true division: ints give float32)."""
    a, b = _pair(x1, x2)
    return _wrap(_torch.div(_floating(a), _floating(b)))


true_divide = divide


def power(x1, x2):
    """`x1 ** x2`."""
    a, b = _pair(x1, x2)
    if not (a.is_floating_point() or a.is_complex() or a.dtype is _torch.bool) and b.numel() and bool((b < 0).any()):
        from tfcompat.ops import math_ops
        return math_ops.pow(_wrap(a), _wrap(b))      # TF's "Integers to negative integer powers" error
    return _wrap(_torch.pow(a, b))


def _int_safe(fn):
    def op(t):
        return fn(t) if t.dtype is not _torch.bool else fn(t.to(_torch.int32))
    return op


abs = absolute = _unary(lambda t: t.clone() if t.dtype is _torch.bool else _torch.abs(t), "`|x|`.")
def negative(x):
    """`-x` (unsigned ints and bools get TF's Neg error)."""
    t = _st(x)
    if t.dtype in (_torch.bool, _torch.uint8, _torch.uint16, _torch.uint32, _torch.uint64):
        _tf_error("negative", t)
    return _wrap(_torch.neg(t))
square = _unary(lambda t: _torch.square(t.to(_torch.int32) if t.dtype is _torch.bool else t),
                "`x * x` (keeps the dtype; bools give int32).")
sign = _float_kernel(_torch.sign, "sign", "-1, 0 or 1 by sign.", ints=True)
floor = _unary_float(_torch.floor, "Round down.")
ceil = _unary_float(_torch.ceil, "Round up.")


def round(x, decimals=0):
    """Round half to even (to `decimals` places; ints are kept for `decimals >= 0`)."""
    t = _st(x)
    if t.dtype is _torch.bool:
        _tf_error("round", t)
    if decimals == 0:
        return _wrap(_torch.round(t) if t.is_floating_point() else t.clone())
    if not t.is_floating_point():
        if decimals > 0:
            return _wrap(t.clone())
        factor = 10.0 ** decimals
        return _wrap((_torch.round(t.to(_FLOATX) * factor) / factor).to(t.dtype))
    return _wrap(_torch.round(t, decimals=decimals))


logical_not = _unary(_torch.logical_not, "Elementwise not.")
isnan = _unary(_torch.isnan, "NaN test (bool).")
isinf = _unary(_torch.isinf, "Infinity test (bool).")
isfinite = _unary(_torch.isfinite, "Finite test (bool).")
sqrt = _unary_float(_torch.sqrt, "Square root (ints give float32).")
rsqrt = _float_kernel(_torch.rsqrt, "rsqrt", "`1 / sqrt(x)`.")
exp = _unary_float(_torch.exp, "`e ** x`.")
expm1 = _unary_float(_torch.expm1, "`e ** x - 1`.")
log = _unary_float(_torch.log, "Natural logarithm.")
log1p = _unary_float(_torch.log1p, "`log(1 + x)`.")
log2 = _unary_float(_torch.log2, "Base-2 logarithm.")
log10 = _unary_float(_torch.log10, "Base-10 logarithm.")
sin = _unary_float(_torch.sin, "Sine.")
cos = _unary_float(_torch.cos, "Cosine.")
tan = _unary_float(_torch.tan, "Tangent.")
sinh = _unary_float(_torch.sinh, "Hyperbolic sine.")
cosh = _unary_float(_torch.cosh, "Hyperbolic cosine.")
tanh = _unary_float(_torch.tanh, "Hyperbolic tangent.")
arctan = _unary_float(_torch.atan, "Inverse tangent.")
erf = _float_kernel(_torch.erf, "erf", "Error function.")
erfinv = _unary_float(_torch.erfinv, "Inverse error function.")
reciprocal = _float_kernel(_torch.reciprocal, "reciprocal", "`1 / x`.")
sigmoid = _float_kernel(_torch.sigmoid, "sigmoid", "`1 / (1 + exp(-x))`.")
softplus = _float_kernel(_F.softplus, "softplus", "`log(1 + exp(x))`.")
softsign = _float_kernel(_F.softsign, "softsign", "`x / (1 + |x|)`.")
silu = swish = _float_kernel(_F.silu, "sigmoid", "`x * sigmoid(x)`.")
relu6 = _float_kernel(lambda t: _torch.clamp(t, 0, 6), "relu6", "`min(max(x, 0), 6)` (keeps the dtype).",
                      ints=True)


def hard_sigmoid(x):
    """`relu6(x + 3) / 6` (integer inputs: TF's TypeError for the float constant)."""
    t = _st(x)
    if not (t.is_floating_point() or t.is_complex()):
        raise TypeError(f"Cannot convert 3.0 to EagerTensor of dtype {_dtypes.as_dtype(t.dtype).name}")
    return _wrap(_torch.clamp(t / 6.0 + 0.5, 0.0, 1.0))



log_sigmoid = _float_kernel(_F.logsigmoid, "log_sigmoid", "`log(sigmoid(x))`.")


def relu(x):
    """`max(x, 0)`."""
    t = _st(x)
    if t.dtype is _torch.bool:
        _tf_error("relu", t)
    return _wrap(_torch.relu(t))


def leaky_relu(x, negative_slope=0.2):
    if _st(x).dtype is _torch.bool:
        from tfcompat.framework import errors
        raise errors.op_error(errors.InvalidArgumentError, "Value for attr 'T' of bool is not in the list of allowed "
                              "values: half, bfloat16, float, double\n\t; NodeDef: {{node LeakyRelu}}; "
                              "Op<name=LeakyRelu; signature=features:T -> activations:T; attr=alpha:float,default=0.2;"
                              " attr=T:type,default=DT_FLOAT,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]>",
                              "LeakyRelu")
    return _wrap(_F.leaky_relu(_floating(_st(x)), negative_slope))


def elu(x, alpha=1.0):
    if not _st(x).is_floating_point():
        _tf_error("elu", _st(x))
    return _wrap(_F.elu(_floating(_st(x)), alpha))


def selu(x):
    if not _st(x).is_floating_point():
        _tf_error("selu", _st(x))
    return _wrap(_F.selu(_floating(_st(x))))


def gelu(x, approximate=True):
    """Gaussian error linear unit (Keras's default is the tanh approximation)."""
    t = _st(x)
    if not t.is_floating_point():
        raise ValueError("`features.dtype` must be a floating point tensor.Received:features.dtype="
                         f"{_dtypes.as_dtype(t.dtype)!r}")
    return _wrap(_F.gelu(t, approximate="tanh" if approximate else "none"))


def softmax(x, axis=-1):
    t = _st(x)
    if not (t.is_floating_point() or t.is_complex()):
        from tfcompat.ops import nn_ops
        nn_ops.softmax(_wrap(t))
    if axis is None:
        return _wrap(_torch.softmax(t.reshape(-1), dim=0).reshape(t.shape))
    if isinstance(axis, int):
        return _wrap(_torch.softmax(t, dim=axis))
    return _wrap(_torch.exp(t - _torch.logsumexp(t, dim=tuple(axis), keepdim=True)))


def log_softmax(x, axis=-1):
    t = _st(x)
    if not t.is_floating_point():
        _tf_error("log_softmax", t)
    if axis is None:
        return _wrap(_torch.log_softmax(t.reshape(-1), dim=0).reshape(t.shape))
    return _wrap(_torch.log_softmax(t, dim=axis))


def clip(x, x_min, x_max):
    """`x` limited to `[x_min, x_max]` (keeps the dtype of `x`)."""
    t = _st(x)
    if t.dtype is _torch.bool:
        t = t.to(_torch.int32)
    if not (t.is_floating_point() or t.is_complex()):
        for bound in (x_max, x_min):
            if isinstance(bound, float) and not bound.is_integer():
                raise TypeError(f"Cannot convert {bound} to EagerTensor of dtype {_dtypes.as_dtype(t.dtype).name}")
    lo = x_min if isinstance(x_min, _SCALARS) else _st(x_min).to(t.dtype)
    hi = x_max if isinstance(x_max, _SCALARS) else _st(x_max).to(t.dtype)
    return _wrap(_torch.clamp(t, lo, hi).to(t.dtype))


def where(condition, x1=None, x2=None):
    """`x1` where `condition` else `x2` (promoted); with one argument, the indices where it holds."""
    if (x1 is None) != (x2 is None):
        raise ValueError("`x1` and `x2` either both should be `None` or both should have non-None value.")
    c = _st(condition).to(_torch.bool)
    if x1 is None and x2 is None:
        return tuple(_wrap(i.to(_torch.int32)) for i in _torch.nonzero(c, as_tuple=True))
    a, b = _pair(x1, x2)
    return _wrap(_torch.where(c, a, b))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    return _wrap(_torch.nan_to_num(_st(x), nan=nan, posinf=posinf, neginf=neginf))


def stop_gradient(x):
    return _wrap(_st(x).detach())


# -- reductions ---------------------------------------------------------------------------------------
def _sum_dtype(dt):
    """The dtype Keras's TF backend sums and multiplies in: bool and small ints widen to (u)int32."""
    if dt is _torch.bool or dt in (_torch.int8, _torch.int16):
        return _torch.int32
    if dt in (_torch.uint8, _torch.uint16):
        return _torch.uint32
    return dt


def sum(x, axis=None, keepdims=False):
    """Sum (int32 stays int32, bool counts as int32)."""
    t = _st(x)
    return _wrap(_reduce(t, _torch.sum, axis, keepdims).to(_sum_dtype(t.dtype)))


def prod(x, axis=None, keepdims=False, dtype=None):
    t = _st(x)
    dt = _sum_dtype(t.dtype) if dtype is None else t.dtype   # Keras's TF backend ignores a given dtype
    if t.dtype is _torch.bool:
        t = t.to(_torch.int32)
    if axis is None:
        out = _torch.prod(t)
        out = out.reshape((1,) * t.ndim) if keepdims else out
    elif isinstance(axis, int):
        out = _torch.prod(t, dim=axis, keepdim=keepdims)
    else:
        out = t
        for a in sorted((a % t.ndim for a in axis), reverse=True):
            out = _torch.prod(out, dim=a, keepdim=keepdims)
    return _wrap(out.to(dt))


def mean(x, axis=None, keepdims=False):
    """Mean (ints give float32)."""
    return _wrap(_reduce(_floating(_st(x)), _torch.mean, axis, keepdims))


def _extreme(x, axis, keepdims, initial, fn, pick):
    t = _st(x)
    if initial is None:
        return _wrap(_reduce(t, fn, axis, keepdims))
    init = _torch.tensor(initial).to(t.dtype)
    if t.numel() == 0:
        shape = [] if axis is None else [d for i, d in enumerate(t.shape) if i not in
                                          {a % t.ndim for a in ((axis,) if isinstance(axis, int) else axis)}]
        return _wrap(_torch.full(shape, initial, dtype=t.dtype, device=t.device))
    return _wrap(pick(_reduce(t, fn, axis, keepdims), init))


def max(x, axis=None, keepdims=False, initial=None):
    """The largest value along `axis` (at least `initial` when given)."""
    return _extreme(x, axis, keepdims, initial, _torch.amax, _torch.maximum)


def min(x, axis=None, keepdims=False, initial=None):
    return _extreme(x, axis, keepdims, initial, _torch.amin, _torch.minimum)


amax, amin = max, min


def any(x, axis=None, keepdims=False):
    return _wrap(_reduce(_st(x).to(_torch.bool), _torch.any, axis, keepdims))


def all(x, axis=None, keepdims=False):
    return _wrap(_reduce(_st(x).to(_torch.bool), _torch.all, axis, keepdims))


def var(x, axis=None, keepdims=False):
    """Population variance."""
    return _wrap(_torch.var(_floating(_st(x)), dim=_axes(axis), keepdim=keepdims, correction=0))


def std(x, axis=None, keepdims=False):
    """Population standard deviation."""
    return _wrap(_torch.std(_floating(_st(x)), dim=_axes(axis), keepdim=keepdims, correction=0))


def moments(x, axes, keepdims=False, synchronized=False):
    """(mean, variance) over `axes` (ints stay ints, divided as TF's integer reduce_mean)."""
    t = _st(x)
    if not (t.is_floating_point() or t.is_complex()):
        n = 1
        for a in axes:
            n *= t.shape[a]
        m = _torch.div(_torch.sum(t, dim=tuple(axes), keepdim=True), n, rounding_mode="trunc").to(t.dtype)
        v = _torch.div(_torch.sum(_torch.square(t - m), dim=tuple(axes), keepdim=keepdims), n,
                      rounding_mode="trunc").to(t.dtype)
        return _wrap(m if keepdims else m.squeeze(tuple(axes))), _wrap(v)
    m = _torch.mean(t, dim=tuple(axes), keepdim=True)
    v = _torch.mean(_torch.square(t - m), dim=tuple(axes), keepdim=keepdims)
    return _wrap(m if keepdims else m.squeeze(tuple(axes))), _wrap(v)


def logsumexp(x, axis=None, keepdims=False):
    t = _st(x)
    if not t.is_floating_point():
        _tf_error("is_finite", t)
    return _wrap(_torch.logsumexp(t, dim=tuple(range(t.ndim)) if axis is None else axis, keepdim=keepdims))


def argmax(x, axis=None, keepdims=False):
    """Index of the largest value (int32; flattened when `axis` is None; NaNs never win, as TF's kernel)."""
    return _arg(x, axis, keepdims, _torch.argmax, -float("inf"))


def _arg(x, axis, keepdims, fn, fill):
    t = _st(x)
    if t.dtype is _torch.bool:
        t = t.to(_torch.int32)
    elif t.is_floating_point():
        t = _torch.where(_torch.isnan(t), _torch.tensor(fill, dtype=t.dtype), t)
    return _wrap(fn(t, dim=axis, keepdim=keepdims).to(_torch.int32))


def argmin(x, axis=None, keepdims=False):
    return _arg(x, axis, keepdims, _torch.argmin, float("inf"))


def cumsum(x, axis=None, dtype=None):
    t = _st(x)
    dt = _creation_dtype(dtype, _torch.int32 if t.dtype is _torch.bool else t.dtype)
    return _wrap(_torch.cumsum(t.reshape(-1) if axis is None else t, dim=0 if axis is None else axis).to(dt))


def norm(x, ord=None, axis=None, keepdims=False):
    """Vector norms over one axis (2-norm by default), matrix norms over two (Frobenius by default), as Keras."""
    t = _st(x)
    t = t.to(_FLOATX) if t.dtype is _torch.int64 else _floating(t)
    axes = tuple(range(t.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    if _builtins.any(a < -t.ndim or a >= t.ndim for a in axes):
        raise ValueError("All `axis` values must be in the range [-ndim, ndim). "
                         f"Received inputs with ndim={t.ndim}, while axis={axes if len(axes) > 1 else axes[0]}")
    if len(axes) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid `ord` argument for vector norm. Received: ord={ord}")
        return _wrap(_torch.linalg.vector_norm(t, ord=2 if ord is None else ord, dim=axes[0], keepdim=keepdims))
    if len(axes) != 2:
        raise ValueError(f"Invalid axis values. Received: axis={axes}")
    if ord not in (None, "fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")):
        raise ValueError(f"Invalid `ord` argument for matrix norm. Received: ord={ord}")
    return _wrap(_torch.linalg.matrix_norm(t, ord="fro" if ord is None else ord, dim=axes, keepdim=keepdims))


def top_k(x, k, sorted=True):
    """(values, int32 indices) of the `k` largest entries along the last axis."""
    values, indices = _torch.topk(_st(x), k, dim=-1, largest=True, sorted=sorted)
    return _wrap(values), _wrap(indices.to(_torch.int32))


def in_top_k(targets, predictions, k):
    p = _st(predictions)
    t = _st(targets).long()
    target_scores = p.gather(1, t.unsqueeze(1))
    return _wrap((p > target_scores).sum(dim=1) < k)


def sort(x, axis=-1):
    t = _st(x)
    if axis is None:
        t, axis = t.reshape(-1), 0
    return _wrap(_torch.sort(t, dim=axis).values)


def argsort(x, axis=-1):
    t = _st(x)
    if axis is None:
        t, axis = t.reshape(-1), 0
    return _wrap(_torch.argsort(t, dim=axis, stable=True).to(_torch.int32))


# -- linear algebra -----------------------------------------------------------------------------------
def matmul(x1, x2):
    a, b = _pair(x1, x2)
    if a.ndim == 0 or b.ndim == 0:
        raise IndexError("list index out of range")      # Keras's TF backend reads both operands' last dims
    if a.dtype is _torch.bool:
        return _wrap(_torch.matmul(a.to(_torch.int32), b.to(_torch.int32)) != 0)
    if a.ndim >= 1 and b.ndim >= 2 and a.shape[-1] != b.shape[-2] or a.ndim >= 1 and b.ndim == 1 and \
            a.shape[-1] != b.shape[0]:
        from tfcompat.ops import math_ops
        return math_ops.matmul(_wrap(a if a.ndim >= 2 else a.unsqueeze(0)), _wrap(b if b.ndim >= 2 else
                                                                                    b.unsqueeze(-1)))
    return _wrap(_torch.matmul(a, b))


def dot(x1, x2):
    """NumPy's dot: matmul for matrices, sum over the last axis of `x1` and second-last of `x2`."""
    a, b = _promoted([x1, x2])
    if a.ndim == 0 or b.ndim == 0:
        return _wrap(a * b)
    if b.ndim == 1:
        return _wrap(_torch.matmul(a, b))
    return _wrap(_torch.tensordot(a, b, dims=([-1], [-2])))


def einsum(subscripts, *operands):
    ts = [_st(o) for o in operands]
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = _torch.promote_types(dt, t.dtype)
    if dt is _torch.bool:
        dt = _torch.int32
    return _wrap(_torch.einsum(subscripts, *[t.to(dt) for t in ts]).to(dt))


def outer(x1, x2):
    a, b = _promoted([x1, x2])
    return _wrap(_torch.outer(a.reshape(-1), b.reshape(-1)))


def tensordot(x1, x2, axes=2):
    a, b = _pair(x1, x2)
    return _wrap(_torch.tensordot(a, b, dims=axes))


# -- shapes -------------------------------------------------------------------------------------------
def reshape(x, newshape):
    return _array_ops.reshape(x, newshape)


def transpose(x, axes=None):
    t = _st(x)
    if axes is not None and len(axes) != t.ndim:
        return _array_ops.transpose(_wrap(t), list(axes))      # TF's InvalidArgumentError
    return _wrap(t.permute(tuple(reversed(range(t.ndim))) if axes is None else tuple(axes)))


def expand_dims(x, axis):
    t = _st(x)
    n = t.ndim + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    for a in (axis if isinstance(axis, (tuple, list)) else (axis,)):
        if not -n <= a < n:
            raise ValueError(f"axis {a} is out of bounds for an array with dimension {n}.")
    for a in sorted(a % (t.ndim + len(axis)) for a in axis) if isinstance(axis, (tuple, list)) else [axis]:
        t = t.unsqueeze(a)
    return _wrap(t)


def squeeze(x, axis=None):
    t = _st(x)
    for a in (() if axis is None else (axis,) if isinstance(axis, int) else axis):
        if t.shape[a] != 1:
            raise ValueError(f"Cannot squeeze axis={a}, because the dimension is not 1.")
    return _wrap(t.squeeze() if axis is None else t.squeeze(axis if isinstance(axis, int) else tuple(axis)))


def concatenate(xs, axis=0):
    if axis is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                         "Tensor.")
    ts = _promoted(xs)
    try:
        return _wrap(_torch.cat(ts, dim=axis))
    except RuntimeError:
        return _array_ops.concat([_wrap(t) for t in ts], axis)      # TF's InvalidArgumentError


def stack(x, axis=0):
    ts = _promoted(x)
    try:
        return _wrap(_torch.stack(ts, dim=axis))
    except RuntimeError:
        return _array_ops.stack([_wrap(t) for t in ts], axis)       # TF's InvalidArgumentError


def split(x, indices_or_sections, axis=0):
    """Equal sections (an int) or splits at the given indices."""
    t = _st(x)
    if isinstance(indices_or_sections, int):
        if t.shape[axis] % indices_or_sections:
            _array_ops.split(_wrap(t), indices_or_sections, axis)     # TF's InvalidArgumentError
        parts = _torch.tensor_split(t, indices_or_sections, dim=axis)
    else:
        parts = _torch.tensor_split(t, list(indices_or_sections), dim=axis)
    return [_wrap(p) for p in parts]


def tile(x, repeats):
    return _wrap(_st(x).tile((repeats,) if isinstance(repeats, int) else tuple(repeats)))


def repeat(x, repeats, axis=None):
    t = _st(x)
    if not isinstance(repeats, int):
        repeats = _st(repeats).to(_torch.int64)
    return _wrap(_torch.repeat_interleave(t.reshape(-1) if axis is None else t, repeats, dim=0 if axis is None else axis))


def flip(x, axis=None):
    t = _st(x)
    dims = tuple(range(t.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else tuple(axis))
    return _wrap(_torch.flip(t, dims))


def broadcast_to(x, shape):
    t = _st(x)
    try:
        return _wrap(t.expand(tuple(shape)).contiguous())
    except RuntimeError:
        return _array_ops.broadcast_to(_wrap(t), shape)      # TF's InvalidArgumentError


def take(x, indices, axis=None):
    t = _st(x)
    i = _st(indices).long()
    size = t.numel() if axis is None else t.shape[axis]
    i = _torch.where(i < 0, i + size, i)
    if i.numel() and bool(((i < 0) | (i >= size)).any()):     # a bool: a traced function's guard holds
        from tfcompat.ops import gather_ops
        return gather_ops.gather(_wrap(t.reshape(-1) if axis is None else t), _wrap(i.to(_torch.int32)),
                                 axis=0 if axis is None else axis)     # TF's InvalidArgumentError
    if axis is None:
        return _wrap(t.reshape(-1)[i])
    return _wrap(_torch.index_select(t, axis, i.reshape(-1)).reshape(
        t.shape[:axis % t.ndim] + i.shape + t.shape[axis % t.ndim + 1:]))


def take_along_axis(x, indices, axis=None):
    t = _st(x)
    i = _st(indices).long()
    if axis is None:
        return _wrap(t.reshape(-1)[i.reshape(-1)])
    return _wrap(_torch.take_along_dim(t, i, dim=axis))


def triu(x, k=0):
    return _wrap(_torch.triu(_st(x), k))


def tril(x, k=0):
    return _wrap(_torch.tril(_st(x), k))


def _fold_index(n, before, after, mode, device):
    idx = _torch.arange(-before, n + after, device=device)
    if mode == "reflect":
        period = _builtins.max(2 * (n - 1), 1)
        j = _torch.remainder(idx.abs(), period)
        return _torch.where(j >= n, period - j, j)
    j = _torch.remainder(idx, 2 * n)
    return _torch.where(j >= n, 2 * n - 1 - j, j)


def pad(x, pad_width, mode="constant", constant_values=None):
    """`x` padded by `pad_width` ((before, after) per axis) with a constant, or mirrored (`reflect`, `symmetric`)."""
    t = _st(x)
    if mode not in ("constant", "reflect", "symmetric"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                         f"Received `mode={mode.upper()}`")
    if mode != "constant":
        if constant_values is not None:
            raise ValueError("Argument `constant_values` can only be provided when `mode == 'constant'`. "
                             f"Received: mode={mode}")
        for d, (before, after) in enumerate(tuple(p) for p in pad_width):
            if before or after:
                t = _torch.index_select(t, d, _fold_index(t.shape[d], before, after, mode, t.device))
        return _wrap(t)
    flat = []
    for before, after in reversed([tuple(p) for p in pad_width]):
        flat += [before, after]
    return _wrap(_F.pad(t, flat, value=constant_values or 0))


def slice(inputs, start_indices, shape):
    t = _st(inputs)
    index = tuple(_builtins.slice(int(s), int(s) + int(n)) for s, n in zip(start_indices, shape))
    return _wrap(t[index])


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    d = _st(data)
    ids = _st(segment_ids).long()
    n = int(ids.max()) + 1 if num_segments is None else num_segments
    out = _torch.zeros((n,) + tuple(d.shape[1:]), dtype=d.dtype, device=d.device)
    return _wrap(out.index_add(0, ids, d))


# -- control flow -------------------------------------------------------------------------------------
def cond(pred, true_fn, false_fn):
    """`true_fn()` if `pred` else `false_fn()` (eager)."""
    return true_fn() if _builtins.bool(_st(pred)) else false_fn()


def _missing(path, attr):
    from tfcompat._api import missing
    return missing(path, attr)


def __getattr__(attr):
    raise _missing("keras.ops", attr)


# -- the families defined in their own modules ----------------------------------------------------------------
def _import_families():
    import importlib
    import types
    for family in _FAMILIES:
        module = importlib.import_module(f"{__name__}.{family}")
        globals().update({k: v for k, v in vars(module).items() if not k.startswith("_") and
                          isinstance(v, types.FunctionType) and v.__module__.startswith(__name__)})


_FAMILIES = ("_numpy_math", "_numpy_array", "_nn", "_linalg", "_core", "_image", "_losses", "_ctc")
_import_families()

# -- on KerasTensors, every function records a Keras op in the functional graph --------------------------------
from tfcompat.keras.ops._symbolic import record_symbolic_calls as _record_symbolic_calls  # noqa: E402

_record_symbolic_calls(globals())

# -- keras.ops.numpy / .nn / .linalg / .image: modules of the same (recording) functions ------------------------
from tfcompat.keras.ops._namespaces import make_namespaces as _make_namespaces  # noqa: E402

_make_namespaces(globals(), _missing)
