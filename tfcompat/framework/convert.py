"""Conversion of Python, NumPy and torch values to tensors, with TF's dtype inference.

TF's rules: Python `int` -> int32 (int64 when out of range), `float` -> float32,
`bool` -> bool, `complex` -> complex128, `str`/`bytes` -> string; NumPy values
keep their dtype; a requested `dtype` is strict for Python values ("Cannot
convert 1.5 to EagerTensor of dtype int32") and a cast for NumPy values.
"""
import itertools
import numbers

import numpy as np
import torch

from tfcompat.framework import context, dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import EagerTensor, Tensor, _wrap

_INT32_MIN, _INT32_MAX = -2 ** 31, 2 ** 31 - 1
_PY_SCALARS = (int, float, bool, complex)


def _nested_shape(value):
    """The shape of a nested list/tuple/array value, or None when its rows differ in length (ragged)."""
    if isinstance(value, np.ndarray):
        return value.shape
    if not isinstance(value, (list, tuple)):
        return ()
    inner = None
    for v in value:
        shape = _nested_shape(v)
        if shape is None or (inner is not None and shape != inner):
            return None
        inner = shape
    return (len(value),) + (inner or ())


def _np_of_python(value):
    """A NumPy array for a (nested) Python value, with TF's default dtypes."""
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) or _is_variable(v) for v in value):
        value = [v.numpy() if isinstance(v, Tensor) or _is_variable(v) else v for v in value]
    elif isinstance(value, (list, tuple)) and not _leaves_are_strings(value):
        target = _mixed_list_dtype(value)
        if target is not None:
            return _mixed_list_array(value, target)
    if isinstance(value, (str, bytes)) or (isinstance(value, (list, tuple)) and _leaves_are_strings(value)):
        return _object_strings(value)
    try:
        arr = np.array(value)
    except (ValueError, OverflowError):
        if _nested_shape(value) is None:
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.") from None
    kind = arr.dtype.kind
    if kind == "O":
        if _all_strings(arr):
            return _string_array(arr)
        if any(v is None for v in arr.flat):
            if arr.ndim == 0:
                raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                                 f"({type(value)}) to a Tensor.")
            if arr.flat[0] is None:     # TF's sequence conversion types the first leaf first
                raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                                 "Tensor.")
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        if all(isinstance(v, numbers.Integral) for v in arr.flat):
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        if type(value).__name__ == "RaggedTensor" and type(value).__module__.startswith("tfcompat."):
            # TF's conversion of a RaggedTensor fails inside its sequence check, and says so
            raise ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) to a Tensor.")
    if kind in "SU":
        if _has_non_string_leaf(value):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        return _string_array(arr)
    if _from_python_only(value):
        if kind == "f":
            with np.errstate(over="ignore"):
                out = arr.astype(np.float32)
            if out.size and bool((np.isinf(out) & np.isfinite(arr)).any()):
                raise ValueError("Can't convert Python sequence with a value out of range for a double-precision "
                                 "float.")
            return out
        if kind == "i" and arr.dtype == np.int64:
            if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX):
                return arr.astype(np.int32)
            return arr
        if kind == "u":   # Python ints beyond int64
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    return arr


def _leaves(value, out):
    """The leaves of a nested list in order (a NumPy array counts as one leaf)."""
    if isinstance(value, (list, tuple)):
        for v in value:
            _leaves(v, out)
    else:
        out.append(value)
    return out


_PYTHON_NUMBERS = frozenset([int, float])
_INTS = frozenset([int])
_F32_MAX = float(np.finfo(np.float32).max)
_NUMBER_TYPES = frozenset([int, float, list, tuple])
_SEQUENCES = frozenset([list, tuple])


def _python_numbers(value):
    """A Python int or float, or a flat list or matrix of them, as TF converts it (int32, float32) when its values are in
    range: the common `tf.constant(3)`, `x * [1., 2.]`; None leaves the value to the general rules (bools, NumPy
    leaves, nesting, nan, int64 values, float32 overflow). Python's min/max skip a nan that is not first."""
    tv = type(value)
    if tv is int:
        return np.array(value, np.int32) if _INT32_MIN <= value <= _INT32_MAX else None
    if tv is float:
        return np.array(value, np.float32) if -_F32_MAX <= value <= _F32_MAX else None
    if (tv is not list and tv is not tuple) or not value:
        return None
    leaves = value
    types = set(map(type, value))
    if types <= _SEQUENCES:          # a matrix: rows of one length
        width = len(value[0])
        if not width or any(len(row) != width for row in value):
            return None
        leaves = list(itertools.chain.from_iterable(value))
        types = set(map(type, leaves))
    if types == _INTS:
        return np.array(value, np.int32) if _INT32_MIN <= min(leaves) and max(leaves) <= _INT32_MAX else None
    if float in types and types <= _PYTHON_NUMBERS and -_F32_MAX <= min(leaves) and max(leaves) <= _F32_MAX:
        return np.array(value, np.float32)
    return None


def _leaf_types(value, out):
    """The exact types of a nested list's leaves (lists and tuples recursed into)."""
    types = set(map(type, value))
    nested = types & {list, tuple}
    out |= types - nested
    if nested:
        for v in value:
            if type(v) is list or type(v) is tuple:
                _leaf_types(v, out)
    return out


def _is_bool(v):
    return isinstance(v, (bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype.kind == "b")


def _mixed_list_dtype(value):
    """TF's inference for a list whose first leaf is a bool or that holds NumPy scalars/arrays among numbers:
    after a bool only bools may follow (else TF's mixed-types ValueError); otherwise the first float leaf fixes
    the dtype (a Python float: float32, a NumPy float: its own) and NumPy ints count as Python ints. None when the
    default inference applies (Python numbers only, strings, complex)."""
    if _leaf_types(value, set()) <= _PYTHON_NUMBERS:
        return None                      # the common case, decided by C-speed type scans
    leaves = _leaves(value, [])
    if not leaves or any(isinstance(v, Tensor) or _is_variable(v) for v in leaves):
        return None
    if _is_bool(leaves[0]):
        if not all(_is_bool(v) for v in leaves):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        return None
    if not any(isinstance(v, (np.generic, np.ndarray)) for v in leaves):
        return None
    for v in leaves:
        kind = v.dtype.kind if isinstance(v, (np.generic, np.ndarray)) else (
            "f" if isinstance(v, float) else "i" if isinstance(v, (int, bool)) else "?")
        if kind not in "fiub":
            return None
    for v in leaves:
        if isinstance(v, (np.floating, np.ndarray)) and v.dtype.kind == "f":
            return v.dtype
        if isinstance(v, float):
            return np.dtype(np.float32)
    return np.dtype(np.int64)


def _mixed_list_array(value, target):
    """`value` (numbers, see `_mixed_list_dtype`) as an array of `target` (int64 narrowed to int32 when it fits)."""
    try:
        arr = np.array(value, dtype=np.float64 if target.kind == "f" else np.int64)
    except (ValueError, OverflowError):
        return np.array(value)
    if target.kind == "i":
        return arr.astype(np.int32) if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX) else arr
    with np.errstate(over="ignore"):
        out = arr.astype(target)
    if out.size and bool((np.isinf(out) & np.isfinite(arr)).any()):
        raise ValueError("Can't convert Python sequence with a value out of range for a double-precision float.")
    return out


def _from_python_only(value):
    """True when the value's leaves are Python scalars (so TF's Python defaults apply)."""
    if isinstance(value, (list, tuple)):
        if not value:
            return True
        first = value[0]
        return _from_python_only(first) and all(
            not isinstance(v, (np.generic, np.ndarray)) for v in value)
    return isinstance(value, _PY_SCALARS) or not isinstance(value, (np.generic, np.ndarray))


def _has_non_string_leaf(value):
    """True when a nested list mixes strings with other leaves (numbers, bools, lists among strings)."""
    if isinstance(value, (list, tuple)):
        return any(_has_non_string_leaf(v) for v in value)
    return not isinstance(value, (str, bytes, np.ndarray, np.str_, np.bytes_))


def _leaves_are_strings(value):
    if isinstance(value, (list, tuple)):
        return bool(value) and all(_leaves_are_strings(v) for v in value)
    return isinstance(value, (str, bytes))


def _object_strings(value):
    """A nested list of str/bytes as an object array of bytes (no NumPy S/U round trip: keeps NUL bytes)."""
    def enc(v):
        if isinstance(v, (list, tuple)):
            return [enc(x) for x in v]
        return v.encode("utf-8") if isinstance(v, str) else bytes(v)
    encoded = enc(value)
    shape = []
    level = encoded
    while isinstance(level, list):
        shape.append(len(level))
        level = level[0] if level else None
    out = np.empty(shape, dtype=object)
    try:
        out[...] = encoded if shape else None
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if not shape:
        out[()] = encoded
    elif not all(type(v) is bytes for v in out.flat):     # a list where a string was expected
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    return out


def _all_strings(arr):
    return all(isinstance(v, (str, bytes)) for v in arr.flat)


def _string_array(arr):
    out = np.empty(arr.shape, dtype=object)
    flat_in = arr.reshape(-1) if arr.ndim else [arr[()]]
    flat_out = out.reshape(-1) if out.ndim else None
    encoded = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in flat_in]
    if flat_out is None:
        out[()] = encoded[0]
    else:
        flat_out[:] = encoded
    return out


def _is_variable(v):
    return hasattr(v, "_read") and hasattr(v, "_t") and not isinstance(v, Tensor)


_C_TYPE = {"float32": "float", "float64": "double", "float16": "half"}     # TF names the C type in this message


def _cannot_convert(value, dtype):
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {_C_TYPE.get(dtype.name, dtype.name)}")


def _python_to_array(value, dtype):
    """Python value -> NumPy array of `dtype`, with TF's strictness."""
    if value is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                         "Tensor.")
    if dtype is dtypes.string:
        arr = _np_of_python(value)
        if arr.dtype != object:
            if arr.size == 0:      # an empty list takes any dtype
                return np.empty(arr.shape, dtype=object)
            raise _cannot_convert(value, dtype)
        return arr
    try:
        arr = np.array(value)
    except (ValueError, OverflowError):
        arr = _np_of_python(value)     # raises TF's message
    kind = arr.dtype.kind
    if dtype.is_integer and kind in "uOf":
        ints = _python_ints(value)
        if ints is not None:
            return _wrapped_ints(ints, dtype, arr.shape)
    if kind == "b" and dtype not in _BOOL_TARGETS:
        raise _cannot_convert(value, dtype)
    if dtype.is_bool and isinstance(value, (list, tuple)):
        _mixed_list_dtype(value)          # [True, 1] as bool: TF's mixed-types ValueError
    if arr.size == 0 and kind in "fiubc":      # an empty list has no element type: it takes any dtype
        return arr.astype(np.float32 if dtype is dtypes.bfloat16 else dtype.as_numpy_dtype)
    if kind in "SU" and _has_non_string_leaf(value):
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if kind in "SUO":
        if kind == "O" and arr.size and all(isinstance(v, numbers.Number) for v in arr.flat):
            pass
        else:
            raise _cannot_convert(value, dtype)
    if dtype.is_integer and kind in "fc":
        raise _cannot_convert(value, dtype)
    if dtype.is_floating and kind == "c":
        raise _cannot_convert(value, dtype)
    if dtype.is_bool and kind != "b":
        raise _cannot_convert(value, dtype)
    if dtype.is_integer and kind in "iu":
        # TF wraps Python ints into the narrower type
        with np.errstate(over="ignore"):
            return arr.astype(np.int64 if kind == "i" else arr.dtype).astype(dtype.as_numpy_dtype)
    if kind in "uOf" and dtype in (dtypes.bfloat16, dtypes.complex64):    # TF converts these ints through int64
        ints = _python_ints(value)
        if ints is not None and any(not -2 ** 63 <= v < 2 ** 63 for v in ints):
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    with np.errstate(over="ignore"):      # a Python float beyond the dtype's range is inf there, as in TF
        return arr.astype(np.float32 if dtype is dtypes.bfloat16 else dtype.as_numpy_dtype)


# dtypes a Python bool converts to (TF's "Cannot convert True to EagerTensor of dtype int8" for the others)
_BOOL_TARGETS = frozenset([dtypes.bool, dtypes.int32, dtypes.int64, dtypes.uint64, dtypes.float16, dtypes.float32,
                           dtypes.float64, dtypes.complex128])


def _python_ints(value):
    """The leaves of a nested list of Python ints (bools excluded), or None when there are other leaves."""
    out = []

    def walk(v):
        if isinstance(v, (list, tuple)):
            return all(walk(x) for x in v)
        if type(v) is int:
            out.append(v)
            return True
        return False
    return out if walk(value) else None


def _wrapped_ints(ints, dtype, shape):
    """Python ints (some beyond int64, or mixed with ones that are) as `dtype`, wrapped as TF wraps them; beyond
    int64 (uint64: beyond its range) TF refuses them."""
    hi = 2 ** 64 if dtype is dtypes.uint64 else 2 ** 63
    if any(not -2 ** 63 <= v < hi for v in ints):
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    bits = dtype.size * 8
    return np.array([v % (1 << bits) for v in ints], dtype=f"uint{bits}").view(dtype.as_numpy_dtype).reshape(shape)


def _array_to_storage(arr, dtype, device):
    """A NumPy array (TF dtype `dtype`) -> torch tensor on `device` (string: object array)."""
    if dtype is dtypes.string:
        return arr
    if dtype is dtypes.bfloat16:
        return torch.from_numpy(np.asarray(arr, dtype=np.float32, order="C")).to(device=device, dtype=torch.bfloat16)
    tdt = dtype.torch_dtype
    if not arr.flags.writeable or not arr.flags.c_contiguous or arr.dtype.byteorder == ">":
        arr = np.array(arr, dtype=arr.dtype.newbyteorder("=") if arr.dtype.byteorder == ">" else arr.dtype)
    t = torch.from_numpy(arr)
    if t.dtype != tdt:
        t = t.to(tdt)
    if device.type != "cpu":
        t = t.to(device)
    return t


def to_storage(value, dtype=None, strict=True, copy_numpy=False):
    """The storage (torch tensor or string array) of `value` as a tensor of `dtype`.

    `strict=False` is TF's `dtype_hint`: fall back to the inferred dtype when
    `value` cannot be converted to `dtype`.
    """
    if dtype is None and type(value) in _NUMBER_TYPES:
        arr = _python_numbers(value)
        if arr is not None:
            device = context.current_device()
            return torch.from_numpy(arr) if device.type == "cpu" else torch.from_numpy(arr).to(device)
    if isinstance(value, Tensor):
        t = value._t
        if dtype is not None and strict and _dtype_of(t) is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{_dtype_of(t).name}: {value!r}")
        return t
    if _is_variable(value):
        t = value._read()
        if dtype is not None and strict and _dtype_of(t) is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{_dtype_of(t).name}: {value!r}")
        return t
    device = context.current_device()
    if isinstance(value, torch.Tensor):
        t = value
        if dtype is not None and t.dtype != dtype.torch_dtype:
            t = t.to(dtype.torch_dtype)
        return t
    if hasattr(value, "__tf_tensor__"):
        return to_storage(value.__tf_tensor__(dtype, None), dtype, strict)
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if arr.dtype.kind in "SUO":
            if dtype not in (None, dtypes.string):
                raise _cannot_convert(value, dtype)
            return _string_array(arr)
        if dtype is None:
            dtype = dtypes.as_dtype(arr.dtype)
            if dtype.torch_dtype is None:
                raise TypeError(f"tfcompat cannot store {arr.dtype} arrays")
        elif dtype is not dtypes.string:
            if dtype is not dtypes.bfloat16:
                arr = arr.astype(dtype.as_numpy_dtype, copy=False)
        if copy_numpy and arr is value:
            arr = arr.copy()
        return _array_to_storage(arr, dtype, device)
    if hasattr(value, "__array__") and not isinstance(value, (list, tuple)):
        return to_storage(np.asarray(value), dtype, strict)
    if type(value) in _SEQUENCES and _has_tensor_leaf(value):
        packed = _autopack(value, dtype)
        if packed is not None:
            return packed
    if dtype is None:
        arr = _np_of_python(value)
        return _array_to_storage(arr, dtypes.string if arr.dtype == object else dtypes.as_dtype(arr.dtype), device)
    try:
        arr = _python_to_array(value, dtype)
    except (TypeError, ValueError):
        if strict:
            raise
        arr = _np_of_python(value)
        return _array_to_storage(arr, dtypes.string if arr.dtype == object else dtypes.as_dtype(arr.dtype), device)
    return _array_to_storage(arr, dtype, device)


def _dtype_of(t):
    return dtypes.FROM_STORAGE[t.dtype]


_PLAIN_LEAVES = frozenset([int, float, bool, str, bytes])


def _has_tensor_leaf(value):
    """Whether a (nested) list or tuple holds a tensor or a variable (TF then packs it: `_autopacking_conversion`)."""
    if _PLAIN_LEAVES.issuperset(map(type, value)):
        return False
    for e in value:
        if type(e) in _SEQUENCES:
            if _has_tensor_leaf(e):
                return True
        elif isinstance(e, Tensor) or _is_variable(e):
            return True
    return False


def _first_tensor_dtype(value):
    for e in value:
        if type(e) in _SEQUENCES:
            d = _first_tensor_dtype(e)
            if d is not None:
                return d
        elif isinstance(e, Tensor) or _is_variable(e):
            return e.dtype
    return None


def _autopack(value, dtype):
    """TF's conversion of a (nested) list holding tensors: a `Pack` of its elements in the dtype of its first tensor
    (or `dtype`, to which tensors are then cast), Python and NumPy leaves converted to it. Stacking the tensors'
    storages keeps them differentiable (a tape sees `tf.reduce_sum([x, y])` reach `x` and `y`) and traceable. None
    leaves a value this path does not take (strings, empty rows, graph or composite leaves) to the general rules."""
    target = _first_tensor_dtype(value) if dtype is None else dtype
    if target is None or target is dtypes.string or target.torch_dtype is None:
        return None
    return _pack(value, target, dtype is not None)


def _pack(value, target, cast):
    if not value:
        return None
    parts = []
    for i, e in enumerate(value):
        if type(e) in _SEQUENCES:
            t = _pack(e, target, cast)
            if t is None:
                return None
        elif isinstance(e, Tensor) or _is_variable(e):
            t = e._read() if _is_variable(e) else e._t
            if not isinstance(t, torch.Tensor):
                return None
            if t.dtype is not target.torch_dtype:
                if not cast:
                    have = _dtype_of(t).name
                    raise errors.op_error(
                        errors.InvalidArgumentError,
                        f"cannot compute Pack as input #{i}(zero-based) was expected to be a "
                        f"{_C_TYPE.get(target.name, target.name)} tensor but is a {_C_TYPE.get(have, have)} tensor",
                        "Pack", "packed")
                t = t.to(target.torch_dtype)
        elif e is None:
            raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                             "Tensor.")
        elif isinstance(e, (int, float, bool, complex, np.ndarray, np.generic)):
            t = to_storage(e, target)
        else:
            return None
        parts.append(t)
    first = parts[0]
    for i, t in enumerate(parts):
        if t.shape != first.shape:
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"Shapes of all inputs must match: values[0].shape = {list(first.shape)} != "
                                  f"values[{i}].shape = {list(t.shape)}".replace(", ", ","), "Pack")
        if t.device != first.device:
            parts[i] = t.to(first.device)
    return torch.stack(parts)


@tf_export("convert_to_tensor")
def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Converts `value` to a `tf.Tensor` (a tensor is returned as is)."""
    if type(value) is EagerTensor and dtype is None:
        return value
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        return _wrap(to_storage(value, dtype, strict=True))
    if dtype_hint is not None:
        return _wrap(to_storage(value, dtypes.as_dtype(dtype_hint), strict=False))
    if _is_indexed_slices(value):
        return value._dense()
    return _wrap(to_storage(value))


def _is_indexed_slices(value):
    return type(value).__name__ == "IndexedSlices" and hasattr(value, "_dense")


@tf_export("constant")
def constant(value, dtype=None, shape=None, name="Const"):
    """Creates a constant tensor from a tensor-like value (`shape` broadcasts a scalar or reshapes)."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, Tensor) or _is_variable(value):
        src = value if isinstance(value, Tensor) else value.read_value()
        if dtype is not None and src.dtype is not dtype:
            raise TypeError(f"Expected tensor {_short(src)} with dtype {dtype!r}, but got dtype {src.dtype!r}.")
        t = src._t
    else:
        t = to_storage(value, dtype, strict=True, copy_numpy=True)
    if shape is not None:
        shape = tuple(int(d) for d in (shape if isinstance(shape, (list, tuple)) else list(shape)))
        n = int(np.prod(shape)) if shape else 1
        size = t.numel() if isinstance(t, torch.Tensor) else t.size
        if size == n:
            t = t.reshape(shape)
        elif size == 1:
            t = t.reshape(()).expand(shape).clone() if isinstance(t, torch.Tensor) else np.full(shape, t.reshape(())[()], dtype=object)
        else:
            arr = t.numpy() if isinstance(t, torch.Tensor) else t
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {arr} "
                            f"(converted from {value!r}) has {size} elements, but got `shape` {shape} with {n} elements).")
    return _wrap(t)


def _short(t):
    a = t._array()
    return str(a[()] if a.ndim == 0 else a)


# cache of 0-d operand tensors for Python scalars (torch's own scalar path is slow)
_SCALARS = {}
_CPU = torch.device("cpu")


def scalar(value, torch_dtype):
    """A cached 0-d CPU tensor holding a Python scalar, for use as an op operand (never handed to users).

    0-d CPU tensors combine with tensors on any device in torch's elementwise ops.
    """
    key = (value, type(value), torch_dtype)
    t = _SCALARS.get(key)
    if t is None:
        try:
            t = torch.scalar_tensor(value, dtype=torch_dtype)
        except (RuntimeError, OverflowError):     # beyond the dtype's range: inf there, as TF converts it
            dt = dtypes.FROM_STORAGE[torch_dtype]
            return _array_to_storage(_python_to_array(value, dt), dt, _CPU)
        if value != value or value == 0:    # nan and -0.0 are not safe dict keys
            return t
        if len(_SCALARS) > 4096:
            _SCALARS.clear()
        _SCALARS[key] = t
    return t
