"""Keras 3's convolutional LSTM: `ConvLSTMCell` and the `ConvLSTM1D/2D/3D` layers over the RNN base.

Keras's cell math: kernels `(*kernel_size, in, 4 * filters)` and `(*kernel_size, filters, 4 * filters)` split
into gates i, f, c, o along the last axis; `i, f, o = recurrent_activation(conv(x, W) + b + conv(h, U))` with the
recurrent convolution 'same', stride 1, no dilation; `c = f * c + i * activation(conv_c)`, `h = o * activation(c)`.
Dropout draws four masks of the step input's shape per sequence (one per gate), as Keras's `DropoutRNNCell`.
"""
import math

import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras import activations, constraints, initializers, regularizers
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.conv import _data_format, _tuple
from tfcompat.keras.layers.input_spec import InputSpec
from tfcompat.keras.layers.rnn import RNN, _dropout_mask, _torch_act
from tfcompat.keras.saving_utils import serialize_keras_object as _ser
from tfcompat.ops import conv_ops

_FORMATS = {(1, True): "NWC", (2, True): "NHWC", (3, True): "NDHWC",
            (1, False): "NCW", (2, False): "NCHW", (3, False): "NCDHW"}


class ConvLSTMCell(Layer):
    """One step of a convolutional LSTM over `(batch, *spatial, channels)` inputs (channels-first allowed)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", unit_forget_bias=True,
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        if seed is None:        # Keras's cell SeedGenerator takes Python's random before the initializers
            from tfcompat.keras.random import make_default_seed
            make_default_seed()
        self.rank = rank
        if rank > 3:
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. Received: rank={rank}")
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        padding = str(padding).lower()
        if padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a list/tuple or one of {{'valid', 'same'}}. "
                             f"Received: {padding}")
        self.padding = padding
        self.data_format = _data_format(data_format)
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please provide "
                             f"`strides=1` or `dilation_rate=1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.dropout_mask_count = 4
        self.state_size = -1        # Keras: the states' shapes come from get_initial_state
        self._dp_mask = self._rec_dp_mask = None

    def build(self, inputs_shape, states_shape=None):
        inputs_shape = tuple(inputs_shape)
        last = self.data_format == "channels_last"
        self.spatial_dims = inputs_shape[1:-1] if last else inputs_shape[2:]
        if None in self.spatial_dims:
            raise ValueError(f"ConvLSTM layers only support static input shapes for the spatial dimension. Received "
                             f"invalid input shape: input_shape={inputs_shape}")
        input_dim = inputs_shape[-1 if last else 1]
        if input_dim is None:
            raise ValueError(f"The channel dimension of the inputs (last axis) should be defined. Found None. Full "
                             f"input shape received: input_shape={inputs_shape}")
        self.input_dim = input_dim
        self.kernel_shape = self.kernel_size + (input_dim, self.filters * 4)
        self.kernel = self.add_weight(shape=self.kernel_shape, initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, self.filters * 4), initializer=self.recurrent_initializer,
            name="recurrent_kernel", regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters * 4,), name="bias", initializer=self._bias_init(),
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.built = True

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        init, filters = self.bias_initializer, self.filters

        def forget_bias_one(shape, dtype=None):
            from tfcompat.ops.array_ops import concat
            from tfcompat.ops.creation_ops import ones
            return concat([init((filters,), dtype=dtype), ones((filters,), dtype=dtype),
                           init((filters * 2,), dtype=dtype)], 0)
        return forget_bias_one

    # -- dropout masks (Keras's DropoutRNNCell: four per sequence) ---------------------------------------
    def reset_dropout_mask(self):
        self._dp_mask = None

    def reset_recurrent_dropout_mask(self):
        self._rec_dp_mask = None

    def _masks(self, x, h, training):
        if training and 0.0 < self.dropout < 1.0 and self._dp_mask is None:
            self._dp_mask = [_dropout_mask(x.shape, self.dropout, x) for _ in range(4)]
        if training and 0.0 < self.recurrent_dropout < 1.0 and self._rec_dp_mask is None:
            self._rec_dp_mask = [_dropout_mask(h.shape, self.recurrent_dropout, h) for _ in range(4)]
        dp = self._dp_mask if training and 0.0 < self.dropout < 1.0 else None
        rdp = self._rec_dp_mask if training and 0.0 < self.recurrent_dropout < 1.0 else None
        return dp, rdp

    def _conv(self, x, w, strides, padding, dilation, bias=None):
        op = "Conv2D" if self.rank < 3 else "Conv3D"
        return conv_ops._conv(x, w, self.rank, list(strides), padding, list(dilation),
                              _FORMATS[(self.rank, self.data_format == "channels_last")], op, bias)

    def _gates(self, x, w, masks, strides, padding, dilation, bias):
        """The four gates' convolutions (one convolution of the whole kernel when no dropout mask applies)."""
        if masks is None:
            return self._conv(x, w, strides, padding, dilation, bias).chunk(4, dim=self._channel_axis())
        ws = w.chunk(4, dim=-1)
        bs = bias.chunk(4) if bias is not None else (None,) * 4
        return [self._conv(x * m, wk, strides, padding, dilation, bk) for m, wk, bk in zip(masks, ws, bs)]

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def call(self, inputs, states, training=False):
        x = input_storage(inputs)
        h, c = (input_storage(s) for s in states[:2])
        dt = x.dtype
        dp, rdp = self._masks(x, h, training)
        k = self.kernel._read().to(dt)
        rk = self.recurrent_kernel._read().to(dt)
        b = self.bias._read().to(dt) if self.bias is not None else None
        x_i, x_f, x_c, x_o = self._gates(x, k, dp, self.strides, self.padding.upper(), self.dilation_rate, b)
        ones = (1,) * self.rank
        h_i, h_f, h_c, h_o = self._gates(h, rk, rdp, ones, "SAME", ones, None)
        act, ract = _torch_act(self.activation), _torch_act(self.recurrent_activation)
        i = ract(x_i + h_i)
        f = ract(x_f + h_f)
        c = f * c + i * act(x_c + h_c)
        o = ract(x_o + h_o)
        h = o * act(c)
        return _wrap(h), [_wrap(h), _wrap(c)]

    def _state_shape(self, batch_size):
        out = []
        for n, k, s, d in zip(self.spatial_dims, self.kernel_size, self.strides, self.dilation_rate):
            out.append(math.ceil(n / s) if self.padding == "same" else (n - d * (k - 1) - 1) // s + 1)
        if self.data_format == "channels_last":
            return (batch_size, *out, self.filters)
        return (batch_size, self.filters, *out)

    def get_initial_state(self, batch_size=None):
        dtype = self._dtype_policy._compute_storage or torch.float32
        return [_wrap(torch.zeros(self._state_shape(batch_size), dtype=dtype)) for _ in range(2)]

    def get_config(self):
        config = {
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format, "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "recurrent_activation": activations.serialize(self.recurrent_activation), "use_bias": self.use_bias,
            "kernel_initializer": _ser(self.kernel_initializer),
            "recurrent_initializer": _ser(self.recurrent_initializer),
            "bias_initializer": _ser(self.bias_initializer), "unit_forget_bias": self.unit_forget_bias,
            "kernel_regularizer": _ser(self.kernel_regularizer),
            "recurrent_regularizer": _ser(self.recurrent_regularizer),
            "bias_regularizer": _ser(self.bias_regularizer), "kernel_constraint": _ser(self.kernel_constraint),
            "recurrent_constraint": _ser(self.recurrent_constraint), "bias_constraint": _ser(self.bias_constraint),
            "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout, "seed": self.seed,
        }
        return {**super().get_config(), **config}


_CELL_KEYS = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
              "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
              "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


class ConvLSTM(RNN):
    """The RNN layer over a `ConvLSTMCell` (Keras's base of ConvLSTM1D/2D/3D): inputs `(batch, time, ...)`."""
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", unit_forget_bias=True,
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):
        cell = ConvLSTMCell(
            self._rank, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell", dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, activity_regularizer=activity_regularizer,
                         **kwargs)
        self.input_spec = InputSpec(ndim=self._rank + 3)

    def __getattr__(self, name):
        # filters, kernel_size, dropout, ...: Keras exposes the cell's settings on the layer.
        if name.startswith("_") or "cell" not in self.__dict__ or name not in _CELL_KEYS + ("seed",):
            raise AttributeError(name)
        return getattr(self.__dict__["cell"], name)

    def get_initial_state(self, batch_size):
        return self.cell.get_initial_state(batch_size=batch_size)

    def _run_generic(self, x, initial_state, m, training):
        """The recurrence without per-step layer calls when no mask or dropout applies: the input convolution of
        every step in one call, then the recurrent 'same' convolution per step on channels-first states (the
        cell's math; `RNN._run_generic` steps through the cell otherwise)."""
        cell = self.cell
        dropping = training and (0.0 < cell.dropout < 1.0 or 0.0 < cell.recurrent_dropout < 1.0)
        if m is not None or dropping or type(cell) is not ConvLSTMCell:
            return super()._run_generic(x, initial_state, m, training)
        rank, last = cell.rank, cell.data_format == "channels_last"
        dt = x.dtype
        kernel = cell.kernel._read().to(dt)
        bias = cell.bias._read().to(dt) if cell.bias is not None else None
        batch, steps = x.shape[:2]
        zx = cell._conv(x.reshape(batch * steps, *x.shape[2:]), kernel, cell.strides, cell.padding.upper(),
                        cell.dilation_rate, bias)
        zx = zx.reshape(batch, steps, *zx.shape[1:])
        if last:
            zx = zx.movedim(-1, 2)                       # (batch, time, 4 * filters, *spatial)
        rk = cell.recurrent_kernel._read().to(dt)
        rk = rk.permute(rank + 1, rank, *range(rank))    # torch layout (4 * filters, filters, *kernel_size)
        before = [(k - 1) // 2 for k in cell.kernel_size]
        after = [k - 1 - b for k, b in zip(cell.kernel_size, before)]
        symmetric = before == after
        pads = [p for b, a in zip(reversed(before), reversed(after)) for p in (b, a)]
        conv = (torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d)[rank - 1]
        h, c = (input_storage(s) for s in initial_state[:2])
        if last:
            h, c = h.movedim(-1, 1), c.movedim(-1, 1)
        # channels-last memory for the convolutions (torch's CPU backward is several times faster so)
        fmt = {2: torch.channels_last, 3: torch.channels_last_3d}.get(rank)
        if fmt is not None:
            rk = rk.contiguous(memory_format=fmt)
        act, ract = _torch_act(cell.activation), _torch_act(cell.recurrent_activation)
        outs = []
        zx_steps = zx.unbind(1)     # one unbind: each step's `zx[:, t]` made a full-size zero gradient
        for t in range(steps):
            if fmt is not None:
                h = h.contiguous(memory_format=fmt)
            hr = conv(h, rk, None, 1, tuple(before)) if symmetric else conv(torch.nn.functional.pad(h, pads), rk)
            zi, zf, zc, zo = (zx_steps[t] + hr).chunk(4, dim=1)
            c = ract(zf) * c + ract(zi) * act(zc)
            h = ract(zo) * act(c)
            if self.return_sequences:
                outs.append(h)
        back = (lambda t: t.movedim(1, -1)) if last else (lambda t: t)      # noqa: E731
        seq = None
        if self.return_sequences:
            seq = torch.stack(outs, 1)
            seq = _wrap(seq.movedim(2, -1) if last else seq)
        return _wrap(back(h)), seq, [_wrap(back(h)), _wrap(back(c))]

    def compute_mask(self, inputs, mask=None):
        from tfcompat.util import nest
        mask = nest.flatten(mask)[0] if mask is not None else None
        out = mask if self.return_sequences else None
        return [out, None, None] if self.return_state else out

    def get_config(self):
        config = Layer.get_config(self)
        config.update({"return_sequences": self.return_sequences, "return_state": self.return_state,
                       "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                       "zero_output_for_mask": self.zero_output_for_mask})
        cell = self.cell.get_config()
        for key in _CELL_KEYS:
            config[key] = cell[key]
            if key == "bias_regularizer":
                config["activity_regularizer"] = _ser(self.activity_regularizer)
        config["seed"] = self.cell.seed
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


class ConvLSTM1D(ConvLSTM):
    """1-D convolutional LSTM over `(batch, time, steps, channels)`."""
    _rank = 1


class ConvLSTM2D(ConvLSTM):
    """2-D convolutional LSTM over `(batch, time, rows, cols, channels)`."""
    _rank = 2


class ConvLSTM3D(ConvLSTM):
    """3-D convolutional LSTM over `(batch, time, dim1, dim2, dim3, channels)`."""
    _rank = 3
