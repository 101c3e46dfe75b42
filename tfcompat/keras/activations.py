"""`tf.keras.activations` (Keras 3): elementwise activations computed with torch on tensor storages.

`softmax` and `sigmoid` remember their input logits for their output (Keras's `_keras_logits`), so
Keras losses given such an output compute from the logits, as Keras 3 on TF does.
"""
import weakref

import torch
import torch.nn.functional as F

from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.ops import nn_ops

_LOGITS = {}     # id(output tensor) -> (weakref to the output, logits tensor)


def _remember_logits(output, logits):
    key = id(output)
    _LOGITS[key] = (weakref.ref(output, lambda _: _LOGITS.pop(key, None)), logits)
    return output


def keras_logits(output):
    """The logits a Keras `softmax`/`sigmoid` output was computed from, or None."""
    entry = _LOGITS.get(id(output))
    if entry is not None and entry[0]() is output:
        return entry[1]
    return None


def _float_input(x):
    t = input_storage(x)
    return t if t.is_floating_point() else t.to(torch.float32)


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """`max(x, 0)` with Keras's `negative_slope`, `max_value` and `threshold` options."""
    t = input_storage(x)
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return wrap(F.leaky_relu(t, negative_slope))
        negative_part = torch.relu(-t + threshold) if threshold != 0 else torch.relu(-t)
    clip_max = max_value is not None
    if threshold != 0:
        out = torch.where(t > threshold, t, torch.zeros((), dtype=t.dtype, device=t.device))
    elif max_value == 6:
        out = F.relu6(t)        # TF's Relu6 (its gradient is 0 at both ends, as TF's)
        clip_max = False
    else:
        out = torch.relu(t)
    if clip_max:
        out = torch.clamp(out, 0.0, max_value)
    if negative_slope != 0.0:
        out = out - negative_slope * negative_part
    return wrap(out)


def leaky_relu(x, negative_slope=0.2):
    return wrap(F.leaky_relu(input_storage(x), negative_slope))


def relu6(x):
    return wrap(F.relu6(input_storage(x)))


def softmax(x, axis=-1):
    """`exp(x) / sum(exp(x), axis)`; the output remembers `x` as its logits."""
    t = input_storage(x)
    out = torch.softmax(t.reshape(-1), 0).reshape(t.shape) if axis is None else torch.softmax(t, axis)
    return _remember_logits(wrap(out), x)


def log_softmax(x, axis=-1):
    return wrap(torch.log_softmax(input_storage(x), axis))


def sigmoid(x):
    """`1 / (1 + exp(-x))`; the output remembers `x` as its logits."""
    return _remember_logits(wrap(torch.sigmoid(input_storage(x))), x)


def tanh(x):
    return wrap(torch.tanh(input_storage(x)))


def elu(x, alpha=1.0):
    return wrap(F.elu(input_storage(x), alpha))


def selu(x):
    return nn_ops.selu(x)


def gelu(x, approximate=False):
    """TF's `0.5 * x * (1 + erf(x / sqrt(2)))`, or its tanh approximation (same operation order as TF)."""
    t = _float_input(x)
    if approximate:
        inner = 0.7978845608028654 * (t + 0.044715 * torch.pow(t, 3))
        return wrap(0.5 * t * (1.0 + torch.tanh(inner)))
    return wrap(0.5 * t * (1.0 + torch.erf(t / 1.4142135623730951)))


def silu(x):
    return wrap(F.silu(input_storage(x)))


swish = silu


def softplus(x):
    return wrap(F.softplus(input_storage(x)))


def softsign(x):
    return wrap(F.softsign(input_storage(x)))


def exponential(x):
    return wrap(torch.exp(input_storage(x)))


def hard_sigmoid(x):
    """Keras 3's `relu6(x + 3) / 6`."""
    return wrap(F.hardsigmoid(input_storage(x)))


def hard_silu(x):
    """Keras 3's `x * relu6(x + 3) / 6`."""
    return wrap(F.hardswish(input_storage(x)))


hard_swish = hard_silu


def mish(x):
    t = input_storage(x)
    return wrap(t * torch.tanh(F.softplus(t)))


def log_sigmoid(x):
    return wrap(F.logsigmoid(input_storage(x)))


def celu(x, alpha=1.0):
    return wrap(F.celu(input_storage(x), alpha))


def hard_tanh(x):
    return wrap(F.hardtanh(input_storage(x)))


def tanh_shrink(x):
    t = input_storage(x)
    return wrap(t - torch.tanh(t))


def soft_shrink(x, threshold=0.5):
    return wrap(F.softshrink(input_storage(x), threshold))


def hard_shrink(x, threshold=0.5):
    return wrap(F.hardshrink(input_storage(x), threshold))


def squareplus(x, b=4):
    t = input_storage(x)
    return wrap((t + torch.sqrt(t * t + b)) / 2)


def glu(x, axis=-1):
    return wrap(F.glu(input_storage(x), axis))


def linear(x):
    return x


def sparse_plus(x):
    """0 for `x <= -1`, `(x + 1)**2 / 4` for `-1 < x < 1`, `x` above (`keras.ops.sparse_plus`)."""
    from tfcompat.keras import ops
    return ops.sparse_plus(x)


def sparse_sigmoid(x):
    """`clip((x + 1) / 2, 0, 1)` (`keras.ops.sparse_sigmoid`)."""
    from tfcompat.keras import ops
    return ops.sparse_sigmoid(x)


def sparsemax(x, axis=-1):
    """Sparsemax along `axis`, as Keras's TF backend computes it (`keras.ops.sparsemax`)."""
    from tfcompat.keras import ops
    return ops.sparsemax(x, axis)


def threshold(x, threshold, default_value):
    """`x` where `x > threshold`, else `default_value` (`keras.ops.threshold`)."""
    from tfcompat.keras import ops
    return ops.threshold(x, threshold, default_value)


_ALL = {f.__name__: f for f in (relu, leaky_relu, relu6, softmax, log_softmax, sigmoid, tanh, elu, selu, gelu, silu,
                                softplus, softsign, exponential, hard_sigmoid, hard_silu, mish, log_sigmoid, celu,
                                hard_tanh, tanh_shrink, soft_shrink, hard_shrink, squareplus, glu, linear,
                                sparse_plus, sparse_sigmoid, sparsemax, threshold)}
_ALL.update(swish=silu, hard_swish=hard_silu)


def serialize(activation):
    """A built-in activation's name; any other function (or object) as its Keras 3 config dict."""
    import types
    from tfcompat.keras.saving_utils import serialize_keras_object
    fn_config = serialize_keras_object(activation)
    if not isinstance(fn_config, dict) or "config" not in fn_config:
        raise ValueError(f"Unknown activation function '{activation}' cannot be serialized due to invalid function "
                         "name. Make sure to use an activation name that matches the references defined in "
                         "activations.py or use `@keras.saving.register_keras_serializable()`to register any custom "
                         f"activations. config={fn_config}")
    if not isinstance(activation, types.FunctionType) or \
            (isinstance(fn_config["config"], str) and fn_config["config"] not in _ALL):
        return fn_config
    return fn_config["config"]


def deserialize(config, custom_objects=None):
    """The activation a name or config dict describes."""
    from tfcompat.keras.saving_utils import deserialize_keras_object
    return deserialize_keras_object(config, custom_objects=custom_objects, module_objects=_ALL)


def get(identifier):
    """An activation from a name, a config dict or a callable; None gives `linear`."""
    if identifier is None:
        return linear
    if isinstance(identifier, dict):
        from tfcompat.keras.saving_utils import deserialize_keras_object
        fn = deserialize_keras_object(identifier)
    elif isinstance(identifier, str):
        fn = _ALL.get(identifier)
    else:
        fn = identifier
    if callable(fn):
        return fn
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")
