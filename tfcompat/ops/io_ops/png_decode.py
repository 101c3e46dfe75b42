"""A PNG decoder giving the pixels TF's libpng setup gives (bit depths, palettes, tRNS, Adam7, gray, alpha)."""
import struct
import zlib

import numpy as np

_ADAM7 = ((0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2), (1, 0, 2, 1))
_PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}          # colour type -> samples per pixel
_GRAY_R, _GRAY_G = 9797, 19234                         # libpng's fixed-point weights for (0.299, 0.587)
_GRAY_B = 32768 - _GRAY_R - _GRAY_G


class BadPng(Exception):
    """A PNG that fails to decode; `init` says whether it failed before the image data."""

    def __init__(self, init):
        super().__init__()
        self.init = init



def _png_chunks(data):
    """IHDR fields, PLTE, tRNS and the concatenated IDAT data of a PNG (critical chunks' CRCs checked)."""
    pos, ihdr, plte, trns, idat = 8, None, None, None, []
    while True:
        if pos + 8 > len(data):
            raise BadPng(not idat)
        n, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        body, crc = data[pos + 8:pos + 8 + n], data[pos + 8 + n:pos + 12 + n]
        pos += 12 + n
        critical = not kind[0] & 0x20
        if len(crc) < 4 or (zlib.crc32(kind + body) != int.from_bytes(crc, "big")):
            if critical or len(crc) < 4:
                raise BadPng(not idat and kind != b"IDAT")
            continue
        if ihdr is None:
            if kind != b"IHDR" or n != 13:
                raise BadPng(True)
            ihdr = struct.unpack(">IIBBBBB", body)
            _check_ihdr(*ihdr)
        elif kind == b"PLTE":
            plte = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            if not idat or (ihdr[3] == 3 and plte is None):
                raise BadPng(not idat)
            return ihdr, plte, trns, b"".join(idat)


def _check_ihdr(w, h, depth, ctype, comp, filt, interlace):
    ok_depths = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
    if (not w or not h or depth not in ok_depths.get(ctype, ()) or comp or filt or interlace > 1
            or w >= 1 << 31 or h >= 1 << 31):
        raise BadPng(True)


def _unfilter(raw, rows, rowbytes, bpp):
    """Reverses PNG row filters of `rows` rows of `rowbytes` bytes, along anti-diagonals of pixels."""
    data = np.frombuffer(raw, np.uint8).reshape(rows, rowbytes + 1)
    kinds = data[:, 0]
    if kinds.max(initial=0) > 4:
        raise BadPng(False)
    if not kinds.any():
        return data[:, 1:].copy()
    w = rowbytes // bpp
    x = data[:, 1:].reshape(rows, w, bpp).astype(np.int16)
    out = np.zeros((rows + 1, w + 1, bpp), np.int16)
    for d in range(rows + w - 1):
        ys = np.arange(max(0, d - w + 1), min(rows, d + 1))
        xs = d - ys
        a, b, c = out[ys + 1, xs], out[ys, xs + 1], out[ys, xs]
        p = a + b - c
        pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
        paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
        pred = np.stack([np.zeros_like(a), a, b, (a + b) >> 1, paeth])[kinds[ys], np.arange(len(ys))]
        out[ys + 1, xs + 1] = (x[ys, xs] + pred) & 0xFF
    return out[1:, 1:].astype(np.uint8).reshape(rows, rowbytes)


def _samples(raw, w, h, depth, spp):
    """The (h, w, spp) samples of one non-interlaced image (or Adam7 pass) and the bytes it used."""
    bits = w * spp * depth
    rowbytes = (bits + 7) // 8
    size = h * (rowbytes + 1)
    if len(raw) < size:
        raise BadPng(False)
    rows = _unfilter(raw[:size], h, rowbytes, max(1, spp * depth // 8))
    if depth == 16:
        vals = rows.view(">u2").astype(np.uint16)
    elif depth == 8:
        vals = rows
    else:
        shifts = np.arange(8 - depth, -1, -depth, dtype=np.uint8)
        vals = ((rows[:, :, None] >> shifts) & ((1 << depth) - 1)).reshape(h, -1)[:, :w * spp]
    return vals.reshape(h, w, spp), size


def _png_raw_size(w, h, depth, spp, interlace):
    """Bytes of filtered scanlines an image (all its Adam7 passes) holds."""
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    total = 0
    for y0, x0, dy, dx in passes:
        pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
        if pw > 0 and ph > 0:
            total += ph * ((pw * spp * depth + 7) // 8 + 1)
    return total


def _png_pixels(raw, w, h, depth, spp, interlace):
    """All samples of the image, de-interlacing Adam7 passes."""
    if not interlace:
        return _samples(raw, w, h, depth, spp)[0]
    img = np.zeros((h, w, spp), np.uint16 if depth == 16 else np.uint8)
    pos = 0
    for y0, x0, dy, dx in _ADAM7:
        pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
        if pw > 0 and ph > 0:
            img[y0::dy, x0::dx], used = _samples(raw[pos:], pw, ph, depth, spp)
            pos += used
    return img


def _to_gray(rgb, depth):
    """libpng's rgb_to_gray with weights (0.299, 0.587): truncating at 8 bits, rounding at 16."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    gray = (_GRAY_R * r + _GRAY_G * g + _GRAY_B * b + (16384 if depth == 16 else 0)) >> 15
    return gray.astype(rgb.dtype)[..., None]


def decode(data, channels, wide):
    """(h, w, channels) uint8 (uint16 if `wide`) array of a PNG, transformed as TF's libpng setup does."""
    (w, h, depth, ctype, _, _, interlace), plte, trns, idat = _png_chunks(data)
    spp = _PNG_SAMPLES[ctype]
    need = _png_raw_size(w, h, depth, spp, interlace)
    try:
        raw = zlib.decompressobj().decompress(idat, need)     # never inflates past what the header declares
    except zlib.error:
        raise BadPng(False) from None
    if len(raw) < need:            # checked before any pixel array is allocated
        raise BadPng(False)
    img = _png_pixels(raw, w, h, depth, spp, interlace)
    src_channels = {0: 1, 2: 3, 3: 4 if trns else 3, 4: 2, 6: 4}[ctype]
    channels = channels or src_channels
    full = (1 << min(depth, 8)) - 1 if depth < 16 else 0xFFFF     # libpng's filler for a missing alpha
    if ctype == 3:
        pal = np.zeros((256, 4), np.uint8)
        pal[:, 3] = 255 if trns else full
        pal[:len(plte), :3] = plte[:256]
        if trns:
            pal[:len(trns), 3] = np.frombuffer(trns[:256], np.uint8)
        img, depth, trns = pal[img[..., 0]], 8, None
    elif ctype == 0 and depth < 8:
        key = img == int.from_bytes(trns[:2], "big") if trns and channels == 4 else None
        img = img * np.uint8(255 // ((1 << depth) - 1))
        if key is not None:
            img, trns = np.concatenate([img, np.where(key, 0, 255).astype(np.uint8)], axis=2), None
    if trns and channels == 4 and ctype in (0, 2):
        key = np.frombuffer(trns[:2 * img.shape[2]], ">u2").astype(np.int64)
        opaque = 0xFFFF if depth == 16 else 255
        alpha = np.where((img.astype(np.int64) == key).all(axis=2, keepdims=True), 0, opaque)
        img = np.concatenate([img, alpha.astype(img.dtype)], axis=2)
    img = _convert_channels(img, channels, depth, full)
    if wide and img.dtype == np.uint8:
        return img.astype(np.uint16) * np.uint16(257)
    if not wide and img.dtype == np.uint16:
        return (img >> 8).astype(np.uint8)
    return img


def _convert_channels(img, channels, depth, full):
    """Gray/RGB with or without alpha to `channels` samples per pixel (1, 2 from gray+alpha, 3 or 4)."""
    have = img.shape[2]
    if have == channels:
        return img
    color, alpha = img[..., :3 if have >= 3 else 1], img[..., have - 1:] if have in (2, 4) else None
    if channels == 1:
        return _to_gray(color, depth) if color.shape[2] == 3 else color
    if color.shape[2] == 1:
        color = np.repeat(color, 3, axis=2)
    if channels == 3:
        return np.ascontiguousarray(color)
    if alpha is None:
        alpha = np.full(color.shape[:2] + (1,), full, color.dtype)
    return np.concatenate([color, alpha], axis=2)
