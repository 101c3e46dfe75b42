"""Keras 3 preprocessing layers: Normalization, Resizing, CenterCrop, random image augmentation, CategoryEncoding,
Discretization, StringLookup / IntegerLookup, TextVectorization."""
import math
import os
import re

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import partial_api, unsupported_args
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.keras.layers.base import Layer

_EPSILON = 1e-7


def _batches(data):
    """`data` (array, tensor, tf.data.Dataset or iterable of batches) as a list of NumPy batches."""
    if isinstance(data, (np.ndarray, Tensor, list)) and not (
            isinstance(data, list) and data and isinstance(data[0], (np.ndarray, Tensor))):
        return [_numpy(data)]
    out = []
    for batch in data:
        if isinstance(batch, tuple):
            batch = batch[0]
        out.append(_numpy(batch))
    if not out:
        raise ValueError("adapt() received an empty iterable (no batches). Expected at least one batch.")
    return out


def _numpy(x):
    if isinstance(x, Tensor):
        t = storage(x)
        return t if isinstance(t, np.ndarray) else t.cpu().numpy()
    return np.asarray(x)


def _float_input(layer, inputs):
    x = input_storage(inputs)
    dtype = getattr(torch, layer.compute_dtype)
    return x if x.dtype is dtype else x.to(dtype)


class Normalization(Layer):
    """`(x - mean) / sqrt(variance)` per `axis` position (`invert=True`: `mean + x * sqrt(variance)`)."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        self.supports_masking = True
        self.mean = self.variance = None
        if (mean is not None) != (variance is not None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        if mean is not None and np.shape(mean) != np.shape(variance):
            raise ValueError(f"When setting values directly, `mean` and `variance` must have the same shape. "
                             f"Received: mean shape {np.shape(mean)} and variance shape {np.shape(variance)}")

    def build(self, input_shape):
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Received inputs with "
                             f"ndim={ndim}, while axis={self.axis}")
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = [input_shape[d] if d in self._keep_axis else 1 for d in range(ndim)]
        self._stat_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=self._stat_shape, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=self._stat_shape, initializer="ones",
                                                  trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64", initializer="zeros",
                                         trainable=False)
            self.built = True
            self.finalize_state()
        else:
            mean = torch.as_tensor(np.asarray(self.input_mean, dtype=self.compute_dtype))
            var = torch.as_tensor(np.asarray(self.input_variance, dtype=self.compute_dtype))
            if mean.ndim:
                expanded = [1] * ndim
                for i in range(1, mean.ndim + 1):
                    expanded[self._keep_axis[-i]] = mean.shape[-i]
                mean, var = mean.reshape(expanded), var.reshape(expanded)
            self.mean = _wrap(mean.expand(self._broadcast_shape))
            self.variance = _wrap(var.expand(self._broadcast_shape))
            self.built = True

    def adapt(self, data):
        """Sets mean and variance from `data` (array, tensor, or batched dataset / iterable)."""
        batches = [b.astype(self.compute_dtype) for b in _batches(data)]
        if not self.built:
            self.build(batches[0].shape)
        mean = np.zeros(self._stat_shape)
        var = np.zeros(self._stat_shape)
        total = 0
        for b in batches:       # Keras's running merge of per-batch moments
            b_mean, b_var = b.mean(axis=self._reduce_axis), b.var(axis=self._reduce_axis)
            n = math.prod(b.shape[d] for d in self._reduce_axis)
            total += n
            w = n / total
            new_mean = mean * (1 - w) + b_mean * w
            var = (var + (mean - new_mean) ** 2) * (1 - w) + (b_var + (b_mean - new_mean) ** 2) * w
            mean = new_mean
        self.adapt_mean.assign(mean.astype("float32"))
        self.adapt_variance.assign(var.astype("float32"))
        self.finalize_state()

    def finalize_state(self):
        if self.input_mean is not None or not self.built:
            return
        self.mean = _wrap(self.adapt_mean._read().reshape(self._broadcast_shape))
        self.variance = _wrap(self.adapt_variance._read().reshape(self._broadcast_shape))

    def call(self, inputs):
        x = _float_input(self, inputs)
        mean, var = storage(self.mean).to(x.dtype), storage(self.variance).to(x.dtype)
        std = torch.clamp(var.sqrt(), min=_EPSILON)
        return _wrap(mean + x * std if self.invert else (x - mean) / std)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "invert": self.invert, "mean": _listify(self.input_mean),
                       "variance": _listify(self.input_variance)})
        return config


def _listify(v):
    return np.asarray(v).tolist() if isinstance(v, np.ndarray) else v


def _check_image_args(data_format, kwargs_name="layer"):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"tfcompat: {kwargs_name}(data_format={data_format!r}) is not supported")


@unsupported_args("pad_to_aspect_ratio")
class Resizing(Layer):
    """Resizes NHWC images to `(height, width)` with `interpolation` (`crop_to_aspect_ratio` crops first)."""

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, antialias=False, data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        _check_image_args(data_format, "Resizing")
        self.height, self.width = height, width
        self.interpolation, self.crop_to_aspect_ratio = interpolation, crop_to_aspect_ratio
        self.pad_to_aspect_ratio, self.fill_mode, self.fill_value = pad_to_aspect_ratio, fill_mode, fill_value
        self.antialias, self.data_format = antialias, "channels_last"
        self.built = True

    def call(self, inputs):
        x = _float_input(self, inputs)
        if self.crop_to_aspect_ratio:
            x = _crop_to_aspect(x, self.height, self.width)
        from tfcompat.ops import image_ops
        return image_ops.resize(_wrap(x), (self.height, self.width), method=self.interpolation,
                                antialias=self.antialias)

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-3], self.height, self.width, input_shape[-1])

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width, "interpolation": self.interpolation,
                       "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                       "pad_to_aspect_ratio": self.pad_to_aspect_ratio, "fill_mode": self.fill_mode,
                       "fill_value": self.fill_value, "antialias": self.antialias, "data_format": self.data_format})
        return config


def _crop_to_aspect(x, th, tw):
    """The central crop of NHWC `x` with the aspect ratio `th:tw` (Keras's `crop_to_aspect_ratio`)."""
    h, w = x.shape[-3], x.shape[-2]
    ch = max(min(h, int(w * th / tw)), 1)
    cw = max(min(w, int(h * tw / th)), 1)
    hs, ws = (h - ch) // 2, (w - cw) // 2
    return x[..., hs:hs + ch, ws:ws + cw, :]


class CenterCrop(Layer):
    """Crops the central `(height, width)` of NHWC images (smaller images are resized, aspect-cropped)."""

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        _check_image_args(data_format, "CenterCrop")
        self.height, self.width, self.data_format = height, width, "channels_last"
        self.built = True

    def call(self, inputs):
        x = _float_input(self, inputs)
        dh, dw = x.shape[-3] - self.height, x.shape[-2] - self.width
        if dh >= 0 and dw >= 0:
            return _wrap(x[..., dh // 2:dh // 2 + self.height, dw // 2:dw // 2 + self.width, :])
        from tfcompat.ops import image_ops
        return image_ops.resize(_wrap(_crop_to_aspect(x, self.height, self.width)), (self.height, self.width))

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-3], self.height, self.width, input_shape[-1])

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width, "data_format": self.data_format})
        return config


# -- random image augmentation (training only; inference returns the input) -----------------------------------

def _range(factor, name, symmetric=True):
    """Keras's `factor` argument as `(lower, upper)`: a float `f` means `(-f, f)` (or `(1-f, 1+f)`-style users)."""
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(f"The `{name}` argument should be a number (or a list of two numbers). "
                             f"Received: {name}={factor}")
        return float(factor[0]), float(factor[1])
    return (-float(factor), float(factor)) if symmetric else (0.0, float(factor))


class _RandomImageLayer(Layer):
    """Base of the augmentation layers: seeded torch generator; identity unless `training`."""

    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        _check_image_args(data_format, type(self).__name__)
        self.seed, self.data_format = seed, "channels_last"
        self._generator = None
        self.built = True

    def _rand(self, shape, device):
        if self._generator is None:
            self._generator = torch.Generator(device=device)
            self._generator.manual_seed(self.seed if self.seed is not None else
                                        int(torch.randint(0, 2 ** 31 - 1, ()).item()))
        return torch.rand(shape, generator=self._generator, device=device)

    def _uniform(self, n, low, high, device):
        return low + (high - low) * self._rand((n,), device)

    def call(self, inputs, training=True):
        x = _float_input(self, inputs)
        if not training:
            return _wrap(x)
        single = x.ndim == 3
        out = self._augment(x.unsqueeze(0) if single else x)
        return _wrap(out[0] if single else out)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"seed": self.seed, "data_format": self.data_format})
        return config


class RandomFlip(_RandomImageLayer):
    """Flips each image horizontally and/or vertically with probability 1/2 (`mode`)."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode = mode

    def _augment(self, x):
        for axis, on in ((2, "horizontal" in self.mode), (1, "vertical" in self.mode)):
            if on:
                flip = (self._rand((x.shape[0],), x.device) < 0.5).view(-1, 1, 1, 1)
                x = torch.where(flip, x.flip(axis), x)
        return x

    def get_config(self):
        config = super().get_config()
        config["mode"] = self.mode
        return config


class RandomContrast(_RandomImageLayer):
    """Scales each image's deviation from its per-channel mean by a factor in `[1 - lower, 1 + upper]`."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.factor = factor
        lower, upper = _range(factor, "factor")
        self.lower, self.upper = (lower, upper) if isinstance(factor, (tuple, list)) else (upper, upper)
        if self.lower < 0 or self.upper < 0 or self.lower > 1:
            raise ValueError(f"`factor` argument cannot have negative values or values greater than 1. "
                             f"Received: factor={factor}")
        self.value_range = value_range

    def _augment(self, x):
        f = self._uniform(x.shape[0], 1.0 - self.lower, 1.0 + self.upper, x.device).view(-1, 1, 1, 1).to(x.dtype)
        mean = x.mean(dim=(1, 2), keepdim=True)
        return ((x - mean) * f + mean).clamp(self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range})
        return config


_PADDING = {"reflect": "reflection", "nearest": "border", "constant": "zeros"}


@partial_api("fill_mode 'wrap'; interpolation other than 'bilinear' or 'nearest'")
class _AffineLayer(_RandomImageLayer):
    """Random affine warps sampled with `grid_sample` (bilinear/nearest; fill reflect/nearest/constant)."""

    def __init__(self, fill_mode="reflect", interpolation="bilinear", fill_value=0.0, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        if fill_mode not in _PADDING:
            raise NotImplementedError(f"tfcompat: {type(self).__name__}(fill_mode={fill_mode!r}) is not supported")
        if interpolation not in ("bilinear", "nearest"):
            raise NotImplementedError(f"tfcompat: {type(self).__name__}(interpolation={interpolation!r}) is not "
                                      f"supported")
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, fill_value

    def _augment(self, x):
        n, h, w, _ = x.shape
        theta = self._theta(n, h, w, x.device).to(x.dtype)     # (n, 2, 3) output -> input, normalized coords
        img = x.permute(0, 3, 1, 2)
        grid = torch.nn.functional.affine_grid(theta, img.shape, align_corners=False)
        out = torch.nn.functional.grid_sample(img, grid, mode=self.interpolation,
                                              padding_mode=_PADDING[self.fill_mode], align_corners=False)
        if self.fill_mode == "constant" and self.fill_value:
            inside = torch.nn.functional.grid_sample(torch.ones_like(img[:, :1]), grid, mode=self.interpolation,
                                                     padding_mode="zeros", align_corners=False)
            out = out + (1 - inside) * self.fill_value
        return out.permute(0, 2, 3, 1)

    def get_config(self):
        config = super().get_config()
        config.update({"fill_mode": self.fill_mode, "interpolation": self.interpolation,
                       "fill_value": self.fill_value})
        return config


class RandomRotation(_AffineLayer):
    """Rotates each image by a random angle in `factor * 2pi` (`factor` a float f means `[-f, f]`)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 value_range=(0, 255), data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, fill_value=fill_value, seed=seed,
                         data_format=data_format, **kwargs)
        self.factor, self.value_range = factor, value_range
        self._lower, self._upper = _range(factor, "factor")

    def _theta(self, n, h, w, device):
        a = self._uniform(n, self._lower * 2 * math.pi, self._upper * 2 * math.pi, device)
        cos, sin = torch.cos(a), torch.sin(a)
        zero = torch.zeros_like(a)
        # rotation in pixel space, expressed in normalized coordinates (aspect ratio h:w)
        return torch.stack([torch.stack([cos, -sin * h / w, zero], -1),
                            torch.stack([sin * w / h, cos, zero], -1)], 1)

    def get_config(self):
        config = super().get_config()
        config["factor"] = (self._lower, self._upper)       # Keras 3 writes the (lower, upper) range
        if tuple(self.value_range) != (0, 255):               # not a Keras 3 argument: only when it matters
            config["value_range"] = self.value_range
        return config


class RandomZoom(_AffineLayer):
    """Zooms each image by `1 + f`, `f` uniform in `height_factor` (positive: zoom out); width likewise."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, fill_value=fill_value, seed=seed,
                         data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h = _range(height_factor, "height_factor")
        self._w = _range(width_factor, "width_factor") if width_factor is not None else None

    def _theta(self, n, h, w, device):
        zh = 1.0 + self._uniform(n, *self._h, device)
        zw = 1.0 + self._uniform(n, *self._w, device) if self._w is not None else zh
        zero = torch.zeros_like(zh)
        return torch.stack([torch.stack([zw, zero, zero], -1), torch.stack([zero, zh, zero], -1)], 1)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor, "width_factor": self.width_factor})
        return config


class RandomTranslation(_AffineLayer):
    """Shifts each image by fractions of its height / width drawn from `height_factor` / `width_factor`."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode=fill_mode, interpolation=interpolation, fill_value=fill_value, seed=seed,
                         data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self._h, self._w = _range(height_factor, "height_factor"), _range(width_factor, "width_factor")

    def _theta(self, n, h, w, device):
        dy = self._uniform(n, *self._h, device)
        dx = self._uniform(n, *self._w, device)
        one, zero = torch.ones_like(dy), torch.zeros_like(dy)
        # output(y, x) = input(y - dy*h, x - dx*w); normalized coordinates span 2 per image side
        return torch.stack([torch.stack([one, zero, -2 * dx], -1), torch.stack([zero, one, -2 * dy], -1)], 1)

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor, "width_factor": self.width_factor})
        return config


# -- categorical encodings ---------------------------------------------------------------------------------

def _encode(idx, depth, mode, dtype, weights=None, valid=None):
    """Integer ids `idx` (torch) as one_hot / multi_hot / count rows of width `depth` (Keras's encoding)."""
    if mode == "one_hot":
        if idx.ndim > 1 and idx.shape[-1] == 1:
            idx = idx.squeeze(-1)
        out = torch.nn.functional.one_hot(idx.clamp(0, depth - 1), depth)
        if valid is not None:
            out = out * valid.unsqueeze(-1)
        return out.to(dtype)
    flat = idx.reshape(-1, idx.shape[-1]) if idx.ndim else idx.reshape(1, 1)   # rank 1: one sample
    w = torch.ones(flat.shape, dtype=torch.float64, device=flat.device) if weights is None else \
        weights.reshape(flat.shape).to(torch.float64)
    if valid is not None:
        w = w * valid.reshape(flat.shape)
    out = torch.zeros((flat.shape[0], depth), dtype=torch.float64, device=flat.device)
    out.scatter_add_(1, flat.clamp(0, depth - 1).long(), w)
    if mode == "multi_hot":
        out = (out > 0).to(torch.float64)
    return out.reshape(*idx.shape[:-1], depth).to(dtype)


@unsupported_args("sparse")
class CategoryEncoding(Layer):
    """Encodes integer ids below `num_tokens` as one_hot / multi_hot / count vectors (float32)."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens, self.output_mode, self.sparse = num_tokens, output_mode, sparse
        self.built = True

    def call(self, inputs, count_weights=None):
        idx = input_storage(inputs).long()
        w = input_storage(count_weights) if count_weights is not None else None
        return _wrap(_encode(idx, self.num_tokens, self.output_mode, getattr(torch, self.compute_dtype), w))

    def get_config(self):
        config = super().get_config()
        config.update({"num_tokens": self.num_tokens, "output_mode": self.output_mode})
        return config


@unsupported_args("sparse")
class Discretization(Layer):
    """Buckets values by `bin_boundaries` (bucket i holds `b[i-1] <= x < b[i]`); `adapt` picks quantiles."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {{'int', 'one_hot', "
                             f"'multi_hot', 'count'}}. Received: output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None and len(bin_boundaries) != num_bins - 1:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: `num_bins="
                             f"{num_bins}` and `bin_boundaries={bin_boundaries}`")
        self.bin_boundaries = list(bin_boundaries) if bin_boundaries is not None else None
        self.num_bins, self.epsilon, self.output_mode, self.sparse = num_bins, epsilon, output_mode, sparse
        self.built = True

    def adapt(self, data, steps=None):
        """Sets `bin_boundaries` to the `num_bins` quantiles of `data` (Keras uses an epsilon-approximate sketch;
        this takes exact lower quantiles of all values)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with `bin_boundaries`, "
                             "use `num_bins` instead.")
        values = np.sort(np.concatenate([b.reshape(-1) for b in _batches(data)]).astype("float64"))
        qs = np.arange(1, self.num_bins) / self.num_bins
        self.bin_boundaries = [float(values[int(math.floor(q * (len(values) - 1)))]) for q in qs]

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or call "
                             "`adapt(dataset)` before you can start using the `Discretization` layer.")
        x = input_storage(inputs)
        bounds = torch.tensor(self.bin_boundaries, dtype=torch.float64, device=x.device)
        idx = torch.bucketize(x.to(torch.float64), bounds, right=True)
        if self.output_mode == "int":
            return _wrap(idx.to(torch.int32))
        return _wrap(_encode(idx, len(self.bin_boundaries) + 1, self.output_mode,
                             getattr(torch, self.compute_dtype)))

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name, "dtype": self.dtype}


# -- vocabulary lookups ----------------------------------------------------------------------------------------

def _string_aware(convert):
    """Wraps `Layer._convert_inputs` so string arrays / tensors pass through (they have no float dtype)."""
    def _convert_inputs(self, x):
        if isinstance(x, np.ndarray) and x.dtype.kind in "USO":
            return convert_to_tensor(x)
        if isinstance(x, Tensor) and isinstance(storage(x), np.ndarray):
            return x
        return convert(self, x)
    return _convert_inputs


def _token_text(token):
    return token.decode("utf-8") if isinstance(token, bytes) else str(token)


_DROPPED = -2       # the index of the mask token outside int output: counted nowhere


class _IndexLookup(Layer):
    """Maps tokens to indices `[mask][oov...][vocabulary...]` (or back, `invert=True`); Keras's IndexLookup."""

    _oov_default = "[UNK]"
    _convert_inputs = _string_aware(Layer._convert_inputs)

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None, vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", sparse=False, pad_to_max_tokens=False,
                 **kwargs):
        super().__init__(**kwargs)
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        if output_mode not in ("int", "one_hot", "multi_hot", "count", "tf_idf"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {{'int', 'one_hot', "
                             f"'multi_hot', 'count', 'tf_idf'}}. Received: output_mode={output_mode}")
        if num_oov_indices > 1:
            raise NotImplementedError(f"tfcompat: {type(self).__name__}(num_oov_indices>1) (hashed OOV buckets) "
                                      f"is not supported")
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens}")
        self.max_tokens, self.num_oov_indices, self.mask_token = max_tokens, num_oov_indices, mask_token
        self.oov_token = oov_token if oov_token is not None else self._oov_default
        self.invert, self.output_mode, self.sparse, self.pad_to_max_tokens = invert, output_mode, sparse, \
            pad_to_max_tokens
        self._input_vocabulary = vocabulary
        self._set([])
        self.idf_weights = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.built = True

    def _oov_start(self):
        """1 when the mask token has index 0 (int output), else 0: other modes drop mask tokens, as Keras."""
        return int(self.mask_token is not None and self.output_mode == "int")

    def _token_start(self):
        return self._oov_start() + self.num_oov_indices

    def _key(self, token):
        return token

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Sets the vocabulary (without mask / OOV tokens) and, for tf_idf, its idf weights."""
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        vocab = [self._key(t) for t in _numpy(vocabulary).tolist()] if not isinstance(vocabulary, list) else \
            [self._key(t) for t in vocabulary]
        if len(set(vocab)) != len(vocab):
            repeated = sorted({t for t in vocab if vocab.count(t) > 1})
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please uniquify your dataset. "
                             f"The repeated terms are: {repeated}")
        self._set(vocab)
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
            idf = np.asarray(idf_weights, dtype="float32")
            self._set_idf(idf)

    def _set_idf(self, idf):
        start = self._token_start()
        full = np.concatenate([np.full(start, idf.mean() if idf.size else 0.0, "float32"), idf])
        if self.pad_to_max_tokens and self.max_tokens:
            full = np.pad(full, (0, self.max_tokens - full.size))
        self.idf_weights = full

    def _set(self, vocab):
        self._vocab = list(vocab)
        self._index = {t: i + self._token_start() for i, t in enumerate(self._vocab)}
        if self.mask_token is not None:
            self._index[self._key(self.mask_token)] = 0 if self._oov_start() else _DROPPED

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("vocabulary_size", None)      # derived (Keras writes it, and drops it when loading)
        return cls(**config)

    def save_assets(self, dir_path):
        """Keras's `.keras` asset: an adapted vocabulary as `vocabulary.txt` (one token a line, specials first)."""
        if self._input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(_token_text(t) for t in self.get_vocabulary(include_special_tokens=True)))

    def load_assets(self, dir_path):
        if self._input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        lines = lines[self._token_start():]
        values = lines if isinstance(self, StringLookup) else [int(v) for v in lines]
        if self.output_mode == "tf_idf":
            raise NotImplementedError(f"tfcompat: loading an adapted tf_idf {type(self).__name__} (idf weights)")
        self.set_vocabulary(values)

    def get_vocabulary(self, include_special_tokens=True):
        if not include_special_tokens:
            return list(self._vocab)
        special = [self.mask_token] * self._oov_start() + [self.oov_token] * self.num_oov_indices
        return special + list(self._vocab)

    def vocabulary_size(self):
        return self._token_start() + len(self._vocab)

    def adapt(self, data, steps=None):
        """Builds the vocabulary from `data`: tokens by descending frequency (ties: descending token)."""
        counts, docs, n_docs = {}, {}, 0
        for batch in _batches(data):
            rows = batch.reshape(batch.shape[0], -1) if batch.ndim > 1 else batch.reshape(-1, 1)
            for row in rows:
                keys = [self._key(t) for t in row.tolist()]
                for k in keys:
                    counts[k] = counts.get(k, 0) + 1
                for k in set(keys):
                    docs[k] = docs.get(k, 0) + 1
                n_docs += 1
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(self._key(special), None)
        tokens = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens:
            tokens = tokens[:self.max_tokens - self._token_start()]
        self._set(tokens)
        if self.output_mode == "tf_idf":
            self._set_idf(np.log(1 + n_docs / (1 + np.array([docs[t] for t in tokens], "float64")))
                          .astype("float32"))

    def _ids(self, x):
        """Indices of the tokens in the NumPy array `x` (OOV -> the OOV index)."""
        uniq, inv = np.unique(x, return_inverse=True)
        keys = [self._key(t) for t in uniq.tolist()]
        oov_id = self._oov_start() if self.num_oov_indices else -1
        ids = np.array([self._index.get(k, oov_id) for k in keys], "int64")
        if (ids == -1).any():
            bad = [k for k, i in zip(keys, ids) if i == -1]
            raise errors.InvalidArgumentError(
                None, None, f"When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                            f"{bad}, consider setting `num_oov_indices=1`.")
        return ids[inv].reshape(x.shape)

    def call(self, inputs):
        x = _numpy(inputs) if isinstance(inputs, Tensor) else np.asarray(inputs)
        if self.invert:
            vocab = np.array(self.get_vocabulary(), dtype=object)
            idx = np.asarray(x, dtype="int64")
            bad = (idx < 0) | (idx >= len(vocab))
            out = vocab[np.where(bad, self._token_start() - 1, idx)]
            return self._wrap_tokens(out)
        ids = torch.from_numpy(self._ids(x))
        if self.output_mode == "int":
            return _wrap(ids)
        depth = self.max_tokens if self.pad_to_max_tokens and self.max_tokens else self.vocabulary_size()
        valid = None
        if self.mask_token is not None:
            valid = (ids != _DROPPED).to(torch.float64)
            ids = ids.clamp(min=0)
        mode = "count" if self.output_mode == "tf_idf" else self.output_mode
        out = _encode(ids, depth, mode, torch.float64, valid=valid)
        if self.output_mode == "tf_idf":
            idf = torch.from_numpy(self.idf_weights.astype("float64"))
            return _wrap((out * idf[:depth]).to(torch.float32))
        return _wrap(out.to(torch.int64))

    def get_config(self):
        config = super().get_config()
        vocab = self._input_vocabulary
        config.update({
            "invert": self.invert, "max_tokens": self.max_tokens, "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token, "mask_token": self.mask_token, "output_mode": self.output_mode,
            "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens})
        config.update(self._extra_config())
        config.update({
            "idf_weights": _listify(self.idf_weights) if vocab is not None and self.idf_weights is not None else None,
            "vocabulary": list(vocab) if isinstance(vocab, (list, tuple, np.ndarray)) else vocab,
            "vocabulary_size": self.vocabulary_size(), "oov_method": "floormod", "salt": None})
        return config


@partial_api("num_oov_indices > 1 (hashed OOV buckets)")
@unsupported_args("sparse")
class StringLookup(_IndexLookup):
    """Maps strings to integer indices (`vocabulary` or `adapt`); `output_mode` int/one_hot/multi_hot/count/tf_idf."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 encoding="utf-8", name=None, **kwargs):
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)

    def _key(self, token):
        return token.decode(self.encoding) if isinstance(token, bytes) else str(token)

    def _wrap_tokens(self, out):
        return _wrap(np.array([t.encode(self.encoding) for t in out.reshape(-1)], dtype=object).reshape(out.shape))

    def _extra_config(self):
        return {"encoding": self.encoding}

    def get_config(self):
        config = super().get_config()
        config["encoding"] = config.pop("encoding")
        return config


@partial_api("num_oov_indices > 1 (hashed OOV buckets)")
@unsupported_args("sparse")
class IntegerLookup(_IndexLookup):
    """Maps integers to contiguous indices (`vocabulary` or `adapt`); OOV token -1."""

    _oov_default = -1

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1, vocabulary=None,
                 vocabulary_dtype="int64", idf_weights=None, invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, name=None, **kwargs):
        self.vocabulary_dtype = vocabulary_dtype
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)

    def _key(self, token):
        return int(token)

    def _wrap_tokens(self, out):
        return _wrap(torch.from_numpy(out.astype("int64")))

    def _extra_config(self):
        return {"vocabulary_dtype": self.vocabulary_dtype}


# -- text -------------------------------------------------------------------------------------------------------

_STRIP = re.compile(r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']')


_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")


def _text(s, encoding):
    return s.decode(encoding) if isinstance(s, bytes) else str(s)


@unsupported_args("sparse")
class TextVectorization(Layer):
    """Strings -> token ids or bag-of-words vectors: standardize, split, n-grams, look up a vocabulary.

    `standardize` and `split` may be callables taking and returning `tf.string` tensors (split: ragged or dense),
    as in Keras; the built-in options run on Python strings.
    """

    _convert_inputs = _string_aware(Layer._convert_inputs)

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace",
                 ngrams=None, output_mode="int", output_sequence_length=None, pad_to_max_tokens=False,
                 vocabulary=None, idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if not (standardize is None or callable(standardize) or standardize in _STANDARDIZE):
            raise ValueError(f"Unknown value for `standardize` argument of TextVectorization. Allowed values are: "
                             f"{_STANDARDIZE}. Received: standardize={standardize}")
        if not (split is None or callable(split) or split in _SPLIT):
            raise ValueError(f"Unknown value for `split` argument of TextVectorization. Allowed values are: "
                             f"{_SPLIT}. Received: split={split}")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. Received: ragged={ragged} and "
                             f"output_mode={output_mode}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                             f"output_sequence_length={output_sequence_length}.")
        self.max_tokens, self.standardize, self.split, self.ngrams = max_tokens, standardize, split, ngrams
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.pad_to_max_tokens, self.sparse, self.ragged, self.encoding = pad_to_max_tokens, sparse, ragged, \
            encoding
        self._ngram_widths = None if ngrams is None else \
            tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else tuple(ngrams)
        self._lookup_layer = StringLookup(max_tokens=max_tokens, mask_token="", vocabulary=vocabulary,
                                    idf_weights=idf_weights, output_mode=output_mode,
                                    pad_to_max_tokens=pad_to_max_tokens, encoding=encoding, name=f"{self.name}_lookup")
        self.built = True

    def _standardized(self, x):
        """NumPy string array `x` after `standardize` (a callable gets and returns a tf.string tensor)."""
        if callable(self.standardize):
            return _numpy(self.standardize(convert_to_tensor(x)))
        strings = [_text(s, self.encoding) for s in x.reshape(-1).tolist()]
        if self.standardize in ("lower_and_strip_punctuation", "lower"):
            strings = [s.lower() for s in strings]
        if self.standardize in ("lower_and_strip_punctuation", "strip_punctuation"):
            strings = [_STRIP.sub("", s) for s in strings]
        return np.array(strings, dtype=object).reshape(x.shape)

    def _tokens(self, x):
        """Rows of tokens of the strings in NumPy array `x` (rank 1, or a last dimension of 1)."""
        x = self._standardized(x)
        if x.ndim > 1:
            if x.shape[-1] != 1:
                raise ValueError(f"When using `TextVectorization` to tokenize strings, the input rank must be 1 or "
                                 f"the last shape dimension must be 1. Received: inputs.shape={x.shape} with "
                                 f"rank={x.ndim}")
            x = x.reshape(x.shape[:-1])
        if callable(self.split):
            out = self.split(convert_to_tensor(x))
            rows = out.to_list() if hasattr(out, "to_list") else _numpy(out).tolist()
        else:
            rows = [_text(s, self.encoding) for s in x.reshape(-1).tolist()]
            rows = [s.split() if self.split == "whitespace" else list(s) for s in rows]
        rows = [[_text(t, self.encoding) for t in row] for row in rows]
        if self._ngram_widths is not None:
            rows = [[" ".join(row[i:i + n]) for n in self._ngram_widths for i in range(len(row) - n + 1)]
                    for row in rows]
        return rows

    @staticmethod
    def _padded(rows, width):
        """Rows of tokens cut or padded with the mask token "" to `width`, as an object array."""
        return np.array([(row + [""] * width)[:width] for row in rows], dtype=object).reshape(len(rows), width)

    def adapt(self, data, batch_size=None, steps=None):
        """Builds the vocabulary from standardized, split text."""
        batches = _batches(data)[:steps] if steps is not None else _batches(data)
        if self.split is None:
            self._lookup_layer.adapt(np.concatenate([self._standardized(b).reshape(-1) for b in batches]))
            return
        docs = [row for b in batches for row in self._tokens(b)]
        self._lookup_layer.adapt(self._padded(docs, max((len(d) for d in docs), default=0)))

    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("vocabulary_size", None)
        return cls(**config)

    def save_assets(self, dir_path):
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        self._lookup_layer.load_assets(dir_path)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def call(self, inputs):
        x = _numpy(inputs) if isinstance(inputs, Tensor) else np.asarray(inputs)
        if self.split is None:
            return self._lookup_layer(self._standardized(x))
        docs = self._tokens(x)
        longest = max((len(d) for d in docs), default=0)
        if self.ragged:
            docs = [d[:self.output_sequence_length] for d in docs]
            ids = _numpy(self._lookup_layer(self._padded(docs, longest)))
            lengths = np.array([len(d) for d in docs], dtype=np.int64)
            return RaggedTensor.from_row_lengths(ids[np.arange(longest) < lengths[:, None]], lengths)
        width = longest if self.output_mode != "int" or self.output_sequence_length is None else \
            self.output_sequence_length
        return self._lookup_layer(self._padded(docs, width))

    def get_config(self):
        config = super().get_config()
        config.update({
            "max_tokens": self.max_tokens, "standardize": self.standardize, "split": self.split,
            "ngrams": self.ngrams, "output_mode": self.output_mode,
            "output_sequence_length": self.output_sequence_length, "pad_to_max_tokens": self.pad_to_max_tokens,
            "sparse": self.sparse, "ragged": self.ragged, "vocabulary": self._lookup_layer._input_vocabulary,
            "idf_weights": None, "encoding": self.encoding, "vocabulary_size": self.vocabulary_size()})
        return config
