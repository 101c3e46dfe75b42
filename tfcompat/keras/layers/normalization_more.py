"""Keras 3's other normalization layers: GroupNormalization, UnitNormalization, RMSNormalization and the
SpectralNormalization wrapper (Keras's formulas, weight names and order, config keys and errors)."""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras import constraints, initializers, regularizers
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_spec import InputSpec
from tfcompat.keras.layers.wrappers import Wrapper
from tfcompat.keras.saving_utils import serialize_keras_object as _ser


def _float32_at_least(x):
    return x.float() if x.dtype in (torch.float16, torch.bfloat16) or not x.is_floating_point() else x


def _check_axes(axis, input_shape, with_received=True):
    """Keras's `compute_output_shape` check of the layers that keep their input's shape."""
    for a in (axis if isinstance(axis, (list, tuple)) else [axis]):
        if a >= len(input_shape) or a < -len(input_shape):
            tail = f" Received: axis={axis}" if with_received else ""
            raise ValueError(f"Axis {a if with_received else axis} is out of bounds for input shape "
                             f"{tuple(input_shape)}.{tail}")


class GroupNormalization(Layer):
    """Normalizes each group of `channels / groups` channels of each example (`groups=-1`: instance norm)."""

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        if not isinstance(groups, int) or isinstance(groups, bool) or (groups <= 0 and groups != -1):
            raise ValueError(f"Received an invalid value for argument `groups`, expected a positive integer (or "
                             f"`-1` for instance normalization). Received: groups={groups}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.groups, self.axis, self.epsilon = groups, axis, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {input_shape}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the number of channels "
                             f"({dim}).")
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        self.gamma = self.add_weight(shape=(dim,), name="gamma", initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                     autocast=False) if self.scale else None
        self.beta = self.add_weight(shape=(dim,), name="beta", initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                    autocast=False) if self.center else None
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        rank = x.ndim
        axis = self.axis % rank
        # (..., C, ...) -> (..., groups, C / groups, ...): statistics over all but the batch and group axes
        shape = list(x.shape)
        gshape = shape[:axis] + [self.groups, shape[axis] // self.groups] + shape[axis + 1:]
        xg = _float32_at_least(x).reshape(gshape)
        red = [i for i in range(1, rank + 1) if i != axis]
        mean = xg.mean(dim=red, keepdim=True)
        var = torch.square(xg - mean).mean(dim=red, keepdim=True)
        bshape = [1] * (rank + 1)
        bshape[axis], bshape[axis + 1] = self.groups, shape[axis] // self.groups
        inv = torch.rsqrt(var + self.epsilon)
        if self.gamma is not None:
            inv = inv * self.gamma._read().to(xg.dtype).reshape(bshape)
        res = -mean * inv
        if self.beta is not None:
            res = res + self.beta._read().to(xg.dtype).reshape(bshape)
        y = (xg * inv + res).reshape(shape)
        return _wrap(y.to(x.dtype) if x.is_floating_point() else y)

    def compute_output_shape(self, input_shape):
        _check_axes(self.axis, input_shape)
        return input_shape

    def get_config(self):
        config = {
            "groups": self.groups, "axis": self.axis, "epsilon": self.epsilon, "center": self.center,
            "scale": self.scale, "beta_initializer": _ser(self.beta_initializer),
            "gamma_initializer": _ser(self.gamma_initializer), "beta_regularizer": _ser(self.beta_regularizer),
            "gamma_regularizer": _ser(self.gamma_regularizer), "beta_constraint": _ser(self.beta_constraint),
            "gamma_constraint": _ser(self.gamma_constraint),
        }
        return {**super().get_config(), **config}


def _at_most(t, bound):
    """`minimum(t, bound)` with `bound` in `t`'s dtype (inf in float16, as Keras's cast constant)."""
    return torch.minimum(t, torch.tensor(bound, dtype=torch.float32).to(t.dtype))


def _axes(axis, rank):
    return tuple(sorted(a % rank for a in (axis if isinstance(axis, (list, tuple)) else [axis])))


class UnitNormalization(Layer):
    """Scales each example to unit L2 norm over `axis`: `x * min(rsqrt(sum(x^2)), 1e12)`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(f"Invalid value for `axis` argument: expected an int or a list/tuple of ints. "
                            f"Received: axis={axis}")
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        if not x.is_floating_point():
            x = x.float()
        inv = torch.rsqrt(torch.square(x).sum(dim=_axes(self.axis, x.ndim), keepdim=True))
        return _wrap(x * _at_most(inv, 1e12))

    def compute_output_shape(self, input_shape):
        _check_axes(self.axis, input_shape, with_received=False)
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class RMSNormalization(Layer):
    """`x * rsqrt(mean(x^2 over axis) + epsilon) * scale` (weight `scale`, ones)."""

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[d] for d in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        xf = _float32_at_least(x)
        axes = _axes(self.axis, x.ndim)
        y = xf * torch.rsqrt(torch.square(xf).mean(dim=axes, keepdim=True) + self.epsilon)
        y = y * self.scale._read().to(xf.dtype).reshape([x.shape[i] if i in axes else 1 for i in range(x.ndim)])
        return _wrap(y.to(x.dtype) if x.is_floating_point() else y)

    def compute_output_shape(self, input_shape):
        _check_axes(self.axis, input_shape)
        return input_shape

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon}


def _l2_normalize(t):
    """Keras's `normalize(t, axis=None)`: `t * min(rsqrt(sum(t^2)), 1 / epsilon)`."""
    from tfcompat.keras import _config
    inv = torch.rsqrt(torch.square(t).sum())
    return t * _at_most(inv, 1.0 / _config.config.epsilon)


class SpectralNormalization(Wrapper):
    """Divides the wrapped layer's `kernel` (or `embeddings`) by its largest singular value, estimated by
    `power_iterations` steps of power iteration from `vector_u` (updated, with the kernel, in training)."""

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError(f"`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'")
        self.kernel_shape = tuple(self.kernel.shape)
        self.vector_u = self.add_weight(shape=(1, self.kernel_shape[-1]),
                                        initializer=initializers.TruncatedNormal(stddev=0.02), trainable=False,
                                        name="vector_u", dtype=self.kernel.dtype)
        self.built = True

    def call(self, inputs, training=False):
        from tfcompat.keras.engine import call_context
        if training and not call_context.in_symbolic():
            kernel = self.kernel._read()
            if not bool((kernel == 0).all()):
                u, k = self.normalized_weights()
                self.vector_u.assign(storage(u))
                self.kernel.assign(storage(k))
        output = self.layer(inputs)
        x = input_storage(inputs)
        y = input_storage(output)
        return _wrap(y.to(x.dtype)) if y.dtype is not x.dtype else output

    def normalized_weights(self):
        """`(vector_u, kernel / sigma)` after the power iteration (Keras's `normalized_weights`)."""
        kernel = self.kernel._read()
        w = kernel.reshape(-1, self.kernel_shape[-1])
        u = self.vector_u._read().to(w.dtype)
        v = None
        for _ in range(self.power_iterations):
            v = _l2_normalize(torch.matmul(u, w.T))
            u = _l2_normalize(torch.matmul(v, w))
        u, v = u.detach(), v.detach()
        sigma = torch.matmul(torch.matmul(v, w), u.T)
        return _wrap(u), _wrap((kernel / sigma).reshape(self.kernel_shape))

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
