"""Argument handling shared by `tf.signal`: inputs with TF's preferred dtypes, integer scalars, TF's error texts."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.op_def import input_storage, kernel_error
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable

FLOAT_REAL = (torch.float32, torch.float64)
COMPLEX = (torch.complex64, torch.complex128)
REAL_OF = {torch.complex64: torch.float32, torch.complex128: torch.float64}
COMPLEX_OF = {torch.float32: torch.complex64, torch.float64: torch.complex128}


def storage_of(x, preferred=None):
    """Storage of an op input: tensors keep their dtype; other values (arrays too) try `preferred` first (TF's hint)."""
    if isinstance(x, (Tensor, Variable, torch.Tensor)):
        return input_storage(x)
    return input_storage(to_storage(x, preferred, strict=False) if preferred is not None else x)


def rank_at_least(t, rank):
    """TF's static shape check `shape.with_rank_at_least(rank)` (ValueError)."""
    if t.ndim < rank:
        raise ValueError(f"Shape {TensorShape(list(t.shape))} must have rank at least {rank}")


def int_scalar(value, what):
    """A Python int from an int32 scalar argument (TF's conversion: floats raise TypeError, rank must be 0)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    t = storage_of(value)
    if isinstance(t, np.ndarray) or (not isinstance(value, (Tensor, Variable)) and t.dtype.is_floating_point):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int32")
    if t.ndim != 0:
        raise ValueError(f"Shape {TensorShape(list(t.shape))} must have rank 0")
    if t.dtype.is_floating_point or t.dtype.is_complex or t.dtype is torch.bool:
        raise TypeError(f"{what} must be an integer. Got {dtypes.FROM_STORAGE[t.dtype]}")
    return int(t)


def range_error(start, limit):
    """TF's Range kernel error, raised where TF's Python builds `tf.range(start, limit)` with limit < start."""
    if isinstance(start, float):
        start, limit = (np.format_float_positional(np.float32(v), trim="-") for v in (start, limit))
    return kernel_error(errors.InvalidArgumentError,
                        f"Requires start <= limit when delta > 0: {start}/{limit}", "Range")


def float_dtype(dtype, found="Found"):
    """`dtype` as a floating tf.DType, or TF's ValueError for the window and mel functions."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. {found} {dtype}")
    return dtype
