"""Keras 3's colour augmentation layers: brightness, grayscale, hue, saturation, colour jitter and degeneration,
inversion, posterization, sharpness, solarization, and the deterministic AutoContrast and Equalization (NHWC).

Randomness is per image (one draw per image of the batch), as Keras's, with Keras's numbers for a given seed (see
`_augment_base`)."""
import torch

from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.layers.preprocessing._augment_base import (
    RANK_COLON, RANK_PLAIN, ImageAugmentLayer, cast_like_tf, checked_factor, factor_range, grayscale, rescale,
    share_generator, value_range_checked)


def _hsv(x):
    from tfcompat.ops import image_color_ops
    return storage(image_color_ops.rgb_to_hsv(_wrap(x)))


def _rgb(x):
    from tfcompat.ops import image_color_ops
    return storage(image_color_ops.hsv_to_rgb(_wrap(x)))


def _per_image(values):
    return values.view(-1, 1, 1, 1)


class RandomBrightness(ImageAugmentLayer):
    """Adds `delta * (value_range[1] - value_range[0])` to each image, `delta` uniform in `factor`; clipped to
    `value_range` (integer images stay integer, as in Keras)."""
    _RANK_ERROR = RANK_PLAIN

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor_range(factor or 0.0, (-1, 1))
        self.value_range = value_range_checked(value_range)

    def _augment(self, x):
        delta = self._uniform(x.shape[0], *self.factor, x.device) * (self.value_range[1] - self.value_range[0])
        delta = cast_like_tf(_per_image(delta), x.dtype)
        return torch.clamp(x + delta, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


class RandomGrayscale(ImageAugmentLayer):
    """Turns each image to grayscale (kept at its channel count) with probability `factor`."""
    _KEEPS_DTYPE = True

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor = factor

    def _augment(self, x):
        apply = _per_image(self._rand((x.shape[0],), x.device) < self.factor)
        return torch.where(apply, grayscale(x), x)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


class RandomHue(ImageAugmentLayer):
    """Shifts each image's hue by `+-f / 2` (a random sign, `f` uniform in `factor`, bounds [0, 1])."""
    _RANK_ERROR = RANK_PLAIN

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        self.value_range = value_range

    def _augment(self, x):
        n = x.shape[0]
        sign = torch.where(self._rand((n,), x.device) > 0.5, -1.0, 1.0)
        delta = sign * self._uniform(n, *self.factor, x.device) * 0.5
        return self._shift(self._float(x), delta.to(getattr(torch, self.compute_dtype)))

    def _shift(self, x, delta):
        hsv = _hsv(rescale(x, self.value_range, (0, 1)))
        h = hsv[..., 0] + delta.view(-1, 1, 1)
        h = torch.where(h > 1.0, h - 1.0, h)
        h = torch.where(h < 0.0, h + 1.0, h)
        rgb = torch.clamp(_rgb(torch.stack([h, hsv[..., 1], hsv[..., 2]], -1)), 0, 1)
        return self._float(rescale(rgb, (0, 1), self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


class RandomSaturation(ImageAugmentLayer):
    """Scales each image's HSV saturation by `f / (1 - f + 1e-7)`, `f` uniform in `factor` (Keras computes HSV on
    the values as given and clips the saturation to `value_range`)."""
    _RANK_ERROR = RANK_COLON

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (-1, 1))
        self.value_range = value_range_checked(value_range)

    def _augment(self, x):
        if not x.is_floating_point():
            raise ValueError(f"Invalid images dtype: expected float dtype. Received: images.dtype="
                             f"{str(x.dtype).replace('torch.', '')}")
        f = self._uniform(x.shape[0], *self.factor, x.device)
        f = (f / (1 - f + 1e-7)).to(x.dtype)
        hsv = _hsv(x)
        s = torch.clamp(hsv[..., 1] * f.view(-1, 1, 1), self.value_range[0], self.value_range[1])
        return _rgb(torch.stack([hsv[..., 0], s, hsv[..., 2]], -1))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


class RandomColorJitter(ImageAugmentLayer):
    """RandomBrightness, RandomContrast, RandomSaturation and RandomHue (those whose factor is given), in turn."""

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None, saturation_factor=None,
                 hue_factor=None, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        from tfcompat.keras.layers.preprocessing.augmentation import RandomContrast
        self.value_range = value_range
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        parts = ((brightness_factor, RandomBrightness), (contrast_factor, RandomContrast),
                 (saturation_factor, RandomSaturation), (hue_factor, RandomHue))
        self._parts = [cls(factor=f, value_range=value_range, seed=seed) for f, cls in parts if f is not None]
        share_generator(self, self._parts)

    def build(self, input_shape):
        for part in self._parts:            # as Keras's build
            part.build(input_shape)
        self.built = True

    def _augment(self, x):
        x = self._float(x)
        for part in self._parts:
            x = part._augment(x)
        return self._float(x)

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "brightness_factor": self.brightness_factor,
                       "contrast_factor": self.contrast_factor, "saturation_factor": self.saturation_factor,
                       "hue_factor": self.hue_factor, "seed": self.seed})
        return config


class RandomColorDegeneration(ImageAugmentLayer):
    """Blends each image toward its grayscale version by `f` uniform in `factor`; clipped to `value_range`."""
    _RANK_ERROR = RANK_COLON

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (-1, 1))
        self.value_range = value_range_checked(value_range)

    def _augment(self, x):
        x = self._float(x)
        f = _per_image(self._uniform(x.shape[0], *self.factor, x.device)).to(x.dtype)
        return torch.clamp(x + f * (grayscale(x) - x), self.value_range[0], self.value_range[1])

    def compute_output_shape(self, input_shape):
        if len(input_shape) not in (3, 4):
            raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                             f"Received: input_shape={input_shape}")
        if input_shape[-1] is not None and input_shape[-1] != 3:
            raise ValueError(f"Input images must have 3 channels, but received images with {input_shape[-1]} "
                             "channels.")
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


class RandomInvert(ImageAugmentLayer):
    """Replaces each image by `value_range[1] - image` with a probability drawn uniformly from `factor`."""
    _RANK_ERROR = RANK_PLAIN

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        self.value_range = value_range

    def _augment(self, x):
        n = x.shape[0]
        probability = self._uniform(n, *self.factor, x.device)
        apply = _per_image(self._rand((n,), x.device) < probability)
        x = self._float(x)
        return torch.where(apply, self.value_range[1] - x, x)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


class RandomPosterization(ImageAugmentLayer):
    """Keeps the `b` high bits of each 8-bit channel value, `b` an integer drawn in `[factor[0], factor[1])`
    (`factor` bounds [1, 8]; a fixed factor when both ends agree)."""
    _RANK_ERROR = RANK_COLON

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (1, 8))
        self.value_range = value_range_checked(value_range)

    def _augment(self, x):
        n, (lo, hi) = x.shape[0], self.factor
        if lo != hi:            # Keras's randint in [lo, hi) (TF's stateless uniform ints)
            from tfcompat.keras import random as krandom
            bits = storage(krandom.randint((n,), lo, hi, dtype="uint8", seed=self._seed_generator()))
            bits = bits.to(device=x.device, dtype=torch.uint8)
        else:
            bits = torch.full((n,), int(lo), dtype=torch.uint8, device=x.device)
        shift = _per_image(8 - bits)
        x = rescale(x, self.value_range, (0, 255))
        if x.is_floating_point():
            x = self._float(x)
        q = cast_like_tf(x, torch.uint8) if x.dtype is not torch.uint8 else x
        q = torch.bitwise_left_shift(torch.bitwise_right_shift(q, shift), shift)
        return self._float(rescale(self._float(q), (0, 255), self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


class RandomSharpness(ImageAugmentLayer):
    """Blends each image with its 3x3 smoothing (`[[1,1,1],[1,5,1],[1,1,1]] / 13`, zero padded) by `1 - 2f`,
    `f` uniform in `factor` (bounds [0, 1]); clipped to `value_range`."""
    _RANK_ERROR = RANK_COLON
    _CAST_AT_INFERENCE = True

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        self.value_range = value_range_checked(value_range)

    def _augment(self, x):
        x = self._float(x)
        sharp = _per_image(self._uniform(x.shape[0], *self.factor, x.device) * 2).to(x.dtype)
        c = x.shape[-1]
        a, b = 1.0 / 13.0, 5.0 / 13.0
        kernel = torch.full((3, 3), a, dtype=x.dtype, device=x.device)
        kernel[1, 1] = b
        kernel = kernel.expand(c, 1, 3, 3)
        img = x.permute(0, 3, 1, 2)
        smooth = torch.nn.functional.conv2d(img, kernel, padding=1, groups=c).permute(0, 2, 3, 1)
        return torch.clamp(x + (1.0 - sharp) * (smooth - x), self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


_SOLARIZE_ERROR = ("The `addition_factor` and `threshold_factor` arguments should be a number (or a list of two "
                   "numbers) in the range [0, 1]. ")


def _solarize_factor(factor, name):
    return checked_factor(factor, name, _SOLARIZE_ERROR, lambda v: v > 1.0 or v < 0, lambda f: (0, f))


class Solarization(ImageAugmentLayer):
    """On the image scaled to [0, 255]: adds `a` (uniform in `[addition_factor[0], 255 * addition_factor[1])`),
    clips, then inverts (`255 - v`) every value at or above `t` (uniform in `[threshold_factor[0],
    255 * threshold_factor[1])`), as Keras draws them; back to `value_range`."""
    _CAST_AT_INFERENCE = True

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.addition_factor = _solarize_factor(addition_factor, "addition_factor")
        self.threshold_factor = _solarize_factor(threshold_factor, "threshold_factor")
        self.value_range = value_range_checked(value_range)

    def _augment(self, x):
        x = self._float(x)
        n = x.shape[0]
        additions = _per_image(self._uniform(n, self.addition_factor[0], self.addition_factor[1] * 255, x.device))
        thresholds = _per_image(self._uniform(n, self.threshold_factor[0], self.threshold_factor[1] * 255,
                                              x.device))
        v = torch.clamp(rescale(x, self.value_range, (0, 255)) + additions.to(x.dtype), 0, 255)
        v = torch.where(v < thresholds.to(x.dtype), v, 255 - v)
        return self._float(rescale(v, (0, 255), self.value_range))

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "addition_factor": self.addition_factor,
                       "threshold_factor": self.threshold_factor, "seed": self.seed})
        return config


class AutoContrast(ImageAugmentLayer):
    """Stretches each image's channels to the full `value_range` (min to 0, max to 255 on the [0, 255] scale); a
    constant channel is left as is. Applied in training and inference alike, as Keras."""

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = value_range_checked(value_range)

    def call(self, inputs, training=True):
        return super().call(inputs, training=True)

    def _augment(self, x):
        x = self._float(x)
        v = self._float(rescale(x, self.value_range, (0, 255)))
        low = v.amin(dim=(1, 2), keepdim=True)
        high = v.amax(dim=(1, 2), keepdim=True)
        scale = 255.0 / (high - low)
        out = torch.clamp(v * scale + (-low * scale), 0.0, 255.0)
        out = rescale(out, (0, 255), self.value_range)
        return torch.where(torch.isnan(out), x, out)

    def get_config(self):
        config = super().get_config()
        config["value_range"] = self.value_range
        return config


class Equalization(ImageAugmentLayer):
    """Histogram equalization of each channel (one histogram of `bins` bins over the whole batch, as Keras's), on
    the [0, 255] scale. Applied only in training, as Keras."""
    _KEEPS_DTYPE = True

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.bins = bins
        self.value_range = value_range_checked(value_range)

    def _equalize(self, channel):
        lo, hi = float(self.value_range[0]), float(self.value_range[1])
        channel = channel * ((255.0 - 0.0) / (hi - lo)) + (0.0 - lo * (255.0 / (hi - lo)))
        bins = self.bins
        index = torch.clamp((channel * (bins - 1) / 255.0).to(torch.int32), 0, bins - 1)
        hist = torch.bincount(index.reshape(-1).long(), minlength=bins)
        cdf = torch.cumsum(hist, 0)
        cdf_min = torch.where(cdf > 0, cdf, cdf[-1]).min()         # the first nonzero value (cdf never falls)
        denominator = cdf[-1] - cdf_min
        denominator = torch.where(denominator == 0, torch.ones_like(denominator), denominator)
        table = torch.clamp(torch.round((cdf - cdf_min).double() * 255 / denominator.double()), 0, 255)
        position = torch.clamp(channel / 255.0 * (bins - 1), 0, bins - 1).to(torch.int64)
        equalized = table.to(channel.dtype)[position]
        equalized = torch.where((hist != 0).sum() <= 1, channel, equalized)    # one level only: unchanged
        return equalized * ((hi - lo) / 255.0) + (lo - 0.0 * ((hi - lo) / 255.0))

    def _augment(self, x):
        x = self._float(x)
        return self._float(torch.stack([self._equalize(x[..., i]) for i in range(x.shape[-1])], -1))

    def get_config(self):
        config = super().get_config()
        config.update({"bins": self.bins, "value_range": self.value_range})
        return config
