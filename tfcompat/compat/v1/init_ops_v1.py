"""TF1's random initializers (`init_ops`, not TF2's `init_ops_v2`): `tf.compat.v1.random_normal_initializer`,
`random_uniform_initializer`, `truncated_normal_initializer`, `variance_scaling_initializer`,
`glorot_uniform_initializer`, `glorot_normal_initializer`.

They differ from TF2's: a `dtype` fixed at construction (deprecated, logged as TF's `@deprecated_args` does), TF1's
defaults (stddev 1.0, minval 0.0), `__call__(shape, dtype=None, partition_info=None)`, and a seed that is the stateful
op's seed (`tf.random.normal(..., seed=seed)`), so draws follow tfcompat's seeded streams, not TF's Philox values.
"""
import math

from tfcompat.framework import dtypes
from tfcompat.ops import deprecation, random_ops

_MODULE = "tensorflow.python.ops.init_ops"
_DTYPE_NOTE = "Call initializer instance with the dtype argument instead of passing it to the constructor"


def _float(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
    return dtype


def _warn_dtype(cls, dtype):
    if dtype is not _DEFAULT:
        deprecation.warn_deprecated_arg(f"{cls}.__init__", _MODULE, "dtype", _DTYPE_NOTE)
    return dtypes.float32 if dtype is _DEFAULT else dtype


_DEFAULT = object()


class Initializer:
    """TF1's initializer base: `__call__(shape, dtype=None, partition_info=None)`, `get_config`, `from_config`."""

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{_MODULE}.{type(self).__name__} object at {id(self):#x}>"


class RandomUniform(Initializer):
    """Uniform values in [minval, maxval) (maxval defaults to 1 for floats and is required for integers)."""

    def __init__(self, minval=.0, maxval=None, seed=None, dtype=_DEFAULT):
        dtype = _warn_dtype("RandomUniform", dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.uniform(shape, self.minval, self.maxval, dtype or self.dtype, seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed, "dtype": self.dtype.name}


class RandomNormal(Initializer):
    """Normal values (TF1's default stddev is 1.0)."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_DEFAULT):
        dtype = _warn_dtype("RandomNormal", dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = _float(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.normal(shape, self.mean, self.stddev, dtype or self.dtype, seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class TruncatedNormal(RandomNormal):
    """Normal values redrawn beyond two standard deviations."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_DEFAULT):
        dtype = _warn_dtype("TruncatedNormal", dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = _float(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(shape, self.mean, self.stddev, dtype or self.dtype, seed=self.seed)


def _fans(shape):
    shape = [int(d) for d in shape]
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    field = math.prod(shape[:-2])
    return shape[-2] * field, shape[-1] * field


class VarianceScaling(Initializer):
    """Values scaled to the fans of the shape: truncated normal (stddev sqrt(scale / n) / 0.8796...), untruncated
    normal or uniform (limit sqrt(3 scale / n))."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, dtype=_DEFAULT):
        dtype = _warn_dtype("VarianceScaling", dtype)
        if distribution == "normal" and ("VarianceScaling", "distribution") not in deprecation._WARNED:
            deprecation._WARNED.add(("VarianceScaling", "distribution"))
            deprecation._log(f"calling VarianceScaling.__init__ (from {_MODULE}) with distribution=normal is",
                             "`normal` is a deprecated alias for `truncated_normal`", None)
        if scale <= 0.:
            raise ValueError(f"Argument `scale` must be a positive float. Received: {scale}")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError(f"Argument `mode` should be one of ('fan_in', 'fan_out', 'fan_avg'). Received: {mode}")
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError("Argument `distribution` should be one of ('normal', uniform', 'truncated_normal', "
                             f"'untruncated_normal'). Received: {distribution}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.dtype = _float(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype or self.dtype
        fan_in, fan_out = _fans(partition_info.full_shape if partition_info is not None else shape)
        n = {"fan_in": fan_in, "fan_out": fan_out}.get(self.mode, (fan_in + fan_out) / 2.)
        scale = self.scale / max(1., n)
        if self.distribution in ("normal", "truncated_normal"):
            return random_ops.truncated_normal(shape, 0.0, math.sqrt(scale) / .87962566103423978, dtype,
                                               seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution, "seed": self.seed,
                "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=_DEFAULT):
        _warn_dtype("GlorotUniform", dtype)              # then ignored, as TF1's (its dtype stays float32)
        super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """Truncated normal with stddev sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=_DEFAULT):
        _warn_dtype("GlorotNormal", dtype)               # then ignored, as TF1's (its dtype stays float32)
        super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal", seed=seed)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal


def he_normal(seed=None):
    """TF1's He normal initializer: truncated normal, scale 2 over fan_in."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
    """TF1's He uniform initializer: uniform, scale 2 over fan_in."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


def lecun_normal(seed=None):
    """TF1's LeCun normal initializer: truncated normal, scale 1 over fan_in."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
    """TF1's LeCun uniform initializer: uniform, scale 1 over fan_in."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)
