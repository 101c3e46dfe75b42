"""Keras's Normalization layer: `(x - mean) / sqrt(variance)` with statistics from adapt() or given."""
import math

import numpy as np
import torch

from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _EPSILON, _batches, _float_input, _listify


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
