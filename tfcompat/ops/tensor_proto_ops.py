"""`tf.make_tensor_proto`: a `TensorProto` of a Python/NumPy value or tensor, built as TF's `tensor_util` builds it
(what TF Serving clients send): TF's dtype inference (float64 -> float32 and int64 -> int32 when no dtype is given),
`tensor_content` bytes for multi-element numeric tensors of the value's own size, the typed `*_val` fields otherwise
(a scalar filling a larger `shape`), `string_val` for strings."""
import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import Dimension
from tfcompat.framework.variables import Variable

_CONTENT = frozenset(["float16", "float32", "float64", "int32", "uint8", "int16", "int8", "int64", "uint32", "uint64",
                      "bfloat16"])
_FIELD = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val", "int8": "int_val",
          "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
          "uint64": "uint64_val", "bool": "bool_val", "complex64": "scomplex_val", "complex128": "dcomplex_val",
          "float16": "half_val", "bfloat16": "half_val"}
_INT = (int, np.integer, Dimension)
_REAL = (int, float, np.integer, np.floating)
_CHECKS = {"bool": (bool, np.bool_), "string": (bytes, str, np.bytes_, np.str_)}


def _flat(values):
    if isinstance(values, (list, tuple)):
        for v in values:
            yield from _flat(v)
    else:
        yield values


def _dense_dims(values):
    if not isinstance(values, (list, tuple)):
        return []
    if not values:
        return [0]
    return [len(values)] + _dense_dims(values[0])


def _expected(dtype):
    if dtype.name in _CHECKS:
        return _CHECKS[dtype.name]
    if dtype.is_integer:
        return _INT
    if dtype.is_floating:
        return _REAL
    if dtype.is_complex:
        return _REAL + (complex, np.complexfloating)
    return None


def _check(values, dtype):
    """TF's `_AssertCompatible`: every leaf of a Python value fits `dtype` (TypeError naming the first that does
    not); without a dtype only tensors are refused."""
    want = _expected(dtype) if dtype is not None else None
    for v in _flat(values):
        if dtype is None:
            if isinstance(v, (Tensor, Variable)):
                raise TypeError("Expected any non-tensor type, but got a tensor instead.")
        elif want is not None and not (isinstance(v, want) or (isinstance(v, np.ndarray)
                                                                and issubclass(v.dtype.type, want))):
            raise TypeError(f"Expected {dtype.name}, but got {v} of type '{type(v).__name__}'.")


def _array_like(obj):
    if callable(getattr(obj, "__array__", None)) or isinstance(getattr(obj, "__array_interface__", None), dict):
        return True
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


@tf_export("make_tensor_proto")
def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A `TensorProto` holding `values` (of `dtype` and `shape` when given)."""
    from tensorboard.compat.proto import tensor_pb2
    if allow_broadcast and verify_shape:
        raise ValueError("allow_broadcast and verify_shape are not both allowed.")
    if isinstance(values, tensor_pb2.TensorProto):
        return values
    if dtype:
        dtype = dtypes.as_dtype(dtype)
    if _array_like(values):
        values = np.asarray(values)
    if isinstance(values, (np.ndarray, np.generic)):
        nparray = values.astype(dtype.as_numpy_dtype) if dtype and dtype.is_numpy_compatible else values
    else:
        if values is None:
            raise ValueError("None values not supported.")
        np_dt = dtype.as_numpy_dtype if dtype and dtype.is_numpy_compatible else None
        if shape is not None and np.prod(shape, dtype=np.int64) == 0:
            nparray = np.empty(shape, dtype=np_dt)
        else:
            _check(values, dtype)
            nparray = np.array(values, np_dt)
            if list(nparray.shape) != _dense_dims(values):
                raise ValueError(f"Expected values {values} to be a dense tensor with shape {_dense_dims(values)}, but "
                                 f"got shape {list(nparray.shape)}.")
        if nparray.dtype == np.float64 and dtype is None:
            nparray = nparray.astype(np.float32)
        elif nparray.dtype == np.int64 and dtype is None:
            down = nparray.astype(np.int32)
            if np.array_equal(down, nparray):
                nparray = down
    try:
        value_dtype = dtypes.as_dtype(nparray.dtype)
    except TypeError:
        raise TypeError(f"Unrecognized data type: {nparray.dtype}.") from None
    if dtype is not None and dtype.base_dtype != value_dtype.base_dtype:
        raise TypeError(f"`dtype` {dtype} is not compatible with {values} of dtype {nparray.dtype}.")
    if shape is None:
        shape = nparray.shape
        same_size, size = True, nparray.size
    else:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape, dtype=np.int64))
        same_size = size == nparray.size
        if allow_broadcast:
            if nparray.shape not in ((1,), ()) and nparray.size != size:
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {nparray.shape}.")
        else:
            if verify_shape and nparray.shape != tuple(shape):
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {nparray.shape}.")
            if nparray.size > size:
                raise ValueError(f"Too many elements provided. Takes at most {size:d}, but got {nparray.size:d}.")
    proto = tensor_pb2.TensorProto(dtype=value_dtype.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    for d in shape:
        proto.tensor_shape.dim.add(size=d)
    name = value_dtype.name
    if same_size and name in _CONTENT and size > 1:
        if nparray.size * nparray.itemsize >= (1 << 31):
            raise ValueError("Cannot create a tensor proto whose content is larger than 2GB.")
        proto.tensor_content = nparray.tobytes()
        return proto
    if name == "string":
        leaves = list(_flat(values)) if not isinstance(values, np.ndarray) else nparray.ravel().tolist()
        try:
            proto.string_val.extend([x.encode() if isinstance(x, str) else bytes(x) for x in leaves])
        except TypeError:
            raise TypeError(f"Failed to convert elements of {values} to Tensor. Consider casting elements to a "
                            "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                            "TF dtypes.") from None
        return proto
    flat = nparray.ravel()
    field = _FIELD.get(name)
    if field is None:
        raise TypeError(f"Element type not supported in TensorProto: {name}.")
    if name in ("float16", "bfloat16"):
        vals = flat.view(np.uint16).tolist()
    elif name in ("complex64", "complex128"):
        vals = [x for c in flat.tolist() for x in (c.real, c.imag)]
    else:
        vals = flat.tolist()
    getattr(proto, field).extend(vals)
    return proto
