"""What tf.io's ops share: TF's eager kernel errors, string tensors, NumPy arrays as tensors, C type names."""
import threading

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.tensor import EagerTensor, storage, wrap, wrap_as
from tfcompat.framework.tensor_shape import TensorShape

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


# While tf.data finds a map function's element spec by running it on one element, `spec_probe.dynamic` is a dict
# {id(tensor): (tensor, known axes)} of the results whose shapes TF's shape inference leaves (partly) unknown (a
# decoded image's height and width): a function output that is one of them gets those dimensions unknown in the spec,
# as in TF's trace.
spec_probe = threading.local()


def data_dependent(t, known=()):
    """`t`, an op's result whose dimensions other than the axes `known` depend on the input's values (unknown to TF's
    shape inference; `known=None`: its rank too); noted while tf.data probes a function's output spec."""
    dynamic = getattr(spec_probe, "dynamic", None)
    if dynamic is not None:
        probed = wrap_as(ProbedTensor, storage(t))
        dynamic[id(probed)] = (probed, known)
        return probed
    return t


class ProbedTensor(EagerTensor):
    """A `data_dependent` result while tf.data probes a spec: `set_shape` records the dimensions it makes known."""

    __slots__ = ()

    def set_shape(self, shape):
        super().set_shape(shape)
        dynamic = getattr(spec_probe, "dynamic", None)
        shape = TensorShape(shape)
        if dynamic is not None and id(self) in dynamic and shape.rank is not None:
            known = set(dynamic[id(self)][1] or ()) | {i for i, d in enumerate(shape.as_list()) if d is not None}
            dynamic[id(self)] = (self, tuple(known))


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
