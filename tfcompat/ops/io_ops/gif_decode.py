"""A GIF decoder giving the frames TF's DecodeGif gives: giflib's parse and LZW, TF's frame compositing."""
import struct

import numpy as np

_READ = "Failed to read from given file"
_MAX_CODES = 4096
_MAX_OUTPUT = 1 << 31          # bytes of RGB frames one call may allocate


class BadGif(Exception):
    """A GIF that fails to decode; the message is giflib's/TF's reason, after "Invalid GIF data (size N), "."""


class _Short(Exception):
    """The bytes end before a field giflib reads."""


class _Broken(Exception):
    """An image that giflib fails to read whole; the message is giflib's reason."""


class _Reader:
    """Sequential reads over the input bytes, raising `_Short` where they end."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        end = self.pos + n
        if end > len(self.data):
            raise _Short
        out = self.data[self.pos:end]
        self.pos = end
        return out

    def blocks(self):
        """The data sub-blocks up to their zero terminator, and whether the bytes ended first."""
        out = []
        try:
            while True:
                n = self.take(1)[0]
                if n == 0:
                    return out, False
                out.append(self.take(n))
        except _Short:
            return out, True


def _color_map(r, flags):
    n = 2 << (flags & 7)
    return np.frombuffer(r.take(3 * n), dtype=np.uint8).reshape(n, 3)


_NO_CODE = 4098
_DEFECT = "Image is defective, decoding aborted"


def _prefix_char(prefix, code, clear):
    """giflib's DGifGetPrefixChar: the first pixel of `code`'s string (or _NO_CODE past the table)."""
    i = 0
    while code > clear and i <= _MAX_CODES - 1:
        i += 1
        if code > _MAX_CODES - 1:
            return _NO_CODE
        code = prefix[code]
    return code


def _lzw(blocks, cut, bits, npix):
    """The first `npix` color indices of an image's LZW data sub-blocks, decoded as giflib's DGifDecompressLine
    does (lax: a code past the table is traced, not refused), or the giflib error that stops it first. `cut`:
    the bytes ended before the blocks' zero terminator."""
    clear, eoi = 1 << bits, (1 << bits) + 1
    prefix, suffix, stack, out = [_NO_CODE] * _MAX_CODES, [0] * _MAX_CODES, [], bytearray()
    running, width, last = eoi + 1, bits + 1, _NO_CODE
    limit = 1 << width
    data = b"".join(blocks)
    acc = nbits = pos = 0
    while len(out) < npix:
        if width > 12:
            return None, _DEFECT
        while nbits < width:
            if pos >= len(data):
                return None, _READ if cut else _DEFECT
            acc |= data[pos] << nbits
            pos += 1
            nbits += 8
        code = acc & ((1 << width) - 1)
        acc >>= width
        nbits -= width
        if running < _MAX_CODES + 1:
            running += 1
            if running > limit and width < 12:
                limit <<= 1
                width += 1
        if code == eoi:
            return None, "Image EOF detected before image complete"
        if code == clear:
            prefix = [_NO_CODE] * _MAX_CODES
            running, width, last = eoi + 1, bits + 1, _NO_CODE
            limit = 1 << width
            continue
        if code < clear:
            out.append(code)
        else:
            if prefix[code] == _NO_CODE:
                head = _prefix_char(prefix, last if code == running - 2 else code, clear) & 0xFF
                suffix[running - 2] = head
                stack.append(head)
                trace = last
            else:
                trace = code
            while len(stack) < _MAX_CODES - 1 and clear < trace <= _MAX_CODES - 1:
                stack.append(suffix[trace])
                trace = prefix[trace]
            if len(stack) >= _MAX_CODES - 1 or trace > _MAX_CODES - 1:
                return None, _DEFECT
            stack.append(trace & 0xFF)             # giflib's stack and suffixes are bytes
            out += bytes(reversed(stack))
            stack.clear()
        if last != _NO_CODE and running - 2 < _MAX_CODES and prefix[running - 2] == _NO_CODE:
            prefix[running - 2] = last
            suffix[running - 2] = _prefix_char(prefix, last if code == running - 2 else code, clear) & 0xFF
        last = code
    return np.frombuffer(bytes(out[:npix]), dtype=np.uint8), (_READ if cut else None)


def _deinterlace(raster, w, h):
    rows = [j for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for j in range(start, h, step)]
    out = np.empty((h, w), dtype=np.uint8)
    out[rows] = raster.reshape(h, w)
    return out


def _transparent(exts):
    """The transparent index of the first Graphics Control Extension before an image (giflib's rule), or None."""
    for function, block in exts:
        if function == 0xF9:
            return block[3] if len(block) == 4 and block[0] & 1 else None
    return None


def _image(r):
    """One image after its ',' (descriptor, color map, LZW data): (left, top, w, h, indices, color map).
    Raises `_Broken` with giflib's reason where its bytes end or are corrupt before its block terminator."""
    try:
        left, top, w, h, flags = struct.unpack("<HHHHB", r.take(9))
        cmap = _color_map(r, flags) if flags & 0x80 else None
        if w == 0 or h == 0:
            raise _Broken("Unknown error")
        min_size = r.take(1)[0]
    except _Short:
        raise _Broken(_READ) from None
    if min_size >= 12:                 # giflib reports an impossible code size as a failed read
        raise _Broken(_READ)
    raster, err = _lzw(*r.blocks(), min_size, w * h)
    if err:
        raise _Broken(err)
    raster = _deinterlace(raster, w, h) if flags & 0x40 else raster.reshape(h, w)
    return left, top, w, h, raster, cmap


def _slurp(data):
    """Global color map and images of a GIF as giflib's DGifSlurp reads them; where the bytes end or break
    after whole images, TF keeps those (the image being read is dropped) and raises only when none is whole."""
    r = _Reader(data)
    try:
        r.take(6)
    except _Short:
        raise BadGif(f"failed to open gif file: {_READ}") from None
    try:
        flags = struct.unpack("<HHBBB", r.take(7))[2]
        gmap = _color_map(r, flags) if flags & 0x80 else None
    except _Short:
        raise BadGif("failed to open gif file: No screen descriptor detected") from None
    images, exts, err = [], [], None
    while err is None:
        try:
            kind = r.take(1)[0]
            if kind == 0x2C:
                images.append(_image(r) + (_transparent(exts),))
                exts = []
            elif kind == 0x21:
                function, n = r.take(2)
                if n:
                    exts.append((function, r.take(n)))
                    err = _READ if r.blocks()[1] else None
            elif kind == 0x3B:
                break
            else:
                err = "Wrong record type detected"
        except _Short:
            err = _READ
        except _Broken as e:
            err = str(e)
    if not images:
        raise BadGif(f"failed to slurp gif file: {err or 'No Image Descriptor detected'}")
    return gmap, images


def decode(data, expand_animations=True):
    """The (frames, height, width, 3) uint8 frames of GIF `data` (only the first with expand_animations=False):
    the canvas is the largest image's size; each frame starts from the previous one (black for the first) and
    draws its image clipped to the canvas, skipping its transparent index. Raises `BadGif`."""
    gmap, images = _slurp(data)
    width, height = max(im[2] for im in images), max(im[3] for im in images)
    count = len(images) if expand_animations else 1
    if count * width * height * 3 > _MAX_OUTPUT:
        raise BadGif(f"{count} frames of {width}x{height} pixels are more than this decoder allocates")
    out = np.zeros((count, height, width, 3), dtype=np.uint8)
    for k, (left, top, w, h, raster, cmap, transparent) in enumerate(images[:count]):
        if k:
            out[k] = out[k - 1]
        cmap = gmap if cmap is None else cmap
        if cmap is None:
            raise BadGif("missing color map")
        idx = raster[:max(0, min(h, height - top)), :max(0, min(w, width - left))]
        drawn = idx != transparent if transparent is not None else np.ones(idx.shape, dtype=bool)
        bad = drawn & (idx >= len(cmap))
        if bad.any():
            raise BadGif(f"found color index {idx[bad][0]} outside of color map range {len(cmap)}")
        region = out[k, top:top + idx.shape[0], left:left + idx.shape[1]]
        region[drawn] = cmap[idx[drawn]]
    return out
