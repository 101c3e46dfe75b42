"""Layer wrappers: the `Wrapper` base, Bidirectional (an RNN run forwards and backwards) and TimeDistributed."""
import inspect

import torch

from tfcompat.framework.export import unsupported_args
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import variables as kvars
from tfcompat.keras.layers.base import Layer, _in_own_scope, _null
from tfcompat.keras.saving_utils import deserialize_keras_object, serialize_keras_object as _ser

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


def build_child(parent, layer, input_shape):
    """Builds sub-layer `layer` of `parent` in their name scopes (Keras 3's weight paths `parent/child/name`)."""
    if layer.built:
        return
    with kvars.name_scope(parent.name) if not _in_own_scope(parent) else _null():
        with kvars.name_scope(layer.name):
            layer.build(input_shape)
    layer.built = True


def _renamed_copy(layer, prefix, go_backwards=None):
    config = _ser(layer)
    config.pop("build_config", None)
    name = layer.name[len(prefix):] if layer.name.startswith(prefix) else layer.name
    config["config"]["name"] = prefix + name
    if go_backwards is not None:
        config["config"]["go_backwards"] = go_backwards
    return deserialize_keras_object(config)


@unsupported_args("weights")
class Bidirectional(Layer):
    """Runs `layer` forwards and a copy with `go_backwards=True`, merging the outputs (`merge_mode`)."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError(f"`backward_layer` need to be a `keras.layers.Layer` instance. "
                             f"Received: {backward_layer}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        super().__init__(**kwargs)
        self.forward_layer = _renamed_copy(layer, "forward_")
        self.backward_layer = _renamed_copy(layer, "backward_", True) if backward_layer is None else backward_layer
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different `go_backwards` value. "
                             f"Received: forward_layer.go_backwards {self.forward_layer.go_backwards}, "
                             f"backward_layer.go_backwards={self.backward_layer.go_backwards}")
        for sub in (self.forward_layer, self.backward_layer):
            if getattr(sub, "zero_output_for_mask", None) is not None:
                sub.zero_output_for_mask = sub.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.stateful = layer.stateful
        self.supports_masking = True

    def build(self, sequences_shape, initial_state_shape=None):
        build_child(self, self.forward_layer, sequences_shape)
        build_child(self, self.backward_layer, sequences_shape)
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=None):
        fwd_state = bwd_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fwd_state, bwd_state = list(initial_state[:half]), list(initial_state[half:])
        y = self.forward_layer(sequences, initial_state=fwd_state, mask=mask, training=training)
        y_rev = self.backward_layer(sequences, initial_state=bwd_state, mask=mask, training=training)
        states = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        a, b = input_storage(y), input_storage(y_rev)
        if self.return_sequences:
            b = b.flip(1)
        if self.merge_mode == "concat":
            output = _wrap(torch.cat([a, b], -1))
        elif self.merge_mode == "sum":
            output = _wrap(a + b)
        elif self.merge_mode == "ave":
            output = _wrap((a + b) / 2)
        elif self.merge_mode == "mul":
            output = _wrap(a * b)
        else:
            output = (_wrap(a), _wrap(b))
        if self.return_state:
            return output + states if self.merge_mode is None else (output,) + states
        return output

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences else None

    def get_config(self):
        config = {"merge_mode": self.merge_mode, "layer": _ser(self.forward_layer),
                  "backward_layer": _ser(self.backward_layer)}
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = deserialize_keras_object(config.pop("layer"), custom_objects=custom_objects)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            backward = deserialize_keras_object(backward, custom_objects=custom_objects)
        return cls(layer, backward_layer=backward, **config)


class Wrapper(Layer):
    """Base of the layers that wrap another layer (`self.layer`, serialized in the config as `layer`)."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure "
                             f"wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        build_child(self, self.layer, input_shape)
        self.built = True

    def get_config(self):
        return {**super().get_config(), "layer": _ser(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = deserialize_keras_object(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


def _per_sample(layer):
    """Built-in layers whose output for a sample depends on that sample only (no batch statistics, no random
    draws): TimeDistributed may run them once over `(batch * time, ...)`, which equals Keras's call per step."""
    from tfcompat.keras.layers.conv import BaseConv
    from tfcompat.keras.layers.core import Activation, Flatten
    from tfcompat.keras.layers.pooling import _GlobalPooling, _Pooling
    return type(layer).__module__.startswith("tfcompat.") and isinstance(
        layer, (BaseConv, _Pooling, _GlobalPooling, Flatten, Activation))


class TimeDistributed(Wrapper):
    """Applies `layer` to every time step (axis 1) of its input."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def build(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 "
                             f"dimensions, received: {input_shape}")
        build_child(self, self.layer, (input_shape[0], *input_shape[2:]))
        self.built = True

    def call(self, inputs, training=None, mask=None):
        from tfcompat.keras.layers.core import Dense
        x = input_storage(inputs)
        m = None
        if mask is not None:
            m = input_storage(mask)
            if m.ndim < 2:
                raise ValueError(f"The `mask` passed to the `TimeDistributed` layer must be at least 2D (e.g., "
                                 f"`(batch_size, timesteps)`), but it has {m.ndim} dimension(s) with shape "
                                 f"{tuple(m.shape)}.")
            if tuple(m.shape[:2]) != tuple(x.shape[:2]):
                raise ValueError(f"The `mask` passed to the `TimeDistributed` layer has a shape {tuple(m.shape)} that "
                                 f"is incompatible with the input shape {tuple(x.shape)}. The first two dimensions of "
                                 f"the mask (batch size and timesteps) must match the input's first two dimensions. "
                                 f"Expected mask shape prefix: ({x.shape[0]}, {x.shape[1]}).")
        if type(self.layer) is Dense or _per_sample(self.layer):    # one call on (batch * time, ...)
            y = input_storage(self.layer(_wrap(x.reshape(-1, *x.shape[2:]))))
            return _wrap(y.reshape(x.shape[0], x.shape[1], *y.shape[1:]))
        params = inspect.signature(self.layer.call).parameters
        kwargs = {"training": training} if "training" in params else {}
        xs = x.unbind(1)        # one unbind: each step's `x[:, t]` made a full-size zero gradient
        if m is not None and "mask" in params:       # Keras: the layer's `call` itself, with each step's mask
            steps = [input_storage(self.layer.call(_wrap(xt), mask=_wrap(mt), **kwargs))
                     for xt, mt in zip(xs, m.unbind(1))]
            return _wrap(torch.stack(steps, 1))
        steps = [input_storage(self.layer(_wrap(xt), **kwargs)) for xt in xs]
        return _wrap(torch.stack(steps, 1))
