"""What the `tf.nn` op modules share: TF's error text, NHWC <-> channels-first layouts, TF's padding.

Activations are NHWC (channels last) as in TF. Convolutions and pools run torch
kernels on `channels_last` views of the NHWC data (`x.permute(0, 3, 1, 2)` of a
contiguous NHWC tensor is such a view, no copy) and permute the result back, so
the NHWC result is contiguous whenever torch returns channels_last output.
TF's SAME padding puts the odd extra cell at the end (bottom/right); torch pads
symmetrically, so asymmetric pads are applied explicitly with `F.pad`.
"""
import numpy as np
import torch.nn.functional as F

from tfcompat.framework import errors
from tfcompat.framework.op_def import FLOAT, int_list, unary_input
from tfcompat.framework.tensor import Tensor


def _op_error(msg, op):
    return errors.op_error(errors.InvalidArgumentError, msg, op)


def _float_input(x, op):
    return unary_input(x, op, FLOAT)


def _dims(t):
    return "[" + ",".join(str(d) for d in t.shape) + "]"


def _to_channels_first(t, nd, channels_last):
    """A channels-first view of `t` with 2 or 3 spatial axes (1-D data gets a unit height, as TF)."""
    if nd == 1:
        if channels_last:
            return t.unsqueeze(1).permute(0, 3, 1, 2)
        return t.unsqueeze(2)
    if not channels_last:
        return t
    if nd == 2:
        return t.permute(0, 3, 1, 2)
    return t.permute(0, 4, 1, 2, 3)


def _from_channels_first(y, nd, channels_last):
    if nd == 1:
        if channels_last:
            return y.permute(0, 2, 3, 1).squeeze(1)
        return y.squeeze(2)
    if not channels_last:
        return y
    if nd == 2:
        return y.permute(0, 2, 3, 1)
    return y.permute(0, 2, 3, 4, 1)


def _is_channels_last(data_format):
    return data_format is None or not str(data_format).startswith("NC")


def _spatial_list(value, nd, channels_last, name):
    """strides/dilations/ksize: an int, or a list of 1, nd or nd + 2 ints, as TF's `_get_sequence`."""
    if value is None:
        return [1] * nd
    if isinstance(value, (int, np.integer)):
        return [int(value)] * nd
    v = int_list(value)
    if len(v) == 1:
        return v * nd
    if len(v) == nd:
        return v
    if len(v) == nd + 2:
        if v[0] != 1 or v[-1 if channels_last else 1] != 1:
            raise errors.UnimplementedError(None, None, "Current implementation does not yet support strides in "
                                                        "the batch and depth dimensions.")
        return v[1:-1] if channels_last else v[2:]
    raise ValueError(f"{name} should be of length 1, {nd} or {nd + 2}. Received: {name}={value} of length {len(v)}")


def _same_pad(size, k, s, d):
    out = -(-size // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def _padding_pairs(padding, sizes, ksize, strides, dilations, channels_last, op):
    """Per spatial axis (before, after) pads for TF's padding argument ("SAME", "VALID" or explicit pairs)."""
    if isinstance(padding, str):
        mode = padding.upper()
        if mode == "SAME":
            return [_same_pad(n, k, s, d) for n, k, s, d in zip(sizes, ksize, strides, dilations)]
        if mode == "VALID":
            for n, k, s, d in zip(sizes, ksize, strides, dilations):
                eff = (k - 1) * d + 1
                if int((n - eff + s) / s) < 0:
                    raise _op_error(f"Computed output size would be negative: {int((n - eff + s) / s)} "
                                    f"[input_size: {n}, effective_filter_size: {eff}, stride: {s}]", op)
            return [(0, 0)] * len(sizes)
        raise _op_error(f'Value for attr \'padding\' of "{padding}" is not in the list of allowed values: '
                        f'"SAME", "VALID", "EXPLICIT"', op)
    pairs = [tuple(int(v) for v in p) for p in (padding.numpy().tolist() if isinstance(padding, Tensor) else padding)]
    nd = len(sizes)
    if len(pairs) == nd + 2:
        pairs = pairs[1:-1] if channels_last else pairs[2:]
    if len(pairs) != nd or any(len(p) != 2 for p in pairs):
        raise ValueError(f"When padding is explicit, the data format is {'NHWC' if channels_last else 'NCHW'} and "
                         f"the padding must be a list of {nd + 2} pairs. Received: padding={padding}")
    return pairs


def _apply_pads(cf, pairs, value=0.0):
    """`cf` padded where pads are asymmetric, and the symmetric pads left for the torch kernel."""
    if all(a == b for a, b in pairs):
        return cf, [a for a, _ in pairs]
    flat = []
    for a, b in reversed(pairs):
        flat += [a, b]
    return F.pad(cf, flat, value=value), [0] * len(pairs)


def _lift(values, nd, fill):
    """Spatial parameters of 1-D ops as 2-D ones (unit height)."""
    return [fill] + values if nd == 1 else values


def _fast_pads(padding, h, w, kh, kw, s):
    """Torch's symmetric (ph, pw) for a 2-D window when TF's padding needs no explicit pad, else None."""
    if padding == "VALID":
        return (0, 0) if h >= kh and w >= kw else None
    if padding == "SAME":
        th, bh = _same_pad(h, kh, s, 1)
        tw, bw = _same_pad(w, kw, s, 1)
        if th == bh and tw == bw:
            return th, tw
    return None
