"""`keras.optimizers.Muon` (Keras 3.15): orthogonalized momentum for 2-D weights, AdamW for the others."""
import re

import torch

from tfcompat.framework.tensor import storage
from tfcompat.keras.optimizers.base import Optimizer, base_kwargs, f32, sqrt


class Muon(Optimizer):
    """Keras's Muon: a 2-D variable (not an embedding, not matched by `exclude_layers`) moves along the Newton-Schulz
    orthogonalization of its (Nesterov) momentum, scaled by `sqrt(max(rows, cols)) * rms_rate`; every other
    variable takes an AdamW step (`adam_beta_*`, learning rate times `adam_lr_ratio`, `adam_weight_decay`)."""

    def __init__(self, learning_rate=0.001, adam_beta_1=0.9, adam_beta_2=0.999, adam_weight_decay=0.004,
                 epsilon=1e-7, weight_decay=0.004, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, exclude_layers=None, exclude_embeddings=True,
                 muon_a=3.4445, muon_b=-4.7750, muon_c=2.0315, adam_lr_ratio=1, momentum=0.95, ns_steps=5,
                 nesterov=True, rms_rate=0.2, **kwargs):
        super().__init__(learning_rate=learning_rate, **base_kwargs(
            weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum, ema_overwrite_frequency,
            loss_scale_factor, gradient_accumulation_steps, name), **kwargs)
        self.adam_beta_1 = adam_beta_1
        self.adam_beta_2 = adam_beta_2
        self.epsilon = epsilon
        self.muon_a = muon_a
        self.muon_b = muon_b
        self.muon_c = muon_c
        self.adam_lr_ratio = adam_lr_ratio
        self.momentum = momentum
        self.ns_steps = ns_steps
        self.nesterov = nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = exclude_layers or []
        self.adam_weight_decay = adam_weight_decay
        self.rms_rate = rms_rate

    def _should_use_adamw(self, variable):
        if len(variable.shape) != 2:
            return True
        if self.exclude_embeddings and "embedding" in variable.path.lower():     # (Keras variables only)
            return True
        return any(re.search(keyword, variable.path) for keyword in self.exclude_layers)

    def _build_slots(self, variables):
        # Keras's order: each variable's momentum, then its velocity when it takes AdamW steps
        self._adamw = [self._should_use_adamw(v) for v in variables]
        self._slots["momentum"], self._slots["velocity"] = [], []
        for v, adamw in zip(variables, self._adamw):
            self._slots["momentum"].append(self.add_variable_from_reference(v, name="momentum"))
            self._slots["velocity"].append(self.add_variable_from_reference(v, name="velocity") if adamw else None)

    _tensor_update = True

    def _update_variables(self, trainable_variables, params, gs, lr, update_step, indices):
        # Muon's weight decay is per variable (`weight_decay` or `adam_weight_decay`), so it runs even when
        # `weight_decay` is None
        if self.clipnorm or self.global_clipnorm or self.clipvalue:
            gs = self._clip_gradients(gs)
        params = self._apply_weight_decay(trainable_variables, params, lr)
        new = self._update(params, gs, lr, update_step, indices)
        for v, t in zip(trainable_variables, new):
            v._set_storage(t)

    def _apply_weight_decay(self, variables, params, lr):
        out = list(params)
        lr = lr if isinstance(lr, torch.Tensor) else float(lr)
        for i, v in enumerate(variables):
            if not self._use_weight_decay(v):
                continue
            wd = self.adam_weight_decay if self._should_use_adamw(v) else self.weight_decay
            if wd is None:
                continue
            p = params[i]
            out[i] = p - p * float(f32(wd)) * lr
        return out

    def _update(self, params, grads, lr, step, indices):
        device = storage(self._iterations).device
        if not isinstance(step, torch.Tensor):
            lr = torch.full((), float(lr), dtype=torch.float32, device=device)
            step = torch.full((), float(step), dtype=torch.float32, device=device)
        out = list(params)
        adam = [k for k, i in enumerate(indices) if self._adamw[i]]
        if adam:
            ids = [indices[k] for k in adam]
            m, v = self._slot_storages("momentum", ids), self._slot_storages("velocity", ids)
            adam_lr = lr * self.adam_lr_ratio
            b1p = torch.pow(torch.full_like(step, self.adam_beta_1), step)
            b2p = torch.pow(torch.full_like(step, self.adam_beta_2), step)
            alpha = adam_lr * torch.sqrt(1 - b2p) / (1 - b1p)
            g = [grads[k] for k in adam]
            for buf, target, weight in ((m, g, 1 - self.adam_beta_1),
                                        (v, torch._foreach_mul(g, g), 1 - self.adam_beta_2)):
                d = torch._foreach_sub(target, buf)
                torch._foreach_mul_(d, weight)
                torch._foreach_add_(buf, d)
            denom = sqrt(v)
            torch._foreach_add_(denom, self.epsilon)
            delta = torch._foreach_mul(m, alpha)
            torch._foreach_div_(delta, denom)
            for k, t in zip(adam, torch._foreach_sub([params[k] for k in adam], delta)):
                out[k] = t
        for k, i in enumerate(indices):
            if self._adamw[i]:
                continue
            m = self._slot_storages("momentum", [i])[0]
            g = grads[k]
            m.add_(g + m * (self.momentum - 1))
            g = g + self.momentum * m if self.nesterov else m
            update = lr * self._newton_schulz5(g)
            if self.rms_rate is not None:
                scale = torch.sqrt(torch.tensor(float(max(update.shape[0], update.shape[1])), dtype=update.dtype,
                                                device=update.device))
                update = update * scale * self.rms_rate
            out[k] = params[k] - update
        return out

    def _newton_schulz5(self, x):
        """Keras's quintic Newton-Schulz iteration towards the orthogonal factor of `x` (`ns_steps` steps)."""
        if x.ndim < 2:
            raise ValueError("Expected gradient or momentum to have at least 2 dimensions. Received: "
                             f"shape={tuple(x.shape)}")
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        tall = x.shape[-2] > x.shape[-1]
        if tall:
            x = x.transpose(-2, -1)
        x = x / (torch.sqrt(torch.sum(x * x, dim=(-2, -1), keepdim=True)) + 1e-7)
        for _ in range(self.ns_steps):
            gram = x @ x.transpose(-2, -1)
            x = a * x + (b * gram + (c * gram) @ gram) @ x
        return x.transpose(-2, -1) if tall else x

    def get_config(self):
        config = super().get_config()
        config.update({"adam_beta_1": self.adam_beta_1, "adam_beta_2": self.adam_beta_2, "epsilon": self.epsilon,
                       "exclude_layers": self.exclude_layers, "muon_a": self.muon_a, "muon_b": self.muon_b,
                       "muon_c": self.muon_c, "adam_lr_ratio": self.adam_lr_ratio, "momentum": self.momentum,
                       "ns_steps": self.ns_steps, "nesterov": self.nesterov,
                       "exclude_embeddings": self.exclude_embeddings, "adam_weight_decay": self.adam_weight_decay,
                       "rms_rate": self.rms_rate})
        return config
