"""BatchNormalization and LayerNormalization with Keras 3's formulas and variable names."""
import torch

from tfcompat.framework.export import unsupported_args
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras import constraints, initializers, regularizers
from tfcompat.keras.engine import call_context
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_spec import InputSpec
from tfcompat.keras.saving_utils import serialize_keras_object as _ser


def _normalize(x, mean, var, epsilon, gamma, beta, bshape):
    """`(x - mean) * rsqrt(var + epsilon) * gamma + beta`, gamma and beta optional and broadcast to `bshape`."""
    inv = torch.rsqrt(var + epsilon)
    if gamma is not None:
        inv = inv * gamma._read().reshape(bshape)
    y = (x - mean) * inv
    return y if beta is None else y + beta._read().reshape(bshape)


@unsupported_args("renorm")
class BatchNormalization(Layer):
    """Normalizes with batch statistics in training (updating moving averages), moving statistics otherwise.

    Keras 3: `moving = moving * momentum + batch_stat * (1 - momentum)` with the biased batch
    variance; a layer with `trainable=False` always runs in inference mode.
    """
    _promotes_int_inputs = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 synchronized=False, renorm=False, **kwargs):
        kwargs.pop("renorm_clipping", None)
        kwargs.pop("renorm_momentum", None)
        super().__init__(**kwargs)
        self.axis = int(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center, self.scale = center, scale
        self.synchronized = synchronized
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        rank = len(input_shape)
        self._axis = self.axis % rank
        dim = input_shape[self._axis]
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: dim})
        shape = (dim,)
        self.gamma = self.add_weight(shape=shape, name="gamma", initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight(shape=shape, name="beta", initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean", initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               initializer=self.moving_variance_initializer, trainable=False)
        self._reduce = tuple(i for i in range(rank) if i != self._axis)
        self._bshape = tuple(dim if i == self._axis else 1 for i in range(rank))
        self.built = True

    def call(self, inputs, training=None, mask=None):
        x = input_storage(inputs)
        compute = x.dtype
        xf = x.float() if compute in (torch.float16, torch.bfloat16) else x
        if training and self.trainable:
            mean = torch.mean(xf, dim=self._reduce, keepdim=True)
            var = torch.mean(torch.square(xf - mean), dim=self._reduce, keepdim=True)
            if not call_context.in_symbolic():
                m = self.momentum
                self.moving_mean.assign(storage(self.moving_mean) * m + mean.detach().reshape(-1) * (1.0 - m))
                self.moving_variance.assign(
                    storage(self.moving_variance) * m + var.detach().reshape(-1) * (1.0 - m))
        else:
            mean = self.moving_mean._read().reshape(self._bshape)
            var = self.moving_variance._read().reshape(self._bshape)
        y = _normalize(xf, mean, var, self.epsilon, self.gamma, self.beta, self._bshape)
        return _wrap(y.to(compute) if y.dtype is not compute else y)

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon, "center": self.center,
            "scale": self.scale, "beta_initializer": _ser(self.beta_initializer),
            "gamma_initializer": _ser(self.gamma_initializer),
            "moving_mean_initializer": _ser(self.moving_mean_initializer),
            "moving_variance_initializer": _ser(self.moving_variance_initializer),
            "beta_regularizer": _ser(self.beta_regularizer), "gamma_regularizer": _ser(self.gamma_regularizer),
            "beta_constraint": _ser(self.beta_constraint), "gamma_constraint": _ser(self.gamma_constraint),
            "synchronized": self.synchronized, "renorm": False, "renorm_clipping": None, "renorm_momentum": 0.99,
        })
        return config


class LayerNormalization(Layer):
    """Normalizes each example over `axis`: `(x - mean) / sqrt(var + epsilon) * gamma + beta`."""
    _promotes_int_inputs = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.epsilon = float(epsilon)
        self.center, self.scale, self.rms_scaling = center, scale, rms_scaling
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True

    def build(self, input_shape):
        rank = len(input_shape)
        self.axis = sorted(self.axis) if isinstance(self.axis, list) else [self.axis]
        self._axes = tuple(sorted(a % rank for a in self.axis))
        shape = tuple(input_shape[a] for a in self._axes)
        self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale or self.rms_scaling else None
        self.beta = self.add_weight(name="beta", shape=shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center and not self.rms_scaling else None
        self._bshape = tuple(input_shape[i] if i in self._axes else 1 for i in range(rank))
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        compute = x.dtype
        xf = x.float() if compute in (torch.float16, torch.bfloat16) else x
        if self.rms_scaling:  # Keras 3 (deprecated): scales by the variance, not the root mean square
            var = torch.var(xf, dim=self._axes, keepdim=True, correction=0)
            y = xf * torch.rsqrt(var + self.epsilon) * self.gamma._read().reshape(self._bshape)
        else:
            mean = torch.mean(xf, dim=self._axes, keepdim=True)
            var = torch.mean(torch.square(xf - mean), dim=self._axes, keepdim=True)
            y = _normalize(xf, mean, var, self.epsilon, self.gamma, self.beta, self._bshape)
        return _wrap(y.to(compute) if y.dtype is not compute else y)

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis, "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
            "rms_scaling": self.rms_scaling, "beta_initializer": _ser(self.beta_initializer),
            "gamma_initializer": _ser(self.gamma_initializer), "beta_regularizer": _ser(self.beta_regularizer),
            "gamma_regularizer": _ser(self.gamma_regularizer), "beta_constraint": _ser(self.beta_constraint),
            "gamma_constraint": _ser(self.gamma_constraint),
        })
        return config
