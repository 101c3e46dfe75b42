"""`keras.optimizers.Lion`: sign-momentum updates (Keras 3 formulas)."""
import torch

from tfcompat.keras.optimizers.base import Optimizer, base_kwargs, f32


class Lion(Optimizer):
    """Keras 3's Lion: `w -= lr * sign(b1 * m + (1 - b1) * g); m = b2 * m + (1 - b2) * g`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates "
                             f"to SignSGD. Received: beta_1={beta_1}.")

    def _build_slots(self, variables):
        self._momentums = self.add_optimizer_variables(variables, "momentum")

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        b1, b2 = f32(self.beta_1), f32(self.beta_2)     # Keras casts the betas first: 1 - b is float32
        m = self._slot_storages("momentum", indices)
        direction = torch._foreach_mul(m, float(b1))
        torch._foreach_add_(direction, torch._foreach_mul(grads, float(f32(1) - b1)))
        lr = lr if isinstance(lr, torch.Tensor) else float(lr)      # a tensor in a traced step
        new = torch._foreach_sub(params, torch._foreach_mul([torch.sign(d) for d in direction], lr))
        torch._foreach_mul_(m, float(b2))
        torch._foreach_add_(m, torch._foreach_mul(grads, float(f32(1) - b2)))
        return new

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2})
        return config
