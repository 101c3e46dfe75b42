"""Seeded random values for op cases: dtypes, shapes and tensors with zero-size dims, NaN/Inf/-0 and extremes.

A tensor argument is plain data: `{"T": dtype_name, "s": shape, "v": flat values}` (complex values as
`[re, im]`, strings as str); a dtype argument is `{"D": name}`; a slice `{"S": [start, stop, step]}`; `...` is
`{"E": 1}`; a tuple `{"U": [...]}`; a Python complex `{"C": [re, im]}`. Everything else is a plain JSON value passed to the op as it is.
"""
import math
import random

FLOATS = ["float16", "bfloat16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INTS = SIGNED + UNSIGNED
REAL = FLOATS + INTS
NUMERIC = REAL + COMPLEX
ALL = NUMERIC + ["bool", "string"]

_INT_RANGE = {f"int{b}": (-(1 << (b - 1)), (1 << (b - 1)) - 1) for b in (8, 16, 32, 64)}
_INT_RANGE.update({f"uint{b}": (0, (1 << b) - 1) for b in (8, 16, 32, 64)})
_SPECIAL = [math.nan, math.inf, -math.inf, -0.0, 0.0, 1e30, -1e30, 1e-30, 65504.0, 3e38, 1e-45]
_STRINGS = ["", "a", "abc", "Hello World", " 12 ", "3.5", "-7", "nan", "\u00ff\u00e9", "a,b,c", "x y  z", "1e3",
            "TensorFlow", "0x1F"]


class Values:
    """Random values from one seeded stream."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def dtype(self, natural, p_any=0.15):
        """A dtype from `natural`, or (with probability `p_any`) any dtype at all, to test TF's rejections."""
        return self.pick(ALL if self.chance(p_any) else natural)

    def dim(self, zero=0.1):
        return 0 if self.chance(zero) else self.pick([1, 1, 2, 2, 3, 3, 4])

    def shape(self, min_rank=0, max_rank=3, zero=0.1):
        rank = self.r.randint(min_rank, max_rank)
        return [self.dim(zero) for _ in range(rank)]

    def scalar(self, dtype, special=0.15):
        if dtype == "bool":
            return self.chance(0.5)
        if dtype == "string":
            return self.pick(_STRINGS)
        if dtype in COMPLEX:
            return [self.scalar("float32", special), self.scalar("float32", special)]
        if dtype in _INT_RANGE:
            lo, hi = _INT_RANGE[dtype]
            if self.chance(special / 2):
                return self.pick([lo, hi, lo + 1, hi - 1, 0])
            return self.r.randint(max(lo, -6), min(hi, 9))
        if self.chance(special):
            return self.pick(_SPECIAL) * self.pick([1, -1])
        return round(self.r.uniform(-6, 6), self.pick([0, 1, 2, 3]))

    def tensor(self, dtype, shape, special=0.15, lo=None, hi=None):
        n = 1
        for d in shape:
            n *= d
        if lo is not None:
            v = [self.r.randint(lo, hi) for _ in range(n)]
        else:
            v = [self.scalar(dtype, special) for _ in range(n)]
        return {"T": dtype, "s": list(shape), "v": v}

    def positive_tensor(self, dtype, shape):
        t = self.tensor(dtype, shape, special=0.05)
        if dtype in FLOATS:
            t["v"] = [abs(x) if x == x else x for x in t["v"]]
        return t

    def python(self, dtype):
        """A Python scalar (or nested list) standing for a value of `dtype`."""
        v = self.scalar(dtype)
        return {"C": v} if isinstance(v, list) else v

    def axis(self, rank, allow_none=True, allow_list=True):
        """A valid axis mostly; sometimes out of range, a list, an empty list, a float or a bool."""
        c = self.r.random()
        if allow_none and c < 0.15:
            return None
        if c < 0.22:
            return self.pick([rank, -rank - 1, rank + 2, 5])
        if allow_list and c < 0.32:
            return [] if rank == 0 or self.chance(0.3) else sorted(self.r.sample(range(rank), self.r.randint(1, rank)))
        if c < 0.34:
            return self.pick([1.0, True])
        if rank == 0:
            return self.pick([0, -1])
        return self.r.randint(-rank, rank - 1)

    def broadcast_pair(self):
        """Two shapes that broadcast together (or, sometimes, that do not)."""
        a = self.shape()
        if self.chance(0.4):
            return a, list(a)
        b = [self.pick([d, 1]) if self.chance(0.8) else self.dim() for d in a]
        if self.chance(0.3):
            b = b[self.r.randint(0, len(b)):]
        if self.chance(0.5):
            a, b = b, a
        return a, b
