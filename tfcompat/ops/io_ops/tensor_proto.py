"""Tensor serialization: `tf.io.serialize_tensor`, `tf.io.parse_tensor` (TF's `TensorProto` bytes) and `tf.make_ndarray`."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops.io_ops._common import c_name, data_dependent, kernel_error, string_scalar, wrap_np
from tfcompat.ops.string_ops import _strings

_VAL_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
               "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val", "bool": "bool_val",
               "float16": "half_val", "bfloat16": "half_val", "uint32": "uint32_val", "uint64": "uint64_val",
               "complex64": "scomplex_val", "complex128": "dcomplex_val"}


@tf_export("io.serialize_tensor")
def serialize_tensor(tensor, name=None):
    """A `TensorProto` of `tensor` serialized to a scalar string (TF's bytes)."""
    from tensorboard.compat.proto import tensor_pb2
    t = tensor if isinstance(tensor, Tensor) else wrap(to_storage(tensor))
    proto = tensor_pb2.TensorProto(dtype=t.dtype.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    for d in t.shape.as_list():
        proto.tensor_shape.dim.add(size=d)
    data = storage(t)
    if t.dtype == dtypes.string:
        proto.string_val.extend(data.reshape(-1).tolist())
    else:
        flat = data.detach().cpu().contiguous().reshape(-1)
        proto.tensor_content = flat.view(torch.uint8).numpy().tobytes()
    return string_scalar(proto.SerializeToString())


@tf_export("io.parse_tensor")
def parse_tensor(serialized, out_type, name=None):
    """The tensor of a serialized `TensorProto`; its dtype must be `out_type` (its shape is the data's: unknown to
    TF's shape inference)."""
    return data_dependent(_parse_tensor(serialized, out_type), None)


def _parse_tensor(serialized, out_type):
    from tensorboard.compat.proto import tensor_pb2
    import base64
    data = _strings(serialized, "ParseTensor")[()]
    proto = tensor_pb2.TensorProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # noqa: BLE001 - protobuf's decode errors vary by implementation
        raise kernel_error(errors.InvalidArgumentError, "Could not parse `serialized` as TensorProto, base64: "
                            f"{base64.b64encode(data).decode()}", "ParseTensor") from None
    want = dtypes.as_dtype(out_type)
    shape = tuple(d.size for d in proto.tensor_shape.dim)
    n = 1
    for d in shape:
        n *= d
    if min(shape, default=0) < 0 or n >= 1 << 63:
        raise kernel_error(errors.InvalidArgumentError, "Could not parse `serialized` as TensorProto, base64: "
                            f"{base64.b64encode(data).decode()}", "ParseTensor", name=None)
    got = _proto_dtype(proto, n)
    if got is None:
        raise kernel_error(errors.InvalidArgumentError, "Cannot parse tensor from proto: goo.gle/debugproto  \n"
                            f"{proto}", "ParseTensor", name=None)
    if got != want:
        raise kernel_error(errors.InvalidArgumentError, f"Type mismatch between parsed tensor ({c_name(got)}) and "
                            f"dtype ({c_name(want)})", "ParseTensor", name="")
    if want == dtypes.string:
        if proto.tensor_content:                   # TF's string list: n varint lengths, then the bytes
            items = _string_list(proto.tensor_content, n)
            if items is None:
                raise kernel_error(errors.InvalidArgumentError, "Cannot parse tensor from proto: goo.gle/debugstr    "
                                   f"\n{proto}", "ParseTensor", name=None)
            arr = np.empty(n, dtype=object)
            arr[:] = items
            return wrap_np(arr.reshape(shape), want)
        return wrap_np(_filled(list(proto.string_val), n, object).reshape(shape), want)
    torch_dt = want._torch
    if proto.tensor_content:
        flat = torch.frombuffer(bytearray(proto.tensor_content), dtype=torch.uint8).view(torch_dt)
        return wrap(flat.reshape(shape))
    vals = list(getattr(proto, _VAL_FIELDS[want.name]))
    if want.name in ("float16", "bfloat16"):
        raw = torch.tensor(_filled(vals, n, np.int64).astype(np.int16), dtype=torch.int16)
        return wrap(raw.view(torch_dt).reshape(shape))
    if want.is_complex:
        vals = [complex(a, b) for a, b in zip(vals[0::2], vals[1::2])]
    return wrap(torch.from_numpy(_filled(vals, n, want.as_numpy_dtype)).reshape(shape))


def _proto_dtype(proto, n):
    """The DType of a `TensorProto` holding `n` elements, or None when TF cannot make a tensor of it (invalid
    dtype, `tensor_content` of the wrong size, more values than elements)."""
    try:
        dt = dtypes.as_dtype(proto.dtype) if proto.dtype else None
    except (TypeError, ValueError):
        return None
    if dt is None or (dt != dtypes.string and dt.name not in _VAL_FIELDS):
        return None
    if dt == dtypes.string:
        return dt if len(proto.string_val) <= n else None
    if proto.tensor_content:
        return dt if len(proto.tensor_content) == n * dt.size else None
    count = len(getattr(proto, _VAL_FIELDS[dt.name])) // (2 if dt.is_complex else 1)
    return dt if count <= n else None


def _string_list(content, n):
    """The n strings of a string tensor's `tensor_content` (TF's EncodeStringList), or None if malformed."""
    lengths, pos = [], 0
    for _ in range(n):
        value, shift = 0, 0
        while True:
            if pos >= len(content) or shift > 63:
                return None
            b = content[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        lengths.append(value)
    if pos + sum(lengths) != len(content):
        return None
    out = []
    for ln in lengths:
        out.append(bytes(content[pos:pos + ln]))
        pos += ln
    return out


def _filled(vals, n, np_dtype):
    """TF's compact repeated values: fewer than `n` values repeat the last one."""
    out = np.empty(n, dtype=np_dtype)
    if n:
        k = len(vals)
        out[:k] = vals[:n]
        if k < n:
            out[k:] = vals[-1] if k else 0
    return out



@tf_export("make_ndarray")
def make_ndarray(tensor):
    """The NumPy array of a `TensorProto` (as `tf.make_ndarray`: its dtype and shape; strings as bytes objects)."""
    from tensorboard.compat.proto import tensor_pb2
    if not isinstance(tensor, tensor_pb2.TensorProto):
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute 'tensor_shape'")
    dtype = dtypes.as_dtype(tensor.dtype)
    value = parse_tensor(tensor.SerializeToString(), dtype).numpy()
    return np.asarray(value, dtype=object if dtype == dtypes.string else None)
