"""`tf.nn.fractional_max_pool` / `tf.nn.fractional_avg_pool` (TF 2 signatures) as TF's FractionalMaxPool /
FractionalAvgPool kernels.

Each spatial dim of size n is cut into m = floor(n / ratio) intervals of k or k + 1 rows (k = n // m); the pooling
sequence is their cumulative bounds. With `seed != 0` (deterministic, seeds from `get_seed` as TF: (global seed or
87654321, seed), each mod 2**31 - 1) the sequence is TF's: a Philox generator keyed by the two seeds, rows first
(one block for a pseudo-random sequence, ceil(m / 4) for a random one), then columns; pseudo-random bounds are
ceil(alpha * (i + u)) - 1 for one uniform u scaled to TF's bound, random ones TF's forward Fisher-Yates shuffle of the
interval sizes (`uint32 % n`). With `seed == 0` TF draws from an OS-seeded generator, as tfcompat does.
A window is [bound_i, bound_i+1) (its end included when `overlapping`); gradients flow through a gather and a max or
mean, to the first maximum of a window.
"""
import collections
import math
import os

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor import device_name
from tfcompat.ops import _philox, deprecation, random_ops

_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1
_M32 = 0xFFFFFFFF
_TYPES = (torch.float32, torch.float64, torch.int32, torch.int64)

FractionalMaxPool = collections.namedtuple("FractionalMaxPool",
                                           ["output", "row_pooling_sequence", "col_pooling_sequence"])
FractionalAvgPool = collections.namedtuple("FractionalAvgPool",
                                           ["output", "row_pooling_sequence", "col_pooling_sequence"])


class _Philox:
    """TF's GuardedPhiloxRandom(seed, seed2): `reserve(n)` hands out the next n 32-bit samples' blocks."""

    def __init__(self, seed, seed2):
        self.key = (seed & _M32, (seed >> 32) & _M32)
        self.hi = seed2 & ((1 << 64) - 1)
        self.next = 0

    def reserve(self, n_samples):
        blocks = (n_samples + 3) // 4
        start = self.next
        self.next += blocks
        return _Samples(self, start)


class _Samples:
    """SingleSampleAdapter: one 32-bit sample at a time from consecutive Philox blocks."""

    def __init__(self, gen, block):
        self.gen, self.block, self.buf = gen, block, []

    def __call__(self):
        if not self.buf:
            row = np.array([[self.block & _M32, self.block >> 32, self.gen.hi & _M32, self.gen.hi >> 32]], np.uint64)
            self.buf = [int(v) for v in _philox._blocks(row, self.gen.key)[0]]
            self.block += 1
        return self.buf.pop(0)


def _sequence(n_in, n_out, gen, pseudo_random):
    if pseudo_random:
        alpha = n_in / n_out
        k = n_in // n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        draw = gen.reserve(2)
        x0, x1 = draw(), draw()
        u = float(_philox._u64_to_double(np.array([x0], np.uint32), np.array([x1], np.uint32))[0]) * max_u
        bounds = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
        return [b - 1 for b in bounds]
    k, extra = n_in // n_out, n_in % n_out
    sizes = [k + 1 if i < extra else k for i in range(n_out)]
    draw = gen.reserve(n_out)
    for i in range(n_out - 1):
        j = i + draw() % (n_out - i)
        sizes[i], sizes[j] = sizes[j], sizes[i]
    return [0] + np.cumsum(sizes).tolist()


def _ratio(pooling_ratio):
    if isinstance(pooling_ratio, (list, tuple)):
        if pooling_ratio[0] != 1.0 or pooling_ratio[-1] != 1.0:
            raise ValueError(f"`pooling_ratio` should have first and last elements with value 1.0. Received: "
                             f"pooling_ratio={pooling_ratio}")
        for element in pooling_ratio:
            if element < 1.0:
                raise ValueError(f"`pooling_ratio` elements should be >= 1.0. Received: pooling_ratio={pooling_ratio}")
        value = list(pooling_ratio)
    elif isinstance(pooling_ratio, (int, float)):
        if pooling_ratio < 1.0:
            raise ValueError(f"`pooling_ratio` should be >= 1.0. Received: pooling_ratio={pooling_ratio}")
        value = [pooling_ratio]
    else:
        raise ValueError(f"`pooling_ratio` should be an int or a list of ints. Received: pooling_ratio={pooling_ratio}")
    if len(value) == 4:
        return [float(v) for v in value]
    if len(value) == 1:
        value = value * 2
    elif len(value) != 2:
        raise ValueError(f"pooling_ratio should be of length 1, 2 or 4. Received: pooling_ratio={value} of length "
                         f"{len(value)}")
    return [1.0] + [float(v) for v in value] + [1.0]


def _seeds(seed):
    if seed == 0:                # TF: a generator seeded from the OS on each kernel
        return int.from_bytes(os.urandom(8), "little"), int.from_bytes(os.urandom(8), "little")
    g = random_ops._Seeds.global_seed
    return (_DEFAULT_GRAPH_SEED if g is None else g % _MAXINT32), seed % _MAXINT32


def _fail(msg, op, t):
    return errors.kernel_error(errors.InvalidArgumentError, msg, op, device_name(t.device), name=None)


def _fmt(r):
    return f"{r:g}" if r != int(r) else str(int(r))


def _pool(value, ratio, pseudo_random, overlapping, seeds, op, result):
    t = input_storage(value)
    if type(t) is not torch.Tensor or t.dtype not in _TYPES:
        got = type_name(t.dtype) if type(t) is torch.Tensor else "string"
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'T' of {got} is not in the list of allowed values: float, double, int32, int64\n\t; "
            f"NodeDef: {{{{node {op}}}}}; Op<name={op}; signature=value:T -> output:T, row_pooling_sequence:int64, "
            "col_pooling_sequence:int64; attr=pooling_ratio:list(float),min=4; attr=pseudo_random:bool,default=false; "
            "attr=overlapping:bool,default=false; attr=deterministic:bool,default=false; attr=seed:int,default=0; "
            "attr=seed2:int,default=0; attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64]>", op, None)
    if t.dim() != 4:
        raise _fail("tensor_in must be 4-dimensional", op, t)
    sizes = []
    for i in range(4):
        out = int(math.floor(t.shape[i] / ratio[i]))
        if out <= 0:
            raise _fail(f"Pooling ratio is higher than input dimension size for dimension {i}. Input dim size: "
                        f"{t.shape[i]} pooling ratio: {_fmt(ratio[i])}", op, t)
        sizes.append(out)
    if sizes[0] != t.shape[0] or sizes[3] != t.shape[3]:
        raise NotImplementedError(f"tf.nn.{op}: pooling over the batch or channel dimension is not supported by "
                                  "tfcompat")
    gen = _Philox(*seeds)
    rows = _sequence(t.shape[1], sizes[1], gen, pseudo_random)
    cols = _sequence(t.shape[2], sizes[2], gen, pseudo_random)
    out = _windows(t, rows, cols, overlapping, op == "FractionalMaxPool")
    seq = [wrap(torch.tensor(s, dtype=torch.int64, device=t.device)) for s in (rows, cols)]
    return result(wrap(out), *seq)


def _index(bounds, size, overlapping):
    """[m, L] indices of each window along one dim and their validity mask."""
    spans = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        end = min(b if overlapping else b - 1, size - 1)
        spans.append(list(range(a, end + 1)))
    width = max(len(s) for s in spans)
    idx = torch.tensor([s + [s[-1]] * (width - len(s)) for s in spans], dtype=torch.int64)
    ok = torch.tensor([[True] * len(s) + [False] * (width - len(s)) for s in spans])
    return idx, ok


def _windows(t, rows, cols, overlapping, is_max):
    ri, rok = _index(rows, t.shape[1], overlapping)
    ci, cok = _index(cols, t.shape[2], overlapping)
    ri, rok, ci, cok = (x.to(t.device) for x in (ri, rok, ci, cok))
    if is_max:
        g, ok = _gather(t, ri, rok, ci, cok)
        low = -float("inf") if t.is_floating_point() else torch.iinfo(t.dtype).min
        g = torch.where(ok, g, torch.full((), low, dtype=t.dtype, device=t.device))
        return g.reshape(*g.shape[:4], -1).max(dim=-1).values
    if t.is_floating_point() and t.requires_grad:
        return _Average.apply(t, ri, rok, ci, cok)
    return _average(t, ri, rok, ci, cok)


def _gather(t, ri, rok, ci, cok):
    """The windows of `t` as [n, oh, ow, c, Lh, Lw] and their validity mask [1, oh, ow, 1, Lh, Lw]."""
    g = t[:, ri][:, :, :, ci].permute(0, 1, 3, 5, 2, 4)       # [n, oh, Lh, ow, Lw, c] -> [n, oh, ow, c, Lh, Lw]
    ok = (rok[:, :, None, None] & cok[None, None]).permute(0, 2, 1, 3)[None, :, :, None]
    return g, ok


def _average(t, ri, rok, ci, cok):
    """TF's forward: the window sums in the input's dtype, divided by the window sizes."""
    g, ok = _gather(t, ri, rok, ci, cok)
    count = ok.sum(dim=(-2, -1))
    total = torch.where(ok, g, torch.zeros((), dtype=t.dtype, device=t.device)).sum(dim=(-2, -1))
    if t.is_floating_point():
        return total / count.to(t.dtype)
    return torch.div(total, count, rounding_mode="trunc").to(t.dtype)


class _Average(torch.autograd.Function):
    """The window average whose gradient is TF's FractionalAvgPoolGrad: each cell's gradient divided by its size and
    spread over its window in float64, then cast to the input's dtype."""

    @staticmethod
    def forward(ctx, t, ri, rok, ci, cok):
        ctx.save_for_backward(ri, rok, ci, cok)
        ctx.shape = t.shape
        return _average(t.detach(), ri, rok, ci, cok)

    @staticmethod
    def backward(ctx, grad):
        ri, rok, ci, cok = ctx.saved_tensors
        n, h, w, c = ctx.shape
        ok = rok[:, :, None, None] & cok[None, None]                                   # [oh, Lh, ow, Lw]
        okf = ok.to(torch.float64)
        each = grad.to(torch.float64) / okf.sum(dim=(1, 3))[None, :, :, None]          # [n, oh, ow, c]
        parts = each[:, :, None, :, None, :] * okf[None, :, :, :, :, None]             # [n, oh, Lh, ow, Lw, c]
        rows = ri[:, :, None, None].expand(ok.shape).reshape(-1)
        cols = ci[None, None].expand(ok.shape).reshape(-1)
        out = torch.zeros((h, w, n, c), dtype=torch.float64, device=grad.device)
        out.index_put_((rows, cols), parts.permute(1, 2, 3, 4, 0, 5).reshape(-1, n, c), accumulate=True)
        return out.permute(2, 0, 1, 3).to(grad.dtype), None, None, None, None


@tf_export("nn.fractional_max_pool")
def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """Max pooling over windows of fractional average size `pooling_ratio`: (output, row and column sequences)."""
    return _pool(value, _ratio(pooling_ratio), pseudo_random, overlapping, _seeds(seed), "FractionalMaxPool",
                 FractionalMaxPool)


@tf_export("nn.fractional_avg_pool")
def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, seed=0, name=None):
    """Average pooling over windows of fractional average size `pooling_ratio`: (output, row and column sequences)."""
    return _pool(value, _ratio(pooling_ratio), pseudo_random, overlapping, _seeds(seed), "FractionalAvgPool",
                 FractionalAvgPool)


# -- TF1 signatures (tf.compat.v1.nn) ---------------------------------------------------------------------------------
_V1_SIG = ("Op<name={op}; signature=value:T -> output:T, row_pooling_sequence:int64, col_pooling_sequence:int64; "
           "attr=pooling_ratio:list(float),min=4; attr=pseudo_random:bool,default=false; "
           "attr=overlapping:bool,default=false; attr=deterministic:bool,default=false; attr=seed:int,default=0; "
           "attr=seed2:int,default=0; attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64]>")


def _v1(value, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2, fn, op, kind, result):
    deprecation.warn_deprecated(fn, "tensorflow.python.ops.nn_ops", "`seed2` and `deterministic` args are "
                                f"deprecated.  Use {fn}_v2.")
    if not isinstance(pooling_ratio, (list, tuple)):
        raise TypeError(f"Expected list for 'pooling_ratio' argument to '{fn}' Op, not {pooling_ratio}.")
    if len(pooling_ratio) < 4:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Length for attr 'pooling_ratio' of {len(pooling_ratio)} must be at least minimum 4"
                              f"\n\t; NodeDef: {{{{node {op}}}}}; {_V1_SIG.format(op=op)}", op, None)
    ratio = [float(r) for r in pooling_ratio]
    t = input_storage(value)
    device = t.device if type(t) is torch.Tensor else torch.device("cpu")
    for r in ratio:
        if r < 1:
            raise errors.kernel_error(errors.InvalidArgumentError, f"pooling_ratio cannot be smaller than 1, got: "
                                      f"{_fmt(r)}", op, device_name(device), name=None)
    if ratio[0] != 1 or ratio[3] != 1:
        raise errors.kernel_error(errors.UnimplementedError, f"Fractional {kind} pooling is not yet supported on the "
                                  "batch nor channel dimension.", op, device_name(device), name=None)
    if not deterministic and (seed or seed2):
        raise errors.kernel_error(errors.InvalidArgumentError, "Both seed and seed2 should be 0 if deterministic is "
                                  "false.", op, device_name(device), name=None)
    seeds = (seed, seed2) if (seed or seed2) else _seeds(0)
    return _pool(value, ratio, pseudo_random, overlapping, seeds, op, result)


def fractional_max_pool_v1(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
                           seed2=0, name=None):
    """TF1's `tf.compat.v1.nn.fractional_max_pool`: the op's own `deterministic`, `seed` and `seed2`."""
    return _v1(value, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2, "fractional_max_pool",
               "FractionalMaxPool", "max", FractionalMaxPool)


def fractional_avg_pool_v1(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
                           seed2=0, name=None):
    """TF1's `tf.compat.v1.nn.fractional_avg_pool`: the op's own `deterministic`, `seed` and `seed2`."""
    return _v1(value, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2, "fractional_avg_pool",
               "FractionalAvgPool", "average", FractionalAvgPool)
