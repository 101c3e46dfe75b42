"""`tf.image` colour spaces and colour adjustments: HSV/YUV/YIQ, hue and saturation, and their random forms.

HSV conversions and the hue/saturation kernels follow TF's CPU kernels step by step in float32 (hue by
TF's h-category and value range, saturation through TF's internal HSV), so results agree to rounding.
"""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor, to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, input_storage, kernel_error, no_gradient, unary_input, wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops import image_ops, random_ops

_RANDOM_NOTE = "draws are tfcompat's random streams, not TF's (same distribution and argument checks)"
_STATELESS_NOTE = "draws are a deterministic function of `seed` but not TF's Philox values"


def _three_channels(t, op, message, cls=errors.InvalidArgumentError):
    if t.ndim == 0 or t.shape[-1] != 3:
        raise kernel_error(cls, message.format(t.shape[-1] if t.ndim else 0), op, t)


def _hsv_input(images, op):
    """A float image with 3 channels; non-tensor inputs convert to float32 (the op's default type, as TF's
    fast path converts them)."""
    if not isinstance(images, (Tensor, Variable)):
        images = to_storage(np.asarray(images, dtype=np.float32))
    t = unary_input(images, op, FLOAT)
    _three_channels(t, op, "input must have 3 channels but input only has {} channels.", errors.FailedPreconditionError)
    return t


# -- colour spaces --------------------------------------------------------------------------------------

def _hsv(r, g, b):
    """TF's RGBToHSV: hue in [0, 1) from the channel holding the max, 0 for greys."""
    v = torch.maximum(r, torch.maximum(g, b))
    spread = v - torch.minimum(r, torch.minimum(g, b))
    s = torch.where(v > 0, spread / v, torch.zeros_like(v))
    norm = 1.0 / (6.0 * spread)
    h = torch.where(r == v, norm * (g - b), torch.where(g == v, norm * (b - r) + 2.0 / 6.0, norm * (r - g) + 4.0 / 6.0))
    h = torch.where(spread > 0, h, torch.zeros_like(h))
    return torch.where(h < 0, h + 1, h), s, v


@tf_export("image.rgb_to_hsv")
def rgb_to_hsv(images, name=None):
    """RGB in [0, 1] to HSV with every component in [0, 1] (last axis of size 3, float images)."""
    t = _hsv_input(images, "RGBToHSV")
    return wrap(torch.stack(_hsv(t[..., 0], t[..., 1], t[..., 2]), dim=-1))


@tf_export("image.hsv_to_rgb")
def hsv_to_rgb(images, name=None):
    """HSV (components in [0, 1]) to RGB, as TF's HSVToRGB."""
    t = _hsv_input(images, "HSVToRGB")
    h, s, v = t[..., 0], t[..., 1], t[..., 2]
    dh = h * 6
    dr = torch.clamp(torch.abs(dh - 3) - 1, 0, 1)
    dg = torch.clamp(2 - torch.abs(dh - 2), 0, 1)
    db = torch.clamp(2 - torch.abs(dh - 4), 0, 1)
    rest = 1 - s
    rgb = torch.stack([(rest + s * dr) * v, (rest + s * dg) * v, (rest + s * db) * v], dim=-1)
    return wrap(rgb.detach())                # TF registers HSVToRGB as not differentiable (gradient None)


_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _linear(images, kernel):
    """images . kernel over the last axis, the kernel in the images' dtype (TF's tensordot)."""
    images = convert_to_tensor(images)
    k = storage(convert_to_tensor(kernel, dtype=images.dtype))
    t = storage(images)
    if t.ndim == 0 or t.shape[-1] != 3:
        c = t.shape[-1] if t.ndim else 1
        raise kernel_error(errors.InvalidArgumentError, f"Matrix size-incompatible: In[0]: [{t.numel() // max(c, 1)},"
                           f"{c}], In[1]: [3,3]", "MatMul", t)
    return wrap(torch.tensordot(t, k, dims=([t.ndim - 1], [0])))


@tf_export("image.rgb_to_yiq")
def rgb_to_yiq(images):
    """RGB to YIQ by TF's 3x3 matrix (over the last axis)."""
    return _linear(images, _RGB_TO_YIQ)


@tf_export("image.yiq_to_rgb")
def yiq_to_rgb(images):
    """YIQ to RGB by TF's 3x3 matrix (over the last axis)."""
    return _linear(images, _YIQ_TO_RGB)


@tf_export("image.rgb_to_yuv")
def rgb_to_yuv(images):
    """RGB to YUV by TF's 3x3 matrix (over the last axis)."""
    return _linear(images, _RGB_TO_YUV)


@tf_export("image.yuv_to_rgb")
def yuv_to_rgb(images):
    """YUV to RGB by TF's 3x3 matrix (over the last axis)."""
    return _linear(images, _YUV_TO_RGB)


# -- hue and saturation -----------------------------------------------------------------------------------

def _float_image(image, op):
    """(float32 storage for TF's kernel, the original DType): float32 kept, other dtypes rescaled to it."""
    t = input_storage(image)
    src = dtypes.FROM_STORAGE[t.dtype]
    if src is dtypes.float16:           # TF's CPU kernel is float32 only and the wrapper passes half through
        raise errors.op_error(
            errors.NotFoundError,
            f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_HALF]\nAll kernels registered for op "
            f"{op}:\n  device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_HALF]\n  device='CPU'; T in [DT_FLOAT]\n", op)
    if src is not dtypes.float32:
        t = image_ops._convert(t, dtypes.float32)
    if t.ndim < 3:
        raise kernel_error(errors.InvalidArgumentError,
                           f"input must be at least 3-D, got shape[{','.join(map(str, t.shape))}]", op, t)
    _three_channels(t, op, "input must have 3 channels but instead has {} channels.")
    return t, src


def _scalar_factor(value, op, what):
    f = input_storage(value, dtypes.float32) if not hasattr(value, "dtype") else input_storage(value)
    if f.ndim != 0:
        raise kernel_error(errors.InvalidArgumentError, f"{what} must be scalar: [{','.join(map(str, f.shape))}]",
                           op, f)
    return f.to(torch.float32)


def _hue_shift(t, delta):
    """TF's AdjustHue kernel: hue as h-category (0..5) plus ratio within the value range, shifted by 6 * delta."""
    r, g, b = t[..., 0], t[..., 1], t[..., 2]
    # the channel order decides the category, as TF's comparisons (ties fall to the same side)
    r_lt_g = r < g
    cat = torch.where(r_lt_g, torch.where(b < r, 1, torch.where(b > g, 3, 2)),
                      torch.where(b < g, 0, torch.where(b > r, 4, 5)))
    hi = torch.where(r_lt_g, torch.where(b > g, b, g), torch.where(b > r, b, r))
    lo = torch.where(r_lt_g, torch.where(b < r, b, r), torch.where(b < g, b, g))
    mid = torch.where(r_lt_g, torch.where(b < r, r, torch.where(b > g, g, b)),
                      torch.where(b < g, g, torch.where(b > r, r, b)))
    ratio = (mid - lo) / (hi - lo)
    h = cat.to(t.dtype) + torch.where(cat % 2 == 0, ratio, 1 - ratio)
    h = torch.where(hi == lo, torch.zeros_like(h), h)
    h = h + delta * 6
    for _ in range(2):
        h = torch.where(h < 0, h + 6, h)
    for _ in range(2):
        h = torch.where(h >= 6, h - 6, h)
    cat = h.to(torch.int32)
    frac = h - cat.to(h.dtype)
    frac = torch.where(cat % 2 == 0, frac, 1 - frac)
    mid = lo + frac * (hi - lo)
    out_r = torch.where((cat == 0) | (cat >= 5), hi, torch.where((cat == 1) | (cat == 4), mid, lo))
    out_g = torch.where((cat == 1) | (cat == 2), hi, torch.where((cat == 0) | (cat == 3), mid, lo))
    out_b = torch.where((cat == 3) | (cat == 4), hi, torch.where((cat == 2) | (cat >= 5), mid, lo))
    return torch.stack([out_r, out_g, out_b], dim=-1)


def _saturate(t, scale):
    """TF's AdjustSaturation kernel: HSV, s scaled and clipped to [0, 1], back to RGB by TF's internal formula."""
    h, s, v = _hsv(t[..., 0], t[..., 1], t[..., 2])
    s = torch.clamp(s * scale, 0.0, 1.0)
    c = s * v
    m = v - c
    dh = h * 6
    cat = dh.to(torch.int32)
    x = c * (1 - torch.abs(torch.remainder(dh, 2.0) - 1))
    zero = torch.zeros_like(c)
    rr = torch.where((cat == 0) | (cat == 5), c, torch.where((cat == 1) | (cat == 4), x, zero))
    gg = torch.where((cat == 1) | (cat == 2), c, torch.where((cat == 0) | (cat == 3), x, zero))
    bb = torch.where((cat == 3) | (cat == 4), c, torch.where((cat == 2) | (cat == 5), x, zero))
    return torch.stack([rr + m, gg + m, bb + m], dim=-1)


@tf_export("image.adjust_hue")
def adjust_hue(image, delta, name=None):
    """Rotates the hue by `delta` (a fraction of the colour wheel, in [-1, 1]); integer images round-trip."""
    if delta < -1 or delta > 1:
        raise ValueError("delta must be in the interval [-1, 1]")
    t, src = _float_image(image, "AdjustHue")
    d = _scalar_factor(delta, "AdjustHue", "delta")
    out = image_ops._convert(no_gradient(_hue_shift(t, d), "AdjustHue", t, d), src, saturate=False)
    return wrap(out)


@tf_export("image.adjust_saturation")
def adjust_saturation(image, saturation_factor, name=None):
    """Scales the HSV saturation by `saturation_factor` (clipped to [0, 1]); integer images round-trip."""
    t, src = _float_image(image, "AdjustSaturation")
    f = _scalar_factor(saturation_factor, "AdjustSaturation", "scale")
    out = image_ops._convert(no_gradient(_saturate(t, f), "AdjustSaturation", t, f), src, saturate=False)
    return wrap(out)


# -- random adjustments: one uniform draw, then the adjustment ----------------------------------------------

def _uniform(lo, hi, seed, stateless):
    if stateless:
        return random_ops.stateless_uniform([], seed=seed, minval=lo, maxval=hi)
    return random_ops.uniform([], lo, hi, seed=seed)


def _check_delta(max_delta, at_most=None):
    if at_most is not None and max_delta > at_most:
        raise ValueError(f"max_delta must be <= {at_most}.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


@tf_export("image.random_brightness", partial=_RANDOM_NOTE)
def random_brightness(image, max_delta, seed=None):
    """adjust_brightness by a delta drawn uniformly from [-max_delta, max_delta)."""
    _check_delta(max_delta)
    return image_ops.adjust_brightness(image, _uniform(-max_delta, max_delta, seed, False))


@tf_export("image.stateless_random_brightness", partial=_STATELESS_NOTE)
def stateless_random_brightness(image, max_delta, seed):
    """adjust_brightness by a delta drawn from [-max_delta, max_delta) as a function of `seed`."""
    _check_delta(max_delta)
    return image_ops.adjust_brightness(image, _uniform(-max_delta, max_delta, seed, True))


@tf_export("image.random_contrast", partial=_RANDOM_NOTE)
def random_contrast(image, lower, upper, seed=None):
    """adjust_contrast by a factor drawn uniformly from [lower, upper)."""
    _check_range(lower, upper)
    return image_ops.adjust_contrast(image, _uniform(lower, upper, seed, False))


@tf_export("image.stateless_random_contrast", partial=_STATELESS_NOTE)
def stateless_random_contrast(image, lower, upper, seed):
    """adjust_contrast by a factor drawn from [lower, upper) as a function of `seed`."""
    _check_range(lower, upper)
    return image_ops.adjust_contrast(image, _uniform(lower, upper, seed, True))


@tf_export("image.random_hue", partial=_RANDOM_NOTE)
def random_hue(image, max_delta, seed=None):
    """adjust_hue by a delta drawn uniformly from [-max_delta, max_delta), max_delta in [0, 0.5]."""
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, _uniform(-max_delta, max_delta, seed, False))


@tf_export("image.stateless_random_hue", partial=_STATELESS_NOTE)
def stateless_random_hue(image, max_delta, seed):
    """adjust_hue by a delta drawn from [-max_delta, max_delta) as a function of `seed`."""
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, _uniform(-max_delta, max_delta, seed, True))


@tf_export("image.random_saturation", partial=_RANDOM_NOTE)
def random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn uniformly from [lower, upper)."""
    _check_range(lower, upper)
    return adjust_saturation(image, _uniform(lower, upper, seed, False))


@tf_export("image.stateless_random_saturation", partial=_STATELESS_NOTE)
def stateless_random_saturation(image, lower, upper, seed=None):
    """adjust_saturation by a factor drawn from [lower, upper) as a function of `seed`."""
    _check_range(lower, upper)
    return adjust_saturation(image, _uniform(lower, upper, seed, True))
