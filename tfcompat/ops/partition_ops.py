"""`tf.dynamic_partition` and `tf.dynamic_stitch`: splitting a tensor's slices into lists by index, and merging
them back."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, storage, wrap

_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _kernel_error(message, op, wrapped, name=None):
    """TF's eager kernel error: the wrapped function (named with the op's list attrs) and `[Op:<op>]`."""
    return errors.op_error(errors.InvalidArgumentError,
                           f"{{{{function_node __wrapped__{wrapped}_device_{_DEVICE}}}}} {message}", op, name)


def _rows(values, count, inner):
    """`values` as `count` slices of shape `inner` (a NumPy object array for strings)."""
    return values.reshape((count,) + inner)


@tf_export("dynamic_partition")
def dynamic_partition(data, partitions, num_partitions, name=None):
    """`num_partitions` tensors: the i-th holds, in order, the slices of `data` whose `partitions` entry is i."""
    data = data if isinstance(data, Tensor) else convert_to_tensor(data)
    p = storage(convert_to_tensor(partitions, dtype=dtypes.int32))
    n = int(num_partitions)
    if n < 1:
        raise errors.op_error(
            errors.InvalidArgumentError, f"Value for attr 'num_partitions' of {n} must be at least minimum 1\n\t; "
            "NodeDef: {{node DynamicPartition}}; Op<name=DynamicPartition; signature=data:T, partitions:int32 -> "
            "outputs:num_partitions*T; attr=num_partitions:int,min=1; attr=T:type>", "DynamicPartition", None)
    wrapped = f"DynamicPartition_num_partitions_{n}"
    shape = tuple(data.shape)
    if shape[:p.dim()] != tuple(p.shape):
        raise _kernel_error(f"data.shape must start with partitions.shape, got data.shape = {_dims(shape)}, "
                            f"partitions.shape = {_dims(p.shape)}", "DynamicPartition", wrapped)
    bad = ((p < 0) | (p >= n)).nonzero()
    if bad.shape[0]:
        at = tuple(bad[0].tolist())
        raise _kernel_error(f"partitions{_dims(at) if at else ''} = {int(p[at])} is not in [0, {n})",
                            "DynamicPartition", wrapped)
    flat = p.reshape(-1)
    rows = _rows(storage(data), flat.shape[0], shape[p.dim():])
    if isinstance(rows, np.ndarray):
        flat = flat.numpy()
    return [wrap(rows[flat == i]) for i in range(n)]


@tf_export("dynamic_stitch")
def dynamic_stitch(indices, data, name=None):
    """One tensor whose slice `indices[m][i]` is `data[m][i]` (later entries win; unset slices are zeros)."""
    if len(indices) != len(data):
        raise ValueError(f"List argument 'data' to 'dynamic_stitch' Op with length {len(data)} must match length "
                         f"{len(indices)} of argument 'indices'.")
    if not indices:
        raise errors.op_error(
            errors.InvalidArgumentError, "OpKernel 'DynamicStitch' has constraint on attr 'T' not in NodeDef "
            "'[N=0]', KernelDef: 'goo.gle/debugonly  op: \"DynamicStitch\" device_type: \"CPU\" constraint { name: "
            "\"T\" allowed_values { list { type: DT_QINT32 } } } host_memory_arg: \"indices\"'", "DynamicStitch")
    idx = [storage(convert_to_tensor(i, dtype=dtypes.int32)) for i in indices]
    first = data[0] if isinstance(data[0], Tensor) else convert_to_tensor(data[0])
    vals = [first] + [convert_to_tensor(d, dtype=first.dtype) for d in data[1:]]
    wrapped = f"DynamicStitch_N_{len(idx)}"
    inner = None
    for m, (i, v) in enumerate(zip(idx, vals)):
        shape = tuple(v.shape)
        if shape[:i.dim()] != tuple(i.shape):
            raise _kernel_error(f"data[{m}].shape = {_dims(shape)} does not start with indices[{m}].shape = "
                                f"{_dims(i.shape)}", "DynamicStitch", wrapped)
        if inner is None:
            inner = shape[i.dim():]
        elif shape[i.dim():] != inner:
            raise _kernel_error(
                f"Need data[0].shape[{idx[0].dim()}:] = data[{m}].shape[{i.dim()}:], got data[0].shape = "
                f"{_dims(vals[0].shape)}, data[{m}].shape = {_dims(shape)}, indices[0].shape = {_dims(idx[0].shape)}, "
                f"indices[{m}].shape = {_dims(i.shape)}", "DynamicStitch", wrapped)
        if i.numel() and int(i.min()) < 0:
            raise _kernel_error(f"indices[{m}] is out of range", "DynamicStitch", wrapped)
    size = max((int(i.max()) + 1 for i in idx if i.numel()), default=0)
    parts = [storage(v) for v in vals]
    strings = isinstance(parts[0], np.ndarray)
    out = np.full((size,) + inner, b"", dtype=object) if strings else torch.zeros((size,) + inner,
                                                                                   dtype=parts[0].dtype)
    for i, v in zip(idx, parts):
        flat = i.reshape(-1).numpy()
        last = len(flat) - 1 - np.unique(flat[::-1], return_index=True)[1]   # a repeated index: the later slice
        rows = _rows(v, len(flat), inner)[last if strings else torch.from_numpy(last)]
        out[flat[last] if strings else torch.from_numpy(flat[last]).long()] = rows
    return wrap(out)
