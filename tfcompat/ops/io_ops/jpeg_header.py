"""A JPEG's [height, width, components] from its frame header (TF's ExtractJpegShape), without decoding."""
import struct

# SOFn markers (baseline, extended, progressive, lossless, arithmetic; not DHT C4, JPG C8, DAC CC)
_SOF = frozenset((0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF))


def shape(data):
    """[height, width, components] of JPEG `data`, or None where its markers are not a readable JPEG header."""
    if not data.startswith(b"\xff\xd8"):
        return None
    pos, n = 2, len(data)
    while pos + 4 <= n:
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:             # fill byte before a marker
            pos += 1
            continue
        if marker in (0xD8, 0xD9) or 0xD0 <= marker <= 0xD7 or marker == 0xDA:
            return None                # a second SOI, EOI, restart or scan before any frame header
        length, = struct.unpack_from(">H", data, pos + 2)
        if length < 2 or pos + 2 + length > n:
            return None
        if marker in _SOF:
            if length < 8:
                return None
            height, width = struct.unpack_from(">HH", data, pos + 5)
            components = data[pos + 9]
            if height == 0 or width == 0 or components == 0:
                return None
            return [height, width, components]
        pos += 2 + length
    return None
