"""`tf.random.Generator` (and `Algorithm`, `create_rng_state`, the global generator): a Philox state held in a
variable, advanced as TF's counter; its draws are TF's values for its state (see `random_ops`' docstring), through
the draw functions of `random_ops`."""
import math
import os

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.ops import _philox
from tfcompat.ops.random_ops import (_FLOATS, _MASK64, _STATELESS_INT, _Seeds, _UNIFORM_TYPES, _check_dtype,
                                     _full_int, _mix, _new_generator, _normal, _param, _scalar, _seed_values, _shape,
                                     _tracing, _truncated_normal, _uniform, Algorithm, _alg, generator_for)


# -- tf.random.Generator -------------------------------------------------------------------------------

@tf_export("random.create_rng_state", "random.experimental.create_rng_state")
def create_rng_state(seed, alg):
    """The initial state ([3] int64) of a `tf.random.Generator` seeded with `seed`."""
    s = int(seed) & _MASK64
    s = s - (1 << 64) if s >= 1 << 63 else s
    _alg(alg)
    return np.array([s, 0, 0], dtype=np.int64)


_replica_draw = []      # registered by tfcompat.distribute: a draw of a Generator made under a strategy's scope


@tf_export("random.Generator", "random.experimental.Generator",
           partial="normal/uniform/truncated_normal/uniform_full_int/make_seeds/split are TF's Philox values; "
                   "binomial and draws inside tf.function or a distribution strategy are reproducible from the "
                   "state but not TF's values; alg THREEFRY is not supported")
class Generator:
    """A stateful RNG whose state is a `tf.Variable` (int64 [3]); each draw advances it.

    Its normal, uniform, truncated normal and full-range int draws are TF's Philox values for the state (key
    state[2], counter state[0:2]); binomial, and draws inside a tf.function trace or a distribution strategy, use a
    torch generator keyed by the state (reproducible, not TF's values). A checkpoint dependency as in TF: `tf.train.Checkpoint(gen=g)` saves
    and restores the state (as `gen/_state_var`).
    """

    def __init__(self, copy_from=None, state=None, alg=None):
        from tfcompat.framework.variables import Variable
        if copy_from is not None:
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None:
            raise ValueError("Must provide either `copy_from` or `state` to create a generator.")
        self._alg = _alg(alg if alg is not None else Algorithm.PHILOX)
        if self._alg is Algorithm.THREEFRY:
            raise NotImplementedError("tf.random.Generator(alg=THREEFRY) is not supported by tfcompat")
        value = state.numpy() if hasattr(state, "numpy") else np.asarray(state, dtype=np.int64)
        self._state_var = Variable(value.astype(np.int64), trainable=False, name="StateVar")

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=create_rng_state(seed, alg or Algorithm.PHILOX), alg=alg or Algorithm.PHILOX)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls.from_seed(int.from_bytes(os.urandom(8), "little") >> 1, alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        k = np.asarray(key.numpy() if hasattr(key, "numpy") else key, dtype=np.int64).reshape(-1)
        c = np.asarray(counter.numpy() if hasattr(counter, "numpy") else counter, dtype=np.int64).reshape(-1)
        return cls(state=np.concatenate([c, k])[:3], alg=alg)

    @property
    def state(self):
        return self._state_var

    def _checkpoint_children(self):
        """The checkpoint dependencies TF gives a Generator: its state variable."""
        return [("_state_var", self._state_var)]

    @property
    def algorithm(self):
        return self._alg.value

    @property
    def key(self):
        return wrap(self._state_var._read()[-1:].clone())

    def reset(self, state):
        self._state_var.assign(state)

    def reset_from_seed(self, seed):
        self._state_var.assign(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        self._state_var.assign(Generator.from_key_counter(key, counter, self._alg).state.numpy())

    def skip(self, delta):
        self._advance(int(delta))

    def _advance(self, n):
        """Moves the 128-bit counter (state[0], state[1] as unsigned words) on by 256 per output, as TF's Philox."""
        s = self._state_var._read().tolist()
        low = s[0] % 2 ** 64 + 256 * n
        high = (s[1] % 2 ** 64 + low // 2 ** 64) % 2 ** 64
        s[0], s[1] = ((v + 2 ** 63) % 2 ** 64 - 2 ** 63 for v in (low, high))
        self._state_var.assign(np.array(s, dtype=np.int64))

    def _gen(self, outputs):
        """A torch generator for the current state; the state then advances past `outputs` values."""
        if _replica_draw and getattr(self._state_var, "_distribute_strategy", None) is not None:
            s, replica = _replica_draw[0](self, outputs)        # made under a tf.distribute strategy's scope
            s = s if replica is None else s + [replica]         # (its key hashed with the replica id, as TF)
        else:
            s = self._state_var._read().tolist()
            self._advance(outputs)
        return _new_generator(_mix(*s), current_device())

    def _gen_for(self, shape, op):
        return self._gen(math.prod(_shape(shape, op)))

    def _philox_state(self, n):
        """TF's Philox state for the next `n` outputs (key state[2], 128-bit counter state[0], state[1]), then
        advanced past them; None inside a trace or under a distribution strategy (torch draws, as before)."""
        if _tracing() or (_replica_draw and getattr(self._state_var, "_distribute_strategy", None) is not None):
            return None
        s0, s1, key = (v & _MASK64 for v in self._state_var._read().tolist())
        self._advance(n)
        return _philox.Stateful(key, s1, s0)

    def _float(self, kind, op, shape, scale, shift, dtype):
        """TF's stateful `op` (`kind` draws times `scale` plus `shift` in `dtype`), or None where torch draws."""
        if _tracing() or (_replica_draw and getattr(self._state_var, "_distribute_strategy", None) is not None):
            return None
        dtype = dtypes.as_dtype(dtype)
        cpu = torch.device("cpu")
        shift, scale = _param(shift, dtype, cpu), _param(scale, dtype, cpu)
        _check_dtype(dtype, _FLOATS)
        dims = _shape(shape, op)
        x = _philox.draw(kind, dims, self._philox_state(math.prod(dims)), dtype.torch_dtype)
        if not (isinstance(scale, (int, float)) and scale == 1):
            x = x * _scalar(scale, dtype)
        if not (isinstance(shift, (int, float)) and shift == 0):
            x = x + _scalar(shift, dtype)
        return wrap(x.to(current_device()))

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        out = self._float("normal", "StatefulStandardNormalV2", shape, stddev, mean, dtype)
        if out is not None:
            return out
        return _normal(shape, mean, stddev, dtype, self._gen_for(shape, "StatefulStandardNormalV2"))

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        out = self._float("truncated_normal", "StatefulTruncatedNormal", shape, stddev, mean, dtype)
        if out is not None:
            return out
        return _truncated_normal(shape, mean, stddev, dtype, self._gen_for(shape, "StatefulTruncatedNormal"))

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dt = dtypes.as_dtype(dtype)
        if dt.is_integer and maxval is None:
            return self.uniform_full_int(shape, dt)
        if dt.is_integer and self._philox_state(0) is not None:
            dt = _check_dtype(dt, _UNIFORM_TYPES)
            op = "StatefulUniformInt"
            lo, hi = (int(to_storage(v, dt)) if not isinstance(v, Tensor) else int(v) for v in (minval, maxval))
            dims = _shape(shape, op)
            if lo >= hi:
                raise errors.op_error(errors.InvalidArgumentError, f"Need minval < maxval, got {lo} >= {hi}", op)
            rnd = _philox.uniform_int(dims, self._philox_state(math.prod(dims)), lo, hi, dt.torch_dtype)
            return wrap(rnd.to(current_device()))
        if not dt.is_integer and dt in _FLOATS:
            lo = _param(0 if minval is None else minval, dt, torch.device("cpu"))
            hi = _param(1 if maxval is None else maxval, dt, torch.device("cpu"))
            lo_t, hi_t = _scalar(lo, dt), _scalar(hi, dt)
            out = self._float("uniform", "StatefulUniform", shape, hi_t - lo_t, lo_t, dt)
            if out is not None:
                return out
        return _uniform(shape, minval, maxval, dt, self._gen_for(shape, "StatefulUniform"), "StatefulUniform")

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None):
        dt = dtypes.as_dtype(dtype)
        dims = _shape(shape, "StatefulUniformFullInt")
        if dt in _STATELESS_INT:
            state = self._philox_state(math.prod(dims))
            if state is not None:
                return wrap(_philox.full_int(dims, state, dt.size * 8, dt.is_unsigned, dt.torch_dtype)
                            .to(current_device()))
        return _full_int(dims, dt, self._gen_for(shape, "StatefulUniformFullInt"))

    def make_seeds(self, count=1):
        """`count` stateless seeds as an int64 [2, count] tensor: TF's int64 keys over zeros."""
        if self._philox_state(0) is not None:
            keys = storage(self.uniform_full_int([int(count)], dtypes.int64))
            return wrap(torch.stack([keys, torch.zeros_like(keys)]))
        gen = self._gen(int(count))
        return wrap(_seed_values(gen, 2 * int(count), torch.int64).to(gen.device).reshape(2, int(count)))

    def split(self, count=1):
        """`count` new independent Generators; this one advances."""
        seeds = storage(self.make_seeds(count)).cpu()
        return [Generator(state=np.array([0, 0, int(seeds[0, i])], dtype=np.int64), alg=self._alg)
                for i in range(int(count))]

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        gen = self._gen_for(shape, "StatefulRandomBinomial")
        n = torch.as_tensor(to_storage(counts), dtype=torch.float32, device=gen.device)
        p = torch.as_tensor(to_storage(probs), dtype=torch.float32, device=gen.device)
        n, p = torch.broadcast_tensors(n, p)
        dims = _shape(shape, "StatefulRandomBinomial")
        out = torch.binomial(n.expand(dims).contiguous(), p.expand(dims).contiguous(), generator=gen)
        return wrap(out.to(dtypes.as_dtype(dtype).torch_dtype))


@tf_export("random.get_global_generator", "random.experimental.get_global_generator")
def get_global_generator():
    """The process-wide `tf.random.Generator` (seeded from the global seed stream when one is set)."""
    if _Seeds.generator is None:
        if _Seeds.global_seed is None:
            _Seeds.generator = Generator.from_non_deterministic_state()
        else:
            seed = int(torch.randint(0, 2 ** 62, (), generator=generator_for(None, "cpu")))
            _Seeds.generator = Generator.from_seed(seed)
    return _Seeds.generator


@tf_export("random.set_global_generator", "random.experimental.set_global_generator")
def set_global_generator(generator):
    """Replaces the global generator (as TF, objects holding the old one keep it)."""
    _Seeds.generator = generator
