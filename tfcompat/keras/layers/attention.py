"""Attention layers: EinsumDense, MultiHeadAttention, Attention, AdditiveAttention (Keras 3 weight layouts)."""
import math
import re
import string

import torch

from tfcompat.framework.export import unsupported_args
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import activations, constraints, initializers, regularizers
from tfcompat.keras import variables as kvars
from tfcompat.keras.layers.base import Layer, _in_own_scope, _null
from tfcompat.keras.saving_utils import serialize_keras_object as _ser

_LARGE_NEGATIVE = -1e9


def _einsum_shapes(equation, bias_axes, input_shape, output_shape):
    """Keras 3's kernel shape, bias shape and full output shape of an EinsumDense equation."""
    left = equation.startswith("...")
    m = re.fullmatch(r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", equation.replace("...", ""))
    if m is None or ("..." in equation and not (left or equation.split(",")[0].endswith("..."))):
        raise NotImplementedError(f"tfcompat: EinsumDense equation {equation!r} is not supported")
    in_spec, w_spec, out_spec = m.groups()
    input_shape = list(input_shape)
    elided = len(input_shape) - len(in_spec)
    out = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    out.insert(0, input_shape[0])
    if elided > 0 and left:
        out[1:1] = input_shape[1:elided]
    elif elided > 0:
        out.extend(input_shape[len(input_shape) - elided:])
    off = elided if left else 0
    in_map = {d: i + off for i, d in enumerate(in_spec)}
    out_map = {d: i + off for i, d in enumerate(out_spec)}
    for d in in_spec:
        if d in out_map and out[out_map[d]] is not None and out[out_map[d]] != input_shape[in_map[d]]:
            raise ValueError(f"Input shape and output shape do not match at shared dimension '{d}'. Input shape "
                             f"is {input_shape[in_map[d]]}, and output shape is {out[out_map[d]]}.")
    kernel = []
    for d in w_spec:
        if d in out_map:
            kernel.append(out[out_map[d]])
        elif d in in_map:
            kernel.append(input_shape[in_map[d]])
        else:
            raise ValueError(f"Weight dimension '{d}' did not have a match in either the input spec '{in_spec}' "
                             f"or the output spec '{out_spec}'. For this layer, the weight must be fully specified.")
    bias = None
    if bias_axes:
        for c in bias_axes:
            if c not in out_spec:
                raise ValueError(f"Bias dimension '{c}' was requested, but is not part of the output spec "
                                 f"'{out_spec}'")
        first = min(out_spec.find(c) for c in bias_axes)
        bias = [out[out_map[c]] if c in bias_axes else 1 for c in out_spec[first:]]
        if not left:
            bias += [1] * max(elided, 0)
    return kernel, bias, out


def _tf_dropout(x, rate, seed_generator):
    """TF's stateless_dropout of torch tensor `x` on a SeedGenerator (Keras's TF backend), differentiable in x."""
    if rate >= 1:
        return torch.zeros_like(x)
    from tfcompat.framework.tensor import storage
    from tfcompat.keras.random import dropout_keep_mask
    keep = storage(dropout_keep_mask(tuple(x.shape), rate, x.dtype, seed=seed_generator)).to(x.device)
    scaled = x * torch.tensor(1 / (1 - rate), dtype=x.dtype, device=x.device)
    return torch.where(keep, scaled, torch.zeros((), dtype=x.dtype, device=x.device))


@unsupported_args("lora_rank")
class EinsumDense(Layer):
    """A dense layer whose contraction is an einsum `equation` (`"ab,bc->ac"`); kernel shaped by the equation."""
    _promotes_int_inputs = True

    def __init__(self, equation, output_shape, activation=None, bias_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, lora_alpha=None, **kwargs):
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = tuple(output_shape) if isinstance(output_shape, (list, tuple)) \
            else (output_shape,)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def build(self, input_shape):
        kernel, bias, _ = _einsum_shapes(self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        init = self.kernel_initializer
        if isinstance(init, initializers.VarianceScaling) and (init.input_axes is None or init.output_axes is None):
            # Keras 3: the fans count the kernel's input and output axes (a clone with the same concrete seed)
            _, w_spec, out_spec = re.fullmatch(r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)",
                                               self.equation.replace("...", "")).groups()
            config = {**init.get_config(), "seed": init.seed,
                      "input_axes": [i for i, d in enumerate(w_spec) if d not in out_spec],
                      "output_axes": [i for i, d in enumerate(w_spec) if d in out_spec]}
            init = type(init).from_config(config)
        self._kernel = self.add_weight(name="kernel", shape=kernel, initializer=init,
                                       regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight(name="bias", shape=bias, initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if bias is not None else None
        self.built = True

    @property
    def kernel(self):
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        return self._kernel

    def call(self, inputs, training=None):
        x = input_storage(inputs)
        k = self._kernel._read()
        out = torch.einsum(self.equation, x, k.to(x.dtype))
        if self.bias is not None:
            out = out + self.bias._read().to(x.dtype)
        out = _wrap(out)
        return out if self.activation is activations.linear else self.activation(out)

    def compute_output_shape(self, input_shape):
        return tuple(_einsum_shapes(self.equation, self.bias_axes, input_shape, self.partial_output_shape)[2])

    def get_config(self):
        config = super().get_config()
        config.update({
            "output_shape": self.partial_output_shape, "equation": self.equation,
            "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
            "kernel_initializer": _ser(self.kernel_initializer), "bias_initializer": _ser(self.bias_initializer),
            "kernel_regularizer": _ser(self.kernel_regularizer), "bias_regularizer": _ser(self.bias_regularizer),
            "activity_regularizer": _ser(self.activity_regularizer),
            "kernel_constraint": _ser(self.kernel_constraint), "bias_constraint": _ser(self.bias_constraint),
            "quantization_config": None})
        return config


def _proj_equation(free_dims, bound_dims, output_dims):
    """Keras 3's projection einsum: `free` dims kept, `bound` dims contracted, `output` dims produced."""
    letters = string.ascii_lowercase
    free = letters[:free_dims]
    bound = letters[free_dims:free_dims + bound_dims]
    outs = letters[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{outs}->{free}{outs}", outs, free_dims + output_dims


def _attention_equations(rank, attn_axes):
    """Einsums `key,query->scores` and `scores,value->output` over `attn_axes` of rank-`rank` projections."""
    letters = string.ascii_lowercase
    target = letters[:rank]
    batch = [i for i in range(rank) if i not in attn_axes and i != rank - 1]
    source, offset = "", rank
    for i in range(rank):
        if i in batch or i == rank - 1:
            source += target[i]
        else:
            source += letters[offset]
            offset += 1
    product = "".join([target[i] for i in batch] + [target[i] for i in attn_axes] + [source[i] for i in attn_axes])
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


class MultiHeadAttention(Layer):
    """Multi-head scaled dot-product attention (Vaswani et al.), projections as Keras 3 EinsumDense sublayers."""

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, sliding_window=None, flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None, **kwargs):
        if not isinstance(num_heads, int) or num_heads <= 0:
            raise ValueError(f"Received an invalid value for argument `num_heads`, expected a positive integer. "
                             f"Received: num_heads={num_heads}")
        if not isinstance(key_dim, int) or key_dim <= 0:
            raise ValueError(f"Received an invalid value for argument `key_dim`, expected a positive integer. "
                             f"Received: key_dim={key_dim}")
        if value_dim is not None and (not isinstance(value_dim, int) or value_dim <= 0):
            raise ValueError(f"Received an invalid value for argument `value_dim`, expected a positive integer or "
                             f"`None`. Received: value_dim={value_dim}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout, self._use_bias, self.seed = dropout, use_bias, seed
        if output_shape:
            output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self._output_shape = output_shape
        if isinstance(attention_axes, int):
            attention_axes = (attention_axes,)
        elif attention_axes and not isinstance(attention_axes, (list, tuple)):
            raise ValueError(f"`attention_axes` must be an int, list, or tuple.Received: "
                             f"attention_axes={attention_axes}")
        self._attention_axes = attention_axes
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(key_dim))
        self._use_gate = use_gate
        if sliding_window is not None and (not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError(f"`sliding_window` must be `None` or a positive integer. Received: "
                             f"sliding_window={sliding_window}")
        self._sliding_window = sliding_window
        from tfcompat.keras import config as kconfig
        self._flash_attention = flash_attention or kconfig.is_flash_attention_enabled()
        if self._flash_attention and self._dropout > 0.0:
            raise ValueError("Dropout is not supported when flash attention is enabled. Please set dropout to 0.0 to "
                             "use flash attention.")

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

    def _dense(self, rank, bound, out_dims, name, activation=None):
        equation, bias_axes, out_rank = _proj_equation(rank - 1, bound, len(out_dims))
        kw = {}
        for key in ("kernel_initializer", "bias_initializer"):
            init = getattr(self, "_" + key)
            kw[key] = type(init).from_config(init.get_config())
        return EinsumDense(equation, output_shape=[None] * (out_rank - 1 - len(out_dims)) + list(out_dims),
                           bias_axes=bias_axes if self._use_bias else None, name=name, activation=activation,
                           kernel_regularizer=self._kernel_regularizer, bias_regularizer=self._bias_regularizer,
                           activity_regularizer=self._activity_regularizer, kernel_constraint=self._kernel_constraint,
                           bias_constraint=self._bias_constraint, dtype=self._dtype_policy.name, **kw)

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = tuple(query_shape if value_shape is None else value_shape)
        key_shape = value_shape if key_shape is None else tuple(key_shape)
        query_shape = tuple(query_shape)
        if value_shape[1:-1] != key_shape[1:-1]:
            raise ValueError(f"All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={value_shape} and key_shape={key_shape}")
        self._query_dense = self._dense(len(query_shape), 1, [self._num_heads, self._key_dim], "query")
        self._query_dense.build(query_shape)
        self._key_dense = self._dense(len(key_shape), 1, [self._num_heads, self._key_dim], "key")
        self._key_dense.build(key_shape)
        if self._use_gate:
            self._gate_dense = self._dense(len(query_shape), 1, [self._num_heads, self._value_dim], "gate", "sigmoid")
            self._gate_dense.build(query_shape)
        self._value_dense = self._dense(len(value_shape), 1, [self._num_heads, self._value_dim], "value")
        self._value_dense.build(value_shape)
        if self._dropout > 0:   # Keras's attention Dropout layer's SeedGenerator (Python's random when unseeded)
            from tfcompat.keras.random import SeedGenerator
            self._dropout_seed_generator = SeedGenerator(self.seed)
        rank = len(value_shape) + 1
        axes = tuple(range(1, rank - 2)) if self._attention_axes is None else tuple(
            a if a >= 0 else (rank - 1) + a for a in self._attention_axes)
        self._attention_axes = axes
        self._dot_product_equation, self._combine_equation, scores_rank = _attention_equations(rank, axes)
        self._norm_axes = tuple(range(scores_rank - len(axes), scores_rank))
        out_dims = self._output_shape or [query_shape[-1]]
        self._output_dense = self._dense(len(query_shape), 2, list(out_dims), "attention_output")
        dense_in = list(self._query_dense.compute_output_shape(query_shape))
        dense_in[-1] = self._value_dim
        self._output_dense.build(tuple(dense_in))
        self.built = True

    def get_build_config(self):
        """Keras 3's `{"shapes_dict": {"query_shape", "value_shape"[, "key_shape"]}}` (the shapes it was built with)."""
        shapes = self.__dict__.get("_build_shapes_dict")       # the shapes `build` was called with
        if shapes is None:
            return None
        return {"shapes_dict": {k: v for k, v in shapes.items() if v is not None}}

    def __call__(self, *args, **kwargs):
        given = dict(zip(("query", "value", "key"), args))
        for name in ("query", "value", "key"):
            if name in kwargs:
                if name in given:
                    raise TypeError(f"multiple values for argument '{name}'")
                given[name] = kwargs.pop(name)
        for name in ("query", "value"):
            if name not in given:       # Keras binds the call's signature first
                raise TypeError(f"missing a required argument: '{name}'")
        query, value, key = given["query"], given["value"], given.get("key")
        # the call as given (a node records `mha(q, v)` with two arguments); keywords become positions
        positional = args if len(args) >= len(given) else (query, value, key)[:max(len(given), 2)]
        if not self.built:
            shapes = [None if t is None else tuple(t.shape) for t in (query, value, key)]
            with kvars.name_scope(self.name) if not _in_own_scope(self) else _null():
                self.build(*shapes)
        return super().__call__(*positional, *args[len(positional):], **kwargs)

    def _causal_mask(self, t, s, device):
        return torch.ones((1, t, s), dtype=torch.bool, device=device).tril()

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None, use_causal_mask=False):
        if key is None:
            key = value
        if self._flash_attention and return_attention_scores:
            raise ValueError("Returning attention scores is not supported when flash attention is enabled. Please "
                             "disable flash attention to access attention scores.")
        if self._flash_attention:       # Keras's TF backend has no flash attention kernel
            raise ValueError("Flash attention is not supported in tensorflow backend.")
        q_len, v_len = query.shape[1], value.shape[1]
        mask = None
        for m, axis in ((query_mask, -1), (value_mask, -2), (key_mask, -2)):
            if m is not None:
                m = input_storage(m).bool().unsqueeze(axis)
                mask = m if mask is None else mask & m
        gate = input_storage(self._gate_dense(query)) if self._use_gate else None
        q = input_storage(self._query_dense(query))
        k = input_storage(self._key_dense(key))
        v = input_storage(self._value_dense(value))
        if use_causal_mask:
            causal = self._causal_mask(q_len, v_len, q.device)
            mask = causal if mask is None else mask & causal
        if self._sliding_window is not None:    # Keras: keys less than sliding_window positions away
            rows = torch.arange(q_len, device=q.device).reshape(1, q_len, 1)
            cols = torch.arange(v_len, device=q.device).reshape(1, 1, v_len)
            window = (rows - cols).abs() < self._sliding_window
            mask = window if mask is None else mask & window
        if attention_mask is not None:
            am = input_storage(attention_mask).bool()
            mask = am if mask is None else am & mask
        scores = torch.einsum(self._dot_product_equation, k, q * self._inverse_sqrt_key_dim)
        if mask is not None:
            for _ in range(scores.ndim - mask.ndim):
                mask = mask.unsqueeze(-len(self._attention_axes) * 2 - 1)
            scores = scores.masked_fill(~mask, _LARGE_NEGATIVE)
        dims = self._norm_axes
        probs = torch.softmax(scores, dims[0]) if len(dims) == 1 else torch.exp(
            scores - torch.logsumexp(scores, dim=dims, keepdim=True))
        if mask is not None:
            probs = probs.masked_fill(~mask, 0.0)
        applied = probs
        if training and self._dropout > 0:
            applied = _tf_dropout(probs, self._dropout, self._dropout_seed_generator)
        combined = torch.einsum(self._combine_equation, applied, v)
        out = self._output_dense(_wrap(combined * gate if gate is not None else combined))
        return (out, _wrap(probs)) if return_attention_scores else out

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        query_shape = tuple(query_shape)
        return query_shape[:-1] + self._output_shape if self._output_shape else query_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "num_heads": self._num_heads, "key_dim": self._key_dim, "value_dim": self._value_dim,
            "dropout": self._dropout, "use_bias": self._use_bias, "use_gate": self._use_gate,
            "output_shape": self._output_shape, "attention_axes": self._attention_axes,
            "sliding_window": self._sliding_window,
            "kernel_initializer": _ser(self._kernel_initializer), "bias_initializer": _ser(self._bias_initializer),
            "kernel_regularizer": _ser(self._kernel_regularizer), "bias_regularizer": _ser(self._bias_regularizer),
            "activity_regularizer": _ser(self._activity_regularizer),
            "kernel_constraint": _ser(self._kernel_constraint), "bias_constraint": _ser(self._bias_constraint),
            "seed": self.seed})
        return config


class Attention(Layer):
    """Luong-style attention over `[query, value(, key)]`: softmax(score(query, key)) @ value."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, dropout, seed
        if dropout > 0:     # Keras's SeedGenerator (seeded from Python's random when None)
            from tfcompat.keras.random import SeedGenerator
            self._seed_generator = SeedGenerator(seed)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Invalid value for argument score_mode. Expected one of {{'dot', 'concat'}}. "
                             f"Received: score_mode={score_mode}")
        self.supports_masking = True

    def _validate_inputs(self, inputs, mask=None):
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                             f"[query, value, key]. Received: inputs={inputs}.")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                             f"[query, value, key]. Received length: {len(inputs)}.")
        if mask is not None:
            if not isinstance(mask, list):
                raise ValueError(f"{name} layer mask must be a list, namely [query_mask, value_mask]. "
                                 f"Received: mask={mask}.")
            if len(mask) < 2 or len(mask) > 3:
                raise ValueError(f"{name} layer accepts mask list of length 2 or 3. Received: inputs={inputs}, "
                                 f"mask={mask}.")

    def build(self, input_shape):
        self._validate_inputs(list(input_shape))
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones") if self.use_scale else None
        self.concat_score_weight = self.add_weight(name="concat_score_weight", shape=(), initializer="ones") \
            if self.score_mode == "concat" else None
        self.built = True

    def _scores(self, q, k):
        if self.score_mode == "dot":
            scores = torch.matmul(q, k.transpose(-2, -1))
            return scores * self.scale._read() if self.scale is not None else scores
        summed = q.unsqueeze(-2) + k.unsqueeze(-3)
        if self.scale is not None:
            summed = self.scale._read() * summed
        return self.concat_score_weight._read() * torch.tanh(summed).sum(-1)

    def call(self, inputs, mask=None, training=False, return_attention_scores=False, use_causal_mask=False):
        self._validate_inputs(inputs, mask)
        q, v = input_storage(inputs[0]), input_storage(inputs[1])
        k = input_storage(inputs[2]) if len(inputs) > 2 else v
        q_mask = input_storage(mask[0]).bool() if mask and mask[0] is not None else None
        v_mask = input_storage(mask[1]).bool() if mask and mask[1] is not None else None
        scores = self._scores(q, k)
        if v_mask is not None:
            v_mask = v_mask.unsqueeze(-2)
        if use_causal_mask:
            causal = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device).tril()
            v_mask = causal if v_mask is None else v_mask & causal
        if v_mask is not None:
            scores = torch.where(v_mask, scores, scores - 1.0e9)
        weights = torch.softmax(scores, -1)
        applied = weights
        if training and self.dropout > 0:
            applied = _tf_dropout(weights, self.dropout, self._seed_generator)
        out = torch.matmul(applied, v)
        if q_mask is not None:
            out = torch.where(q_mask.unsqueeze(-1), out, 0.0)
        return (_wrap(out), _wrap(weights)) if return_attention_scores else _wrap(out)

    def compute_mask(self, inputs, mask=None):
        self._validate_inputs(inputs, mask)
        return None if mask is None or mask[0] is None else mask[0]

    def compute_output_shape(self, input_shape):
        return (*input_shape[0][:-1], input_shape[1][-1])

    def get_config(self):
        config = super().get_config()
        config.update({"use_scale": self.use_scale, "score_mode": self.score_mode, "dropout": self.dropout,
                       "seed": self.seed})
        return config


class AdditiveAttention(Attention):
    """Bahdanau-style attention: scores `sum(scale * tanh(query + key))`, `scale` a `(dim,)` weight."""

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate_inputs(list(input_shape))
        self.scale = self.add_weight(name="scale", shape=(input_shape[0][-1],), initializer="glorot_uniform") \
            if self.use_scale else None
        self.concat_score_weight = None
        self.built = True

    def _scores(self, q, k):
        t = torch.tanh(q.unsqueeze(-2) + k.unsqueeze(-3))
        return (t * self.scale._read() if self.scale is not None else t).sum(-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
