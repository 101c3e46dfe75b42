"""`tf.nn`: activations, normalization, embeddings, dropout and the depth/space reshuffles."""
import math

import numpy as np
import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    FLOAT, FLOAT_COMPLEX, INT_BOOL, REAL, axis_list, check_dtype, input_storage, int_list, kernel_error, type_name,
    unary_input, wrap)
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.ops import reduction_ops
from tfcompat.ops._nn_common import _float_input, _from_channels_first, _op_error, _to_channels_first
from tfcompat.ops.random_ops import generator_for


_INT_INDEX = frozenset([torch.int16, torch.int32, torch.int64])
_UNSIGNED_WIDE = frozenset([torch.uint16, torch.uint32, torch.uint64])
_MOMENT_TYPES = frozenset([torch.bfloat16, torch.float16, torch.float32, torch.float64, torch.int32, torch.int64,
                           torch.complex64, torch.complex128])       # SquaredDifference's


# -- activations ----------------------------------------------------------------------

@tf_export("nn.relu")
def relu(features, name=None):
    """max(features, 0)."""
    try:
        t = unary_input(features, "Relu", REAL)
    except (TypeError, ValueError):
        if type(features) is RaggedTensor:      # TF's ragged dispatch, on the error path: dense calls pay nothing
            return features.with_flat_values(relu(features.flat_values))
        raise
    return wrap(t if t.dtype in _UNSIGNED_WIDE else torch.relu(t))      # torch has no kernel; relu is identity


@tf_export("nn.relu6")
def relu6(features, name=None):
    """min(max(features, 0), 6)."""
    t = unary_input(features, "Relu6", REAL)
    if t.dtype in (torch.uint16, torch.uint32, torch.uint64):     # no torch clamp: min(x, 6) on the int64 bits
        s = t.view(torch.int64) if t.dtype is torch.uint64 else t.to(torch.int64)   # uint64 >= 2**63: negative
        s = torch.where((s < 0) | (s > 6), 6, s)
        return wrap(s.to(t.dtype) if t.dtype is not torch.uint64 else s.view(t.dtype))
    return wrap(F.relu6(t) if t.is_floating_point() else torch.clamp(t, 0, 6))


@tf_export("nn.elu")
def elu(features, name=None):
    """features if > 0 else exp(features) - 1."""
    return wrap(F.elu(_float_input(features, "Elu")))


@tf_export("nn.selu")
def selu(features, name=None):
    """scale * elu(features, alpha), with TF's (and torch's) scale and alpha constants; its gradient at 0 is scale (TF's
    SeluGrad takes the linear branch there, torch's selu the exponential one)."""
    t = _float_input(features, "Selu")
    negative = torch.expm1(torch.clamp_max(t, 0)) * _SELU_ALPHA     # clamped: no inf * 0 in the unused branch's grad
    return wrap(torch.where(t >= 0, t, negative) * _SELU_SCALE)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


@tf_export("nn.gelu")
def gelu(features, approximate=False, name=None):
    """0.5 x (1 + erf(x / sqrt 2)); with `approximate`, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    t = input_storage(features)
    if type(t) is not torch.Tensor or not t.is_floating_point():
        d = dtypes.string if type(t) is not torch.Tensor else dtypes.FROM_STORAGE[t.dtype]
        raise ValueError(f"`features.dtype` must be a floating point tensor.Received:features.dtype={d!s}")
    return wrap(F.gelu(t, approximate="tanh" if approximate else "none"))


@tf_export("nn.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
    """features if > 0 else alpha * features; integer inputs are cast to float32 first (as TF)."""
    t = input_storage(features)
    if t.dtype in INT_BOOL:
        t = t.to(torch.float32)
    check_dtype(t, "LeakyRelu", FLOAT)
    return wrap(F.leaky_relu(t, float(np.float32(alpha))))        # alpha is a float32 attr in TF


@tf_export("nn.crelu")
def crelu(features, name=None, axis=-1):
    """concat([relu(features), relu(-features)], axis)."""
    t = unary_input(features, "Relu", REAL)
    return wrap(torch.cat([torch.relu(t), torch.relu(-t)], dim=int(axis)))


@tf_export("nn.silu", "nn.swish")
def silu(features, beta=1.0, name=None):
    """features * sigmoid(beta * features)."""
    t = unary_input(features, "Sigmoid", FLOAT_COMPLEX)
    if isinstance(beta, (int, float)) and beta == 1.0:
        return wrap(t * torch.sigmoid(t) if t.is_complex() else F.silu(t))
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
    if t.ndim == 0:
        raise kernel_error(errors.InvalidArgumentError, "logits must have >= 1 dimension, got []", "Softmax", t)
    return wrap(torch.softmax(t, _softmax_axis(t, axis)))


@tf_export("nn.log_softmax", "math.log_softmax")
def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits), axis)); axis defaults to -1."""
    t = unary_input(logits, "LogSoftmax", FLOAT)
    if t.ndim == 0:
        raise kernel_error(errors.InvalidArgumentError, "logits must have >= 1 dimension, got []", "LogSoftmax", t)
    return wrap(torch.log_softmax(t, _softmax_axis(t, axis)))


# -- normalization --------------------------------------------------------------------

@tf_export("nn.l2_normalize", "math.l2_normalize", "linalg.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if dim is not None:
        axis = dim
    t = input_storage(x)
    ss = storage(reduction_ops.reduce_sum(wrap(t.abs() ** 2 if t.is_complex() else t), axis, keepdims=True))  # axis errors
    if not (t.is_floating_point() or t.is_complex()):
        raise TypeError(f"Cannot convert {epsilon!r} to EagerTensor of dtype {dtypes.FROM_STORAGE[t.dtype].name}")
    if not t.is_complex():
        ss = storage(reduction_ops.reduce_sum(wrap(t * t), axis, keepdims=True))
    return wrap(t * torch.rsqrt(torch.clamp(ss, min=float(epsilon))))


def _moment_axes(t, axes):
    dims = axis_list(axes, t.ndim)
    return tuple(range(t.ndim)) if dims is None else dims


@tf_export("nn.moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) over `axes`; float16 is computed in float32 as TF."""
    t = input_storage(x)
    dims = _moment_axes(t, axes)
    check_dtype(t, "SquaredDifference", _MOMENT_TYPES)
    y = t.float() if t.dtype in (torch.float16, torch.bfloat16) else t
    if y.is_complex():                           # TF's SquaredDifference of complex values: d * conj(d)
        mean = _mean_kept(y, dims)
        d = y - mean.detach()
        var = _mean_kept(d * d.conj(), dims)
    elif y.is_floating_point():
        mean = _mean_kept(y, dims)
        var = _mean_kept(torch.square(y - mean.detach()), dims)
    else:
        n = max(math.prod(y.shape[d] for d in dims), 1)
        mean = torch.div(_sum_kept(y, dims), n, rounding_mode="trunc").to(y.dtype)
        var = torch.div(_sum_kept(torch.square(y - mean), dims), n, rounding_mode="trunc").to(y.dtype)
    if not keepdims:          # TF squeezes `axes`; with no axes that squeezes every size-1 axis
        mean = mean.squeeze(dims) if dims else mean.squeeze()
        var = var.squeeze(dims) if dims else var.squeeze()
    return wrap(mean.to(t.dtype)), wrap(var.to(t.dtype))


def _mean_kept(v, dims):
    """The mean over `dims` with them kept; no dims reduce nothing (torch's empty `dim` would reduce all)."""
    return torch.mean(v, dim=dims, keepdim=True) if dims else v


def _sum_kept(v, dims):
    return v.sum(dims, keepdim=True) if dims else v


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
