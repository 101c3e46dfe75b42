"""Helpers the preprocessing layers share: adapt() data as NumPy batches, float inputs, config values."""

import numpy as np
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import Tensor, storage

_EPSILON = 1e-7


def validate_string_arg(value, allowed, caller, arg):
    """Keras's `argument_validation.validate_string_arg`: `value` one of the `allowed` tuple, else its ValueError."""
    if not (isinstance(value, str) and value in allowed):
        raise ValueError(f"Unknown value for `{arg}` argument of {caller}. Allowed values are: {allowed}. "
                         f"Received: {arg}={value}")


def _batches(data):
    """`data` (array, tensor, tf.data.Dataset or iterable of batches) as a list of NumPy batches."""
    if isinstance(data, (np.ndarray, Tensor, list)) and not (
            isinstance(data, list) and data and isinstance(data[0], (np.ndarray, Tensor))):
        return [_numpy(data)]
    out = []
    for batch in data:
        if isinstance(batch, tuple):
            batch = batch[0]
        out.append(_numpy(batch))
    if not out:
        raise ValueError("adapt() received an empty iterable (no batches). Expected at least one batch.")
    return out


def _numpy(x):
    if isinstance(x, Tensor):
        t = storage(x)
        return t if isinstance(t, np.ndarray) else t.cpu().numpy()
    return np.asarray(x)


def _float_input(layer, inputs):
    x = input_storage(inputs)
    dtype = getattr(torch, layer.compute_dtype)
    return x if x.dtype is dtype else x.to(dtype)



def _listify(v):
    return np.asarray(v).tolist() if isinstance(v, np.ndarray) else v


def _check_image_args(data_format, kwargs_name="layer"):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"tfcompat: {kwargs_name}(data_format={data_format!r}) is not supported")
