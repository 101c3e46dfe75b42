"""Reshaping layers: Reshape, Permute, RepeatVector, ZeroPadding, Cropping, UpSampling."""
import torch
import torch.nn.functional as F

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_spec import InputSpec


def _data_format(value):
    from tfcompat.keras.layers.conv import _data_format as df
    return df(value)


class Reshape(Layer):
    """Reshapes each example to `target_shape` (one dim may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)
        if sum(1 for d in self.target_shape if d == -1) > 1:
            raise ValueError(f"There must be at most one unknown dimension (-1) in `target_shape`. Received: "
                             f"target_shape={self.target_shape}.")
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        try:
            return _wrap(x.reshape((x.shape[0],) + self.target_shape))
        except RuntimeError:
            raise ValueError(f"The total size of the tensor must be unchanged. Received: input_shape="
                             f"{tuple(x.shape[1:])}, target_shape={self.target_shape}") from None

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config


class Permute(Layer):
    """Permutes the non-batch axes; `dims` are 1-based (`Permute((2, 1))`)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")

    def call(self, inputs):
        return _wrap(input_storage(inputs).permute((0,) + self.dims))

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features)."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = int(n)
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        x = input_storage(inputs)
        return _wrap(x.unsqueeze(1).expand(x.shape[0], self.n, x.shape[1]).contiguous())

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config


def _pairs(padding, rank, name):
    if isinstance(padding, int):
        return ((padding, padding),) * rank
    out = []
    for p in padding:
        out.append((p, p) if isinstance(p, int) else tuple(p))
    if len(out) != rank:
        raise ValueError(f"`{name}` should have {rank} elements. Received: {name}={padding}")
    return tuple(out)


class _ZeroPadding(Layer):
    _rank = 2

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if self._rank == 1:
            pair = (padding, padding) if isinstance(padding, int) else tuple(padding)
            self.padding, self._pads = pair, (pair,)
        else:
            self.padding = self._pads = _pairs(padding, self._rank, "padding")
        self.data_format = _data_format(data_format)

    def call(self, inputs):
        x = input_storage(inputs)
        flat = []
        for a, b in reversed(self._pads):
            flat += [a, b]
        if self.data_format == "channels_last":
            flat = [0, 0] + flat
        return _wrap(F.pad(x, flat))

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config


class ZeroPadding1D(_ZeroPadding):
    _rank = 1


class ZeroPadding2D(_ZeroPadding):
    _rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding=padding, data_format=data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    _rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding=padding, data_format=data_format, **kwargs)


class _Cropping(Layer):
    _rank = 2

    def __init__(self, cropping=1, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.cropping = _pairs(cropping, self._rank, "cropping")
        self.data_format = _data_format(data_format) if self._rank > 1 else "channels_last"

    def call(self, inputs):
        x = input_storage(inputs)
        first = 1 if self.data_format == "channels_last" else 2
        index = [slice(None)] * x.ndim
        for i, (a, b) in enumerate(self.cropping):
            index[first + i] = slice(a, x.shape[first + i] - b)
        return _wrap(x[tuple(index)])

    def get_config(self):
        config = super().get_config()
        config["cropping"] = self.cropping
        if self._rank > 1:
            config["data_format"] = self.data_format
        return config


class Cropping1D(_Cropping):
    _rank = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping=(tuple(cropping),) if not isinstance(cropping, int) else cropping, **kwargs)

    def get_config(self):
        """Keras 3 writes the one (start, end) pair."""
        config = super().get_config()
        config["cropping"] = config["cropping"][0]
        return config


class Cropping2D(_Cropping):
    _rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping=cropping, data_format=data_format, **kwargs)


class Cropping3D(_Cropping):
    _rank = 3


class UpSampling1D(Layer):
    """Repeats each step `size` times."""

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        return _wrap(torch.repeat_interleave(input_storage(inputs), self.size, dim=1))

    def get_config(self):
        config = super().get_config()
        config["size"] = self.size
        return config


class UpSampling2D(Layer):
    """Repeats rows and columns (`interpolation="nearest"`) or resizes bilinearly."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        self.data_format = _data_format(data_format)
        self.interpolation = interpolation

    def call(self, inputs):
        x = input_storage(inputs)
        cl = self.data_format == "channels_last"
        if self.interpolation == "nearest":
            h, w = (1, 2) if cl else (2, 3)
            return _wrap(torch.repeat_interleave(torch.repeat_interleave(x, self.size[0], dim=h), self.size[1],
                                                 dim=w))
        from tfcompat.ops import image_ops
        cf = x if cl else x.permute(0, 2, 3, 1)
        out = storage(image_ops.resize(_wrap(cf), (cf.shape[1] * self.size[0], cf.shape[2] * self.size[1]),
                                       method=self.interpolation)).to(x.dtype)
        return _wrap(out if cl else out.permute(0, 3, 1, 2))

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format, "interpolation": self.interpolation})
        return config


class UpSampling3D(Layer):
    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.size = (size,) * 3 if isinstance(size, int) else tuple(size)
        self.data_format = _data_format(data_format)

    def call(self, inputs):
        x = input_storage(inputs)
        first = 1 if self.data_format == "channels_last" else 2
        for i, s in enumerate(self.size):
            x = torch.repeat_interleave(x, s, dim=first + i)
        return _wrap(x)

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format})
        return config
