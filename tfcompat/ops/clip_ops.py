"""TF's clipping ops: `tf.clip_by_value`, `clip_by_norm`, `clip_by_global_norm`."""
import collections

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.context import current_device
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, REAL, check_dtype, input_storage, wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops import reduction_ops
from tfcompat.ops._array_util import _dims, _fail, _matching

_UNSIGNED_WIDE = frozenset([torch.uint16, torch.uint32, torch.uint64])


@tf_export("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Elementwise `max(min(t, clip_value_max), clip_value_min)` with broadcasting; NaN stays NaN."""
    x, hi = _matching([t, clip_value_max], "Minimum", "")
    check_dtype(x, "Minimum", REAL)
    m, lo = _matching([wrap(x), clip_value_min], "Maximum", "")
    if x.dtype in _UNSIGNED_WIDE:        # torch cannot compare these: clip in int64 with the same order
        x, hi, lo = (reduction_ops._ordered(v) for v in (x, hi, lo))
        out = torch.maximum(torch.minimum(x, hi), lo)
        return wrap(reduction_ops._unordered(out, m.dtype))
    low = torch.where(x > hi, hi, x)            # TF's minimum/maximum send tie gradients to x and keep NaN
    out = torch.where(low < lo, lo, low)
    if out.is_floating_point():                 # a NaN bound gives NaN, as TF's minimum/maximum
        out = torch.where(torch.isnan(hi) | torch.isnan(lo), hi + lo, out)
    if out.shape != x.shape:
        raise _fail(f"Incompatible shapes: {_dims(x.shape)} vs. {_dims(out.shape)}", "Maximum")
    return wrap(out)


@tf_export("clip_by_norm")
def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescales `t` so that its L2 norm (over `axes`) is at most `clip_norm`."""
    x = input_storage(t)
    check_dtype(x, "Mul", FLOAT)
    if isinstance(clip_norm, (Tensor, Variable)) or not np.isscalar(clip_norm):
        c = torch.clamp(input_storage(clip_norm), min=0).to(x.dtype)        # TF: maximum(clip_norm, 0)
    else:
        c = input_storage(max(clip_norm, 0), dtypes.FROM_STORAGE[x.dtype])
    l2sum = storage(reduction_ops.reduce_sum(wrap(x * x), axes, keepdims=True))   # the axis errors are Sum's
    pos = l2sum > 0
    l2norm = torch.where(pos, torch.sqrt(torch.where(pos, l2sum, torch.ones_like(l2sum))), l2sum)
    return wrap(x * c / torch.maximum(l2norm, c))


def _global_norm(t_list):
    """sqrt(sum of squared L2 norms) of the tensors in `t_list` (None entries skipped)."""
    ts = [input_storage(v) for v in t_list if v is not None]
    if not ts:
        return wrap(torch.tensor(0.0, device=current_device()))
    return wrap(torch.sqrt(sum(torch.sum(v * v) for v in ts)))


@tf_export("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor by `clip_norm / max(global_norm, clip_norm)`; returns (list, global_norm)."""
    if isinstance(t_list, (Tensor, Variable)) or not isinstance(t_list, collections.abc.Iterable):
        raise TypeError("`t_list` should be a sequence of tensors. Received {}.".format(type(t_list)))
    t_list = list(t_list)
    norm = _global_norm(t_list) if use_norm is None else wrap(input_storage(use_norm))
    g = storage(norm)
    c = input_storage(clip_norm, dtypes.FROM_STORAGE[g.dtype]) if not isinstance(clip_norm, (Tensor, Variable)) \
        else input_storage(clip_norm)
    scale = c * torch.minimum(1.0 / g, 1.0 / c) + (g - g)
    out = []
    for v in t_list:
        if v is None:
            out.append(None)
            continue
        x = input_storage(v)
        out.append(wrap(x * scale.to(x.dtype)))
    return out, norm
