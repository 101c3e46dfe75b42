"""A WebP's width, height, channels and animation flag from its RIFF chunk headers (libwebp's GetFeatures)."""
import struct


def features(data):
    """(width, height, 3 or 4 channels, animated) of WebP `data` (VP8X, VP8L or VP8 first chunk), or None."""
    if len(data) < 30 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    chunk, body = data[12:16], data[20:]
    if chunk == b"VP8X":
        flags = body[0]
        width = int.from_bytes(body[4:7], "little") + 1
        height = int.from_bytes(body[7:10], "little") + 1
        return width, height, 4 if flags & 0x10 else 3, bool(flags & 0x02)
    if chunk == b"VP8L":
        if body[0] != 0x2F:
            return None
        bits, = struct.unpack_from("<I", body, 1)
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        return width, height, 4 if bits >> 28 & 1 else 3, False
    if chunk == b"VP8 ":
        if body[3:6] != b"\x9d\x01\x2a":
            return None
        w, h = struct.unpack_from("<HH", body, 6)
        return w & 0x3FFF, h & 0x3FFF, 3, False
    return None
