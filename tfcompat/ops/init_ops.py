"""TF's own initializers (`init_ops_v2`): `tf.zeros_initializer`, `tf.ones_initializer`, `tf.constant_initializer`,
`tf.random_normal_initializer`, `tf.random_uniform_initializer`.

These are not Keras's initializers: `__call__(shape, dtype=...)` follows TF's dtype rules (float32 by default; the
constant's own dtype when `Constant` gets none), accepts only `partition_shape`/`partition_offset` keywords, and a
seeded random initializer draws TF's stateless Philox values for seed `[seed, 0]`, bit for bit (`_philox.py`), as TF's
`_RandomGenerator` does: the same values on every call, and TF's. Unseeded ones draw from the global random state
(tfcompat's stream, not TF's).
"""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device
from tfcompat.framework.convert import constant, to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, int_list, wrap
from tfcompat.framework.tensor import Tensor, device_name
from tfcompat.framework.variables import Variable
from tfcompat.ops import _philox, creation_ops, random_ops

_PARTITION_SHAPE = "partition_shape"
_PARTITION_OFFSET = "partition_offset"


class Initializer:
    """Base class of TF's initializers: `__call__(shape, dtype=None, **kwargs)`, `get_config`, `from_config`."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config.pop("dtype", None)
        return cls(**config)

    def __repr__(self):
        return f"<tensorflow.python.ops.init_ops_v2.{type(self).__name__} object at {id(self):#x}>"

    def _validate_kwargs(self, kwargs, support_partition=True):
        for kwarg in kwargs:
            if kwarg not in (_PARTITION_SHAPE, _PARTITION_OFFSET):
                raise TypeError(f"Keyword argument should be one of {[_PARTITION_SHAPE, _PARTITION_OFFSET]}. "
                                f"Received: {kwarg}")
            if not support_partition:
                raise ValueError(f"{type(self).__name__} initializer doesn't support partition-related arguments")


def _numeric_or_bool(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_numpy_compatible or dtype == dtypes.string:
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
    return dtype


def _float(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
    return dtype


@tf_export("zeros_initializer")
class Zeros(Initializer):
    """Generates tensors of zeros (float32 unless `dtype` says otherwise)."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        self._validate_kwargs(kwargs)
        dtype = _numeric_or_bool(dtype)
        return creation_ops.zeros(kwargs.get(_PARTITION_SHAPE, shape), dtype)


@tf_export("ones_initializer")
class Ones(Initializer):
    """Generates tensors of ones (float32 unless `dtype` says otherwise)."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        self._validate_kwargs(kwargs)
        dtype = _numeric_or_bool(dtype)
        return creation_ops.ones(kwargs.get(_PARTITION_SHAPE, shape), dtype)


@tf_export("constant_initializer")
class Constant(Initializer):
    """Generates tensors holding `value` (a scalar filled in, or a list/array of exactly the shape's size)."""

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected Python scalar, list or "
                            "tuple of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        self._validate_kwargs(kwargs, support_partition=self.support_partition)
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
        return constant(self.value, dtype=dtype, shape=shape)

    def get_config(self):
        return {"value": self.value}


class _RandomGenerator:
    """TF's choice of op: the stateless op with seed [seed, 0] when a seed is given (its Philox values, bit for bit:
    `_philox`), else the stateful op."""

    def __init__(self, seed=None):
        self.seed = [seed, 0] if seed is not None else None

    def _exact(self):
        """Whether the seed is an integer (TF's seed tensor); other seeds fail in the stateless op, as in TF."""
        if not isinstance(self.seed[0], (int, np.integer)) or isinstance(self.seed[0], bool):
            return False
        if not -2 ** 63 <= int(self.seed[0]) < 2 ** 63:
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        return True

    def random_normal(self, shape, mean, stddev, dtype):
        if self.seed and self._exact():
            dims = _dims(shape, "StatelessRandomNormalV2")
            mean, stddev = _param(mean, dtype, "mean"), _param(stddev, dtype, "stddev")
            rnd = _philox.normal(dims, (int(self.seed[0]), 0), dtype.torch_dtype)
            return wrap((rnd * stddev + mean).to(current_device()))
        if self.seed:
            return random_ops.stateless_normal(shape, seed=self.seed, mean=mean, stddev=stddev, dtype=dtype)
        return random_ops.normal(shape, mean=mean, stddev=stddev, dtype=dtype)

    def random_uniform(self, shape, minval, maxval, dtype):
        if self.seed and self._exact():
            if dtype.is_integer:
                dims = _dims(shape, "StatelessRandomUniformIntV2")
                lo, hi = _param(minval, dtype, "min"), _param(maxval, dtype, "max")
                if int(lo) >= int(hi):
                    raise errors.kernel_error(errors.InvalidArgumentError,
                                              f"Need minval < maxval, got {int(lo)} >= {int(hi)}",
                                              "StatelessRandomUniformIntV2", device_name(torch.device("cpu")))
                rnd = _philox.uniform_int(dims, (int(self.seed[0]), 0), int(lo), int(hi), dtype.torch_dtype)
                return wrap(rnd.to(current_device()))
            dims = _dims(shape, "StatelessRandomUniformV2")
            lo, hi = _param(minval, dtype, "min"), _param(maxval, dtype, "max")
            rnd = _philox.uniform(dims, (int(self.seed[0]), 0), dtype.torch_dtype)
            return wrap((rnd * (hi - lo) + lo).to(current_device()))
        if self.seed:
            return random_ops.stateless_uniform(shape, seed=self.seed, minval=minval, maxval=maxval, dtype=dtype)
        return random_ops.uniform(shape, minval=minval, maxval=maxval, dtype=dtype)


def _dims(shape, op):
    dims = int_list(shape, op)
    for d in dims:
        if d < 0:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Dimension {d} must be >= 0", op,
                                      device_name(torch.device("cpu")))
    return dims


def _param(value, dtype, arg):
    """A distribution parameter as a 0-d tensor of `dtype` (TF's strict conversion: ValueError for a tensor of
    another dtype, TypeError for a Python value that does not fit)."""
    if isinstance(value, (Tensor, Variable)):
        if value.dtype != dtype:
            raise ValueError(f"{arg}: Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        return input_storage(value).cpu()
    return to_storage(value, dtype).cpu()


@tf_export("random_uniform_initializer")
class RandomUniform(Initializer):
    """Uniform values in [minval, maxval) (float or integer dtypes)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval = minval
        self.maxval = maxval
        self.seed = seed
        self._random_generator = _RandomGenerator(seed)

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        self._validate_kwargs(kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
        shape = kwargs.get(_PARTITION_SHAPE, shape)
        return self._random_generator.random_uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


@tf_export("random_normal_initializer")
class RandomNormal(Initializer):
    """Normal values with `mean` and `stddev` (floating dtypes only)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self._random_generator = _RandomGenerator(seed)

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        self._validate_kwargs(kwargs)
        dtype = _float(dtype)
        shape = kwargs.get(_PARTITION_SHAPE, shape)
        return self._random_generator.random_normal(shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}
