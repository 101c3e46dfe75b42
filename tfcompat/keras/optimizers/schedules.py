"""`keras.optimizers.schedules`: learning rate schedules (Keras 3 formulas, computed in float32).

Each built-in formula (`_value`) is written once over two kinds of step: a Python number, computed in float32
NumPy scalars (optimizers read an eager step's rate without touching the device), or a float32 torch tensor
(a tf.function step reads the `iterations` variable, so its replay follows the count; arrays of steps give
arrays of rates, as Keras). `__call__` returns a float32 tensor as Keras.
"""
import math

import numpy as np
import torch

f32 = np.float32


def _floor(x):
    return torch.floor(x) if isinstance(x, torch.Tensor) else np.floor(x)


def _ceil(x):
    return torch.ceil(x) if isinstance(x, torch.Tensor) else np.ceil(x)


def _cos(x):
    return torch.cos(x) if isinstance(x, torch.Tensor) else np.cos(x)


def _log(x):
    return torch.log(x) if isinstance(x, torch.Tensor) else np.log(x)


def _minimum(x, bound):
    return torch.clamp(x, max=float(bound)) if isinstance(x, torch.Tensor) else min(x, bound)


def _where(condition, x, y):
    """`x` where `condition` holds, else `y` (a Python branch for NumPy scalars)."""
    if isinstance(condition, torch.Tensor):
        return torch.where(condition, x, y)
    return x if condition else y


def _f32(x):
    return x if isinstance(x, torch.Tensor) else f32(x)


def _f32_like(x, value):
    return torch.full_like(x, float(value)) if isinstance(x, torch.Tensor) else f32(value)


def _divide(numerator, denominator):
    """`numerator / denominator` rounded once (torch divides a number by a tensor through a reciprocal)."""
    if isinstance(denominator, torch.Tensor) and not isinstance(numerator, torch.Tensor):
        numerator = torch.full_like(denominator, float(numerator))
    return numerator / denominator


def _power(base, exponent):
    """`base ** exponent` in float32 (a NumPy scalar base with a tensor exponent gives a tensor)."""
    if not isinstance(base, torch.Tensor) and not isinstance(exponent, torch.Tensor):
        return base ** exponent
    like = base if isinstance(base, torch.Tensor) else exponent     # tensor ** tensor: torch's scalar exponents
    return torch.pow(_f32_like(like, base) if not isinstance(base, torch.Tensor) else base,   # take shortcuts
                     _f32_like(like, exponent) if not isinstance(exponent, torch.Tensor) else exponent)


def _step_value(step):
    """A Python step as itself; a tensor, variable or array of steps as a float32 torch tensor."""
    if isinstance(step, (int, float, np.number)):
        return step
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.framework.tensor import storage
    t = storage(step) if hasattr(step, "_read") else storage(convert_to_tensor(step))
    return t.to(torch.float32)


class LearningRateSchedule:
    """Base class: `schedule(step)` gives the learning rate of optimizer step `step`."""

    def __call__(self, step):
        value = getattr(self, "_value", None)
        if value is None:
            raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                      "`__call__(self, step)`.")
        rate = value(_step_value(step))
        if isinstance(rate, torch.Tensor):
            from tfcompat.framework.tensor import wrap
            return wrap(rate.to(torch.float32))
        from tfcompat.framework.convert import convert_to_tensor
        return convert_to_tensor(np.asarray(rate, dtype=np.float32))

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override `get_config()` "
                                  "in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _check_steps(arg, value):
    if value <= 0:
        raise ValueError(f"Argument `{arg}` must be > 0. Received: {arg}={value}")


class _RateDecay(LearningRateSchedule):
    """Schedules of `initial_learning_rate`, `decay_steps`, `decay_rate`, `staircase` (the two below)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name=None):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        _check_steps("decay_steps", decay_steps)

    def _progress(self, step):
        """`step / decay_steps` in float32, floored when `staircase`."""
        p = _f32(step) / f32(self.decay_steps)
        return _floor(p) if self.staircase else p

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    """`initial_learning_rate * decay_rate ^ (step / decay_steps)` (floored exponent when `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def _value(self, step):
        return f32(self.initial_learning_rate) * _power(f32(self.decay_rate), self._progress(step))


class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[i]` for `boundaries[i-1] < step <= boundaries[i]`."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. Received: "
                f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def _value(self, step):
        if isinstance(step, torch.Tensor):
            rate = torch.full_like(step, float(f32(self.values[-1])))
            for b, v in zip(reversed(self.boundaries), reversed(self.values[:-1])):
                rate = torch.where(step <= b, torch.full_like(step, float(f32(v))), rate)
            return rate
        for b, v in zip(self.boundaries, self.values):
            if step <= b:
                return f32(v)
        return f32(self.values[-1])

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """`(initial - end) * (1 - step / decay_steps) ^ power + end`, optionally cycling."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name="PolynomialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name
        _check_steps("decay_steps", decay_steps)

    def _value(self, step):
        initial, end = f32(self.initial_learning_rate), f32(self.end_learning_rate)
        step = _f32(step)
        decay_steps = f32(self.decay_steps)
        if self.cycle:
            multiplier = _where(step == 0, _f32_like(step, 1.0), _ceil(step / decay_steps))
            decay_steps = decay_steps * multiplier
        else:
            step = _minimum(step, decay_steps)
        p = step / decay_steps
        return (initial - end) * _power(f32(1) - p, f32(self.power)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(_RateDecay):
    """`initial_learning_rate / (1 + decay_rate * step / decay_steps)` (floored when `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="InverseTimeDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def _value(self, step):
        return _divide(f32(self.initial_learning_rate), f32(1) + f32(self.decay_rate) * self._progress(step))


def _cosine(fraction, alpha):
    decayed = f32(0.5) * (f32(1.0) + _cos(f32(math.pi) * fraction))
    return f32(1 - alpha) * decayed + f32(alpha)


class CosineDecay(LearningRateSchedule):
    """Cosine decay to `alpha * rate` over `decay_steps`, after an optional linear warmup to `warmup_target`."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target
        _check_steps("decay_steps", decay_steps)

    def _value(self, step):
        initial = f32(self.initial_learning_rate)
        decay_steps = f32(self.decay_steps)
        step = _f32(step)
        if self.warmup_target is None:
            return initial * _cosine(_minimum(step, decay_steps) / decay_steps, self.alpha)
        target, warmup = f32(self.warmup_target), f32(self.warmup_steps)
        step = _minimum(step, decay_steps + warmup)
        if not isinstance(step, torch.Tensor) and step < warmup:     # the warmup alone divides by warmup_steps
            return (target - initial) * (step / warmup) + initial
        decayed = target * _cosine((step - warmup) / decay_steps, self.alpha)
        if not isinstance(step, torch.Tensor) or not warmup:
            return decayed
        return torch.where(step < warmup, (target - initial) * (step / warmup) + initial, decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """SGDR: cosine decay restarted after `first_decay_steps * t_mul^i` steps, scaled by `m_mul^i`."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                 name="SGDRDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name
        _check_steps("first_decay_steps", first_decay_steps)

    def _value(self, step):
        t_mul, m_mul, alpha = f32(self._t_mul), f32(self._m_mul), f32(self.alpha)
        fraction = _f32(step) / f32(self.first_decay_steps)
        if t_mul == 1.0:
            i_restart = _floor(fraction)
            fraction = fraction - i_restart
        else:
            i_restart = _floor(_log(f32(1.0) - fraction * (f32(1.0) - t_mul)) / np.log(t_mul))
            sum_r = (f32(1.0) - _power(t_mul, i_restart)) / (f32(1.0) - t_mul)
            fraction = (fraction - sum_r) / _power(t_mul, i_restart)
        cosine = f32(0.5) * _power(m_mul, i_restart) * (f32(1.0) + _cos(f32(math.pi) * fraction))
        return f32(self.initial_learning_rate) * ((f32(1) - alpha) * cosine + alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_ALL = {c.__name__: c for c in (LearningRateSchedule, ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
                                InverseTimeDecay, CosineDecay, CosineDecayRestarts)}


def serialize(learning_rate_schedule):
    """Keras's serialized form: `{"module", "class_name", "config", "registered_name"}`."""
    return {"module": "keras.optimizers.schedules", "class_name": type(learning_rate_schedule).__name__,
            "config": learning_rate_schedule.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    """The schedule a `serialize` dict describes."""
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _ALL.get(name)
    if cls is None:
        raise ValueError(f"Could not locate class '{name}'. Make sure custom classes are decorated with "
                         "`@keras.saving.register_keras_serializable()`. "
                         f"Full object config: {config}")
    return cls.from_config(config["config"])
