"""`keras.optimizers.RMSprop` (Keras 3 formulas, optional momentum and centering)."""
import torch

from tfcompat.keras.optimizers.base import Optimizer, base_kwargs, sqrt


class RMSprop(Optimizer):
    """Keras 3's RMSprop: `v = rho * v + (1 - rho) * g^2; w -= lr * g / sqrt(v + epsilon)`."""

    _incompatible_op = ("AddV2", False, "")    # rho * v + (1 - rho) * square(g)
    _too_big_slot = "velocity"

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def _build_slots(self, variables):
        self._velocities = self.add_optimizer_variables(variables, "velocity")
        self._momentums = self.add_optimizer_variables(variables, "momentum") if self.momentum > 0 else []
        self._average_gradients = self.add_optimizer_variables(variables, "average_gradient") \
            if self.centered else []

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        rho = self.rho
        v = self._slot_storages("velocity", indices)
        torch._foreach_mul_(v, rho)
        torch._foreach_add_(v, torch._foreach_mul(torch._foreach_mul(grads, grads), 1 - rho))
        if self.centered:
            a = self._slot_storages("average_gradient", indices)
            torch._foreach_mul_(a, rho)
            torch._foreach_add_(a, torch._foreach_mul(grads, 1 - rho))
            denom = torch._foreach_sub(v, torch._foreach_mul(a, a))
            torch._foreach_add_(denom, self.epsilon)
        else:
            denom = torch._foreach_add(v, self.epsilon)
        denom = sqrt(denom)
        increment = torch._foreach_div(torch._foreach_mul(grads, lr if isinstance(lr, torch.Tensor) else float(lr)), denom)
        if self.momentum > 0:
            mo = self._slot_storages("momentum", indices)
            torch._foreach_mul_(mo, self.momentum)
            torch._foreach_add_(mo, increment)
            increment = mo
        return torch._foreach_sub(params, increment)

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config
