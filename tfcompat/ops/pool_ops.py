"""`tf.nn`'s pooling: max and average pools (1-D to 3-D), `tf.nn.pool`, `max_pool_with_argmax`."""
import numpy as np
import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, REAL, int_list, unary_input, wrap
from tfcompat.ops._nn_common import (
    _apply_pads, _dims, _fast_pads, _from_channels_first, _is_channels_last, _lift, _op_error, _padding_pairs,
    _spatial_list, _to_channels_first)


_MAX_POOL = {2: F.max_pool2d, 3: F.max_pool3d}
_MAX_POOL_TYPES = REAL - {torch.uint32, torch.uint64}          # TF registers no kernel for these
_AVG_POOL = {2: F.avg_pool2d, 3: F.avg_pool3d}


def _pool_setup(x, nd, ksize, strides, padding, data_format, op):
    cl = _is_channels_last(data_format)
    ks = _lift(_spatial_list(ksize, nd, cl, "ksize"), nd, 1)
    st = _lift(_spatial_list(strides, nd, cl, "strides"), nd, 1)
    cf = _to_channels_first(x, nd, cl)
    pairs = _padding_pairs(padding, cf.shape[2:], ks, st, [1] * len(ks), cl, op)
    return cl, ks, st, cf, pairs


def _no_windows(cf, ks, st, pairs):
    """TF's empty result when no window fits or the input is empty (torch raises instead), else None."""
    out = [(n + a + b - k) // s + 1 for n, k, s, (a, b) in zip(cf.shape[2:], ks, st, pairs)]
    if min(out) > 0 and min(cf.shape[2:]) > 0:
        return None
    return cf.new_zeros(tuple(cf.shape[:2]) + tuple(max(0, o) for o in out))


def _check_pool_rank(x, nd, op):
    if x.ndim != nd + 2:
        raise _op_error("Input must be 4 or 5-dimensional" if nd != 1 else
                        f"input must be 3-dimensional{_dims(x)}", op)


def _skipping_nan(y, pool, cf):
    """TF's 1-D/2-D MaxPool starts each window at the dtype's lowest finite value and skips NaN: `pool(cf)`
    again over `cf` with NaN and -inf raised to that value, when the result `y` shows either."""
    lowest = torch.finfo(y.dtype).min
    if bool(torch.all(y >= lowest)):
        return y
    return pool(torch.nan_to_num(cf, nan=lowest, posinf=float("inf"), neginf=lowest))


def _max_pool(input, nd, ksize, strides, padding, data_format):  # noqa: A002
    op = "MaxPool3D" if nd == 3 else "MaxPool"
    x = unary_input(input, op, _MAX_POOL_TYPES)
    if nd == 2 and type(ksize) is int and type(strides) is int and data_format in ("NHWC", None) \
            and x.ndim == 4 and x.is_floating_point() and x.shape[1] and x.shape[2]:
        pads = _fast_pads(padding, x.shape[1], x.shape[2], ksize, ksize, strides)
        if pads is not None:
            def pool(t):
                return F.max_pool2d(t, ksize, strides, pads)
            cf = x.permute(0, 3, 1, 2)
            return wrap(_skipping_nan(pool(cf), pool, cf).permute(0, 2, 3, 1))
    _check_pool_rank(x, nd, op)
    cl, ks, st, cf, pairs = _pool_setup(x, nd, ksize, strides, padding, data_format, op)
    empty = _no_windows(cf, ks, st, pairs)
    if empty is not None:
        return wrap(_from_channels_first(empty, nd, cl))
    if x.is_floating_point():
        cf, pads = _apply_pads(cf, pairs, float("-inf"))
    else:
        cf, pads = _apply_pads(cf, pairs, torch.iinfo(x.dtype).min)

    def pool(t):
        return _MAX_POOL[t.ndim - 2](t, ks, st, pads)
    if not x.is_floating_point():
        y = pool(cf.double()).to(x.dtype)
    elif nd == 3:
        y = pool(cf)                    # TF's MaxPool3D keeps NaN
    else:
        y = _skipping_nan(pool(cf), pool, cf)
    return wrap(_from_channels_first(y, nd, cl))


def _avg_pool(input, nd, ksize, strides, padding, data_format):  # noqa: A002
    op = "AvgPool3D" if nd == 3 else "AvgPool"
    x = unary_input(input, op, FLOAT)
    _check_pool_rank(x, nd, op)
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding}.")
    cl, ks, st, cf, pairs = _pool_setup(x, nd, ksize, strides, padding, data_format, op)
    empty = _no_windows(cf, ks, st, pairs)
    if empty is not None:
        return wrap(_from_channels_first(empty, nd, cl))
    pool = _AVG_POOL[cf.ndim - 2]
    if all(a == b for a, b in pairs):
        y = pool(cf, ks, st, [a for a, _ in pairs], count_include_pad=False)
    else:
        padded, _ = _apply_pads(cf, pairs)
        ones = torch.ones((1, 1) + tuple(cf.shape[2:]), dtype=cf.dtype, device=cf.device)
        counts = pool(_apply_pads(ones, pairs)[0], ks, st, divisor_override=1)
        y = pool(padded, ks, st, divisor_override=1) / counts
    return wrap(_from_channels_first(y, nd, cl))


@tf_export("nn.max_pool")
def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Max pooling over N-D windows (N = rank - 2); SAME padding ignores the padded cells."""
    nd = _rank_of(input) - 2
    return _max_pool(input, nd, ksize, strides, padding, data_format)


@tf_export("nn.max_pool1d")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _max_pool(input, 1, ksize, strides, padding, data_format)


@tf_export("nn.max_pool2d")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _max_pool(input, 2, ksize, strides, padding, data_format)


@tf_export("nn.max_pool3d")
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _max_pool(input, 3, ksize, strides, padding, data_format)


@tf_export("nn.avg_pool")
def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Average pooling over N-D windows; SAME padding averages over the real (unpadded) cells only."""
    nd = _rank_of(input) - 2
    return _avg_pool(input, nd, ksize, strides, padding, data_format)


@tf_export("nn.avg_pool1d")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    return _avg_pool(input, 1, ksize, strides, padding, data_format)


@tf_export("nn.avg_pool2d")
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return _avg_pool(input, 2, ksize, strides, padding, data_format)


@tf_export("nn.avg_pool3d")
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    return _avg_pool(input, 3, ksize, strides, padding, data_format)


def _rank_of(x):
    return len(x.shape) if hasattr(x, "shape") else np.ndim(x)


@tf_export("nn.pool", partial="dilations other than 1")
def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,  # noqa: A002
         dilations=None, name=None):
    """N-D "MAX" or "AVG" pooling with `window_shape`; dilations other than 1 are not supported."""
    nd = len(int_list(window_shape))
    if dilations is not None and any(d != 1 for d in int_list(dilations)):
        raise NotImplementedError("tfcompat: tf.nn.pool(dilations=...) other than 1 is not supported")
    if strides is None:
        strides = 1
    if pooling_type == "MAX":
        return _max_pool(input, nd, window_shape, strides, padding, data_format)
    if pooling_type == "AVG":
        return _avg_pool(input, nd, window_shape, strides, padding, data_format)
    raise ValueError(f"`pooling_type` must be either 'MAX' or 'AVG'. Received: pooling_type={pooling_type}")


@tf_export("nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype=dtypes.int64,  # noqa: A002
                         include_batch_in_index=False, name=None):
    """(max_pool2d output, argmax) with flat NHWC indices ((y * width + x) * channels + c [+ b * H*W*C])."""
    op = "MaxPoolWithArgmax"
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    x = unary_input(input, op, REAL)
    _check_pool_rank(x, 2, op)
    _, ks, st, cf, pairs = _pool_setup(x, 2, ksize, strides, padding, "NHWC", op)
    n, h, w, c = x.shape
    padded, _ = _apply_pads(cf.double() if not x.is_floating_point() else cf, pairs, float("-inf"))
    y, idx = F.max_pool2d(padded, ks, st, return_indices=True)
    wp = padded.shape[3]
    row = idx // wp - pairs[0][0]
    col = idx % wp - pairs[1][0]
    chan = torch.arange(c, device=x.device).reshape(1, c, 1, 1)
    flat = (row * w + col) * c + chan
    if include_batch_in_index:
        flat = flat + torch.arange(n, device=x.device).reshape(n, 1, 1, 1) * (h * w * c)
    out_dt = dtypes.as_dtype(output_dtype).torch_dtype
    return wrap(y.to(x.dtype).permute(0, 2, 3, 1)), wrap(flat.permute(0, 2, 3, 1).to(out_dt))
