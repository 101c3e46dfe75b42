"""Keras 3's adaptive pooling layers (`AdaptiveAveragePooling1D/2D/3D`, `AdaptiveMaxPooling1D/2D/3D`).

Keras on TF pools each spatial axis in turn with two windows, `small = ceil(n / out)` and `big = small + 1`
(stride 1, 'valid'), concatenates both results and gathers one position per output bin: output `i` starts at
`floor(i * n / out)` (computed in float32) and takes the big window when its bin `[start, ceil((i + 1) * n / out))`
is `big` long, else the small window. This is done here the same way, so uneven sizes give Keras's values.
"""
import math

import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import _config
from tfcompat.keras.layers.base import Layer

_AXES_NAMES = {1: "an integer or tuple of 1 integer", 2: "an integer or (height, width) tuple",
               3: "an integer or (depth, height, width) tuple"}


def _gather_indices(n, out, small):
    """Keras's `_compute_static_gather_indices`: positions in `concat([small_pool, big_pool])`."""
    i = torch.arange(out, dtype=torch.float32)
    starts = torch.floor(i * float(n) / float(out)).to(torch.int64)
    ends = torch.ceil((i + 1) * float(n) / float(out)).to(torch.int64)
    ends = torch.clamp(ends, max=n)
    starts = torch.clamp(starts, max=n - 1)
    is_big = (ends - starts) == small + 1
    return torch.where(is_big, starts + max(1, n - small + 1), starts)


def _pool_axis(x, axis, out, reduce):
    n = x.shape[axis]
    small = math.ceil(n / out)
    pools = []
    for window in (small, small + 1):
        if window > n:      # no big window fits: Keras's gather never picks one
            shape = list(x.shape)
            shape[axis] = 0
            pools.append(x.new_empty(shape))
        else:
            pools.append(reduce(x.unfold(axis, window, 1), -1))
    index = _gather_indices(n, out, small).to(x.device)
    return torch.cat(pools, axis).index_select(axis, index)


def _mean(t, dim):
    return t.mean(dim)


def _max(t, dim):
    return t.amax(dim)


class _AdaptivePooling(Layer):
    _rank = 1
    _reduce = None
    _op = "AvgPool"

    def __init__(self, output_size, data_format=None, **kwargs):
        rank = self._rank
        if isinstance(output_size, int):
            output_size = (output_size,) * rank
        elif isinstance(output_size, (tuple, list)) and (rank == 1 or len(output_size) == rank):
            if len(output_size) != rank:
                raise ValueError(f"For 1D input, `output_size` tuple must have length 1. Received: {output_size}")
            output_size = tuple(output_size)
        else:
            raise TypeError(f"`output_size` must be {_AXES_NAMES[rank]}. Received: {output_size} of type "
                            f"{type(output_size)}")
        super().__init__(**kwargs)
        self.output_size = output_size
        self.data_format = data_format or _config.config.image_data_format
        if self.data_format not in ("channels_first", "channels_last"):
            raise ValueError(f"Invalid data_format: {self.data_format}. Expected 'channels_first' or "
                             f"'channels_last'.")
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        if x.ndim != self._rank + 2:
            raise ValueError(f"Adaptive pooling over {self._rank} spatial axes expects inputs of rank "
                             f"{self._rank + 2}, received a tensor of shape {tuple(x.shape)}")
        if self._op == "AvgPool" and not x.is_floating_point():
            dt = dtypes.FROM_STORAGE[x.dtype].name
            raise errors.op_error(errors.InvalidArgumentError,
                                  f"Value for attr 'T' of {dt} is not in the list of allowed values: half, bfloat16, "
                                  "float, double", "AvgPool")
        first = 1 if self.data_format == "channels_last" else 2
        for i, out in enumerate(self.output_size):
            x = _pool_axis(x, first + i, out, type(self)._reduce)
        return _wrap(x.contiguous())

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_last":
            return (input_shape[0], *self.output_size, input_shape[-1])
        return (input_shape[0], input_shape[1], *self.output_size)

    def get_config(self):
        return {**super().get_config(), "output_size": self.output_size, "data_format": self.data_format}


class AdaptiveAveragePooling1D(_AdaptivePooling):
    """Averages `(batch, steps, channels)` into `output_size` bins of (nearly) equal width."""
    _rank, _reduce = 1, _mean


class AdaptiveAveragePooling2D(_AdaptivePooling):
    _rank, _reduce = 2, _mean


class AdaptiveAveragePooling3D(_AdaptivePooling):
    _rank, _reduce = 3, _mean


class AdaptiveMaxPooling1D(_AdaptivePooling):
    """Maximum of each of `output_size` bins of (nearly) equal width."""
    _rank, _reduce, _op = 1, _max, "MaxPool"


class AdaptiveMaxPooling2D(_AdaptivePooling):
    _rank, _reduce, _op = 2, _max, "MaxPool"


class AdaptiveMaxPooling3D(_AdaptivePooling):
    _rank, _reduce, _op = 3, _max, "MaxPool"
