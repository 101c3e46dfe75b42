"""More `tf.nn`: `sufficient_statistics`, `batch_norm_with_global_normalization`, `collapse_repeated` (composed of
public ops, as TF's Python functions are), the grayscale morphology ops `dilation2d`/`erosion2d`, `approx_max_k`
(exact on the CPU, as TF's CPU kernel) and `isotonic_regression`.

Dilation2D: `out[b, y, x, c] = max over (dy, dx) of in[b, y*sy + dy*ry - pad_top, x*sx + dx*rx - pad_left, c] +
filter[dy, dx, c]`, padded positions left out; its gradient goes to the first maximum of each window (TF's backprop
kernels scan rows, then columns, and keep the first). erosion2d is `-dilation2d(-value, reverse(filters, [0, 1]))`.
"""
import collections

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import constant, convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor import Tensor, device_name
from tfcompat.framework.variables import Variable
from tfcompat.ops import deprecation, math_ops, nn_ops, reduction_ops


# -- statistics and normalization ---------------------------------------------------------------------------------
@tf_export("nn.sufficient_statistics")
def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of x - shift, sum of (x - shift)**2, shift) over `axes`; the count has x's dtype."""
    x = x if isinstance(x, (Tensor, Variable)) else convert_to_tensor(x)
    dims = x.shape.dims
    counts = 1
    for d in axes:
        counts *= dims[d].value          # an axis out of range: Python's IndexError, as TF
    counts = constant(counts, dtype=x.dtype)
    if shift is not None:
        shift = shift if isinstance(shift, (Tensor, Variable)) else convert_to_tensor(shift)
        m_ss = math_ops.subtract(x, shift)
        v_ss = math_ops.squared_difference(x, shift)
    else:
        m_ss = x
        v_ss = math_ops.square(x)
    m_ss = reduction_ops.reduce_sum(m_ss, axes, keepdims=keepdims)
    v_ss = reduction_ops.reduce_sum(v_ss, axes, keepdims=keepdims)
    return counts, m_ss, v_ss, shift



def sufficient_statistics_v1(x, axes, shift=None, keep_dims=None, name=None, keepdims=None):
    """TF1's `tf.compat.v1.nn.sufficient_statistics`: `keep_dims` (deprecated) or `keepdims`."""
    if keep_dims is not None:
        deprecation.warn_deprecated_arg("sufficient_statistics", "tensorflow.python.ops.nn_impl", "keep_dims",
                                        "keep_dims is deprecated, use keepdims instead")
    keepdims = _renamed("keep_dims", keep_dims, "keepdims", keepdims)
    return sufficient_statistics(x, axes, shift, bool(keepdims) if keepdims is not None else False)

@tf_export("nn.batch_norm_with_global_normalization")
def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,  # noqa: A002
                                         scale_after_normalization, name=None):
    """`tf.nn.batch_normalization` with offset `beta`, and scale `gamma` when `scale_after_normalization`."""
    return nn_ops.batch_normalization(input, mean, variance, beta, gamma if scale_after_normalization else None,
                                      variance_epsilon)


@tf_export("nn.collapse_repeated")
def collapse_repeated(labels, seq_length, name=None):
    """Merges runs of repeated labels within each sequence: (labels [batch, new max length] zero-padded, new lengths
    in `seq_length`'s dtype)."""
    lab = input_storage(labels)
    lens = input_storage(seq_length)
    batch, maxlen = lab.shape[0], lab.shape[1]
    keep = torch.ones(lab.shape, dtype=torch.bool, device=lab.device)
    keep[:, 1:] = lab[:, 1:] != lab[:, :-1]
    keep &= torch.arange(maxlen, device=lab.device)[None, :] < lens.reshape(-1, 1).to(torch.int64)
    new_len = keep.sum(1)
    new_max = int(new_len.max()) if batch else 0
    out = torch.zeros(batch * new_max, dtype=lab.dtype, device=lab.device)
    slots = (torch.arange(new_max, device=lab.device)[None, :] < new_len[:, None]).reshape(-1)
    out[slots] = lab[keep]
    return wrap(out.reshape(batch, new_max)), wrap(new_len.to(lens.dtype))


# -- morphology -----------------------------------------------------------------------------------------------------
_OP = "Dilation2D"
_TYPES = (torch.float32, torch.float64, torch.int32, torch.uint8, torch.int16, torch.int8, torch.int64,
          torch.bfloat16, torch.uint16, torch.float16, torch.uint32, torch.uint64)
_ALLOWED = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"
_SIG = ("Op<name=Dilation2D; signature=input:T, filter:T -> output:T; attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE, "
        "DT_INT32, DT_UINT8, DT_INT16, DT_INT8, DT_INT64, DT_BFLOAT16, DT_UINT16, DT_HALF, DT_UINT32, DT_UINT64]; "
        "attr=strides:list(int),min=4; attr=rates:list(int),min=4; attr=padding:string,allowed=[\"SAME\", \"VALID\"]>")


def _attr_fail(msg):
    return errors.op_error(errors.InvalidArgumentError, f"{msg}\n\t; NodeDef: {{{{node {_OP}}}}}; {_SIG}", _OP)


def _kernel_fail(cls, msg, t):
    return errors.kernel_error(cls, msg, _OP, device_name(t.device))


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _dilation(value, filters, strides, padding, data_format, dilations):
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    strides, rates = [int(s) for s in strides], [int(r) for r in dilations]
    for attr, v in (("strides", strides), ("rates", rates)):
        if len(v) < 4:
            raise _attr_fail(f"Length for attr '{attr}' of {len(v)} must be at least minimum 4")
    if padding not in ("SAME", "VALID"):
        raise _attr_fail(f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: "
                         "\"SAME\", \"VALID\"")
    t = input_storage(value)
    if isinstance(filters, (Tensor, Variable)) or type(t) is not torch.Tensor or t.dtype not in _TYPES:
        f = input_storage(filters)
    else:                       # a Python/NumPy filter converts to the input's dtype
        f = input_storage(filters, dtypes.FROM_STORAGE[t.dtype])
    if type(t) is not torch.Tensor or t.dtype not in _TYPES:
        got = type_name(t.dtype) if type(t) is torch.Tensor else "string"
        raise _attr_fail(f"Value for attr 'T' of {got} is not in the list of allowed values: {_ALLOWED}")
    if type(f) is not torch.Tensor or f.dtype != t.dtype:
        got = type_name(f.dtype) if type(f) is torch.Tensor else "string"
        raise errors.op_error(errors.InvalidArgumentError,
                              f"cannot compute {_OP} as input #1(zero-based) was expected to be a "
                              f"{type_name(t.dtype)} tensor but is a {got} tensor", _OP)
    if strides[0] != 1 or strides[3] != 1:
        raise _kernel_fail(errors.UnimplementedError, "Stride is only supported across spatial dimensions.", t)
    if rates[0] != 1 or rates[3] != 1:
        raise _kernel_fail(errors.UnimplementedError, "Rate is only supported across spatial dimensions.", t)
    if t.dim() != 4:
        raise _kernel_fail(errors.InvalidArgumentError, f"input must be 4-dimensional{_dims(t.shape)}", t)
    if f.dim() != 3:
        raise _kernel_fail(errors.InvalidArgumentError, f"filter must be 3-dimensional: {_dims(f.shape)}", t)
    if t.shape[3] != f.shape[2]:
        raise _kernel_fail(errors.InvalidArgumentError,
                           f"input and filter must have the same depth: {t.shape[3]} vs {f.shape[2]}", t)
    return _dilate(t, f, strides[1:3], rates[1:3], padding)


def _dilate(t, f, strides, rates, padding):
    n, h, w, c = t.shape
    kh, kw = f.shape[0], f.shape[1]
    eff = [(kh - 1) * rates[0] + 1, (kw - 1) * rates[1] + 1]
    pads = []
    outs = []
    for size, k, s in zip((h, w), eff, strides):
        if padding == "VALID":
            out = max((size - k) // s + 1, 0) if size >= k else 0
            pads.append((0, 0))
        else:
            out = -(-size // s)
            total = max((out - 1) * s + k - size, 0)
            pads.append((total // 2, total - total // 2))
        outs.append(out)
    wide = t.dtype in (torch.uint16, torch.uint32, torch.uint64)
    work, fw = (t.to(torch.int64), f.to(torch.int64)) if wide else (t, f)
    if outs[0] == 0 or outs[1] == 0:
        return wrap(torch.zeros((n, outs[0], outs[1], c), dtype=t.dtype, device=t.device))
    (pt, pb), (pl, pr) = pads
    padded = torch.nn.functional.pad(work.permute(0, 3, 1, 2), (pl, pr, pt, pb)).permute(0, 2, 3, 1)
    valid = torch.nn.functional.pad(torch.ones((1, 1, h, w), dtype=torch.bool, device=t.device),
                                    (pl, pr, pt, pb)).reshape(1, h + pt + pb, w + pl + pr, 1)
    need_h, need_w = (outs[0] - 1) * strides[0] + eff[0], (outs[1] - 1) * strides[1] + eff[1]
    padded, valid = padded[:, :need_h, :need_w], valid[:, :need_h, :need_w]
    win = padded.unfold(1, eff[0], strides[0]).unfold(2, eff[1], strides[1])[..., ::rates[0], ::rates[1]]
    ok = valid.unfold(1, eff[0], strides[0]).unfold(2, eff[1], strides[1])[..., ::rates[0], ::rates[1]]
    sums = win + fw.permute(2, 0, 1)                    # [n, oh, ow, c, kh, kw]
    low = -float("inf") if sums.is_floating_point() else torch.iinfo(sums.dtype).min
    sums = torch.where(ok, sums, torch.full((), low, dtype=sums.dtype, device=sums.device))
    out = sums.reshape(n, outs[0], outs[1], c, -1).max(dim=-1).values
    return wrap(out.to(t.dtype) if wide else out)


@tf_export("nn.dilation2d")
def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002
    """Grayscale dilation: the max over each window of input + filter (NHWC; filters [h, w, depth])."""
    return _dilation(input, filters, strides, padding, data_format, dilations)


@tf_export("nn.erosion2d")
def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale erosion: -dilation2d(-value, filters reversed in both spatial dims)."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    f = input_storage(filters)
    neg = math_ops.negative(value)
    out = _dilation(neg, wrap(torch.flip(f, [0, 1])) if type(f) is torch.Tensor else filters, strides, padding,
                    data_format, dilations)
    return math_ops.negative(out)



def dilation2d_v1(input, filter=None, strides=None, rates=None, padding=None, name=None,  # noqa: A002
                  filters=None, dilations=None):
    """TF1's `tf.compat.v1.nn.dilation2d`: `rates` (or `dilations`) and `filter` (or `filters`), NHWC only."""
    filters = _renamed("filter", filter, "filters", filters)
    rates = _renamed("rates", rates, "dilations", dilations)
    return _dilation(input, filters, strides, padding, "NHWC", rates)


def erosion2d_v1(value, kernel, strides, rates, padding, name=None):
    """TF1's `tf.compat.v1.nn.erosion2d`: -dilation2d(-value, kernel reversed in both spatial dims)."""
    k = input_storage(kernel)
    out = _dilation(math_ops.negative(value), wrap(torch.flip(k, [0, 1])) if type(k) is torch.Tensor else kernel,
                    strides, padding, "NHWC", rates)
    return math_ops.negative(out)


def _renamed(old_name, old, new_name, new):
    if old is not None and new is not None:
        raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
    return new if new is not None else old

# -- approximate top-k (exact on CPU) and isotonic regression ---------------------------------------------------------
ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])
IsotonicRegression = collections.namedtuple("IsotonicRegression", ["output", "segments"])
_APPROX_SIG = ("Op<name=ApproxTopK; signature=input:T -> values:T, indices:int32; attr=k:int,min=0; "
               "attr=reduction_dimension:int,default=-1; attr=recall_target:float,default=0.95; "
               "attr=is_max_k:bool,default=true; attr=reduction_input_size_override:int,default=-1; "
               "attr=aggregate_to_topk:bool,default=true; attr=T:type,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT]>")
_APPROX_CPU = ("DOUBLE", "FLOAT", "BFLOAT16", "HALF", "INT32", "INT8", "UINT8", "INT16", "UINT16", "UINT32", "INT64",
               "UINT64")


@tf_export("approx_top_k")
def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """TF's ApproxTopK on the CPU: the exact top k of the last dim, sorted (ties: lower index first); its CPU kernel
    has no min-k and no other reduction dimension (TF's NotFoundError)."""
    op = "ApproxTopK"
    t = input_storage(input)
    if type(t) is not torch.Tensor or t.dtype not in (torch.float16, torch.bfloat16, torch.float32):
        got = type_name(t.dtype) if type(t) is torch.Tensor else "string"
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Value for attr 'T' of {got} is not in the list of allowed values: half, bfloat16, "
                              f"float\n\t; NodeDef: {{{{node {op}}}}}; {_APPROX_SIG}", op)
    if not is_max_k or int(reduction_dimension) != -1:
        attrs = (f"T=DT_{type_name(t.dtype).upper()}, aggregate_to_topk={str(bool(aggregate_to_topk)).lower()}, "
                 f"is_max_k={str(bool(is_max_k)).lower()}, k={int(k)}, recall_target={recall_target:g}, "
                 f"reduction_dimension={int(reduction_dimension)}, "
                 f"reduction_input_size_override={int(reduction_input_size_override)}")
        kernels = "".join(f"\n  device='CPU'; T in [DT_{n}]; reduction_dimension in [-1]; is_max_k in [true]"
                          for n in _APPROX_CPU)
        raise errors.op_error(errors.NotFoundError,
                              f"Could not find device for node: {{{{node {op}}}}} = {op}[{attrs}]\nAll kernels "
                              f"registered for op {op}:\n  device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_BFLOAT16, "
                              f"DT_HALF]{kernels}\n", op)
    k = int(k)
    n = t.shape[-1] if t.dim() else 0
    if k > n:
        raise errors.kernel_error(errors.InvalidArgumentError,
                                  f"input must have at least k columns. Had {n}, needed {k}", op,
                                  device_name(t.device))
    order = torch.sort(t.detach(), dim=-1, descending=True, stable=True).indices[..., :k]
    return ApproxTopK(wrap(torch.gather(t, -1, order)), wrap(order.to(torch.int32)))


@tf_export("math.approx_max_k", "nn.approx_max_k")
def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95, reduction_input_size_override=-1,
                 aggregate_to_topk=True, name=None):
    """The k largest values of `operand` along `reduction_dimension` and their indices (TF's ApproxTopK)."""
    return approx_top_k(operand, k, reduction_dimension, recall_target, True, reduction_input_size_override,
                        aggregate_to_topk)


_ISO_DTYPE = {torch.float32: torch.float32, torch.float16: torch.float16, torch.bfloat16: torch.bfloat16,
              torch.int8: torch.float32, torch.int16: torch.float32}


def _pav_segments(rows):
    """Segment ids of the non-increasing least-squares fit of each row (pool adjacent violators)."""
    seg = np.zeros(rows.shape, np.int32)
    for r, row in enumerate(rows):
        blocks = []                                  # [sum, count, first index]
        for i, v in enumerate(row.tolist()):
            blocks.append([v, 1, i])
            while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] < blocks[-1][0] / blocks[-1][1]:
                s, c, _ = blocks.pop()
                blocks[-1][0] += s
                blocks[-1][1] += c
        for b, (_, c, first) in enumerate(blocks):
            seg[r, first:first + c] = b
    return seg


@tf_export("nn.isotonic_regression")
def isotonic_regression(inputs, decreasing=True, axis=-1):
    """The non-increasing (or, with `decreasing=False`, non-decreasing) least-squares fit along `axis`:
    (output, segments). Float32/half/bfloat16 keep their dtype, int8/int16 give float32, others float64."""
    t = input_storage(inputs)
    out_dtype = _ISO_DTYPE.get(t.dtype, torch.float64)
    x = t.movedim(axis, -1) if t.dim() else t
    shape = x.shape
    flat = x.reshape(-1, shape[-1]) if x.dim() else x.reshape(1, 1)
    work = flat.to(out_dtype) if decreasing else -(flat.to(out_dtype))
    seg = torch.from_numpy(_pav_segments(work.detach().to(torch.float64).cpu().numpy())).to(t.device)
    ids = (seg.to(torch.int64) + torch.arange(flat.shape[0], device=t.device)[:, None] * max(shape[-1], 1)).reshape(-1)
    sums = torch.zeros(ids.numel(), dtype=out_dtype, device=t.device).index_add(0, ids, work.reshape(-1))
    counts = torch.zeros(ids.numel(), dtype=out_dtype, device=t.device).index_add(
        0, ids, torch.ones(ids.numel(), dtype=out_dtype, device=t.device))
    fit = (sums / counts.clamp(min=1))[ids].reshape(flat.shape)
    if not decreasing:
        fit = -fit
    out = fit.reshape(shape).movedim(-1, axis) if t.dim() else fit.reshape(())
    segments = seg.reshape(shape).movedim(-1, axis) if t.dim() else seg.reshape(())
    result = (wrap(out), wrap(segments))
    return IsotonicRegression(*result) if decreasing else result
