"""`tf.debugging`: the assert ops, `tf.debugging.Assert`, numerics checks, dtype/shape assertions and the
traceback-filtering switch."""
import sys
import threading

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework import ragged as _ragged
from tfcompat.framework import sparse as _sparse
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, device_name, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops import math_ops


# whether TF's Grappler `debug_stripper` removes the assert, CheckNumerics or print op about to fail or print: set by
# tf.function (the option is on and a function body runs); given tensors, only if one is computed from the function's
# inputs (TF checks a condition of constants while it traces)
_debug_stripped = [lambda *tensors: False]


def debug_stripped(*tensors):
    """Whether the debug op about to fail (or print) is removed, as Grappler's DebugStripper removes it."""
    return _debug_stripped[0](*tensors)


def register_debug_stripper(fn):
    """Sets the test `debug_stripped` makes (tf.function registers it: it knows whether a function body runs)."""
    _debug_stripped[0] = fn


def _tensor(x):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, TensorShape):
        x = x.as_list()
    return convert_to_tensor(x)


def _shape_dtype(t):
    return f"shape={t.shape} dtype={t.dtype.name}"


def _prefix(message):
    return f"{message}.  " if message else ""


def _flat(t):
    return t._array().reshape(-1)


def _pretty(item, summarize):
    """One item of an assert message: tensors as a list of their first `summarize` values' texts."""
    if isinstance(item, Tensor):
        a = item._array()
        if a.ndim == 0:
            return str(a[()])
        flat = a.reshape(-1)
        items = [str(v) for v in flat[:summarize]]
        if len(items) < flat.size:
            items.append("...")
        return str(items)
    return str(item)


def _binary_assert(sym, op, x, y, data, summarize, message):
    x, y = _tensor(x), _tensor(y)
    test = op(x, y)
    t = storage(test)
    passed = t.all() if type(t) is torch.Tensor else np.all(t)
    if bool(passed) or debug_stripped(x, y):
        return None
    if summarize is None:
        summarize = 3
    elif summarize < 0:
        summarize = sys.maxsize
    if data is None:
        data = [f"Condition x {sym} y did not hold."]
        if summarize > 0:
            if x.shape == y.shape and storage(x).ndim:
                failed = ~test._array()
                idx = np.argwhere(failed)
                n = min(summarize, idx.shape[0])
                data += [f"Indices of first {n} different values:", idx[:n],
                         "Corresponding x values:", x._array()[failed].reshape(-1)[:n],
                         "Corresponding y values:", y._array()[failed].reshape(-1)[:n]]
            xf, yf = _flat(x), _flat(y)
            nx, ny = min(xf.size, summarize), min(yf.size, summarize)
            data += [f"First {nx} elements of x:", xf[:nx], f"First {ny} elements of y:", yf[:ny]]
    if message is not None:
        data = [message] + list(data)
    raise errors.InvalidArgumentError(None, None, "\n".join(_pretty(d, summarize) for d in data))


def _binary(sym, op_name):
    op = getattr(math_ops, op_name)

    def check(x, y, message=None, summarize=None, name=None):
        return _binary_assert(sym, op, x, y, None, summarize, message)

    check.__doc__ = f"Raises InvalidArgumentError unless `x {sym} y` holds elementwise (None in eager mode)."
    return check


assert_equal = tf_export("debugging.assert_equal", "assert_equal")(_binary("==", "equal"))
assert_none_equal = tf_export("debugging.assert_none_equal")(_binary("!=", "not_equal"))
assert_less = tf_export("debugging.assert_less", "assert_less")(_binary("<", "less"))
assert_less_equal = tf_export("debugging.assert_less_equal")(_binary("<=", "less_equal"))
assert_greater = tf_export("debugging.assert_greater", "assert_greater")(_binary(">", "greater"))
assert_greater_equal = tf_export("debugging.assert_greater_equal")(_binary(">=", "greater_equal"))
for _f, _n in ((assert_equal, "assert_equal"), (assert_none_equal, "assert_none_equal"),
               (assert_less, "assert_less"), (assert_less_equal, "assert_less_equal"),
               (assert_greater, "assert_greater"), (assert_greater_equal, "assert_greater_equal")):
    _f.__name__ = _f.__qualname__ = _n


def _sign_assert(x, message, summarize, zero_first, op, text):
    x = _tensor(x)
    zero = wrap(torch.zeros((), dtype=storage(x).dtype))
    data = [_prefix(message), text, f"x ({_shape_dtype(x)}) = ", x]
    if op is math_ops.less_equal and not zero_first:    # TF's assert_non_positive message lacks this newline
        data = [data[0], data[1] + data[2], x]
    return _binary_assert("", op, *((zero, x) if zero_first else (x, zero)), data, summarize, None)


@tf_export("debugging.assert_positive")
def assert_positive(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x > 0`."""
    return _sign_assert(x, message, summarize, True, math_ops.less, "Condition x > 0 did not hold element-wise:")


@tf_export("debugging.assert_negative")
def assert_negative(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x < 0`."""
    return _sign_assert(x, message, summarize, False, math_ops.less, "Condition x < 0 did not hold element-wise:")


@tf_export("debugging.assert_non_negative")
def assert_non_negative(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x >= 0`."""
    return _sign_assert(x, message, summarize, True, math_ops.less_equal,
                        "Condition x >= 0 did not hold element-wise:")


_ragged.register_ops(assert_equal=assert_equal, assert_non_negative=assert_non_negative)


@tf_export("debugging.assert_non_positive")
def assert_non_positive(x, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless all `x <= 0`."""
    return _sign_assert(x, message, summarize, False, math_ops.less_equal,
                        "Condition x <= 0 did not hold element-wise:")


def _summarize_values(t, summarize):
    a = t._array()
    if a.ndim == 0:
        return str(a[()]) if summarize != 0 else ""
    flat = a.reshape(-1)
    items = [str(v) for v in flat[:summarize]]
    if len(items) < flat.size:
        items.append("...")
    return ", ".join(items)


@tf_export("debugging.Assert", "Assert")
def Assert(condition, data, summarize=None, name=None):
    """Raises InvalidArgumentError listing `data` when `condition` is False (None in eager mode)."""
    if isinstance(condition, Tensor):
        ok = bool(condition._array())
    else:
        ok = bool(condition)
    if ok or debug_stripped():
        return None
    summarize = 3 if summarize is None else summarize
    text = "\n".join(_summarize_values(_tensor(d), summarize) for d in data)
    raise errors.InvalidArgumentError(None, None, f"Expected '{condition!s}' to be true. Summarized data: {text}")


@tf_export("debugging.assert_near")
def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """Raises InvalidArgumentError unless `|x - y| <= atol + rtol * |y|` elementwise."""
    x, y = _tensor(x), _tensor(y)
    dt = x.dtype
    if not (dt.is_floating or dt.is_complex):
        raise ValueError(f"data type {np.dtype(dt.as_numpy_dtype).type} not inexact")
    eps = 10 * float(np.finfo(dt.real_dtype.as_numpy_dtype if dt.is_complex else dt.as_numpy_dtype).eps)
    real = dt.real_dtype if dt.is_complex else dt
    rtol = convert_to_tensor(eps if rtol is None else rtol, dtype=real)
    atol = convert_to_tensor(eps if atol is None else atol, dtype=real)
    diff = torch.abs(storage(x) - storage(y))
    ok = bool((diff <= storage(atol) + storage(rtol) * torch.abs(storage(y))).all())
    if ok:
        return None
    data = [_prefix(message), f"x and y not equal to tolerance rtol = {rtol!s}, atol = {atol!s}",
            f"x ({_shape_dtype(x)}) = ", x, f"y ({_shape_dtype(y)}) = ", y]
    return Assert(wrap(torch.tensor(False)), data, summarize=summarize)


def _rank_of(x):
    return x.shape.rank if isinstance(x, (Tensor, Variable)) else _tensor(x).shape.rank


def _rank_error(x, message, what):
    x = x if isinstance(x, (Tensor, Variable)) else _tensor(x)
    dims = tuple(x.shape.as_list())
    return ValueError(f"{_prefix(message)}Tensor  must have rank {what}.  Received rank {len(dims)}, shape {dims}")


@tf_export("debugging.assert_rank", "assert_rank")
def assert_rank(x, rank, message=None, name=None):
    """Raises ValueError unless `x` has rank `rank`."""
    rank = int(rank)
    if _rank_of(x) != rank:
        raise _rank_error(x, message, str(rank))


@tf_export("debugging.assert_rank_at_least")
def assert_rank_at_least(x, rank, message=None, name=None):
    """Raises ValueError unless `x` has rank at least `rank`."""
    rank = int(rank)
    if _rank_of(x) < rank:
        raise _rank_error(x, message, f"at least {rank}")


@tf_export("debugging.assert_rank_in")
def assert_rank_in(x, ranks, message=None, name=None):
    """Raises ValueError unless the rank of `x` is one of `ranks`."""
    ranks = tuple(int(r) for r in ranks)
    if _rank_of(x) not in ranks:
        raise _rank_error(x, message, f"in {ranks}")


@tf_export("debugging.assert_scalar")
def assert_scalar(tensor, message=None, name=None):
    """Raises ValueError unless `tensor` is a scalar; returns it."""
    t = _tensor(tensor) if not isinstance(tensor, (Tensor, Variable)) else tensor
    if t.shape.rank != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {t.shape}.")
    return tensor


@tf_export("debugging.assert_shapes")
def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Checks tensors against symbolic shapes: ints are exact sizes, strings name sizes shared across tensors."""
    items = shapes.items() if isinstance(shapes, dict) else shapes
    sizes = {}
    for x, spec in items:
        x = x if isinstance(x, (Tensor, Variable)) else _tensor(x)
        spec = tuple(spec.as_list()) if isinstance(spec, TensorShape) else tuple(spec)
        dims = x.shape.as_list()
        if spec and spec[0] == "...":
            spec = spec[1:]
            assert_rank_at_least(x, len(spec), message)
            dims = dims[len(dims) - len(spec):]
        elif len(spec) <= 1:
            assert_rank_in(x, (0, 1), message)
        else:
            assert_rank(x, len(spec), message)
        offset = len(x.shape.as_list()) - len(dims)
        for i, (s, d) in enumerate(zip(spec, dims)):
            if s is None or s == "." or s == "*":
                continue
            if isinstance(s, str):
                if s not in sizes:
                    sizes[s] = (d, f"Specified by tensor {_shape_dtype(x)} dimension {i + offset}")
                    continue
                want, origin = sizes[s]
            else:
                want, origin = int(s), "Specified explicitly"
            if d != want:
                raise ValueError(f"{_prefix(message)}{origin}.  Tensor {_shape_dtype(x)} dimension {i + offset} "
                                 f"must have size {want}.  Received size {d}, shape {tuple(x.shape.as_list())}")


@tf_export("debugging.assert_type")
def assert_type(tensor, tf_type, message=None, name=None):
    """Raises TypeError unless `tensor` has dtype `tf_type`."""
    tf_type = dtypes.as_dtype(tf_type)
    if tensor.dtype != tf_type:
        raise TypeError(f"{_prefix(message)}tensor must be of type {tf_type!r}; got {tensor.dtype!r}")


@tf_export("debugging.assert_integer")
def assert_integer(x, message=None, name=None):
    """Raises TypeError unless `x` has an integer dtype."""
    x = x if isinstance(x, (Tensor, Variable)) else _tensor(x)
    if not x.dtype.is_integer:
        raise TypeError(f'{_prefix(message)}Expected "x" to be integer type.  Found: tensor of dtype {x.dtype}')


_CHECK_NUMERICS_TYPES = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


@tf_export("debugging.check_numerics")
def check_numerics(tensor, message, name=None):
    """Returns `tensor`; raises InvalidArgumentError if it holds NaN or Inf values."""
    t = _tensor(tensor) if not isinstance(tensor, (Tensor, Variable)) else tensor
    if t.dtype not in _CHECK_NUMERICS_TYPES:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'T' of {t.dtype.name} is not in the list of allowed values: bfloat16, half, float, "
            "double\n\t; NodeDef: {{node CheckNumerics}}; Op<name=CheckNumerics; signature=tensor:T -> output:T; "
            "attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE]; attr=message:string; "
            "is_stateful=true>", "CheckNumerics")
    v = storage(t) if isinstance(t, Tensor) else t._read()
    has_inf = bool(torch.isinf(v).any())
    has_nan = bool(torch.isnan(v).any())
    if (has_inf or has_nan) and not debug_stripped():
        what = "Inf and NaN" if has_inf and has_nan else ("Inf" if has_inf else "NaN")
        raise errors.op_error(errors.InvalidArgumentError,   # TF runs CheckNumerics as a wrapped function
                              f"{{{{function_node __wrapped__CheckNumerics_device_{device_name(v.device)}}}}} "
                              f"{message} : Tensor had {what} values", "CheckNumerics")
    return t if isinstance(t, Tensor) else wrap(v)


@tf_export("debugging.assert_all_finite")
def assert_all_finite(x, message, name=None):
    """Returns `x`; raises InvalidArgumentError if it holds NaN or Inf values."""
    return check_numerics(x, message, name)


@tf_export("debugging.enable_check_numerics")
def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Checking every op's output for NaN/Inf is not supported."""
    raise NotImplementedError("tf.debugging.enable_check_numerics is not supported by tfcompat "
                              "(use tf.debugging.check_numerics on the tensors to check)")


@tf_export("debugging.disable_check_numerics")
def disable_check_numerics():
    """Nothing to disable: tfcompat never enables per-op numeric checks."""
    return None


_TRACEBACK = threading.local()      # TF's traceback-filtering switch, per thread as TF keeps it
_NO_FILTERING = "tfcompat does not filter traceback frames: the switch is kept and reported, tracebacks stay whole"


@tf_export("debugging.enable_traceback_filtering", partial=_NO_FILTERING)
def enable_traceback_filtering():
    """Turns TF's traceback filtering on (the default)."""
    _TRACEBACK.enabled = True


@tf_export("debugging.disable_traceback_filtering", partial=_NO_FILTERING)
def disable_traceback_filtering():
    """Turns TF's traceback filtering off in this thread."""
    _TRACEBACK.enabled = False


@tf_export("debugging.is_traceback_filtering_enabled")
def is_traceback_filtering_enabled():
    """Whether TF's traceback filtering is on in this thread (True unless disabled)."""
    return getattr(_TRACEBACK, "enabled", True)


@tf_export("debugging.assert_proper_iterable")
def assert_proper_iterable(values):
    """Raises TypeError if `values` is a tensor, array or string, or not iterable."""
    bad = (Tensor, _sparse.SparseTensor, np.ndarray, bytes, str)
    if isinstance(values, bad) or not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: {type(values)}')


@tf_export("debugging.assert_same_float_dtype")
def assert_same_float_dtype(tensors=None, dtype=None):
    """The common floating dtype of `tensors` (and `dtype`); float32 when there is none."""
    if tensors:
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
        first = None
        for t in tensors:
            if t is None:
                continue
            if dtype is None:
                dtype, first = t.dtype, t
            elif t.dtype != dtype:
                raise ValueError(f"{t!s}, type={t.dtype}, must be of the same type ({dtype})"
                                 f"{f' as {first!s}' if first is not None else ''}.")
    if dtype is None:
        return dtypes.float32
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


@tf_export("debugging.is_numeric_tensor")
def is_numeric_tensor(tensor):
    """True for a tensor of a numeric (integer, floating or complex) dtype."""
    return isinstance(tensor, Tensor) and (tensor.dtype.is_integer or tensor.dtype.is_floating or
                                           tensor.dtype.is_complex or tensor.dtype.is_quantized)
