"""Keras 3's geometric augmentation layers: RandomCrop, RandomShear, RandomPerspective, RandomErasing,
RandomGaussianBlur, and tf.keras's legacy
RandomHeight / RandomWidth (NHWC). Projective warps sample as TF's ImageProjectiveTransformV3 kernel."""
import random as py_random

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.engine import call_context
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._augment_base import (
    RANK_PLAIN, ImageAugmentLayer, checked_factor, factor_range, seed_generator_of, symmetric)


def _resize(x, h, w, method="bilinear"):
    from tfcompat.ops import image_ops
    return storage(image_ops.resize(_wrap(x), (h, w), method=method))


class RandomCrop(ImageAugmentLayer):
    """Crops every image of the batch at one random `(height, width)` window when training (an image not larger
    than the target on both sides is aspect-cropped at its centre and resized). Keras returns the input unchanged
    at inference (while its output spec says `(height, width)`)."""
    _COLOR_ONLY = False

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        # Keras's RandomCrop keeps a drawn seed in its config (drawn before its SeedGenerator draws its own)
        config_seed = seed if seed is not None else py_random.randint(1, int(1e9))
        super().__init__(seed=seed, data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width
        self.seed = config_seed

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_dict(inputs, training)
        x = input_storage(inputs)
        if x.ndim < 3:
            raise IndexError("tuple index out of range")
        if not training and not call_context.in_symbolic():
            return _wrap(x)
        return _wrap(self._crop(x, training))

    def _augment_mask(self, masks):
        return self._crop(masks, True)      # Keras crops masks as images (float, resized bilinear if needed)

    def _call_dict(self, data, training):
        if training or "segmentation_masks" not in data:
            return super()._call_dict(data, training)
        # Keras crops the masks even at inference (its mask transform runs as in training, on the centre window)
        # while the images pass unchanged
        out = super()._call_dict({k: v for k, v in data.items() if k != "segmentation_masks"}, training)
        out["segmentation_masks"] = _wrap(self._crop(input_storage(data["segmentation_masks"]), False))
        return out

    def _crop(self, x, training):
        h, w = x.shape[-3], x.shape[-2]
        # a symbolic call (the shapes a model infers) gives Keras's output spec, (height, width), as a training call
        if training and h > self.height and w > self.width:     # one window for the batch, offsets as tensors
            hs = torch.floor(self._uniform(1, 0, float(h - self.height + 1), x.device)).long()
            ws = torch.floor(self._uniform(1, 0, float(w - self.width + 1), x.device)).long()
            rows = hs + torch.arange(self.height, device=x.device)
            cols = ws + torch.arange(self.width, device=x.device)
            return self._float(x).index_select(-3, rows).index_select(-2, cols)
        else:
            ch = max(min(h, int(float(w * self.height) / self.width)), 1)
            cw = max(min(w, int(float(h * self.width) / self.height)), 1)
            hs, ws = int(float(h - ch) / 2), int(float(w - cw) / 2)
        out = self._float(x)[..., hs:hs + self.height, ws:ws + self.width, :]
        if out.shape[-3] != self.height or out.shape[-2] != self.width:
            out = self._float(_resize(out, self.height, self.width))
        return out

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[-3], shape[-2] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width, "seed": self.seed,
                       "data_format": self.data_format})
        return config


class _RandomResize1D(Layer):
    """tf.keras's legacy RandomHeight / RandomWidth: one factor per batch, drawn in `[1 + lower, 1 + upper)`, scales
    the image's height (width) with `tf.image.resize` when training."""
    _allow_non_tensor_positional_args = True
    _AXIS = -3
    _WHAT = "height"
    _LESS = "lesser"

    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor, self.interpolation, self.seed = factor, interpolation, seed
        lower, upper = (factor[0], factor[1]) if isinstance(factor, (tuple, list)) else (-factor, factor)
        if upper < lower:
            raise ValueError(f"`factor` argument cannot have an upper bound {self._LESS} than the lower bound. "
                             f"Received: factor={factor}")
        if lower < -1.0 or upper < -1.0:
            raise ValueError(f"`factor` argument must have values larger than -1. Received: factor={factor}")
        self._lower, self._upper = lower, upper
        self._generator = None
        self._seed_value = seed if seed is not None else py_random.randint(1, int(1e9))

    def call(self, inputs, training=True):
        x = input_storage(inputs)
        dtype = getattr(torch, self.compute_dtype)
        if x.dtype is not dtype:
            raise ValueError(f"Tensor conversion requested dtype {self.compute_dtype} for Tensor with dtype "
                             f"{str(x.dtype).replace('torch.', '')}: {_wrap(x)!r}")
        if not training:
            return _wrap(x)
        if x.ndim < 3:
            from tfcompat.framework import errors
            raise errors.InvalidArgumentError(None, None, "slice index -1 of dimension 0 out of bounds. "
                                                          "[Op:StridedSlice] name: strided_slice/")
        from tfcompat.keras import random as krandom
        # Keras's draw: one uniform factor per batch from the layer's SeedGenerator (TF's stateless Philox)
        f = float(storage(krandom.uniform((), minval=1.0 + self._lower, maxval=1.0 + self._upper,
                                          seed=seed_generator_of(self))))
        size = [x.shape[-3], x.shape[-2]]
        axis = 0 if self._AXIS == -3 else 1
        size[axis] = int(torch.tensor(f, dtype=torch.float32) * torch.tensor(float(size[axis]), dtype=torch.float32))
        from tfcompat.ops import image_ops
        out = storage(image_ops.resize(_wrap(x), size, method=self.interpolation))
        return _wrap(out.to(dtype))

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[self._AXIS] = None
        return tuple(shape)

    def _keras_output_spec(self, inputs, shape):
        return self.compute_output_shape(shape), self.compute_dtype

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "interpolation": self.interpolation, "seed": self.seed})
        return config


class RandomHeight(_RandomResize1D):
    """tf.keras.layers.RandomHeight (Keras 3's legacy layer, not in `keras.layers`)."""


class RandomWidth(_RandomResize1D):
    """tf.keras.layers.RandomWidth (Keras 3's legacy layer, not in `keras.layers`)."""
    _AXIS = -2
    _WHAT = "width"
    _LESS = "less"


# -- projective warps (TF's ImageProjectiveTransformV3) ----------------------------------------------------------

def _map_coordinate(c, n, mode):
    """TF's `map_coord` for `fill_mode`: the continuous coordinate folded into [0, n - 1] (`constant`: as is)."""
    if mode == "constant":
        return c
    if mode == "nearest":
        return c.clamp(0, n - 1)
    if n <= 1:
        return torch.zeros_like(c)
    if mode == "reflect":
        size2 = 2 * n
        low = c < 0
        cl = torch.where(c < -size2, size2 * torch.trunc(-c / size2) + c, c)
        cl = torch.where(cl < -n, cl + size2, -cl - 1)
        high = c > n - 1
        ch = c - size2 * torch.trunc(c / size2)
        ch = torch.where(ch >= n, size2 - ch - 1, ch)
        c = torch.where(low, cl, torch.where(high, ch, c))
    else:           # wrap
        period = n - 1
        low = c < 0
        high = c > n - 1
        cl = c + n * (torch.trunc(-c / period) + 1)
        ch = c - n * torch.trunc(c / period)
        c = torch.where(low, cl, torch.where(high, ch, c))
    return c.clamp(0, n - 1)


def projective_transform(x, transforms, interpolation, fill_mode, fill_value):
    """NHWC float `x` warped by per-image 8-vectors `[a0, a1, a2, b0, b1, b2, c0, c1]` mapping each output (x, y)
    to the input point `((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)`, `k = c0 x + c1 y + 1`.

    The image is padded by one pixel of `fill_value`: a sample index outside the image (clamped to that border)
    reads the fill, as TF's kernel does, without per-sample masks."""
    n, h, w, c = x.shape
    t = transforms.to(torch.float32).view(n, 8, 1, 1)
    ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32, device=x.device),
                            torch.arange(w, dtype=torch.float32, device=x.device), indexing="ij")
    k = t[:, 6] * xs + t[:, 7] * ys + 1
    in_x = (t[:, 0] * xs + t[:, 1] * ys + t[:, 2]) / k
    in_y = (t[:, 3] * xs + t[:, 4] * ys + t[:, 5]) / k
    in_x, in_y = _map_coordinate(in_x, w, fill_mode), _map_coordinate(in_y, h, fill_mode)
    outside = torch.tensor(-2.0, device=x.device)
    in_x = torch.where(k == 0, outside, in_x)          # TF: a degenerate projection reads the fill value
    if interpolation == "bilinear" and h > 1 and w > 1:
        # TF's bilinear read: the four neighbours of the (fill-mode mapped) point, each outside one the fill value;
        # that is grid_sample's zero padding on `x - fill`, shifted back (the weights sum to 1)
        grid = torch.stack([in_x * (2.0 / (w - 1)) - 1, in_y * (2.0 / (h - 1)) - 1], -1).to(x.dtype)
        fill = float(fill_value)
        img = (x - fill if fill else x).permute(0, 3, 1, 2)
        out = torch.nn.functional.grid_sample(img, grid, mode="bilinear", padding_mode="zeros", align_corners=True)
        out = out.permute(0, 2, 3, 1)
        return out + fill if fill else out
    padded = torch.nn.functional.pad(x, (0, 0, 1, 1, 1, 1), value=float(fill_value))
    flat = padded.reshape(n * (h + 2) * (w + 2), c)
    first = (torch.arange(n, device=x.device) * ((h + 2) * (w + 2))).view(n, 1, 1)

    def index(v, size):         # a sample index, the fill border for anything outside
        return v.clamp(-1, size).long() + 1

    def read(yi, xi):
        return flat.index_select(0, (first + yi * (w + 2) + xi).reshape(-1)).view(n, h, w, c)
    if interpolation == "nearest":
        def half_away(v):           # std::round, exactly (floor(v + 0.5) rounds 0.49999997 up in float32)
            f = torch.floor(v)
            frac = v - f
            return torch.where(frac > 0.5, f + 1, torch.where(frac < 0.5, f, torch.where(v >= 0, f + 1, f)))
        return read(index(half_away(in_y), h), index(half_away(in_x), w))
    y0, x0 = torch.floor(in_y), torch.floor(in_x)
    wy, wx = (in_y - y0).unsqueeze(-1).to(x.dtype), (in_x - x0).unsqueeze(-1).to(x.dtype)
    ya, yb, xa, xb = index(y0, h), index(y0 + 1, h), index(x0, w), index(x0 + 1, w)
    top = torch.lerp(read(ya, xa), read(ya, xb), wx)
    bottom = torch.lerp(read(yb, xa), read(yb, xb), wx)
    return torch.lerp(top, bottom, wy)


_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")
_SHEAR_ERROR = "The `factor` argument should be a number (or a list of two numbers) in the range [0, 1.0]. "


def _shear_factor(factor, name):
    return checked_factor(factor, name, _SHEAR_ERROR, lambda v: v > 1.0 or v < 0.0, symmetric)


class RandomShear(ImageAugmentLayer):
    """Shears each image along x and y by `s` uniform in `x_factor` / `y_factor`, both signs flipped together at
    random (TF's projective kernel: output (x, y) samples input `(x + sx * y, sy * x + y)`)."""
    _CAST_AT_INFERENCE = True
    _COLOR_ONLY = False

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                 data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.x_factor = _shear_factor(x_factor, "x_factor")
        self.y_factor = _shear_factor(y_factor, "y_factor")
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_FILL_MODES}.")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")
        self.fill_mode, self.fill_value, self.interpolation = fill_mode, fill_value, interpolation

    def _augment(self, x):
        return self._shear(self._float(x), self.interpolation)

    def _augment_mask(self, masks):
        return self._shear(masks, "nearest")

    def _shear(self, x, interpolation):
        n = x.shape[0]
        invert = torch.where(self._rand((n,), x.device) > 0.5, -1.0, 1.0)
        sy = self._uniform(n, *self.y_factor, x.device) * invert
        sx = self._uniform(n, *self.x_factor, x.device) * invert
        one, zero = torch.ones_like(sx), torch.zeros_like(sx)
        transforms = torch.stack([one, sx, zero, sy, one, zero, zero, zero], 1)
        return projective_transform(x, transforms, interpolation, self.fill_mode, self.fill_value)

    def get_config(self):
        config = super().get_config()
        config.update({"x_factor": self.x_factor, "y_factor": self.y_factor, "fill_mode": self.fill_mode,
                       "interpolation": self.interpolation, "seed": self.seed, "fill_value": self.fill_value,
                       "data_format": self.data_format})
        return config


class RandomErasing(ImageAugmentLayer):
    """With a probability drawn from `factor`, replaces one random rectangle of each image (its sides
    `sqrt(scale)`-fractions of the image's) by `fill_value` (default: Gaussian noise times `value_range[1]`),
    clipped to `value_range`."""
    _RANK_ERROR = RANK_PLAIN
    _CAST_AT_INFERENCE = True

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255), seed=None,
                 data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        try:
            self.scale = factor_range(scale, (0, 1))
        except ValueError:
            raise ValueError(f"The `scale` argument should be a number (or a list of two numbers) in the range "
                             f"[0, 1]. Received: factor={scale}") from None
        self.fill_value, self.value_range = fill_value, value_range

    def _fill(self, x):
        error = "The `fill_value` argument should be a number (or a list of three numbers) "
        fill = self.fill_value
        if fill is None:
            # Keras draws a full-size stateless normal here; tfcompat takes the image-sized noise from torch (TF's
            # Philox in Python would cost seconds per batch of 224x224 images) and advances the seed generator by
            # that one draw, so every later draw stays Keras's
            self._seed_generator().next()
            values = torch.randn(x.shape, generator=self._gen(x.device), device=x.device, dtype=x.dtype)
            values = values * self.value_range[1]
        elif isinstance(fill, (tuple, list)):
            if len(fill) != 3:
                raise ValueError(error)
            values = torch.tensor(fill, dtype=x.dtype, device=x.device).expand(x.shape)
        elif isinstance(fill, (int, float)):
            values = torch.full(x.shape, float(fill), dtype=x.dtype, device=x.device)
        else:
            raise ValueError(error)
        return values.clamp(self.value_range[0], self.value_range[1])

    def _augment(self, x):
        x = self._float(x)
        n, h, w, _ = x.shape
        dev = x.device
        weight = torch.sqrt(self._uniform((n, 2), *self.scale, dev)).to(x.dtype)

        def bounds(length, ratio):
            size = ratio * length
            start = self._rand((n,), dev).to(x.dtype) * (length - size)
            return start.view(-1, 1, 1, 1), (start + size).view(-1, 1, 1, 1)
        x0, x1 = bounds(w, weight[:, 0])
        y0, y1 = bounds(h, weight[:, 1])
        gy, gx = torch.meshgrid(torch.arange(h, dtype=x.dtype, device=dev), torch.arange(w, dtype=x.dtype, device=dev),
                                indexing="ij")
        gy, gx = gy[None, :, :, None], gx[None, :, :, None]
        mask = (gx >= x0) & (gx < x1) & (gy >= y0) & (gy < y1)
        probability = self._uniform(n, *self.factor, dev)
        apply = (self._rand((n,), dev) < probability).view(-1, 1, 1, 1)
        return torch.where(apply & mask, self._fill(x), x)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale, "fill_value": self.fill_value,
                       "value_range": self.value_range, "seed": self.seed})
        return config


class RandomPerspective(ImageAugmentLayer):
    """With a probability drawn from `factor`, moves each image's corners by up to `scale / 2` of their coordinates
    and warps it by the homography taking them back (TF's projective kernel, constant `fill_value`)."""
    _CAST_AT_INFERENCE = True
    _COLOR_ONLY = False

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0, seed=None, data_format=None,
                 **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        self.scale, self.fill_value, self.interpolation = scale, fill_value, interpolation
        if scale < 0.0 or scale > 1.0:
            raise ValueError(f"The `scale` argument should be a number in the range [0,1]. Received: scale={scale}")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")

    def _augment(self, x):
        return self._warp(self._float(x), self.interpolation)

    def _augment_mask(self, masks):
        return self._warp(masks, "nearest")

    def _warp(self, x, interpolation):
        n, h, w, _ = x.shape
        dev = x.device
        probability = self._uniform(n, *self.factor, dev)
        apply = self._rand((n,), dev) < probability
        moves = self._uniform((n, 4, 2), -0.5 * self.scale, 0.5 * self.scale, dev)
        start = torch.tensor([[0.0, 0.0], [w - 1, 0.0], [0.0, h - 1], [w - 1, h - 1]], device=dev).expand(n, 4, 2)
        end = start + start * moves
        out = projective_transform(x, homography(start, end), interpolation, "constant", self.fill_value)
        return torch.where(apply.view(-1, 1, 1, 1), out, x)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale, "interpolation": self.interpolation,
                       "fill_value": self.fill_value, "seed": self.seed})
        return config


def homography(start, end):
    """Keras's compute_homography_matrix: the 8 projective coefficients mapping `end` points onto `start` points
    (float32 solve of the 8x8 system)."""
    rows, target = [], []
    zero, one = torch.zeros_like(end[:, 0, 0]), torch.ones_like(end[:, 0, 0])
    for i in range(4):
        ex, ey, sx, sy = end[:, i, 0], end[:, i, 1], start[:, i, 0], start[:, i, 1]
        rows.append(torch.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], -1))
        rows.append(torch.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], -1))
        target += [sx, sy]
    return torch.linalg.solve(torch.stack(rows, 1), torch.stack(target, -1).unsqueeze(-1)).reshape(-1, 8)


def _kernel_size(value, name):
    error = f"{name} must be an odd number. Received: {name}={value}"
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise ValueError(f"The `{name}` argument should be a number (or a list of two numbers) Received: "
                             f"{name}={value}")
        if value[0] % 2 == 0 or value[1] % 2 == 0:
            raise ValueError(error)
        return value[0], value[1]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value % 2 == 0:
            raise ValueError(error)
        return value, value
    raise ValueError(error)


class RandomGaussianBlur(ImageAugmentLayer):
    """With a probability drawn from `factor`, blurs each image with a Gaussian of `kernel_size` (zero padding) whose
    x and y sigmas (one pair per batch) are uniform in `sigma`; clipped to `value_range`."""
    _RANK_ERROR = RANK_PLAIN
    _CAST_AT_INFERENCE = True

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255), data_format=None, seed=None,
                 **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        self.kernel_size = _kernel_size(kernel_size, "kernel_size")
        try:
            self.sigma = factor_range(sigma, (0, 1))
        except ValueError:
            raise ValueError(f"The `sigma` argument should be a number (or a list of two numbers) in the range "
                             f"[0, 1]. Received: factor={sigma}") from None
        self.value_range = value_range

    def _augment(self, x):
        x = self._float(x)
        n, dev = x.shape[0], x.device
        probability = self._uniform(n, *self.factor, dev)
        apply = self._rand((n,), dev) < probability
        sigma = self._uniform(2, *self.sigma, dev).to(x.dtype) + 1e-6
        kx, ky = (int(k) for k in self.kernel_size)

        def kernel1d(size, s):
            t = torch.arange(size, dtype=x.dtype, device=dev) - (size - 1) / 2
            k = torch.exp(-0.5 * (t / s) ** 2)
            return k / k.sum()
        kernel = torch.outer(kernel1d(ky, sigma[1]), kernel1d(kx, sigma[0])).reshape(kx, ky)   # Keras's reshape
        c = x.shape[-1]
        img = x.permute(0, 3, 1, 2)
        pad = ((ky - 1) // 2, ky - 1 - (ky - 1) // 2, (kx - 1) // 2, kx - 1 - (kx - 1) // 2)
        blurred = torch.nn.functional.conv2d(torch.nn.functional.pad(img, pad), kernel.expand(c, 1, kx, ky),
                                             groups=c).permute(0, 2, 3, 1)
        out = torch.where(apply.view(-1, 1, 1, 1), blurred, x)
        return torch.clamp(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "kernel_size": self.kernel_size, "sigma": self.sigma,
                       "value_range": self.value_range, "seed": self.seed})
        return config


def map_coordinates(img, ys, xs, order, fill_mode, fill_value):
    """Keras's map_coordinates of NHWC `img` at per-image points (`ys`, `xs`: (n, h, w)), every channel alike:
    order 0 rounds half to even, order 1 weighs the floor/ceil neighbours; each integer neighbour is folded by
    `fill_mode` (Keras's folds: 'reflect' as |i| mirrored with a shift, 'wrap' modulo, 'nearest' clamped) or, for
    'constant', replaced by `fill_value` outside."""
    n, h, w, c = img.shape

    def nodes(coord):
        if order == 0:
            return [(torch.round(coord), None)]
        low = torch.floor(coord)
        upper = coord - low
        return [(low, 1 - upper), (low + 1, upper)]

    def fold(index, size):
        index = index.long()
        if fill_mode == "constant":
            return index.clamp(0, size - 1), (index >= 0) & (index < size)
        if fill_mode == "nearest":
            return index.clamp(0, size - 1), None
        if fill_mode == "wrap":
            return torch.remainder(index, size), None
        index = index.abs()
        mod = torch.remainder(index, 2 * size)
        under = mod < size
        index = torch.where(under, mod, 2 * size - mod)
        return (torch.where(under, index, index - 1) if fill_mode == "reflect" else index), None
    flat = img.reshape(n * h * w, c)
    first = (torch.arange(n, device=img.device) * (h * w)).view(n, 1, 1)
    out = None
    for iy, wy in nodes(ys):
        sy, vy = fold(iy, h)
        for ix, wx in nodes(xs):
            sx, vx = fold(ix, w)
            values = flat.index_select(0, (first + sy * w + sx).reshape(-1)).view(n, h, w, c)
            if vy is not None:
                values = torch.where((vy & vx).unsqueeze(-1), values, torch.tensor(float(fill_value), dtype=img.dtype,
                                                                                   device=img.device))
            if wy is not None:
                values = (wy * wx).unsqueeze(-1).to(img.dtype) * values
            out = values if out is None else out + values
    return out


_ELASTIC_FILL_MODES = {"constant", "nearest", "wrap", "mirror", "reflect"}


class RandomElasticTransform(ImageAugmentLayer):
    """With a probability drawn from `factor`, displaces each image's pixels by a Gaussian-smoothed noise field
    (alpha = 0.1 * max(h, w) * s, sigma = 0.05 * min(h, w) * s, `s` uniform in `scale`, one per batch; Keras draws
    one field for both axes) sampled as Keras's map_coordinates; clipped to `value_range`."""
    _CAST_AT_INFERENCE = True
    _COLOR_ONLY = False

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                 value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        try:
            self.scale = factor_range(scale, (0, 1))
        except ValueError:
            raise ValueError(f"The `scale` argument should be a number (or a list of two numbers) in the range "
                             f"[0, 1]. Received: factor={scale}") from None
        self.interpolation, self.fill_mode, self.fill_value = interpolation, fill_mode, fill_value
        self.value_range = value_range
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")
        if fill_mode not in _ELASTIC_FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_ELASTIC_FILL_MODES}.")

    def _augment(self, x):
        x = self._float(x)
        if self.scale[1] == 0 or self.factor[1] == 0:
            return x
        if self.fill_mode not in _FILL_MODES:      # Keras's elastic_transform refuses 'mirror' when it runs
            raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one ('constant', 'nearest', "
                             f"'wrap', 'reflect'). Received: fill_mode={self.fill_mode}")
        n, h, w, _ = x.shape
        dev = x.device
        probability = self._uniform(n, *self.factor, dev)
        apply = self._rand((n,), dev) < probability
        s = self._uniform((), *self.scale, dev).to(x.dtype)
        alpha, sigma = max(h, w) * 0.1 * s, (min(h, w) * 0.05 * s).clamp_min(1e-12)
        noise = self._normal((n, 1, h, w), dev).to(x.dtype) * sigma
        # Keras's gaussian_blur of the field: kernel 6 * int(sigma) | 1, zero padding; the largest kernel the scale
        # allows, its taps beyond the drawn size zeroed (no host read of the random sigma)
        half_max = 3 * int(min(h, w) * 0.05 * self.scale[1])
        t = torch.arange(-half_max, half_max + 1, dtype=x.dtype, device=dev)
        taps = torch.where(t.abs() <= 3 * torch.floor(sigma), torch.exp(-0.5 * (t / sigma) ** 2), torch.zeros_like(t))
        taps = taps / taps.sum()
        field = torch.nn.functional.conv2d(noise, taps.view(1, 1, -1, 1), padding=(half_max, 0))
        field = torch.nn.functional.conv2d(field, taps.view(1, 1, 1, -1), padding=(0, half_max))[:, 0]
        ys, xs = torch.meshgrid(torch.arange(h, dtype=x.dtype, device=dev), torch.arange(w, dtype=x.dtype, device=dev),
                                indexing="ij")
        warped = map_coordinates(x, ys + alpha * field, xs + alpha * field, _INTERPOLATIONS.index(self.interpolation),
                                 self.fill_mode, self.fill_value)
        out = torch.where(apply.view(-1, 1, 1, 1), warped, x)
        return torch.clamp(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale, "interpolation": self.interpolation,
                       "fill_mode": self.fill_mode, "fill_value": self.fill_value, "value_range": self.value_range,
                       "seed": self.seed})
        return config
