"""`keras.ops.nn`: activations, convolutions and pools (through tfcompat's `tf.nn` kernels, as Keras's TF backend
calls TF's), normalizations and attention."""
import builtins
import math

import torch
import torch.nn.functional as F

from tfcompat.framework.tensor import _wrap
from tfcompat.keras._config import config as _config
from tfcompat.keras.ops._common import _floating, _pair, _promoted, _sparse_of, _st, _torch_dtype
from tfcompat.ops import conv_ops as _conv_ops
from tfcompat.ops import nn_ops as _nn_ops
from tfcompat.ops import pool_ops as _pool_ops
from tfcompat.ops.gather_ops import one_hot_rows

_FORMATS = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


def _data_format(data_format):
    fmt = _config.image_data_format if data_format is None else str(data_format).lower()
    if fmt not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return fmt


def _to_last(t, fmt):
    return torch.movedim(t, 1, -1) if fmt == "channels_first" else t


def _from_last(t, fmt):
    return torch.movedim(t, -1, 1) if fmt == "channels_first" else t


def _rank_format(t):
    fmt = _FORMATS.get(t.ndim)
    if fmt is None:
        raise ValueError(f"Input rank not supported: {t.ndim}. Expected values are [3, 4, 5]")
    return fmt


def _tuple(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v)


def _st_of(tensor):
    from tfcompat.framework.tensor import storage
    return storage(tensor)


# -- activations ------------------------------------------------------------------------------------------------
def _is_int(t):
    return not (t.is_floating_point() or t.is_complex())


def _refuse_ints(t, constant=None, kernel=None):
    """TF's error where Keras's TF backend mixes an integer `t` with a float `constant` (TypeError) or runs a
    float-only `kernel` on it (InvalidArgumentError)."""
    if not _is_int(t):
        return
    if kernel is not None:
        from tfcompat.ops import math_ops
        getattr(math_ops, kernel)(_wrap(t))
    from tfcompat.framework import dtypes
    raise TypeError(f"Cannot convert {float(constant)} to EagerTensor of dtype {dtypes.as_dtype(t.dtype).name}")


def _activation(fn, doc, constant=None, kernel=None):
    def op(x):
        t = _st(x)
        _refuse_ints(t, constant, kernel)
        return _wrap(fn(t))
    op.__doc__ = doc
    return op


tanh_shrink = _activation(lambda t: t - torch.tanh(t), "`x - tanh(x)`.", kernel="tanh")
sparse_plus = _activation(lambda t: torch.where(t <= -1, torch.zeros_like(t),
                                                torch.where(t < 1, 0.25 * torch.square(t + 1), t)),
                          "0 for `x <= -1`, `(x + 1)**2 / 4` for `|x| < 1`, `x` above.", constant=0.25)
sparse_sigmoid = _activation(lambda t: torch.where(t <= -1, torch.zeros_like(t),
                                                   torch.where(t >= 1, torch.ones_like(t), 0.5 * (t + 1))),
                             "0 for `x <= -1`, 1 for `x >= 1`, `(x + 1) / 2` between (Keras's nested wheres: "
                             "gradient 0 at both ends, as TF).", constant=0.0)
hard_silu = hard_swish = _activation(lambda t: t * (F.relu6(t + 3.0) / 6.0), "`x * relu6(x + 3) / 6`.",
                                     constant=3.0)


def _float_only(t):
    """TF's TypeError for an integer input where Keras's TF backend mixes it with a float constant."""
    if not (t.is_floating_point() or t.is_complex()):
        from tfcompat.framework import dtypes
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {dtypes.as_dtype(t.dtype).name}")
    return t


def celu(x, alpha=1.0):
    """`max(x, 0) + alpha * expm1(min(x, 0) / alpha)`."""
    t = _float_only(_st(x))
    return _wrap(torch.clamp(t, min=0) + alpha * torch.expm1(torch.clamp(t, max=0) / alpha))


def hard_tanh(x):
    """`clip(x, -1, 1)`."""
    t = _st(x)
    if not (t.is_floating_point() or t.is_complex()):
        from tfcompat.framework import dtypes
        raise TypeError(f"Cannot convert 1.0 to EagerTensor of dtype {dtypes.as_dtype(t.dtype).name}")
    return _wrap(torch.clamp(t, -1.0, 1.0))


def glu(x, axis=-1):
    """Gated linear unit: the first half times the sigmoid of the second half along `axis`."""
    t = _floating(_st(x))
    if t.shape[axis] % 2:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(t.shape)} with axis={axis}")
    a, b = torch.chunk(t, 2, dim=axis)
    return _wrap(a * torch.sigmoid(b))


def hard_shrink(x, threshold=0.5):
    """`x` where `|x| > threshold`, else 0."""
    t = _st(x)
    _refuse_ints(t, threshold)
    return _wrap(torch.where(torch.abs(t) > threshold, t, torch.zeros_like(t)))


def soft_shrink(x, threshold=0.5):
    """`x` shrunk toward 0 by `threshold` (0 inside it; ints computed in float and truncated, as TF)."""
    src = _st(x)
    t = _floating(src)
    out = torch.where(t > threshold, t - threshold, torch.where(t < -threshold, t + threshold, torch.zeros_like(t)))
    return _wrap(out.to(src.dtype))


def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value`: Keras's TF backend's `tf.where(x > threshold, x,
    default_value)` on `x` as given (a list fails at `>`; `default_value` takes `x`'s dtype, broadcasting)."""
    from tfcompat.ops import gather_ops
    return gather_ops.where(x > threshold, x, default_value)


def squareplus(x, b=4):
    """`(x + sqrt(x**2 + b)) / 2`."""
    t = _st(x)
    _refuse_ints(t, kernel="sqrt")
    return _wrap((t + torch.sqrt(torch.square(t) + b)) / 2)


def sparsemax(x, axis=-1):
    """Sparsemax along `axis` (computed as Keras's TF backend does)."""
    t = _st(x)
    if _is_int(t):
        from tfcompat.ops import math_ops
        math_ops.subtract(_wrap(t), _wrap(torch.zeros(t.shape, dtype=torch.float64)))     # TF's Sub error
    srt = torch.sort(t, dim=axis, descending=True).values
    cum = torch.cumsum(srt, dim=axis)
    shape = [1] * t.ndim
    shape[axis] = -1
    r = torch.arange(1, t.shape[axis] + 1, dtype=t.dtype, device=t.device).reshape(shape)
    support = srt - (cum - 1) / r > 0
    k = torch.sum(support.to(t.dtype), dim=axis, keepdim=True)
    tau = (torch.sum(torch.where(support, cum, torch.zeros_like(cum)), dim=axis, keepdim=True) - 1) / k
    return _wrap(torch.clamp(t - tau, min=0))


def polar(abs_, angle):
    """The complex number `abs_ * (cos(angle) + i sin(angle))`."""
    ta, tb = _st(abs_), _st(angle)
    if ta.dtype != tb.dtype:
        from tfcompat.ops import math_ops
        math_ops.multiply(_wrap(ta), _wrap(tb))      # TF's Mul error for mixed dtypes
    a, b = _floating(ta), _floating(tb)
    return _wrap(torch.complex(a * torch.cos(b), a * torch.sin(b)))


# -- convolutions and pools -------------------------------------------------------------------------------------
def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (kernel `(*spatial, in, out)`), `tf.nn.convolution` in channels-last layout."""
    fmt = _data_format(data_format)
    x = _to_last(_st(inputs), fmt)
    w = _st(kernel)
    nd = x.ndim - 2
    st, dil = _tuple(strides, nd), _tuple(dilation_rate, nd)
    if builtins.any(s > 1 for s in st) and builtins.any(d > 1 for d in dil):
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides="
                         f"[{' '.join(map(str, st))}] and dilation_rate=[{' '.join(map(str, dil))}]")
    out = _conv_ops.convolution(_wrap(x), _wrap(w), strides, padding.upper(), _rank_format(x), dilation_rate)
    return _wrap(_from_last(_st_of(out), fmt))


def _depthwise_2d(x, w, strides, padding, dilation):
    return _st_of(_conv_ops.depthwise_conv2d(_wrap(x), _wrap(w), (1,) + strides + (1,), padding, "NHWC", dilation))


def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """Depthwise 1-D or 2-D convolution (kernel `(*spatial, in, multiplier)`)."""
    fmt = _data_format(data_format)
    x = _to_last(_st(inputs), fmt)
    w = _st(kernel)
    nd = x.ndim - 2
    if nd > 2:
        raise ValueError(f"`inputs` rank must be 3 (1D conv) or 4 (2D conv). Received: {x.ndim}.")
    strides, dilation = _tuple(strides, nd), _tuple(dilation_rate, nd)
    if nd == 1:
        out = _depthwise_2d(x.unsqueeze(1), w.unsqueeze(0), (1,) + strides, padding.upper(), (1,) + dilation)
        out = out.squeeze(1)
    else:
        out = _depthwise_2d(x, w, strides, padding.upper(), dilation)
    return _wrap(_from_last(out, fmt))


def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """A depthwise convolution followed by a 1x1 pointwise one."""
    fmt = _data_format(data_format)
    mid = _st_of(depthwise_conv(_wrap(_to_last(_st(inputs), fmt)), depthwise_kernel, strides, padding,
                                "channels_last", dilation_rate))
    out = conv(_wrap(mid), pointwise_kernel, 1, "valid", "channels_last", 1)
    return _wrap(_from_last(_st_of(out), fmt))


def _transpose_size(size, kernel, stride, padding, output_padding, dilation):
    if padding.lower() not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}")
    kernel = (kernel - 1) * dilation + 1
    if padding.lower() == "valid":
        extra = builtins.max(kernel, stride) - kernel if output_padding is None else output_padding
        return (size - 1) * stride + kernel + extra
    if output_padding is None:
        return size * stride
    return (size - 1) * stride + kernel % 2 + output_padding


def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None, data_format=None,
                   dilation_rate=1):
    """Transposed convolution (kernel `(*spatial, out, in)`), output sized as Keras computes it."""
    fmt = _data_format(data_format)
    x = _to_last(_st(inputs), fmt)
    w = _st(kernel)
    nd = x.ndim - 2
    strides_t, dil = _tuple(strides, nd), _tuple(dilation_rate, nd)
    pads = (None,) * nd if output_padding is None else _tuple(output_padding, nd)
    spatial = [_transpose_size(x.shape[1 + i], w.shape[i], strides_t[i], padding, pads[i], dil[i])
               for i in range(nd)]
    for i in range(nd):
        k = (w.shape[i] - 1) * dil[i] + 1
        back = -(-spatial[i] // strides_t[i]) if padding.lower() == "same" else -(-(spatial[i] - k + 1) // strides_t[i])
        if back != x.shape[1 + i]:
            from tfcompat.framework import errors
            op = f"Conv{nd}DCustomBackpropInput" if nd > 1 else "Conv2DCustomBackpropInput"
            raise errors.op_error(errors.InvalidArgumentError, f"{op}: Size of out_backprop doesn't match computed: "
                                  f"actual = {x.shape[1 + i]}, computed = {back} spatial_dim: {i + 1} input: "
                                  f"{spatial[i]} filter: {w.shape[i]} output: {x.shape[1 + i]} stride: {strides_t[i]} "
                                  f"dilation: {dil[i]}", f"Conv{max(nd, 2)}DBackpropInput", name=None)
    out_shape = [x.shape[0]] + spatial + [w.shape[-2]]
    out = _conv_ops.conv_transpose(_wrap(x), _wrap(w), out_shape, strides_t, padding.upper(), _rank_format(x),
                                   dil)
    return _wrap(_from_last(_st_of(out), fmt))


def _pool(fn, inputs, pool_size, strides, padding, data_format):
    fmt = _data_format(data_format)
    x = _to_last(_st(inputs), fmt)
    nd = x.ndim - 2
    if nd not in (1, 2, 3):
        raise ValueError("Pooling inputs's shape must be 3, 4 or 5, corresponding to 1D, 2D and 3D inputs. "
                         f"But received shape: {tuple(x.shape)}.")
    strides = pool_size if strides is None else strides
    out = fn(_wrap(x), _tuple(pool_size, nd), _tuple(strides, nd), padding.upper(), _rank_format(x))
    return _wrap(_from_last(_st_of(out), fmt))


def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Max pooling (`strides` default to `pool_size`; integer inputs give float32, as Keras's TF backend)."""
    t = _st(inputs)
    return _pool(_pool_ops.max_pool, _wrap(t if t.is_floating_point() else t.to(torch.float32)), pool_size,
                 strides, padding, data_format)


def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """Average pooling (with `same` padding, padded entries are not counted, as TF's avg_pool)."""
    return _pool(_pool_ops.avg_pool, inputs, pool_size, strides, padding, data_format)


def _adaptive(inputs, output_size, data_format, kind):
    fmt = _data_format(data_format)
    t = _st(inputs)
    nd = t.ndim - 2
    if nd not in (1, 2, 3):
        raise ValueError(f"adaptive_{kind}_pool supports 1D, 2D, or 3D inputs only.")
    x = t if fmt == "channels_first" else torch.movedim(t, -1, 1)
    size = _tuple(output_size, nd)
    if kind == "average":
        fn = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d)[nd - 1]
        out = fn(_floating(x), size)
    else:
        fn = (F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d)[nd - 1]
        out = fn(x, size)
    return _wrap(out if fmt == "channels_first" else torch.movedim(out, 1, -1))


def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed `output_size` (window i covers `[floor(i L / n), ceil((i + 1) L / n))`)."""
    return _adaptive(inputs, output_size, data_format, "average")


def adaptive_max_pool(inputs, output_size, data_format=None):
    return _adaptive(inputs, output_size, data_format, "max")


def depth_to_space(x, block_size, data_format="channels_last"):
    t = _st(x)
    fmt = "channels_first" if data_format == "channels_first" else "channels_last"
    out = _nn_ops.depth_to_space(_wrap(_to_last(t, fmt)), block_size, data_format="NHWC")
    return _wrap(_from_last(_st_of(out), fmt))


def space_to_depth(x, block_size, data_format="channels_last"):
    t = _st(x)
    fmt = "channels_first" if data_format == "channels_first" else "channels_last"
    out = _nn_ops.space_to_depth(_wrap(_to_last(t, fmt)), block_size, data_format="NHWC")
    return _wrap(_from_last(_st_of(out), fmt))


def _pair4(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of an NCHW batch: `(N, C * kh * kw, L)`."""
    t = _st(x)
    return _wrap(F.unfold(t, _pair4(kernel_size), _pair4(dilation), _pair4(padding), _pair4(stride)))


def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """The inverse of `unfold`: blocks summed back into an NCHW batch."""
    t = _st(x)
    return _wrap(F.fold(t, _pair4(output_size), _pair4(kernel_size), _pair4(dilation), _pair4(padding),
                        _pair4(stride)))


# -- encodings -------------------------------------------------------------------------------------------------
def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """The max over the one-hot encodings of each row's ids (float32 unless `dtype`)."""
    if num_classes is None:
        num_classes = kwargs.pop("num_tokens", None)
    if kwargs:
        raise ValueError(f"Invalid keyword arguments: {list(kwargs)}")
    if num_classes is None:
        raise ValueError("Argument `num_classes` must be specified.")
    t = _st(inputs).long()
    dt = torch.float32 if dtype is None else _torch_dtype(dtype)
    valid = (t >= 0) & (t < num_classes)
    hot = one_hot_rows(torch.where(valid, t, 0), num_classes) * valid.unsqueeze(-1)
    if axis != -1:
        hot = torch.movedim(hot, -1, axis)
    reduce_axis = 1 if t.ndim > 1 else 0
    out = torch.amax(hot, dim=reduce_axis).to(dt)
    return _sparse_of(out) if sparse else _wrap(out)


# -- normalization ----------------------------------------------------------------------------------------------
def normalize(x, axis=-1, order=2, epsilon=None):
    """`x / max(norm(x), epsilon)` along `axis` (order 2 as `x * min(rsqrt(sum(x**2)), 1 / epsilon)`)."""
    if not isinstance(order, int) or not order >= 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order}")
    t = _st(x)
    if order == 2:
        _refuse_ints(t, kernel="rsqrt")
    t = _floating(t)
    if t.ndim == 0:
        t = t.unsqueeze(0)
    eps = _config.epsilon if epsilon is None else epsilon
    dims = axis if isinstance(axis, int) else tuple(axis)
    if order == 2:
        inv = torch.rsqrt(torch.sum(torch.square(t), dim=dims, keepdim=True))
        return _wrap(t * torch.minimum(inv, torch.tensor(1.0 / eps, dtype=torch.float64).to(t.dtype)))
    n = torch.linalg.vector_norm(t, ord=order, dim=dims, keepdim=True)
    return _wrap(t / torch.clamp(n, min=eps))


def _compute(t):
    return t.to(torch.promote_types(t.dtype, torch.float32)) if t.is_floating_point() else t.to(torch.float32)


def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """`(x - mean) / sqrt(var + epsilon) * gamma + beta` over `axis`, computed in at least float32 (the deprecated
    `rms_scaling=True`: `x / sqrt(var + epsilon) * gamma`, with Keras's warning)."""
    rms_scaling = kwargs.pop("rms_scaling", False)
    if rms_scaling:
        import warnings
        warnings.warn("You passed `rms_scaling=True`, which is deprecated. This argument incorrectly scales the input "
                      "by the variance, not the root mean square. To correctly use RMS Normalization, please use "
                      "`keras.ops.rms_normalization` / `keras.ops.nn.rms_normalization` instead.", stacklevel=2)
    src = _st(x)
    t = _compute(src)
    eps = _config.epsilon if epsilon is None else epsilon
    axes = sorted(a % t.ndim for a in ([axis] if isinstance(axis, int) else axis))
    bshape = [t.shape[d] if d in axes else 1 for d in range(t.ndim)]
    mean = torch.mean(t, dim=axes, keepdim=True)
    var = torch.mean(torch.square(t - mean), dim=axes, keepdim=True)
    inv = torch.rsqrt(var + eps)
    if rms_scaling:
        out = t * inv
        if gamma is not None:
            g = _st(gamma).to(t.dtype)
            out = out * (g.reshape(bshape) if g.ndim != t.ndim and axes != [t.ndim - 1] else g)
        return _wrap(out.to(src.dtype))
    if gamma is not None:
        g = _st(gamma).to(t.dtype)
        inv = inv * (g.reshape(bshape) if g.ndim != t.ndim and axes != [t.ndim - 1] else g)
    res = -mean * inv
    if beta is not None:
        b = _st(beta).to(t.dtype)
        res = res + (b.reshape(bshape) if b.ndim != t.ndim and axes != [t.ndim - 1] else b)
    return _wrap((t * inv + res).to(src.dtype))


def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """`x * rsqrt(mean(x**2) + epsilon) * scale` over `axis`, computed in at least float32."""
    src = _st(x)
    t = _compute(src)
    if t.ndim == 0:
        t = t.unsqueeze(0)
    eps = _config.epsilon if epsilon is None else epsilon
    dims = axis if isinstance(axis, int) else tuple(sorted(axis))
    out = t * torch.rsqrt(torch.mean(torch.square(t), dim=dims, keepdim=True) + eps)
    if scale is not None:
        out = out * _st(scale).to(t.dtype)
    return _wrap(out.to(src.dtype))


def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """`(x - mean) / sqrt(variance + epsilon) * scale + offset`, the statistics laid along `axis`."""
    t = _st(x)
    parts = [_st(v) for v in (mean, variance)] + [None if v is None else _st(v) for v in (offset, scale)]
    if axis != -1 and axis != t.ndim - 1:
        shape = [1] * t.ndim
        shape[axis] = parts[0].shape[0]
        parts = [None if p is None else p.reshape(shape) for p in parts]
    m, v, o, s = (None if p is None else _wrap(p) for p in parts)
    return _nn_ops.batch_normalization(_wrap(t), m, v, o, s, epsilon)


def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio: `20 log10(max_val) - 10 log10(mse)`."""
    a, b = _st(x1), _st(x2)
    if tuple(a.shape) != tuple(b.shape):
        raise ValueError(f"Input shapes {tuple(a.shape)} and {tuple(b.shape)} must match for PSNR calculation. ")
    a, b = _pair(a, b)
    a, b = _floating(a), _floating(b)
    mv = torch.tensor(max_val, dtype=b.dtype) if not hasattr(max_val, "dtype") else _st(max_val).to(b.dtype)
    mse = torch.mean(torch.square(a - b))
    return _wrap(20 * torch.log10(mv) - 10 * torch.log10(mse))


def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """Scaled dot-product attention over `(batch, seq, heads, dim)` tensors, as Keras's TF backend computes it."""
    if flash_attention:
        raise ValueError("Flash attention is not supported in tensorflow backend.")
    q, k, v = _promoted([query, key, value])
    if q.ndim != 4:
        raise ValueError("`dot_product_attention` only supports 4D inputs. Received: query.shape="
                         f"{tuple(q.shape)}, key.shape={tuple(k.shape)}, value.shape={tuple(v.shape)}.")
    nq, nk = q.shape[2], k.shape[2]
    if nq > nk > 1:
        k = torch.repeat_interleave(k, nq // nk, dim=2)
        v = torch.repeat_interleave(v, nq // nk, dim=2)
    if k.shape[2] != nq or k.shape[3] != q.shape[3] or k.shape[0] != q.shape[0]:
        from tfcompat.framework import errors
        raise errors.op_error(errors.InvalidArgumentError, f"Expected dimension {k.shape[2]} at axis 2 of the input "
                              f"shaped {list(q.shape)} but got dimension {nq}", "Einsum")
    if scale is None:
        scale = 1.0 / math.sqrt(k.shape[-1])
    logits_dtype = torch.promote_types(q.dtype, torch.float32)
    logits = torch.einsum("btnh,bsnh->bnts", q, k).to(logits_dtype) * scale
    if bias is not None:
        logits = logits + _st(bias).to(logits_dtype)
    if mask is not None or is_causal:
        keep = torch.ones_like(logits, dtype=torch.bool)
        if mask is not None:
            keep = keep & _st(mask).to(torch.bool)
        if is_causal:
            tq, ts = logits.shape[2], logits.shape[3]
            keep = keep & torch.tril(torch.ones((tq, ts), dtype=torch.bool, device=keep.device))
        large = (65500.0 if logits.dtype is torch.float16 else 3.38953e38) * -0.7
        logits = torch.where(keep, logits, torch.tensor(large, dtype=logits.dtype))
    probs = torch.softmax(logits.to(torch.promote_types(logits.dtype, torch.float32)), dim=-1).to(k.dtype)
    return _wrap(torch.einsum("bnts,bsnh->btnh", probs, v))
