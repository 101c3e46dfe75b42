"""`keras.optimizers.LossScaleOptimizer`: dynamic loss scaling around another optimizer (float16 training)."""
import torch

from tfcompat.framework.convert import to_storage
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.keras.optimizers.base import Optimizer, _tracing


class LossScaleOptimizer(Optimizer):
    """Keras 3's dynamic loss scaling: the loss is multiplied by `dynamic_scale`; a step whose gradients are all
    finite applies them unscaled through `inner_optimizer` and doubles the scale after `dynamic_growth_steps` such
    steps; a step with an Inf or NaN gradient is skipped and halves the scale."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000, name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        if inner_optimizer.loss_scale_factor is not None:
            raise ValueError("`inner_optimizer` must not have a `loss_scale_factor` set. Received: "
                             f"inner_optimizer.loss_scale_factor={inner_optimizer.loss_scale_factor}")
        super().__init__(learning_rate=0.0, name=name, **kwargs)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps

    def build(self, var_list):
        if self.built:
            return
        from tfcompat.keras.initializers import Constant
        self.step_counter = self.add_variable((), initializer="zeros", dtype="int64", name="step_counter")
        self.dynamic_scale = self.add_variable((), initializer=Constant(float(self.initial_scale)), dtype="float32",
                                               name="dynamic_scale")
        self.inner_optimizer.build(var_list)
        self.built = True

    @property
    def variables(self):
        return self._variables[:] + self.inner_optimizer.variables

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        if hasattr(self, "inner_optimizer"):
            self.inner_optimizer.learning_rate = learning_rate

    def scale_loss(self, loss):
        """`loss` times the current scale (the initial one before the first step)."""
        return loss * (self.dynamic_scale if self.built else self.initial_scale)

    def apply(self, grads, trainable_variables=None):
        """Applies `grads` (gradients of the scaled loss) unscaled if all are finite; adjusts the scale."""
        if not self.built:
            self.build(trainable_variables if trainable_variables is not None else [])
        present = [storage(g) if isinstance(g, Tensor) else to_storage(g) for g in grads if g is not None]
        scale, count = storage(self.dynamic_scale), storage(self.step_counter)
        if _tracing():
            self._traced_apply(grads, trainable_variables, present, scale, count)
            return
        if all(bool(torch.isfinite(t).all()) for t in present):
            self.inner_optimizer.apply([None if g is None else g / _wrap(scale) for g in grads], trainable_variables)
            count = torch.add(count, 1)
            grow = count >= self.dynamic_growth_steps
            count = torch.where(grow, torch.zeros_like(count), count)
            scale = torch.where(grow, scale * 2.0, scale)
        else:
            count, scale = torch.zeros_like(count), scale / 2.0
        self.step_counter.assign(_wrap(count))
        self.dynamic_scale.assign(_wrap(scale))

    def _traced_apply(self, grads, trainable_variables, present, scale, count):
        """`apply` inside a tf.function trace, as Keras's `cond`: the inner update is computed and kept only where
        the gradients are finite (selected by value), so one recording serves finite and non-finite steps."""
        finite = torch.stack([torch.isfinite(t).all() for t in present]).all() if present else \
            torch.ones((), dtype=torch.bool)
        inner = self.inner_optimizer
        targets = list(trainable_variables) if trainable_variables is not None else inner._trainable_variables
        before = [(v, storage(v)) for v in targets + inner.variables]
        inner.apply([None if g is None else g / _wrap(scale) for g in grads], trainable_variables)
        for v, old in before:
            new = storage(v)
            if new is not old:
                v._set_storage(torch.where(finite, new, old))
        count = torch.where(finite, torch.add(count, 1), torch.zeros_like(count))
        grow = count >= self.dynamic_growth_steps
        count = torch.where(grow, torch.zeros_like(count), count)
        scale = torch.where(finite, torch.where(grow, scale * 2.0, scale), scale / 2.0)
        self.step_counter.assign(_wrap(count))
        self.dynamic_scale.assign(_wrap(scale))

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self):
        from tfcompat.keras.optimizers import serialize
        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from tfcompat.keras.optimizers import deserialize
        config = dict(config)
        config["inner_optimizer"] = deserialize(config["inner_optimizer"], custom_objects=custom_objects)
        return cls(**config)
