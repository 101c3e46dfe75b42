"""`tf.experimental.numpy` (TF's NumPy API): NumPy functions over `tf.Tensor`, with NumPy's dtype rules, from tables.

As in TF, the ndarray is `tf.Tensor`; dtypes follow NumPy (`tnp.array([1, 2])` is int64, `tnp.zeros(3)` float64,
int32 + float32 is float64, a Python scalar adapts to the array's kind), and float functions of integer arrays
need `experimental_enable_numpy_behavior()` (TF's AttributeError otherwise). Names TF exports that are not here
answer NotImplementedYet.

Over 800 lines on purpose: this module *is* the `tnp` namespace, a list of short NumPy-named definitions in
sections (dtypes, elementwise, reductions, shapes, creation) over shared private converters; splitting it would
scatter one namespace across modules that import each other. What is not a name lives elsewhere (`_behavior`,
`_indexing`, `random`).
"""
import builtins as _builtins
import math as _math

import numpy as _np

import tfcompat as _tf
from tfcompat._api import missing as _missing
from tfcompat.framework.tensor import Tensor as _Tensor
from tfcompat.framework.variables import Variable as _Variable
from tfcompat.numpy_api import _behavior, _weak_ops, random  # noqa: F401  (tnp.random)

ndarray = _Tensor
pi, e, inf, newaxis = _math.pi, _math.e, _np.inf, None
bool_, int_, float_, complex_ = _np.bool_, _np.int64, _np.float64, _np.complex128
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64, complex64, complex128 = _np.float16, _np.float32, _np.float64, _np.complex64, _np.complex128
iinfo, finfo, issubdtype, promote_types = _np.iinfo, _np.finfo, _np.issubdtype, _np.promote_types
inexact, object_, string_, unicode_ = _np.inexact, _np.object_, _np.bytes_, _np.str_
_HINT = ("EagerTensor object has no attribute '{}'. \n        If you are looking for numpy-related methods, please "
         "run the following:\n        tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")


def __getattr__(attr):
    raise _missing("experimental.numpy", attr)


# -- dtypes and conversion ------------------------------------------------------------------------------------------
def _kind(x):
    """What np.result_type needs for `x`: a tensor's NumPy dtype, a Python scalar as itself (weak), else its dtype."""
    if isinstance(x, (_Tensor, _Variable)):
        return _np.dtype(x.dtype.as_numpy_dtype)
    if isinstance(x, (bool, int, float, complex)):
        if _behavior.prefer_float32() and isinstance(x, (float, complex)) and not isinstance(x, bool):
            return _np.float32(x) if isinstance(x, float) else _np.complex64(x)
        return x
    return _np.asarray(x).dtype


def _np_dtype(dtype):
    if dtype in (int, float) and _weak_ops.auto():     # TF's auto dtype conversion infers 32 bits for Python types
        return _np.dtype(_np.int32 if dtype is int else _np.float32)
    return None if dtype is None else _np.dtype(_tf.as_dtype(dtype).as_numpy_dtype if isinstance(dtype, _tf.DType)
                                               else dtype)


def result_type(*arrays_and_dtypes):
    """The tf.DType NumPy's promotion gives for these arrays, scalars and dtypes (the lattice's in auto modes)."""
    if _weak_ops.auto():
        return _weak_ops.result_type(*arrays_and_dtypes)[0]
    kinds = [_kind(a) if isinstance(a, (_Tensor, _Variable, bool, int, float, complex, list, tuple)) else _np_dtype(a)
             for a in arrays_and_dtypes]
    return _tf.as_dtype(_np.result_type(*kinds))


def asarray(a, dtype=None):
    """`a` as a tensor: tensors as they are (cast to `dtype`), other values with NumPy's dtype inference."""
    if isinstance(a, (_Tensor, _Variable)):
        return a if dtype is None or _tf.as_dtype(_np_dtype(dtype)) == a.dtype and isinstance(a, _Tensor) else \
            _tf.cast(a, _tf.as_dtype(_np_dtype(dtype)))
    out = _np.asarray(a, dtype=_np_dtype(dtype))
    if dtype is None and _behavior.prefer_float32() and not isinstance(a, (_np.ndarray, _np.generic)) and \
            out.dtype in (_np.float64, _np.complex128):     # Python floats count as float32 (TF's prefer_float32)
        out = out.astype(_np.float32 if out.dtype == _np.float64 else _np.complex64)
    return _tf.constant(out)


def array(val, dtype=None, copy=True, ndmin=0):
    """A new tensor of `val` (NumPy's dtype inference), with at least `ndmin` dimensions."""
    out = asarray(val, dtype)
    if copy and out is val:
        out = _tf.identity(out)
    while len(out.shape) < ndmin:
        out = _tf.expand_dims(out, 0)
    return out


asanyarray = ascontiguousarray = asarray


def _as(x, dtype):
    """`x` as a tensor of np.dtype `dtype` (a Python int out of its range wraps, as TF's conversion does)."""
    if isinstance(x, (_Tensor, _Variable)):
        return x if x.dtype.as_numpy_dtype == dtype.type else _tf.cast(x, _tf.as_dtype(dtype))
    if type(x) is int:
        return _tf.constant(_np.asarray(x).astype(dtype))
    return _tf.constant(_np.asarray(x, dtype=dtype))


def _default_float():
    """TF's `np_utils.result_type(float)`: the float dtype integer inputs of float functions become (float32 in the
    auto dtype conversion modes, float64 otherwise)."""
    return _tf.float32 if _weak_ops.auto() else _tf.float64


def _promoted(*xs, floating=False):
    dtype = _np.result_type(*[_kind(x) for x in xs])
    if floating and not _np.issubdtype(dtype, _np.inexact):
        dtype = _np.dtype(_default_float().as_numpy_dtype)
    return [_as(x, dtype) for x in xs]


# -- elementwise ----------------------------------------------------------------------------------------------------
def _unary(fn, floating=False):
    def op(x):
        x = asarray(x)
        if floating and not (x.dtype.is_floating or x.dtype.is_complex):
            if not _behavior.enabled():
                raise AttributeError(_HINT.format("astype"))
            x = _tf.cast(x, _default_float())
        return fn(x)
    return op


def _binary(fn, floating=False, boolean=False):
    def op(x1, x2):
        if boolean:
            return fn(_as(x1, _np.dtype(bool)), _as(x2, _np.dtype(bool)))
        return fn(*_promoted(x1, x2, floating=floating))
    return op


_UNARY = {"abs": _tf.abs, "absolute": _tf.abs, "negative": _tf.negative, "positive": _tf.identity,
          "square": _tf.square, "sign": _tf.sign, "logical_not": lambda x: _tf.logical_not(_tf.cast(x, _tf.bool)),
          "isnan": _tf.math.is_nan, "isinf": _tf.math.is_inf, "isfinite": _tf.math.is_finite,
          "conj": _tf.math.conj, "conjugate": _tf.math.conj, "real": _tf.math.real, "imag": _tf.math.imag,
          "fabs": _tf.abs, "bitwise_not": _tf.bitwise.invert, "signbit": lambda x: _tf.less(x, _tf.zeros([], x.dtype)),
          "isposinf": lambda x: _tf.equal(x, _tf.constant(_np.inf, x.dtype)),
          "isneginf": lambda x: _tf.equal(x, _tf.constant(-_np.inf, x.dtype))}
_UNARY_FLOAT = {"exp": _tf.exp, "log": _tf.math.log, "sqrt": _tf.sqrt, "sin": _tf.sin, "cos": _tf.cos, "tan": _tf.tan,
                "sinh": _tf.sinh, "cosh": _tf.cosh, "tanh": _tf.tanh, "arcsin": _tf.asin, "arccos": _tf.acos,
                "arctan": _tf.atan, "arcsinh": _tf.asinh, "arccosh": _tf.acosh, "arctanh": _tf.atanh,
                "log1p": _tf.math.log1p, "expm1": _tf.math.expm1, "floor": _tf.floor, "ceil": _tf.math.ceil,
                "reciprocal": _tf.math.reciprocal,
                "log2": lambda x: _tf.math.log(x) / _tf.math.log(_tf.constant(2, x.dtype)),
                "log10": lambda x: _tf.math.log(x) / _tf.math.log(_tf.constant(10, x.dtype)),
                "exp2": lambda x: _tf.pow(_tf.constant(2, x.dtype), x),
                "cbrt": lambda x: _tf.sign(x) * _tf.pow(_tf.abs(x), _tf.constant(1 / 3, x.dtype)),
                "deg2rad": lambda x: x * _tf.constant(_np.pi / 180, x.dtype),
                "rad2deg": lambda x: x * _tf.constant(180 / _np.pi, x.dtype),
                "fix": lambda x: _tf.where(x < 0, _tf.math.ceil(x), _tf.floor(x)),
                "sinc": lambda x: _tf.where(_tf.equal(x, 0), _tf.ones_like(x),
                                           _tf.sin(_np.pi * x) / _tf.where(_tf.equal(x, 0), _tf.ones_like(x), _np.pi * x)),
                "angle": lambda x: _tf.math.angle(x) if x.dtype.is_complex else _tf.where(   # float32, as TF's
                    x < 0, _tf.constant(_np.pi, _tf.float32), _tf.zeros(x.shape, _tf.float32))}
_BINARY = {"add": lambda a, b: _tf.logical_or(a, b) if a.dtype == _tf.bool else _tf.add(a, b),   # NumPy's bool + and *
           "multiply": lambda a, b: _tf.logical_and(a, b) if a.dtype == _tf.bool else _tf.multiply(a, b),
           "subtract": _tf.subtract, "power": _tf.pow,
           "maximum": _tf.maximum, "minimum": _tf.minimum, "floor_divide": _tf.math.floordiv,
           "mod": _tf.math.floormod, "remainder": _tf.math.floormod, "equal": _tf.equal, "not_equal": _tf.not_equal,
           "less": _tf.less, "less_equal": _tf.less_equal, "greater": _tf.greater, "greater_equal": _tf.greater_equal,
           "matmul": lambda a, b: _matmul(a, b)}
_BINARY_FLOAT = {"divide": _tf.divide, "true_divide": _tf.divide, "arctan2": _tf.math.atan2,
                 "hypot": lambda a, b: _tf.sqrt(a * a + b * b)}
_BINARY_BOOL = {"logical_and": _tf.logical_and, "logical_or": _tf.logical_or, "logical_xor": _tf.math.logical_xor}
_BINARY.update({"bitwise_and": _tf.bitwise.bitwise_and, "bitwise_or": _tf.bitwise.bitwise_or,
                "bitwise_xor": _tf.bitwise.bitwise_xor,
                "heaviside": lambda x1, x2: _tf.where(x1 < 0, _tf.zeros_like(x1), _tf.where(x1 > 0, _tf.ones_like(x1), x2)),
                "gcd": lambda a, b: _gcd(_tf.abs(a), _tf.abs(b)),
                "lcm": lambda a, b: _tf.where(_tf.equal(_gcd(_tf.abs(a), _tf.abs(b)), 0), _tf.zeros_like(a),
                                             _tf.abs(a * b) // _tf.maximum(_gcd(_tf.abs(a), _tf.abs(b)), 1))})
_BINARY_FLOAT.update({"logaddexp": lambda a, b: _tf.maximum(a, b) + _tf.math.log1p(_tf.exp(-_tf.abs(a - b))),
                      "logaddexp2": lambda a, b: _tf.maximum(a, b) + _tf.math.log1p(
                          _tf.pow(_tf.constant(2, a.dtype), -_tf.abs(a - b))) / _tf.math.log(_tf.constant(2, a.dtype))})
_BINARY["float_power"] = _tf.pow          # TF's float_power keeps integer dtypes


def _gcd(a, b):
    """Euclid's algorithm, elementwise, on non-negative integer tensors."""
    a, b = _tf.broadcast_to(a, _tf.shape(a + b)), _tf.broadcast_to(b, _tf.shape(a + b))
    while bool(_tf.reduce_any(_tf.not_equal(b, 0))):
        done = _tf.equal(b, 0)
        a, b = _tf.where(done, a, b), _tf.where(done, b, a % _tf.where(done, _tf.ones_like(b), b))
    return a



def _matmul(a, b):
    """NumPy's matmul: a vector operand is a matrix with a dimension of 1 that the result drops."""
    if len(b.shape) == 1:
        return _tf.squeeze(_matmul(a, _tf.expand_dims(b, -1)), -1)
    if len(a.shape) == 1:
        return _tf.squeeze(_tf.linalg.matmul(_tf.expand_dims(a, 0), b), -2)
    return _tf.linalg.matmul(a, b)


for _name, _fn in _UNARY.items():
    globals()[_name] = _unary(_fn)
for _name, _fn in _UNARY_FLOAT.items():
    globals()[_name] = _unary(_fn, floating=True)
for _name, _fn in _BINARY.items():
    globals()[_name] = _binary(_fn)
for _name, _fn in _BINARY_FLOAT.items():
    globals()[_name] = _binary(_fn, floating=True)
for _name, _fn in _BINARY_BOOL.items():
    globals()[_name] = _binary(_fn, boolean=True)


def dot(a, b):
    """NumPy's dot: products of scalars, inner product of vectors, matrix product, last-by-second-to-last axes."""
    a, b = _promoted(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return _tf.tensordot(a, b, [[len(a.shape) - 1], [_builtins.max(len(b.shape) - 2, 0)]])


def outer(a, b):
    a, b = _promoted(a, b)
    return _tf.tensordot(_tf.reshape(a, [-1]), _tf.reshape(b, [-1]), 0)


def inner(a, b):
    """Sum of products over the last axes of `a` and `b`."""
    a, b = _promoted(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return _tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]])


def vdot(a, b):
    """Dot product of the flattened arrays."""
    a, b = _promoted(a, b)
    return _tf.reduce_sum(_tf.reshape(a, [-1]) * _tf.reshape(b, [-1]))


def einsum(subscripts, *operands, **kwargs):
    if kwargs:
        raise NotImplementedError(f"tf.experimental.numpy.einsum({', '.join(kwargs)}=...) is not supported by "
                                  "tfcompat")
    return _tf.einsum(subscripts, *_promoted(*operands))


def tensordot(a, b, axes=2):
    return _tf.tensordot(*_promoted(a, b), axes)


def clip(a, a_min, a_max):
    """`a` limited to [a_min, a_max] (NumPy's promotion of the three)."""
    a, lo, hi = _promoted(a, a_min, a_max)
    return _tf.clip_by_value(a, lo, hi)


def where(condition, x=None, y=None):
    """`x` where `condition`, else `y` (promoted); with one argument, the indices of the non-zero elements."""
    condition = _as(condition, _np.dtype(bool))
    if x is None and y is None:
        return _tf.unstack(_tf.where(condition), axis=1) if len(condition.shape) else [_tf.zeros([0], _tf.int64)]
    return _tf.where(condition, *_promoted(x, y))


def round(a, decimals=0):
    """Rounds half to even at `decimals` digits."""
    a = asarray(a)
    if not _behavior.enabled():
        raise AttributeError(_HINT.format("astype"))      # TF's round casts even float arrays through astype
    if not a.dtype.is_floating:
        return a
    scale = _tf.constant(10.0 ** decimals, a.dtype)
    return _tf.round(a * scale) / scale


around = round


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _promoted(a, b, floating=True)
    close = _tf.abs(a - b) <= atol + rtol * _tf.abs(b)
    return _tf.logical_or(close, _tf.logical_and(_tf.math.is_nan(a), _tf.math.is_nan(b))) if equal_nan else close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _tf.reduce_all(isclose(a, b, rtol, atol, equal_nan))


# -- reductions -----------------------------------------------------------------------------------------------------
def _accumulator(x, dtype):
    """NumPy's accumulator dtype for sums and products: bool and smaller ints give int64 (uint64 for unsigned); in
    the auto dtype conversion modes, as TF, those narrower than 32 bits give int32 (uint32)."""
    if dtype is not None:
        return _tf.cast(x, _tf.as_dtype(_np_dtype(dtype)))
    if _weak_ops.auto():
        if x.dtype == _tf.bool or (x.dtype.is_integer and x.dtype.size < 4):
            return _tf.cast(x, _tf.uint32 if x.dtype.is_unsigned else _tf.int32)
        return x
    if x.dtype == _tf.bool or (x.dtype.is_integer and x.dtype.size < 8):
        return _tf.cast(x, _tf.uint64 if x.dtype.is_unsigned else _tf.int64)
    return x


def _floating(x, dtype):
    if dtype is not None:
        return _tf.cast(x, _tf.as_dtype(_np_dtype(dtype)))
    return x if x.dtype.is_floating or x.dtype.is_complex else _tf.cast(x, _default_float())


def sum(a, axis=None, dtype=None, keepdims=False):
    return _tf.reduce_sum(_accumulator(asarray(a), dtype), axis, keepdims)


def prod(a, axis=None, dtype=None, keepdims=False):
    return _tf.reduce_prod(_accumulator(asarray(a), dtype), axis, keepdims)


def mean(a, axis=None, dtype=None, keepdims=False):
    return _tf.reduce_mean(_floating(asarray(a), dtype), axis, keepdims)


def var(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Variance, divided by `n - ddof`."""
    if ddof and dtype is None:      # TF 2.21's tnp fails so
        raise TypeError("Cannot convert the argument `type_value`: None to a TensorFlow DType.")
    a = _floating(asarray(a), dtype)
    out = _tf.math.reduce_variance(a, axis, keepdims)
    if ddof:
        n = _tf.cast(_tf.size(a) if axis is None else _tf.reduce_prod(_tf.gather(_tf.shape(a), axis)), out.dtype)
        out = out * n / (n - ddof)
    return out


def std(a, axis=None, dtype=None, ddof=0, keepdims=False):
    return _tf.sqrt(var(a, axis, dtype, ddof, keepdims))


def amax(a, axis=None, keepdims=False):
    return _tf.reduce_max(asarray(a), axis, keepdims)


def amin(a, axis=None, keepdims=False):
    return _tf.reduce_min(asarray(a), axis, keepdims)


max, min = amax, amin


def all(a, axis=None, keepdims=False):
    return _tf.reduce_all(_as(a, _np.dtype(bool)), axis, keepdims)


def any(a, axis=None, keepdims=False):
    return _tf.reduce_any(_as(a, _np.dtype(bool)), axis, keepdims)


def argmax(a, axis=None):
    a = asarray(a)
    return _tf.argmax(_tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def argmin(a, axis=None):
    a = asarray(a)
    return _tf.argmin(_tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def cumsum(a, axis=None, dtype=None):
    a = _accumulator(asarray(a), dtype)
    return _tf.cumsum(_tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def cumprod(a, axis=None, dtype=None):
    a = _accumulator(asarray(a), dtype)
    return _tf.math.cumprod(_tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def ptp(a, axis=None, keepdims=False):
    """Range (max - min) along `axis`."""
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def average(a, axis=None, weights=None, returned=False):
    """Mean, or the `weights`-weighted mean, along `axis`."""
    if returned:
        raise NotImplementedError("tf.experimental.numpy.average(returned=True) is not supported by tfcompat")
    if weights is None:
        a = asarray(a)
        if not (a.dtype.is_floating or a.dtype.is_complex or _behavior.enabled()):
            raise AttributeError(_HINT.format("astype"))        # TF's average casts integers through astype
        return mean(a, axis)
    a, weights = _promoted(a, weights, floating=True)
    if len(weights.shape) == 1 and len(a.shape) > 1:
        weights = _tf.reshape(weights, [-1] + [1] * (len(a.shape) - 1 - (axis % len(a.shape))))
    return _tf.reduce_sum(a * weights, axis) / _tf.reduce_sum(weights * _tf.ones_like(a), axis)


def nansum(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    if a.dtype.is_floating:
        a = _tf.where(_tf.math.is_nan(a), _tf.zeros_like(a), a)
    return sum(a, axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    a = _floating(asarray(a), dtype)
    valid = _tf.logical_not(_tf.math.is_nan(a))
    total = _tf.reduce_sum(_tf.where(valid, a, _tf.zeros_like(a)), axis, keepdims)
    return total / _tf.reduce_sum(_tf.cast(valid, a.dtype), axis, keepdims)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Sum of the (offset) diagonal of a 2D array."""
    if (axis1, axis2) != (0, 1) or len(asarray(a).shape) != 2:
        raise NotImplementedError("tfcompat's tf.experimental.numpy.trace takes 2D arrays on axes (0, 1)")
    return sum(diagonal(a, offset), dtype=dtype)


def count_nonzero(a, axis=None):
    return _tf.math.count_nonzero(asarray(a), axis, dtype=_tf.int64)


# -- shapes ---------------------------------------------------------------------------------------------------------
def shape(a):
    return asarray(a).shape


def size(a):
    return _np.int64(_np.prod(asarray(a).shape.as_list(), dtype=_np.int64))


def ndim(a):
    return len(asarray(a).shape)


def reshape(a, newshape, order="C"):
    if order != "C":
        raise NotImplementedError(f"tf.experimental.numpy.reshape(order={order!r}) is not supported by tfcompat")
    return _tf.reshape(asarray(a), [newshape] if isinstance(newshape, int) else newshape)


def ravel(a):
    return _tf.reshape(asarray(a), [-1])


flatten = ravel


def transpose(a, axes=None):
    return _tf.transpose(asarray(a), axes)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    perm = list(range(len(a.shape)))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return _tf.transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    perm = [i for i in range(len(a.shape)) if i != source % len(a.shape)]
    perm.insert(destination % len(a.shape), source % len(a.shape))
    return _tf.transpose(a, perm)


def expand_dims(a, axis):
    return _tf.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return _tf.squeeze(asarray(a), axis)


def concatenate(arys, axis=0):
    return _tf.concat(_promoted(*arys), axis)


def stack(arrays, axis=0):
    return _tf.stack(_promoted(*arrays), axis)


def hstack(tup):
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if len(arrays[0].shape) == 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


def atleast_1d(a):
    a = asarray(a)
    return _tf.reshape(a, [1]) if len(a.shape) == 0 else a


def atleast_2d(a):
    a = atleast_1d(a)
    return _tf.expand_dims(a, 0) if len(a.shape) == 1 else a


def tile(a, reps):
    a = asarray(a)
    reps = [reps] if isinstance(reps, int) else list(reps)
    while len(a.shape) < len(reps):
        a = _tf.expand_dims(a, 0)
    return _tf.tile(a, [1] * (len(a.shape) - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    return _tf.repeat(_tf.reshape(a, [-1]) if axis is None else a, repeats, axis=0 if axis is None else axis)


def flip(m, axis=None):
    m = asarray(m)
    axes = list(range(len(m.shape))) if axis is None else [axis] if isinstance(axis, int) else list(axis)
    return _tf.reverse(m, axes)


def sort(a, axis=-1):
    return _tf.sort(asarray(a), axis=axis)


def argsort(a, axis=-1):
    return _tf.cast(_tf.argsort(asarray(a), axis=axis, stable=True), _tf.int64)


def broadcast_to(array, shape):
    return _tf.broadcast_to(asarray(array), shape)


def take(a, indices, axis=None):
    a = asarray(a)
    return _tf.gather(_tf.reshape(a, [-1]) if axis is None else a, indices, axis=0 if axis is None else axis)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return _tf.reshape(_tf.roll(_tf.reshape(a, [-1]), shift, 0), _tf.shape(a))
    return _tf.roll(a, shift, axis)


def split(ary, indices_or_sections, axis=0):
    """Sub-arrays: `indices_or_sections` equal parts, or the parts between those indices."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return _tf.split(ary, indices_or_sections, axis)
    bounds = [0] + list(indices_or_sections) + [ary.shape[axis]]
    return _tf.split(ary, [b - a for a, b in zip(bounds[:-1], bounds[1:])], axis)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if len(asarray(ary).shape) > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def dstack(tup):
    return concatenate([atleast_3d(a) for a in tup], 2)


def atleast_3d(a):
    a = atleast_2d(a)
    return _tf.expand_dims(a, -1) if len(a.shape) == 2 else a


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def pad(array, pad_width, mode, constant_values=0):
    """`array` padded by `pad_width` ((before, after) per axis, as TF: no broadcasting) with `constant_values`."""
    if mode != "constant":
        raise NotImplementedError(f"tf.experimental.numpy.pad(mode={mode!r}) is not supported by tfcompat")
    return _tf.pad(asarray(array), pad_width, constant_values=constant_values)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    if (axis1, axis2) != (0, 1) or len(a.shape) != 2:
        raise NotImplementedError("tfcompat's tf.experimental.numpy.diagonal takes 2D arrays on axes (0, 1)")
    return _tf.linalg.diag_part(a, k=offset)


def diag(v, k=0):
    """The k-th diagonal of a 2D array, or a 2D array with 1D `v` on its k-th diagonal."""
    v = asarray(v)
    if len(v.shape) == 2:
        return diagonal(v, k)
    return _tf.linalg.diag(v, k=k)


def tril(m, k=0):
    m = asarray(m)
    mask = _tf.constant(_np.tri(*m.shape[-2:], k=k, dtype=bool))
    return _tf.where(mask, m, _tf.zeros_like(m))


def triu(m, k=0):
    m = asarray(m)
    mask = _tf.constant(_np.tri(*m.shape[-2:], k=k - 1, dtype=bool))
    return _tf.where(mask, _tf.zeros_like(m), m)


def nonzero(a):
    return where(a)


def meshgrid(*xi, indexing="xy"):
    return _tf.meshgrid(*[asarray(x) for x in xi], indexing=indexing)


def array_equal(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return _tf.constant(False)
    return _tf.reduce_all(_tf.equal(*_promoted(a1, a2)))


def take_along_axis(arr, indices, axis):
    """Values of `arr` at `indices` along `axis` (`indices` has `arr`'s rank)."""
    arr, indices = asarray(arr), asarray(indices)
    rank = len(arr.shape)
    axis %= rank
    perm = [i for i in range(rank) if i != axis] + [axis]
    back = list(_np.argsort(perm))
    out = _tf.gather(_tf.transpose(arr, perm), _tf.transpose(indices, perm), batch_dims=rank - 1)
    return _tf.transpose(out, back)


def diff(a, n=1, axis=-1):
    """`n`-th differences along `axis`."""
    a = asarray(a)
    for _ in range(n):
        length = a.shape[axis]
        a = _tf.gather(a, list(range(1, length)), axis=axis) - _tf.gather(a, list(range(length - 1)), axis=axis)
    return a


def append(arr, values, axis=None):
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def kron(a, b):
    """Kronecker product of two 2D (or 1D) arrays."""
    a, b = _promoted(a, b)
    if len(a.shape) != len(b.shape) or len(a.shape) not in (1, 2):
        raise NotImplementedError("tfcompat's tf.experimental.numpy.kron takes two 1D or two 2D arrays")
    if len(a.shape) == 1:
        return _tf.reshape(a[:, None] * b[None, :], [-1])
    (m, n), (p, q) = a.shape, b.shape
    return _tf.reshape(a[:, None, :, None] * b[None, :, None, :], [m * p, n * q])


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else `default`."""
    out = asarray(default)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        out = where(cond, choice, out)
    return out


def compress(condition, a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = _tf.reshape(a, [-1]), 0
    condition = _as(condition, _np.dtype(bool))
    kept = _tf.gather(a, list(range(condition.shape[0])), axis=axis)     # NumPy: a shorter condition truncates
    return _tf.boolean_mask(kept, condition, axis=axis)


def broadcast_arrays(*args):
    arrays = [asarray(a) for a in args]
    shape = _tf.shape(_builtins.sum((_tf.zeros_like(a, _tf.int32) for a in arrays), _tf.constant(0)))
    return [_tf.broadcast_to(a, shape) for a in arrays]


def diagflat(v, k=0):
    return _tf.linalg.diag(ravel(v), k=k)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


def iscomplexobj(x):
    return asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    x = asarray(x)
    return _tf.not_equal(_tf.math.imag(x), 0) if x.dtype.is_complex else _tf.zeros(x.shape, _tf.bool)


def isreal(x):
    return _tf.logical_not(iscomplex(x))


def divmod(x1, x2):
    return _binary(_tf.math.floordiv)(x1, x2), _binary(_tf.math.floormod)(x1, x2)


def polyval(p, x):
    """Value at `x` of the polynomial with coefficients `p` (highest power first)."""
    p, x = _promoted(p, x)
    out = _tf.zeros_like(x)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out


def vander(x, N=None, increasing=False):
    x = asarray(x)
    N = x.shape[0] if N is None else N
    powers = _tf.range(N) if increasing else _tf.range(N - 1, -1, -1)
    return _tf.pow(x[:, None], _tf.cast(powers, x.dtype)[None, :])


def rot90(m, k=1, axes=(0, 1)):
    """`m` rotated by 90 degrees `k` times in the plane of `axes` (first towards second)."""
    m = asarray(m)
    for _ in range(k % 4):
        m = flip(swapaxes(m, *axes), axes[0])
    return m


def cross(a, b):
    """Cross product of 3-vectors along the last axis."""
    a, b = _promoted(a, b)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        raise NotImplementedError("tfcompat's tf.experimental.numpy.cross takes 3-vectors")
    return _tf.linalg.cross(a, b) if a.dtype.is_floating else _tf.stack([
        a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1], a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
        a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)


def ix_(*args):
    """Open index grids: the i-th of n arrays shaped to vary along axis i only."""
    n = len(args)
    return [_tf.reshape(asarray(a), [-1 if i == j else 1 for j in range(n)]) for i, a in enumerate(args)]


def diag_indices(n, ndim=2):
    return tuple(_tf.range(n) for _ in range(ndim))


def nanprod(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    if a.dtype.is_floating:
        a = _tf.where(_tf.math.is_nan(a), _tf.ones_like(a), a)
    return prod(a, axis, dtype, keepdims)


def isscalar(num):
    return isinstance(num, (bool, int, float, complex, str, bytes, _np.generic)) or \
        (isinstance(num, (_Tensor, _Variable)) and len(num.shape) == 0)


def copy(a):
    return _tf.identity(asarray(a))


# -- creation -------------------------------------------------------------------------------------------------------
def _host(fn, dtype_at=None):
    """A creation function computed by NumPy (its dtype rules included) and returned as a tensor; `dtype_at` is the
    position of a `dtype` parameter whose default, `float`, follows the promotion mode."""
    def op(*args, **kwargs):
        if "dtype" in kwargs:
            kwargs["dtype"] = _np_dtype(kwargs["dtype"])
        elif dtype_at is not None and len(args) <= dtype_at:
            kwargs["dtype"] = _np_dtype(float)
        return _tf.constant(fn(*args, **kwargs))
    op.__doc__ = f"NumPy's `{fn.__name__}` as a tensor."
    return op


zeros, ones, empty, identity = (_host(f, 1) for f in (_np.zeros, _np.ones, _np.zeros, _np.identity))
eye, tri = _host(_np.eye, 3), _host(_np.tri, 3)
_full = _host(_np.full)


def full(shape, fill_value, dtype=None):
    """NumPy's `full` as a tensor (its dtype from `fill_value` by TF's rule, prefer_float32 and the auto modes'
    lattice included)."""
    if dtype is None and _weak_ops.auto() and not isinstance(fill_value, (_Tensor, _Variable)):
        dtype = _weak_ops.result_type(fill_value)[0].as_numpy_dtype
    elif dtype is None and isinstance(fill_value, (float, complex)):
        dtype = _np.result_type(_kind(fill_value))
    return _full(shape, fill_value, dtype=dtype)


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in [start, stop) (NumPy's dtype: int64 for ints, float64 for floats)."""
    dtype = _np_dtype(dtype) or _np.result_type(*[_kind(v) for v in (start, stop, step) if v is not None])
    start, stop, step = (v.numpy() if isinstance(v, (_Tensor, _Variable)) else v for v in (start, stop, step))
    return _tf.constant(_np.arange(start, stop, step, dtype=dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced float64 values (TF 2.21's tnp returns float64 whatever `dtype` says; float32 with
    prefer_float32 or in the auto modes)."""
    out = _np.linspace(start, stop, num, endpoint, retstep,
                       _np.float32 if _behavior.prefer_float32() or _weak_ops.auto() else _np.float64,
                       axis)
    return (_tf.constant(out[0]), out[1]) if retstep else _tf.constant(out)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    return _tf.constant(_np.logspace(start, stop, num, endpoint, base, _np.float64, axis))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    return _tf.constant(_np.geomspace(start, stop, num, endpoint, _np.float64, axis))


def _like(fill):
    def op(a, dtype=None):
        a = asarray(a)
        return fill(a.shape, a.dtype if dtype is None else _tf.as_dtype(_np_dtype(dtype)))
    return op


zeros_like = _like(lambda s, d: _tf.zeros(s, d))
ones_like = _like(lambda s, d: _tf.ones(s, d))
empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    a = asarray(a)
    return _tf.fill(a.shape, _tf.constant(fill_value, a.dtype if dtype is None else _tf.as_dtype(_np_dtype(dtype))))


experimental_enable_numpy_behavior = _behavior.enable
