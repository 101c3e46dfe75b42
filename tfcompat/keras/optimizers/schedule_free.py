"""`keras.optimizers.ScheduleFreeAdamW` (Keras 3.15): schedule-free AdamW, the weights an interpolation of an
Adam-stepped sequence and its running average."""
import torch

from tfcompat.keras.optimizers.base import Optimizer, base_kwargs, f32, sqrt


class ScheduleFreeAdamW(Optimizer):
    """Keras's ScheduleFreeAdamW: `z -= lr * g / (sqrt(v / (1 - b2^t)) + eps)` for the `momentum` slot `z` (it starts
    at the variable's value), then `x = (y - (1 - b1) * z) / b1` from the variable `y`, `x = (1 - 1/t) * x + z / t` and
    `y = (1 - b1) * z + b1 * x`; `warmup_steps` ramps the learning rate up linearly."""

    def __init__(self, learning_rate=0.0025, beta_1=0.9, beta_2=0.999, epsilon=1e-8, warmup_steps=0,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = warmup_steps

    def _build_slots(self, variables):
        self._momentums, self._velocities = self.add_optimizer_variables(variables, ["momentum", "velocity"])
        for m, v in zip(self._momentums, variables):
            m.assign(v)

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        if not isinstance(step, torch.Tensor):
            lr, step = float(lr), float(step)
        # Keras casts beta_1, beta_2 and epsilon to float32 before its arithmetic
        b1, b2, eps = f32(self.beta_1), f32(self.beta_2), f32(self.epsilon)
        one_minus_b1, one_minus_b2 = float(f32(1) - b1), float(f32(1) - b2)
        if self.warmup_steps > 0:
            if isinstance(step, torch.Tensor):
                lr = lr * torch.clamp_max(step / float(f32(self.warmup_steps)), 1.0)
            else:
                lr = float(f32(lr) * min(f32(step) / f32(self.warmup_steps), f32(1)))
        if isinstance(step, torch.Tensor):
            bias_correction_2 = 1 - torch.pow(torch.full_like(step, float(b2)), step)
            weight = 1.0 / step
        else:
            bias_correction_2 = float(f32(1) - f32(b2) ** f32(step))
            weight = float(f32(1) / f32(step))
        z = self._slot_storages("momentum", indices)
        v = self._slot_storages("velocity", indices)
        d = torch._foreach_sub(torch._foreach_mul(grads, grads), v)
        torch._foreach_mul_(d, one_minus_b2)
        torch._foreach_add_(v, d)
        denom = sqrt(torch._foreach_div(v, bias_correction_2))
        torch._foreach_add_(denom, float(eps))
        scaled = torch._foreach_mul(grads, lr)
        torch._foreach_div_(scaled, denom)
        torch._foreach_sub_(z, scaled)
        # Keras reads its "old" momentum through the variable after the update above (the TF backend's value is the
        # variable itself), so x_old is computed from the new z
        x_old = torch._foreach_div(torch._foreach_sub(params, torch._foreach_mul(z, one_minus_b1)), float(b1))
        x_new = torch._foreach_add(torch._foreach_mul(x_old, 1 - weight), torch._foreach_mul(z, weight))
        return torch._foreach_add(torch._foreach_mul(z, one_minus_b1), torch._foreach_mul(x_new, float(b1)))

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "warmup_steps": self.warmup_steps})
        return config
