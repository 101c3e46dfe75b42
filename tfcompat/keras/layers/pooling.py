"""Keras global pooling layers (the windowed pooling layers live with the other NHWC layers)."""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer


class _GlobalPooling(Layer):
    _rank = 2
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = keepdims
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        axes = tuple(range(1, 1 + self._rank)) if self.data_format == "channels_last" else \
            tuple(range(2, 2 + self._rank))
        return _wrap(type(self)._reduce(x, axes, self.keepdims))

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_last":
            return (input_shape[0],) + ((1,) * self._rank if self.keepdims else ()) + (input_shape[-1],)
        return (input_shape[0], input_shape[1]) + ((1,) * self._rank if self.keepdims else ())

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


def _mean(x, axes, keepdims):
    return torch.mean(x, dim=axes, keepdim=keepdims)


def _max(x, axes, keepdims):
    return torch.amax(x, dim=axes, keepdim=keepdims)


class GlobalAveragePooling1D(_GlobalPooling):
    _rank, _reduce = 1, _mean


class GlobalAveragePooling2D(_GlobalPooling):
    _rank, _reduce = 2, _mean


class GlobalAveragePooling3D(_GlobalPooling):
    _rank, _reduce = 3, _mean


class GlobalMaxPooling1D(_GlobalPooling):
    _rank, _reduce = 1, _max


class GlobalMaxPooling2D(_GlobalPooling):
    _rank, _reduce = 2, _max


class GlobalMaxPooling3D(_GlobalPooling):
    _rank, _reduce = 3, _max


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAvgPool2D = GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D = GlobalMaxPooling1D
GlobalMaxPool2D = GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
