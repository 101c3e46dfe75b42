"""Keras global pooling layers (the windowed pooling layers live with the other NHWC layers)."""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_spec import InputSpec


class _GlobalPooling(Layer):
    _rank = 2
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self._rank + 2)
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
    """Mean over steps; with a mask, the mean of the unmasked steps (Keras 3)."""
    _rank, _reduce = 1, _mean

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(data_format, keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        x = input_storage(inputs)
        m = input_storage(mask).to(torch.bool).unsqueeze(2 if self.data_format == "channels_last" else 1)
        axis = 1 if self.data_format == "channels_last" else 2
        total = torch.where(m, x, torch.zeros((), dtype=x.dtype)).sum(dim=axis, keepdim=self.keepdims)
        return _wrap(total / m.to(x.dtype).sum(dim=axis, keepdim=self.keepdims))

    def compute_mask(self, inputs, mask=None):
        return None


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


class _Pooling(Layer):
    """Windowed max/average pooling (`pool_size`, `strides` default to `pool_size`, `padding`)."""

    _rank = 2
    _max = True

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        from tfcompat.keras.layers.conv import _data_format, _tuple
        self.pool_size = _tuple(pool_size, self._rank, "pool_size")
        self.strides = _tuple(strides, self._rank, "strides", allow_zero=True) if strides is not None else \
            self.pool_size
        self.padding = padding.lower()
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)
        self.built = True

    def _check_keras_shapes(self, args):
        """Keras's `compute_pooling_output_shape`: with valid padding a known spatial dim smaller than the pool
        raises (its message prints the shape as a NumPy object array, unknown spatial dims as -1)."""
        shape = getattr(args[0], "_shape", None) if args else None
        if shape is None or self.padding != "valid" or len(shape) != self._rank + 2:
            return
        first = 1 if self.data_format == "channels_last" else 2
        spatial = shape[first:first + self._rank]
        if all(d is None or d >= p for d, p in zip(spatial, self.pool_size)):
            return
        shown = list(shape)
        shown[first:first + self._rank] = [-1 if d is None else d for d in spatial]
        from tfcompat.keras.layers.call_errors import call_error
        raise call_error(self, ValueError, f"Computed output size would be zero or negative. Received: "
                         f"`inputs.shape=[{' '.join(map(str, shown))}]`, "
                         f"`pool_size=[{' '.join(map(str, self.pool_size))}]`, `strides={self.strides}`, "
                         f"`padding={self.padding}`.")

    def call(self, inputs):
        from tfcompat.ops import pool_ops
        fmt = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[self._rank] if self.data_format == "channels_last" else \
            {1: "NCW", 2: "NCHW", 3: "NCDHW"}[self._rank]
        fn = pool_ops.max_pool if self._max else pool_ops.avg_pool
        return fn(inputs, list(self.pool_size), list(self.strides), self.padding.upper(), data_format=fmt)

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding, "strides": self.strides,
                       "data_format": self.data_format})
        return config


class MaxPooling1D(_Pooling):
    _rank, _max = 1, True


class MaxPooling2D(_Pooling):
    _rank, _max = 2, True


class MaxPooling3D(_Pooling):
    _rank, _max = 3, True


class _AveragePooling(_Pooling):
    _max = False

    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, name=None, **kwargs):
        super().__init__(pool_size, strides=strides, padding=padding, data_format=data_format, name=name, **kwargs)


class AveragePooling1D(_AveragePooling):
    _rank = 1


class AveragePooling2D(_AveragePooling):
    _rank = 2


class AveragePooling3D(_AveragePooling):
    _rank = 3


MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D
