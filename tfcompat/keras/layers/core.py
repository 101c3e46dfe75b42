"""Core Keras layers: Dense, Activation, Dropout, Flatten, Lambda, Identity, Masking."""
import inspect

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import unsupported_args
from tfcompat.framework import op_def
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.sparse import SparseTensor, sparse_dense_matmul
from tfcompat.framework.tensor import Tensor, _wrap
from tfcompat.keras import activations, constraints, initializers, regularizers
from tfcompat.keras.engine import call_context
from tfcompat.keras.layers.base import _COMPUTE, Layer
from tfcompat.keras.layers.input_spec import InputSpec
from tfcompat.util import nest

_HALF = (torch.float16, torch.bfloat16)


def _fused_bias(x):
    """Whether the product and the bias are added in one rounding, as TF does in a graph (its remapper fuses MatMul and
    BiasAdd: fit's steps, tf.function bodies); eager TF rounds a half-precision product before adding the bias."""
    return x.ndim == 2 and (x.dtype not in _HALF or any(check() for check in op_def.GRAPH_BUILDING))


def _ser(obj):
    from tfcompat.keras.saving_utils import serialize_keras_object
    return serialize_keras_object(obj)


def _promote(x, k):
    """`x` and the kernel `k` in Keras's result dtype: integer and bool inputs take the kernel's float dtype."""
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"dtype='{dtypes.as_dtype(x.dtype).name}' is not a valid dtype for Keras type promotion.")
    if not (x.is_floating_point() or x.is_complex()):
        return x.to(k.dtype), k
    dt = torch.promote_types(x.dtype, k.dtype)
    return x.to(dt), k.to(dt)


def _takes_arg(fn, name):
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):        # builtins without a signature
        return False


@unsupported_args("lora_rank")
class Dense(Layer):
    """`output = activation(dot(input, kernel) + bias)`, kernel shape `(input_dim, units)`."""
    _promotes_int_inputs = True

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None, **kwargs):
        if not isinstance(units, int) or units <= 0:     # as Keras: np.int32(3) and 3.0 are rejected (no name used)
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.units = units
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        input_dim = input_shape[-1]
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self._kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                       initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                       constraint=self.kernel_constraint)
        self._bias = self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.built = True

    @property
    def kernel(self):
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        return self._kernel

    @property
    def bias(self):
        if not self.built:
            raise AttributeError("You must build the layer before accessing `bias`.")
        return self._bias

    def call(self, inputs, training=None):
        if isinstance(inputs, SparseTensor):         # Keras: a sparse input multiplies as a sparse matrix
            from tfcompat.ops.math_ops import add
            out = sparse_dense_matmul(inputs, self._kernel)
            out = add(out, self._bias) if self._bias is not None else out
            return self.activation(out) if self.activation is not activations.linear else out
        x = input_storage(inputs)
        k = self._kernel._read()
        if x.dtype is not k.dtype:
            compute = _COMPUTE.get(self._dtype_policy.compute_dtype)
            if self._kernel._autocast and k.is_floating_point() and compute is not None:
                k = k.to(compute)       # Keras reads autocast variables in the compute dtype (mixed precision)
            if x.dtype is not k.dtype:
                x, k = _promote(x, k)
        if self._bias is not None:
            b = self._bias._read().to(x.dtype)
            out = torch.addmm(b, x, k) if _fused_bias(x) else torch.matmul(x, k) + b
        else:
            out = torch.matmul(x, k)
        out = _wrap(out)
        if self.activation is not activations.linear:
            out = self.activation(out)
        return out

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units, "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
            "kernel_initializer": _ser(self.kernel_initializer), "bias_initializer": _ser(self.bias_initializer),
            "kernel_regularizer": _ser(self.kernel_regularizer), "bias_regularizer": _ser(self.bias_regularizer),
            "kernel_constraint": _ser(self.kernel_constraint), "bias_constraint": _ser(self.bias_constraint),
            "quantization_config": None,
        })
        return config


class Activation(Layer):
    """Applies an activation function (`Activation("relu")`)."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)
        self.built = True       # Keras's Activation is built from the start (Flatten, Lambda... build on a call)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


class Dropout(Layer):
    """Randomly zeroes a `rate` fraction of inputs in training, scaling the rest by `1 / (1 - rate)`."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 "
                             f"and 1. Received: rate={rate}")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self._seed_generator = None
        if rate > 0:    # Keras's SeedGenerator (its seed from Python's random when None): TF's masks, in order
            from tfcompat.keras.random import SeedGenerator
            self._seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self.built = True

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        x = input_storage(inputs)
        shape = x.shape if self.noise_shape is None else tuple(
            x.shape[i] if d is None else d for i, d in enumerate(self.noise_shape))
        if self._seed_generator is None or self.rate >= 1:
            return _wrap(torch.zeros_like(x))
        from tfcompat.framework.tensor import storage
        from tfcompat.keras.random import dropout_keep_mask
        keep = storage(dropout_keep_mask(tuple(shape), self.rate, x.dtype, seed=self._seed_generator)).to(x.device)
        scaled = x * torch.tensor(1 / (1 - self.rate), dtype=x.dtype, device=x.device)
        return _wrap(torch.where(keep, scaled, torch.zeros((), dtype=x.dtype, device=x.device)))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape})
        return config


class Flatten(Layer):
    """Flattens all but the batch axis (`data_format` channels_first transposes first, as Keras)."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        x = input_storage(inputs)
        if self.data_format == "channels_first" and x.ndim > 2:
            x = x.permute(0, *range(2, x.ndim), 1)
        return _wrap(x.reshape(x.shape[0], -1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        n = None if any(d is None for d in rest) else int(np.prod(rest)) if rest else 1
        return (input_shape[0], n)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


def _keras_tensor_uid():
    from tfcompat.keras._config import config
    return config.uids.get("keras_tensor", 0)


def _take_keras_tensor_names(structure):
    from tfcompat.keras.engine import naming
    for x in nest.flatten(structure):
        if isinstance(x, Tensor):
            naming.unique_name("keras_tensor")


class Lambda(Layer):
    """Wraps an arbitrary function as a layer (`Lambda(lambda x: x * 2)`)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}
        self._output_shape = output_shape
        self.mask = mask
        self.supports_masking = mask is not None
        self._fn_takes_mask = _takes_arg(function, "mask")
        self._fn_takes_training = _takes_arg(function, "training")

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_takes_mask:
            kwargs["mask"] = mask
        if self._fn_takes_training:
            kwargs["training"] = training
        if self._output_shape is None and call_context.in_symbolic():
            # Keras infers the output shape by running the function on KerasTensors of its own (one auto-name per
            # input, then per output, before the layer's outputs take theirs); any failure is this error
            fresh = _keras_tensor_uid() != self.__dict__.get("_names_taken_at")
            if fresh:
                _take_keras_tensor_names(inputs)
            try:
                outputs = self.function(inputs, **kwargs)
            except Exception as e:  # noqa: BLE001 - Keras's bare except in Lambda.compute_output_shape
                raise NotImplementedError("We could not automatically infer the shape of the Lambda's output. "
                                          "Please specify the `output_shape` argument for this Lambda layer.") from e
            if fresh:
                _take_keras_tensor_names(outputs)
                # tfcompat's symbolic call runs `call` once per stand-in size: names are taken on the first run
                self.__dict__["_names_taken_at"] = _keras_tensor_uid()
            return outputs
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        """Keras: `mask(inputs, mask)` when callable, else the `mask` given to the constructor."""
        return self.mask(inputs, mask) if callable(self.mask) else self.mask

    def get_config(self):
        """Keras 3: a Python lambda is stored as its marshalled bytecode (`__lambda__`), any other function
        by name; loading a `__lambda__` needs `safe_mode=False`."""
        from tfcompat.keras.saving_utils import serialize_keras_object
        config = {"function": _function_config(self.function)}
        if self._output_shape is not None:
            config["output_shape"] = _function_config(self._output_shape) if callable(self._output_shape) \
                else self._output_shape
        if self.mask is not None:
            config["mask"] = _function_config(self.mask) if callable(self.mask) else serialize_keras_object(self.mask)
        config["arguments"] = serialize_keras_object(self.arguments)
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        """Keras 3: refuses a stored lambda unless the enclosing load (or `safe_mode`) is explicitly unsafe."""
        from tfcompat.keras.saving_utils import lambda_from_config
        return cls(**lambda_from_config(dict(config), custom_objects, safe_mode))


def _function_config(fn):
    from tfcompat.keras.saving_utils import dump_function, serialize_keras_object
    if fn.__name__ == "<lambda>":
        code, defaults, closure = dump_function(fn)
        return {"class_name": "__lambda__", "config": {"code": code, "defaults": defaults, "closure": closure}}
    return serialize_keras_object(fn)


class Identity(Layer):
    """Returns its input unchanged."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs


class Masking(Layer):
    """Masks timesteps whose features all equal `mask_value` (zeroed, and `False` in the output's mask)."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(mask_value, dict) and mask_value.get("config"):
            from tfcompat.keras.saving_utils import deserialize_keras_object
            mask_value = deserialize_keras_object(mask_value)
        self.mask_value = mask_value
        self.supports_masking = True
        self.built = True

    def _keep(self, x):
        return torch.any(x != torch.as_tensor(self.mask_value, dtype=x.dtype, device=x.device), dim=-1)

    def compute_mask(self, inputs, mask=None):
        return _wrap(self._keep(input_storage(inputs)))

    def call(self, inputs):
        from tfcompat.keras.layers.base import _set_mask
        x = input_storage(inputs)
        keep = self._keep(x)
        out = _wrap(torch.where(keep.unsqueeze(-1), x, torch.zeros((), dtype=x.dtype, device=x.device)))
        _set_mask(out, _wrap(keep))
        return out

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["mask_value"] = self.mask_value
        return config
