"""`tf.nn`'s convolutions (N-D, depthwise, separable, transposed) and `bias_add`, NHWC on torch kernels."""
import numpy as np
import torch
import torch.nn.functional as F

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import NUMERIC, binary_inputs, int_list, kernel_error, wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.ops.math_ops import complex_parts
from tfcompat.ops._nn_common import (
    _apply_pads, _dims, _fast_pads, _from_channels_first, _is_channels_last, _lift, _op_error, _padding_pairs,
    _spatial_list, _to_channels_first)


_UNSIGNED_WIDE = frozenset([torch.uint16, torch.uint32, torch.uint64])
_CONV_TYPES = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32])


_CONV_FN = {2: F.conv2d, 3: F.conv3d}
_CONV_T_FN = {2: F.conv_transpose2d, 3: F.conv_transpose3d}
_CONV_OPS = {1: "Conv2D", 2: "Conv2D", 3: "Conv3D"}


def _conv_inputs(input, filters, op):  # noqa: A002
    return binary_inputs(input, filters, op, _CONV_TYPES)


def _torch_kernel(w, nd):
    """A TF kernel (spatial..., in, out) as torch's (out, in, spatial...) view."""
    if nd == 1:
        w = w.unsqueeze(0)
    return w.permute(3, 2, 0, 1) if w.ndim == 4 else w.permute(4, 3, 0, 1, 2)


def _run(fn, x, *args, **kw):
    if x.is_floating_point():
        return fn(x, *args, **kw)
    return torch.round(fn(x.double(), *[a.double() if isinstance(a, torch.Tensor) else a for a in args],
                          **kw)).to(x.dtype)


def _empty_conv(cf, kt, st, pads, dl):
    """TF's zeros when the input, the filter or the output is empty (torch raises on these), else None."""
    out = [(n + 2 * p - (k - 1) * d - 1) // s + 1 for n, k, s, p, d in zip(cf.shape[2:], kt.shape[2:], st, pads, dl)]
    if min(out) > 0 and cf.numel() and kt.numel():
        return None
    return cf.new_zeros((cf.shape[0], kt.shape[0]) + tuple(max(0, o) for o in out))


def _conv(x, w, nd, strides, padding, dilations, data_format, op, bias=None):
    """The NHWC/NCHW convolution core: x, w are storages, w in TF layout; `bias` (Keras's conv layers) is added by
    the kernel itself (no separate pass over the output, and its gradient comes from the convolution's backward)."""
    if x.ndim != nd + 2:
        raise _op_error(f"convolution input must be {nd + 2}-dimensional: {_dims(x)}", op)
    if w.ndim != nd + 2:
        raise _op_error(f"convolution filter must be {nd + 2}-dimensional: {_dims(w)}", op)
    cl = _is_channels_last(data_format)
    st = _spatial_list(strides, nd, cl, "strides")
    dl = _spatial_list(dilations, nd, cl, "dilations")
    in_c = x.shape[-1] if cl else x.shape[1]
    f_in = w.shape[-2]
    if f_in == 0:
        raise kernel_error(errors.InvalidArgumentError, "filter depth must be stricly positive, got 0", op, x)
    if in_c % f_in:
        raise _op_error(f"input depth must be evenly divisible by filter depth: {in_c} vs {f_in}", op)
    cf = _to_channels_first(x, nd, cl)
    kt = _torch_kernel(w, nd)
    st, dl = _lift(st, nd, 1), _lift(dl, nd, 1)
    pairs = _padding_pairs(padding, cf.shape[2:], kt.shape[2:], st, dl, cl, op)
    cf, pads = _apply_pads(cf, pairs)
    y = _empty_conv(cf, kt, st, pads, dl)
    if y is None:
        y = _run(_CONV_FN[cf.ndim - 2], cf, kt, bias, st, pads, dl, in_c // f_in)
    elif bias is not None:
        y = y + bias.reshape((-1,) + (1,) * (y.ndim - 2))
    return _from_channels_first(y, nd, cl)


@tf_export("nn.conv2d")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """2-D convolution of NHWC (or NCHW) `input` with (kh, kw, in, out) `filters`."""
    x, w = _conv_inputs(input, filters, "Conv2D")
    if type(strides) is int and dilations is None and data_format == "NHWC" and x.ndim == 4 and w.ndim == 4 \
            and x.shape[3] == w.shape[2] and x.is_floating_point() and x.numel() and w.numel():
        pads = _fast_pads(padding, x.shape[1], x.shape[2], w.shape[0], w.shape[1], strides)
        if pads is not None:
            y = F.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), None, strides, pads)
            return wrap(y.permute(0, 2, 3, 1))
    return wrap(_conv(x, w, 2, strides, padding, dilations, data_format, "Conv2D"))


@tf_export("nn.conv1d")
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    """1-D convolution of NWC (or NCW) `input` with (kw, in, out) `filters`."""
    x, w = _conv_inputs(input, filters, "Conv2D")
    if x.ndim != 3:
        raise ValueError(f"`input` must have rank at least 3. Received: input.shape={tuple(x.shape)}")
    return wrap(_conv(x, w, 1, stride, padding, dilations, data_format, "Conv2D"))


@tf_export("nn.conv3d")
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):  # noqa: A002
    """3-D convolution of NDHWC (or NCDHW) `input` with (kd, kh, kw, in, out) `filters`."""
    x, w = _conv_inputs(input, filters, "Conv3D")
    if not isinstance(strides, (list, tuple, Tensor, np.ndarray)):
        raise TypeError(f"Expected list for 'strides' argument to 'conv3d' Op, not {strides}.")
    if len(int_list(strides)) < 5:
        raise _op_error(f"Length for attr 'strides' of {len(int_list(strides))} must be at least minimum 5", "Conv3D")
    return wrap(_conv(x, w, 3, strides, padding, dilations, data_format, "Conv3D"))


@tf_export("nn.convolution")
def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,  # noqa: A002
                name=None):
    """N-D convolution (N = rank - 2 of `input`: 1, 2 or 3)."""
    x, w = _conv_inputs(input, filters, "Conv2D")
    nd = x.ndim - 2
    if nd not in (1, 2, 3):
        raise ValueError(f"`input` must have rank 3, 4 or 5. Received: input.shape={tuple(x.shape)}")
    return wrap(_conv(x, w, nd, strides, padding, dilations, data_format, _CONV_OPS[nd]))


@tf_export("nn.atrous_conv2d")
def atrous_conv2d(value, filters, rate, padding, name=None):
    """conv2d with dilation `rate` (NHWC, stride 1)."""
    x, w = _conv_inputs(value, filters, "Conv2D")
    return wrap(_conv(x, w, 2, 1, padding, int(rate), "NHWC", "Conv2D"))


@tf_export("nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None, name=None):  # noqa: A002
    """Per-channel convolution with (kh, kw, in, multiplier) filters: output channel i * multiplier + m."""
    op = "DepthwiseConv2dNative"
    x, w = _conv_inputs(input, filter, op)
    if len(int_list(strides)) not in (4, 5):
        raise _op_error("Sliding window strides field must specify 4 or 5 dimensions", op)
    return wrap(_depthwise(x, w, strides, padding, data_format, dilations, op))


def _depthwise(x, w, strides, padding, data_format, dilations, op):
    if x.ndim != 4:
        raise _op_error(f"input must be 4-dimensional{_dims(x)}", op)
    cl = _is_channels_last(data_format)
    in_c = x.shape[-1] if cl else x.shape[1]
    if w.ndim != 4 or w.shape[2] != in_c:
        raise _op_error(f"input and filter must have the same depth: {in_c} vs {w.shape[2] if w.ndim > 2 else -1}",
                        op)
    st = _spatial_list(strides, 2, cl, "strides")
    dl = _spatial_list(dilations, 2, cl, "dilations")
    kh, kw, c, m = w.shape
    kt = w.reshape(kh, kw, 1, c * m).permute(3, 2, 0, 1)
    cf = _to_channels_first(x, 2, cl)
    pairs = _padding_pairs(padding, cf.shape[2:], (kh, kw), st, dl, cl, op)
    cf, pads = _apply_pads(cf, pairs)
    y = _empty_conv(cf, kt, st, pads, dl)
    if y is None:
        y = _run(F.conv2d, cf, kt, None, st, pads, dl, c)
    return _from_channels_first(y, 2, cl)


@tf_export("nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, data_format=None,  # noqa: A002
                     dilations=None, name=None):
    """depthwise_conv2d followed by a 1x1 conv2d with (1, 1, in * multiplier, out) `pointwise_filter`."""
    op = "DepthwiseConv2dNative"
    x, w = _conv_inputs(input, depthwise_filter, op)
    mid = _depthwise(x, w, strides, padding, data_format, dilations, op)
    _, pw = _conv_inputs(wrap(mid), pointwise_filter, "Conv2D")
    return wrap(_conv(mid, pw, 2, 1, "VALID", None, data_format, "Conv2D"))


def _conv_transpose(x, w, output_shape, nd, strides, padding, dilations, data_format, op):
    """Gradient of the forward convolution w.r.t. its input: `x` is the forward output, w is TF-layout
    (spatial..., out_channels, in_channels) where in_channels are `x`'s channels."""
    if x.ndim != nd + 2:
        raise _op_error(f"input must be {nd + 2}-dimensional{_dims(x)}", op)
    cl = _is_channels_last(data_format)
    shape = int_list(output_shape)
    if len(shape) != nd + 2:
        raise ValueError(f"`output_shape` must be of length {nd + 2}. Received: output_shape={output_shape}")
    out_sp = shape[1:-1] if cl else shape[2:]
    out_c = shape[-1] if cl else shape[1]
    in_c = x.shape[-1] if cl else x.shape[1]
    label = f"Conv{max(nd, 2)}DCustomBackpropInput"
    if w.shape[-1] != in_c:
        raise _op_error(f"{label}: filter and out_backprop must have the same out_depth", op)
    if w.shape[-2] != out_c:
        raise _op_error(f"{label}: input and filter must have the same depth: {out_c} vs {w.shape[-2]}", op)
    st = _lift(_spatial_list(strides, nd, cl, "strides"), nd, 1)
    dl = _lift(_spatial_list(dilations, nd, cl, "dilations"), nd, 1)
    out_sp = _lift(out_sp, nd, 1)
    cf = _to_channels_first(x, nd, cl)
    kt = (w.unsqueeze(0) if nd == 1 else w)
    kt = kt.permute(3, 2, 0, 1) if kt.ndim == 4 else kt.permute(4, 3, 0, 1, 2)
    ks = kt.shape[2:]
    pairs = _padding_pairs(padding, out_sp, ks, st, dl, cl, op)
    pads, extra = [], []
    for i, (n_out, n_in, k, s, d, (pb, pa)) in enumerate(zip(out_sp, cf.shape[2:], ks, st, dl, pairs)):
        computed = (n_out + pb + pa - (k - 1) * d - 1) // s + 1
        if computed != n_in:
            raise _op_error(f"{label}: Size of out_backprop doesn't match computed: actual = {n_in}, computed = "
                            f"{computed} spatial_dim: {i + 1 if cl else i + 2} input: {n_out} filter: {k} "
                            f"output: {n_in} stride: {s} dilation: {d}", op)
        full = (n_in - 1) * s - 2 * pb + (k - 1) * d + 1
        pads.append(pb)
        extra.append(n_out - full)
    if not (cf.numel() and kt.numel()):        # nothing to scatter: TF's zeros (torch raises)
        return _from_channels_first(cf.new_zeros((cf.shape[0], kt.shape[1]) + tuple(out_sp)), nd, cl)
    outpad = [min(max(e, 0), max(s, d) - 1) for e, s, d in zip(extra, st, dl)]
    y = _run(_CONV_T_FN[cf.ndim - 2], cf, kt, None, st, pads, outpad, 1, dl)
    if any(e != o for e, o in zip(extra, outpad)):
        y = _fit(y, out_sp)
    return _from_channels_first(y, nd, cl)


def _fit(y, sizes):
    """Crops or zero-extends the spatial axes of channels-first `y` at their ends to `sizes`."""
    flat = []
    for have, want in reversed(list(zip(y.shape[2:], sizes))):
        flat += [0, want - have]
    return F.pad(y, flat)


@tf_export("nn.conv2d_transpose")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",  # noqa: A002
                     dilations=None, name=None):
    """Transpose of conv2d: `filters` is (kh, kw, out_channels, in_channels), output has `output_shape`."""
    x, w = _conv_inputs(input, filters, "Conv2DBackpropInput")
    return wrap(_conv_transpose(x, w, output_shape, 2, strides, padding, dilations, data_format,
                                "Conv2DBackpropInput"))


@tf_export("nn.conv1d_transpose")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """Transpose of conv1d: `filters` is (kw, out_channels, in_channels)."""
    x, w = _conv_inputs(input, filters, "Conv2DBackpropInput")
    return wrap(_conv_transpose(x, w, output_shape, 1, strides, padding, dilations, data_format,
                                "Conv2DBackpropInput"))


@tf_export("nn.conv3d_transpose")
def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",  # noqa: A002
                     dilations=None, name=None):
    """Transpose of conv3d: `filters` is (kd, kh, kw, out_channels, in_channels)."""
    x, w = _conv_inputs(input, filters, "Conv3DBackpropInputV2")
    return wrap(_conv_transpose(x, w, output_shape, 3, strides, padding, dilations, data_format,
                                "Conv3DBackpropInputV2"))


@tf_export("nn.conv_transpose")
def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """conv1d/2d/3d_transpose chosen by the length of `output_shape`."""
    nd = len(int_list(output_shape)) - 2
    fn = {1: conv1d_transpose, 2: conv2d_transpose, 3: conv3d_transpose}.get(nd)
    if fn is None:
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape}")
    fmt = data_format or {1: "NWC", 2: "NHWC", 3: "NDHWC"}[nd]
    return fn(input, filters, output_shape, strides, padding, fmt, dilations)


@tf_export("nn.bias_add")
def bias_add(value, bias, data_format=None, name=None):
    """value + bias along the channel axis (last; axis 1 for "NC..." formats)."""
    x, b = binary_inputs(value, bias, "BiasAdd", NUMERIC)
    if b.ndim != 1:
        raise _op_error(f"Biases must be 1D: {_dims(b)}", "BiasAdd")
    cl = _is_channels_last(data_format)
    if x.ndim < 2:
        raise _op_error(f"Input tensor must be at least 2D: {_dims(x)}", "BiasAdd")
    c = x.shape[-1] if cl else x.shape[1]
    if c != b.shape[0]:
        where = "last" if cl else "channel"
        raise _op_error(f"Must provide as many biases as the {where} dimension of the input tensor: "
                        f"{_dims(b)} vs. {_dims(x)}", "BiasAdd")
    if not cl:
        b = b.reshape([c] + [1] * (x.ndim - 2))
    if x.dtype in _UNSIGNED_WIDE:        # torch has no add for these: modular sum in int64, then back
        if x.dtype is torch.uint64:
            return wrap((x.view(torch.int64) + b.view(torch.int64)).view(torch.uint64))
        return wrap((x.to(torch.int64) + b.to(torch.int64)).to(x.dtype))
    if x.is_complex():
        return wrap(complex_parts(torch.add, x, b))
    return wrap(x + b)
