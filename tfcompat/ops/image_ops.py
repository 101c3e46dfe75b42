"""`tf.image`: resizing, cropping, flips, dtype conversion and colour basics on NHWC / HWC images.

Resizing follows TF2's `tf.image.resize` (half-pixel centres; float32 output except for nearest):
bilinear and nearest run torch's matching kernels; bicubic (Keys, a=-0.5), area and antialiased
kernels run as separable weight matrices built with TF's formulas.
"""
import enum
import math

import numpy as np
import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import check_dtype, input_storage, int_list, kernel_error, no_gradient, wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.ops.string_ops import _strings

_TENSORS = (Tensor, Variable)


@tf_export("image.ResizeMethod")
class ResizeMethod(str, enum.Enum):
    """TF's resize method names."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"

    def __str__(self):
        return self.value


def _image(x, name="image"):
    """(storage as 4-D NHWC, whether the input was a single HWC image)."""
    t = input_storage(x)
    if t.ndim == 3:
        return t.unsqueeze(0), True
    if t.ndim == 4:
        return t, False
    raise ValueError(f"'{name}' must have either 3 or 4 dimensions.")


def _shape_text(shape):
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _check_3d(t):
    """TF's _CheckAtLeast3DImage: rank >= 3 and no empty height, width or channel axis."""
    if t.ndim < 3:
        raise ValueError(f"'image' (shape {_shape_text(t.shape)}) must be at least three-dimensional.")
    if 0 in t.shape[-3:]:
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {_shape_text(t.shape)}")
    return t


def _at_least_3d(x):
    return _check_3d(input_storage(x))


def _out(t, single):
    return wrap(t[0] if single else t)


# -- resampling kernels (TF's sampling_kernels) ----------------------------------------------------------

def _triangle(x):
    return torch.clamp(1 - x.abs(), min=0)


def _keys_cubic(x):
    x = x.abs()
    return torch.where(x < 1, (1.5 * x - 2.5) * x * x + 1,
                       torch.where(x < 2, ((-0.5 * x + 2.5) * x - 4) * x + 2, torch.zeros_like(x)))


def _mitchell_cubic(x):
    x = x.abs()
    return torch.where(x < 1, (7 / 6) * x ** 3 - 2 * x * x + 8 / 9,
                       torch.where(x < 2, -(7 / 18) * x ** 3 + 2 * x * x - (10 / 3) * x + 16 / 9,
                                   torch.zeros_like(x)))


def _lanczos(radius):
    def k(x):
        return torch.where(x.abs() < radius, torch.sinc(x) * torch.sinc(x / radius), torch.zeros_like(x))
    return k


def _gaussian(x):
    """sigma 0.5, support radius 3 * sigma."""
    return torch.where(x.abs() < 1.5, torch.exp(-x * x / (2 * 0.25)), torch.zeros_like(x))


_KERNELS = {"bilinear": _triangle, "bicubic": _keys_cubic, "mitchellcubic": _mitchell_cubic,
            "lanczos3": _lanczos(3), "lanczos5": _lanczos(5), "gaussian": _gaussian}


def _scale_translate_weights(n_in, n_out, method, antialias, device):
    """(n_out, n_in) weights of TF's ScaleAndTranslate (kernel widened when downsampling with antialias)."""
    kernel = _KERNELS[method]
    f32 = np.float32
    inv = f32(1.0 / (f32(n_out) / f32(n_in)))         # float32 steps as TF's kernel, for equal boundary taps
    kscale = max(inv, f32(1)) if antialias else f32(1)
    centre = (torch.arange(n_out, dtype=torch.float32, device=device) + 0.5) * float(inv)
    pos = torch.arange(n_in, dtype=torch.float32, device=device) + 0.5 - centre[:, None]
    w = kernel((pos * float(f32(1.0 / kscale))).abs()).double()
    total = w.sum(1, keepdim=True)
    return torch.where(total.abs() > 1000 * np.finfo(np.float32).tiny, w / total, torch.zeros_like(w))


def _bicubic_weights(n_in, n_out, device):
    """(n_out, n_in) weights of TF's ResizeBicubic with half-pixel centres (out-of-range taps dropped)."""
    scale = float(np.float32(n_in) / np.float32(n_out))
    src = (torch.arange(n_out, dtype=torch.float32, device=device) + 0.5) * scale - 0.5
    base = torch.floor(src)
    src = (base + torch.round((src - base) * 1024) / 1024).double()   # TF looks weights up in a 1024-step table
    base = base.double()
    w = torch.zeros(n_out, n_in, dtype=torch.float64, device=device)
    rows = torch.arange(n_out, device=device)
    for off in (-1, 0, 1, 2):
        idx = base + off
        tap = _keys_cubic(src - idx)
        inside = (idx >= 0) & (idx < n_in)
        w[rows[inside], idx[inside].long()] += tap[inside]
    return w / w.sum(1, keepdim=True)


def _area_weights(n_in, n_out, device):
    """(n_out, n_in) weights of TF's ResizeArea: each output averages the input span it covers."""
    scale = n_in / n_out
    lo = torch.arange(n_out, dtype=torch.float64, device=device) * scale
    hi = lo + scale
    j = torch.arange(n_in, dtype=torch.float64, device=device)
    overlap = torch.clamp(torch.minimum(hi[:, None], j + 1) - torch.maximum(lo[:, None], j), min=0)
    return overlap / scale


def _separable(t, wh, ww):
    """Applies (out_h, in_h) and (out_w, in_w) weights to NHWC float `t`."""
    wh, ww = wh.to(t.dtype), ww.to(t.dtype)
    tmp = torch.einsum("oh,nhwc->nowc", wh, t)
    return torch.einsum("pw,nowc->nopc", ww, tmp)


def _resize(t, h, w, method, antialias):
    """Resizes NHWC storage `t` to (h, w); float32 result except nearest, which keeps the dtype."""
    n_in_h, n_in_w = t.shape[1], t.shape[2]
    if method == "nearest":
        return t if t.shape[1:3] == (h, w) else _nearest_gather(t, h, w)
    x = t.float() if t.dtype is not torch.float32 else t
    if n_in_h == 0 or n_in_w == 0 or h == 0 or w == 0:
        return x.new_zeros((t.shape[0], h, w, t.shape[3]))
    dev = t.device
    if method == "bilinear" and not antialias:
        y = F.interpolate(x.permute(0, 3, 1, 2), size=(h, w), mode="bilinear", align_corners=False)
        return y.permute(0, 2, 3, 1)
    if method == "area":
        return _separable(x, _area_weights(n_in_h, h, dev), _area_weights(n_in_w, w, dev))
    if method == "bicubic" and not antialias:
        return _separable(x, _bicubic_weights(n_in_h, h, dev), _bicubic_weights(n_in_w, w, dev))
    return _separable(x, _scale_translate_weights(n_in_h, h, method, antialias, dev),
                      _scale_translate_weights(n_in_w, w, method, antialias, dev))


def _nearest_index(n_in, n_out, device):
    """TF's half-pixel nearest source index, floor((i + 0.5) * in / out) in float32."""
    scale = np.float32(n_in) / np.float32(n_out)
    src = (torch.arange(n_out, device=device, dtype=torch.float32) + 0.5) * float(scale)
    return torch.clamp(src.floor().long(), max=n_in - 1)


def _nearest_gather(t, h, w):
    return t[:, _nearest_index(t.shape[1], h, t.device)][:, :, _nearest_index(t.shape[2], w, t.device)]


def _resize_op(method, antialias):
    """The TF kernel `tf.image.resize` runs for `method` (its name shows in errors)."""
    fixed = {"nearest": "ResizeNearestNeighbor", "area": "ResizeArea"}
    if method in fixed:
        return fixed[method]
    if not antialias and method in ("bilinear", "bicubic"):
        return "ResizeBilinear" if method == "bilinear" else "ResizeBicubic"
    return "ScaleAndTranslate"


def _method(method):
    m = method.value if isinstance(method, ResizeMethod) else str(method)
    if m not in ("nearest", "area") and m not in _KERNELS:
        raise ValueError(f"Resize method is not implemented: {method}")
    return m


@tf_export("image.resize")
def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False, antialias=False,
           name=None):
    """Resizes NHWC/HWC images to `size` = [height, width] (TF2 semantics, half-pixel centres)."""
    t, single = _image(images, "images")
    try:       # TF converts `size` to int32 as convert_to_tensor does: floats only from a NumPy array
        size = convert_to_tensor(size, dtypes.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    if size.shape != (2,):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    dims = size.numpy().tolist()
    m = _method(method)
    h, w = dims
    if preserve_aspect_ratio and 0 not in t.shape[1:3]:    # TF scales in float32 and rounds half to even
        f32 = np.float32
        scale = min(f32(h) / f32(t.shape[1]), f32(w) / f32(t.shape[2]))
        h, w = int(np.round(f32(t.shape[1]) * scale)), int(np.round(f32(t.shape[2]) * scale))
    if 0 in t.shape[1:3] or h <= 0 or w <= 0:
        raise kernel_error(errors.InvalidArgumentError, "input image must be of non-zero size" if 0 in t.shape[1:3]
                           else "output dimensions must be positive", _resize_op(m, antialias), t)
    return _out(_resize(t, h, w, m, bool(antialias)), single)


@tf_export("image.resize_with_pad")
def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR, antialias=False):
    """Resizes keeping the aspect ratio to fit the target, then zero-pads to exactly the target size."""
    t, single = _image(image)
    th, tw = int(target_height), int(target_width)
    h, w = t.shape[1], t.shape[2]
    ratio = max(w / tw, h / th)
    rh, rw = math.floor(np.float32(h / ratio)), math.floor(np.float32(w / ratio))
    ph = max(0, math.floor((th - h / ratio) / 2))
    pw = max(0, math.floor((tw - w / ratio) / 2))
    resized = _resize(t, rh, rw, _method(method), bool(antialias))
    return _out(_pad(resized, ph, pw, th, tw), single)


def _check_crop(t, oh, ow, th, tw):
    if ow < 0:
        raise ValueError("offset_width must be >= 0.")
    if oh < 0:
        raise ValueError("offset_height must be >= 0.")
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    if t.shape[2] < tw + ow:
        raise ValueError("width must be >= target + offset.")
    if t.shape[1] < th + oh:
        raise ValueError("height must be >= target + offset.")


@tf_export("image.crop_to_bounding_box")
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The [target_height, target_width] window at (offset_height, offset_width)."""
    t, single = _image(image)
    oh, ow, th, tw = (int(v) for v in (offset_height, offset_width, target_height, target_width))
    _check_crop(t, oh, ow, th, tw)
    return _out(t[:, oh:oh + th, ow:ow + tw], single)


def _pad(t, oh, ow, th, tw):
    h, w = t.shape[1], t.shape[2]
    if oh < 0:
        raise ValueError("offset_height must be >= 0")
    if ow < 0:
        raise ValueError("offset_width must be >= 0")
    if th - oh - h < 0:
        raise ValueError("height must be <= target - offset")
    if tw - ow - w < 0:
        raise ValueError("width must be <= target - offset")
    return F.pad(t, (0, 0, ow, tw - ow - w, oh, th - oh - h))


@tf_export("image.pad_to_bounding_box")
def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Zero-pads to [target_height, target_width] with the image at (offset_height, offset_width)."""
    t, single = _image(image)
    return _out(_pad(t, int(offset_height), int(offset_width), int(target_height), int(target_width)), single)


@tf_export("image.resize_with_crop_or_pad")
def resize_with_crop_or_pad(image, target_height, target_width):
    """Centre-crops and/or zero-pads to the target size."""
    t, single = _image(image)
    _check_3d(t)
    th, tw = int(target_height), int(target_width)
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    h, w = t.shape[1], t.shape[2]
    ch, cw = max((h - th) // 2, 0), max((w - tw) // 2, 0)
    cropped = t[:, ch:ch + min(th, h), cw:cw + min(tw, w)]
    return _out(_pad(cropped, max((th - h) // 2, 0), max((tw - w) // 2, 0), th, tw), single)


@tf_export("image.central_crop")
def central_crop(image, central_fraction):
    """The central `central_fraction` (0, 1] of each image's height and width."""
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction != 1.0:
        _at_least_3d(image)
    t, single = _image(image)
    if central_fraction == 1.0:
        return wrap(input_storage(image))
    h, w = t.shape[1], t.shape[2]
    sh = int((h - h * central_fraction) / 2)
    sw = int((w - w * central_fraction) / 2)
    return _out(t[:, sh:h - sh, sw:w - sw], single)


# -- flips and rotations -------------------------------------------------------------------------------

@tf_export("image.flip_left_right")
def flip_left_right(image):
    """Reverses the width axis."""
    t = _at_least_3d(image)
    return wrap(torch.flip(t, [-2]))


@tf_export("image.flip_up_down")
def flip_up_down(image):
    """Reverses the height axis."""
    t = _at_least_3d(image)
    return wrap(torch.flip(t, [-3]))


def _random_flip(image, seed, axis):
    """TF's `_random_flip`: one `random_uniform` op (TF's values when seeded); an image flips when its draw is below
    0.5, a batch's image i when round(draw i) is 1 (`flips * flipped + (1 - flips) * image`)."""
    from tfcompat.ops import random_ops
    t = _at_least_3d(image)
    if t.ndim == 3:
        flip = float(random_ops.uniform([], 0, 1.0, seed=seed)) < 0.5
        return wrap(torch.flip(t, [axis]) if flip else t)
    draws = input_storage(random_ops.uniform([t.shape[0]], 0, 1.0, seed=seed)).to(t.device)
    flips = torch.round(draws).reshape(-1, 1, 1, 1).to(t.dtype)
    return wrap(flips * torch.flip(t, [axis]) + (1 - flips) * t)


@tf_export("image.random_flip_left_right")
def random_flip_left_right(image, seed=None):
    """Flips each image left-right with probability 1/2."""
    return _random_flip(image, seed, -2)


@tf_export("image.random_flip_up_down")
def random_flip_up_down(image, seed=None):
    """Flips each image up-down with probability 1/2."""
    return _random_flip(image, seed, -3)


@tf_export("image.rot90")
def rot90(image, k=1, name=None):
    """Rotates counter-clockwise by k * 90 degrees."""
    _at_least_3d(image)
    t, single = _image(image, "image")
    return _out(torch.rot90(t, int(k) % 4, dims=(1, 2)), single)


@tf_export("image.transpose")
def transpose(image, name=None):
    """Swaps the height and width axes."""
    _at_least_3d(image)
    t, single = _image(image, "image")
    return _out(t.transpose(1, 2), single)


# -- dtype conversion and colour ------------------------------------------------------------------------

def _convert(t, dtype, saturate=False):
    """TF's convert_image_dtype on storage: ints scale to [0, MAX], floats live in [0, 1]."""
    src = dtypes.FROM_STORAGE[t.dtype]
    if src is dtype:
        return t
    if not ((src.is_integer or src.is_floating) and (dtype.is_integer or dtype.is_floating)):
        raise AttributeError("dtype must be either floating point or integer")
    target = dtype.torch_dtype
    if src.is_integer and dtype.is_integer:
        in_max, out_max = int(src.max), int(dtype.max)
        if in_max > out_max:
            scale = (in_max + 1) // (out_max + 1)
            return torch.div(t, scale, rounding_mode="floor").to(target)
        scale = (out_max + 1) // (in_max + 1)
        return t.to(target) * scale
    if src.is_floating and dtype.is_floating:
        return t.to(target)
    if src.is_integer:
        return t.to(target) * (1.0 / int(src.max))
    scaled = t * torch.tensor(float(dtype.max) + 0.5, dtype=t.dtype)     # the scale in the image's dtype, as TF
    if saturate:                # TF's saturate_cast: the bounds both dtypes hold (float16: +-65504 for int32)
        info = torch.finfo(t.dtype)
        scaled = torch.clamp(scaled, max(info.min, float(dtype.min)), min(info.max, float(dtype.max)))
    return torch.trunc(scaled).to(target)


@tf_export("image.convert_image_dtype")
def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Converts between image dtypes, rescaling: floats in [0, 1], integers in [0, MAX]."""
    return wrap(_convert(input_storage(image), dtypes.as_dtype(dtype), saturate))


def _as_float(t):
    """Storage for TF's float adjustments: half and float32 kept, any other dtype converted to float32 (integers
    rescaled to [0, 1]), and the original DType to convert back to."""
    src = dtypes.FROM_STORAGE[t.dtype]
    return (t if src in (dtypes.float16, dtypes.float32) else _convert(t, dtypes.float32)), src


def _back(t, src):
    return _convert(t, src, saturate=True)


@tf_export("image.adjust_brightness")
def adjust_brightness(image, delta):
    """image + delta (in [0, 1] units for integer images, saturated back)."""
    t, src = _as_float(input_storage(image))
    d = input_storage(delta).to(t.dtype) if isinstance(delta, _TENSORS) else float(delta)
    return wrap(_back(t + d, src))


@tf_export("image.adjust_contrast")
def adjust_contrast(images, contrast_factor):
    """(x - mean) * contrast_factor + mean, the mean per image and channel over height and width."""
    x = input_storage(images)
    if x.ndim < 3:
        raise kernel_error(errors.InvalidArgumentError, f"input must be at least 3-D, got shape"
                           f"[{','.join(map(str, x.shape))}]", "AdjustContrastv2", x)
    t, src = _as_float(x)
    mean = t.mean(dim=(-3, -2), keepdim=True)
    factor = input_storage(contrast_factor)
    out = _back((t - mean) * factor.to(t.dtype) + mean, src)
    return wrap(no_gradient(out, "AdjustContrastv2", x, factor))   # TF has no gradient for it


@tf_export("image.adjust_gamma")
def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma (integer images rescaled to [0, 1] and back)."""
    t, src = _as_float(input_storage(image))
    if float(gamma) < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    return wrap(_back(float(gain) * t ** float(gamma), src))


@tf_export("image.per_image_standardization")
def per_image_standardization(image):
    """(x - mean) / max(stddev, 1/sqrt(N)) over each image's last three axes, in float32."""
    t = _at_least_3d(image).float()
    n = t.shape[-1] * t.shape[-2] * t.shape[-3]
    mean = t.mean(dim=(-3, -2, -1), keepdim=True)
    std = torch.sqrt(torch.mean(torch.square(t - mean), dim=(-3, -2, -1), keepdim=True))     # TF's reduce_std
    return wrap((t - mean) / torch.clamp(std, min=1.0 / math.sqrt(n)))


_GRAY = (0.2989, 0.5870, 0.1140)


@tf_export("image.rgb_to_grayscale")
def rgb_to_grayscale(images, name=None):
    """Luma 0.2989 R + 0.5870 G + 0.1140 B, keeping a last axis of size 1 and the dtype."""
    x = input_storage(images)
    if x.ndim == 0 or x.shape[-1] != 3:
        c = x.shape[-1] if x.ndim else 1
        raise kernel_error(errors.InvalidArgumentError, f"Matrix size-incompatible: In[0]: "
                           f"[{x.numel() // max(c, 1)},{c}], In[1]: [3,1]", "MatMul", x)
    src = dtypes.FROM_STORAGE[x.dtype]
    t = _convert(x, dtypes.float32)                  # TF converts every dtype, half included, to float32
    r, g, b = t[..., 0:1], t[..., 1:2], t[..., 2:3]     # TF's float32 dot: (r*w0 + g*w1) + b*w2, each rounded
    return wrap(_back((r * _GRAY[0] + g * _GRAY[1]) + b * _GRAY[2], src))


@tf_export("image.grayscale_to_rgb")
def grayscale_to_rgb(images, name=None):
    """Repeats a size-1 last axis three times."""
    t = input_storage(images)
    if t.shape[-1] != 1:
        raise ValueError("Last dimension of a grayscale image should be size 1.")
    return wrap(t.expand(*t.shape[:-1], 3).contiguous())


@tf_export("image.random_crop")
def random_crop(value, size, seed=None, name=None):
    """A random window of shape `size` from `value` (offsets uniform per axis)."""
    from tfcompat.ops import random_ops
    t = input_storage(value)
    dims = int_list(size)
    if len(dims) != t.ndim:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Incompatible shapes: [{t.ndim}] vs. [{len(dims)}]", "GreaterEqual")
    if any(s < d for s, d in zip(t.shape, dims)):
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            "b'Need value.shape >= size, got '\n" + ", ".join(map(str, t.shape)) + "\n" + ", ".join(map(str, dims)))
    # TF: one random_uniform op in [0, int32 max), modulo each axis's room (TF's values when seeded)
    draws = random_ops.uniform([len(dims)], minval=0, maxval=2**31 - 1, dtype=dtypes.int32, seed=seed)
    offsets = [int(v) % (s - d + 1) for v, s, d in zip(draws.numpy().tolist(), t.shape, dims)]
    return wrap(t[tuple(slice(o, o + d) for o, d in zip(offsets, dims))])


@tf_export("image.extract_patches")
def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Patches of [1, kh, kw, 1] windows as the depth of the output, ordered (row, column, channel)."""
    t = input_storage(images)
    if t.ndim != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {t.ndim}")
    _, kh, kw, _ = int_list(sizes)
    _, sh, sw, _ = int_list(strides)
    _, rh, rw, _ = int_list(rates)
    n, h, w, c = t.shape
    x = t.permute(0, 3, 1, 2)
    eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
    pad = str(padding.decode() if isinstance(padding, bytes) else padding).upper()
    if pad == "SAME":
        oh, ow = -(-h // sh), -(-w // sw)
        ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
        x = F.pad(x, (pw // 2, pw - pw // 2, ph // 2, ph - ph // 2))
    elif pad == "VALID":
        oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
    else:
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding}")
    if not x.dtype.is_floating_point:
        cols = F.unfold(x.double(), (kh, kw), dilation=(rh, rw), stride=(sh, sw)).to(t.dtype)
    else:
        cols = F.unfold(x, (kh, kw), dilation=(rh, rw), stride=(sh, sw))
    cols = cols.reshape(n, c, kh * kw, oh, ow).permute(0, 3, 4, 2, 1)
    return wrap(cols.reshape(n, oh, ow, kh * kw * c))


@tf_export("image.psnr")
def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio per image (over the last three axes), in float32."""
    x, y = input_storage(a), input_storage(b)
    mv = torch.tensor(float(input_storage(max_val)) if isinstance(max_val, _TENSORS) else float(max_val))
    if not x.dtype.is_floating_point:
        mv = mv / float(dtypes.FROM_STORAGE[x.dtype].max)
    x, y = _convert(x, dtypes.float32), _convert(y, dtypes.float32)
    mse = torch.mean((x - y) ** 2, dim=(-3, -2, -1))
    return wrap((20 * torch.log(mv) / math.log(10.0)).to(mse.device) - np.float32(10 / np.log(10)) * torch.log(mse))


@tf_export("image.total_variation")
def total_variation(images, name=None):
    """Sum of absolute differences of neighbouring pixels, per image (3-D or 4-D tensors)."""
    if not isinstance(images, _TENSORS):
        images.get_shape()          # Python's own AttributeError for what has no get_shape
    t = input_storage(images)
    if t.ndim not in (3, 4):
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    check_dtype(t, "Abs", _ABS_TYPES)
    dh = (t[..., 1:, :, :] - t[..., :-1, :, :]).abs()
    dw = (t[..., :, 1:, :] - t[..., :, :-1, :]).abs()
    return wrap((dh.sum(dim=(-3, -2, -1)) + dw.sum(dim=(-3, -2, -1))).to(t.dtype))


_ABS_TYPES = frozenset([torch.bfloat16, torch.float16, torch.float32, torch.float64, torch.int8, torch.int16,
                        torch.int32, torch.int64])


@tf_export("image.image_gradients")
def image_gradients(image):
    """(dy, dx): forward differences along height and width, zero in the last row/column."""
    t = input_storage(image)
    if t.ndim != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {list(t.shape)}.")
    n, h, w, d = t.shape
    for empty, values in ((h == 0, n * w * d), (w == 0, n * h * d)):
        if empty and values:           # TF pads the empty difference to one row/column, then reshapes
            raise kernel_error(errors.InvalidArgumentError, f"Input to reshape is a tensor with {values} values, but "
                               f"the requested shape has 0", "Reshape", t)
    dy = F.pad(t[:, 1:] - t[:, :-1], (0, 0, 0, 0, 0, 1))
    dx = F.pad(t[:, :, 1:] - t[:, :, :-1], (0, 0, 0, 1))
    return wrap(dy), wrap(dx)


@tf_export("image.is_jpeg")
def is_jpeg(contents, name=None):
    """Whether each string starts with JPEG's signature bytes FF D8 FF."""
    arr = _strings(contents, "Substr")
    out = np.vectorize(lambda b: b[:3] == b"\xff\xd8\xff", otypes=[np.bool_])(arr) if arr.size else \
        np.zeros(arr.shape, np.bool_)
    return wrap(torch.from_numpy(np.asarray(out, dtype=np.bool_)))
