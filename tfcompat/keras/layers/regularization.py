"""Noise and dropout variants: SpatialDropout1D/2D/3D, GaussianNoise, GaussianDropout, ActivityRegularization."""
import math

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.core import Dropout


def _generator(seed, device):
    from tfcompat.ops import random_ops
    return random_ops.generator_for(seed, device)


class _SpatialDropout(Dropout):
    _rank = 2

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        from tfcompat.keras.layers.conv import _data_format
        self.data_format = _data_format(data_format) if self._rank > 1 else "channels_last"

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        x = input_storage(inputs)
        if self.data_format == "channels_last":
            shape = (x.shape[0],) + (1,) * self._rank + (x.shape[-1],)
        else:
            shape = (x.shape[0], x.shape[1]) + (1,) * self._rank
        if self.rate >= 1:
            return _wrap(torch.zeros_like(x))
        from tfcompat.framework.tensor import storage
        from tfcompat.keras.random import dropout_keep_mask      # TF's stateless_dropout mask (Keras's TF backend)
        keep = storage(dropout_keep_mask(tuple(shape), self.rate, x.dtype, seed=self._seed_generator)).to(x.device)
        scaled = x * torch.tensor(1 / (1 - self.rate), dtype=x.dtype, device=x.device)
        return _wrap(torch.where(keep, scaled, torch.zeros((), dtype=x.dtype, device=x.device)))

    def get_config(self):
        config = {"rate": self.rate, "seed": self.seed, "name": self.name, "dtype": self.dtype}
        if self._rank > 1:
            config["data_format"] = self.data_format
        return config


class SpatialDropout1D(_SpatialDropout):
    _rank = 1

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)


class SpatialDropout2D(_SpatialDropout):
    _rank = 2


class SpatialDropout3D(_SpatialDropout):
    _rank = 3


def _keras_normal(x, mean, stddev, seed_generator):
    """keras.random.normal of x's shape and dtype on the layer's SeedGenerator (TF's stateless normal values)."""
    from tfcompat.framework import dtypes
    from tfcompat.framework.tensor import storage
    from tfcompat.keras import random as krandom
    noise = krandom.normal(tuple(x.shape), mean=mean, stddev=stddev, dtype=dtypes.as_dtype(x.dtype),
                           seed=seed_generator)
    return storage(noise).to(x.device)


class GaussianNoise(Layer):
    """Adds N(0, stddev) noise in training."""

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= stddev <= 1:
            raise ValueError(f"Invalid value received for argument `stddev`. Expected a float value between 0 and "
                             f"1. Received: stddev={stddev}")
        self.stddev, self.seed = stddev, seed
        if stddev > 0:      # Keras's SeedGenerator (seeded from Python's random when None): TF's noise
            from tfcompat.keras.random import SeedGenerator
            self._seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.stddev == 0:
            return inputs
        x = input_storage(inputs)
        return _wrap(x + _keras_normal(x, 0.0, self.stddev, self._seed_generator))

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config


class GaussianDropout(Layer):
    """Multiplies by N(1, rate / (1 - rate)) noise in training."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate, self.seed = rate, seed
        if rate > 0:        # Keras's SeedGenerator (seeded from Python's random when None): TF's noise
            from tfcompat.keras.random import SeedGenerator
            self._seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.rate <= 0 or self.rate >= 1:
            return inputs
        x = input_storage(inputs)
        std = math.sqrt(self.rate / (1.0 - self.rate))
        return _wrap(x * _keras_normal(x, 1.0, std, self._seed_generator))

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config


class ActivityRegularization(Layer):
    """Identity that adds `l1 * sum|x| + l2 * sum x^2` (averaged over the batch) to the layer losses."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        from tfcompat.keras import regularizers
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)        # Keras 3 keeps only l1/l2 (the layer rebuilds it)
        config.update({"l1": self.l1, "l2": self.l2})
        return config

