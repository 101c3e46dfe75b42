"""TF's stateless Philox draws (CPU kernels), bit for bit: what a seeded TF initializer produces.

- The seed pair becomes a key and counter as TF's `StatelessRandomGetKeyCounter` does: one Philox4x32-10 block of
  counter (seed0 lo, seed0 hi, seed1 lo, seed1 hi) under key (0x3ec8f720, 0x02461e29); its words 0-1 are the key,
  words 2-3 the high half of the counter.
- Output element `i` comes from the Philox block at counter + i // k (k outputs per block: 4 for 32-bit and 16-bit
  results, 2 for 64-bit ones), as TF's `FillPhiloxRandom` skips the generator per group.
- Uniform floats fill the mantissa with random bits and subtract 1 (`Uint32ToFloat`, `Uint64ToDouble`,
  `Uint16ToHalf`, `Uint16ToGfloat16`); normals are Box-Muller of two uniforms (u1 clamped to 1e-7), sin then cos,
  in the result's precision (float32 math for half and bfloat16, then rounded) with the C library's log, sin and
  cos as TF's kernel calls them (through ctypes; NumPy's correctly rounded values where no libm loads, which differ
  from glibc's in about 1 value in 70 by 1 ulp); integers are `lo + bits % range`.
"""
import numpy as np
import torch

_M32 = np.uint64(0xFFFFFFFF)
_MASK64 = (1 << 64) - 1


_SMALL = 8              # up to this many blocks, Python ints beat NumPy's per-call cost (a dropout mask's key)
_CHUNK = 1 << 15        # larger counts go through in cache-sized chunks (an initializer's millions of values)


def _block(words, key):
    """Philox4x32-10 of one counter (four 32-bit words) in Python ints."""
    c0, c1, c2, c3 = (int(w) for w in words)
    k0, k1 = int(key[0]), int(key[1])
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c3 ^ k1, p0 & 0xFFFFFFFF
        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return c0, c1, c2, c3


def _rounds(c0, c1, c2, c3, key):
    """Philox4x32-10 over four uint64 arrays of 32-bit words, in place (`c0`..`c3` hold the result)."""
    k0, k1 = int(key[0]), int(key[1])
    m0, m1, s32 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57), np.uint64(32)
    p0, p1 = np.empty_like(c0), np.empty_like(c0)
    for _ in range(10):                 # in place: c1 and c3 are read before they are replaced
        np.multiply(c0, m0, out=p0)
        np.multiply(c2, m1, out=p1)
        np.right_shift(p1, s32, out=c0)
        np.bitwise_xor(c0, c1, out=c0)
        np.bitwise_xor(c0, np.uint64(k0), out=c0)
        np.right_shift(p0, s32, out=c2)
        np.bitwise_xor(c2, c3, out=c2)
        np.bitwise_xor(c2, np.uint64(k1), out=c2)
        np.bitwise_and(p1, _M32, out=c1)
        np.bitwise_and(p0, _M32, out=c3)
        k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
        k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF


def _blocks(counters, key):
    """Philox4x32-10 of each row of `counters` ([n, 4] uint64 holding 32-bit words) under `key` (two ints)."""
    n = counters.shape[0]
    if n <= _SMALL:
        return np.array([_block(row, key) for row in counters.tolist()], np.uint32).reshape(n, 4)
    out = np.empty((n, 4), np.uint32)
    for i in range(0, n, _CHUNK):
        words = [np.ascontiguousarray(counters[i:i + _CHUNK, j]) for j in range(4)]
        _rounds(*words, key)
        for j in range(4):
            out[i:i + _CHUNK, j] = words[j]
    return out


def key_counter(seed0, seed1):
    """TF's key and 128-bit counter (as a Python int) for a stateless seed pair."""
    s0, s1 = seed0 & _MASK64, seed1 & _MASK64
    mix = _blocks(np.array([[s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]], np.uint64),
                  (0x3EC8F720, 0x02461E29))[0]
    return (int(mix[0]), int(mix[1])), (int(mix[2]) << 64) | (int(mix[3]) << 96)


class Stateful:
    """The Philox state of TF's stateful kernels (`PhiloxRandom(seed, seed2)` skipped `offset` blocks): key = seed's
    two 32-bit halves, counter = (seed2 << 64) + offset. Passed where the draws take a stateless seed pair."""

    def __init__(self, seed, seed2, offset):
        self.key = (seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF)
        self.counter = ((seed2 & _MASK64) << 64) + offset


def _resolve(seed):
    if isinstance(seed, Stateful):
        return seed.key, seed.counter
    return key_counter(*seed)


def _bits(n_blocks, seed):
    """[n_blocks, 4] uint32: the Philox blocks at counter, counter + 1, ... for `seed` (made chunk by chunk, the
    chunks of a large draw on the machine's cores: NumPy's ufuncs release the GIL)."""
    key, counter = _resolve(seed)
    lo = counter & _MASK64                      # 0: the counter's low 64 bits start at zero
    hi = counter >> 64
    out = np.empty((n_blocks, 4), np.uint32)

    def chunk(i):
        m = min(_CHUNK, n_blocks - i)
        idx = np.arange(i, i + m, dtype=np.uint64) + np.uint64(lo)
        if m <= _SMALL:
            rows = [(int(v) & 0xFFFFFFFF, int(v) >> 32, hi & 0xFFFFFFFF, hi >> 32) for v in idx.tolist()]
            out[i:i + m] = np.array([_block(r, key) for r in rows], np.uint32).reshape(m, 4)
            return
        words = [idx & _M32, idx >> np.uint64(32), np.full(m, hi & 0xFFFFFFFF, np.uint64),
                 np.full(m, hi >> 32, np.uint64)]
        _rounds(*words, key)
        for j in range(4):
            out[i:i + m, j] = words[j]
    starts = range(0, n_blocks, _CHUNK)
    workers = min(len(starts), torch.get_num_threads())
    if workers > 1:
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(chunk, starts))
    else:
        for i in starts:
            chunk(i)
    return out


def _u32_to_float(x):
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1.0)


def _u64_to_double(x0, x1):
    man = ((x0.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | x1.astype(np.uint64)
    return (man | (np.uint64(1023) << np.uint64(52))).view(np.float64) - 1.0


def _u16_to_small(x, torch_dtype):
    x = (x & np.uint32(0xFFFF)).astype(np.uint16)
    if torch_dtype is torch.float16:
        val = (x & np.uint16(0x3FF)) | np.uint16(15 << 10)
    else:
        val = (x & np.uint16(0x7F)) | np.uint16(127 << 7)
    t = torch.from_numpy(val.view(np.int16).copy()).view(torch_dtype)
    return t - torch.ones((), dtype=torch_dtype)


def uniform(shape, seed, torch_dtype):
    """Uniform [0, 1) values of `torch_dtype` (a float type), as TF's StatelessRandomUniformV2."""
    n = int(np.prod(shape, dtype=np.int64))
    if torch_dtype is torch.float64:
        b = _bits((n + 1) // 2, seed).reshape(-1, 2)
        out = torch.from_numpy(_u64_to_double(b[:, 0], b[:, 1])[:n].copy())
    elif torch_dtype in (torch.float16, torch.bfloat16):
        out = _u16_to_small(_bits((n + 3) // 4, seed).reshape(-1), torch_dtype)[:n]
    else:
        out = torch.from_numpy(_u32_to_float(_bits((n + 3) // 4, seed).reshape(-1))[:n].copy())
    return out.reshape(shape)


_LIBM = []


def _libm():
    """The C library's log, sin and cos (float and double), which TF's Box-Muller calls; None where not loadable."""
    if not _LIBM:
        funcs = None
        try:
            import ctypes
            import ctypes.util
            lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
            funcs = {}
            for name, ctype in (("logf", ctypes.c_float), ("sinf", ctypes.c_float), ("cosf", ctypes.c_float),
                                ("log", ctypes.c_double), ("sin", ctypes.c_double), ("cos", ctypes.c_double)):
                f = getattr(lib, name)
                f.restype, f.argtypes = ctype, [ctype]
                funcs[name] = f
        except (OSError, AttributeError):
            funcs = None
        _LIBM.append(funcs)
    return _LIBM[0]


# Where glibc's float logf/sinf/cosf can differ from the correctly rounded value: only when the exact value lies
# within (0.5 - t) ulp of a rounding midpoint (t the fraction of an ulp from the nearest float). Checked over every
# input Box-Muller passes them (all 2**23 uniforms of each): glibc 2.3x's mismatches all have t >= 0.2137 (logf) and
# t >= 0.4394 (sinf, cosf). Values below these margins are the correctly rounded ones, computed in float64 by NumPy;
# the rest go through the C library one by one.
_MARGIN = {"logf": 0.2, "sinf": 0.42, "cosf": 0.42}
_NUMPY = {"logf": np.log, "sinf": np.sin, "cosf": np.cos}


def _f32(name, x):
    """The C library's float function `name` over float32 array `x`, as TF's scalar Box-Muller calls it."""
    exact = _NUMPY[name](x.astype(np.float64))
    out = exact.astype(np.float32)
    libm = _libm()
    if libm is None:
        return out
    ulp = np.spacing(np.nextafter(np.abs(out), np.float32(0))).astype(np.float64)    # the smaller side's ulp
    with np.errstate(divide="ignore", invalid="ignore"):
        near = ~(np.abs(exact - out.astype(np.float64)) < _MARGIN[name] * ulp)
    idx = np.nonzero(near)[0]
    if idx.size:
        f = libm[name]
        out[idx] = np.array([f(v) for v in x[idx].tolist()], np.float32)
    return out


def normal(shape, seed, torch_dtype):
    """Standard normal values of `torch_dtype` (a float type), as TF's StatelessRandomNormalV2."""
    n = int(np.prod(shape, dtype=np.int64))
    libm = _libm()
    if torch_dtype is torch.float64:
        b = _bits((n + 1) // 2, seed)
        u1 = np.maximum(_u64_to_double(b[:, 0], b[:, 1]), 1.0e-7)
        v1 = 2.0 * np.pi * _u64_to_double(b[:, 2], b[:, 3])
        if libm is not None:
            log, sin, cos = (np.array([f(x) for x in a.tolist()], np.float64)
                             for f, a in ((libm["log"], u1), (libm["sin"], v1), (libm["cos"], v1)))
        else:
            log, sin, cos = np.log(u1), np.sin(v1), np.cos(v1)
        u2 = np.sqrt(-2.0 * log)
        out = np.stack([sin * u2, cos * u2], 1).reshape(-1)[:n]
        return torch.from_numpy(np.ascontiguousarray(out)).reshape(shape)
    b = _bits((n + 3) // 4, seed).reshape(-1, 2)
    u1 = np.maximum(_u32_to_float(b[:, 0]), np.float32(1.0e-7))
    v1 = (2.0 * np.pi * _u32_to_float(b[:, 1]).astype(np.float64)).astype(np.float32)   # C: (2.0f * M_PI) is double
    log, sin, cos = _f32("logf", u1), _f32("sinf", v1), _f32("cosf", v1)
    u2 = np.sqrt((np.float32(-2.0) * log).astype(np.float64)).astype(np.float32)
    out = torch.from_numpy(np.ascontiguousarray(np.stack([sin * u2, cos * u2], 1).reshape(-1)[:n]))
    return out.to(torch_dtype).reshape(shape)


def _box_muller_f32(x0, x1):
    """TF's BoxMullerFloat of uint32 arrays: (sin, cos) float32 normals."""
    u1 = np.maximum(_u32_to_float(x0), np.float32(1.0e-7))
    v1 = (2.0 * np.pi * _u32_to_float(x1).astype(np.float64)).astype(np.float32)
    log, sin, cos = _f32("logf", u1), _f32("sinf", v1), _f32("cosf", v1)
    u2 = np.sqrt((np.float32(-2.0) * log).astype(np.float64)).astype(np.float32)
    return sin * u2, cos * u2


def _box_muller_f64(x0, x1, x2, x3):
    """TF's BoxMullerDouble of uint32 arrays: (sin, cos) float64 normals."""
    libm = _libm()
    u1 = np.maximum(_u64_to_double(x0, x1), 1.0e-7)
    v1 = 2.0 * np.pi * _u64_to_double(x2, x3)
    if libm is not None:
        log, sin, cos = (np.array([f(x) for x in a.tolist()], np.float64)
                         for f, a in ((libm["log"], u1), (libm["sin"], v1), (libm["cos"], v1)))
    else:
        log, sin, cos = np.log(u1), np.sin(v1), np.cos(v1)
    u2 = np.sqrt(-2.0 * log)
    return sin * u2, cos * u2


_RESERVED = 256     # TF's kReservedSamplesPerOutput: Philox outputs reserved per output of a rejection sampler


def truncated_normal(shape, seed, torch_dtype):
    """Standard normals within (-2, 2) of `torch_dtype`, as TF's StatelessTruncatedNormalV2 (CPU).

    TF fills groups of k outputs (4 for 32- and 16-bit floats, 2 for float64); group g reads Philox blocks from
    counter + g * k * 256 / 4 on, one 32-bit word at a time (two per float Box-Muller pair, four per double pair),
    keeping the normals (sin first) whose magnitude is below 2 until the group is full."""
    n = int(np.prod(shape, dtype=np.int64))
    wide = torch_dtype is torch.float64
    k = 2 if wide else 4
    groups = -(-n // k)
    key, counter = _resolve(seed)
    skip = k * _RESERVED // 4
    out = np.zeros((groups, k), np.float64 if wide else np.float32)
    count = np.zeros(groups, np.int64)
    active = np.arange(groups, dtype=np.uint64)
    lo, hi = counter & _MASK64, counter >> 64
    step = 0
    while active.size:
        idx = active * np.uint64(skip) + np.uint64(lo + step)
        rows = np.empty((active.size, 4), np.uint64)
        rows[:, 0] = idx & _M32
        rows[:, 1] = idx >> np.uint64(32)
        rows[:, 2] = np.uint64(hi & 0xFFFFFFFF)
        rows[:, 3] = np.uint64(hi >> 32)
        b = _blocks(rows, key)
        if wide:
            f0, f1 = _box_muller_f64(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
            cand = np.stack([f0, f1], 1)
        else:
            s0, c0 = _box_muller_f32(b[:, 0], b[:, 1])
            s1, c1 = _box_muller_f32(b[:, 2], b[:, 3])
            cand = np.stack([s0, c0, s1, c1], 1)
        ok = np.abs(cand) < 2.0
        g = active.astype(np.int64)
        pos = count[g][:, None] + np.cumsum(ok, 1) - 1
        take = ok & (pos < k)
        r, c = np.nonzero(take)
        out[g[r], pos[r, c]] = cand[r, c]
        count[g] = np.minimum(count[g] + ok.sum(1), k)
        active = active[count[g] < k]
        step += 1
    res = torch.from_numpy(np.ascontiguousarray(out.reshape(-1)[:n]))
    return res.to(torch_dtype).reshape(shape)


def uniform_int(shape, seed, lo, hi, torch_dtype):
    """Integers in [lo, hi) as TF's StatelessRandomUniformIntV2: lo + bits % (hi - lo) (64-bit bits for 64-bit
    types), wrapping in the type's width."""
    n = int(np.prod(shape, dtype=np.int64))
    span = hi - lo
    if torch_dtype in (torch.int64, torch.uint64):
        b = _bits((n + 1) // 2, seed).reshape(-1, 2).astype(np.uint64)
        bits = (b[:, 0] | (b[:, 1] << np.uint64(32)))[:n]
        vals = bits % np.uint64(span & _MASK64) + np.uint64(lo & _MASK64)
        vals = vals if torch_dtype is torch.uint64 else vals.view(np.int64)
    else:
        bits = _bits((n + 3) // 4, seed).reshape(-1)[:n]
        vals = ((bits % np.uint32(span & 0xFFFFFFFF)) + np.uint32(lo & 0xFFFFFFFF)).astype(np.uint32)
        vals = vals if torch_dtype is torch.uint32 else vals.view(np.int32)
    return torch.from_numpy(np.ascontiguousarray(vals)).to(torch_dtype).reshape(shape)

def full_int(shape, seed, bits, unsigned, torch_dtype):
    """Every value of a 32- or 64-bit integer type, as TF's StatelessRandomUniformFullIntV2 (the raw Philox bits)."""
    n = int(np.prod(shape, dtype=np.int64))
    if bits == 64:
        b = _bits((n + 1) // 2, seed).reshape(-1, 2).astype(np.uint64)
        vals = (b[:, 0] | (b[:, 1] << np.uint64(32)))[:n]
        vals = vals if unsigned else vals.view(np.int64)
    else:
        vals = _bits((n + 3) // 4, seed).reshape(-1)[:n]
        vals = vals if unsigned else vals.view(np.int32)
    return torch.from_numpy(np.ascontiguousarray(vals)).reshape(shape).to(torch_dtype)


def draw(kind, shape, seed, torch_dtype):
    """`uniform`, `normal` or `truncated_normal` by name."""
    return {"uniform": uniform, "normal": normal, "truncated_normal": truncated_normal}[kind](shape, seed,
                                                                                           torch_dtype)
