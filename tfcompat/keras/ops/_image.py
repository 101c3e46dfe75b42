"""`keras.ops.image`: color conversion, resizing, warps, patches, blurs and SSIM, as Keras 3's TF backend computes them
(through tfcompat's `tf.image` kernels where Keras calls TF's)."""
import itertools

import torch
import torch.nn.functional as F

from tfcompat.framework import dtypes as _dtypes
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.ops._common import _FLOATX, _st
from tfcompat.keras.ops._nn import _data_format, conv

_RESIZE = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")
_AFFINE_INTERPOLATIONS = ("nearest", "bilinear")
_AFFINE_FILL_MODES = ("constant", "nearest", "wrap", "reflect")
_MAP_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _shape_text(t):
    return "(" + ", ".join(str(d) for d in t.shape) + ("," if t.ndim == 1 else "") + ")"


def _check_rank(t, name="images"):
    if t.ndim not in (3, 4):
        raise ValueError(f"Invalid {name} rank: expected rank 3 (single image) or rank 4 (batch of images). Received "
                         f"input with shape: {name}.shape={_shape_text(t)}")


def _last(t, fmt):
    """Channels-last view of an image or batch in `fmt`."""
    if fmt == "channels_first":
        return torch.movedim(t, -3, -1)
    return t


def _back(t, fmt):
    if fmt == "channels_first":
        return torch.movedim(t, -1, -3)
    return t


def rgb_to_grayscale(images, data_format=None):
    """Luma `0.2989 R + 0.5870 G + 0.1140 B`, kept in the channel axis (1-channel images pass through)."""
    fmt = _data_format(data_format)
    t = _st(images)
    _check_rank(t)
    axis = -1 if fmt == "channels_last" else -3
    if t.shape[axis] not in (1, 3):
        raise ValueError("Invalid channel size: expected 3 (RGB) or 1 (Grayscale). Received input with shape: "
                         f"images.shape={_shape_text(t)}")
    if t.shape[axis] == 1:
        return _wrap(t.clone())
    work = t if t.is_floating_point() else t.to(_FLOATX)
    weights = torch.tensor([0.2989, 0.5870, 0.1140], dtype=work.dtype, device=work.device)
    out = torch.tensordot(torch.movedim(work, axis, -1), weights, dims=([-1], [0])).unsqueeze(axis)
    return _wrap(out.to(t.dtype))


def _hsv(images, data_format, fn):
    fmt = _data_format(data_format)
    t = _st(images)
    _check_rank(t)
    if not t.is_floating_point():
        raise ValueError(f"Invalid images dtype: expected float dtype. Received: images.dtype="
                         f"{_dtypes.as_dtype(t.dtype).name}")
    return _wrap(_back(storage(fn(_wrap(_last(t, fmt).contiguous()))), fmt).contiguous())


def rgb_to_hsv(images, data_format=None):
    from tfcompat.ops import image_color_ops
    return _hsv(images, data_format, image_color_ops.rgb_to_hsv)


def hsv_to_rgb(images, data_format=None):
    from tfcompat.ops import image_color_ops
    return _hsv(images, data_format, image_color_ops.hsv_to_rgb)


def _aspect_crop(t, size):
    h, w = t.shape[-3], t.shape[-2]
    th, tw = size
    ch = max(min(h, int(float(w * th) / tw)), 1)
    cw = max(min(w, int(float(h * tw) / th)), 1)
    top, left = int(float(h - ch) / 2), int(float(w - cw) / 2)
    return t[..., top:top + ch, left:left + cw, :]


def _aspect_pad(t, size, fill_value):
    h, w = t.shape[-3], t.shape[-2]
    th, tw = size
    ph = max(h, int(float(w * th) / tw))
    pw = max(w, int(float(h * tw) / th))
    top, left = int(float(ph - h) / 2), int(float(pw - w) / 2)
    if top > 0:
        band = torch.full(t.shape[:-3] + (top, w, t.shape[-1]), fill_value, dtype=t.dtype, device=t.device)
        t = torch.cat([band, t, band], dim=-3)
    if left > 0:
        band = torch.full(t.shape[:-2] + (left, t.shape[-1]), fill_value, dtype=t.dtype, device=t.device)
        t = torch.cat([band, t, band], dim=-2)
    return t


def _saturate(t, dtype):
    if not (dtype.is_floating_point or dtype.is_complex or dtype is torch.bool):
        info = torch.iinfo(dtype)
        t = torch.clamp(torch.nan_to_num(t.to(torch.float64)), info.min, info.max)
    return t.to(dtype)


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """Images resized to `size` (`tf.image.resize`), optionally cropped or padded to the target aspect ratio."""
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers. Received: size={size}")
    if size[0] <= 0 or size[1] <= 0:
        raise ValueError(f"`size` must have positive height and width. Received: size={size}")
    fmt = _data_format(data_format)
    if interpolation not in _RESIZE:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_RESIZE}. Received: "
                         f"interpolation={interpolation}")
    if fill_mode != "constant":
        raise ValueError("Invalid value for argument `fill_mode`. Only `'constant'` is supported. Received: "
                         f"fill_mode={fill_mode}")
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be `True`.")
    t = _st(images)
    _check_rank(t)
    t = _last(t, fmt)
    if crop_to_aspect_ratio:
        t = _aspect_crop(t, tuple(size))
    elif pad_to_aspect_ratio:
        t = _aspect_pad(t, tuple(size), fill_value)
    from tfcompat.ops import image_ops
    out = storage(image_ops.resize(_wrap(t.contiguous()), list(size), method=interpolation, antialias=antialias))
    if out.dtype != t.dtype:
        if not (t.is_floating_point() or t.is_complex() or t.dtype is torch.bool):
            out = torch.round(out)
        out = _saturate(out, t.dtype)
    return _wrap(_back(out, fmt).contiguous())


def _warp(images, transform, interpolation, fill_mode, fill_value, fmt):
    from tfcompat.keras.layers.preprocessing.augmentation_geometry import projective_transform
    t = _st(images)
    squeeze = t.ndim == 3
    if squeeze:
        t = t.unsqueeze(0)
    if fmt == "channels_first":
        t = torch.movedim(t, 1, -1)
    work = t if t.is_floating_point() else t.to(_FLOATX)
    tr = transform if transform.ndim == 2 else transform.unsqueeze(0)
    out = projective_transform(work, tr.to(torch.float32).expand(t.shape[0], 8) if tr.shape[0] == 1 else
                               tr.to(torch.float32), interpolation, fill_mode, fill_value).to(t.dtype)
    if fmt == "channels_first":
        out = torch.movedim(out, -1, 1)
    return _wrap((out.squeeze(0) if squeeze else out).contiguous())


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0,
                     data_format=None):
    """Images warped by 8-vectors `[a0, a1, a2, b0, b1, b2, c0, c1]` mapping output points to input points."""
    fmt = _data_format(data_format)
    if interpolation not in _AFFINE_INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_AFFINE_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if fill_mode not in _AFFINE_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {_AFFINE_FILL_MODES}. Received: "
                         f"fill_mode={fill_mode}")
    t = _st(images)
    _check_rank(t)
    tr = _st(transform)
    if tr.ndim not in (1, 2):
        raise ValueError("Invalid transform rank: expected rank 1 (single transform) or rank 2 (batch of "
                         f"transforms). Received input with shape: transform.shape={_shape_text(tr)}")
    n = 1 if t.ndim == 3 else t.shape[0]
    if tr.shape[-1] != 8 or (tr.ndim == 2 and tr.shape[0] not in (1, n)):
        from tfcompat.framework import errors
        raise errors.op_error(errors.InvalidArgumentError, "Input transform should be num_images x 8 or 1 x 8",
                              "ImageProjectiveTransformV3")
    return _warp(t, tr, interpolation, fill_mode, fill_value, fmt)


def _homography(start, end):
    """Per batch the 8 coefficients mapping `end` points onto `start` points."""
    n = start.shape[0]
    rows, rhs = [], []
    for i in range(4):
        ex, ey = end[:, i, 0], end[:, i, 1]
        sx, sy = start[:, i, 0], start[:, i, 1]
        one, zero = torch.ones_like(ex), torch.zeros_like(ex)
        rows.append(torch.stack([ex, ey, one, zero, zero, zero, -ex * sx, -ey * sx], -1))
        rows.append(torch.stack([zero, zero, zero, ex, ey, one, -ex * sy, -ey * sy], -1))
        rhs += [sx, sy]
    a = torch.stack(rows, 1).to(torch.float64)
    b = torch.stack(rhs, 1).to(torch.float64).reshape(n, 8, 1)
    return torch.linalg.solve(a, b).reshape(n, 8).to(torch.float32)


def perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0,
                          data_format=None):
    """Images warped so that the 4 `start_points` move to `end_points`."""
    fmt = _data_format(data_format)
    s = _st(start_points).to(torch.float32)
    e = _st(end_points).to(torch.float32)
    if interpolation not in _AFFINE_INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_AFFINE_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    t = _st(images)
    _check_rank(t)
    for name, p in (("start_points", s), ("end_points", e)):
        if p.ndim not in (2, 3) or tuple(p.shape[-2:]) != (4, 2):
            raise ValueError(f"Invalid {name} shape: expected (4,2) for a single image or (N,4,2) for a batch. "
                             f"Received shape: {_shape_text(p)}")
    if s.shape != e.shape:
        raise ValueError("start_points and end_points must have the same shape. Received start_points.shape="
                         f"{_shape_text(s)}, end_points.shape={_shape_text(e)}")
    s = s if s.ndim == 3 else s.unsqueeze(0)
    e = e if e.ndim == 3 else e.unsqueeze(0)
    return _warp(t, _homography(s, e), interpolation, "constant", fill_value, fmt)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """`inputs` sampled at `coordinates` (first axis: one coordinate array per input axis), order 0 or 1."""
    x = _st(inputs)
    c = _st(coordinates)
    if c.shape[0] != x.ndim:
        raise ValueError("First dim of `coordinates` must be the same as the rank of `inputs`. Received inputs with "
                         f"shape: {_shape_text(x)} and coordinate leading dim of {c.shape[0]}")
    if c.ndim < 2:
        raise ValueError(f"Invalid coordinates rank: expected at least rank 2. Received input with shape: "
                         f"{_shape_text(c)}")
    if fill_mode not in _MAP_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected one of {set(_MAP_FILL_MODES)}. "
                         f"Received: fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    wdtype = c.dtype if c.is_floating_point() else _FLOATX

    def nodes(coord):
        if order == 0:
            idx = coord if not coord.is_floating_point() else torch.round(coord)
            return [(idx.to(torch.int64), torch.ones((), dtype=wdtype))]
        lower = torch.floor(coord)
        up = (coord - lower).to(wdtype)
        idx = lower.to(torch.int64)
        return [(idx, 1 - up), (idx + 1, up)]

    def fix(idx, size):
        if fill_mode == "constant":
            return idx.clamp(0, size - 1), (idx >= 0) & (idx < size)
        if fill_mode == "nearest":
            return idx.clamp(0, size - 1), None
        if fill_mode in ("mirror", "reflect"):
            a = idx.abs()
            mod = torch.remainder(a, 2 * size)
            out = torch.where(mod < size, mod, 2 * size - mod)
            if fill_mode == "reflect":
                out = torch.where(mod >= size, out - 1, out)
            return out, None
        return torch.remainder(idx, size), None

    per_axis = []
    for coord, size in zip(c, x.shape):
        per_axis.append([fix(i, size) + (w,) for i, w in nodes(coord)])
    fill = torch.tensor(fill_value, dtype=wdtype)
    result = None
    for combo in itertools.product(*per_axis):
        idx = tuple(item[0].clamp(0, s - 1) for item, s in zip(combo, x.shape))
        vals = x[idx].to(wdtype)
        if fill_mode == "constant":
            ok = torch.ones_like(vals, dtype=torch.bool)
            for item in combo:
                ok = ok & item[1]
            vals = torch.where(ok, vals, fill)
        weight = combo[0][2]
        for item in combo[1:]:
            weight = weight * item[2]
        term = weight * vals
        result = term if result is None else result + term
    if not (x.is_floating_point() or x.is_complex()):
        result = torch.round(result)
    return _wrap(result.to(x.dtype))


def _gauss1d(size, sigma, dtype, device=None):
    x = torch.arange(size, dtype=dtype, device=device) - (size - 1) / 2
    k = torch.exp(-0.5 * torch.square(x / sigma))
    return k / torch.sum(k)


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """Images blurred by a separable Gaussian (`same` padding with zeros, depthwise)."""
    fmt = _data_format(data_format)
    t = _st(images)
    _check_rank(t)
    if isinstance(kernel_size, (int, float)) or isinstance(sigma, (int, float)):
        from tfcompat.framework import errors
        raise errors.op_error(errors.InvalidArgumentError, "Attempting to slice scalar input.", "StridedSlice")
    ks, sg = tuple(kernel_size), tuple(sigma)
    squeeze = t.ndim == 3
    x = t.unsqueeze(0) if squeeze else t
    if fmt == "channels_first":
        x = torch.movedim(x, 1, -1)
    dt = x.dtype if x.is_floating_point() else _FLOATX
    kernel = torch.outer(_gauss1d(ks[1], float(sg[1]), dt, x.device), _gauss1d(ks[0], float(sg[0]), dt, x.device))
    c = x.shape[-1]
    from tfcompat.ops import conv_ops
    w = kernel.reshape(ks[0], ks[1], 1, 1).expand(ks[0], ks[1], c, 1).contiguous()
    out = storage(conv_ops.depthwise_conv2d(_wrap(x.to(dt)), _wrap(w), [1, 1, 1, 1], "SAME"))
    if fmt == "channels_first":
        out = torch.movedim(out, -1, 1)
    return _wrap((out.squeeze(0) if squeeze else out).contiguous())


def sobel_edges(images, data_format=None):
    """`tf.image.sobel_edges`: (dy, dx) responses in a trailing axis of 2."""
    from tfcompat.ops import image_quality_ops
    t = _st(images)
    fmt = "channels_first" if data_format == "channels_first" else "channels_last"
    if fmt == "channels_first":
        t = torch.movedim(t, 1, -1)
    out = storage(image_quality_ops.sobel_edges(_wrap(t.contiguous())))
    if fmt == "channels_first":
        out = out.permute(0, 3, 1, 2, 4)
    return _wrap(out.contiguous())


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """Mean structural similarity of images (Gaussian window, `valid` filtering), per image."""
    fmt = _data_format(data_format)
    a, b = _st(image1), _st(image2)
    dtype = a.dtype
    cdt = a.dtype if a.is_floating_point() else _FLOATX
    a, b = a.to(cdt), b.to(cdt)
    _check_rank(a, "image1")
    _check_rank(b, "image2")
    unbatched = a.ndim == 3
    if unbatched:
        a, b = a.unsqueeze(0), b.unsqueeze(0)
    if fmt == "channels_first":
        a, b = torch.movedim(a, 1, -1), torch.movedim(b, 1, -1)
    n, h, w, c = a.shape
    g = _gauss1d(filter_size, filter_sigma, cdt, a.device)
    kernel = torch.outer(g, g).reshape(1, 1, filter_size, filter_size)
    a = a.permute(0, 3, 1, 2).reshape(-1, 1, h, w)
    b = b.permute(0, 3, 1, 2).reshape(-1, 1, h, w)

    from tfcompat.ops import conv_ops
    hwio = kernel.reshape(filter_size, filter_size, 1, 1)

    def filt(v):
        return storage(conv_ops.convolution(_wrap(v.reshape(-1, h, w, 1)), _wrap(hwio), 1, "VALID")).reshape(
            v.shape[0], 1, -1, max(w - filter_size + 1, 0))
    mu1, mu2 = filt(a), filt(b)
    s1 = filt(a * a) - mu1 * mu1
    s2 = filt(b * b) - mu2 * mu2
    s12 = filt(a * b) - mu1 * mu2
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    smap = (2.0 * mu1 * mu2 + c1) * (2.0 * s12 + c2) / ((mu1 * mu1 + mu2 * mu2 + c1) * (s1 + s2 + c2))
    out = smap.mean(dim=(1, 2, 3)).reshape(n, c).mean(-1)
    return _wrap((out.squeeze(0) if unbatched else out).to(dtype))


def _check_edges(names, values):
    if [values[0], values[2], values[4]].count(None) != 1:
        raise ValueError(f"Must specify exactly two of {names[0]}, {names[2]}, {names[4]}. Received: "
                         f"{names[0]}={values[0]}, {names[2]}={values[2]}, {names[4]}={values[4]}")
    if [values[1], values[3], values[5]].count(None) != 1:
        raise ValueError(f"Must specify exactly two of {names[1]}, {names[3]}, {names[5]}. Received: "
                         f"{names[1]}={values[1]}, {names[3]}={values[3]}, {names[5]}={values[5]}")
    for name, v in zip(names, values):
        if v is not None and v < 0:
            raise ValueError(f"Expected {name} to be a non-negative integer. Received {name}={v}")


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None,
               target_height=None, target_width=None, data_format=None):
    """Images zero-padded to `target_height` x `target_width` (two of top/bottom/target per axis given)."""
    fmt = _data_format(data_format)
    t = _st(images)
    if t.ndim not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received: images.shape={tuple(t.shape)}")
    names = ("top_padding", "left_padding", "bottom_padding", "right_padding", "target_height", "target_width")
    _check_edges(names, (top_padding, left_padding, bottom_padding, right_padding, target_height, target_width))
    h, w = (t.shape[-3], t.shape[-2]) if fmt == "channels_last" else (t.shape[-2], t.shape[-1])
    top = target_height - bottom_padding - h if top_padding is None else top_padding
    bottom = target_height - top - h if bottom_padding is None else bottom_padding
    left = target_width - right_padding - w if left_padding is None else left_padding
    right = target_width - left - w if right_padding is None else right_padding
    for name, v in (("top_padding", top), ("left_padding", left), ("right_padding", right),
                    ("bottom_padding", bottom)):
        if v < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={v}")
    pads = (0, 0, left, right, top, bottom) if fmt == "channels_last" else (left, right, top, bottom)
    return _wrap(F.pad(t, pads))


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None, right_cropping=None,
                target_height=None, target_width=None, data_format=None):
    """Images cropped to `target_height` x `target_width` (two of top/bottom/target per axis given)."""
    fmt = _data_format(data_format)
    t = _st(images)
    if t.ndim not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received: images.shape={tuple(t.shape)}")
    names = ("top_cropping", "left_cropping", "bottom_cropping", "right_cropping", "target_height", "target_width")
    _check_edges(names, (top_cropping, left_cropping, bottom_cropping, right_cropping, target_height, target_width))
    h, w = (t.shape[-3], t.shape[-2]) if fmt == "channels_last" else (t.shape[-2], t.shape[-1])
    top = h - target_height - bottom_cropping if top_cropping is None else top_cropping
    th = h - bottom_cropping - top if target_height is None else target_height
    left = w - target_width - right_cropping if left_cropping is None else left_cropping
    tw = w - right_cropping - left if target_width is None else target_width
    for name, v in (("top_cropping", top), ("target_height", th), ("left_cropping", left), ("target_width", tw)):
        if v < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={v}")
    if fmt == "channels_last":
        return _wrap(t[..., top:top + th, left:left + tw, :].contiguous())
    return _wrap(t[..., top:top + th, left:left + tw].contiguous())


def _patches(images, size, strides, dilation_rate, padding, data_format, nd):
    fmt = _data_format(data_format)
    t = _st(images)
    size = (size,) * nd if isinstance(size, int) else tuple(size)
    channels = t.shape[-1] if fmt == "channels_last" else t.shape[-nd - 1]
    strides = strides if strides else size
    out_dim = channels
    for s in size:
        out_dim *= s
    kernel = torch.eye(out_dim, dtype=t.dtype, device=t.device).reshape(size + (channels, out_dim))
    unbatched = t.ndim == nd + 1
    x = t.unsqueeze(0) if unbatched else t
    out = storage(conv(_wrap(x), _wrap(kernel), strides, padding, fmt, dilation_rate))
    return _wrap(out.squeeze(0) if unbatched else out)


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """Patches of `size` flattened into the channel axis (`(ph, pw, c)` order)."""
    if not isinstance(size, int):
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"Invalid `size` argument. Expected an int or a tuple. Received: size={size} of type "
                            f"{type(size).__name__}")
        if len(size) not in (2, 3):
            raise ValueError(f"Invalid `size` argument. Expected a tuple of length 2 or 3. Received: size={size} "
                             f"with length {len(size)}")
        if len(size) == 3:
            return _patches(images, size, strides, dilation_rate, padding, data_format, 3)
    return _patches(images, size, strides, dilation_rate, padding, data_format, 2)


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """3-D patches of `size` flattened into the channel axis."""
    if not isinstance(size, int) and len(size) != 3:
        raise TypeError(f"Invalid `size` argument. Expected an int or a tuple of length 3. Received: size={size}")
    return _patches(volumes, size, strides, dilation_rate, padding, data_format, 3)


_SCALE_METHODS = ("linear", "bilinear", "trilinear", "cubic", "bicubic", "tricubic", "lanczos3", "lanczos5")


def _triangle(x):
    return torch.clamp(1 - x.abs(), min=0)


def _keys_cubic(x):
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return torch.where(x >= 2.0, torch.zeros_like(x), torch.where(x >= 1.0, far, near))


def _lanczos(radius):
    def kernel(x):
        y = radius * torch.sin(torch.pi * x) * torch.sin(torch.pi * x / radius)
        safe = torch.where(x != 0, torch.pi ** 2 * x ** 2, torch.ones_like(x))
        out = torch.where(x > 1e-3, y / safe, torch.ones_like(x))
        return torch.where(x > radius, torch.zeros_like(x), out)
    return kernel


def _resample_weights(in_size, out_size, scale, translation, kernel, antialias):
    """(in_size, out_size) weights: output sample j reads input i with `kernel(|centre_j - i| / kernel_scale)`,
    each column normalised, columns whose centre falls outside the input zeroed (JAX's scale_and_translate)."""
    dt = scale.dtype
    inv = 1.0 / scale
    kscale = torch.clamp(inv, min=1.0) if antialias else torch.ones((), dtype=dt)
    centre = (torch.arange(out_size, dtype=dt, device=scale.device) + 0.5) * inv - translation * inv - 0.5
    w = kernel((centre[None, :] - torch.arange(in_size, dtype=dt, device=scale.device)[:, None]).abs() / kscale)
    total = w.sum(0, keepdim=True)
    w = torch.where(total.abs() > 1000.0 * float(torch.finfo(torch.float32).eps),
                    w / torch.where(total != 0, total, torch.ones_like(total)), torch.zeros_like(w))
    inside = (centre >= -0.5) & (centre <= in_size - 0.5)
    return torch.where(inside[None, :], w, torch.zeros_like(w))


def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method, antialias=True):
    """`images` resampled along `spatial_dims` to `output_shape`: output point `(x + 0.5 - translation) / scale - 0.5`
    of the input, filtered by the `method` kernel (widened by 1/scale when downsampling with `antialias`)."""
    if method not in _SCALE_METHODS:
        raise ValueError(f"Invalid value for argument `method`. Expected of one {set(_SCALE_METHODS)}. Received: "
                         f"method={method}")
    if method in ("linear", "bilinear", "trilinear"):
        kernel = _triangle
    elif method in ("cubic", "bicubic", "tricubic"):
        kernel = _keys_cubic
    else:
        kernel = _lanczos(3.0 if method == "lanczos3" else 5.0)
    t = _st(images)
    sc, tr = _st(scale), _st(translation)
    dt = torch.promote_types(sc.dtype, tr.dtype)
    dt = dt if dt.is_floating_point else _FLOATX
    sc, tr = sc.to(dt).to(t.device), tr.to(dt).to(t.device)
    if len(spatial_dims) == 0:
        return _wrap(t.clone())
    if not (t.is_floating_point() or t.is_complex()):
        # Keras's TF backend clips the rounded float result to the integer input's range: TF's Minimum refuses
        from tfcompat.ops import math_ops
        math_ops.minimum(_wrap(torch.zeros((), dtype=torch.float32)), _wrap(t.max()))
    out = t
    for i, d in enumerate(spatial_dims):
        d = d % t.ndim
        w = _resample_weights(t.shape[d], int(output_shape[d]), sc[i], tr[i], kernel, antialias).to(out.dtype)
        out = torch.movedim(torch.tensordot(out, w, dims=([d], [0])), -1, d)
    return _wrap(out)


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                      seed=None, data_format=None):
    """Images displaced by a Gaussian-smoothed random field (`alpha` its scale, `sigma` its smoothness), drawn as
    Keras's TF backend draws it: one stateless normal sample of the seed serves both the x and y fields."""
    fmt = _data_format(data_format)
    if interpolation not in _AFFINE_INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_AFFINE_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if fill_mode not in _AFFINE_FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {_AFFINE_FILL_MODES}. Received: "
                         f"fill_mode={fill_mode}")
    t = _st(images)
    _check_rank(t)
    from tfcompat.keras.random import seed_pair
    from tfcompat.ops import random_ops
    dtype = t.dtype
    sig = torch.tensor(sigma, dtype=dtype)
    alp = torch.tensor(alpha, dtype=dtype)
    ks = 6 * int(sig.to(torch.int32)) | 1
    squeeze = t.ndim == 3
    x = t.unsqueeze(0) if squeeze else t
    if fmt == "channels_last":
        n, h, w, c = x.shape
    else:
        n, c, h, w = x.shape
    pair = torch.tensor(seed_pair(seed), dtype=torch.int32)
    field = storage(random_ops.stateless_normal((n, h, w), _wrap(pair), dtype=_dtypes.as_dtype(dtype))) * sig
    axis = -1 if fmt == "channels_last" else 1
    blurred = storage(gaussian_blur(_wrap(field.unsqueeze(axis).to(x.device)), kernel_size=(ks, ks),
                                    sigma=(float(sig), float(sig)), data_format=fmt)).squeeze(axis)
    ys, xs = torch.meshgrid(torch.arange(h, dtype=dtype, device=x.device), torch.arange(w, dtype=dtype,
                                                                                         device=x.device),
                            indexing="ij")
    dist_x = xs.unsqueeze(0) + alp * blurred
    dist_y = ys.unsqueeze(0) + alp * blurred
    order = _AFFINE_INTERPOLATIONS.index(interpolation)
    planes = []
    for ch in range(c):
        per_image = []
        for b in range(n):
            plane = x[b, ..., ch] if fmt == "channels_last" else x[b, ch]
            coords = _wrap(torch.stack([dist_y[b], dist_x[b]]))
            per_image.append(storage(map_coordinates(_wrap(plane), coords, order, fill_mode, fill_value)))
        planes.append(torch.stack(per_image))
    out = torch.stack(planes, dim=-1 if fmt == "channels_last" else 1)
    return _wrap(out.squeeze(0) if squeeze else out)
