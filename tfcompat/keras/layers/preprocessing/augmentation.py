"""Random image augmentation layers (identity outside training): flip, contrast, rotation, zoom, translation (Keras's
matrices through TF's projective kernel, `augmentation_geometry.projective_transform`)."""
import math

import torch

from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.preprocessing._augment_base import (RANK_PLAIN, ImageAugmentLayer, checked_factor,
                                                              factor_range, symmetric)
from tfcompat.keras.layers.preprocessing._common import _float_input


_ZOOM_ERROR = ("The `height_factor` and `width_factor` arguments should be a number (or a list of two numbers) in "
               "the range (-1.0, 1.0]. ")
_TRANSLATION_ERROR = "The `factor` argument should be a number (or a list of two numbers) in the range [-1.0, 1.0]. "


def _pair(factor, name, error, zoom):
    """RandomZoom's / RandomTranslation's `_set_factor`: each end within its range (zoom: above -1), a number f
    meaning `(-|f|, |f|)`, a pair sorted."""
    return checked_factor(factor, name, error, lambda v: v > 1.0 or (v <= -1.0 if zoom else v < -1.0), symmetric)


class _RandomImageLayer(ImageAugmentLayer):
    """Base of the geometric augmentation layers: float images (cast at inference too, as Keras), identity unless
    `training`; dict inputs carry labels through (segmentation masks, which Keras warps too, are refused)."""
    _CAST_AT_INFERENCE = True
    _COLOR_ONLY = False

    def call(self, inputs, training=True):
        if isinstance(inputs, dict):
            return self._call_dict(inputs, training)
        return super().call(_wrap(_float_input(self, inputs)), training=training)

    def get_config(self):
        config = super().get_config()
        config.update({"seed": self.seed, "data_format": self.data_format})
        return config


class RandomFlip(_RandomImageLayer):
    """Flips each image horizontally and/or vertically with probability 1/2 (`mode`)."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.mode = mode            # Keras 3 takes any mode: one it does not know flips nothing

    def _augment(self, x):
        # Keras draws one flip per image (u <= 0.5) for both directions: horizontal_and_vertical flips both or none
        flip = (self._rand((x.shape[0], 1, 1, 1), x.device) <= 0.5)
        both = self.mode == "horizontal_and_vertical"
        for axis, on in ((2, both or self.mode == "horizontal"), (1, both or self.mode == "vertical")):
            if on:
                x = torch.where(flip, x.flip(axis), x)
        return x

    def _augment_mask(self, masks):
        return self._augment(self._float(masks))

    def get_config(self):
        config = super().get_config()
        config["mode"] = self.mode
        return config


class RandomContrast(ImageAugmentLayer):
    """Scales each image's deviation from its per-channel mean by a factor uniform in `[1 - lower, 1 + upper)`
    (Keras 3's `factor`: a number f in [0, 1] means `(0, f)`, a pair `(lower, upper)`); clipped to `value_range`."""
    _RANK_ERROR = RANK_PLAIN

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor_range(factor, (0, 1))
        self.value_range = value_range

    def _augment(self, x):
        if not x.is_floating_point():      # Keras subtracts its float mean from the integer image
            from tfcompat.framework import errors
            name = str(x.dtype).replace("torch.", "")
            raise errors.InvalidArgumentError(None, None, f"cannot compute Sub as input #1(zero-based) was expected to "
                                              f"be a {name} tensor but is a float tensor [Op:Sub] name: ")
        f = self._uniform(x.shape[0], 1.0 - self.factor[0], 1.0 + self.factor[1], x.device)
        f = f.view(-1, 1, 1, 1).to(x.dtype)
        mean = x.mean(dim=(1, 2), keepdim=True)
        return ((x - mean) * f + mean).clamp(self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def _keras_order(config, keys):
    """`config` with `keys` moved to its end in that order: the key order of Keras's own `get_config`."""
    for key in keys:
        config[key] = config.pop(key)
    return config


_ZOOM_SHIFT_KEYS = ("height_factor", "width_factor", "fill_mode", "interpolation", "seed", "fill_value")


class _AffineLayer(_RandomImageLayer):
    """Random affine warps: Keras's per-image matrices (output pixel -> input point), sampled as TF's
    ImageProjectiveTransformV3 kernel (bilinear/nearest; fill reflect/wrap/constant/nearest)."""

    def __init__(self, fill_mode="reflect", interpolation="bilinear", fill_value=0.0, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {_FILL_MODES}.")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {_INTERPOLATIONS}.")
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _augment(self, x):
        from tfcompat.keras.layers.preprocessing.augmentation_geometry import projective_transform
        n, h, w, _ = x.shape
        transforms = self._transforms(n, h, w, x.device)        # (n, 8) float32, Keras's affine_transform input
        return projective_transform(x, transforms, self.interpolation, self.fill_mode, self.fill_value)

    def _augment_mask(self, masks):
        """The masks under the images' warp (same draws), nearest-sampled in their own dtype."""
        from tfcompat.keras.layers.preprocessing.augmentation_geometry import projective_transform
        n, h, w, _ = masks.shape
        return projective_transform(masks, self._transforms(n, h, w, masks.device), "nearest", self.fill_mode,
                                    self.fill_value)

    def get_config(self):
        config = super().get_config()
        config.update({"fill_mode": self.fill_mode, "interpolation": self.interpolation,
                       "fill_value": self.fill_value})
        return config


class RandomRotation(_AffineLayer):
    """Rotates each image by a random angle in `factor * 2pi` (`factor` a float f means `[-f, f]`)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, fill_value=fill_value, seed=seed,
                         data_format=data_format, **kwargs)
        self.factor = factor
        self._lower, self._upper = factor_range(factor or 0.0, (-1, 1))

    def _transforms(self, n, h, w, device):
        # Keras's _compute_affine_matrix: rotation by `angle` degrees about the centre ((w - 1) / 2, (h - 1) / 2)
        angle = self._uniform(n, self._lower * 360.0, self._upper * 360.0, device).float()
        rad = angle * torch.tensor(math.pi / 180.0, dtype=torch.float32)
        cx, cy = torch.tensor(0.5 * (w - 1), dtype=torch.float32), torch.tensor(0.5 * (h - 1), dtype=torch.float32)
        a0, a1 = torch.cos(rad), -torch.sin(rad)
        b0, b1 = torch.sin(rad), torch.cos(rad)
        zero = torch.zeros_like(a0)
        return torch.stack([a0, a1, cx - cx * a0 - cy * a1, b0, b1, cy - cx * b0 - cy * b1, zero, zero], 1)

    def get_config(self):
        config = super().get_config()
        config["factor"] = (self._lower, self._upper)       # Keras 3 writes the (lower, upper) range
        return _keras_order(config, ("factor", "fill_mode", "fill_value", "interpolation", "seed"))


class RandomZoom(_AffineLayer):
    """Zooms each image by `1 + f`, `f` uniform in `height_factor` (positive: zoom out); width likewise."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, fill_value=fill_value, seed=seed,
                         data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _pair(height_factor, "height_factor", _ZOOM_ERROR, True)
        self._w = _pair(width_factor, "width_factor", _ZOOM_ERROR, True) if width_factor is not None else None

    def _transforms(self, n, h, w, device):
        zh = (1.0 + self._uniform(n, *self._h, device)).float()
        zw = (1.0 + self._uniform(n, *self._w, device)).float() if self._w is not None else zh
        zero = torch.zeros_like(zh)
        return torch.stack([zw, zero, (w - 1.0) / 2.0 * (1.0 - zw), zero, zh, (h - 1.0) / 2.0 * (1.0 - zh), zero,
                            zero], 1)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor, "width_factor": self.width_factor})
        return _keras_order(config, _ZOOM_SHIFT_KEYS)


class RandomTranslation(_AffineLayer):
    """Shifts each image by fractions of its height / width drawn from `height_factor` / `width_factor`."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, fill_value=fill_value, seed=seed,
                         data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _pair(height_factor, "height_factor", _TRANSLATION_ERROR, False)
        self._w = _pair(width_factor, "width_factor", _TRANSLATION_ERROR, False)

    def call(self, inputs, training=True):
        if not isinstance(inputs, dict) and len(getattr(inputs, "shape", ())) < 3:
            raise IndexError("tuple index out of range")         # Keras reads the image's height axis first
        return super().call(inputs, training=training)

    def _transforms(self, n, h, w, device):
        dy = (self._uniform(n, *self._h, device) * h).float()
        dx = (self._uniform(n, *self._w, device) * w).float()
        one, zero = torch.ones_like(dy), torch.zeros_like(dy)
        return torch.stack([one, zero, -dx, zero, one, -dy, zero, zero], 1)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor, "width_factor": self.width_factor})
        return _keras_order(config, _ZOOM_SHIFT_KEYS)
