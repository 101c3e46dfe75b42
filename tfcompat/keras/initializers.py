"""`tf.keras.initializers` (Keras 3): `init(shape, dtype=None)` returns a tfcompat Tensor (floatx by default).

Seeds, as Keras 3: an initializer seeded with an int, or unseeded, returns the same values on every call.
An unseeded initializer draws its seed from Python's `random` when constructed (Keras's `make_default_seed`), and
every draw is `keras.random`'s (TF's stateless Philox ops on `[seed mod (2**31 - 2), 0]`), so after
`keras.utils.set_random_seed(n)` a model's initial weights are TF's.
"""
import math

import torch

from tfcompat.framework import dtypes
from tfcompat.framework.context import current_device
from tfcompat.framework.tensor import storage, wrap
from tfcompat.keras import random as krandom


def _dtype(dtype):
    if dtype is None:
        try:
            from tfcompat.keras.backend import floatx
        except ImportError:
            return dtypes.float32
        return dtypes.as_dtype(floatx())
    return dtypes.as_dtype(dtype)


def _shape(shape):
    if hasattr(shape, "as_list"):
        shape = shape.as_list()
    return tuple(int(d) for d in shape)


class Initializer:
    """Base class: subclasses implement `__call__(shape, dtype=None)` and `get_config()`."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(
            f"Initializer {self.__class__.__name__} does not support calling without `shape` and `dtype`.")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return self.__class__.from_config(self.get_config())


# -- constant initializers -------------------------------------------------------------------------------

class Constant(Initializer):
    """`value` (a scalar, or an array broadcast to the shape: Keras's `cast(value, dtype) * ones(shape)`)."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        dt = _dtype(dtype)
        if type(self.value) in (int, float, bool):
            return wrap(torch.full(_shape(shape), self.value, dtype=dt.torch_dtype, device=current_device()))
        from tfcompat.ops.math_ops import cast
        return cast(self.value, dt) * Ones()(shape, dt)     # TF's errors: a string value, unbroadcastable shapes

    def get_config(self):
        from tfcompat.keras.saving_utils import serialize_keras_object
        return {"value": serialize_keras_object(self.value)}

    @classmethod
    def from_config(cls, config):
        from tfcompat.keras.saving_utils import deserialize_keras_object
        return cls(deserialize_keras_object(config["value"]))


class Zeros(Initializer):
    """All zeros."""

    def __call__(self, shape, dtype=None):
        return wrap(torch.zeros(_shape(shape), dtype=_dtype(dtype).torch_dtype, device=current_device()))


class Ones(Initializer):
    """All ones."""

    def __call__(self, shape, dtype=None):
        return wrap(torch.ones(_shape(shape), dtype=_dtype(dtype).torch_dtype, device=current_device()))


class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only); its config is empty, as Keras 3's (gain is not kept)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = _shape(shape)
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        dt = _dtype(dtype).torch_dtype
        return wrap(self.gain * torch.eye(*shape, dtype=dt, device=current_device()))


# -- random initializers ---------------------------------------------------------------------------------

class RandomInitializer(Initializer):
    """Holds the seed: an int as given, or one drawn from the global stream when None."""

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = krandom.make_default_seed()
        elif isinstance(seed, dict):
            from tfcompat.keras.saving_utils import deserialize_keras_object
            seed = deserialize_keras_object(seed)
        elif not isinstance(seed, (int, krandom.SeedGenerator)):
            raise ValueError("`seed` argument should be an instance of `keras.random.SeedGenerator()` or an "
                             f"integer. Received: seed={seed}")
        self.seed = seed

    def get_config(self):
        return {"seed": self._init_seed if isinstance(self._init_seed, (int, type(None))) else None}


class RandomNormal(RandomInitializer):
    """Samples from N(mean, stddev**2)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return krandom.normal(_shape(shape), mean=self.mean, stddev=self.stddev, dtype=_dtype(dtype), seed=self.seed)

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class TruncatedNormal(RandomInitializer):
    """Normal samples redrawn when more than two stddevs from the mean."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean = mean
        self.stddev = stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return krandom.truncated_normal(_shape(shape), mean=self.mean, stddev=self.stddev, dtype=_dtype(dtype),
                                        seed=self.seed)

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class RandomUniform(RandomInitializer):
    """Uniform samples in [minval, maxval)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval = minval
        self.maxval = maxval
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return krandom.uniform(_shape(shape), minval=self.minval, maxval=self.maxval, dtype=_dtype(dtype),
                               seed=self.seed)

    def get_config(self):
        return {**super().get_config(), "minval": self.minval, "maxval": self.maxval}


def compute_fans(shape, input_axes=None, output_axes=None):
    """(fan_in, fan_out) as Keras 3: dense (in, out); conv (*kernel, in, out) times the receptive field."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return int(math.prod(shape[a] for a in input_axes)), int(math.prod(shape[a] for a in output_axes))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive = math.prod(shape[:-2])
    return int(shape[-2] * receptive), int(shape[-1] * receptive)


class VarianceScaling(RandomInitializer):
    """Samples with variance `scale / n` (n from `mode`); truncated normal stddev corrected by 0.8796..."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        allowed_modes = {"fan_in", "fan_out", "fan_avg"}
        if mode not in allowed_modes:
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of {allowed_modes}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        allowed = {"uniform", "truncated_normal", "untruncated_normal"}
        if distribution not in allowed:
            raise ValueError(f"Invalid `distribution` argument: {distribution}.Please use one of {allowed}")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.input_axes = input_axes
        self.output_axes = output_axes
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape = _shape(shape)
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        dt = _dtype(dtype)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            return krandom.truncated_normal(shape, mean=0.0, stddev=stddev, dtype=dt, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return krandom.normal(shape, mean=0.0, stddev=math.sqrt(scale), dtype=dt, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return krandom.uniform(shape, minval=-limit, maxval=limit, dtype=dt, seed=self.seed)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "input_axes": self.input_axes, "output_axes": self.output_axes}


def _preset(name, scale, mode, distribution, doc):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale=scale, mode=mode, distribution=distribution, seed=seed,
                                 input_axes=input_axes, output_axes=output_axes)

    def get_config(self):
        return {"seed": RandomInitializer.get_config(self)["seed"], "input_axes": self.input_axes,
                "output_axes": self.output_axes}

    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config, "__doc__": doc,
                                           "__module__": __name__})


GlorotUniform = _preset("GlorotUniform", 1.0, "fan_avg", "uniform",
                        "Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out)) (Keras' default kernel "
                        "initializer).")
GlorotNormal = _preset("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
                       "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)).")
HeUniform = _preset("HeUniform", 2.0, "fan_in", "uniform", "Uniform in [-limit, limit], limit = sqrt(6 / fan_in).")
HeNormal = _preset("HeNormal", 2.0, "fan_in", "truncated_normal", "Truncated normal with stddev sqrt(2 / fan_in).")
LecunUniform = _preset("LecunUniform", 1.0, "fan_in", "uniform",
                       "Uniform in [-limit, limit], limit = sqrt(3 / fan_in).")
LecunNormal = _preset("LecunNormal", 1.0, "fan_in", "truncated_normal",
                      "Truncated normal with stddev sqrt(1 / fan_in).")


class Orthogonal(RandomInitializer):
    """`gain` times an orthogonal matrix (QR of a normal matrix), reshaped to `shape` (rank >= 2)."""

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        shape = _shape(shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. Received: "
                             f"shape={shape} of rank {len(shape)}.")
        rows = math.prod(shape[:-1])
        cols = shape[-1]
        a = storage(krandom.normal((max(rows, cols), min(rows, cols)), dtype=_dtype(dtype), seed=self.seed))
        q, r = torch.linalg.qr(a.float() if a.dtype in (torch.float16, torch.bfloat16) else a)
        q = q * torch.sign(torch.diagonal(r))
        if rows < cols:
            q = q.T
        return wrap((self.gain * q.reshape(shape)).to(a.dtype).contiguous())

    def get_config(self):
        return {**super().get_config(), "gain": self.gain}


OrthogonalInitializer = Orthogonal
IdentityInitializer = Identity

# lowercase aliases, as Keras exports them
constant, zeros, ones, identity = Constant, Zeros, Ones, Identity
random_normal, random_uniform, truncated_normal, variance_scaling = (RandomNormal, RandomUniform, TruncatedNormal,
                                                                     VarianceScaling)
glorot_uniform, glorot_normal, he_uniform, he_normal = GlorotUniform, GlorotNormal, HeUniform, HeNormal
lecun_uniform, lecun_normal, orthogonal = LecunUniform, LecunNormal, Orthogonal

_CLASSES = (Initializer, Constant, Zeros, Ones, Identity, RandomNormal, RandomUniform, TruncatedNormal,
            VarianceScaling, GlorotUniform, GlorotNormal, HeUniform, HeNormal, LecunUniform, LecunNormal, Orthogonal)


def _snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


_BY_NAME = {c.__name__: c for c in _CLASSES}
_BY_NAME.update({_snake(c.__name__): c for c in _CLASSES})
_BY_NAME.update({"IdentityInitializer": Identity, "OrthogonalInitializer": Orthogonal, "normal": RandomNormal,
                 "uniform": RandomUniform, "one": Ones, "zero": Zeros})


def serialize(initializer):
    """Keras 3's config dict: {'module', 'class_name', 'config', 'registered_name'}."""
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """An initializer from a `serialize` dict (or a name)."""
    if isinstance(config, str):
        config = {"class_name": config, "config": {}}
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _BY_NAME.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret initializer identifier: {name}")
    return cls.from_config(config.get("config") or {})


def get(identifier):
    """An initializer from a name, a config dict, a class, a callable, or a tensor/array of the values."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret initializer identifier: {identifier}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    if hasattr(identifier, "shape") and hasattr(identifier, "dtype"):
        return _from_value(identifier)
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def _from_value(value):
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.ops.math_ops import cast
    tensor = convert_to_tensor(value)

    def initialize_fn(shape, dtype=None):
        if _shape(shape) != tuple(tensor.shape.as_list()):
            raise ValueError(f"Expected `shape` to be {value.shape} for direct tensor as initializer. "
                             f"Received shape={shape}")
        return cast(tensor, _dtype(dtype))
    return initialize_fn


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("keras.initializers", attr)
