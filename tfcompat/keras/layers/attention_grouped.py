"""Keras 3's grouped-query attention (`keras.layers.GroupQueryAttention`): `num_query_heads` query heads share
`num_key_value_heads` key/value heads (each repeated `num_query_heads / num_key_value_heads` times), with
Keras's EinsumDense sublayers `query`, `key`, (`gate`), `value`, `attention_output` and their weight paths."""
import math

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import constraints, initializers, regularizers
from tfcompat.keras import variables as kvars
from tfcompat.keras.layers.attention import _LARGE_NEGATIVE, EinsumDense
from tfcompat.keras.layers.base import Layer, _in_own_scope, _null
from tfcompat.keras.saving_utils import serialize_keras_object as _ser


class GroupedQueryAttention(Layer):
    """`keras.layers.GroupQueryAttention`: grouped-query attention (Ainslie et al., 2023); `sliding_window` limits
    each query to keys less than that many positions away, `use_gate` multiplies the heads' outputs by a sigmoid
    gate of the query."""

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0, use_bias=True,
                 sliding_window=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)      # also on the output, as Keras
        self.supports_masking = True
        self.head_dim, self.num_query_heads, self.num_key_value_heads = head_dim, num_query_heads, num_key_value_heads
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`.")
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout, self.use_bias, self.use_gate = dropout, use_bias, use_gate
        if sliding_window is not None and (not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError(f"`sliding_window` must be `None` or a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        self.sliding_window = sliding_window
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self._sub_activity_regularizer = regularizers.get(activity_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(head_dim))
        from tfcompat.keras import config as kconfig
        self._flash_attention = flash_attention or kconfig.is_flash_attention_enabled()
        if self._flash_attention and self.dropout > 0.0:
            raise ValueError("Dropout is not supported when flash attention is enabled. Please set dropout to 0.0 to "
                             "use flash attention.")

    def _dense(self, equation, heads, bias_axes, name, activation=None):
        kw = {k: type(getattr(self, k)).from_config(getattr(self, k).get_config())
              for k in ("kernel_initializer", "bias_initializer")}
        return EinsumDense(equation, output_shape=(None, heads, self.head_dim) if heads else (None, self.feature_dim),
                           bias_axes=bias_axes if self.use_bias else None, activation=activation, name=name,
                           kernel_regularizer=self.kernel_regularizer, bias_regularizer=self.bias_regularizer,
                           activity_regularizer=self._sub_activity_regularizer,
                           kernel_constraint=self.kernel_constraint, bias_constraint=self.bias_constraint,
                           dtype=self._dtype_policy.name, **kw)

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        self._query_dense = self._dense("bqm,muh->bquh", self.num_query_heads, "uh", "query")
        self._query_dense.build(tuple(query_shape))
        self._key_dense = self._dense("bkm,mvh->bkvh", self.num_key_value_heads, "vh", "key")
        self._key_dense.build(tuple(key_shape))
        if self.use_gate:
            self._gate_dense = self._dense("bqm,muh->bquh", self.num_query_heads, "uh", "gate", "sigmoid")
            self._gate_dense.build(tuple(query_shape))
        self._value_dense = self._dense("bkm,mvh->bkvh", self.num_key_value_heads, "vh", "value")
        self._value_dense.build(tuple(value_shape))
        self._output_dense = self._dense("bquh,uhm->bqm", 0, "m", "attention_output")
        self._output_dense.build((None, None, self.num_query_heads, self.head_dim))
        self.built = True

    def get_build_config(self):
        shapes = self.__dict__.get("_build_shapes_dict")
        if shapes is None:
            return None
        return {"shapes_dict": {k: v for k, v in shapes.items() if v is not None}}

    def __call__(self, query=None, value=None, key=None, **kwargs):
        if not self.built:
            shapes = [None if t is None else tuple(t.shape) for t in (query, value, key)]
            with kvars.name_scope(self.name) if not _in_own_scope(self) else _null():
                self.build(*shapes)
        return super().__call__(query, value, key, **kwargs)

    def _mask(self, q_len, v_len, device, query_mask, value_mask, key_mask, attention_mask, use_causal_mask):
        """Keras's `_compute_attention_mask`: (batch or 1, q_len, v_len) booleans, or None."""
        auto = None
        for m, axis in ((query_mask, -1), (value_mask, -2), (key_mask, -2)):
            if m is not None:
                m = input_storage(m).bool().unsqueeze(axis)
                auto = m if auto is None else auto & m
        if use_causal_mask:
            causal = torch.ones((1, q_len, v_len), dtype=torch.bool, device=device).tril()
            auto = causal if auto is None else auto & causal
        if self.sliding_window is not None:
            rows = torch.arange(q_len, device=device).reshape(1, q_len, 1)
            cols = torch.arange(v_len, device=device).reshape(1, 1, v_len)
            window = (rows - cols).abs() < self.sliding_window
            auto = window if auto is None else auto & window
        if attention_mask is not None:
            am = input_storage(attention_mask).bool()
            return am if auto is None else am & auto
        return auto

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None, use_causal_mask=False):
        if key is None:
            key = value
        if self._flash_attention and return_attention_scores:
            raise ValueError("Returning attention scores is not supported when flash attention is enabled. Please "
                             "disable flash attention to access attention scores.")
        if self._flash_attention:       # Keras's TF backend has no flash attention kernel
            raise ValueError("Flash attention is not supported in tensorflow backend.")
        gate = input_storage(self._gate_dense(query)) if self.use_gate else None
        q = input_storage(self._query_dense(query))
        k = input_storage(self._key_dense(key)).repeat_interleave(self.num_repeats, dim=2)
        v = input_storage(self._value_dense(value)).repeat_interleave(self.num_repeats, dim=2)
        mask = self._mask(q.shape[1], v.shape[1], q.device, query_mask, value_mask, key_mask, attention_mask,
                          use_causal_mask)
        scores = torch.einsum("bquh,bkuh->buqk", q * self._inverse_sqrt_head_dim, k)
        if mask is not None:
            while mask.ndim < scores.ndim:
                mask = mask.unsqueeze(-3)
            scores = scores.masked_fill(~mask, _LARGE_NEGATIVE)
        probs = torch.softmax(scores, -1)
        if mask is not None:
            probs = probs.masked_fill(~mask, 0.0)
        applied = probs
        if training and self.dropout > 0:
            from tfcompat.ops import random_ops
            gen = random_ops.generator_for(self.seed, probs.device)
            keep = torch.rand(probs.shape, generator=gen, device=probs.device) >= self.dropout
            applied = probs * keep.to(probs.dtype) / (1.0 - self.dropout)
        out = torch.einsum("buqk,bkuh->bquh", applied, v)
        if gate is not None:
            out = out * gate
        out = self._output_dense(_wrap(out))
        return (out, _wrap(probs)) if return_attention_scores else out

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError(f"The last dimension of `query_shape` and `value_shape` must be equal, but are "
                             f"{query_shape[-1]}, {value_shape[-1]}. Received: query_shape={query_shape}, "
                             f"value_shape={value_shape}")
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError(f"All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={value_shape} and key_shape={key_shape}")
        return query_shape

    def get_config(self):
        config = {
            "head_dim": self.head_dim, "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads, "use_bias": self.use_bias, "use_gate": self.use_gate,
            "sliding_window": self.sliding_window, "dropout": self.dropout,
            "kernel_initializer": _ser(self.kernel_initializer), "bias_initializer": _ser(self.bias_initializer),
            "kernel_regularizer": _ser(self.kernel_regularizer), "bias_regularizer": _ser(self.bias_regularizer),
            "activity_regularizer": _ser(self._sub_activity_regularizer),
            "kernel_constraint": _ser(self.kernel_constraint), "bias_constraint": _ser(self.bias_constraint),
            "seed": self.seed,
        }
        base = super().get_config()
        base.pop("activity_regularizer", None)
        return {**base, **config}


GroupQueryAttention = GroupedQueryAttention      # Keras's exported name
