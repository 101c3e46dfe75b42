"""`keras.optimizers.SGD`: gradient descent with optional (Nesterov) momentum."""
import torch

from tfcompat.keras.optimizers.base import Optimizer, f32


class SGD(Optimizer):
    """Keras 3's SGD: `m = momentum * m - lr * g; w += m` (Nesterov: `w += momentum * m - lr * g`)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def _build_slots(self, variables):
        self.momentums = self.add_optimizer_variables(variables, "momentum") if self.momentum != 0 else []

    _tensor_update = True

    @property
    def _equal_shape_op(self):      # TF assigns plain SGD's step with an equal-shape resource update
        return "AssignSubVariableOp" if self.momentum == 0 else None

    _incompatible_op = ("Sub", False, "")      # momentum * m - lr * g
    _too_big_slot = "momentum"

    def _update(self, params, grads, lr, step, indices):
        if not isinstance(lr, torch.Tensor):
            lr = float(lr)
        if self.momentum == 0:
            return torch._foreach_sub(params, torch._foreach_mul(grads, lr))
        mom = float(f32(self.momentum))
        m = self._slot_storages("momentum", indices)
        scaled = torch._foreach_mul(grads, lr)
        torch._foreach_mul_(m, mom)
        torch._foreach_sub_(m, scaled)
        if self.nesterov:
            step_ = torch._foreach_mul(m, mom)
            torch._foreach_sub_(step_, scaled)
            return torch._foreach_add(params, step_)
        return torch._foreach_add(params, m)

    def get_config(self):
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
