"""`keras.optimizers.schedules`: learning rate schedules (Keras 3 formulas, computed in float32).

Built-in schedules compute from a Python step number in float32 NumPy scalars (`_value`), so
optimizers read the rate without touching the device; `__call__` returns a float32 tensor as Keras.
"""
import math

import numpy as np

f32 = np.float32


def _step_number(step):
    if isinstance(step, (int, float, np.number)):
        return step
    return np.asarray(step).item()


class LearningRateSchedule:
    """Base class: `schedule(step)` gives the learning rate of optimizer step `step`."""

    def __call__(self, step):
        value = getattr(self, "_value", None)
        if value is None:
            raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                      "`__call__(self, step)`.")
        from tfcompat.framework.convert import convert_to_tensor
        return convert_to_tensor(np.asarray(value(_step_number(step)), dtype=np.float32))

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
        p = f32(step) / f32(self.decay_steps)
        return np.floor(p) if self.staircase else p

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    """`initial_learning_rate * decay_rate ^ (step / decay_steps)` (floored exponent when `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def _value(self, step):
        return f32(self.initial_learning_rate) * f32(self.decay_rate) ** self._progress(step)


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
        step = f32(step)
        decay_steps = f32(self.decay_steps)
        if self.cycle:
            multiplier = f32(1.0) if step == 0 else np.ceil(step / decay_steps)
            decay_steps = decay_steps * multiplier
        else:
            step = min(step, decay_steps)
        p = step / decay_steps
        return (initial - end) * (f32(1) - p) ** f32(self.power) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(_RateDecay):
    """`initial_learning_rate / (1 + decay_rate * step / decay_steps)` (floored when `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="InverseTimeDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def _value(self, step):
        return f32(self.initial_learning_rate) / (f32(1) + f32(self.decay_rate) * self._progress(step))


def _cosine(fraction, alpha):
    decayed = f32(0.5) * (f32(1.0) + np.cos(f32(math.pi) * fraction))
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
        step = f32(step)
        if self.warmup_target is None:
            return initial * _cosine(min(step, decay_steps) / decay_steps, self.alpha)
        target, warmup = f32(self.warmup_target), f32(self.warmup_steps)
        step = min(step, decay_steps + warmup)
        if step < warmup:
            return (target - initial) * (step / warmup) + initial
        return target * _cosine((step - warmup) / decay_steps, self.alpha)

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
        fraction = f32(step) / f32(self.first_decay_steps)
        if t_mul == 1.0:
            i_restart = np.floor(fraction)
            fraction = fraction - i_restart
        else:
            i_restart = np.floor(np.log(f32(1.0) - fraction * (f32(1.0) - t_mul)) / np.log(t_mul))
            sum_r = (f32(1.0) - t_mul ** i_restart) / (f32(1.0) - t_mul)
            fraction = (fraction - sum_r) / t_mul ** i_restart
        cosine = f32(0.5) * m_mul ** i_restart * (f32(1.0) + np.cos(f32(math.pi) * fraction))
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
