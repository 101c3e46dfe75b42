"""Deterministic image preprocessing layers: Resizing and CenterCrop (NHWC)."""


from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _check_image_args, _float_input


class Resizing(Layer):
    """Resizes NHWC images to `(height, width)` with `interpolation` (`crop_to_aspect_ratio` crops first)."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, antialias=False, data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        _check_image_args(data_format, "Resizing")
        self.height, self.width = height, width
        self.interpolation, self.crop_to_aspect_ratio = interpolation, crop_to_aspect_ratio
        self.pad_to_aspect_ratio, self.fill_mode, self.fill_value = pad_to_aspect_ratio, fill_mode, fill_value
        self.antialias, self.data_format = antialias, "channels_last"

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
        config["data_format"] = self.data_format         # Keras's base image layer writes it first
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
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        _check_image_args(data_format, "CenterCrop")
        self.height, self.width, self.data_format = height, width, "channels_last"

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
        config["data_format"] = self.data_format         # Keras's base image layer writes it first
        config.update({"height": self.height, "width": self.width})
        return config
