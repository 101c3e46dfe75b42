"""CRC-32C (Castagnoli), table-driven, and TF's masked form: checkpoints, TFRecords and event files.

Short inputs run a byte loop; long ones split into equal lanes whose CRCs NumPy
computes side by side (slicing-by-4), then joins them pairwise with the linear
"append B zero bytes" operator, so a large tensor costs a few hundred vector ops.
"""
import functools

import numpy as np

_POLY = 0x82F63B78


def _byte_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


_T = _byte_table()
_T0 = np.array(_T, dtype=np.uint32)
_T1 = _T0[_T0 & 0xFF] ^ (_T0 >> 8)
_T2 = _T0[_T1 & 0xFF] ^ (_T1 >> 8)
_T3 = _T0[_T2 & 0xFF] ^ (_T2 >> 8)
_BITS = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1        # (256, 8) bits of each byte value
_SMALL = 8192


def _small(data, crc=0xFFFFFFFF):
    t = _T
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


def _tables(cols):
    """Byte tables (4, 256) of the GF(2) operator whose image of bit j is cols[j]."""
    cols = cols.reshape(4, 8)
    out = np.zeros((4, 256), dtype=np.uint32)
    for j in range(8):
        out ^= np.where(_BITS[:, j][None, :] == 1, cols[:, j][:, None], np.uint32(0))
    return out


def _apply(tables, x):
    return (tables[0][x & 0xFF] ^ tables[1][(x >> 8) & 0xFF] ^ tables[2][(x >> 16) & 0xFF]
            ^ tables[3][x >> 24])


@functools.lru_cache(maxsize=256)
def _zeros_operator(nbytes):
    """Byte tables of x -> CRC register after feeding `nbytes` zero bytes (repeated squaring); cached, as the
    same tensor sizes recur on every save (the tables are read only)."""
    unit = np.uint32(1) << np.arange(32, dtype=np.uint32)
    result = unit.copy()                               # identity
    power = _T0[unit & 0xFF] ^ (unit >> 8)            # one zero byte
    while nbytes:
        if nbytes & 1:
            result = _apply(_tables(power), result)
        nbytes >>= 1
        if nbytes:
            power = _apply(_tables(power), power)
    tables = _tables(result)
    tables.flags.writeable = False
    return tables


def _large(view):
    n = len(view)
    words = max(256, int((n / 4) ** 0.5))
    lane = 4 * words
    lanes = -(-n // lane)
    buf = np.zeros(lanes * lane, dtype=np.uint8)
    pad = lanes * lane - n
    buf[pad:] = np.frombuffer(view, dtype=np.uint8)
    buf[pad:pad + 4] ^= 0xFF                          # the initial register 0xFFFFFFFF
    cols = np.ascontiguousarray(buf.view("<u4").reshape(lanes, words).T)
    c = np.zeros(lanes, dtype=np.uint32)
    for w in cols:
        c ^= w
        c = _T3[c & 0xFF] ^ _T2[(c >> 8) & 0xFF] ^ _T1[(c >> 16) & 0xFF] ^ _T0[c >> 24]
    block = lane
    while len(c) > 1:
        if len(c) % 2:
            c = np.concatenate([np.zeros(1, dtype=np.uint32), c])     # a leading zero block changes nothing
        c = _apply(_zeros_operator(block), c[0::2]) ^ c[1::2]
        block *= 2
    return int(c[0]) ^ 0xFFFFFFFF


def crc32c(data):
    """CRC-32C of a bytes-like object."""
    view = memoryview(data).cast("B")
    if len(view) < _SMALL:
        return _small(view) ^ 0xFFFFFFFF
    return _large(view)


def extend(crc, data):
    """CRC-32C of (the bytes whose CRC is `crc`) + `data`; for short `data`."""
    return _small(memoryview(data).cast("B"), crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


def mask(crc):
    """TF/LevelDB's masked CRC: rotate right by 15 and add a constant."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def unmask(masked):
    rot = (masked - 0xA282EAD8) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF
