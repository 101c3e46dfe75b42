"""TF's auto dtype conversion lattice (`dtype_conversion_mode="all"|"safe"`): the result dtype and weakness of two
operands, as one promotion table, and how a value's dtype and weakness are inferred."""
import enum

import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable


class PromoMode(enum.Enum):
    """TF's `ops.PromoMode`: how far implicit promotion goes (its str is TF's, e.g. `PromoMode.SAFE`)."""
    OFF = 0
    LEGACY = 1
    SAFE = 2
    ALL = 3


# Row x column -> result in ALL mode, read from TF 2.21 for every pair. "*" marks a weak dtype (a Python scalar's,
# or a result only weak operands made), "!" a promotion SAFE mode refuses. string meets only string.
_COLUMNS = "b u8 u16 u32 u64 i8 i16 i32 i64 bf16 f16 f32 f64 c64 c128 i32* i64* f32* f64* c128*".split()
_TABLE = (
    "b     b      u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i32*   i64*   f32*   f64*   c128*",
    "u8    u8     u8     u16    u32    u64    i16!   i16    i32    i64    bf16   f16    f32    f64    c64    c128   u8     u8     f64*!  f64*   c128*",
    "u16   u16    u16    u16    u32    u64    i32!   i32!   i32    i64    bf16!  f16!   f32    f64    c64    c128   u16    u16    f64*!  f64*   c128*",
    "u32   u32    u32    u32    u32    u64    i64!   i64!   i64!   i64    bf16!  f16!   f32!   f64    c64!   c128   u32    u32    f64*!  f64*   c128*",
    "u64   u64    u64    u64    u64    u64    f64*!  f64*!  f64*!  f64*!  bf16!  f16!   f32!   f64!   c64!   c128!  u64    u64    f64*!  f64*!  c128*!",
    "i8    i8     i16!   i32!   i64!   f64*!  i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i8     i8     f64*!  f64*   c128*",
    "i16   i16    i16    i32!   i64!   f64*!  i16    i16    i32    i64    bf16!  f16!   f32    f64    c64    c128   i16    i16    f64*!  f64*   c128*",
    "i32   i32    i32    i32    i64!   f64*!  i32    i32    i32    i64    bf16!  f16!   f32!   f64    c64!   c128   i32    i32    f64*!  f64*   c128*",
    "i64   i64    i64    i64    i64    f64*!  i64    i64    i64    i64    bf16!  f16!   f32!   f64!   c64!   c128!  i64    i64    f64*!  f64*!  c128*!",
    "bf16  bf16   bf16   bf16!  bf16!  bf16!  bf16   bf16!  bf16!  bf16!  bf16   f32!   f32    f64    c64    c128   bf16   bf16   bf16   bf16   c64!",
    "f16   f16    f16    f16!   f16!   f16!   f16    f16!   f16!   f16!   f32!   f16    f32    f64    c64    c128   f16    f16    f16    f16    c64!",
    "f32   f32    f32    f32    f32!   f32!   f32    f32    f32!   f32!   f32    f32    f32    f64    c64    c128   f32    f32    f32    f32    c64!",
    "f64   f64    f64    f64    f64    f64!   f64    f64    f64    f64!   f64    f64    f64    f64    c128!  c128   f64    f64    f64    f64    c128",
    "c64   c64    c64    c64    c64!   c64!   c64    c64    c64!   c64!   c64    c64    c64    c128!  c64    c128   c64    c64    c64    c64    c64",
    "c128  c128   c128   c128   c128   c128!  c128   c128   c128   c128!  c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128",
    "i32*  i32*   u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i32*   i64*   f32*   f64*   c128*",
    "i64*  i64*   u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i64*   i64*   f32*   f64*   c128*",
    "f32*  f32*   f64*!  f64*!  f64*!  f64*!  f64*!  f64*!  f64*!  f64*!  bf16   f16    f32    f64    c64    c128   f32*   f32*   f32*   f64*   c128*",
    "f64*  f64*   f64*   f64*   f64*   f64*!  f64*   f64*   f64*   f64*!  bf16   f16    f32    f64    c64    c128   f64*   f64*   f64*   f64*   c128*",
    "c128* c128*  c128*  c128*  c128*  c128*! c128*  c128*  c128*  c128*! c64!   c64!   c64!   c128   c64    c128   c128*  c128*  c128*  c128*  c128*",
)
_NAMES = {"b": dtypes.bool, "u8": dtypes.uint8, "u16": dtypes.uint16, "u32": dtypes.uint32, "u64": dtypes.uint64,
          "i8": dtypes.int8, "i16": dtypes.int16, "i32": dtypes.int32, "i64": dtypes.int64, "bf16": dtypes.bfloat16,
          "f16": dtypes.float16, "f32": dtypes.float32, "f64": dtypes.float64, "c64": dtypes.complex64,
          "c128": dtypes.complex128}
WEAK_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.complex128)


def _key(code):
    return _NAMES[code.rstrip("*")], code.endswith("*")


def _build():
    table = {}
    for line in _TABLE:
        row, *cells = line.split()
        table[_key(row)] = {_key(col): (_key(cell.rstrip("!")), cell.endswith("!"))
                            for col, cell in zip(_COLUMNS, cells)}
    string = (dtypes.string, False)
    table[string] = {string: (string, False)}
    return table


_PROMOTE = _build()          # (dtype, weak) -> (dtype, weak) -> ((dtype, weak), refused in SAFE mode)
_INT32 = np.iinfo(np.int32)


def dtype_and_weakness(x, weak_type):
    """`(DType, is_weak)` of one operand, as TF infers it: Python scalars are weak (ints must fit int32), tensors,
    variables, NumPy values and dtypes strong; `weak_type` is the class of weak tensors."""
    if type(x) is weak_type:
        return x.dtype, True
    if isinstance(x, dtypes.DType):
        return x, False
    if isinstance(x, (Tensor, Variable, IndexedSlices)):
        return x.dtype.base_dtype, False
    if isinstance(x, (np.ndarray, np.generic)):
        return dtypes.as_dtype(x.dtype), False
    if isinstance(x, (bytes, str)):
        return dtypes.string, False
    if isinstance(x, bool) or x is bool:
        return dtypes.bool, False
    if isinstance(x, int):
        if not _INT32.min <= x <= _INT32.max:
            raise OverflowError(f"Python int {x} too large to convert to np.int32")
        return dtypes.int32, True
    if x is int:
        return dtypes.int32, True
    if isinstance(x, float) or x is float:
        return dtypes.float32, True
    if isinstance(x, complex) or x is complex:
        return dtypes.complex128, True
    if isinstance(x, TensorShape):
        return dtypes.int32, False
    if isinstance(x, np.dtype) or (isinstance(x, type) and issubclass(x, np.generic)):
        try:
            return dtypes.as_dtype(x), False
        except TypeError:
            raise NotImplementedError(f"Auto dtype conversion semantics does not support {x}. Try using a NumPy "
                                      "built-in dtype objects or cast them explicitly.") from None
    raise NotImplementedError(f"Auto dtype conversion semantics does not support {type(x)} type.")


def _flatten(values, out):
    for v in values:
        if isinstance(v, (list, tuple)):
            _flatten(v, out)
        elif v is not None:
            out.append(v)
    return out


def result_type(mode, weak_type, *values):
    """`(DType, is_weak)` of an op over `values` (nested lists flattened, None dropped) in PromoMode `mode`.

    TypeError where SAFE mode refuses a promotion; NotImplementedError for values the lattice does not cover (callers
    fall back to TF's old conversion, as TF does)."""
    keys = [dtype_and_weakness(v, weak_type) for v in _flatten(values, [])] or [(dtypes.float32, True)]
    res = keys[0]
    for arg in keys[1:]:
        try:
            nxt, all_only = _PROMOTE[res][arg]
        except KeyError:
            raise NotImplementedError(f"Implicit Conversion between {res[0]} and {arg[0]} is not allowed. Please "
                                      "convert the input manually if you need to.") from None
        if all_only and mode is PromoMode.SAFE:
            raise TypeError(f"In promotion mode {mode}, implicit dtype promotion between ({res[0]}, weak={res[1]}) "
                            f"and ({arg[0]}, weak={arg[1]}) is disallowed. You need to explicitly specify the dtype "
                            "in your op, or relax your dtype promotion rules (such as from SAFE mode to ALL mode).")
        res = nxt
    return res
