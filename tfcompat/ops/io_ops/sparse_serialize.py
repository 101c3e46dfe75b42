"""`tf.io.serialize_sparse`, `serialize_many_sparse`, `deserialize_many_sparse`: a SparseTensor as three serialized
`TensorProto`s (indices, values, dense shape) written as TF's SerializeSparse writes them (`tensor_content`, string
values as TF's length-prefixed string list)."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import storage, wrap
from tfcompat.ops.io_ops import example_wire
from tfcompat.ops.io_ops._common import c_name, kernel_error
from tfcompat.ops.io_ops.tensor_proto import parse_tensor
from tfcompat.ops.string_ops import _strings
from tfcompat.util.proto_wire import length_delimited, varint




def _proto(dtype, array):
    """A TensorProto of `array` (NumPy; an object array of bytes for strings) with its values in tensor_content."""
    shape = b"".join(length_delimited(2, varint(1 << 3) + varint(d) if d else b"") for d in array.shape)
    out = varint(1 << 3) + varint(dtype.as_datatype_enum) + length_delimited(2, shape)
    if array.size:
        if dtype == dtypes.string:
            items = array.reshape(-1).tolist()
            content = b"".join(varint(len(s)) for s in items) + b"".join(items)
        else:
            content = np.ascontiguousarray(array).tobytes()
        out += length_delimited(4, content)
    return out


def _check_sparse(sp_input):
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")


def _parts(sp):
    vals = storage(sp.values)
    vals = vals if isinstance(vals, np.ndarray) else vals.detach().cpu().numpy()
    return storage(sp.indices).cpu().numpy(), vals, storage(sp.dense_shape).cpu().numpy()


def _row(indices, values, shape, dtype):
    out = np.empty(3, dtype=object)
    out[:] = [_proto(dtypes.int64, indices), _proto(dtype, values), _proto(dtypes.int64, shape)]
    return out


@tf_export("io.serialize_sparse", unsupported=("out_type",))
def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """The 3-vector of serialized TensorProtos (indices, values, dense_shape) of a SparseTensor."""
    _check_sparse(sp_input)
    indices, values, shape = _parts(sp_input)
    return wrap(_row(indices, values, shape, sp_input.dtype))


@tf_export("io.serialize_many_sparse", unsupported=("out_type",))
def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """An [N, 3] string tensor: row i serializes the SparseTensor of minibatch entry i (the first dimension
    removed from its indices and shape)."""
    _check_sparse(sp_input)
    indices, values, shape = _parts(sp_input)
    op = "SerializeManySparse"
    if len(shape) <= 1:
        raise kernel_error(errors.InvalidArgumentError, f"Rank of input SparseTensor should be > 1, but saw rank: "
                           f"{len(shape)}", op, name="")
    n = int(shape[0])
    out = np.empty((n, 3), dtype=object)
    for b in range(n):
        sel = indices[:, 0] == b
        out[b] = _row(indices[sel][:, 1:], values[sel], shape[1:], sp_input.dtype)
    return wrap(out)


def _read_proto(data, dtype, op):
    """The array of a serialized TensorProto (tensor_content of strings read as TF's string list)."""
    s = example_wire._Stream(data)
    got, shape, content, other = None, [], None, False
    while not s.at_end():
        tag = s.varint(32)
        if tag == 0x08:
            got = s.varint(64)
        elif tag == 0x12:
            sub = s.limited(s.varint(32) or 0)
            while not sub.at_end():
                if sub.varint(32) != 0x12:
                    return None
                dim = sub.limited(sub.varint(32) or 0)
                size = 0
                while not dim.at_end():
                    t = dim.varint(32)
                    if t == 0x08:
                        size = dim.varint(64)
                    elif t != 0x12 or example_wire._string(dim) is None:      # a dim's name
                        return None
                shape.append(size)
        elif tag == 0x22:
            content = example_wire._string(s)
        else:
            other = True
            break
    if other or content is None:
        t = parse_tensor(wrap(np.array(data, dtype=object)), dtype)
        st = storage(t)
        return st if isinstance(st, np.ndarray) else st.numpy()
    n = int(np.prod(shape)) if shape else 1
    if dtype == dtypes.string:
        c = example_wire._Stream(content)
        lengths = [c.varint(64) for _ in range(n)]
        items = []
        for ln in lengths:
            item = None if ln is None else c.take(ln)
            if item is None:
                return None
            items.append(item)
        arr = np.empty(n, dtype=object)
        arr[:] = items
        return arr.reshape(shape)
    if got != dtype.as_datatype_enum:
        return None
    return np.frombuffer(content, dtype=dtype.as_numpy_dtype).reshape(shape).copy()


@tf_export("io.deserialize_many_sparse")
def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensor of an [N, 3] string tensor of serialized SparseTensors (a new first dimension of size N;
    the other dimensions the largest of the entries'); a 3-vector gives its SparseTensor as is."""
    op = "DeserializeManySparse"
    dtype = dtypes.as_dtype(dtype)
    arr = _strings(serialized_sparse, op)
    if arr.ndim < 1 or arr.shape[-1] != 3:
        raise kernel_error(errors.InvalidArgumentError, f"Serialized sparse should have 3 as the last dimension "
                           f"[{','.join(map(str, arr.shape))}]", op, name="")
    rows = arr.reshape(-1, 3)
    parts = []
    for i, (ri, rv, rs) in enumerate(rows):
        got = _proto_dtype_of(rv)
        if got is not None and got != dtype.as_datatype_enum:
            have = next((d for d in dtypes.ALL if d.as_datatype_enum == got), None)
            raise kernel_error(errors.InvalidArgumentError, f"Requested SparseTensor of type {c_name(dtype)} but "
                               f"SparseTensor[{i}].values.dtype() == {c_name(have) if have else got}", op, name="")
        values = _read_proto(rv, dtype, op)
        indices, shape = _read_proto(ri, dtypes.int64, op), _read_proto(rs, dtypes.int64, op)
        if values is None or indices is None or shape is None:
            raise kernel_error(errors.InvalidArgumentError, f"Could not parse serialized_sparse[{i}, 0]", op, name="")
        parts.append((indices.reshape(-1, len(shape)), values.reshape(-1), shape))
    if arr.ndim == 1:
        indices, values, shape = parts[0]
        out_idx, out_shape = indices, shape
    else:
        rank0 = len(parts[0][2]) if parts else 0
        for i, (_, _, shape) in enumerate(parts):
            if len(shape) != rank0:
                raise kernel_error(errors.InvalidArgumentError, f"Inconsistent shape across SparseTensors: rank prior "
                                   f"to SparseTensor[{i}] was: {rank0} but rank of SparseTensor[{i}] is: "
                                   f"{len(shape)}", op, name="")
        out_idx = np.concatenate([np.concatenate([np.full((len(ix), 1), b, np.int64), ix], axis=1)
                                  for b, (ix, _, _) in enumerate(parts)]) if parts else np.zeros((0, 1), np.int64)
        values = np.concatenate([v for _, v, _ in parts]) if parts else np.empty(0, dtype.as_numpy_dtype)
        dims = np.max(np.stack([s for _, _, s in parts]), axis=0) if parts else np.zeros(0, np.int64)
        out_shape = np.concatenate([[len(parts)], dims]).astype(np.int64)
    if rank is not None and out_idx.shape[1] != int(rank):
        raise ValueError(f"Tensor's shape {tuple(out_idx.shape)} is not compatible with supplied shape "
                         f"(None, {int(rank)}).")
    vals = wrap(values.astype(object)) if dtype == dtypes.string else wrap(torch.from_numpy(
        np.ascontiguousarray(values, dtype=dtype.as_numpy_dtype)))
    return SparseTensor(wrap(torch.from_numpy(np.ascontiguousarray(out_idx, dtype=np.int64))), vals,
                        wrap(torch.from_numpy(np.ascontiguousarray(out_shape, dtype=np.int64))))


def _proto_dtype_of(data):
    s = example_wire._Stream(data)
    if s.expect(0x08):
        return s.varint(64)
    return None
