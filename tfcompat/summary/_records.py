"""TFRecord framing of event files, with TF's masked CRC-32C (Castagnoli), in pure Python.

A record is `uint64 length | uint32 masked_crc(length bytes) | data | uint32 masked_crc(data)`,
all little-endian; `masked_crc(x) = rotate_right(crc32c(x), 15) + 0xa282ead8 (mod 2**32)`.
"""
import struct

_POLY = 0x82F63B78          # CRC-32C, reflected


def _make_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_TABLE = _make_table()


def crc32c(data):
    """The CRC-32C of `data` (bytes)."""
    table = _TABLE
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TF's masked CRC-32C of `data`, as stored in TFRecord files."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


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
