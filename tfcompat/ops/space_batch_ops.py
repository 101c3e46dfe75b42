"""Index and block reshuffles: `tf.unravel_index`, `tf.space_to_batch(_nd)`, `tf.batch_to_space`,
`tf.required_space_to_batch_paddings`.

SpaceToBatchND pads the M spatial dims of `[batch] + spatial + rest`, cuts them into `block_shape` blocks and moves
the offsets inside a block to the batch dim, offset-major: output batch `(o_1 * b_2 + o_2 ...) * batch + n`.
BatchToSpaceND is its inverse followed by a crop. Both are a pad/reshape/permute of one torch tensor, so tapes and
tf.function traces differentiate and record them as any other view op.
"""
import numpy as np
import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor import Tensor, device_name
from tfcompat.framework.variables import Variable
from tfcompat.ops._array_util import _matching

_IAE = errors.InvalidArgumentError
_INDEX = (torch.int32, torch.int64)
_KERNEL_TYPES = frozenset([torch.float64, torch.float32, torch.bfloat16, torch.float16, torch.int32, torch.int8,
                           torch.uint8, torch.int16, torch.uint16, torch.uint32, torch.int64, torch.uint64])
_SIGS = {
    "SpaceToBatchND": ("paddings", "Tpaddings"),
    "BatchToSpaceND": ("crops", "Tcrops"),
}


def _attr_error(op, attr, t):
    arg, pattr = _SIGS[op]
    sig = (f"input:T, block_shape:Tblock_shape, {arg}:{pattr} -> output:T; attr=T:type; "
           f"attr=Tblock_shape:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]; "
           f"attr={pattr}:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]")
    return errors.op_error(_IAE, f"Value for attr '{attr}' of {type_name(t.dtype)} is not in the list of allowed "
                                 f"values: int32, int64\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={sig}>",
                           op, None)


def _no_kernel(op, t, arg_attrs):
    enum = "DT_" + type_name(t.dtype).upper() if type(t) is torch.Tensor else "DT_STRING"
    xla = ("DT_FLOAT, DT_DOUBLE, DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_COMPLEX64, DT_INT64, DT_BOOL, DT_QINT8, "
           "DT_QUINT8, DT_QINT32, DT_BFLOAT16, DT_UINT16, DT_COMPLEX128, DT_HALF, DT_UINT32, DT_UINT64, DT_FLOAT8_E5M2, "
           "DT_FLOAT8_E4M3FN, DT_FLOAT8_E4M3FNUZ, DT_FLOAT8_E4M3B11FNUZ, DT_FLOAT8_E5M2FNUZ, DT_INT4, DT_UINT4")
    cpu = "".join(f"\n  device='CPU'; T in [DT_{n}]" for n in (
        "DOUBLE", "FLOAT", "BFLOAT16", "HALF", "INT32", "INT8", "UINT8", "INT16", "UINT16", "UINT32", "INT64", "UINT64"))
    block, other = arg_attrs
    return errors.op_error(
        errors.NotFoundError,
        f"Could not find device for node: {{{{node {op}}}}} = {op}[T={enum}, {block}={other[0]}, {other[1]}]\n"
        f"All kernels registered for op {op}:\n  device='XLA_CPU_JIT'; {other[2]} in [DT_INT32, DT_INT64]; "
        f"Tblock_shape in [DT_INT32, DT_INT64]; T in [{xla}]{cpu}\n", op, None)


def _index_arg(value, op, attr):
    t = input_storage(value)
    if type(t) is torch.Tensor and t.numel() == 0 and not isinstance(value, (Tensor, Variable)):
        t = t.to(torch.int32)          # an empty list converts to the attr's default, int32
    if type(t) is not torch.Tensor or t.dtype not in _INDEX:
        raise _attr_error(op, attr, t)
    return t


def _kernel_fail(msg, op, t):
    """The kernel's InvalidArgumentError; these ops' Python wrappers add no ` name: ` tail."""
    device = t.device if type(t) is torch.Tensor else torch.device("cpu")
    return errors.kernel_error(_IAE, msg, op, device_name(device), name=None)


def _dims_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _block_inputs(input, block_shape, pads, op, pad_attr):  # noqa: A002
    t = input_storage(input)
    b = _index_arg(block_shape, op, "Tblock_shape")
    p = _index_arg(pads, op, pad_attr)
    if type(t) is not torch.Tensor or t.dtype not in _KERNEL_TYPES:
        raise _no_kernel(op, t, ("Tblock_shape", ("DT_" + type_name(b.dtype).upper(),
                                                  f"{pad_attr}=DT_{type_name(p.dtype).upper()}", pad_attr)))
    if b.dim() != 1:
        raise _kernel_fail(f"block_shape rank should be 1 instead of {b.dim()}", op, t)
    m = b.shape[0]
    if t.dim() < 1 + m:
        raise _kernel_fail(f"input rank should be >= {1 + m} instead of {t.dim()}", op, t)
    if p.dim() != 2 or p.shape[0] != m or p.shape[1] != 2:
        arg = "paddings" if op == "SpaceToBatchND" else "crops"
        raise _kernel_fail(f"{arg} should have shape [{m}, 2] instead of {_dims_text(p.shape)}", op, t)
    return t, [int(v) for v in b.tolist()], [[int(a), int(c)] for a, c in p.tolist()]


@tf_export("space_to_batch_nd", "nn.space_to_batch")
def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Zero-pads the spatial dims, then moves each `block_shape` block's offsets into the batch dim."""
    op = "SpaceToBatchND"
    t, block, pads = _block_inputs(input, block_shape, paddings, op, "Tpaddings")
    for i, v in enumerate(block):
        if v <= 0:
            raise _kernel_fail(f"All values in block_shape must be positive, got value, {v} at index {i}.", op, t)
    for i, ((lo, hi), v) in enumerate(zip(pads, block)):
        if lo < 0 or hi < 0:
            raise _kernel_fail("Paddings must be non-negative", op, t)
        padded = t.shape[1 + i] + lo + hi
        if padded % v:
            raise _kernel_fail(f"padded_shape[{i}]={padded} is not divisible by block_shape[{i}]={v}", op, t)
    m = len(block)
    if any(lo or hi for lo, hi in pads):
        flat = [x for i in reversed(range(m)) for x in pads[i]]
        t = F.pad(t, [0, 0] * (t.dim() - 1 - m) + flat)
    n = t.shape[0]
    rest = list(t.shape[1 + m:])
    split = [n]
    for i, v in enumerate(block):
        split += [t.shape[1 + i] // v, v]
    t = t.reshape(split + rest)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, t.dim()))
    out_shape = [n * int(np.prod(block, dtype=np.int64))] + [split[1 + 2 * i] for i in range(m)] + rest
    return wrap(t.permute(perm).reshape(out_shape))


@tf_export("space_to_batch")
def space_to_batch(input, block_shape, paddings, name=None):  # noqa: A002
    """`tf.space_to_batch` (TF 2): SpaceToBatchND."""
    return space_to_batch_nd(input, block_shape, paddings, name)


@tf_export("batch_to_space")
def batch_to_space(input, block_shape, crops, name=None):  # noqa: A002
    """Moves batch blocks back into the spatial dims (inverse of space_to_batch_nd), then crops them.

    A Python int `block_shape` is used for two spatial dims, as TF's wrapper does.
    """
    if isinstance(block_shape, int):
        block_shape = np.array([block_shape, block_shape], dtype=np.int64)
    t, block, crops = _block_inputs(input, block_shape, crops, "BatchToSpaceND", "Tcrops")
    return _batch_to_space(t, block, crops)


def _batch_to_space(t, block, crops):
    op = "BatchToSpaceND"
    prod = int(np.prod(block, dtype=np.int64))
    if prod <= 0:
        raise _kernel_fail(f"Product of block sizes must be positive, got {prod}", op, t)
    batch = t.shape[0]
    if batch % prod:
        raise _kernel_fail(f"Input batch dimension ({batch}) is not divisible by product of block sizes ({prod})", op,
                           t)
    m = len(block)
    for i, ((lo, hi), v) in enumerate(zip(crops, block)):
        if lo < 0 or hi < 0:
            raise _kernel_fail("Crops must be non-negative", op, t)
        size = t.shape[1 + i] * v - lo - hi
        if size < 0:
            raise _kernel_fail(f"cropped_shape[{i}]={size} must be non-negative", op, t)
    n = batch // prod
    spatial = list(t.shape[1:1 + m])
    rest = list(t.shape[1 + m:])
    t = t.reshape(block + [n] + spatial + rest)
    perm = [m] + [x for i in range(m) for x in (m + 1 + i, i)] + list(range(2 * m + 1, t.dim()))
    t = t.permute(perm).reshape([n] + [s * v for s, v in zip(spatial, block)] + rest)
    if any(lo or hi for lo, hi in crops):
        index = (slice(None),) + tuple(slice(lo, t.shape[1 + i] - hi) for i, (lo, hi) in enumerate(crops))
        t = t[index]
    return wrap(t)


@tf_export("required_space_to_batch_paddings")
def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops): the least end padding making `block_shape` divide `input_shape` (plus `base_paddings`)."""
    shape = _int32_vector(input_shape, "input_shape")
    block = _int32_vector(block_shape, "block_shape")
    if block.ndim != 1:
        raise ValueError(f"Shape {block.shape} must have rank 1")
    m = block.shape[0]
    if shape.shape != (m,):
        raise ValueError(f"Shapes {shape.shape} and [{m}] are incompatible")
    if base_paddings is not None:
        base = _int32_vector(base_paddings, "base_paddings")
        if base.shape != (m, 2):
            raise ValueError(f"Shapes {base.shape} and [{m}, 2] are incompatible")
    else:
        base = np.zeros((m, 2), np.int32)
    start, end = base[:, 0], base[:, 1]
    full = shape + start + end
    with np.errstate(divide="ignore", invalid="ignore"):
        extra = (block - full % block) % block
    paddings = np.stack([start, end + extra], axis=1).astype(np.int32)
    crops = np.stack([np.zeros_like(start), extra], axis=1).astype(np.int32)
    return wrap(torch.from_numpy(paddings)), wrap(torch.from_numpy(crops))


def _int32_vector(value, arg):
    """`value` converted to int32 as `ops.convert_to_tensor(value, dtypes.int32, name=arg)` does."""
    if isinstance(value, (Tensor, Variable)):
        if value.dtype != dtypes.int32:
            raise ValueError(f"{arg}: Tensor conversion requested dtype int32 for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        return np.asarray(value.numpy(), np.int32)
    return input_storage(value, dtypes.int32).numpy()


# -- unravel_index ------------------------------------------------------------------------------------------------
@tf_export("unravel_index")
def unravel_index(indices, dims, name=None):
    """Coordinates of flat `indices` in an array of shape `dims`: shape [len(dims)] + indices.shape (C++'s truncating
    division and remainder, so a negative index gives negative coordinates, as TF)."""
    op = "UnravelIndex"
    idx, d = _matching([indices, dims], op)
    if idx.dtype not in _INDEX:
        raise errors.op_error(
            _IAE, f"Value for attr 'Tidx' of {type_name(idx.dtype)} is not in the list of allowed values: int32, int64"
                  "\n\t; NodeDef: {{node UnravelIndex}}; Op<name=UnravelIndex; signature=indices:Tidx, dims:Tidx -> "
                  "output:Tidx; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>", op, None)
    if d.dim() != 1:
        raise _kernel_fail(f'The indices can only be 1-D, got "{_dims_text(d.shape)}"', op, idx)
    if idx.dim() > 1:
        raise _kernel_fail(f'The indices can only be scalar or vector, got "{_dims_text(idx.shape)}"', op, idx)
    dv = [int(v) for v in d.tolist()]
    for i, v in enumerate(dv):
        if v == 0:
            raise _kernel_fail(f"Input dims cannot contain a dim of zero, but dims contains zero at index {i}", op, idx)
        if v < 0:
            raise _kernel_fail(f"Input dims cannot be negative. Got dim = {v} at index {i}", op, idx)
    if idx.numel() == 0 and idx.dim() == 1:
        raise _kernel_fail(f"received empty tensor indices: Tensor<type: {type_name(idx.dtype)} shape: [0] values: >",
                           op, idx)
    total = int(np.prod(dv, dtype=np.int64))
    if bool((idx >= total).any()):
        raise _kernel_fail("index is out of bound as with dims", op, idx)
    strides = np.cumprod([1] + dv[::-1][:-1])[::-1].tolist() if dv else []
    coords = [torch.fmod(torch.div(idx, s, rounding_mode="trunc"), v) for s, v in zip(strides, dv)]
    if not coords:
        return wrap(torch.zeros((0,) + tuple(idx.shape), dtype=idx.dtype))
    return wrap(torch.stack(coords))


# -- with_space_to_batch --------------------------------------------------------------------------------------------
def _explicit_paddings(padding, expected_length=4):
    """TF's `convert_padding`: (padding string, flat explicit paddings)."""
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` must be "
                         "a list.")
    flat = []
    if isinstance(padding, (list, tuple)):
        for i, pair in enumerate(padding):
            if not isinstance(pair, (list, tuple)):
                raise ValueError(f"When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                                 f"Received: padding={padding} with element at index {i} of type {type(pair)}")
            if len(pair) != 2:
                raise ValueError(f"When `padding` is a list, each element of `padding` must be a list/tuple of size 2. "
                                 f"Received: padding={padding} with element at index {i} of size {len(pair)}")
            flat.extend(pair)
        if len(padding) != expected_length:
            raise ValueError(f"When padding is a list, it must be of size {expected_length}. Received: "
                             f"padding={padding} of size {len(padding)}")
        padding = "EXPLICIT"
    return padding, flat


@tf_export("nn.with_space_to_batch")
def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """Runs `op(converted, num_spatial_dims, "VALID")` on the space-to-batch form of `input` for an atrous
    `dilation_rate`, and converts the result back (TF's `_WithSpaceToBatch`); `op(input, n, padding)` directly when
    every rate is 1."""
    from tfcompat.framework.convert import convert_to_tensor
    x = input if isinstance(input, (Tensor, Variable)) else convert_to_tensor(input)
    rate_t = dilation_rate if isinstance(dilation_rate, (Tensor, Variable)) else \
        convert_to_tensor(dilation_rate, dtypes.int32)
    if rate_t.shape.rank != 1:
        raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: dilation_rate={rate_t} of rank "
                         f"{rate_t.shape.rank}")
    rate = np.asarray(rate_t.numpy(), np.int32)
    n = len(rate)
    channels_first = data_format is not None and data_format.startswith("NC")
    start = 2 if channels_first else 1
    orig = list(range(start, n + start) if spatial_dims is None else spatial_dims)
    dims = sorted(set(int(d) for d in orig))
    if dims != orig or any(d < 1 for d in dims):
        raise ValueError(f"`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         f"Received: spatial_dims={orig}")
    rank_needed = dims[-1] if channels_first else dims[-1] + 1
    if x.shape.rank < rank_needed:
        raise ValueError(f"`input.shape.rank` must be at least {rank_needed}. Received: input.shape={x.shape} with "
                         f"rank {x.shape.rank}")
    if np.any(rate < 1):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    if np.all(rate == 1):
        return op(x, n, padding)
    padding, explicit = _explicit_paddings(padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. Received: "
                             f"filter_shape={filter_shape} and padding={padding}")
        fs = np.asarray(filter_shape.numpy() if isinstance(filter_shape, (Tensor, Variable)) else filter_shape)
        extra = (fs[:n] - 1) * rate
        base = np.stack([extra // 2, extra - extra // 2], axis=1).astype(np.int32)
    elif padding == "VALID":
        base = np.zeros([n, 2], np.int32)
    elif padding == "EXPLICIT":
        full = np.array(explicit).reshape([n + 2, 2])
        base = full[2:] if channels_first else full[1:-1]
    else:
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")
    spatial = [x.shape[d] for d in dims]
    paddings, crops = required_space_to_batch_paddings(spatial, rate, base)
    block = np.ones(dims[-1], np.int32)
    pads = np.zeros([dims[-1], 2], np.int32)
    cuts = np.zeros([dims[-1], 2], np.int32)
    for i, d in enumerate(dims):        # dims between the spatial ones get block 1 and no padding
        block[d - 1] = rate[i]
        pads[d - 1] = paddings.numpy()[i]
        cuts[d - 1] = crops.numpy()[i]
    converted = space_to_batch_nd(x, block, pads)
    return batch_to_space(op(converted, n, "VALID"), block, cuts)


@tf_export("nn.atrous_conv2d_transpose")
def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of `tf.nn.atrous_conv2d` computed as TF does: space_to_batch by `rate`, a stride-1 VALID
    conv2d_transpose, batch_to_space with the crops of SAME/VALID padding."""
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.ops import conv_ops
    value = value if isinstance(value, (Tensor, Variable)) else convert_to_tensor(value)
    filters = filters if isinstance(filters, (Tensor, Variable)) else convert_to_tensor(filters)
    vs, fs = value.shape, filters.shape
    if vs.rank is not None and vs.rank > 3 and fs.rank is not None and fs.rank > 3 and vs[3] != fs[3]:
        raise ValueError(f"`value` channel count must be compatible with `filters` input channel count. Received: "
                         f"value.shape={vs} with channel count {vs[3]} and filters.shape={fs} with input channel "
                         f"count {fs[3]}.")
    if rate < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    if rate == 1:
        return conv_ops.conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1], padding=padding,
                                         data_format="NHWC")
    out = np.asarray(output_shape.numpy() if isinstance(output_shape, (Tensor, Variable)) else output_shape)
    if out.shape != (4,):
        raise ValueError(f"`output_shape` must have shape (4,). Received: output_shape={tuple(out.shape)}")
    out = [int(d) for d in out]
    if isinstance(output_shape, (list, tuple, np.ndarray)) and fs[2] != out[3]:
        raise ValueError(f"`output_shape` channel count must be compatible with `filters` output channel count. "
                         f"Received: output_shape={list(output_shape)} with channel count {out[3]} and "
                         f"filters.shape={fs} with output channel count {fs[3]}.")
    if padding == "SAME":
        ph = (fs[0] + (fs[0] - 1) * (rate - 1)) - 1
        pw = (fs[1] + (fs[1] - 1) * (rate - 1)) - 1
        top, bottom, left, right = ph // 2, ph - ph // 2, pw // 2, pw - pw // 2
    elif padding == "VALID":
        top = bottom = left = right = 0
    else:
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
    in_h, in_w = out[1] + top + bottom, out[2] + left + right
    extra_h, extra_w = (rate - in_h % rate) % rate, (rate - in_w % rate) % rate
    x = space_to_batch_nd(value, [rate, rate], [[0, extra_h], [0, extra_w]])
    sizes = [rate * rate * out[0], (in_h + extra_h) // rate, (in_w + extra_w) // rate, out[3]]
    x = conv_ops.conv2d_transpose(x, filters, sizes, strides=[1, 1, 1, 1], padding="VALID", data_format="NHWC")
    return batch_to_space(x, [rate, rate], [[top, bottom + extra_h], [left, right + extra_w]])


# -- TF1 signatures (tf.compat.v1) ------------------------------------------------------------------------------------
def _renamed(old_name, old, new_name, new):
    if old is not None and new is not None:
        raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
    return new if new is not None else old


def space_to_batch_v1(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """TF1's `space_to_batch`: a 4-D input and one `block_size` for both spatial dims."""
    block_size = _renamed("block_size", block_size, "block_shape", block_shape)
    out = space_to_batch_nd(input, np.array([block_size, block_size], dtype=np.int64), paddings)
    if out.shape.rank != 4:
        raise ValueError(f"Shape {out.shape} must have rank 4")
    return out


_REQUIRED = object()


def batch_to_space_v1(input, crops, block_size=_REQUIRED, name=None, block_shape=None):  # noqa: A002
    """TF1's `batch_to_space`: a 4-D input and one `block_size` for both spatial dims."""
    if block_size is _REQUIRED:
        raise TypeError("Missing required positional argument")
    block_size = _renamed("block_size", block_size, "block_shape", block_shape)
    out = batch_to_space_nd(input, np.array([block_size, block_size], dtype=np.int64), crops)
    if out.shape.rank != 4:
        raise ValueError(f"Shape {out.shape} must have rank 4")
    return out


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    """TF1's `batch_to_space_nd`: the BatchToSpaceND op itself (no int `block_shape` expansion)."""
    op = "BatchToSpaceND"
    t, block, crops = _block_inputs(input, block_shape, crops, op, "Tcrops")
    return _batch_to_space(t, block, crops)
