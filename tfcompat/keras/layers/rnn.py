"""Keras 3 recurrent layers: SimpleRNN/LSTM/GRU, their cells, StackedRNNCells and the generic RNN layer.

Weights and numerics follow Keras 3: kernels `(input_dim, gates * units)`, recurrent kernels
`(units, gates * units)`; LSTM gates in order i, f, c, o; GRU gates z, r, h with a `(2, 3 * units)`
bias (input bias, recurrent bias) when `reset_after=True`. The recurrence is a Python loop over time
steps with torch ops (differentiable under GradientTape); the input projection of built-in cells is
computed for all time steps in one matmul.
"""
import inspect

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras import activations, constraints, initializers, regularizers
from tfcompat.keras.engine import call_context
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_spec import InputSpec
from tfcompat.keras.layers.wrappers import build_child
from tfcompat.keras.saving_utils import serialize_keras_object as _ser
from tfcompat.util import nest

_TORCH_ACTS = {activations.tanh: torch.tanh, activations.sigmoid: torch.sigmoid,
               activations.linear: lambda t: t, activations.relu: torch.relu}


def _torch_act(fn):
    """A torch-tensor version of a Keras activation (built-ins directly, others through Tensors)."""
    act = _TORCH_ACTS.get(fn)
    return act if act is not None else (lambda t: storage(fn(_wrap(t))))


def _read(var, dtype):
    t = var._read()
    return t if t.dtype is dtype else t.to(dtype)


def _dropout_mask(shape, rate, like):
    from tfcompat.ops import random_ops
    gen = random_ops.generator_for(None, like.device)
    keep = torch.rand(shape, generator=gen, device=like.device) >= rate
    return keep.to(like.dtype) / (1.0 - rate)


class _BuiltinCell(Layer):
    """Shared machinery of Keras's SimpleRNNCell/LSTMCell/GRUCell (weights, dropout masks, config).

    Subclasses define `_gates`, `state_size`, `_bias_shape()`, `_input_bias()` and `_recur(zx, states)`,
    the step given the projected input `zx = x @ kernel (+ input bias)`.
    """
    _gates = 1
    _seed_first = False

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, "
                             f"got {units}.")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        if seed is None and self._seed_first:   # Keras's cell SeedGenerator takes Python's random (SimpleRNNCell:
            from tfcompat.keras.random import make_default_seed     # before its initializers, LSTM/GRU: after)
            make_default_seed()
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        if seed is None and not self._seed_first:
            from tfcompat.keras.random import make_default_seed
            make_default_seed()
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed
        self.output_size = self.units
        self._dp_mask = self._rec_dp_mask = None

    def build(self, input_shape):
        width = self._gates * self.units
        self.kernel = self.add_weight(shape=(input_shape[-1], width), name="kernel",
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=(self.units, width), name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = self.add_weight(shape=self._bias_shape(), name="bias", initializer=self._bias_init(),
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.built = True

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_init(self):
        return self.bias_initializer

    def _input_bias(self, dtype):
        return _read(self.bias, dtype) if self.bias is not None else None

    # -- dropout masks: one per sequence, as Keras's DropoutRNNCell ---------------------------------
    def _prepare_masks(self, x_step, h, training):
        """Creates (once per sequence) the input / recurrent dropout masks for torch step tensors."""
        if training and 0 < self.dropout < 1 and self._dp_mask is None:
            self._dp_mask = _dropout_mask(x_step.shape, self.dropout, x_step)
        if training and 0 < self.recurrent_dropout < 1 and self._rec_dp_mask is None:
            self._rec_dp_mask = _dropout_mask(h.shape, self.recurrent_dropout, h)

    def reset_dropout_mask(self):
        self._dp_mask = None

    def reset_recurrent_dropout_mask(self):
        self._rec_dp_mask = None

    def _project(self, x, training):
        """`x @ kernel + input_bias` for torch `x` of shape `(..., input_dim)` (input dropout applied)."""
        if training and self._dp_mask is not None:
            mask = self._dp_mask
            x = x * (mask if x.ndim == 2 else mask.unsqueeze(1))
        k = _read(self.kernel, x.dtype)
        b = self._input_bias(x.dtype)
        return torch.matmul(x, k) if b is None else torch.matmul(x, k) + b

    def _h_for_recurrence(self, h, training):
        return h * self._rec_dp_mask if training and self._rec_dp_mask is not None else h

    def get_initial_state(self, batch_size=None):
        sizes = self.state_size if isinstance(self.state_size, list) else [self.state_size]
        return [_wrap(torch.zeros((batch_size, s), dtype=torch.float32)) for s in sizes]

    def call(self, inputs, states, training=False):
        """One step: `(output, new_states)` (states as given: a list, or a single tensor)."""
        x = input_storage(inputs)
        nested = isinstance(states, (list, tuple))
        st = [input_storage(s) for s in (states if nested else [states])]
        self._prepare_masks(x, st[0], training)
        out, new = self._recur(self._project(x, training), st, training)
        new = [_wrap(s) for s in new]
        return _wrap(out), (new if nested or len(new) > 1 else new[0])

    def get_config(self):
        config = {"units": self.units, "activation": activations.serialize(self.activation)}
        config.update(self._extra_config_head())
        config.update({
            "use_bias": self.use_bias,
            **self._extra_config_mid(),
            "kernel_initializer": _ser(self.kernel_initializer),
            "recurrent_initializer": _ser(self.recurrent_initializer),
            "bias_initializer": _ser(self.bias_initializer),
            "kernel_regularizer": _ser(self.kernel_regularizer),
            "recurrent_regularizer": _ser(self.recurrent_regularizer),
            "bias_regularizer": _ser(self.bias_regularizer),
            "kernel_constraint": _ser(self.kernel_constraint),
            "recurrent_constraint": _ser(self.recurrent_constraint),
            "bias_constraint": _ser(self.bias_constraint),
            "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout,
        })
        config.update(self._extra_config_tail())
        config["seed"] = self.seed
        return {**super().get_config(), **config}

    def _extra_config_head(self):
        return {}

    def _extra_config_mid(self):
        return {}

    def _extra_config_tail(self):
        return {}


class SimpleRNNCell(_BuiltinCell):
    """`h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)`."""
    _seed_first = True

    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        self.state_size = self.units

    def call(self, sequence, states, training=False):      # Keras names its first argument `sequence`
        return super().call(sequence, states, training)

    def _recur(self, zx, states, training=False):
        h = self._h_for_recurrence(states[0], training)
        out = _torch_act(self.activation)(zx + torch.matmul(h, _read(self.recurrent_kernel, zx.dtype)))
        return out, [out]


class LSTMCell(_BuiltinCell):
    """Keras 3's LSTM step: gates `i, f, c, o` from `x @ kernel + h @ recurrent_kernel + bias`."""
    _gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", unit_forget_bias=True,
                 implementation=2, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.implementation = implementation
        self.state_size = [self.units, self.units]

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        init, units = self.bias_initializer, self.units

        def forget_bias_one(shape, dtype=None):
            from tfcompat.ops.array_ops import concat
            from tfcompat.ops.creation_ops import ones
            return concat([init((units,), dtype=dtype), ones((units,), dtype=dtype),
                           init((2 * units,), dtype=dtype)], 0)
        return forget_bias_one

    def _recur(self, zx, states, training=False):
        h, c = states
        z = zx + torch.matmul(self._h_for_recurrence(h, training), _read(self.recurrent_kernel, zx.dtype))
        zi, zf, zc, zo = z.chunk(4, dim=-1)
        act, ract = _torch_act(self.activation), _torch_act(self.recurrent_activation)
        c = ract(zf) * c + ract(zi) * act(zc)
        h = ract(zo) * act(c)
        return h, [h, c]

    def _extra_config_head(self):
        return {"recurrent_activation": activations.serialize(self.recurrent_activation)}

    def _extra_config_mid(self):
        return {"unit_forget_bias": self.unit_forget_bias}


class GRUCell(_BuiltinCell):
    """Keras 3's GRU step: gates `z, r, h`; `h = z * h_prev + (1 - z) * candidate`."""
    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", reset_after=True,
                 implementation=2, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after
        self.implementation = implementation
        self.state_size = self.units

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _input_bias(self, dtype):
        if self.bias is None:
            return None
        b = _read(self.bias, dtype)
        return b[0] if self.reset_after else b

    def _recur(self, zx, states, training=False):
        h_prev = states[0]
        h = self._h_for_recurrence(h_prev, training)
        rk = _read(self.recurrent_kernel, zx.dtype)
        u = self.units
        x_z, x_r, x_h = zx.chunk(3, dim=-1)
        ract = _torch_act(self.recurrent_activation)
        if self.reset_after:
            inner = torch.matmul(h, rk)
            if self.bias is not None:
                inner = inner + _read(self.bias, zx.dtype)[1]
            r_z, r_r, r_h = inner.chunk(3, dim=-1)
            z, r = ract(x_z + r_z), ract(x_r + r_r)
            r_h = r * r_h
        else:
            r_z, r_r = torch.matmul(h, rk[:, :2 * u]).chunk(2, dim=-1)
            z, r = ract(x_z + r_z), ract(x_r + r_r)
            r_h = torch.matmul(r * h, rk[:, 2 * u:])
        hh = _torch_act(self.activation)(x_h + r_h)
        out = z * h_prev + (1 - z) * hh
        return out, [out]

    def _extra_config_head(self):
        return {"recurrent_activation": activations.serialize(self.recurrent_activation)}

    def _extra_config_tail(self):
        return {"reset_after": self.reset_after}


def _sizes(state_size):
    return list(state_size) if isinstance(state_size, (list, tuple)) else [state_size]


def _check_step_features(cell, x, initial_state):
    """TF's error for sequences whose features do not match the cell's kernel: the first step's MatMul in
    `cell.call` fails (Keras reports it as the cell's call, with the step's inputs and states)."""
    kernel = getattr(cell, "kernel", None)
    if kernel is None or x.shape[-1] == kernel.shape[0]:
        return
    from tfcompat.framework import errors
    from tfcompat.keras.layers.call_errors import with_call_info
    e = errors.op_error(errors.InvalidArgumentError, f"Matrix size-incompatible: In[0]: [{x.shape[0]},{x.shape[-1]}], "
                        f"In[1]: [{kernel.shape[0]},{kernel.shape[1]}]", "MatMul")
    raise with_call_info(e, cell, (_wrap(x[:, 0]), tuple(nest.flatten(initial_state))), {})


class StackedRNNCells(Layer):
    """Runs a list of cells as one cell: each cell's output is the next one's input."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError(f"All cells must have a `call` method. Received cell without a `call` method: "
                                 f"{cell}")
            if "state_size" not in dir(cell):
                raise ValueError(f"All cells must have a `state_size` attribute. Received cell without a "
                                 f"`state_size`: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        last = self.cells[-1]
        return getattr(last, "output_size", None) or _sizes(last.state_size)[0]

    def get_initial_state(self, batch_size=None):
        return [c.get_initial_state(batch_size=batch_size) if hasattr(c, "get_initial_state") else
                [_wrap(torch.zeros((batch_size, s))) for s in _sizes(c.state_size)] for c in self.cells]

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer):
                build_child(self, cell, input_shape)
            width = getattr(cell, "output_size", None) or _sizes(cell.state_size)[0]
            input_shape = tuple(input_shape[:-1]) + (width,)
        self.built = True

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, st in zip(self.cells, states):
            nested = isinstance(st, (list, tuple))
            inputs, st = cell(inputs, list(st) if nested else [st], training=training)
            st = list(st) if isinstance(st, (list, tuple)) else [st]
            new_states.append(st if nested or len(st) > 1 else st[0])
        return inputs, new_states

    def get_config(self):
        return {**super().get_config(), "cells": [_ser(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from tfcompat.keras.saving_utils import deserialize_keras_object
        config = dict(config)
        cells = [deserialize_keras_object(c, custom_objects=custom_objects) for c in config.pop("cells")]
        return cls(cells, **config)


class RNN(Layer):
    """Runs a cell (or a list of cells) over the time axis of `(batch, time, features)` inputs."""
    _promotes_int_inputs = True

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have a `state_size` attribute (single integer or list of "
                             f"integers, one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        self.zero_output_for_mask = zero_output_for_mask
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.supports_masking = True
        self.states = None
        self.single_state = isinstance(cell.state_size, int)

    @property
    def state_size(self):
        return _sizes(self.cell.state_size)

    def build(self, sequences_shape, initial_state_shape=None):
        step_shape = (sequences_shape[0],) + tuple(sequences_shape[2:])
        if isinstance(self.cell, Layer):      # cell weights get paths like `lstm/lstm_cell/kernel`
            build_child(self, self.cell, step_shape)
        if self.stateful:
            if self.states is not None:
                self.reset_state()
            elif sequences_shape[0] is None:
                raise ValueError("When using `stateful=True` in a RNN, the batch size must be static. Found dynamic "
                                 f"batch size: sequence.shape={tuple(sequences_shape)}")
            else:   # Keras's state variables: not among the layer's weights (nor saved, nor counted)
                from tfcompat.keras.variables import Variable
                self.__dict__["states"] = [Variable(s, trainable=False, name="rnn_state")
                                           for s in nest.flatten(self.get_initial_state(sequences_shape[0]))]
        self.built = True

    def reset_state(self):
        """Zeroes a stateful RNN's carried states."""
        for v in self.states or ():
            v._set_storage(torch.zeros_like(storage(v)))

    reset_states = reset_state      # Keras's compatibility alias

    def get_initial_state(self, batch_size):
        fn = getattr(self.cell, "get_initial_state", None)
        if fn is not None:
            state = fn(batch_size=batch_size)
            return list(state) if isinstance(state, (list, tuple)) else [state]
        return [_wrap(torch.zeros((batch_size, d))) for d in self.state_size]

    def compute_mask(self, inputs, mask=None):
        mask = nest.flatten(mask)[0] if mask is not None else None
        out = mask if self.return_sequences else None
        return [out] + [None] * len(self.state_size) if self.return_state else out

    def call(self, sequences, initial_state=None, mask=None, training=False):
        x = input_storage(sequences)
        if initial_state is None and self.stateful:
            initial_state = nest.pack_sequence_as(self.get_initial_state(1), [_wrap(storage(v)) for v in self.states])
        elif initial_state is None:
            initial_state = self.get_initial_state(x.shape[0])
        if not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        initial_state = nest.map_structure(lambda s: _to_dtype(s, x.dtype), list(initial_state))
        m = None
        if mask is not None:
            m = input_storage(mask).to(torch.bool)
            if m.ndim == 3:
                m = m[..., 0]
        if self.go_backwards:
            x = x.flip(1)
            m = m.flip(1) if m is not None else None
        cells = self.cell.cells if isinstance(self.cell, StackedRNNCells) else [self.cell]
        if all(isinstance(c, _BuiltinCell) for c in cells):
            _check_step_features(cells[0], x, initial_state)
            last, outputs, states = self._run_builtin(cells, x, initial_state, m, training)
        else:
            last, outputs, states = self._run_generic(x, initial_state, m, training)
        if self.stateful and not call_context.in_symbolic():     # the next call starts where this one ended
            for v, t in zip(self.states, nest.flatten(states)):
                v._set_storage(input_storage(t).detach())
        output = outputs if self.return_sequences else last
        return (output, *states) if self.return_state else output

    def _masked(self, m_t, new, old):
        return torch.where(m_t.unsqueeze(-1), new, old)

    def _run_builtin(self, cells, x, initial_state, m, training):
        """The loop on torch tensors; the first cell's input projection runs once for all steps."""
        stacked = isinstance(self.cell, StackedRNNCells)
        per_cell = initial_state if stacked else [initial_state]
        nested = [isinstance(s, (list, tuple)) for s in per_cell]
        states = [[input_storage(t) for t in (s if isinstance(s, (list, tuple)) else [s])] for s in per_cell]
        for cell in cells:
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()
        first = cells[0]
        first._prepare_masks(x[:, 0], states[0][0], training)
        zx = first._project(x, training)
        # one unbind for all steps: its backward stacks the steps' gradients once, where each step's `zx[:, t]`
        # made a full-size zero gradient (T^2 work: 20x a torch LSTM's step for 100 steps)
        steps = zx.unbind(1)
        step_masks = m.unbind(1) if m is not None else None
        prev = None
        outs = []
        for t in range(x.shape[1]):
            inp = steps[t]
            new_states = []
            for i, (cell, st) in enumerate(zip(cells, states)):
                if i:
                    cell._prepare_masks(inp, st[0], training)
                    inp = cell._project(inp, training)
                inp, st = cell._recur(inp, st, training)
                new_states.append(st)
            out = inp
            if m is not None:
                m_t = step_masks[t]
                if prev is None:
                    prev = torch.zeros_like(out)
                out = self._masked(m_t, out, torch.zeros_like(out) if self.zero_output_for_mask else prev)
                new_states = [[self._masked(m_t, n, o) for n, o in zip(ns, os)]
                              for ns, os in zip(new_states, states)]
            prev, states = out, new_states
            if self.return_sequences:
                outs.append(out)
        for cell in cells:
            cell.reset_dropout_mask()
            cell.reset_recurrent_dropout_mask()
        wrapped = [[_wrap(t) for t in st] for st in states]
        wrapped = [w if n or len(w) > 1 else w[0] for w, n in zip(wrapped, nested)]
        final = wrapped if stacked else (wrapped[0] if isinstance(wrapped[0], list) else [wrapped[0]])
        return _wrap(prev), (_wrap(torch.stack(outs, 1)) if self.return_sequences else None), final

    def _run_generic(self, x, initial_state, m, training):
        """The loop calling a user cell's `call(inputs, states)` on Tensors at each step."""
        states = initial_state
        kwargs = {"training": training} if "training" in inspect.signature(self.cell.call).parameters else {}
        for c in getattr(self.cell, "cells", [self.cell]):
            for reset in ("reset_dropout_mask", "reset_recurrent_dropout_mask"):
                getattr(c, reset, lambda: None)()
        prev, outs = None, []
        steps = x.unbind(1)         # one unbind (see `_run_builtin`)
        step_masks = m.unbind(1) if m is not None else None
        for t in range(x.shape[1]):
            out, new_states = self.cell(_wrap(steps[t]), states, **kwargs)
            if not isinstance(new_states, (list, tuple)):
                new_states = [new_states]
            if m is not None:
                m_t = step_masks[t]
                o = input_storage(out)
                prev = torch.zeros_like(o) if prev is None else prev
                out = _wrap(self._masked(m_t, o, torch.zeros_like(o) if self.zero_output_for_mask else prev))
                new_states = nest.map_structure(
                    lambda n, s: _wrap(self._masked(m_t, input_storage(n), input_storage(s))),  # noqa: B023 - run now
                    list(new_states), list(states))
            prev, states = input_storage(out), list(new_states)
            if self.return_sequences:
                outs.append(prev)
        for c in getattr(self.cell, "cells", [self.cell]):
            for reset in ("reset_dropout_mask", "reset_recurrent_dropout_mask"):
                getattr(c, reset, lambda: None)()
        return _wrap(prev), (_wrap(torch.stack(outs, 1)) if self.return_sequences else None), states

    def get_config(self):
        config = {"return_sequences": self.return_sequences, "return_state": self.return_state,
                  "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                  "zero_output_for_mask": self.zero_output_for_mask}
        config["cell"] = _ser(self.cell)
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from tfcompat.keras.saving_utils import deserialize_keras_object
        config = dict(config)
        cell = deserialize_keras_object(config.pop("cell"), custom_objects=custom_objects)
        return cls(cell, **config)


def _to_dtype(s, dtype):
    t = input_storage(s)
    return _wrap(t if t.dtype is dtype else t.to(dtype))


class _RNNLayer(RNN):
    """SimpleRNN / LSTM / GRU: an RNN over a built-in cell whose config is flattened into the layer's."""
    _cell_class = None
    _cell_name = None

    def __init__(self, units, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, activity_regularizer=None, trainable=True, dtype=None,
                 name=None,
                 input_shape=None, batch_input_shape=None, batch_size=None, use_cudnn="auto", **cell_kwargs):
        cell = self._cell_class(units, dtype=dtype, trainable=trainable, name=self._cell_name, **cell_kwargs)
        layer_kwargs = {k: v for k, v in (("input_shape", input_shape), ("batch_input_shape", batch_input_shape),
                                          ("batch_size", batch_size)) if v is not None}
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         zero_output_for_mask=zero_output_for_mask, activity_regularizer=activity_regularizer, trainable=trainable, dtype=dtype, name=name,
                         **layer_kwargs)
        self.use_cudnn = use_cudnn
        self.input_spec = InputSpec(ndim=3)     # as Keras's LSTM/GRU/SimpleRNN: (batch, time, features)

    def __getattr__(self, name):
        # units, activation, dropout, ...: Keras exposes the cell's settings on the layer.
        if name.startswith("_") or "cell" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["cell"], name)

    def get_config(self):
        config = Layer.get_config(self)
        config.update({"return_sequences": self.return_sequences, "return_state": self.return_state,
                       "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                       "zero_output_for_mask": self.zero_output_for_mask})
        cell_config = self.cell.get_config()
        for k in ("name", "trainable", "dtype") + (("seed",) if self._cell_class is SimpleRNNCell else ()):
            cell_config.pop(k)
        forget = {"unit_forget_bias": cell_config.pop("unit_forget_bias")} if "unit_forget_bias" in cell_config \
            else {}
        for key, value in cell_config.items():          # Keras's key order: the layer's own list
            config[key] = value
            if key == "bias_initializer":
                config.update(forget)
            elif key == "bias_regularizer":
                config.setdefault("activity_regularizer", _ser(self.activity_regularizer))
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


class SimpleRNN(_RNNLayer):
    """Fully-connected RNN: `h_t = activation(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)`."""
    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"


class LSTM(_RNNLayer):
    """Long Short-Term Memory layer (Keras 3 numerics; returns `output, h, c` with `return_state`)."""
    _cell_class = LSTMCell
    _cell_name = "lstm_cell"


class GRU(_RNNLayer):
    """Gated Recurrent Unit layer (Keras 3: `reset_after=True`, bias shape `(2, 3 * units)`)."""
    _cell_class = GRUCell
    _cell_name = "gru_cell"

