"""`keras.random`: seeded random tensors (`seed` an int, a `SeedGenerator`, or None for the global generator).

As Keras 3's TensorFlow backend: a draw takes a seed pair (`[seed, 0]` for an int, the generator's state before it
advances for a `SeedGenerator`, the global `SeedGenerator`'s for None), reduced modulo 2**31 - 2 to int32, and runs
TF's stateless op on it, so `normal`, `uniform`, `truncated_normal`, `randint`, `shuffle`, `dropout` and
`categorical`, `binomial`, `gamma` and `beta` give TF's values (`ops/_philox.py`; TF's binomial and gamma kernels
in `ops/_binomial_kernel.py`, `ops/_gamma_kernel.py`). An unseeded `SeedGenerator` takes its seed from Python's `random`
(Keras's `make_default_seed`), so `keras.utils.set_random_seed` fixes it, as in Keras.
"""
import functools
import inspect
import random as _py_random

import torch

from tfcompat.eager.function import current_recorder, host_call
from tfcompat.framework import dtypes
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.ops import random_ops
from tfcompat.util import nest

_INT32_MAX_MINUS_1 = 2 ** 31 - 2


def make_default_seed():
    """Keras's default seed: one draw of Python's `random` in [1, 1e9]."""
    return _py_random.randint(1, int(1e9))


class SeedGenerator:
    """A stateful seed: each draw reads its `state` variable `[seed, counter]` (int64), then advances it."""

    def __init__(self, seed=None, name=None, **kwargs):
        from tfcompat.keras import variables as kvars
        from tfcompat.keras.engine import naming
        kwargs.pop("backend", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name or naming.unique_name("seed_generator")
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        with kvars.name_scope(self.name):
            self.state = kvars.Variable(torch.tensor([seed, 0], dtype=torch.int64), dtype="int64", trainable=False,
                                        name="seed_generator_state")

    def next(self, ordered=True):
        """The state before this draw (an int64 [2] tensor); the state then advances (Keras's update rule)."""
        value = storage(self.state).clone()
        if ordered:
            new = value + torch.tensor([0, 1], dtype=value.dtype, device=value.device)
        else:
            new = (value + 1) * 5387 % 933199
        self.state.assign(new)
        return _wrap(value)

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


_GLOBAL = [None]


def global_seed_generator():
    """Keras's global SeedGenerator (made on first use; `keras.utils.set_random_seed` drops it)."""
    if _GLOBAL[0] is None:
        _GLOBAL[0] = SeedGenerator()
    return _GLOBAL[0]


def _reset_global():
    _GLOBAL[0] = None


def seed_pair(seed):
    """The stateless seed pair Keras's TF backend passes for `seed` (`draw_seed` then `_cast_seed`)."""
    if isinstance(seed, SeedGenerator):
        values = storage(seed.next()).tolist()
    elif isinstance(seed, _Unordered):
        values = storage(seed.generator.next(ordered=False)).tolist()
    elif isinstance(seed, int) and not isinstance(seed, bool):
        values = [seed, 0]
    elif seed is None:
        values = storage(global_seed_generator().next(ordered=False)).tolist()
    else:
        raise ValueError(f"Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
                         f"Received: seed={seed} (of type {type(seed)})")
    return [int(v) % _INT32_MAX_MINUS_1 for v in values]


def _generator(seed):
    """A torch generator keyed by the seed pair (the draws tfcompat does not take from TF's Philox stream)."""
    return random_ops.seeded_generator(random_ops._mix(*seed_pair(seed)))


class _Unordered:
    """The global SeedGenerator as an unseeded draw uses it (`next(ordered=False)`)."""

    def __init__(self, generator):
        self.generator = generator


def _traceable(fn):
    """A draw seeded by a `SeedGenerator` (or unseeded: the global one) inside a tf.function trace becomes a host
    callback that reads and advances the generator's state on every replay (as TF's stateful random ops do); a plain
    trace would read the state once and every replay would check that it has not moved."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if current_recorder() is None:
            return fn(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        seed = bound.arguments.get("seed")
        if seed is None:
            gen, seed = global_seed_generator(), _Unordered(global_seed_generator())
        elif isinstance(seed, SeedGenerator):
            gen = seed
        else:
            return fn(*args, **kwargs)
        bound.arguments["seed"] = seed
        args, kwargs = bound.args, bound.kwargs
        flat = nest.flatten((args, kwargs))
        tensors = [storage(x) for x in flat if isinstance(x, Tensor)]

        def draw(inputs):
            gen.state._set_storage(inputs[0])
            values = iter(inputs[1:])
            call_args, call_kwargs = nest.pack_sequence_as(
                (args, kwargs), [_wrap(next(values)) if isinstance(x, Tensor) else x for x in flat])
            return [storage(fn(*call_args, **call_kwargs)), storage(gen.state)]

        out, state = host_call(draw, [storage(gen.state)] + tensors)
        gen.state._set_storage(state)
        return _wrap(out)
    return wrapper


def _float_dtype(dtype):
    from tfcompat.keras import backend
    return dtypes.as_dtype(dtype or backend.floatx())


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)


def _seed_tensor(seed):
    return torch.tensor(seed_pair(seed), dtype=torch.int32)


@_traceable
def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of N(mean, stddev^2), floatx by default (TF's stateless normal)."""
    dtype = _float_dtype(dtype)
    return random_ops.stateless_normal(_shape(shape), _wrap(_seed_tensor(seed)), mean=mean, stddev=stddev,
                                       dtype=dtype)


@_traceable
def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples of U[minval, maxval), floatx by default (TF's stateless uniform)."""
    from tfcompat.ops.math_ops import cast
    dtype = _float_dtype(dtype)
    seed = _wrap(_seed_tensor(seed))
    return random_ops.stateless_uniform(_shape(shape), seed, minval=cast(minval, dtype), maxval=cast(maxval, dtype),
                                        dtype=dtype)


@_traceable
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """N(mean, stddev^2) samples within two standard deviations (TF's stateless truncated normal)."""
    dtype = _float_dtype(dtype)
    return random_ops.stateless_truncated_normal(_shape(shape), _wrap(_seed_tensor(seed)), mean=mean, stddev=stddev,
                                                 dtype=dtype)


@_traceable
def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers uniform in `[minval, maxval)` (TF's stateless uniform ints, drawn as int32/int64 and cast)."""
    from tfcompat.ops.math_ops import cast
    dtype = dtypes.as_dtype(dtype)
    inter = dtype if dtype in (dtypes.int32, dtypes.int64) else dtypes.int64
    out = random_ops.stateless_uniform(_shape(shape), _wrap(_seed_tensor(seed)), minval=minval, maxval=maxval,
                                       dtype=inter)
    return out if inter is dtype else cast(out, dtype)


@_traceable
def shuffle(x, axis=0, seed=None):
    """`x` with its slices along `axis` in the order of argsort(stateless uniform) (Keras's TF backend)."""
    t = input_storage(x)
    keys = storage(random_ops.stateless_uniform([t.shape[axis]], _wrap(_seed_tensor(seed))))
    perm = torch.argsort(keys, stable=True).to(t.device)
    return _wrap(torch.index_select(t, axis, perm))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zeroes entries whose stateless uniform draw is below `rate`, scaling the rest by `1 / (1 - rate)` (TF's
    `stateless_dropout`). Only the keep mask is drawn (a host callback in a traced function), so gradients flow
    to `inputs` there too."""
    t = input_storage(inputs)
    if rate == 1.0:
        return _wrap(torch.zeros_like(t))
    if rate == 0.0:
        return _wrap(t)
    shape = t.shape if noise_shape is None else tuple(t.shape[i] if d is None else d for i, d in enumerate(noise_shape))
    keep = storage(dropout_keep_mask(list(shape), rate, dtypes.as_dtype(t.dtype), seed=seed)).to(t.device)
    scaled = t * torch.tensor(1 / (1 - rate), dtype=t.dtype)
    return _wrap(torch.where(keep, scaled, torch.zeros((), dtype=t.dtype)))


@_traceable
def dropout_keep_mask(shape, rate, dtype, seed=None):
    """The keep mask of TF's `stateless_dropout` (uniform draws of `dtype` >= rate) as a bool tensor: what a
    Dropout layer multiplies by, so gradients flow through its own ops."""
    dt = dtypes.as_dtype(dtype)
    noise = storage(random_ops.stateless_uniform(list(shape), _wrap(_seed_tensor(seed)), dtype=dt))
    return _wrap(noise >= torch.tensor(rate, dtype=noise.dtype))


@_traceable
def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of `logits` (batch, classes): TF's stateless categorical, cast."""
    from tfcompat.ops.math_ops import cast
    out = random_ops.stateless_categorical(logits, num_samples, _wrap(_seed_tensor(seed)))
    return cast(out, dtypes.as_dtype(dtype))


@_traceable
def gamma(shape, alpha, dtype=None, seed=None):
    """Gamma(alpha, 1) samples, floatx by default: TF's values (its stateless gamma on the seed pair)."""
    from tfcompat.ops.math_ops import cast
    dtype = _float_dtype(dtype)
    inter = dtypes.float32 if dtype == dtypes.bfloat16 else dtype
    out = _stateless_gamma(list(_shape(shape)), _seed_tensor(seed), alpha, inter)
    return out if inter is dtype else cast(out, dtype)


def _stateless_gamma(dims, seed, alpha, dtype):
    """`tf.random.stateless_gamma(dims, seed, alpha, dtype=dtype)` as TF computes it: the StatelessRandomGammaV3
    kernel's values (`ops/_gamma_kernel.py`), at least the dtype's smallest normal number."""
    import numpy as np
    from tfcompat.framework import errors
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.ops import _gamma_kernel as _gamma
    if not dtype.is_floating:
        raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'dtype' of {dtype.name} is not in the list "
                              "of allowed values: half, float, double\n\t; NodeDef: {{node StatelessRandomGammaV3}}; "
                              + _GAMMA_SIGNATURE, "StatelessRandomGammaV3")
    a = storage(convert_to_tensor(alpha, dtype=dtype)).cpu().numpy()
    if a.ndim > len(dims) or list(a.shape) != dims[len(dims) - a.ndim:]:
        raise errors.op_error(errors.InvalidArgumentError, "{{function_node __wrapped__StatelessRandomGammaV3_device_"
                              "/job:localhost/replica:0/task:0/device:CPU:0}} Shape passed in must end with broadcasted "
                              "shape.", "StatelessRandomGammaV3")
    raw = _gamma.sample(dims, [int(v) for v in seed.tolist()], a).astype(a.dtype)
    from tfcompat.framework.context import current_device
    return _wrap(torch.from_numpy(np.maximum(np.finfo(a.dtype).tiny, raw)).to(current_device()))


_GAMMA_SIGNATURE = (
    "Op<name=StatelessRandomGammaV3; signature=shape:shape_dtype, key:uint64, counter:uint64, alg:int32, "
    "alpha:dtype -> output:dtype; attr=dtype:type,allowed=[DT_HALF, DT_FLOAT, DT_DOUBLE]; "
    "attr=shape_dtype:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>")
@_traceable
def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Binomial(counts, probabilities) samples, floatx by default: TF's values, as Keras's TF backend draws them
    (`tf.random.stateless_binomial` on the seed pair, `counts`/`probabilities` broadcast against the end of
    `shape`)."""
    from tfcompat.ops.math_ops import cast
    from tfcompat.ops.random_binomial_ops import stateless_binomial
    dtype = dtypes.as_dtype(dtype or _float_dtype(None))
    seed = _wrap(_seed_tensor(seed))
    inter = dtypes.float32 if dtype == dtypes.bfloat16 else dtype
    out = stateless_binomial(list(_shape(shape)), seed, counts, probabilities, output_dtype=inter)
    return out if inter is dtype else cast(out, dtype)


@_traceable
def beta(shape, alpha, beta, dtype=None, seed=None):
    """Beta(alpha, beta) samples, floatx by default: TF's values, computed as Keras's TF backend does: `X / (X + Y)`
    for gamma draws X ~ Gamma(alpha) on the seed pair and Y ~ Gamma(beta) on the pair + 12, `alpha`/`beta`
    broadcast to `shape` first."""
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.ops import array_ops
    from tfcompat.ops.math_ops import cast
    dtype = _float_dtype(dtype)
    first = _seed_tensor(seed)
    second = first + 12
    inter = dtypes.float32 if dtype == dtypes.bfloat16 else dtype
    dims = list(_shape(shape))
    a = array_ops.broadcast_to(convert_to_tensor(alpha, dtype=inter), dims)
    b = array_ops.broadcast_to(convert_to_tensor(beta, dtype=inter), dims)
    gamma_a = cast(_stateless_gamma(dims, first, a, inter), dtype)
    gamma_b = cast(_stateless_gamma(dims, second, b, inter), dtype)
    out = storage(gamma_a / (gamma_a + gamma_b))
    tiny = torch.finfo(out.dtype).tiny          # TF's CPU kernels flush denormal results to zero
    return _wrap(torch.where(torch.abs(out) < tiny, torch.zeros((), dtype=out.dtype), out))
