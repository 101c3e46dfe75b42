"""`keras.optimizers.Adagrad` and `Adadelta`: per-coordinate accumulator methods (Keras 3 formulas)."""
import torch

from tfcompat.keras.optimizers.base import Optimizer, base_kwargs, sqrt


def _lr(lr):
    """The learning rate as `_foreach_mul` takes it: a traced step's 0-d tensor, or an eager step's float."""
    return lr if isinstance(lr, torch.Tensor) else float(lr)


class Adagrad(Optimizer):
    """Keras 3's Adagrad: `acc += g^2; w -= lr * g / sqrt(acc + epsilon)`."""

    _equal_shape_op = "AssignAddVariableOp"    # Keras's accumulator.assign_add(square(g)) takes an equal shape

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _build_slots(self, variables):
        self._accumulators = self.add_optimizer_variables(variables, "accumulator",
                                                          initializer=self.initial_accumulator_value)

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        acc = self._slot_storages("accumulator", indices)
        torch._foreach_add_(acc, torch._foreach_mul(grads, grads))
        denom = torch._foreach_add(acc, self.epsilon)
        denom = sqrt(denom)
        return torch._foreach_sub(params, torch._foreach_div(torch._foreach_mul(grads, _lr(lr)), denom))

    def get_config(self):
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value, "epsilon": self.epsilon})
        return config


class Adadelta(Optimizer):
    """Keras 3's Adadelta: `delta = -sqrt(acc_delta + eps) * g / sqrt(acc_g + eps); w += lr * delta`."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def _build_slots(self, variables):
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            variables, ["accumulated_grad", "accumulated_delta_var"])

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        rho, eps = self.rho, self.epsilon
        ag = self._slot_storages("accumulated_grad", indices)
        adv = self._slot_storages("accumulated_delta_var", indices)
        torch._foreach_mul_(ag, rho)
        torch._foreach_add_(ag, torch._foreach_mul(torch._foreach_mul(grads, grads), 1 - rho))
        rms_delta = sqrt(torch._foreach_add(adv, eps))
        rms_grad = sqrt(torch._foreach_add(ag, eps))
        delta = torch._foreach_div(torch._foreach_mul(rms_delta, grads), rms_grad)
        torch._foreach_neg_(delta)
        torch._foreach_mul_(adv, rho)
        torch._foreach_add_(adv, torch._foreach_mul(torch._foreach_mul(delta, delta), 1 - rho))
        return torch._foreach_add(params, torch._foreach_mul(delta, _lr(lr)))

    def get_config(self):
        config = super().get_config()
        config.update({"rho": self.rho, "epsilon": self.epsilon})
        return config
