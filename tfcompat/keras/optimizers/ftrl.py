"""`keras.optimizers.Ftrl`: Follow The Regularized Leader (Keras 3 formulas)."""
import torch

from tfcompat.keras.optimizers.base import Optimizer, base_kwargs


class Ftrl(Optimizer):
    """Keras 3's FTRL-proximal optimizer with L1, L2 and L2-shrinkage regularization."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 l2_shrinkage_regularization_strength=0.0, beta=0.0, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        for arg, value, ok, text in (
                ("initial_accumulator_value", initial_accumulator_value, initial_accumulator_value >= 0.0,
                 "positive or zero"),
                ("learning_rate_power", learning_rate_power, learning_rate_power <= 0.0, "negative or zero"),
                ("l1_regularization_strength", l1_regularization_strength, l1_regularization_strength >= 0.0,
                 "positive or zero"),
                ("l2_regularization_strength", l2_regularization_strength, l2_regularization_strength >= 0.0,
                 "positive or zero"),
                ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength,
                 l2_shrinkage_regularization_strength >= 0.0, "positive or zero")):
            if not ok:
                raise ValueError(f"`{arg}` needs to be {text}. Received: {arg}={value}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def _build_slots(self, variables):
        self._accumulators, self._linears = self.add_optimizer_variables(
            variables, ["accumulator", "linear"], initializer=[self.initial_accumulator_value, "zeros"])

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        lr = lr if isinstance(lr, torch.Tensor) else float(lr)      # a tensor in a traced step
        p = -self.learning_rate_power
        l1 = self.l1_regularization_strength
        l2 = self.l2_regularization_strength + self.beta / (2.0 * lr)
        shrink = 2 * self.l2_shrinkage_regularization_strength
        accs = self._slot_storages("accumulator", indices)
        lins = self._slot_storages("linear", indices)
        new = []
        for w, g, acc, lin in zip(params, grads, accs, lins):
            grad_to_use = g + shrink * w
            new_acc = acc + g * g
            new_acc_p = torch.pow(new_acc, p)
            lin.add_(grad_to_use - (new_acc_p - torch.pow(acc, p)) / lr * w)
            quadratic = new_acc_p / lr + 2 * l2
            new.append((torch.clamp(lin, -l1, l1) - lin) / quadratic)
            acc.copy_(new_acc)
        return new

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate_power": self.learning_rate_power,
                       "initial_accumulator_value": self.initial_accumulator_value,
                       "l1_regularization_strength": self.l1_regularization_strength,
                       "l2_regularization_strength": self.l2_regularization_strength,
                       "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
                       "beta": self.beta})
        return config
