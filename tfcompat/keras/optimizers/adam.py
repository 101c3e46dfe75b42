"""`keras.optimizers.Adam`, `AdamW`, `Adamax`, `Nadam`: the Adam family (Keras 3 formulas)."""
import torch

from tfcompat.framework.tensor import storage
from tfcompat.keras.optimizers.base import Optimizer, base_kwargs as _base_kwargs, f32, sqrt
from tfcompat.keras.variables import Variable, name_scope

_ONE = f32(1)


def _move_(buffers, targets, weight):
    """`buffers += (targets - buffers) * weight` in place, in TF's operation order."""
    d = torch._foreach_sub(targets, buffers)
    torch._foreach_mul_(d, weight)
    torch._foreach_add_(buffers, d)


def _sub_ratio(params, numer, scale, denom):
    """`params - numer * scale / denom` (TF's order: multiply, divide, subtract)."""
    step = torch._foreach_mul(numer, scale)
    torch._foreach_div_(step, denom)
    return torch._foreach_sub(params, step)


class Adam(Optimizer):
    """Keras 3's Adam: `w -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + epsilon)`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **_base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.amsgrad = amsgrad

    def _build_slots(self, variables):
        self._momentums, self._velocities = self.add_optimizer_variables(variables, ["momentum", "velocity"])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(variables, "velocity_hat")

    _tensor_update = True

    def _alpha(self, lr, step):
        """`lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)` as a 0-d float32 tensor.

        Eager steps and traced steps (which pass `lr` and `step` as tensors) run these same torch ops, so a
        replayed step equals the eager one bit for bit (NumPy's and torch's float32 `sqrt` differ in the last bit).
        """
        if not isinstance(step, torch.Tensor):
            device = storage(self._iterations).device
            lr = torch.full((), float(lr), dtype=torch.float32, device=device)
            step = torch.full((), float(step), dtype=torch.float32, device=device)
        b1p = torch.pow(torch.full_like(step, self.beta_1), step)
        b2p = torch.pow(torch.full_like(step, self.beta_2), step)
        return lr * torch.sqrt(1 - b2p) / (1 - b1p)

    def _update(self, params, grads, lr, step, indices):
        alpha = self._alpha(lr, step)
        m = self._slot_storages("momentum", indices)
        v = self._slot_storages("velocity", indices)
        _move_(m, grads, 1 - self.beta_1)
        _move_(v, torch._foreach_mul(grads, grads), 1 - self.beta_2)
        if self.amsgrad:
            vh = self._slot_storages("velocity_hat", indices)
            torch._foreach_maximum_(vh, v)
            v = vh
        denom = sqrt(v)
        torch._foreach_add_(denom, self.epsilon)
        return _sub_ratio(params, m, alpha, denom)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "amsgrad": self.amsgrad})
        return config


class AdamW(Adam):
    """Adam with decoupled weight decay (`w -= w * weight_decay * lr` before each Adam step)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon,
                         amsgrad=amsgrad, **_base_kwargs(
                             weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum,
                             ema_overwrite_frequency, loss_scale_factor, gradient_accumulation_steps, name),
                         **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")


class Adamax(Optimizer):
    """Keras 3's Adamax: `u = max(b2 * u, |g|); w -= lr * m / ((1 - b1^t) * (u + epsilon))`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **_base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _build_slots(self, variables):
        self._m, self._u = self.add_optimizer_variables(variables, ["momentum", "norm"])

    _tensor_update = True

    def _update(self, params, grads, lr, step, indices):
        if isinstance(step, torch.Tensor):          # a traced step: step and rate are 0-d float32 tensors
            correction = 1 - torch.pow(torch.full_like(step, float(f32(self.beta_1))), step)
        else:
            correction, lr = float(_ONE - f32(self.beta_1) ** step), float(lr)
        m = self._slot_storages("momentum", indices)
        u = self._slot_storages("norm", indices)
        _move_(m, grads, 1 - self.beta_1)
        torch._foreach_mul_(u, self.beta_2)
        torch._foreach_maximum_(u, torch._foreach_abs(grads))
        denom = torch._foreach_add(u, self.epsilon)
        torch._foreach_mul_(denom, correction)
        return _sub_ratio(params, m, lr, denom)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config


class Nadam(Optimizer):
    """Keras 3's Nadam (Adam with Nesterov momentum and the 0.96 momentum-decay schedule)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, **_base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def _build_slots(self, variables):
        self._momentums, self._velocities = self.add_optimizer_variables(variables, ["momentum", "velocity"])
        dtype = variables[0].dtype if variables else "float32"
        dtype = getattr(dtype, "name", dtype)
        with name_scope(self.name):
            self._u_product = Variable(1.0, dtype=dtype, trainable=False)
        self._variables.append(self._u_product)

    _tensor_update = True

    def _momentum_schedule(self, step):
        """`(u_product, u_t, u_t_1, 1 - beta_2^t)`, Nadam's step factors, updating the `u_product` variable:
        float32 NumPy scalars for an eager step, 0-d float32 tensors for a traced one (read from the variable)."""
        b1, b2, decay, half = f32(self.beta_1), f32(self.beta_2), f32(0.96), f32(0.5)
        t = storage(self._u_product)
        if isinstance(step, torch.Tensor):
            def power(base, exponent):
                return torch.pow(torch.full_like(exponent, float(base)), exponent)
            u_t = b1 * (1 - half * power(decay, step))
            u_product = t.to(torch.float32) * u_t
            self._u_product._set_storage(u_product.to(t.dtype))
            self._u_t = None
            return u_product, u_t, b1 * (1 - half * power(decay, step + 1)), 1 - power(b2, step)
        if t is not getattr(self, "_u_t", None):
            self._u_value = f32(t.item())
        u_t = b1 * (_ONE - half * decay ** step)
        u_product = self._u_value * u_t
        self._u_t = torch.full_like(t, float(u_product))
        self._u_product._set_storage(self._u_t)
        self._u_value = u_product
        return u_product, u_t, b1 * (_ONE - half * decay ** (step + _ONE)), _ONE - b2 ** step

    def _update(self, params, grads, lr, step, indices):
        u_product, u_t, u_t_1, b2_correction = self._momentum_schedule(step)
        # the factors, each rounded to float32 as Keras computes them
        factors = (u_t_1, 1 - u_product * u_t_1, 1 - u_t, 1 - u_product, b2_correction, lr)
        if not isinstance(step, torch.Tensor):
            factors = [float(f) for f in factors]
        u_t_1, m_scale, g_weight, g_scale, b2_correction, lr = factors
        m = self._slot_storages("momentum", indices)
        v = self._slot_storages("velocity", indices)
        _move_(m, grads, float(_ONE - f32(self.beta_1)))      # Nadam's weights are float32 (1 - b)
        _move_(v, torch._foreach_mul(grads, grads), float(_ONE - f32(self.beta_2)))
        m_hat = torch._foreach_div(torch._foreach_mul(m, u_t_1), m_scale)
        torch._foreach_add_(m_hat, torch._foreach_div(torch._foreach_mul(grads, g_weight), g_scale))
        denom = sqrt(torch._foreach_div(v, b2_correction))
        torch._foreach_add_(denom, self.epsilon)
        return _sub_ratio(params, m_hat, lr, denom)

    def get_config(self):
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
