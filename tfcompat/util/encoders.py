"""PNG and WAV encoders producing the bytes TF's `encode_png` (libpng) and `encode_wav` produce.

Used by `tf.io.encode_png` and by `tf.summary.image` / `tf.summary.audio`.
PNG follows libpng 1.6's defaults as TF calls it: per-row adaptive filter choice
(smallest sum of |signed byte|, ties to the earlier of None, Sub, Up, Average,
Paeth), zlib level 6 unless given, memory level 9 and the Z_FILTERED strategy (as
matched against TF 2.21's bytes), the zlib header's window size shrunk to fit
small images, IDAT chunks of at most 8192 bytes.
"""
import struct
import zlib

import numpy as np

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_COLOR_TYPE = {1: 0, 2: 4, 3: 2, 4: 6}      # channels -> PNG colour type (gray, gray+alpha, RGB, RGBA)
_IDAT_SIZE = 8192


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _filter_rows(img, bpp):
    """Rows of a (h, w*c*bytes) uint8 image, each prefixed by the filter type libpng's heuristic picks."""
    h, n = img.shape
    x = img.astype(np.int16)
    a = np.zeros_like(x)
    a[:, bpp:] = x[:, :-bpp]
    b = np.zeros_like(x)
    b[1:] = x[:-1]
    c = np.zeros_like(x)
    c[:, bpp:] = b[:, :-bpp]
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
    cands = np.stack([x, x - a, x - b, x - ((a + b) >> 1), x - paeth]).astype(np.uint8)   # (5, h, n)
    allowed = [True, True, True, True, True]
    if h == 1:
        allowed[2] = allowed[3] = allowed[4] = False
    if n == bpp:
        allowed[1] = allowed[3] = allowed[4] = False
    if sum(allowed) == 1:
        choice = np.zeros(h, dtype=np.int64)
    else:
        cost = np.minimum(cands, 256 - cands.astype(np.int32)).sum(axis=2, dtype=np.int64)  # (5, h)
        cost[[not ok for ok in allowed]] = np.iinfo(np.int64).max
        choice = np.argmin(cost, axis=0)
    rows = cands[choice, np.arange(h)]
    return np.concatenate([choice.astype(np.uint8)[:, None], rows], axis=1), sum(allowed) > 1


def encode_png(image, level=6):
    """PNG bytes of one (h, w, c) uint8 or uint16 image, c in 1..4, deflated at zlib `level` (0..9)."""
    h, w, ch = image.shape
    if ch not in _COLOR_TYPE:
        raise ValueError(f"image must have 1, 2, 3, or 4 channels, got {ch}")
    depth = 16 if image.dtype == np.uint16 else 8
    header = struct.pack(">IIBBBBB", w, h, depth, _COLOR_TYPE[ch], 0, 0, 0)
    if h == 0 or w == 0:
        raw, filtered = b"", False
    else:
        samples = image.astype(">u2").view(np.uint8) if depth == 16 else image
        rows, filtered = _filter_rows(samples.reshape(h, -1), ch * depth // 8)
        raw = rows.tobytes()
    comp = zlib.compressobj(level, zlib.DEFLATED, 15, 9, zlib.Z_FILTERED if filtered else zlib.Z_DEFAULT_STRATEGY)
    data = bytearray(comp.compress(raw) + comp.flush())
    _shrink_window(data, len(raw))
    idat = b"".join(_chunk(b"IDAT", bytes(data[i:i + _IDAT_SIZE])) for i in range(0, len(data), _IDAT_SIZE))
    return PNG_SIGNATURE + _chunk(b"IHDR", header) + idat + _chunk(b"IEND", b"")


def _shrink_window(data, size):
    """Rewrites the zlib header to claim the smallest window covering `size` bytes (libpng's optimize_cmf)."""
    if size > 16384:
        return
    cinfo = data[0] >> 4
    while cinfo > 0 and size <= 1 << (cinfo + 7):
        cinfo -= 1
    cmf = (cinfo << 4) | (data[0] & 0x0F)
    flg = data[1] & 0xE0
    flg += 0x1F - ((cmf << 8) + flg) % 0x1F
    data[0], data[1] = cmf, flg


def encode_wav(audio, sample_rate):
    """16-bit PCM WAV bytes of a (frames, channels) float32 clip with samples in [-1, 1]."""
    frames, channels = audio.shape
    scaled = (audio.astype(np.float32) * np.float32(32768.0)).astype(np.float64)
    scaled = np.trunc(scaled + np.copysign(0.5, scaled))       # C's roundf: halves away from zero
    pcm = np.clip(scaled, -32768, 32767).astype("<i2").tobytes()
    block = channels * 2
    return (b"RIFF" + struct.pack("<I", 36 + len(pcm)) + b"WAVEfmt "
            + struct.pack("<IHHIIHH", 16, 1, channels, sample_rate, sample_rate * block, block, 16)
            + b"data" + struct.pack("<I", len(pcm)) + pcm)
