"""`tf.keras.constraints` (Keras 3): projections applied to variables after each optimizer step."""
import torch

from tfcompat.framework.op_def import input_storage, wrap

EPSILON = 1e-7


def _norms(w, axis):
    return torch.sqrt(torch.sum(torch.square(w), axis, keepdim=True))


class Constraint:
    """Base class: `constraint(w)` returns the projected weights."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Rescales weights whose norm along `axis` exceeds `max_value`."""

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        t = input_storage(w)
        norms = _norms(t, self.axis)
        desired = torch.clamp(norms, 0, self.max_value)
        return wrap(t * (desired / (EPSILON + norms)))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Zeroes the negative weights."""

    def __call__(self, w):
        t = input_storage(w)
        return wrap(t * (t >= 0).to(t.dtype))


class UnitNorm(Constraint):
    """Rescales weights to unit norm along `axis`."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        t = input_storage(w)
        return wrap(t / (EPSILON + _norms(t, self.axis)))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves weight norms along `axis` into `[min_value, max_value]` at `rate`."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        t = input_storage(w)
        norms = _norms(t, self.axis)
        desired = self.rate * torch.clamp(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        return wrap(t * (desired / (EPSILON + norms)))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm
ALL_OBJECTS_DICT = {"Constraint": Constraint, "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm,
                    "MinMaxNorm": MinMaxNorm, "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
                    "min_max_norm": MinMaxNorm}


def serialize(constraint):
    return {"module": "keras.constraints", "class_name": type(constraint).__name__,
            "config": constraint.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    name = config if isinstance(config, str) else config["class_name"]
    cls = (custom_objects or {}).get(name) or ALL_OBJECTS_DICT.get(name)
    if cls is None:
        raise ValueError(f"Could not interpret constraint identifier: {config}")
    return cls() if isinstance(config, str) else cls.from_config(config["config"])


def get(identifier):
    """A constraint from a name (`"non_neg"`), a config dict or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")
