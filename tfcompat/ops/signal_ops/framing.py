"""`tf.signal.frame` (overlapping frames of one axis, optional end padding) and `tf.signal.overlap_and_add`."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import kernel_error, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.signal_ops._common import int_scalar, range_error, rank_at_least, storage_of


def frame_args(frame_length, frame_step):
    """(frame_length, frame_step) as ints, with TF's errors for float or zero arguments."""
    if type(frame_length) is int and type(frame_step) is int and frame_length >= 0 and frame_step > 0:
        return frame_length, frame_step
    for v in (frame_length, frame_step):
        if isinstance(v, float):
            raise errors.op_error(errors.InvalidArgumentError, "cannot compute FloorDiv as input #1(zero-based) was "
                                  "expected to be a float tensor but is a int32 tensor", "FloorDiv")
    length, step = int_scalar(frame_length, "frame_length"), int_scalar(frame_step, "frame_step")
    if step == 0:
        raise kernel_error(errors.InvalidArgumentError, "Integer division by zero", "FloorDiv")
    if length < 0:
        raise range_error(0, length)
    return length, step


def frames_of(t, length, step, pad_end=False, pad_value=0, axis=-1):
    """Storage of the frames of storage `t` along `axis`: shape [..., num_frames, length, ...]."""
    rank_at_least(t, 1)
    if not -t.ndim <= axis < t.ndim:
        raise IndexError("list index out of range")
    axis %= t.ndim
    n = t.shape[axis]
    if pad_end:
        frames = max(0, -(-n // step))
        pad = max(0, length + step * (frames - 1) - n)
        if pad:
            t = _pad_axis(t, axis, pad, pad_value)
    else:
        frames = max(0, 1 + (n - length) // step)
    if isinstance(t, np.ndarray) or length == 0 or frames == 0:
        index = (np.arange(frames)[:, None] * step + np.arange(length)[None, :]).reshape(-1)
        shape = list(t.shape[:axis]) + [frames, length] + list(t.shape[axis + 1:])
        if isinstance(t, np.ndarray):
            return np.take(t, index, axis=axis).reshape(shape)
        return torch.index_select(t, axis, torch.as_tensor(index, device=t.device)).reshape(shape)
    out = t.unfold(axis, length, step)
    if out.shape[axis] != frames:
        out = out.narrow(axis, 0, frames)
    return out if axis == t.ndim - 1 else out.movedim(-1, axis + 1)


def _pad_axis(t, axis, pad, value):
    if isinstance(t, np.ndarray):
        widths = [(0, 0)] * t.ndim
        widths[axis] = (0, pad)
        return np.pad(t, widths, constant_values=value)
    shape = list(t.shape)
    shape[axis] = pad
    value = to_storage(value, dtypes.FROM_STORAGE[t.dtype])
    if value.ndim != 0:
        raise ValueError(f"Shape {TensorShape(list(value.shape))} must have rank 0")
    return torch.cat([t, value.to(t.device).expand(shape)], axis)


@tf_export("signal.frame")
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Frames of `frame_length` every `frame_step` samples along `axis`; pad_end pads with pad_value to cover the end."""
    t = storage_of(signal)
    length, step = frame_args(frame_length, frame_step)
    return wrap(frames_of(t, length, step, pad_end, pad_value, int_scalar(axis, "axis")))


def overlap_add(t, step):
    """Storage of the overlap-add of storage frames `t` [..., frames, frame_length] with hop `step`."""
    frames, length = t.shape[-2], t.shape[-1]
    outer = list(t.shape[:-2])
    if step == length:
        return t.reshape(outer + [frames * length])
    out_len = max(0, length + step * (frames - 1))
    index = (torch.arange(frames, device=t.device)[:, None] * step
             + torch.arange(length, device=t.device)[None, :]).reshape(-1)
    out = torch.zeros(outer + [out_len], dtype=t.dtype, device=t.device)
    return out.index_add(-1, index, t.reshape(outer + [frames * length]))


@tf_export("signal.overlap_and_add")
def overlap_and_add(signal, frame_step, name=None):
    """Sums frames [..., frames, frame_length] placed every `frame_step` samples: [..., (frames-1)*step + length]."""
    t = storage_of(signal)
    rank_at_least(t, 2)
    step_t = frame_step if isinstance(frame_step, int) else storage_of(frame_step)
    if not isinstance(step_t, int):
        if step_t.ndim != 0:
            raise ValueError(f"Shape {TensorShape(list(step_t.shape))} must have rank 0")
        if step_t.dtype.is_floating_point or step_t.dtype.is_complex or step_t.dtype is torch.bool:
            raise ValueError(f"frame_step must be an integer. Got {dtypes.FROM_STORAGE[step_t.dtype]}")
    step = int(step_t)
    if step <= 0:
        length = t.shape[-1]
        pad = -(-length // step) * step - length if step else -length
        raise kernel_error(errors.InvalidArgumentError, f"Paddings must be non-negative: 0 {pad}", "Pad", t)
    if isinstance(t, np.ndarray):
        raise errors.op_error(errors.InvalidArgumentError, "Value for attr 'T' of string is not in the list of "
                              "allowed values", "Sum")
    return wrap(overlap_add(t, step))
