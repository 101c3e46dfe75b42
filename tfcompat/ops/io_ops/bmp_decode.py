"""A BMP decoder reading what TF's DecodeBmp reads: uncompressed 8/24/32-bit rows at the pixel offset."""
import struct

import numpy as np


class BadBmp(Exception):
    """A BMP that TF refuses; the message is TF's."""


def decode(data, channels):
    """The (height, width, channels or the file's) uint8 pixels of BMP `data`, as TF reads them: the header's
    pixel offset, width, height (negative: rows top down) and bits per pixel only (8-bit values are gray, the
    palette ignored; BGR(A) to RGB(A)); the bytes must be exactly offset + padded rows. Raises `BadBmp`."""
    if len(data) < 32:
        raise BadBmp("Incomplete bmp content, requires at least 32 bytes to find the header size, width, height, "
                     f"and bpp, got {len(data)} bytes")
    offset, = struct.unpack_from("<i", data, 10)
    width, height = struct.unpack_from("<ii", data, 18)
    bpp, = struct.unpack_from("<h", data, 28)
    img_channels = int(bpp / 8)
    if img_channels not in (1, 3, 4):
        raise BadBmp(f"Number of channels inherent in the image must be 1, 3 or 4, was {img_channels}")
    if width <= 0:
        raise BadBmp("Width must be positive")
    if height == 0:
        raise BadBmp("Height must be nonzero")
    if offset < 0:
        raise BadBmp("header size must be nonnegative")
    rows = abs(height)
    if width * rows >= (2 ** 31 - 1) // 8:
        raise BadBmp("Total possible pixel bytes must be less than 2^30")
    row_size = (img_channels * width + 3) // 4 * 4
    diff = len(data) - offset - row_size * rows
    if diff:
        raise BadBmp(f"Input size should match (header_size + row_size * abs_height) but they differ by {diff}")
    px = np.frombuffer(data, dtype=np.uint8, offset=offset).reshape(rows, row_size)[:, :width * img_channels]
    px = px.reshape(rows, width, img_channels)
    if height > 0:
        px = px[::-1]
    out_channels = channels or img_channels
    if img_channels == 1:
        rgb = np.repeat(px, 3, axis=2) if out_channels > 1 else px
    else:
        rgb = px[..., 2::-1]
    if out_channels == 4:
        alpha = px[..., 3:] if img_channels == 4 else np.full((rows, width, 1), 255, dtype=np.uint8)
        rgb = np.concatenate([rgb, alpha], axis=2)
    return np.ascontiguousarray(rgb)
