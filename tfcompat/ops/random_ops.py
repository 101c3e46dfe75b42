"""`tf.random`: random ops, with TF's global/op seed rules.

- Stateless ops (`stateless_normal/uniform/truncated_normal/categorical`, `experimental.stateless_shuffle`,
  `split`, `fold_in`) are TF's CPU Philox draws (`_philox.py`); `alg` 'threefry' is not supported.
- `tf.random.normal/uniform/truncated_normal/shuffle/categorical` with a global or an op seed are TF's values too:
  the op seed comes as TF's eager `get_seed` gives it (with a global seed `g` and no op seed, the next
  `randint(0, 2**31 - 1)` of a Python `random.Random(g)`; an op seed alone pairs with 87654321), and each
  (op, dtype, seed pair) keeps its kernel's Philox counter, advanced per call as TF's cached kernel reserves
  samples, so repeated calls continue TF's stream; `set_seed` restarts all of them. `tf.random.Generator`'s draws
  are TF's for its state.
- Inside a `tf.function` trace, `normal/uniform/truncated_normal` with an op seed are TF graph nodes: each node is a
  fresh kernel of seeds `(global seed or 87654321, op seed)`, so the trace's run (the first call) gives the first
  values of that stream, whatever eager calls drew before (TF's values for an initializer run in a tf.function);
  later calls (replays) draw from torch's generators.
- Without any seed, inside a `tf.function` trace (but for the first run above), and for `gamma`/`poisson` (and the
  stateless gamma/poisson), draws come from torch generators with the same determinism rules, not TF's values: an
  unseeded op is
  nondeterministic; under `set_seed(g)` unseeded ops draw from one stream of `g` in program order, an op seed `s`
  from the stream of `(g, s)` (gamma/poisson still take their op seed as TF does, so later ops keep TF's seeds).
"""
import enum
import math
import os
import random as _py_random

import numpy as np
import torch

from tfcompat.framework import dtypes, errors, variables
from tfcompat.framework.context import current_device
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import check_dtype, input_storage, int_list, wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.ops import _philox

DEFAULT_GRAPH_SEED = 87654321
_MASK64 = (1 << 64) - 1


class _Seeds:
    """The random state of the process (TF keeps the global seed in its process-wide eager context)."""
    global_seed = None
    streams = {}        # (global seed, op seed or None, device) -> torch.Generator
    unseeded = {}       # device -> torch.Generator with OS entropy
    generator = None    # the `tf.random.Generator` of `get_global_generator`, made on first use
    op_seeds = _py_random.Random(None)   # TF's eager context `_rng`: unseeded ops' op seeds under a global seed
    kernels = {}        # (op, dtype, seed pair) -> Philox blocks its TF kernel has reserved so far


@tf_export("random.set_seed")
def set_seed(seed):
    """Sets the global seed: restarts every seeded stream (TF's `tf.random.set_seed`)."""
    _Seeds.global_seed = None if seed is None else int(seed)
    _Seeds.streams = {}
    _Seeds.generator = None
    _Seeds.op_seeds = _py_random.Random(_Seeds.global_seed)
    _Seeds.kernels = {}         # TF clears its kernel cache


def _mix(*values):
    """A 63-bit torch seed from integers (splitmix64 finaliser over each value)."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (int(v) & _MASK64)) * 0xBF58476D1CE4E5B9 & _MASK64
        h ^= h >> 31
        h = (h * 0x94D049BB133111EB) & _MASK64
        h ^= h >> 29
    return h >> 1


def _new_generator(seed, device):
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    return g


def generator_for(seed=None, device=None):
    """The torch.Generator a TF random op with op seed `seed` draws from, on `device` (default: current).

    Follows TF's seed rules (see module doc): with `tf.random.set_seed` in effect, or with an op `seed`,
    the stream is reproducible; otherwise it is seeded from OS entropy. Dropout, Keras initializers
    and layers draw from it so that `tf.random.set_seed` makes them reproducible.
    """
    device = current_device() if device is None else torch.device(device)
    g_seed = _Seeds.global_seed
    if g_seed is None:
        if seed is None:
            g = _Seeds.unseeded.get(device)
            if g is None:
                g = _Seeds.unseeded[device] = _new_generator(int.from_bytes(os.urandom(8), "little") >> 1, device)
            return g
        g_seed = DEFAULT_GRAPH_SEED
    key = (g_seed, None if seed is None else int(seed), device)
    g = _Seeds.streams.get(key)
    if g is None:
        g = _Seeds.streams[key] = _new_generator(_mix(g_seed, -1 if seed is None else int(seed)), device)
    return g


def seeded_generator(seed, device=None):
    """A fresh torch.Generator that is a pure function of the integer `seed` (Keras' seeded initializers)."""
    return _new_generator(_mix(int(seed), 0), current_device() if device is None else torch.device(device))


def draw_seed(device="cpu"):
    """An integer seed in [1, 1e9] drawn from the global stream (reproducible under `tf.random.set_seed`)."""
    return int(torch.randint(1, 10 ** 9 + 1, (), generator=generator_for(None, device)))


def stateless_generator(seed, device=None, op="StatelessRandomGetKeyCounter"):
    """A fresh torch.Generator that is a pure function of a TF stateless seed (shape [2], int32/int64)."""
    t = input_storage(seed)
    check_dtype(t, op, _SEED_TYPES)
    if tuple(t.shape) != (2,):
        raise errors.kernel_error(errors.InvalidArgumentError,
                                  f"seed must have shape [2], not [{','.join(map(str, t.shape))}]", op, name=None)
    a, b = (int(v) for v in t.tolist())
    return _new_generator(_mix(a, b), current_device() if device is None else device)


_SEED_TYPES = frozenset([torch.int32, torch.int64])
_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_UNIFORM_TYPES = _FLOATS + (dtypes.int32, dtypes.int64)
_STATELESS_INT = (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64)


def _check_dtype(dtype, allowed):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        names = ", ".join(f"tf.{d.name}" for d in allowed)
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are ({names}).")
    return dtype


def _shape(shape, op):
    dims = int_list(shape, op)
    for d in dims:
        if d < 0:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Dimension {d} must be >= 0", op)
    return dims


def _param(value, dtype, device):
    """A distribution parameter (scalar or tensor) converted to `dtype` as TF does (strictly)."""
    if type(value) is float or type(value) is int:
        if not dtype.is_floating:
            to_storage(value, dtype)   # TF's "Cannot convert 1.5 to EagerTensor of dtype int32"
        return value
    t = input_storage(value) if isinstance(value, Tensor) or hasattr(value, "_read") else to_storage(value, dtype)
    if t.dtype is not dtype.torch_dtype:
        t = t.to(dtype.torch_dtype)
    return t.to(device) if t.device != device else t


def _affine(x, scale, shift):
    if not (isinstance(scale, (int, float)) and scale == 1):
        x = x * scale
    if not (isinstance(shift, (int, float)) and shift == 0):
        x = x + shift
    return x


# -- draws on a given generator (shared by the stateful, stateless and Generator APIs) --------------

def _normal(dims, mean, stddev, dtype, gen, op="RandomStandardNormal"):
    dtype = dtypes.as_dtype(dtype)
    device = gen.device
    mean, stddev = _param(mean, dtype, device), _param(stddev, dtype, device)   # TF converts these first
    _check_dtype(dtype, _FLOATS)
    x = torch.randn(_shape(dims, op), generator=gen, device=device, dtype=_draw_type(dtype))
    return wrap(_affine(x, stddev, mean).to(dtype.torch_dtype))


def _draw_type(dtype):
    """Half types are drawn in float32 (torch lacks some half kernels on CPU) and cast."""
    return torch.float32 if dtype.size == 2 else dtype.torch_dtype


def _truncated(dims, gen, torch_dtype):
    """Standard normal samples outside [-2, 2] redrawn, as TF's TruncatedNormal."""
    x = torch.randn(dims, generator=gen, device=gen.device, dtype=torch_dtype)
    bad = x.abs() > 2
    while bool(bad.any()):
        n = int(bad.sum())
        x[bad] = torch.randn(n, generator=gen, device=gen.device, dtype=torch_dtype)
        bad = x.abs() > 2
    return x


def _truncated_normal(dims, mean, stddev, dtype, gen, op="TruncatedNormal"):
    dtype = dtypes.as_dtype(dtype)
    device = gen.device
    mean, stddev = _param(mean, dtype, device), _param(stddev, dtype, device)   # TF converts these first
    _check_dtype(dtype, _FLOATS)
    x = _truncated(_shape(dims, op), gen, _draw_type(dtype))
    return wrap(_affine(x, stddev, mean).to(dtype.torch_dtype))


def _uniform(dims, minval, maxval, dtype, gen, op):
    dtype = _check_dtype(dtype, _UNIFORM_TYPES)
    dims = _shape(dims, op + "Int" if dtype.is_integer else op)
    device = gen.device
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        return _uniform_int(dims, minval, maxval, dtype, gen, op + "Int")
    lo = _param(0 if minval is None else minval, dtype, device)
    hi = _param(1 if maxval is None else maxval, dtype, device)
    x = torch.rand(dims, generator=gen, device=device, dtype=_draw_type(dtype))
    return wrap(_affine(x, hi - lo, lo).to(dtype.torch_dtype))


def _uniform_int(dims, minval, maxval, dtype, gen, op):
    lo = int(to_storage(minval, dtype)) if not isinstance(minval, Tensor) else int(minval)
    hi = int(to_storage(maxval, dtype)) if not isinstance(maxval, Tensor) else int(maxval)
    if lo >= hi:
        raise errors.kernel_error(errors.InvalidArgumentError, f"Need minval < maxval, got {lo} >= {hi}", op)
    return wrap(torch.randint(lo, hi, dims, generator=gen, device=gen.device, dtype=dtype.torch_dtype))


def _full_int(dims, dtype, gen):
    """Uniform over every value of an integer dtype (TF's `uniform_full_int`)."""
    bits = torch.randint(-2 ** 63, 2 ** 63 - 1, dims, generator=gen, device=gen.device, dtype=torch.int64)
    if dtype.size == 8:
        return wrap(bits.to(dtype.torch_dtype) if dtype is not dtypes.int64 else bits)
    low = bits & 0xFFFFFFFF
    if dtype is dtypes.int32:
        low = torch.where(low >= 2 ** 31, low - 2 ** 32, low)
    return wrap(low.to(dtype.torch_dtype))


def _categorical(logits, num_samples, dtype, gen, op="Multinomial"):
    t = input_storage(logits)
    n = int(num_samples)
    if t.ndim != 2:
        raise errors.kernel_error(errors.InvalidArgumentError,
                                  f"logits should be a matrix, got shape [{','.join(map(str, t.shape))}]", op)
    if n < 0:
        raise errors.kernel_error(errors.InvalidArgumentError, f"num_samples should be non-negative, got {n}", op,
                                  name=None if op == "StatelessMultinomial" else "")
    out_dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
    if n == 0 or t.shape[0] == 0:
        return wrap(torch.zeros((t.shape[0], n), dtype=out_dtype.torch_dtype, device=t.device))
    if callable(gen):               # TF's Philox draws: `gen(batch, n)` gives the state
        return wrap(_philox_categorical(t, n, gen(t.shape[0], n)).to(out_dtype.torch_dtype).to(t.device))
    probs = torch.softmax(t.to(torch.float64 if t.dtype is torch.float64 else torch.float32), dim=-1)
    if probs.device != gen.device:
        probs = probs.to(gen.device)
    out = torch.multinomial(probs, n, replacement=True, generator=gen)
    return wrap(out.to(out_dtype.torch_dtype))


def _philox_categorical(t, n, state):
    """TF's CPU multinomial kernel (one shard): each row's CDF is the running sum, in float64, of exp(logit - the
    row's largest finite logit) over finite logits; sample k of the batch (row-major) is the upper bound in it of
    a Philox double (words 2k, 2k+1) times the row's total."""
    logits = t.detach().cpu().to(torch.float64).numpy()
    finite = np.isfinite(logits)
    top = np.where(finite, logits, -np.inf).max(1, keepdims=True)
    with np.errstate(invalid="ignore", over="ignore"):
        cdf = np.cumsum(np.where(finite, np.exp(logits - np.where(np.isfinite(top), top, 0.0)), 0.0), 1)
    batch = logits.shape[0]
    words = _philox._bits((batch * n * 2 + 3) // 4, state).reshape(-1)[:batch * n * 2]
    draws = _philox._u64_to_double(words[0::2], words[1::2]).reshape(batch, n) * cdf[:, -1:]
    out = np.stack([np.searchsorted(cdf[b], draws[b], side="right") for b in range(batch)])
    return torch.from_numpy(out.astype(np.int64))


def _standard_gamma(alpha, gen):
    """Gamma(alpha, 1) samples for a float tensor `alpha` (Marsaglia-Tsang, boosted for alpha < 1)."""
    small = alpha < 1
    a = torch.where(small, alpha + 1, alpha)
    d = a - 1.0 / 3
    c = 1.0 / torch.sqrt(9 * d)
    out = torch.empty_like(a)
    todo = torch.ones_like(a, dtype=torch.bool)
    while bool(todo.any()):
        x = torch.randn(a.shape, generator=gen, device=a.device, dtype=a.dtype)
        v = (1 + c * x) ** 3
        u = torch.rand(a.shape, generator=gen, device=a.device, dtype=a.dtype)
        ok = todo & (v > 0) & (torch.log(u) < 0.5 * x * x + d - d * v + d * torch.log(torch.where(v > 0, v, 1)))
        out = torch.where(ok, d * v, out)
        todo = todo & ~ok
    if bool(small.any()):
        u = torch.rand(a.shape, generator=gen, device=a.device, dtype=a.dtype)
        out = torch.where(small, out * u ** (1 / alpha), out)
    return out


def _gamma(shape, alpha, beta, dtype, gen):
    dtype = _check_dtype(dtype, (dtypes.float16, dtypes.float32, dtypes.float64))
    device = gen.device
    work = torch.float64 if dtype is dtypes.float64 else torch.float32
    a = _param(alpha, dtype, device)
    a = torch.as_tensor(a, dtype=work, device=device)
    if beta is not None:
        b = torch.as_tensor(_param(beta, dtype, device), dtype=work, device=device)
        a = torch.broadcast_tensors(a, b)[0]
    dims = _shape(shape, "RandomGamma") + list(a.shape)
    sample = _standard_gamma(a.expand(dims).contiguous(), gen)
    if beta is not None:
        sample = sample / b
    return wrap(sample.to(dtype.torch_dtype))


def _poisson(shape, lam, dtype, gen):
    dtype = dtypes.as_dtype(dtype)
    device = gen.device
    rate = input_storage(lam) if isinstance(lam, Tensor) else to_storage(lam)
    work = torch.float64 if rate.dtype is torch.float64 else torch.float32
    rate = rate.to(device=device, dtype=work)
    dims = _shape(shape, "RandomPoissonV2") + list(rate.shape)
    out = torch.poisson(rate.expand(dims).contiguous(), generator=gen)
    return wrap(out.to(dtype.torch_dtype))


# -- stateful ops (global/op seed) ------------------------------------------------------------------

_MAXINT32 = 2 ** 31 - 1


_TRACE_CHECKS = []      # tf.function (eager/, above ops/) registers whether this thread records a trace


def tracing_check(predicate):
    """Registers `predicate()`: true while this thread records a tf.function trace (TF's values are then drawn on
    torch's generators: a replay must redraw, not repeat, the traced values)."""
    _TRACE_CHECKS.append(predicate)


def _tracing():
    return any(check() for check in _TRACE_CHECKS)


def op_seeds(seed):
    """TF's eager `get_seed(seed)`: the op's (seed, seed2), or None when neither a global nor an op seed is set."""
    g = _Seeds.global_seed
    if g is None and seed is None:
        return None
    if g is not None:
        if seed is None:
            seed = _Seeds.op_seeds.randint(0, _MAXINT32)
        seeds = g % _MAXINT32, int(seed) % _MAXINT32
    else:
        seeds = DEFAULT_GRAPH_SEED, int(seed) % _MAXINT32
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _kernel_state(op, dtype, seeds, n):
    """The Philox state TF's cached kernel for (op, dtype, seeds) draws `n` outputs from; it then skips 256
    128-bit blocks per output, as `GuardedPhiloxRandom::ReserveRandomOutputs(n, 256)`."""
    key = (op, dtype, seeds)
    offset = _Seeds.kernels.get(key, 0)
    _Seeds.kernels[key] = offset + n * 256
    return _philox.Stateful(seeds[0], seeds[1], offset)


def _stateful_float(kind, op, shape, scale, shift, dtype, seed, fresh=False):
    """TF's stateful `op` with an op seed: Philox values times `scale` plus `shift` in `dtype` (`fresh`: the first
    values of the seeds' stream, as a new kernel draws them, leaving the cached eager kernels as they are)."""
    dtype = dtypes.as_dtype(dtype)
    cpu = torch.device("cpu")
    shift, scale = _param(shift, dtype, cpu), _param(scale, dtype, cpu)     # TF converts these first
    seeds = op_seeds(seed)
    _check_dtype(dtype, _FLOATS)
    dims = _shape(shape, op)
    state = _philox.Stateful(seeds[0], seeds[1], 0) if fresh else _kernel_state(op, dtype, seeds, math.prod(dims))
    x = _philox.draw(kind, dims, state, dtype.torch_dtype)
    if not (isinstance(scale, (int, float)) and scale == 1):
        x = x * _scalar(scale, dtype)
    if not (isinstance(shift, (int, float)) and shift == 0):
        x = x + _scalar(shift, dtype)
    return wrap(x.to(current_device()))


def _exact(seed):
    return (seed is not None or _Seeds.global_seed is not None) and not _tracing()


def _graph_node(seed):
    """Whether this op is a seeded TF graph node whose first run gives TF's values (an op seed, inside a trace)."""
    return seed is not None and _tracing()


def _first_run(drawn, exact):
    """`drawn`, the recorded draw a replay repeats on torch's generator, holding `exact()`'s values now: TF's first
    run of a fresh graph node. The values are written outside the recording (as under `tf.init_scope`)."""
    with variables._init_scope[0]():
        t = storage(drawn)
        t.copy_(storage(exact()).to(t.device))
    return drawn


@tf_export("random.normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Samples from N(mean, stddev**2) (TF's values when a global or op seed is set)."""
    if _exact(seed):
        return _stateful_float("normal", "RandomStandardNormal", shape, stddev, mean, dtype, seed)
    x = _normal(shape, mean, stddev, dtype, generator_for(seed))
    if _graph_node(seed):
        return _first_run(x, lambda: _stateful_float("normal", "RandomStandardNormal", shape, stddev, mean, dtype,
                                                     seed, fresh=True))
    return x


@tf_export("random.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal samples, redrawn when more than 2 stddevs from the mean (TF's values when seeded)."""
    if _exact(seed):
        return _stateful_float("truncated_normal", "TruncatedNormal", shape, stddev, mean, dtype, seed)
    x = _truncated_normal(shape, mean, stddev, dtype, generator_for(seed))
    if _graph_node(seed):
        return _first_run(x, lambda: _stateful_float("truncated_normal", "TruncatedNormal", shape, stddev, mean,
                                                     dtype, seed, fresh=True))
    return x


@tf_export("random.uniform")
def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform samples in [minval, maxval) (maxval defaults to 1 for floats and is required for ints; TF's values
    when seeded)."""
    if not _exact(seed):
        x = _uniform(shape, minval, maxval, dtype, generator_for(seed), "RandomUniform")
        if _graph_node(seed):
            return _first_run(x, lambda: _exact_uniform(shape, minval, maxval, dtype, seed, True))
        return x
    return _exact_uniform(shape, minval, maxval, dtype, seed)


def _exact_uniform(shape, minval, maxval, dtype, seed, fresh=False):
    """TF's stateful RandomUniform(Int) values for an op seed or a global seed (`fresh`: see `_stateful_float`)."""
    dt = _check_dtype(dtype, _UNIFORM_TYPES)
    if dt.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dt!r}")
        op = "RandomUniformInt"
        lo, hi = (int(to_storage(v, dt)) if not isinstance(v, Tensor) else int(v) for v in (minval, maxval))
        seeds = op_seeds(seed)
        dims = _shape(shape, op)
        if lo >= hi:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Need minval < maxval, got {lo} >= {hi}", op)
        state = _philox.Stateful(seeds[0], seeds[1], 0) if fresh else _kernel_state(op, dt, seeds, math.prod(dims))
        return wrap(_philox.uniform_int(dims, state, lo, hi, dt.torch_dtype).to(current_device()))
    cpu = torch.device("cpu")
    lo = _param(0 if minval is None else minval, dt, cpu)
    hi = _param(1 if maxval is None else maxval, dt, cpu)
    lo_t, hi_t = _scalar(lo, dt), _scalar(hi, dt)
    return _stateful_float("uniform", "RandomUniform", shape, hi_t - lo_t, lo_t, dt, seed, fresh)


def _torch_stream(op, seed, device=None):
    """The torch generator of an op TF seeds but tfcompat does not draw as TF: with a global or op seed it takes its
    op seed as TF's `get_seed` does (so later ops keep TF's seeds) and a stream of that pair and its call count."""
    if not _exact(seed):
        return generator_for(seed, device)
    seeds = op_seeds(seed)
    key = (op, None, seeds)
    calls = _Seeds.kernels.get(key, 0)
    _Seeds.kernels[key] = calls + 1
    return _new_generator(_mix(seeds[0], seeds[1], calls), current_device() if device is None else device)


@tf_export("random.categorical")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class indices per row of `logits` [batch, classes] (int64 by default)."""
    if not _exact(seed):
        return _categorical(logits, num_samples, dtype, generator_for(seed))
    seeds = op_seeds(seed)

    def state(batch, n):            # the kernel reserves 512 blocks per sample, samples rounded up to 4 per row
        key = ("Multinomial", input_storage(logits).dtype, seeds)
        offset = _Seeds.kernels.get(key, 0)
        _Seeds.kernels[key] = offset + batch * ((n + 3) // 4 * 4) * 512
        return _philox.Stateful(seeds[0], seeds[1], offset)
    return _categorical(logits, num_samples, dtype, state)


@tf_export("random.shuffle")
def shuffle(value, seed=None, name=None):
    """Randomly permutes `value` along its first axis (TF's permutation when a global or op seed is set: its
    forward Fisher-Yates over one Philox word per step, `i + word % (n - i)`)."""
    t = input_storage(value)
    if not _exact(seed):
        if t.ndim == 0:
            return wrap(t)
        gen = generator_for(seed, t.device)
        return wrap(t[torch.randperm(t.shape[0], generator=gen, device=t.device)])
    seeds = op_seeds(seed)
    if t.ndim == 0 or t.shape[0] <= 1:
        return wrap(t)
    n = t.shape[0]
    key = ("RandomShuffle", t.dtype, seeds)
    offset = _Seeds.kernels.get(key, 0)
    _Seeds.kernels[key] = offset + (n + 2) // 4        # ReserveSamples32(n - 1)
    return wrap(t[_fisher_yates(n, _philox.Stateful(seeds[0], seeds[1], offset), t.device)])


def _fisher_yates(n, state, device):
    """TF's shuffle permutation of n > 1 items: forward Fisher-Yates, step i swapping i and i + word % (n - i),
    one 32-bit Philox word per step."""
    words = _philox._bits((n + 2) // 4, state).reshape(-1)[:n - 1]
    steps = np.arange(n - 1, dtype=np.int64)
    swaps = (steps + (words.astype(np.int64) % (n - steps))).tolist()
    perm = list(range(n))
    for i, j in enumerate(swaps):
        perm[i], perm[j] = perm[j], perm[i]
    return torch.tensor(perm, device=device)


@tf_export("random.gamma")
def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, beta) samples of shape `shape + broadcast(alpha, beta).shape` (beta is a rate)."""
    if _exact(seed) and _gamma_outputs(shape, alpha, beta) <= _EXACT_GAMMA_MAX:
        # TF's RandomGamma kernel: 256 Philox blocks reserved per output on the seeds' stream
        return _gamma_values(shape, alpha, beta, dtype, lambda n, dt: _kernel_state("RandomGamma", dt, op_seeds(seed), n))
    return _gamma(shape, alpha, beta, dtype, _torch_stream("RandomGamma", seed))


@tf_export("random.poisson")
def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) samples of shape `shape + lam.shape`."""
    return _poisson(shape, lam, dtype, _torch_stream("RandomPoissonV2", seed))


# -- algorithms (stateless ops and tf.random.Generator) --------------------------------------------------

@tf_export("random.Algorithm", "random.experimental.Algorithm")
class Algorithm(enum.Enum):
    """TF's RNG algorithms (PHILOX and AUTO_SELECT draw TF's Philox values; THREEFRY is not supported)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _alg(alg):
    if alg is None or alg == "auto_select":
        return Algorithm.AUTO_SELECT
    if isinstance(alg, str):
        return Algorithm[alg.upper()]
    return Algorithm(alg.value if isinstance(alg, Algorithm) else int(alg))


# -- stateless ops -----------------------------------------------------------------------------------

def _philox_alg(alg):
    """TF's CPU algorithm for `alg`: Philox for 'auto_select' and 'philox' (the only ones drawn exactly)."""
    if _alg(alg) is Algorithm.THREEFRY:
        raise NotImplementedError("tfcompat: stateless random ops with alg='threefry' are not supported")


def stateless_pair(seed, op="StatelessRandomGetKeyCounter"):
    """The two integers of a TF stateless seed (shape [2], int32 or int64), checked as TF does."""
    t = input_storage(seed)
    check_dtype(t, op, _SEED_TYPES)
    if tuple(t.shape) != (2,):
        raise errors.kernel_error(errors.InvalidArgumentError,
                                  f"seed must have shape [2], not [{','.join(map(str, t.shape))}]", op, name=None)
    a, b = (int(v) for v in t.tolist())
    return a, b


def _scalar(value, dtype):
    """A distribution parameter as a tensor of the result's dtype (TF's arithmetic runs in that dtype)."""
    if isinstance(value, torch.Tensor):
        return value.cpu()
    return torch.tensor(value, dtype=dtype.torch_dtype)


def _stateless_float(draw, shape, seed, scale, shift, dtype, op, alg):
    """`draw(dims, pair, torch_dtype) * scale + shift` in `dtype` (TF's stateless V2 ops and their Python wrap)."""
    dtype = dtypes.as_dtype(dtype)
    cpu = torch.device("cpu")
    shift, scale = _param(shift, dtype, cpu), _param(scale, dtype, cpu)   # TF converts these first
    _check_dtype(dtype, _FLOATS)
    _philox_alg(alg)
    pair = stateless_pair(seed)
    dims = _shape(shape, op)
    x = _philox.draw(draw, dims, pair, dtype.torch_dtype)
    if not (isinstance(scale, (int, float)) and scale == 1):
        x = x * _scalar(scale, dtype)
    if not (isinstance(shift, (int, float)) and shift == 0):
        x = x + _scalar(shift, dtype)
    return wrap(x.to(current_device()))


@tf_export("random.stateless_normal")
def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Normal samples, a deterministic function of `seed` (shape [2]): TF's Philox values, bit for bit."""
    return _stateless_float("normal", shape, seed, stddev, mean, dtype, "StatelessRandomNormalV2", alg)


@tf_export("random.stateless_truncated_normal")
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """Truncated normal samples, a deterministic function of `seed`: TF's Philox values, bit for bit."""
    return _stateless_float("truncated_normal", shape, seed, stddev, mean, dtype, "StatelessTruncatedNormalV2", alg)


@tf_export("random.stateless_uniform")
def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Uniform samples, a deterministic function of `seed` (TF's Philox values, bit for bit); ints with no bounds
    cover the full range."""
    dt = _check_dtype(dtype, _UNIFORM_TYPES + (dtypes.uint32, dtypes.uint64))
    if dt.is_integer and (minval is None) != (maxval is None):
        raise ValueError(f"For integer `dtype` argument {dt!r}, argument `minval` and `maxval` must be both "
                         f"None or not None. Got `minval`={minval} and `maxval`={maxval}.")
    if dt.is_integer and maxval is None:
        _philox_alg(alg)
        pair = stateless_pair(seed)
        dims = _shape(shape, "StatelessRandomUniformFullIntV2")
        return wrap(_philox.full_int(dims, pair, dt.size * 8, dt.is_unsigned, dt.torch_dtype).to(current_device()))
    if dt.is_integer:
        if dt.is_unsigned:
            raise ValueError(f"Argument `dtype` got invalid value {dt!r} when argument `minval` is not None. Please "
                             "don't use unsigned integers in this case.")
        op = "StatelessRandomUniformIntV2"
        lo, hi = (int(to_storage(v, dt)) if not isinstance(v, Tensor) else int(v) for v in (minval, maxval))
        _philox_alg(alg)
        pair = stateless_pair(seed)
        dims = _shape(shape, op)
        if lo >= hi:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Need minval < maxval, got {lo} >= {hi}", op)
        return wrap(_philox.uniform_int(dims, pair, lo, hi, dt.torch_dtype).to(current_device()))
    cpu = torch.device("cpu")
    lo = _param(0 if minval is None else minval, dt, cpu)
    hi = _param(1 if maxval is None else maxval, dt, cpu)
    lo_t, hi_t = _scalar(lo, dt), _scalar(hi, dt)
    return _stateless_float("uniform", shape, seed, hi_t - lo_t, lo_t, dt, "StatelessRandomUniformV2", alg)


@tf_export("random.stateless_categorical")
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """Categorical samples, a deterministic function of `seed` (TF's values; see `_philox_categorical`)."""
    pair = stateless_pair(seed)
    return _categorical(logits, num_samples, dtype, lambda batch, n: pair, "StatelessMultinomial")


# TF's gamma values come from a per-output Python port of its kernel (~0.1 ms an output); larger draws use torch's
# sampler (the same distribution and determinism rules, not TF's bits), as traced functions do
_EXACT_GAMMA_MAX = 16384


def _gamma_outputs(shape, alpha, beta, stateless=False):
    dims = int_list(shape)
    if stateless:
        return math.prod(dims)
    params = [np.shape(v.numpy() if isinstance(v, Tensor) else v) for v in (alpha, beta) if v is not None]
    return math.prod(dims) * math.prod(np.broadcast_shapes(*params))


def _gamma_values(shape, alpha, beta, dtype, state, stateless=False):
    """TF's gamma draws (`_gamma_kernel`): alpha broadcast against beta, divided by beta, at least the dtype's
    tiny; `state(n, dtype)` gives the Philox state for n outputs. Stateless ops take `shape` as the whole output shape,
    the stateful one appends the parameters' shape."""
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.ops import _gamma_kernel
    dims = int_list(shape)
    dtype = _check_dtype(dtype, (dtypes.float16, dtypes.float32, dtypes.float64))
    a = storage(convert_to_tensor(alpha, dtype=dtype)).cpu()
    b = storage(convert_to_tensor(1 if beta is None else beta, dtype=dtype)).cpu()
    a = a.expand(torch.broadcast_shapes(a.shape, b.shape)).numpy()
    if not stateless:
        dims = dims + list(a.shape)
    st = state(math.prod(dims), dtype)
    if a.ndim > len(dims) or list(a.shape) != dims[len(dims) - a.ndim:]:
        raise errors.kernel_error(errors.InvalidArgumentError, "Shape passed in must end with broadcasted shape.",
                                  "StatelessRandomGammaV3")
    raw = torch.from_numpy(_gamma_kernel.sample(dims, st, a).astype(a.dtype)) / b
    tiny = torch.tensor(np.finfo(a.dtype).tiny, dtype=raw.dtype)
    return wrap(torch.maximum(tiny, raw).to(current_device()))


@tf_export("random.stateless_gamma")
def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma samples, a deterministic function of `seed`; `shape` must end with the parameters' shape. TF's values:
    its StatelessRandomGammaV3 kernel (`_gamma_kernel`)."""
    if _gamma_outputs(shape, alpha, beta, stateless=True) <= _EXACT_GAMMA_MAX:
        return _gamma_values(shape, alpha, beta, dtype, lambda n, dt: stateless_pair(seed), stateless=True)
    dims = int_list(shape)
    params = [to_storage(v) if not isinstance(v, Tensor) else input_storage(v) for v in (alpha, beta)
              if v is not None]
    rank = len(torch.broadcast_shapes(*(p.shape for p in params)))
    out = _gamma(dims[:len(dims) - rank], alpha, beta, dtype, stateless_generator(seed))
    t = storage(out)
    return wrap(t.expand(dims)) if list(t.shape) != dims else out


@tf_export("random.stateless_poisson")
def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson samples, a deterministic function of `seed`; `shape` must end with lam's shape."""
    rate = to_storage(lam) if not isinstance(lam, Tensor) else input_storage(lam)
    dims = int_list(shape)
    lead = dims[:len(dims) - rate.ndim] if rate.ndim else dims
    return _poisson(lead, lam, dtype, stateless_generator(seed))


@tf_export("random.fold_in", "random.experimental.stateless_fold_in")
def fold_in(seed, data, alg="auto_select"):
    """A new stateless seed: `[a full-range stateless draw of data's dtype from seed, data]` (TF's values)."""
    from tfcompat.framework.convert import convert_to_tensor
    data = convert_to_tensor(data)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return wrap(torch.stack([storage(first), input_storage(data).to(storage(first).device)]))


@tf_export("random.split", "random.experimental.stateless_split")
def split(seed, num=2, alg="auto_select"):
    """`num` new stateless seeds ([num, 2], the seed's dtype): TF's full-range stateless draws from `seed`."""
    from tfcompat.framework.convert import convert_to_tensor
    seed = convert_to_tensor(seed)
    return stateless_uniform([int(num), 2], seed, minval=None, maxval=None, dtype=seed.dtype, alg=alg)


def _seed_values(gen, n, torch_dtype):
    info = torch.iinfo(torch_dtype)
    return torch.randint(info.min, info.max, (n,), generator=gen, dtype=torch_dtype)


@tf_export("random.experimental.stateless_shuffle")
def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """Permutes `value` along its first axis, a deterministic function of `seed` (TF's permutation)."""
    t = input_storage(value)
    _philox_alg(alg)
    pair = stateless_pair(seed)
    if t.ndim == 0 or t.shape[0] <= 1:
        return wrap(t)
    return wrap(t[_fisher_yates(t.shape[0], pair, t.device)])
