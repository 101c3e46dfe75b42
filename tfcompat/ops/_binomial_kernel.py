"""TF's `StatelessRandomBinomial` CPU kernel, value for value (`tf.random.stateless_binomial`, `keras.random.binomial`).

Each output element `i` (counted batch-major: parameter set, then sample) runs its own copy of the seed's Philox
generator skipped `256 * i` blocks (rejection sampling, BTRS, where `count * p >= 10` with p the smaller of p and
1 - p) or `42 * i` blocks (inversion: geometric waiting times, otherwise). Uniform doubles come two per block, the
second first, as TF's `UNIFORM` macro takes them. The thresholds compare in the parameters' dtype (float32 for
Keras's default), the sampling runs in double with the C library's log (Python's `math`). Elements are drawn one by
one in Python: fine for the sizes such code draws (tens of thousands of samples a second).
"""
import math

import numpy as np

from tfcompat.ops import _philox

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
         0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287)
_M128 = (1 << 128) - 1


class _Stream:
    """A copy of the op's Philox generator skipped to one element's blocks, handing out TF's uniform doubles."""

    def __init__(self, key, counter):
        self.key = key
        self.counter = counter
        self.pending = []

    def uniform(self):
        if not self.pending:
            c = self.counter
            words = [(c >> (32 * j)) & 0xFFFFFFFF for j in range(4)]
            self.counter = (c + 1) & _M128
            x = _philox._block(words, self.key)
            self.pending = [_to_double(x[0], x[1]), _to_double(x[2], x[3])]
        return self.pending.pop()


def _to_double(hi, lo):
    bits = ((hi & 0xFFFFF) << 32) | lo | (1023 << 52)
    return float(np.array([bits], np.uint64).view(np.float64)[0]) - 1.0


def _log(x):
    """The C library's log, with its -inf at 0 and NaN below (Python's `math.log` raises there)."""
    if x > 0:
        return math.log(x)
    return -math.inf if x == 0 else math.nan


def _tail(k):
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _inversion(count, prob, stream):
    total, n = 0.0, 0
    denom = math.log1p(-prob)
    while True:
        total += math.ceil(_log(stream.uniform()) / denom)
        if total > count:
            return float(n)
        n += 1


def _btrs(count, prob, stream):
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = stream.uniform()
        v = stream.uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or k > count:
            continue
        v = _log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * math.log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * math.log(r * (count - k + 1) / (k + 1))
                 + _tail(m) + _tail(count - m) - _tail(k) - _tail(count - k))
        if v <= upper:
            return float(k)


def sample(dims, seed_pair, counts, probs):
    """float64 NumPy samples of `dims` for NumPy `counts`/`probs` of one dtype whose broadcast shape ends `dims`."""
    key, counter = _philox.key_counter(*seed_pair)
    batch_shape = np.broadcast_shapes(counts.shape, probs.shape)
    n_batches = int(np.prod(batch_shape, dtype=np.int64))
    per_batch = int(np.prod(dims[:len(dims) - len(batch_shape)], dtype=np.int64))
    flat_counts = np.broadcast_to(counts, batch_shape).reshape(-1)
    flat_probs = np.broadcast_to(probs, batch_shape).reshape(-1)
    out = np.empty(n_batches * per_batch, np.float64)
    t = flat_probs.dtype.type
    ten, half, one, zero = t(10), t(0.5), t(1), t(0)
    for batch in range(n_batches):
        count, prob = flat_counts[batch], flat_probs[batch]
        dcount = float(count)
        for s in range(per_batch):
            i = batch * per_batch + s
            if dcount <= 0.0 or prob <= zero:
                value = 0.0
            elif prob >= one:
                value = dcount
            elif prob <= half or prob > half:
                small = prob <= half
                p = prob if small else t(one - prob)
                skip = 256 if t(count * p) >= ten else 42
                stream = _Stream(key, (counter + skip * i) & _M128)
                drawn = (_btrs if skip == 256 else _inversion)(dcount, float(p), stream)
                value = drawn if small else dcount - drawn
            else:
                value = math.nan
            out[s * n_batches + batch] = value
    return out.reshape(dims)
