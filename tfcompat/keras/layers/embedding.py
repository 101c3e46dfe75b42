"""Embedding and Rescaling."""
import warnings

import torch

from tfcompat.framework import errors
from tfcompat.framework.export import unsupported_args
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import constraints, initializers, regularizers
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.saving_utils import serialize_keras_object as _ser


@unsupported_args("lora_rank")
class Embedding(Layer):
    """Maps integer ids to rows of an `(input_dim, output_dim)` matrix named `embeddings`."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, weights=None, lora_rank=None, lora_alpha=None,
                 **kwargs):
        if kwargs.pop("input_length", None) is not None:
            warnings.warn("Argument `input_length` is deprecated. Just remove it.", stacklevel=2)
        super().__init__(**kwargs)
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"`{arg}` must be a positive integer. Received: {arg}={value} "
                                 f"(of type {type(value).__name__}).")
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self._initial_weights = weights

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim), initializer=self.embeddings_initializer,
                                          name="embeddings", regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)

    def call(self, inputs):
        ids = input_storage(inputs)
        if ids.dtype not in (torch.int32, torch.int64):
            ids = ids.to(torch.int32)
        # Keras's `take`: negative ids count from the end. On the CPU the range is checked by the kernel, so a traced
        # step reads no host value (reading the ids' range made every `fit` step re-run its Python body); a CUDA
        # kernel would assert instead of raising, so there the range is read first
        ids = torch.where(ids < 0, ids + self.input_dim, ids)
        if ids.device.type != "cpu" and bool(((ids < 0) | (ids >= self.input_dim)).any()):
            raise self._out_of_range(ids)
        try:
            return _wrap(torch.nn.functional.embedding(ids, self.embeddings._read()))
        except IndexError:
            raise self._out_of_range(ids) from None

    def _out_of_range(self, ids):
        """TF's GatherV2 error for the first id outside [0, input_dim)."""
        bad = [int(i) for i in torch.nonzero((ids < 0) | (ids >= self.input_dim))[0]]
        return errors.kernel_error(errors.InvalidArgumentError, f"indices[{','.join(map(str, bad))}] = "
                                   f"{int(ids[tuple(bad)])} is not in [0, {self.input_dim})", "GatherV2", name=None)

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return _wrap(input_storage(inputs) != 0)

    def get_config(self):
        config = super().get_config()
        config.update({"input_dim": self.input_dim, "output_dim": self.output_dim,
                       "embeddings_initializer": _ser(self.embeddings_initializer),
                       "embeddings_regularizer": _ser(self.embeddings_regularizer),
                       "activity_regularizer": _ser(self.activity_regularizer),
                       "embeddings_constraint": _ser(self.embeddings_constraint), "mask_zero": self.mask_zero,
                       "quantization_config": None})
        return config


class Rescaling(Layer):
    """`x * scale + offset` (images to [0, 1]: `Rescaling(1./255)`)."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True      # built at its first call, as Keras's (its config then has a build_config)

    def call(self, inputs):
        x = input_storage(inputs)
        if not x.is_floating_point():
            x = x.to(torch.float32)
        scale, offset = (torch.as_tensor(v, dtype=x.dtype, device=x.device) if isinstance(v, (list, tuple)) else v
                         for v in (self.scale, self.offset))     # per-channel lists, as Keras casts them
        return _wrap(x * scale + offset)

    def get_config(self):
        config = super().get_config()
        config.update({"scale": self.scale, "offset": self.offset})
        return config


class ReversibleEmbedding(Embedding):
    """An Embedding that also maps vectors back to logits over the vocabulary (`reverse=True`): with the
    transposed `embeddings` (`tie_weights=True`) or its own `reverse_embeddings` `(output_dim, input_dim)`;
    `logit_soft_cap` applies `tanh(logits / cap) * cap`."""

    def __init__(self, input_dim, output_dim, tie_weights=True, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer, embeddings_constraint=embeddings_constraint,
                         mask_zero=mask_zero, **kwargs)
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(shape=(self.output_dim, self.input_dim),
                                                      initializer=self.embeddings_initializer,
                                                      name="reverse_embeddings", trainable=True)
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            result = super().call(inputs)
            if self.mask_zero:      # Keras attaches the mask itself (compute_mask gives None)
                from tfcompat.keras.layers.base import _set_mask
                _set_mask(result, _wrap(input_storage(inputs) != 0))
            return result
        x = input_storage(inputs)
        kernel = self.embeddings._read().T if self.tie_weights else self.reverse_embeddings._read()
        if self.reverse_dtype is not None:
            from tfcompat.framework import dtypes
            x = x.to(dtypes.as_dtype(self.reverse_dtype).torch_dtype)
        logits = torch.matmul(x, kernel.to(x.dtype))
        if self.logit_soft_cap is not None:
            logits = torch.tanh(logits / self.logit_soft_cap) * self.logit_soft_cap
        return _wrap(logits)

    def compute_mask(self, inputs, mask=None):
        return None

    def compute_output_shape(self, input_shape, reverse=False):
        shape = list(input_shape)
        if reverse:
            shape[-1] = self.input_dim
        else:
            shape += [self.output_dim]
        return shape

    def get_config(self):
        config = super().get_config()
        config.update({"tie_weights": self.tie_weights, "reverse_dtype": self.reverse_dtype,
                       "logit_soft_cap": self.logit_soft_cap})
        return config
