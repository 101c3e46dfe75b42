"""`tf.nn`: activations, losses, normalization, convolutions and pooling.

Activations are NHWC (channels last) as in TF. Convolutions and pools run torch
kernels on `channels_last` views of the NHWC data (`x.permute(0, 3, 1, 2)` of a
contiguous NHWC tensor is such a view, no copy) and permute the result back, so
the NHWC result is contiguous whenever torch returns channels_last output.
TF's SAME padding puts the odd extra cell at the end (bottom/right); torch pads
symmetrically, so asymmetric pads are applied explicitly with `F.pad`.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    FLOAT, NUMERIC, REAL, axis_list, binary_inputs, check_dtype, input_storage, int_list, same_dtype_inputs,
    int_value, type_name, unary_input, wrap)
from tfcompat.framework.tensor import Tensor
from tfcompat.ops.random_ops import generator_for

_INT_INDEX = frozenset([torch.int16, torch.int32, torch.int64])
_CONV_TYPES = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32])


def _op_error(msg, op):
    return errors.op_error(errors.InvalidArgumentError, msg, op)


def _float_input(x, op):
    return unary_input(x, op, FLOAT)


# -- activations ----------------------------------------------------------------------

@tf_export("nn.relu")
def relu(features, name=None):
    """max(features, 0)."""
    return wrap(torch.relu(unary_input(features, "Relu", REAL)))


@tf_export("nn.relu6")
def relu6(features, name=None):
    """min(max(features, 0), 6)."""
    t = unary_input(features, "Relu6", REAL)
    return wrap(F.relu6(t) if t.is_floating_point() else torch.clamp(t, 0, 6))


@tf_export("nn.elu")
def elu(features, name=None):
    """features if > 0 else exp(features) - 1."""
    return wrap(F.elu(_float_input(features, "Elu")))


@tf_export("nn.selu")
def selu(features, name=None):
    """scale * elu(features, alpha), with TF's (and torch's) scale and alpha constants."""
    return wrap(torch.selu(_float_input(features, "Selu")))


@tf_export("nn.gelu")
def gelu(features, approximate=False, name=None):
    """0.5 x (1 + erf(x / sqrt 2)); with `approximate`, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    t = input_storage(features)
    if not t.is_floating_point():
        raise ValueError("`features.dtype` must be a floating point tensor."
                         f"Received:features.dtype={dtypes.FROM_STORAGE[t.dtype]}")
    return wrap(F.gelu(t, approximate="tanh" if approximate else "none"))


@tf_export("nn.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
    """features if > 0 else alpha * features; integer inputs are cast to float32 first (as TF)."""
    t = input_storage(features)
    if not t.is_floating_point():
        t = t.to(torch.float32)
    check_dtype(t, "LeakyRelu", FLOAT)
    return wrap(F.leaky_relu(t, float(alpha)))


@tf_export("nn.crelu")
def crelu(features, name=None, axis=-1):
    """concat([relu(features), relu(-features)], axis)."""
    t = unary_input(features, "Relu", REAL)
    return wrap(torch.cat([torch.relu(t), torch.relu(-t)], dim=int(axis)))


@tf_export("nn.silu", "nn.swish")
def silu(features, beta=1.0, name=None):
    """features * sigmoid(beta * features)."""
    t = _float_input(features, "Sigmoid")
    if isinstance(beta, (int, float)) and beta == 1.0:
        return wrap(F.silu(t))
    b = input_storage(beta, dtypes.FROM_STORAGE[t.dtype])
    return wrap(t * torch.sigmoid(b * t))


def _softmax_axis(t, axis):
    if axis is None:
        return -1
    axis = int(axis)
    n = t.ndim
    if not -n <= axis < n:
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-n}, {n}) where {n} is the number of dimensions in the "
                        f"input. Received: dim={axis}")
    return axis


@tf_export("nn.softmax", "math.softmax")
def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits), axis); axis defaults to -1."""
    t = unary_input(logits, "Softmax", FLOAT)
    return wrap(torch.softmax(t, _softmax_axis(t, axis)))


@tf_export("nn.log_softmax", "math.log_softmax")
def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits), axis)); axis defaults to -1."""
    t = unary_input(logits, "LogSoftmax", FLOAT)
    return wrap(torch.log_softmax(t, _softmax_axis(t, axis)))


# -- losses ---------------------------------------------------------------------------

@tf_export("nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits, axis), axis); gradients flow to labels too (TF2)."""
    lg = _float_input(logits, "SoftmaxCrossEntropyWithLogits")
    lb = _like_input(labels, lg, "SoftmaxCrossEntropyWithLogits")
    if lb.shape != lg.shape:
        try:
            torch.broadcast_shapes(lb.shape, lg.shape)
        except RuntimeError:
            raise _op_error(f"logits and labels must be broadcastable: logits_size={_dims(lg)} "
                            f"labels_size={_dims(lb)}", "SoftmaxCrossEntropyWithLogits") from None
        lb = lb.expand(lg.shape)
    return wrap(_SoftmaxXent.apply(lb, lg, int(axis)))


class _SoftmaxXent(torch.autograd.Function):
    """TF's kernel: loss -sum(labels * log_softmax(logits)); d/dlogits = softmax - labels (TF assumes the
    labels sum to 1), d/dlabels = -log_softmax."""

    @staticmethod
    def forward(ctx, labels, logits, axis):
        logp = torch.log_softmax(logits, axis)
        ctx.save_for_backward(labels, logp)
        ctx.axis = axis
        return -(labels * logp).sum(axis)

    @staticmethod
    def backward(ctx, grad):
        labels, logp = ctx.saved_tensors
        g = grad.unsqueeze(ctx.axis)
        d_labels = -g * logp if ctx.needs_input_grad[0] else None
        d_logits = g * (torch.exp(logp) - labels) if ctx.needs_input_grad[1] else None
        return d_labels, d_logits, None


def _dims(t):
    return "[" + ",".join(str(d) for d in t.shape) + "]"


@tf_export("nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[labels] over the last axis; labels out of [0, classes) raise on CPU, give NaN elsewhere."""
    op = "SparseSoftmaxCrossEntropyWithLogits"
    lg = _float_input(logits, op)
    lb = input_storage(labels)
    check_dtype(lb, op, frozenset([torch.int32, torch.int64]))
    if lg.ndim == 0 or tuple(lb.shape) != tuple(lg.shape[:-1]):
        raise ValueError("`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                         f"labels.shape={tuple(lb.shape)} and logits.shape={tuple(lg.shape)}")
    classes = lg.shape[-1]
    flat = lb.reshape(-1).long()
    if flat.numel():
        bad = (flat < 0) | (flat >= classes)
        if flat.device.type == "cpu":
            if bool(bad.any()):
                first = int(flat[bad][0])
                values = " ".join(str(v) for v in flat.tolist())
                raise _op_error(f"Received a label value of {first} which is outside the valid range of "
                                f"[0, {classes}).  Label values: {values}", op)
        else:
            loss = F.cross_entropy(lg.reshape(-1, classes), flat.clamp(0, classes - 1), reduction="none")
            return wrap(torch.where(bad, float("nan"), loss).reshape(lb.shape))
    return wrap(F.cross_entropy(lg.reshape(-1, classes), flat, reduction="none").reshape(lb.shape))


def _like_input(value, t, op):
    """An input that must have the dtype of `t` (Python values convert to it; tensors must match)."""
    v = input_storage(value, dtypes.FROM_STORAGE[t.dtype])
    if v.dtype is not t.dtype:
        raise _op_error(f"cannot compute {op} as input #1(zero-based) was expected to be a {type_name(t.dtype)} "
                        f"tensor but is a {type_name(v.dtype)} tensor", op)
    return v


def _same_shape_pair(labels, logits, names=("logits", "labels")):
    lg = _float_input(logits, "Mul")
    lb = _like_input(labels, lg, "Mul")
    if lb.shape != lg.shape:
        raise ValueError(f"`{names[0]}` and `{names[1]}` must have the same shape, received ({_shape_str(lg)} vs "
                         f"{_shape_str(lb)}).")
    return lb, lg


def _shape_str(t):
    return str(tuple(t.shape))


@tf_export("nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z."""
    z, x = _same_shape_pair(labels, logits)
    return wrap(torch.relu(x) - x * z + torch.log1p(torch.exp(-torch.abs(x))))


@tf_export("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """(1 - z) x + (1 + (q - 1) z) (log(1 + exp(-|x|)) + max(-x, 0)) for logits x, labels z, pos_weight q."""
    z, x = _same_shape_pair(labels, logits)
    q = input_storage(pos_weight, dtypes.FROM_STORAGE[x.dtype])
    log_weight = 1 + (q - 1) * z
    return wrap((1 - z) * x + log_weight * (torch.log1p(torch.exp(-torch.abs(x))) + torch.relu(-x)))


@tf_export("nn.l2_loss")
def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    s = _float_input(t, "L2Loss")
    return wrap(torch.sum(s * s) / 2)


@tf_export("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets, plus Stirling's term for targets > 1 if `compute_full_loss`."""
    c, lg = _same_shape_pair(targets, log_input, ("log_input", "targets"))
    loss = torch.exp(lg) - lg * c
    if compute_full_loss:
        stirling = c * torch.log(c) - c + 0.5 * torch.log(2 * math.pi * c)
        loss = loss + torch.where((c >= 0) & (c <= 1), torch.zeros_like(c), stirling)
    return wrap(loss)


@tf_export("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (default: the batch size, axis 0)."""
    t = input_storage(per_example_loss)
    if t.ndim == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={wrap(t).numpy()} with rank 0")
    if not (t.is_floating_point() or t.is_complex()):
        t = t.to(torch.float64)
    if sample_weight is not None:
        w = input_storage(sample_weight, dtypes.FROM_STORAGE[t.dtype])
        t = t * w.to(t.dtype)
    n = t.shape[0] if global_batch_size is None else int_value(global_batch_size)
    return wrap(torch.sum(t) / n)


@tf_export("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
    """The sum of the regularization losses divided by the number of replicas (1 outside a strategy)."""
    if isinstance(regularization_loss, (list, tuple)):
        ts = same_dtype_inputs(regularization_loss, "AddN")
        total = ts[0] if len(ts) == 1 else torch.stack([t.reshape(()) for t in ts]).sum()
        return wrap(torch.sum(total))
    return wrap(torch.sum(input_storage(regularization_loss)))


# -- normalization --------------------------------------------------------------------

@tf_export("nn.l2_normalize", "math.l2_normalize", "linalg.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if dim is not None:
        axis = dim
    t = input_storage(x)
    if not (t.is_floating_point() or t.is_complex()):
        raise TypeError(f"Cannot convert {epsilon!r} to EagerTensor of dtype {dtypes.FROM_STORAGE[t.dtype].name}")
    dims = axis_list(axis, t.ndim)
    sq = (t.abs() ** 2) if t.is_complex() else t * t
    ss = torch.sum(sq, dim=dims, keepdim=True) if dims is not None else torch.sum(sq).reshape([1] * t.ndim)
    return wrap(t * torch.rsqrt(torch.clamp(ss, min=float(epsilon))))


def _moment_axes(t, axes):
    dims = axis_list(axes, t.ndim)
    return tuple(range(t.ndim)) if dims is None else dims


@tf_export("nn.moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) over `axes`; float16 is computed in float32 as TF."""
    t = input_storage(x)
    dims = _moment_axes(t, axes)
    y = t.float() if t.dtype in (torch.float16, torch.bfloat16) else t
    if y.is_floating_point():
        mean = torch.mean(y, dim=dims, keepdim=True)
        var = torch.mean(torch.square(y - mean.detach()), dim=dims, keepdim=True)
    else:
        n = max(math.prod(y.shape[d] for d in dims), 1)
        mean = torch.div(y.sum(dims, keepdim=True), n, rounding_mode="trunc").to(y.dtype)
        var = torch.div(torch.square(y - mean).sum(dims, keepdim=True), n, rounding_mode="trunc").to(y.dtype)
    if not keepdims:
        mean = mean.squeeze(dims) if dims else mean
        var = var.squeeze(dims) if dims else var
    return wrap(mean.to(t.dtype)), wrap(var.to(t.dtype))


@tf_export("nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """Weighted (mean, variance) over `axes`; zero total weight gives 0 (divide_no_nan)."""
    t = input_storage(x)
    dims = _moment_axes(t, axes)
    y = t.float() if t.dtype in (torch.float16, torch.bfloat16) else t
    w = input_storage(frequency_weights, dtypes.FROM_STORAGE[t.dtype]).to(y.dtype)
    wsum = torch.sum(w * torch.ones_like(y), dim=dims, keepdim=True)
    mean = _div_no_nan(torch.sum(w * y, dim=dims, keepdim=True), wsum)
    var = _div_no_nan(torch.sum(w * torch.square(y - mean), dim=dims, keepdim=True), wsum)
    if not keepdims:
        mean = mean.squeeze(dims)
        var = var.squeeze(dims)
    return wrap(mean.to(t.dtype)), wrap(var.to(t.dtype))


def _div_no_nan(a, b):
    zero = b == 0
    return torch.where(zero, torch.zeros_like(a), a / torch.where(zero, torch.ones_like(b), b))


@tf_export("nn.normalize_moments")
def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics: mean_ss / counts (+ shift), variance_ss / counts - mean^2."""
    m_ss = input_storage(mean_ss)
    dt = dtypes.FROM_STORAGE[m_ss.dtype]
    c = input_storage(counts, dt).to(m_ss.dtype)
    v_ss = input_storage(variance_ss, dt)
    shifted = m_ss / c
    mean = shifted if shift is None else shifted + input_storage(shift, dt)
    return wrap(mean), wrap(v_ss / c - shifted * shifted)


@tf_export("nn.batch_normalization")
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset."""
    t = input_storage(x)
    dt = dtypes.FROM_STORAGE[t.dtype]
    inv = torch.rsqrt(input_storage(variance, dt) + variance_epsilon)
    if scale is not None:
        inv = inv * input_storage(scale, dt)
    shift = -input_storage(mean, dt) * inv
    if offset is not None:
        shift = shift + input_storage(offset, dt)
    return wrap(t * inv.to(t.dtype) + shift.to(t.dtype))


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001, data_format="NHWC",
                     is_training=True, name=None, exponential_avg_factor=1.0):
    """TF's fused batch norm (`tf.compat.v1.nn.fused_batch_norm`): returns (y, mean, variance).

    Training: normalizes with the batch statistics and returns the batch mean and the Bessel-corrected batch
    variance, blended into `mean`/`variance` as `(1 - f) * old + f * batch` when `exponential_avg_factor` f < 1.
    Inference: normalizes with `mean`/`variance` and returns them. The returned statistics carry no gradient.
    """
    t = input_storage(x)
    if t.ndim not in (4, 5):
        raise ValueError(f"Input must be 4 or 5-dimensional, got shape {list(t.shape)}")
    channels_last = not str(data_format).startswith("NC")
    cf = _to_channels_first(t, t.ndim - 2, channels_last)
    c = cf.shape[1]
    st = torch.float32 if t.dtype in (torch.float16, torch.bfloat16) else t.dtype
    w = input_storage(scale).to(st)
    b = input_storage(offset).to(st)
    f = float(exponential_avg_factor)
    if (mean is None or variance is None) and (not is_training or f != 1.0):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean} and `variance` {variance}")
    if is_training:
        if f == 1.0:
            run_mean = torch.zeros(c, dtype=st, device=t.device)
            run_var = torch.zeros(c, dtype=st, device=t.device)
        else:
            run_mean = input_storage(mean).detach().to(st).clone()
            run_var = input_storage(variance).detach().to(st).clone()
        y = F.batch_norm(cf, run_mean, run_var, w.to(t.dtype) if st is t.dtype else w, b, True, f, float(epsilon))
        return wrap(_from_channels_first(y, t.ndim - 2, channels_last)), wrap(run_mean), wrap(run_var)
    m = input_storage(mean).to(st)
    v = input_storage(variance).to(st)
    y = F.batch_norm(cf, m, v, w, b, False, 0.0, float(epsilon))
    return wrap(_from_channels_first(y, t.ndim - 2, channels_last)), wrap(m), wrap(v)


@tf_export("nn.local_response_normalization", "nn.lrn")
def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):  # noqa: A002
    """input / (bias + alpha * sum(input ** 2 over channels d - r .. d + r)) ** beta, NHWC."""
    t = _float_input(input, "LRN")
    if t.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "in must be 4-dimensional [Op:LRN]")
    r = int(depth_radius)
    sq = (t * t).reshape(-1, 1, t.shape[-1])
    window = F.avg_pool1d(F.pad(sq, (r, r)), 2 * r + 1, 1) * (2 * r + 1)
    return wrap(t / torch.pow(bias + alpha * window.reshape(t.shape), beta))


# -- embeddings ------------------------------------------------------------------------

@tf_export("nn.embedding_lookup", unsupported=("max_norm",))
def embedding_lookup(params, ids, max_norm=None, name=None):
    """Rows of `params` (one tensor, or a list sharded by TF2's "div" strategy) for `ids` of any shape."""
    if isinstance(params, (list, tuple)):
        parts = [input_storage(p) for p in params]
        table = parts[0] if len(parts) == 1 else torch.cat(parts, 0)
        op = "GatherV2"
    else:
        table = input_storage(params)
        op = "GatherV2" if isinstance(params, Tensor) or not hasattr(params, "_read") else "ResourceGather"
    idx = input_storage(ids)
    if idx.dtype not in _INT_INDEX:
        names = "int16, int32, int64"
        raise _op_error(f"Value for attr 'Tindices' of {type_name(idx.dtype)} "
                        f"is not in the list of allowed values: {names}\n\t; NodeDef: {{{{node {op}}}}}; "
                        f"Op<name={op}>", op)
    n = table.shape[0]
    if idx.device.type == "cpu" and idx.numel():
        bad = (idx < 0) | (idx >= n)
        if bool(bad.any()):
            pos = [int(i) for i in torch.nonzero(bad)[0]]
            raise _op_error(f"indices[{','.join(map(str, pos))}] = {int(idx[tuple(pos)])} is not in [0, {n})", op)
    return wrap(table[idx.long() if idx.dtype is not torch.int64 else idx])


# -- layouts ---------------------------------------------------------------------------

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


# -- convolutions ---------------------------------------------------------------------

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


def _conv(x, w, nd, strides, padding, dilations, data_format, op):
    """The NHWC/NCHW convolution core: x, w are storages, w in TF layout."""
    if x.ndim != nd + 2:
        raise _op_error(f"convolution input must be {nd + 2}-dimensional: {_dims(x)}", op)
    if w.ndim != nd + 2:
        raise _op_error(f"convolution filter must be {nd + 2}-dimensional: {_dims(w)}", op)
    cl = _is_channels_last(data_format)
    st = _spatial_list(strides, nd, cl, "strides")
    dl = _spatial_list(dilations, nd, cl, "dilations")
    in_c = x.shape[-1] if cl else x.shape[1]
    f_in = w.shape[-2]
    if f_in == 0 or in_c % f_in:
        raise _op_error(f"input depth must be evenly divisible by filter depth: {in_c} vs {f_in}", op)
    cf = _to_channels_first(x, nd, cl)
    kt = _torch_kernel(w, nd)
    st, dl = _lift(st, nd, 1), _lift(dl, nd, 1)
    pairs = _padding_pairs(padding, cf.shape[2:], kt.shape[2:], st, dl, cl, op)
    cf, pads = _apply_pads(cf, pairs)
    y = _run(_CONV_FN[cf.ndim - 2], cf, kt, None, st, pads, dl, in_c // f_in)
    return _from_channels_first(y, nd, cl)


@tf_export("nn.conv2d")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """2-D convolution of NHWC (or NCHW) `input` with (kh, kw, in, out) `filters`."""
    x, w = _conv_inputs(input, filters, "Conv2D")
    if type(strides) is int and dilations is None and data_format == "NHWC" and x.ndim == 4 and w.ndim == 4 \
            and x.shape[3] == w.shape[2] and x.is_floating_point():
        pads = _fast_pads(padding, x.shape[1], x.shape[2], w.shape[0], w.shape[1], strides)
        if pads is not None:
            y = F.conv2d(x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1), None, strides, pads)
            return wrap(y.permute(0, 2, 3, 1))
    return wrap(_conv(x, w, 2, strides, padding, dilations, data_format, "Conv2D"))


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
    if cl:
        return wrap(x + b)
    return wrap(x + b.reshape([c] + [1] * (x.ndim - 2)))


# -- pooling ---------------------------------------------------------------------------

_MAX_POOL = {2: F.max_pool2d, 3: F.max_pool3d}
_AVG_POOL = {2: F.avg_pool2d, 3: F.avg_pool3d}


def _pool_setup(x, nd, ksize, strides, padding, data_format, op):
    cl = _is_channels_last(data_format)
    ks = _lift(_spatial_list(ksize, nd, cl, "ksize"), nd, 1)
    st = _lift(_spatial_list(strides, nd, cl, "strides"), nd, 1)
    cf = _to_channels_first(x, nd, cl)
    pairs = _padding_pairs(padding, cf.shape[2:], ks, st, [1] * len(ks), cl, op)
    return cl, ks, st, cf, pairs


def _check_pool_rank(x, nd, op):
    if x.ndim != nd + 2:
        raise _op_error("Input must be 4 or 5-dimensional" if nd != 1 else
                        f"input must be 3-dimensional{_dims(x)}", op)


def _max_pool(input, nd, ksize, strides, padding, data_format):  # noqa: A002
    op = "MaxPool3D" if nd == 3 else "MaxPool"
    x = unary_input(input, op, REAL)
    if nd == 2 and type(ksize) is int and type(strides) is int and data_format in ("NHWC", None) \
            and x.ndim == 4 and x.is_floating_point():
        pads = _fast_pads(padding, x.shape[1], x.shape[2], ksize, ksize, strides)
        if pads is not None:
            return wrap(F.max_pool2d(x.permute(0, 3, 1, 2), ksize, strides, pads).permute(0, 2, 3, 1))
    _check_pool_rank(x, nd, op)
    cl, ks, st, cf, pairs = _pool_setup(x, nd, ksize, strides, padding, data_format, op)
    if x.is_floating_point():
        cf, pads = _apply_pads(cf, pairs, float("-inf"))
    else:
        cf, pads = _apply_pads(cf, pairs, torch.iinfo(x.dtype).min)
    if x.is_floating_point():
        y = _MAX_POOL[cf.ndim - 2](cf, ks, st, pads)
    else:
        y = _MAX_POOL[cf.ndim - 2](cf.double(), ks, st, pads).to(x.dtype)
    return wrap(_from_channels_first(y, nd, cl))


def _avg_pool(input, nd, ksize, strides, padding, data_format):  # noqa: A002
    op = "AvgPool3D" if nd == 3 else "AvgPool"
    x = unary_input(input, op, FLOAT)
    _check_pool_rank(x, nd, op)
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding}.")
    cl, ks, st, cf, pairs = _pool_setup(x, nd, ksize, strides, padding, data_format, op)
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


# -- dropout and reshuffles -------------------------------------------------------------

@tf_export("nn.dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeroes elements with probability `rate` and scales the rest by 1 / (1 - rate)."""
    t = input_storage(x)
    if not t.is_floating_point():
        raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={dtypes.FROM_STORAGE[t.dtype]}")
    r = float(rate.numpy()) if isinstance(rate, Tensor) else float(rate)
    if not 0 <= r < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    if r == 0 and not isinstance(rate, Tensor):
        return x if isinstance(x, Tensor) else wrap(t)
    shape = list(t.shape) if noise_shape is None else [
        t.shape[i] if d is None else int(d) for i, d in enumerate(_noise_dims(noise_shape))]
    keep = torch.rand(shape, device=t.device, generator=generator_for(seed, t.device)) >= r
    return wrap(torch.where(keep, t * (1.0 / (1.0 - r)), torch.zeros((), dtype=t.dtype, device=t.device)))


def _noise_dims(noise_shape):
    if isinstance(noise_shape, Tensor):
        return int_list(noise_shape)
    if hasattr(noise_shape, "as_list"):
        return noise_shape.as_list()
    return list(noise_shape)


def _block(block_size, op):
    b = int(block_size)
    if b < 2:
        raise _op_error(f"Value for attr 'block_size' of {b} must be at least minimum 2", op)
    return b


def _nhwc_only(data_format, op):
    if data_format != "NHWC":
        raise NotImplementedError(f"tfcompat: tf.nn.{op}(data_format={data_format!r}) is not supported (TF's CPU "
                                  "kernels support only NHWC)")


@tf_export("nn.depth_to_space")
def depth_to_space(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Moves channel blocks into b x b spatial blocks: out[n, h*b+i, w*b+j, c] = in[n, h, w, (i*b+j)*C' + c]."""
    op = "DepthToSpace"
    b = _block(block_size, op)
    _nhwc_only(data_format, "depth_to_space")
    t = input_storage(input)
    n, h, w, c = t.shape
    if c % (b * b):
        raise _op_error(f"Input depth dimension {c} should be divisible by: {b * b}", op)
    co = c // (b * b)
    return wrap(t.reshape(n, h, w, b, b, co).permute(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, co))


@tf_export("nn.space_to_depth")
def space_to_depth(input, block_size, data_format="NHWC", name=None):  # noqa: A002
    """Inverse of depth_to_space: b x b spatial blocks become channel blocks."""
    op = "SpaceToDepth"
    b = _block(block_size, op)
    _nhwc_only(data_format, "space_to_depth")
    t = input_storage(input)
    n, h, w, c = t.shape
    if h % b or w % b:
        raise _op_error(f"Image width {w} and height {h} should be divisible by block_size: {b}", op)
    return wrap(t.reshape(n, h // b, b, w // b, b, c).permute(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b,
                                                                                         b * b * c))
