"""What tf.io's ops share: TF's eager kernel errors, string tensors, NumPy arrays as tensors, C type names."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.tensor import wrap

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def kernel_error(cls, message, op, function=None, name=None):
    """TF's eager kernel error: `{{function_node __wrapped__<function>_device_<cpu>}} <message> [Op:<op>]`."""
    return errors.op_error(cls, f"{{{{function_node __wrapped__{function or op}_device_{_CPU}}}}} {message}", op, name)


def string_scalar(value):
    """A scalar `tf.string` tensor holding `value` (bytes)."""
    out = np.empty((), dtype=object)
    out[()] = value
    return wrap(out)


def string_vector(values):
    """A vector `tf.string` tensor of `values` (bytes)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return wrap(out)


def np_array(value, dt):
    """`value` as a NumPy array of DType `dt` (an object array of bytes for `tf.string`)."""
    if dt == dtypes.string:
        arr = np.asarray(value, dtype=object)
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr) \
            if arr.size else arr
    return np.asarray(value, dtype=dt.as_numpy_dtype)


def wrap_np(arr, dt):
    """A tensor of DType `dt` holding NumPy array `arr`."""
    if dt == dtypes.string:
        return wrap(np.asarray(arr, dtype=object))
    return wrap(torch.from_numpy(np.ascontiguousarray(arr, dtype=dt.as_numpy_dtype)).reshape(arr.shape))


def c_name(dt):
    """The C type name TF's kernel messages use for `dt` (float, double, half, int32, ...)."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dt.name, dt.name)
