"""Keras's image file helpers: `array_to_img`, `img_to_array`, `load_img`, `save_img` (PIL images, as Keras 3).

Images are `PIL.Image` objects as in Keras (which needs PIL for these functions too). PNG and JPEG files are
decoded by tfcompat's own codecs (`tf.io.decode_image`) and PNG files written by its encoder; other formats,
color-mode conversions and resizing use PIL as Keras does.
"""
import io
import os
import pathlib

import numpy as np

from tfcompat.framework.export import partial_api
from tfcompat.framework.tensor import storage
from tfcompat.keras._config import config
from tfcompat.ops.io_ops import image_codecs
from tfcompat.util import atomic_file, encoders

_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil(api):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{api}` requires PIL.") from None
    return Image


def _data_format(data_format):
    data_format = data_format or config.image_data_format
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    return data_format


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image of a 3D array (scaled to 0..255 unless `scale=False`)."""
    data_format = _data_format(data_format)
    image = _pil("array_to_img")
    x = np.asarray(storage(x).numpy() if hasattr(x, "numpy") else x, dtype=dtype or config.floatx)
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image.fromarray(x.astype("uint8"), _MODES[channels])
    if channels == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img, data_format=None, dtype=None):
    """The 3D float array (floatx) of a PIL image; grayscale images get a channel axis."""
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or config.floatx)
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x.reshape((1,) + x.shape if data_format == "channels_first" else x.shape + (1,))
    raise ValueError(f"Unsupported image shape: {x.shape}")


def _open(image, data):
    """A PIL image of encoded `data`: PNG and JPEG through tfcompat's decoder, other formats through PIL."""
    if data.startswith(encoders.PNG_SIGNATURE) or data.startswith(b"\xff\xd8\xff"):
        pixels = storage(image_codecs.decode_image(data, expand_animations=False)).numpy()
        channels = pixels.shape[2]
        return image.fromarray(pixels[:, :, 0] if channels == 1 else pixels, _MODES[channels])
    return image.open(io.BytesIO(data))


@partial_api("16-bit PNGs load as 8-bit images (TF's decode_image scaling), not PIL's 'I;16'")
def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False):
    """A PIL image read from `path` in `color_mode`, resized to `target_size` (height, width) if given."""
    image = _pil("load_img")
    if isinstance(path, io.BytesIO):
        data = path.getvalue()
    elif isinstance(path, (pathlib.Path, bytes, str)):
        with open(os.fspath(path), "rb") as f:
            data = f.read()
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    img = _open(image, data)
    wanted = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)), "rgb": ("RGB", ("RGB",))}
    if color_mode not in wanted:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    mode, keep = wanted[color_mode]
    if img.mode not in keep:
        img = img.convert(mode)
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                         f"{', '.join(_INTERPOLATIONS)}")
    resample = getattr(image.Resampling, interpolation.upper())
    if not keep_aspect_ratio:
        return img.resize(size, resample)
    width, height = img.size
    crop_width = min(width, height * size[0] // size[1])
    crop_height = min(height, width * size[1] // size[0])
    left, top = (width - crop_width) // 2, (height - crop_height) // 2
    return img.resize(size, resample, box=[left, top, left + crop_width, top + crop_height])


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes array `x` as an image file (format from the extension); PNG through tfcompat's encoder."""
    data_format = _data_format(data_format)
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if file_format == "png" and img.mode in ("L", "RGB", "RGBA") and isinstance(path, (str, pathlib.Path)):
        if kwargs:
            raise NotImplementedError(f"keras.utils.save_img({', '.join(kwargs)}=...) for PNG files is not "
                                      "supported by tfcompat")
        pixels = np.asarray(img)
        data = encoders.encode_png(pixels[:, :, None] if pixels.ndim == 2 else pixels)
        atomic_file.write_bytes(os.fspath(path), [data])
        return
    if img.mode == "RGBA" and file_format == "jpeg":
        import warnings
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.", stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)
