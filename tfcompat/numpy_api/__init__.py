"""`tf.experimental.numpy` (TF's NumPy API): NumPy functions over `tf.Tensor`, with NumPy's dtype rules, from tables.

As in TF, the ndarray is `tf.Tensor`; dtypes follow NumPy (`tnp.array([1, 2])` is int64, `tnp.zeros(3)` float64,
int32 + float32 is float64, a Python scalar adapts to the array's kind), and float functions of integer arrays
need `experimental_enable_numpy_behavior()` (TF's AttributeError otherwise). Names TF exports that are not here
answer NotImplementedYet.
"""
import builtins
import math

import numpy as np

import tfcompat as tf
from tfcompat._api import missing
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.numpy_api import behavior, random  # noqa: F401  (tnp.random)

ndarray = Tensor
pi, e, inf, newaxis = math.pi, math.e, np.inf, None
bool_, int_, float_, complex_ = np.bool_, np.int64, np.float64, np.complex128
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64, complex64, complex128 = np.float16, np.float32, np.float64, np.complex64, np.complex128
iinfo, finfo, issubdtype, promote_types = np.iinfo, np.finfo, np.issubdtype, np.promote_types
inexact, object_, string_, unicode_ = np.inexact, np.object_, np.bytes_, np.str_
_HINT = ("EagerTensor object has no attribute '{}'. \n        If you are looking for numpy-related methods, please "
         "run the following:\n        tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")


def __getattr__(attr):
    raise missing("experimental.numpy", attr)


# -- dtypes and conversion ------------------------------------------------------------------------------------------
def _kind(x):
    """What np.result_type needs for `x`: a tensor's NumPy dtype, a Python scalar as itself (weak), else its dtype."""
    if isinstance(x, (Tensor, Variable)):
        return np.dtype(x.dtype.as_numpy_dtype)
    if isinstance(x, (bool, int, float, complex)):
        return x
    return np.asarray(x).dtype


def _np_dtype(dtype):
    return None if dtype is None else np.dtype(tf.as_dtype(dtype).as_numpy_dtype if isinstance(dtype, tf.DType)
                                               else dtype)


def result_type(*arrays_and_dtypes):
    """The tf.DType NumPy's promotion gives for these arrays, scalars and dtypes."""
    kinds = [_kind(a) if isinstance(a, (Tensor, Variable, bool, int, float, complex, list, tuple)) else _np_dtype(a)
             for a in arrays_and_dtypes]
    return tf.as_dtype(np.result_type(*kinds))


def asarray(a, dtype=None):
    """`a` as a tensor: tensors as they are (cast to `dtype`), other values with NumPy's dtype inference."""
    if isinstance(a, (Tensor, Variable)):
        return a if dtype is None or tf.as_dtype(_np_dtype(dtype)) == a.dtype and isinstance(a, Tensor) else \
            tf.cast(a, tf.as_dtype(_np_dtype(dtype)))
    return tf.constant(np.asarray(a, dtype=_np_dtype(dtype)))


def array(val, dtype=None, copy=True, ndmin=0):
    """A new tensor of `val` (NumPy's dtype inference), with at least `ndmin` dimensions."""
    out = asarray(val, dtype)
    if copy and out is val:
        out = tf.identity(out)
    while len(out.shape) < ndmin:
        out = tf.expand_dims(out, 0)
    return out


asanyarray = ascontiguousarray = asarray


def _as(x, dtype):
    """`x` as a tensor of np.dtype `dtype`."""
    if isinstance(x, (Tensor, Variable)):
        return x if x.dtype.as_numpy_dtype == dtype.type else tf.cast(x, tf.as_dtype(dtype))
    return tf.constant(np.asarray(x, dtype=dtype))


def _promoted(*xs, floating=False):
    dtype = np.result_type(*[_kind(x) for x in xs])
    if floating and not np.issubdtype(dtype, np.inexact):
        dtype = np.dtype(np.float64)
    return [_as(x, dtype) for x in xs]


# -- elementwise ----------------------------------------------------------------------------------------------------
def _unary(fn, floating=False):
    def op(x):
        x = asarray(x)
        if floating and not (x.dtype.is_floating or x.dtype.is_complex):
            if not behavior.enabled():
                raise AttributeError(_HINT.format("astype"))
            x = tf.cast(x, tf.float64)
        return fn(x)
    return op


def _binary(fn, floating=False, boolean=False):
    def op(x1, x2):
        if boolean:
            return fn(_as(x1, np.dtype(bool)), _as(x2, np.dtype(bool)))
        return fn(*_promoted(x1, x2, floating=floating))
    return op


_UNARY = {"abs": tf.abs, "absolute": tf.abs, "negative": tf.negative, "positive": tf.identity,
          "square": tf.square, "sign": tf.sign, "logical_not": lambda x: tf.logical_not(tf.cast(x, tf.bool)),
          "isnan": tf.math.is_nan, "isinf": tf.math.is_inf, "isfinite": tf.math.is_finite,
          "conj": tf.math.conj, "conjugate": tf.math.conj, "real": tf.math.real, "imag": tf.math.imag,
          "fabs": tf.abs, "bitwise_not": tf.bitwise.invert, "signbit": lambda x: tf.less(x, tf.zeros([], x.dtype)),
          "isposinf": lambda x: tf.equal(x, tf.constant(np.inf, x.dtype)),
          "isneginf": lambda x: tf.equal(x, tf.constant(-np.inf, x.dtype))}
_UNARY_FLOAT = {"exp": tf.exp, "log": tf.math.log, "sqrt": tf.sqrt, "sin": tf.sin, "cos": tf.cos, "tan": tf.tan,
                "sinh": tf.sinh, "cosh": tf.cosh, "tanh": tf.tanh, "arcsin": tf.asin, "arccos": tf.acos,
                "arctan": tf.atan, "arcsinh": tf.asinh, "arccosh": tf.acosh, "arctanh": tf.atanh,
                "log1p": tf.math.log1p, "expm1": tf.math.expm1, "floor": tf.floor, "ceil": tf.math.ceil,
                "reciprocal": tf.math.reciprocal,
                "log2": lambda x: tf.math.log(x) / tf.math.log(tf.constant(2, x.dtype)),
                "log10": lambda x: tf.math.log(x) / tf.math.log(tf.constant(10, x.dtype)),
                "exp2": lambda x: tf.pow(tf.constant(2, x.dtype), x),
                "cbrt": lambda x: tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype)),
                "deg2rad": lambda x: x * tf.constant(np.pi / 180, x.dtype),
                "rad2deg": lambda x: x * tf.constant(180 / np.pi, x.dtype),
                "fix": lambda x: tf.where(x < 0, tf.math.ceil(x), tf.floor(x)),
                "sinc": lambda x: tf.where(tf.equal(x, 0), tf.ones_like(x),
                                           tf.sin(np.pi * x) / tf.where(tf.equal(x, 0), tf.ones_like(x), np.pi * x)),
                "angle": lambda x: tf.math.angle(x) if x.dtype.is_complex else tf.where(   # float32, as TF's
                    x < 0, tf.constant(np.pi, tf.float32), tf.zeros(x.shape, tf.float32))}
_BINARY = {"add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply, "power": tf.pow,
           "maximum": tf.maximum, "minimum": tf.minimum, "floor_divide": tf.math.floordiv,
           "mod": tf.math.floormod, "remainder": tf.math.floormod, "equal": tf.equal, "not_equal": tf.not_equal,
           "less": tf.less, "less_equal": tf.less_equal, "greater": tf.greater, "greater_equal": tf.greater_equal,
           "matmul": lambda a, b: _matmul(a, b)}
_BINARY_FLOAT = {"divide": tf.divide, "true_divide": tf.divide, "arctan2": tf.math.atan2,
                 "hypot": lambda a, b: tf.sqrt(a * a + b * b)}
_BINARY_BOOL = {"logical_and": tf.logical_and, "logical_or": tf.logical_or, "logical_xor": tf.math.logical_xor}
_BINARY.update({"bitwise_and": tf.bitwise.bitwise_and, "bitwise_or": tf.bitwise.bitwise_or,
                "bitwise_xor": tf.bitwise.bitwise_xor,
                "heaviside": lambda x1, x2: tf.where(x1 < 0, tf.zeros_like(x1), tf.where(x1 > 0, tf.ones_like(x1), x2)),
                "gcd": lambda a, b: _gcd(tf.abs(a), tf.abs(b)),
                "lcm": lambda a, b: tf.where(tf.equal(_gcd(tf.abs(a), tf.abs(b)), 0), tf.zeros_like(a),
                                             tf.abs(a * b) // tf.maximum(_gcd(tf.abs(a), tf.abs(b)), 1))})
_BINARY_FLOAT.update({"logaddexp": lambda a, b: tf.maximum(a, b) + tf.math.log1p(tf.exp(-tf.abs(a - b))),
                      "logaddexp2": lambda a, b: tf.maximum(a, b) + tf.math.log1p(
                          tf.pow(tf.constant(2, a.dtype), -tf.abs(a - b))) / tf.math.log(tf.constant(2, a.dtype))})
_BINARY["float_power"] = tf.pow          # TF's float_power keeps integer dtypes


def _gcd(a, b):
    """Euclid's algorithm, elementwise, on non-negative integer tensors."""
    a, b = tf.broadcast_to(a, tf.shape(a + b)), tf.broadcast_to(b, tf.shape(a + b))
    while bool(tf.reduce_any(tf.not_equal(b, 0))):
        done = tf.equal(b, 0)
        a, b = tf.where(done, a, b), tf.where(done, b, a % tf.where(done, tf.ones_like(b), b))
    return a



def _matmul(a, b):
    """NumPy's matmul: a vector operand is a matrix with a dimension of 1 that the result drops."""
    if len(b.shape) == 1:
        return tf.squeeze(_matmul(a, tf.expand_dims(b, -1)), -1)
    if len(a.shape) == 1:
        return tf.squeeze(tf.linalg.matmul(tf.expand_dims(a, 0), b), -2)
    return tf.linalg.matmul(a, b)


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
    return tf.tensordot(a, b, [[len(a.shape) - 1], [builtins.max(len(b.shape) - 2, 0)]])


def outer(a, b):
    a, b = _promoted(a, b)
    return tf.tensordot(tf.reshape(a, [-1]), tf.reshape(b, [-1]), 0)


def inner(a, b):
    """Sum of products over the last axes of `a` and `b`."""
    a, b = _promoted(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 1]])


def vdot(a, b):
    """Dot product of the flattened arrays."""
    a, b = _promoted(a, b)
    return tf.reduce_sum(tf.reshape(a, [-1]) * tf.reshape(b, [-1]))


def einsum(subscripts, *operands, **kwargs):
    if kwargs:
        raise NotImplementedError(f"tf.experimental.numpy.einsum({', '.join(kwargs)}=...) is not supported by "
                                  "tfcompat")
    return tf.einsum(subscripts, *_promoted(*operands))


def tensordot(a, b, axes=2):
    return tf.tensordot(*_promoted(a, b), axes)


def clip(a, a_min, a_max):
    """`a` limited to [a_min, a_max] (NumPy's promotion of the three)."""
    a, lo, hi = _promoted(a, a_min, a_max)
    return tf.clip_by_value(a, lo, hi)


def where(condition, x=None, y=None):
    """`x` where `condition`, else `y` (promoted); with one argument, the indices of the non-zero elements."""
    condition = _as(condition, np.dtype(bool))
    if x is None and y is None:
        return tf.unstack(tf.where(condition), axis=1) if len(condition.shape) else [tf.zeros([0], tf.int64)]
    return tf.where(condition, *_promoted(x, y))


def round(a, decimals=0):
    """Rounds half to even at `decimals` digits."""
    a = asarray(a)
    if not behavior.enabled():
        raise AttributeError(_HINT.format("astype"))      # TF's round casts even float arrays through astype
    if not a.dtype.is_floating:
        return a
    scale = tf.constant(10.0 ** decimals, a.dtype)
    return tf.round(a * scale) / scale


around = round


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _promoted(a, b, floating=True)
    close = tf.abs(a - b) <= atol + rtol * tf.abs(b)
    return tf.logical_or(close, tf.logical_and(tf.math.is_nan(a), tf.math.is_nan(b))) if equal_nan else close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return tf.reduce_all(isclose(a, b, rtol, atol, equal_nan))


# -- reductions -----------------------------------------------------------------------------------------------------
def _accumulator(x, dtype):
    """NumPy's accumulator dtype for sums and products: bool and smaller ints give int64 (uint64 for unsigned)."""
    if dtype is not None:
        return tf.cast(x, tf.as_dtype(_np_dtype(dtype)))
    if x.dtype == tf.bool or (x.dtype.is_integer and x.dtype.size < 8):
        return tf.cast(x, tf.uint64 if x.dtype.is_unsigned else tf.int64)
    return x


def _floating(x, dtype):
    if dtype is not None:
        return tf.cast(x, tf.as_dtype(_np_dtype(dtype)))
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float64)


def sum(a, axis=None, dtype=None, keepdims=False):
    return tf.reduce_sum(_accumulator(asarray(a), dtype), axis, keepdims)


def prod(a, axis=None, dtype=None, keepdims=False):
    return tf.reduce_prod(_accumulator(asarray(a), dtype), axis, keepdims)


def mean(a, axis=None, dtype=None, keepdims=False):
    return tf.reduce_mean(_floating(asarray(a), dtype), axis, keepdims)


def var(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Variance, divided by `n - ddof`."""
    if ddof and dtype is None:      # TF 2.21's tnp fails so
        raise TypeError("Cannot convert the argument `type_value`: None to a TensorFlow DType.")
    a = _floating(asarray(a), dtype)
    out = tf.math.reduce_variance(a, axis, keepdims)
    if ddof:
        n = tf.cast(tf.size(a) if axis is None else tf.reduce_prod(tf.gather(tf.shape(a), axis)), out.dtype)
        out = out * n / (n - ddof)
    return out


def std(a, axis=None, dtype=None, ddof=0, keepdims=False):
    return tf.sqrt(var(a, axis, dtype, ddof, keepdims))


def amax(a, axis=None, keepdims=False):
    return tf.reduce_max(asarray(a), axis, keepdims)


def amin(a, axis=None, keepdims=False):
    return tf.reduce_min(asarray(a), axis, keepdims)


max, min = amax, amin


def all(a, axis=None, keepdims=False):
    return tf.reduce_all(_as(a, np.dtype(bool)), axis, keepdims)


def any(a, axis=None, keepdims=False):
    return tf.reduce_any(_as(a, np.dtype(bool)), axis, keepdims)


def argmax(a, axis=None):
    a = asarray(a)
    return tf.argmax(tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def argmin(a, axis=None):
    a = asarray(a)
    return tf.argmin(tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def cumsum(a, axis=None, dtype=None):
    a = _accumulator(asarray(a), dtype)
    return tf.cumsum(tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def cumprod(a, axis=None, dtype=None):
    a = _accumulator(asarray(a), dtype)
    return tf.math.cumprod(tf.reshape(a, [-1]) if axis is None else a, 0 if axis is None else axis)


def ptp(a, axis=None, keepdims=False):
    """Range (max - min) along `axis`."""
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def average(a, axis=None, weights=None, returned=False):
    """Mean, or the `weights`-weighted mean, along `axis`."""
    if returned:
        raise NotImplementedError("tf.experimental.numpy.average(returned=True) is not supported by tfcompat")
    if weights is None:
        a = asarray(a)
        if not (a.dtype.is_floating or a.dtype.is_complex or behavior.enabled()):
            raise AttributeError(_HINT.format("astype"))        # TF's average casts integers through astype
        return mean(a, axis)
    a, weights = _promoted(a, weights, floating=True)
    if len(weights.shape) == 1 and len(a.shape) > 1:
        weights = tf.reshape(weights, [-1] + [1] * (len(a.shape) - 1 - (axis % len(a.shape))))
    return tf.reduce_sum(a * weights, axis) / tf.reduce_sum(weights * tf.ones_like(a), axis)


def nansum(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    if a.dtype.is_floating:
        a = tf.where(tf.math.is_nan(a), tf.zeros_like(a), a)
    return sum(a, axis, dtype, keepdims)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    a = _floating(asarray(a), dtype)
    valid = tf.logical_not(tf.math.is_nan(a))
    total = tf.reduce_sum(tf.where(valid, a, tf.zeros_like(a)), axis, keepdims)
    return total / tf.reduce_sum(tf.cast(valid, a.dtype), axis, keepdims)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """Sum of the (offset) diagonal of a 2D array."""
    if (axis1, axis2) != (0, 1) or len(asarray(a).shape) != 2:
        raise NotImplementedError("tfcompat's tf.experimental.numpy.trace takes 2D arrays on axes (0, 1)")
    return sum(diagonal(a, offset), dtype=dtype)


def count_nonzero(a, axis=None):
    return tf.math.count_nonzero(asarray(a), axis, dtype=tf.int64)


# -- shapes ---------------------------------------------------------------------------------------------------------
def shape(a):
    return asarray(a).shape


def size(a):
    return np.int64(np.prod(asarray(a).shape.as_list(), dtype=np.int64))


def ndim(a):
    return len(asarray(a).shape)


def reshape(a, newshape, order="C"):
    if order != "C":
        raise NotImplementedError(f"tf.experimental.numpy.reshape(order={order!r}) is not supported by tfcompat")
    return tf.reshape(asarray(a), [newshape] if isinstance(newshape, int) else newshape)


def ravel(a):
    return tf.reshape(asarray(a), [-1])


flatten = ravel


def transpose(a, axes=None):
    return tf.transpose(asarray(a), axes)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    perm = list(range(len(a.shape)))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return tf.transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    perm = [i for i in range(len(a.shape)) if i != source % len(a.shape)]
    perm.insert(destination % len(a.shape), source % len(a.shape))
    return tf.transpose(a, perm)


def expand_dims(a, axis):
    return tf.expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    return tf.squeeze(asarray(a), axis)


def concatenate(arys, axis=0):
    return tf.concat(_promoted(*arys), axis)


def stack(arrays, axis=0):
    return tf.stack(_promoted(*arrays), axis)


def hstack(tup):
    arrays = [atleast_1d(a) for a in tup]
    return concatenate(arrays, 0 if len(arrays[0].shape) == 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


def atleast_1d(a):
    a = asarray(a)
    return tf.reshape(a, [1]) if len(a.shape) == 0 else a


def atleast_2d(a):
    a = atleast_1d(a)
    return tf.expand_dims(a, 0) if len(a.shape) == 1 else a


def tile(a, reps):
    a = asarray(a)
    reps = [reps] if isinstance(reps, int) else list(reps)
    while len(a.shape) < len(reps):
        a = tf.expand_dims(a, 0)
    return tf.tile(a, [1] * (len(a.shape) - len(reps)) + reps)


def repeat(a, repeats, axis=None):
    a = asarray(a)
    return tf.repeat(tf.reshape(a, [-1]) if axis is None else a, repeats, axis=0 if axis is None else axis)


def flip(m, axis=None):
    m = asarray(m)
    axes = list(range(len(m.shape))) if axis is None else [axis] if isinstance(axis, int) else list(axis)
    return tf.reverse(m, axes)


def sort(a, axis=-1):
    return tf.sort(asarray(a), axis=axis)


def argsort(a, axis=-1):
    return tf.cast(tf.argsort(asarray(a), axis=axis, stable=True), tf.int64)


def broadcast_to(array, shape):
    return tf.broadcast_to(asarray(array), shape)


def take(a, indices, axis=None):
    a = asarray(a)
    return tf.gather(tf.reshape(a, [-1]) if axis is None else a, indices, axis=0 if axis is None else axis)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(a, [-1]), shift, 0), tf.shape(a))
    return tf.roll(a, shift, axis)


def split(ary, indices_or_sections, axis=0):
    """Sub-arrays: `indices_or_sections` equal parts, or the parts between those indices."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return tf.split(ary, indices_or_sections, axis)
    bounds = [0] + list(indices_or_sections) + [ary.shape[axis]]
    return tf.split(ary, [b - a for a, b in zip(bounds[:-1], bounds[1:])], axis)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if len(asarray(ary).shape) > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def dstack(tup):
    return concatenate([atleast_3d(a) for a in tup], 2)


def atleast_3d(a):
    a = atleast_2d(a)
    return tf.expand_dims(a, -1) if len(a.shape) == 2 else a


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def pad(array, pad_width, mode, constant_values=0):
    """`array` padded by `pad_width` ((before, after) per axis, as TF: no broadcasting) with `constant_values`."""
    if mode != "constant":
        raise NotImplementedError(f"tf.experimental.numpy.pad(mode={mode!r}) is not supported by tfcompat")
    return tf.pad(asarray(array), pad_width, constant_values=constant_values)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    if (axis1, axis2) != (0, 1) or len(a.shape) != 2:
        raise NotImplementedError("tfcompat's tf.experimental.numpy.diagonal takes 2D arrays on axes (0, 1)")
    return tf.linalg.diag_part(a, k=offset)


def diag(v, k=0):
    """The k-th diagonal of a 2D array, or a 2D array with 1D `v` on its k-th diagonal."""
    v = asarray(v)
    if len(v.shape) == 2:
        return diagonal(v, k)
    return tf.linalg.diag(v, k=k)


def tril(m, k=0):
    m = asarray(m)
    mask = tf.constant(np.tri(*m.shape[-2:], k=k, dtype=bool))
    return tf.where(mask, m, tf.zeros_like(m))


def triu(m, k=0):
    m = asarray(m)
    mask = tf.constant(np.tri(*m.shape[-2:], k=k - 1, dtype=bool))
    return tf.where(mask, tf.zeros_like(m), m)


def nonzero(a):
    return where(a)


def meshgrid(*xi, indexing="xy"):
    return tf.meshgrid(*[asarray(x) for x in xi], indexing=indexing)


def array_equal(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return tf.constant(False)
    return tf.reduce_all(tf.equal(*_promoted(a1, a2)))


def take_along_axis(arr, indices, axis):
    """Values of `arr` at `indices` along `axis` (`indices` has `arr`'s rank)."""
    arr, indices = asarray(arr), asarray(indices)
    rank = len(arr.shape)
    axis %= rank
    perm = [i for i in range(rank) if i != axis] + [axis]
    back = list(np.argsort(perm))
    out = tf.gather(tf.transpose(arr, perm), tf.transpose(indices, perm), batch_dims=rank - 1)
    return tf.transpose(out, back)


def diff(a, n=1, axis=-1):
    """`n`-th differences along `axis`."""
    a = asarray(a)
    for _ in range(n):
        length = a.shape[axis]
        a = tf.gather(a, list(range(1, length)), axis=axis) - tf.gather(a, list(range(length - 1)), axis=axis)
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
        return tf.reshape(a[:, None] * b[None, :], [-1])
    (m, n), (p, q) = a.shape, b.shape
    return tf.reshape(a[:, None, :, None] * b[None, :, None, :], [m * p, n * q])


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else `default`."""
    out = asarray(default)
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        out = where(cond, choice, out)
    return out


def compress(condition, a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = tf.reshape(a, [-1]), 0
    condition = _as(condition, np.dtype(bool))
    kept = tf.gather(a, list(range(condition.shape[0])), axis=axis)     # NumPy: a shorter condition truncates
    return tf.boolean_mask(kept, condition, axis=axis)


def broadcast_arrays(*args):
    arrays = [asarray(a) for a in args]
    shape = tf.shape(builtins.sum((tf.zeros_like(a, tf.int32) for a in arrays), tf.constant(0)))
    return [tf.broadcast_to(a, shape) for a in arrays]


def diagflat(v, k=0):
    return tf.linalg.diag(ravel(v), k=k)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


def iscomplexobj(x):
    return asarray(x).dtype.is_complex


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    x = asarray(x)
    return tf.not_equal(tf.math.imag(x), 0) if x.dtype.is_complex else tf.zeros(x.shape, tf.bool)


def isreal(x):
    return tf.logical_not(iscomplex(x))


def divmod(x1, x2):
    return _binary(tf.math.floordiv)(x1, x2), _binary(tf.math.floormod)(x1, x2)


def polyval(p, x):
    """Value at `x` of the polynomial with coefficients `p` (highest power first)."""
    p, x = _promoted(p, x)
    out = tf.zeros_like(x)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out


def vander(x, N=None, increasing=False):
    x = asarray(x)
    N = x.shape[0] if N is None else N
    powers = tf.range(N) if increasing else tf.range(N - 1, -1, -1)
    return tf.pow(x[:, None], tf.cast(powers, x.dtype)[None, :])


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
    return tf.linalg.cross(a, b) if a.dtype.is_floating else tf.stack([
        a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1], a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
        a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)


def ix_(*args):
    """Open index grids: the i-th of n arrays shaped to vary along axis i only."""
    n = len(args)
    return [tf.reshape(asarray(a), [-1 if i == j else 1 for j in range(n)]) for i, a in enumerate(args)]


def diag_indices(n, ndim=2):
    return tuple(tf.range(n) for _ in range(ndim))


def nanprod(a, axis=None, dtype=None, keepdims=False):
    a = asarray(a)
    if a.dtype.is_floating:
        a = tf.where(tf.math.is_nan(a), tf.ones_like(a), a)
    return prod(a, axis, dtype, keepdims)


def isscalar(num):
    return isinstance(num, (bool, int, float, complex, str, bytes, np.generic)) or \
        (isinstance(num, (Tensor, Variable)) and len(num.shape) == 0)


def copy(a):
    return tf.identity(asarray(a))


# -- creation -------------------------------------------------------------------------------------------------------
def _host(fn):
    """A creation function computed by NumPy (its dtype rules included) and returned as a tensor."""
    def op(*args, **kwargs):
        if "dtype" in kwargs:
            kwargs["dtype"] = _np_dtype(kwargs["dtype"])
        return tf.constant(fn(*args, **kwargs))
    op.__doc__ = f"NumPy's `{fn.__name__}` as a tensor."
    return op


zeros, ones, empty, full, eye, identity, tri = (_host(f) for f in (np.zeros, np.ones, np.zeros, np.full, np.eye,
                                                                      np.identity, np.tri))


def arange(start, stop=None, step=1, dtype=None):
    """Evenly spaced values in [start, stop) (NumPy's dtype: int64 for ints, float64 for floats)."""
    dtype = _np_dtype(dtype) or np.result_type(*[_kind(v) for v in (start, stop, step) if v is not None])
    start, stop, step = (v.numpy() if isinstance(v, (Tensor, Variable)) else v for v in (start, stop, step))
    return tf.constant(np.arange(start, stop, step, dtype=dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced float64 values (TF 2.21's tnp returns float64 whatever `dtype` says)."""
    out = np.linspace(start, stop, num, endpoint, retstep, np.float64, axis)
    return (tf.constant(out[0]), out[1]) if retstep else tf.constant(out)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    return tf.constant(np.logspace(start, stop, num, endpoint, base, np.float64, axis))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    return tf.constant(np.geomspace(start, stop, num, endpoint, np.float64, axis))


def _like(fill):
    def op(a, dtype=None):
        a = asarray(a)
        return fill(a.shape, a.dtype if dtype is None else tf.as_dtype(_np_dtype(dtype)))
    return op


zeros_like = _like(lambda s, d: tf.zeros(s, d))
ones_like = _like(lambda s, d: tf.ones(s, d))
empty_like = zeros_like


def full_like(a, fill_value, dtype=None):
    a = asarray(a)
    return tf.fill(a.shape, tf.constant(fill_value, a.dtype if dtype is None else tf.as_dtype(_np_dtype(dtype))))


experimental_enable_numpy_behavior = behavior.enable
