"""`keras.optimizers.Lamb` and `Adafactor` (Keras 3 formulas, computed per variable in Keras's operation order).

Their slot variables are named and ordered as Keras saves them: Lamb's `<var>_momentum`, `<var>_velocity` per
variable; Adafactor's per variable its factored second moments `r` (shape `var.shape[:-1]`) and `c`
(`var.shape[:-2] + var.shape[-1:]`), both named as the variable itself, then `<var>_velocity`; a variable of rank
under 2 gets two int32 scalar placeholders instead of `r`/`c`, as Keras does.
"""
import torch

from tfcompat.framework.tensor import storage
from tfcompat.keras.optimizers.base import Optimizer, _children_added, base_kwargs
from tfcompat.keras.variables import Variable, name_scope


def _scalar(value, like):
    """A learning rate or step (a float32 NumPy scalar eagerly, a 0-d tensor in a traced step) as a 0-d tensor
    of `like`'s dtype: Keras casts both to the variable's dtype."""
    if isinstance(value, torch.Tensor):
        return value.to(device=like.device, dtype=like.dtype)
    return torch.full((), float(value), dtype=like.dtype, device=like.device)


def _rms(t):
    return torch.sqrt(torch.mean(torch.square(t)))


class Lamb(Optimizer):
    """Keras 3's LAMB: Adam's bias-corrected step `m_hat / (sqrt(v_hat) + epsilon)` scaled by the trust ratio
    `||w|| / ||step||` (1 when either norm is 0)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None, name=None,
                 **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _build_slots(self, variables):
        self._momentums, self._velocities = self.add_optimizer_variables(variables, ["momentum", "velocity"])

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        ms = self._slot_storages("momentum", indices)
        vs = self._slot_storages("velocity", indices)
        new = []
        for w, g, m, v in zip(params, grads, ms, vs):
            rate, t = _scalar(lr, w), _scalar(step, w)
            b1_power = torch.pow(torch.full_like(t, self.beta_1), t)
            b2_power = torch.pow(torch.full_like(t, self.beta_2), t)
            m.add_((g - m) * (1 - self.beta_1))
            v.add_((torch.square(g) - v) * (1 - self.beta_2))
            m_hat = m / (1.0 - b1_power)
            v_sqrt = torch.sqrt(v / (1.0 - b2_power)) + self.epsilon
            update = m_hat / v_sqrt
            w_norm = torch.sqrt(torch.sum(torch.square(w)))
            u_norm = torch.sqrt(torch.sum(torch.square(update)))
            one = torch.ones((), dtype=w.dtype, device=w.device)
            ratio = torch.where(w_norm > 0, torch.where(u_norm > 0, w_norm / u_norm, one), one)
            new.append(w - ratio * rate * update)
        return new

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config


class Adafactor(Optimizer):
    """Keras 3's Adafactor: second moments factored over a variable's last two axes (row means `r`, column means
    `c`), a relative step size `max(epsilon_2, rms(w)) * min(lr, 1 / sqrt(t))`, updates clipped to RMS
    `clip_threshold`; with `relative_step` a float learning rate is first capped at `1 / sqrt(t)`."""

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0,
                 relative_step=True, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def _placeholder(self, name):
        """Keras's `backend.Variable(0, name=var.name, trainable=False)` for a variable it does not factor."""
        with name_scope(self.name):
            v = Variable(0, name=name, trainable=False)
        self._variables.append(v)
        _children_added(self)
        return v

    def _build_slots(self, variables):
        rows, cols, velocities = [], [], []
        for var in variables:
            shape = tuple(storage(var).shape)
            if len(shape) < 2:
                rows.append(self._placeholder(var.name))
                cols.append(self._placeholder(var.name))
            else:
                rows.append(self.add_variable(shape[:-1], dtype=var.dtype, name=var.name))
                cols.append(self.add_variable(shape[:-2] + shape[-1:], dtype=var.dtype, name=var.name))
                for slot in (rows[-1], cols[-1]):
                    self._owned[id(slot)] = storage(slot)
            velocities.append(self.add_variable_from_reference(var, name="velocity"))
        self._r, self._c, self._v = rows, cols, velocities
        self._slots.update(adafactor_r=rows, adafactor_c=cols, velocity=velocities)

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        vs = self._slot_storages("velocity", indices)
        new = []
        for i, w, g, v in zip(indices, params, grads, vs):
            rate, t = _scalar(lr, w), _scalar(step, w)
            inverse_sqrt = 1 / torch.sqrt(t)
            if self.relative_step and not callable(self._learning_rate):
                rate = torch.minimum(rate, inverse_sqrt)
            rho = torch.minimum(rate, inverse_sqrt)
            alpha = torch.maximum(torch.full_like(t, self.epsilon_2), _rms(w)) * rho
            regulated = torch.square(g) + self.epsilon_1
            beta_2_t = 1 - torch.pow(t, self.beta_2_decay)
            if w.ndim >= 2:
                [r] = self._slot_storages("adafactor_r", [i])
                [c] = self._slot_storages("adafactor_c", [i])
                r.copy_(beta_2_t * r + (1 - beta_2_t) * torch.mean(regulated, dim=-1))
                c.copy_(beta_2_t * c + (1 - beta_2_t) * torch.mean(regulated, dim=-2))
                v.copy_(torch.unsqueeze(r / torch.mean(r, dim=-1, keepdim=True), -1) * torch.unsqueeze(c, -2))
            else:
                v.copy_(beta_2_t * v + (1 - beta_2_t) * regulated)
            u = g / torch.sqrt(v)
            u_hat = u / torch.maximum(torch.ones_like(t), _rms(u) / self.clip_threshold)
            new.append(w - alpha * u_hat)
        return new

    def get_config(self):
        config = super().get_config()
        config.update({"beta_2_decay": self.beta_2_decay, "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                       "clip_threshold": self.clip_threshold, "relative_step": self.relative_step})
        return config

