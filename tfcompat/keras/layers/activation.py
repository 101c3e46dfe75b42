"""Activation layers: ReLU, LeakyReLU, PReLU, ELU, Softmax."""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import constraints, initializers, regularizers
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.saving_utils import serialize_keras_object as _ser


class ReLU(Layer):
    """`max(x, 0)` with Keras's `max_value`, `negative_slope` and `threshold`."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: max_value={max_value}")
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"negative_slope of a ReLU layer cannot be None or a negative value. Received: "
                             f"negative_slope={negative_slope}")
        if threshold is None or threshold < 0:
            raise ValueError(f"threshold of a ReLU layer cannot be None or a negative value. Received: "
                             f"threshold={threshold}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        from tfcompat.keras import activations
        return activations.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config


class LeakyReLU(Layer):
    """`x` if positive else `negative_slope * x` (Keras 3 default slope 0.3)."""

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None or negative value. "
                             f"Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return _wrap(torch.nn.functional.leaky_relu(input_storage(inputs), self.negative_slope))

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config


class PReLU(Layer):
    """Leaky ReLU with a learned slope `alpha` per unit (shared along `shared_axes`)."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        self.shared_axes = None if shared_axes is None else (
            list(shared_axes) if isinstance(shared_axes, (list, tuple)) else [shared_axes])
        self.supports_masking = True

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for ax in self.shared_axes or []:
            shape[ax - 1] = 1
        self.alpha = self.add_weight(shape=tuple(shape), name="alpha", initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        a = self.alpha._read()
        return _wrap(torch.relu(x) - a * torch.relu(-x))

    def get_config(self):
        config = super().get_config()
        config.update({"alpha_initializer": _ser(self.alpha_initializer),
                       "alpha_regularizer": _ser(self.alpha_regularizer),
                       "alpha_constraint": _ser(self.alpha_constraint), "shared_axes": self.shared_axes})
        return config


class ELU(Layer):
    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return _wrap(torch.nn.functional.elu(input_storage(inputs), self.alpha))


class Softmax(Layer):
    """Softmax over `axis`; masked positions (mask False) get probability 0."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True
        self.built = True

    def call(self, inputs, mask=None):
        x = input_storage(inputs)
        if mask is not None:
            m = input_storage(mask).to(torch.bool)
            x = torch.where(m, x, torch.full_like(x, -1e9 if x.dtype is torch.float32 else -3e4))
        axes = self.axis if isinstance(self.axis, (list, tuple)) else [self.axis]
        if len(axes) == 1:
            return _wrap(torch.softmax(x, dim=axes[0]))
        return _wrap(torch.exp(x - torch.logsumexp(x, dim=tuple(axes), keepdim=True)))

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config

