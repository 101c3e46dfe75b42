"""TF's `StatelessRandomGammaV3` CPU kernel, value for value (`keras.random.gamma` and `beta`).

Output element `i` (counted alpha-major: alpha, then sample) draws from its own copy of the seed's Philox generator
skipped `256 * i` blocks. alpha == 1 is an exponential, `-log1p(-u)` of the second uniform of one block; otherwise
Marsaglia-Tsang rejection (`d = alpha - 1/3`, or `alpha + 2/3` times `u ** (1 / alpha)` below 1) on Box-Muller
normals (two per block: cos first, then sin) and uniform doubles (two per block, second first), each drawn from the
shared stream when its buffer runs out, as TF's `SampleBuffer`s do. All in double with the C library's functions
(Python's `math` calls the same ones), then rounded to the output dtype.
"""
import math

import numpy as np

from tfcompat.ops._binomial_kernel import _M128, _log, _to_double
from tfcompat.ops import _philox


class _Buffers:
    def __init__(self, key, counter):
        self.key = key
        self.counter = counter
        self.normals = []
        self.uniforms = []

    def _block(self):
        c = self.counter
        self.counter = (c + 1) & _M128
        return _philox._block([(c >> (32 * j)) & 0xFFFFFFFF for j in range(4)], self.key)

    def uniform(self):
        if not self.uniforms:
            x = self._block()
            self.uniforms = [_to_double(x[0], x[1]), _to_double(x[2], x[3])]
        return self.uniforms.pop()

    def normal(self):
        if not self.normals:
            x = self._block()
            u1 = max(_to_double(x[0], x[1]), 1.0e-7)
            v1 = 2 * math.pi * _to_double(x[2], x[3])
            u2 = math.sqrt(-2.0 * _log(u1))
            self.normals = [math.sin(v1) * u2, math.cos(v1) * u2]
        return self.normals.pop()


def _one(alpha, stream):
    if alpha == 1.0:
        return -math.log1p(-stream.uniform())
    small = alpha < 1
    d = alpha + (2.0 / 3 if small else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d) if d >= 0 else math.nan        # C's sqrt: NaN below 0 (alpha < -2/3 gives NaN)
    inverse = 1 / alpha if alpha != 0 else math.copysign(math.inf, alpha)
    while True:
        x = stream.normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = stream.uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or _log(u) < 0.5 * x * x + d * (1 - v + _log(v)):
            res = d * v
            if small:
                b = stream.uniform()
                res *= _pow(b, inverse)
            return res


def _pow(base, exponent):
    try:
        return math.pow(base, exponent)
    except (ValueError, OverflowError):     # C's pow: 0 to a negative power is inf, overflow inf
        return math.inf


def sample(dims, seed_pair, alpha):
    """float64 NumPy Gamma(alpha, 1) samples of `dims` for a NumPy `alpha` whose shape ends `dims`."""
    key, counter = _philox._resolve(seed_pair)     # a stateless pair, or a stateful kernel's `_philox.Stateful`
    flat = np.asarray(alpha).reshape(-1)
    n_alphas = flat.size
    per_alpha = int(np.prod(dims, dtype=np.int64)) // max(n_alphas, 1)
    out = np.empty(n_alphas * per_alpha, np.float64)
    for a in range(n_alphas):
        value = float(flat[a])
        for s in range(per_alpha):
            i = a * per_alpha + s
            stream = _Buffers(key, (counter + 256 * i) & _M128)
            out[s * n_alphas + a] = _one(value, stream)
    return out.reshape(dims)
