"""TFRecord framing (event files, `tf.io.TFRecordWriter`), with TF's masked CRC-32C.

A record is `uint64 length | uint32 masked_crc(length bytes) | data | uint32 masked_crc(data)`,
all little-endian; `masked_crc(x) = rotate_right(crc32c(x), 15) + 0xa282ead8 (mod 2**32)`.
"""
import struct

from tfcompat.util.crc32c import crc32c, mask


def masked_crc32c(data):
    """TF's masked CRC-32C of `data`, as stored in TFRecord files."""
    return mask(crc32c(data))


_pack_q = struct.Struct("<Q").pack
_pack_i = struct.Struct("<I").pack
_HEADERS = {}               # record length -> its 12-byte header (length + masked crc)


def frame(data):
    """`data` framed as one TFRecord."""
    n = len(data)
    header = _HEADERS.get(n)
    if header is None:
        length = _pack_q(n)
        header = _HEADERS[n] = length + _pack_i(masked_crc32c(length))
    return header + data + _pack_i(masked_crc32c(data))
