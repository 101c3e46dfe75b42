"""`keras.preprocessing.image.smart_resize`: images resized to `size` after a central crop to its aspect ratio."""
import numpy as np

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.ops import array_ops, image_ops

INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def _crop_box(height, width, target_height, target_width):
    """(row start, rows, col start, cols) of the largest central crop with the target's aspect ratio."""
    rows = max(min(height, int(float(width * target_height) / target_width)), 1)
    cols = max(min(width, int(float(height * target_width) / target_height)), 1)
    return int(float(height - rows) / 2), rows, int(float(width - cols) / 2), cols


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """`x` (one image or a batch) centrally cropped to the aspect ratio of `size` (height, width), then resized
    with `tf.image.resize`; a NumPy array in gives a NumPy array out."""
    if kwargs.pop("backend_module", None) is not None:
        raise NotImplementedError("smart_resize(backend_module=...) is not supported by tfcompat (TF backend only)")
    if kwargs:
        raise TypeError(f"smart_resize() got unexpected keyword arguments: {list(kwargs.keys())}")
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    img = convert_to_tensor(x)
    rank = img.shape.rank
    if rank < 3 or rank > 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, or `(batch_size, height, "
                         f"width, channels)`, but got input with incorrect rank, of shape {img.shape}.")
    dims = img.shape.as_list()
    last = data_format == "channels_last"
    height, width = (dims[-3], dims[-2]) if last else (dims[-2], dims[-1])
    top, rows, left, cols = _crop_box(height, width, *size)
    crop = (slice(top, top + rows), slice(left, left + cols))
    img = img[(Ellipsis,) + crop + (slice(None),)] if last else img[(Ellipsis,) + crop]
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {INTERPOLATIONS}. Received: "
                         f"interpolation={interpolation}")
    if not last:
        img = array_ops.transpose(img, (0, 2, 3, 1) if rank == 4 else (1, 2, 0))
    img = image_ops.resize(img, tuple(size), method=interpolation)
    if not last:
        img = array_ops.transpose(img, (0, 3, 1, 2) if rank == 4 else (2, 0, 1))
    return np.array(img) if isinstance(x, np.ndarray) else img
