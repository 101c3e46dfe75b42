"""`tf.dtypes`: TF's `DType` objects and their torch and NumPy counterparts.

Every tfcompat tensor holds a `torch.Tensor` (or, for `tf.string`, a NumPy
object array of `bytes`); `DType` maps TF's names and enums onto those storage
types. tfcompat never promotes dtypes implicitly, exactly as TF.
"""
import numpy as np
import torch

from tfcompat.framework.export import tf_export


@tf_export("dtypes.DType", "DType")
class DType:
    """A TF element type (`tf.float32`, `tf.int32`, ...)."""

    __slots__ = ("_name", "_enum", "_np", "_torch", "_kind", "_size")

    def __new__(cls, type_enum, *args):
        if args:
            return object.__new__(cls)
        return as_dtype(type_enum)       # tf.DType(1) is tf.float32, as in TF

    def __init__(self, name, enum=None, np_type=None, torch_dtype=None, kind=None, size=None):
        if enum is None:
            return
        self._name = name
        self._enum = enum
        self._np = np_type
        self._torch = torch_dtype
        self._kind = kind          # 'f' float, 'i' signed, 'u' unsigned, 'c' complex, 'b' bool, 's' string, 'q' quantized, 'o' other
        self._size = size

    # -- identity -----------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def as_datatype_enum(self):
        return self._enum

    @property
    def base_dtype(self):
        return self

    @property
    def as_numpy_dtype(self):
        if self._np is None:
            raise TypeError(f"{self!r} has no NumPy equivalent")
        return self._np

    @property
    def torch_dtype(self):
        """tfcompat's addition: the `torch.dtype` that stores this type."""
        if self._torch is None:
            raise NotImplementedError(f"tfcompat has no torch storage for {self!r} tensors")
        return self._torch

    @property
    def size(self):
        return self._size

    @property
    def real_dtype(self):
        if self is complex64:
            return float32
        if self is complex128:
            return float64
        return self

    # -- classification -----------------------------------------------------
    @property
    def is_floating(self):
        return self._kind == "f"

    @property
    def is_integer(self):
        return self._kind in "iu"

    @property
    def is_unsigned(self):
        return self._kind == "u"

    @property
    def is_complex(self):
        return self._kind == "c"

    @property
    def is_bool(self):
        return self._kind == "b"

    @property
    def is_quantized(self):
        return self._kind == "q"

    @property
    def is_numeric(self):
        return self._kind in "fiucq"

    @property
    def is_numpy_compatible(self):
        return self._kind not in "qo"

    @property
    def min(self):
        if self._kind == "f":
            return self._finfo().min
        if self._kind in "iu":
            return self._iinfo().min
        raise TypeError(f"Cannot find minimum value of {self} with type {self}.")

    @property
    def max(self):
        if self._kind == "f":
            return self._finfo().max
        if self._kind in "iu":
            return self._iinfo().max
        raise TypeError(f"Cannot find maximum value of {self} with type {self}.")

    @property
    def limits(self, clip_negative=True):
        """TF's image value range of the type: (0, 1) for floats, the full range for ints."""
        if self._kind in "iu":
            info = self._iinfo()
            return (0 if clip_negative else info.min), info.max
        if self._kind == "b":
            return (0 if clip_negative else False), True
        return (0 if clip_negative else -1), 1

    def _finfo(self):
        if self is bfloat16:
            info = torch.finfo(torch.bfloat16)
            return _Info(np.float32(info.min), np.float32(info.max))
        return np.finfo(self._np)

    def _iinfo(self):
        return np.iinfo(self._np)

    def is_compatible_with(self, other):
        return self == as_dtype(other)

    def is_subtype_of(self, other):
        return self == other

    def most_specific_common_supertype(self, others):
        return self if all(self == o for o in others) else None

    # -- Python protocol ----------------------------------------------------
    def __eq__(self, other):
        if other is self:
            return True
        if other is None:
            return False
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return self._enum

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return f"<dtype: '{self._name}'>"

    def __reduce__(self):
        return as_dtype, (self._name,)


class _Info:
    def __init__(self, lo, hi):
        self.min, self.max = lo, hi


def _make(name, enum, np_type, torch_dtype, kind, size):
    d = DType(name, enum, np_type, torch_dtype, kind, size)
    tf_export("dtypes." + name, name)(d)
    return d


def _torch(name):
    return getattr(torch, name, None)


float16 = _make("float16", 19, np.float16, torch.float16, "f", 2)
half = float16
float32 = _make("float32", 1, np.float32, torch.float32, "f", 4)
float64 = _make("float64", 2, np.float64, torch.float64, "f", 8)
double = float64
bfloat16 = _make("bfloat16", 14, None, torch.bfloat16, "f", 2)
int8 = _make("int8", 6, np.int8, torch.int8, "i", 1)
int16 = _make("int16", 5, np.int16, torch.int16, "i", 2)
int32 = _make("int32", 3, np.int32, torch.int32, "i", 4)
int64 = _make("int64", 9, np.int64, torch.int64, "i", 8)
uint8 = _make("uint8", 4, np.uint8, torch.uint8, "u", 1)
uint16 = _make("uint16", 17, np.uint16, _torch("uint16"), "u", 2)
uint32 = _make("uint32", 22, np.uint32, _torch("uint32"), "u", 4)
uint64 = _make("uint64", 23, np.uint64, _torch("uint64"), "u", 8)
bool = _make("bool", 10, np.bool_, torch.bool, "b", 1)  # noqa: A001 - TF's name
complex64 = _make("complex64", 8, np.complex64, torch.complex64, "c", 8)
complex128 = _make("complex128", 18, np.complex128, torch.complex128, "c", 16)
string = _make("string", 7, object, None, "s", 0)
qint8 = _make("qint8", 11, None, None, "q", 1)
quint8 = _make("quint8", 12, None, None, "q", 1)
qint16 = _make("qint16", 15, None, None, "q", 2)
quint16 = _make("quint16", 16, None, None, "q", 2)
qint32 = _make("qint32", 13, None, None, "q", 4)
resource = _make("resource", 20, None, None, "o", 8)
variant = _make("variant", 21, None, None, "o", 8)
tf_export("dtypes.half", "half")(half)
tf_export("dtypes.double", "double")(double)

ALL = [float16, float32, float64, bfloat16, int8, int16, int32, int64, uint8, uint16,
       uint32, uint64, bool, complex64, complex128, string, qint8, quint8, qint16,
       quint16, qint32, resource, variant]
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, double=float64, float=float32)
_BY_ENUM = {d.as_datatype_enum: d for d in ALL}
# storage dtype (torch.dtype, or NumPy's object dtype for strings) -> DType
FROM_STORAGE = {d._torch: d for d in ALL if d._torch is not None}
FROM_STORAGE[np.dtype(object)] = string
_BY_NP = {np.dtype(d._np): d for d in ALL if d._np is not None and d is not string}
_BY_NP[np.dtype(object)] = string
for _c in "SU":
    _BY_NP[_c] = string


@tf_export("dtypes.as_dtype", "as_dtype")
def as_dtype(type_value):
    """Converts a DType, name, NumPy type, torch dtype or enum to a `tf.DType`."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        d = _BY_NAME.get(type_value)
        if d is not None:
            return d
    elif isinstance(type_value, int) and not isinstance(type_value, (np.generic,)):
        if type_value in _BY_ENUM and not isinstance(type_value, builtins_bool):
            return _BY_ENUM[type_value]
    elif isinstance(type_value, torch.dtype):
        d = FROM_STORAGE.get(type_value)
        if d is not None:
            return d
    elif type_value is builtins_float:
        return float32
    elif type_value is builtins_bool:
        return bool
    if type_value is not None and not any(type_value is t for t in _NOT_TYPES) and not isinstance(type_value, str):
        try:
            npd = np.dtype(type_value)
        except (TypeError, ValueError):
            npd = None
        if npd is not None:
            d = _BY_NP.get(npd) or _BY_NP.get(npd.kind)
            if d is not None:
                return d
    raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType.")


import builtins as _builtins  # noqa: E402
builtins_bool, builtins_int, builtins_float = _builtins.bool, _builtins.int, _builtins.float
builtins_complex, builtins_str = _builtins.complex, _builtins.str
_NOT_TYPES = (builtins_int, builtins_complex, builtins_str, bytes)     # Python types TF does not map

FLOATING = frozenset([float16, bfloat16, float32, float64])
INTEGER = frozenset([int8, int16, int32, int64, uint8, uint16, uint32, uint64])
COMPLEX = frozenset([complex64, complex128])
NUMERIC = FLOATING | INTEGER | COMPLEX
REAL = FLOATING | INTEGER


def division_result(dtype):
    """The dtype of TF's `/` (truediv) on `dtype`: ints become floats as TF does."""
    if dtype in (int8, int16, uint8, uint16):
        return float32
    if dtype in (int32, int64, uint32, uint64):
        return float64
    return dtype


DType.__module__ = "tensorflow.python.framework.dtypes"     # TF's class path in `type(tf.float32)`'s text
