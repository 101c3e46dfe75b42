"""`tf.nn.depthwise_conv2d_backprop_filter` / `_input`: the gradients of a depthwise convolution as ops.

Each runs the forward depthwise convolution of `conv_ops` on torch autograd and differentiates it against
`out_backprop`, so the result is what TF's backprop kernels give and stays differentiable under a tape.
"""
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, int_list, type_name, wrap
from tfcompat.ops._nn_common import _op_error
from tfcompat.ops.conv_ops import _depthwise

_FLOATS = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64])
_ALLOWED = "half, bfloat16, float, double"


def _checked(values, op, signature):
    """Storages of (index, value) inputs sharing the dtype T of the first, with TF's dtype errors."""
    out = []
    first = None
    for index, value in values:
        t = input_storage(value)
        if first is None:
            first = t.dtype
            if first not in _FLOATS:
                raise errors.op_error(
                    errors.InvalidArgumentError,
                    f"Value for attr 'T' of {type_name(first)} is not in the list of allowed values: {_ALLOWED}\n"
                    f"\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={signature}; "
                    "attr=T:type,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]; attr=strides:list(int); "
                    'attr=padding:string,allowed=["SAME", "VALID", "EXPLICIT"]; attr=explicit_paddings:list(int),'
                    'default=[]; attr=data_format:string,default="NHWC",allowed=["NHWC", "NCHW"]; '
                    "attr=dilations:list(int),default=[1, 1, 1, 1]>", op)
        elif t.dtype is not first:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"cannot compute {op} as input #{index}(zero-based) was expected to be a {type_name(first)} tensor "
                f"but is a {type_name(t.dtype)} tensor", op)
        out.append(t)
    return out


def _sizes(value, op):
    sizes = int_list(value)
    if len(sizes) != 4:
        raise _op_error(f"{'filter' if 'Filter' in op else 'input'}_sizes must be 4-dimensional, got "
                        f"{len(sizes)} dimensions", op)
    return sizes


def _no_dilation(dilations, api):
    if dilations is not None and any(d != 1 for d in int_list(dilations)):
        raise NotImplementedError(f"tf.nn.{api}(dilations={dilations!r}) is not supported by tfcompat")


def _depth_check(in_c, depth, op):
    if depth and in_c % depth:
        raise _op_error(f"input depth must be evenly divisible by filter depth: {in_c} vs {depth}", op)


def _gradient(x, w, dy, wrt, strides, padding, data_format, op):
    if len(int_list(strides)) != 4:
        raise _op_error("Sliding window strides field must specify 4 dimensions", op)
    record = x.requires_grad or w.requires_grad or dy.requires_grad
    with torch.enable_grad():
        leaf = (x if wrt == "input" else w).detach().requires_grad_(True)
        y = _depthwise(leaf if wrt == "input" else x, leaf if wrt == "filter" else w, strides, padding, data_format,
                       None, op)
        if tuple(y.shape) != tuple(dy.shape):
            raise _op_error(f"out_backprop has shape {list(dy.shape)} but the convolution's output has shape "
                            f"{list(y.shape)}", op)
        grad, = torch.autograd.grad(y, leaf, dy, create_graph=record)
    return grad


@tf_export("nn.depthwise_conv2d_backprop_filter", partial="dilations other than 1")
def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                     data_format="NHWC", dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    """The gradient of `tf.nn.depthwise_conv2d_native` with respect to its (kh, kw, in, multiplier) filter."""
    op = "DepthwiseConv2dNativeBackpropFilter"
    x, dy = _checked([(0, input), (2, out_backprop)], op, "input:T, filter_sizes:int32, out_backprop:T -> output:T")
    sizes = _sizes(filter_sizes, op)
    _no_dilation(dilations, "depthwise_conv2d_backprop_filter")
    if x.ndim == 4:
        _depth_check(x.shape[1] if str(data_format).startswith("NC") else x.shape[-1], sizes[2], op)
    w = torch.zeros(sizes, dtype=x.dtype, device=x.device)
    return wrap(_gradient(x, w, dy, "filter", strides, padding, data_format, op))


@tf_export("nn.depthwise_conv2d_backprop_input", partial="dilations other than 1")
def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                    data_format="NHWC", dilations=[1, 1, 1, 1], name=None):  # noqa: B006
    """The gradient of `tf.nn.depthwise_conv2d_native` with respect to its input (of shape `input_sizes`)."""
    op = "DepthwiseConv2dNativeBackpropInput"
    w, dy = _checked([(1, filter), (2, out_backprop)], op, "input_sizes:int32, filter:T, out_backprop:T -> output:T")
    sizes = _sizes(input_sizes, op)
    _no_dilation(dilations, "depthwise_conv2d_backprop_input")
    if w.ndim == 4:
        _depth_check(sizes[1] if str(data_format).startswith("NC") else sizes[-1], w.shape[2], op)
    x = torch.zeros(sizes, dtype=w.dtype, device=w.device)
    return wrap(_gradient(x, w, dy, "input", strides, padding, data_format, op))
