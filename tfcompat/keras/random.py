"""`keras.random`: seeded random tensors (`seed` an int, a `SeedGenerator`, or None for the global stream).

Same distributions and dtypes as Keras 3; the drawn values differ from TF's (torch generators),
and are reproducible under `keras.utils.set_random_seed` / `tf.random.set_seed`.
"""
import functools
import inspect

import torch

from tfcompat.eager.function import current_recorder, host_call
from tfcompat.framework import dtypes
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.ops import random_ops
from tfcompat.util import nest


class SeedGenerator:
    """A stateful seed: each draw advances its `state` variable `[seed, counter]` (int64)."""

    def __init__(self, seed=None, name=None, **kwargs):
        from tfcompat.keras import variables as kvars
        from tfcompat.keras.engine import naming
        self.name = name or naming.unique_name("seed_generator")
        if seed is None:
            seed = random_ops.draw_seed()
        elif not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        self._initial_seed = seed
        with kvars.name_scope(self.name):
            self.state = kvars.Variable(torch.tensor([seed, 0], dtype=torch.int64), dtype="int64", trainable=False,
                                        name="seed_generator_state")

    def next(self):
        """The next integer seed of the stream."""
        seed, counter = (int(v) for v in storage(self.state).tolist())
        self.state.assign(torch.tensor([seed, counter + 1], dtype=torch.int64))
        return random_ops._mix(seed, counter)

    def get_config(self):
        return {"seed": self._initial_seed}


def _generator(seed):
    if seed is None:
        return random_ops.generator_for(None)
    if isinstance(seed, SeedGenerator):
        return random_ops.seeded_generator(seed.next())
    if isinstance(seed, int):
        return random_ops.seeded_generator(seed)
    raise ValueError(f"Argument `seed` must be either an integer or an instance of `SeedGenerator`. "
                     f"Received: seed={seed} (of type {type(seed)})")


def _traceable(fn):
    """A draw seeded by a `SeedGenerator` inside a tf.function trace becomes a host callback that reads and advances
    the generator's state on every replay (as TF's stateful random ops do); a plain trace would read the state once
    and every replay would check that it has not moved."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if current_recorder() is None:
            return fn(*args, **kwargs)
        seed = signature.bind(*args, **kwargs).arguments.get("seed")
        if not isinstance(seed, SeedGenerator):
            return fn(*args, **kwargs)
        flat = nest.flatten((args, kwargs))
        tensors = [storage(x) for x in flat if isinstance(x, Tensor)]

        def draw(inputs):
            seed.state._set_storage(inputs[0])
            values = iter(inputs[1:])
            call_args, call_kwargs = nest.pack_sequence_as(
                (args, kwargs), [_wrap(next(values)) if isinstance(x, Tensor) else x for x in flat])
            return [storage(fn(*call_args, **call_kwargs)), storage(seed.state)]

        out, state = host_call(draw, [storage(seed.state)] + tensors)
        seed.state._set_storage(state)
        return _wrap(out)
    return wrapper


def _float_dtype(dtype):
    from tfcompat.keras import backend
    return dtypes.as_dtype(dtype or backend.floatx()).torch_dtype


def _shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)


@_traceable
def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples of N(mean, stddev^2), float32 by default."""
    g = _generator(seed)
    out = torch.randn(_shape(shape), generator=g, device=g.device, dtype=torch.float32) * stddev + mean
    return _wrap(out.to(_float_dtype(dtype)))


@_traceable
def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples of U[minval, maxval), float32 by default."""
    g = _generator(seed)
    out = torch.rand(_shape(shape), generator=g, device=g.device, dtype=torch.float32) * (maxval - minval) + minval
    return _wrap(out.to(_float_dtype(dtype)))


@_traceable
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """N(mean, stddev^2) samples redrawn until within two standard deviations."""
    g = _generator(seed)
    out = torch.randn(_shape(shape), generator=g, device=g.device)
    bad = out.abs() > 2
    while bool(bad.any()):
        out[bad] = torch.randn(int(bad.sum()), generator=g, device=g.device)
        bad = out.abs() > 2
    return _wrap((out * stddev + mean).to(_float_dtype(dtype)))


@_traceable
def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers uniform in `[minval, maxval)`."""
    g = _generator(seed)
    out = torch.randint(int(minval), int(maxval), _shape(shape), generator=g, device=g.device)
    return _wrap(out.to(dtypes.as_dtype(dtype).torch_dtype))


@_traceable
def shuffle(x, axis=0, seed=None):
    """`x` with its slices along `axis` in a random order."""
    t = input_storage(x)
    g = _generator(seed)
    perm = torch.randperm(t.shape[axis], generator=g, device=g.device).to(t.device)
    return _wrap(torch.index_select(t, axis, perm))


@_traceable
def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zeroes a `rate` fraction of entries, scaling the rest by `1 / (1 - rate)`."""
    t = input_storage(inputs)
    shape = t.shape if noise_shape is None else tuple(t.shape[i] if d is None else d for i, d in enumerate(noise_shape))
    g = _generator(seed)
    keep = torch.rand(shape, generator=g, device=g.device).to(t.device) >= rate
    return _wrap(t * keep.to(t.dtype) / (1.0 - rate))


@_traceable
def categorical(logits, num_samples, dtype="int32", seed=None):
    """`num_samples` class indices per row of `logits` (batch, classes)."""
    lg = input_storage(logits).float()
    g = _generator(seed)
    probs = torch.softmax(lg, dim=-1).to(g.device)
    out = torch.multinomial(probs, num_samples, replacement=True, generator=g)
    return _wrap(out.to(lg.device).to(dtypes.as_dtype(dtype).torch_dtype))


@_traceable
def gamma(shape, alpha, dtype=None, seed=None):
    raise NotImplementedError("tfcompat: keras.random.gamma is not supported")
