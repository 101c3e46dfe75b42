"""Keras convolution layers, channels-last, kernels in TF's layout `(*kernel_size, in / groups, filters)`."""
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import unsupported_args
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras import activations, constraints, initializers, regularizers
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_spec import InputSpec
from tfcompat.keras.saving_utils import serialize_keras_object as _ser
from tfcompat.ops import conv_ops


def _tuple(value, rank, name, allow_zero=False):
    """Keras's `standardize_tuple`: an int or `rank` ints, each > 0 (>= 0 with `allow_zero`), as a tuple."""
    error = f"The `{name}` argument must be a tuple of {rank} integers. Received {name}={value}"
    if isinstance(value, int):
        values = (value,) * rank
    else:
        try:
            values = tuple(value)
        except TypeError:
            raise ValueError(error) from None
        if len(values) != rank:
            raise ValueError(error)
        for v in values:
            try:
                int(v)
            except (ValueError, TypeError):
                raise ValueError(error + f"including element {v} of type {type(v)}") from None
        values = tuple(int(v) for v in values)
    bad = {v for v in values if (v < 0 if allow_zero else v <= 0)}
    if bad:
        raise ValueError(error + f", including values {bad} that do not satisfy `value {'>= 0' if allow_zero else '> 0'}`")
    return values


def _data_format(value):
    value = value or "channels_last"
    if value not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={value}")
    return value


_CONV2D_ATTRS = ('attr=T:type,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE, DT_INT32]; attr=strides:list(int); '
                 'attr=use_cudnn_on_gpu:bool,default=true; attr=padding:string,allowed=["SAME", "VALID", "EXPLICIT"]; '
                 'attr=explicit_paddings:list(int),default=[]; attr=data_format:string,default="NHWC",allowed=["NHWC", '
                 '"NCHW"]; attr=dilations:list(int),default=[1, 1, 1, 1]')
_DEPTHWISE_ATTRS = ('attr=T:type,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]; attr=strides:list(int); '
                    'attr=padding:string,allowed=["SAME", "VALID", "EXPLICIT"]; attr=explicit_paddings:list(int),'
                    'default=[]; attr=data_format:string,default="NHWC",allowed=["NHWC", "NCHW"]; attr=dilations:'
                    'list(int),default=[1, 1, 1, 1]')


def _attr_error(dt, op, allowed, attrs, name=""):
    return errors.op_error(errors.InvalidArgumentError,
                           f"Value for attr 'T' of {dt} is not in the list of allowed values: {allowed}\n\t; NodeDef: "
                           f"{{{{node {op}}}}}; Op<name={op}; signature=input:T, filter:T -> output:T; {attrs}>", op,
                           name)


def integer_input_error(layer, x):
    """The error Keras 3 on TF raises for a non-float input to a convolution (which one depends on the layer)."""
    dt = dtypes.FROM_STORAGE[x.dtype].name
    kind = type(layer).__mro__
    if DepthwiseConv2D in kind or SeparableConv2D in kind:
        return _attr_error(dt, "DepthwiseConv2dNative", "half, bfloat16, float, double", _DEPTHWISE_ATTRS,
                           "depthwise" if SeparableConv2D in kind else "")
    if layer.rank == 1 and layer.transpose:
        return errors.op_error(errors.InvalidArgumentError, f"cannot compute Conv2DBackpropInput as input #2(zero-"
                               f"based) was expected to be a float tensor but is a {dt} tensor", "Conv2DBackpropInput")
    if layer.rank == 1:
        if dt == "int32":
            return errors.op_error(errors.InvalidArgumentError, "cannot compute Conv2D as input #1(zero-based) was "
                                   "expected to be a int32 tensor but is a float tensor", "Conv2D")
        return _attr_error(dt, "Conv2D", "half, bfloat16, float, double, int32", _CONV2D_ATTRS)
    kernel = layer.kernel
    kt = dtypes.as_dtype(kernel.dtype).name
    values = repr(kernel.numpy())
    return ValueError(f"Incompatible type conversion requested to type {dt} for `tf.Variable of type {kt}. "
                      f"(Variable: <tf.Variable '{kernel.path}:0' shape={tuple(kernel.shape)} dtype={kt}, "
                      f"numpy={chr(10) if chr(10) in values else ''}{values}>)")


@unsupported_args("lora_rank")
class BaseConv(Layer):
    """Shared machinery of Conv1D/2D/3D: weights, bias, activation, config."""

    rank = 2
    transpose = False

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1, groups=1,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, lora_alpha=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = filters
        self.groups = groups
        self.kernel_size = _tuple(kernel_size, self.rank, "kernel_size")
        self.strides = _tuple(strides, self.rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, self.rank, "dilation_rate")
        self.padding = padding.lower()
        allowed = ("valid", "same", "causal") if self.rank == 1 and not self.transpose else ("valid", "same")
        if self.padding not in allowed:
            raise ValueError(f"The `padding` argument must be a list/tuple or one of {{{repr(allowed)[1:-1]}}}. "
                             f"Received: {self.padding}")
        self.data_format = _data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        if filters is not None and (not isinstance(filters, int) or filters <= 0):
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. Received "
                             f"filters={filters}.")
        self.input_spec = InputSpec(min_ndim=self.rank + 2)

    def _channels(self, input_shape):
        """The input's channel count; sets Keras's input spec (rank, and that channel count from now on)."""
        last = self.data_format == "channels_last"
        in_ch = input_shape[-1] if last else input_shape[1]
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={-1 if last else 1: in_ch})
        return in_ch

    def _check_output_size(self, input_shape, filters=None):
        """Keras's conv output-shape check at build: the input's rank, and no empty 'valid' output."""
        last = self.data_format == "channels_last"
        kernel = self.kernel_size + (input_shape[-1] if last else input_shape[1],
                                     self.filters if filters is None else filters)
        input_shape = tuple(input_shape)
        if len(kernel) != len(input_shape):
            raise ValueError(f"Kernel shape must have the same length as input, but received kernel of shape "
                             f"{kernel} and input of shape {input_shape}.")
        if self.padding != "valid":
            return
        spatial = input_shape[1:-1] if last else input_shape[2:]
        for n, k, s, d in zip(spatial, self.kernel_size, self.strides, self.dilation_rate):
            if n is not None and (n - d * (k - 1) - 1) // s + 1 <= 0:
                dil = "[" + " ".join(str(v) for v in self.dilation_rate) + "]"
                raise ValueError(f"Computed output size would be zero or negative. Received `inputs shape="
                                 f"{input_shape}`, `kernel shape={kernel}`, `dilation_rate={dil}`, `strides="
                                 f"{self.strides}`, `padding={self.padding}`.")

    def build(self, input_shape):
        in_ch = self._channels(input_shape)
        if not self.transpose:
            self._check_output_size(input_shape)
        if in_ch is None:
            raise ValueError(f"The channel dimension of the inputs should be defined. Received input_shape="
                             f"{input_shape}")
        if in_ch % self.groups:
            raise ValueError(f"The number of input channels must be evenly divisible by the number of groups. "
                             f"Received groups={self.groups}, but the input has {in_ch} channels (full input "
                             f"shape is {input_shape}).")
        shape = self.kernel_size + ((self.filters, in_ch) if self.transpose else (in_ch // self.groups, self.filters))
        self.kernel = self.add_weight(name="kernel", shape=shape, initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.built = True

    def _tf_format(self):
        return {1: "NWC", 2: "NHWC", 3: "NDHWC"}[self.rank] if self.data_format == "channels_last" else \
            {1: "NCW", 2: "NCHW", 3: "NCDHW"}[self.rank]

    def _convolve(self, x, k, bias=None):
        padding = self.padding
        if padding == "causal":
            pad = (self.kernel_size[0] - 1) * self.dilation_rate[0]
            x = torch.nn.functional.pad(x, (0, 0, pad, 0) if self.data_format == "channels_last" else (pad, 0))
            padding = "valid"
        return conv_ops._conv(x, k, self.rank, list(self.strides), padding.upper(), list(self.dilation_rate),
                              self._tf_format(), "Conv2D" if self.rank < 3 else "Conv3D", bias)

    def call(self, inputs):
        x = input_storage(inputs)
        if not x.is_floating_point():
            raise integer_input_error(self, x)
        k = self.kernel._read()
        k = k.to(x.dtype) if k.dtype is not x.dtype else k
        if type(self)._convolve is BaseConv._convolve:
            # the convolution kernel adds the bias (one pass over the output, as torch's conv layers do)
            y = self._convolve(x, k, None if self.bias is None else self.bias._read().to(x.dtype))
        else:
            y = self._convolve(x, k)
        if self.bias is not None and type(self)._convolve is not BaseConv._convolve:
            b = self.bias._read().to(y.dtype)
            if self.data_format == "channels_last":
                y = y + b
            else:
                y = y + b.reshape((1, -1) + (1,) * self.rank)
        out = _wrap(y)
        if self.activation is not activations.linear:
            out = self.activation(out)
        return out

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters, "kernel_size": self.kernel_size, "strides": self.strides,
            "padding": self.padding, "data_format": self.data_format, "dilation_rate": self.dilation_rate,
            "groups": self.groups, "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
            "kernel_initializer": _ser(self.kernel_initializer), "bias_initializer": _ser(self.bias_initializer),
            "kernel_regularizer": _ser(self.kernel_regularizer), "bias_regularizer": _ser(self.bias_regularizer),
            "activity_regularizer": _ser(self.activity_regularizer),
            "kernel_constraint": _ser(self.kernel_constraint), "bias_constraint": _ser(self.bias_constraint),
        })
        return config


class Conv1D(BaseConv):
    """1-D convolution over (batch, steps, channels); `padding="causal"` pads the start only."""
    rank = 1


class Conv2D(BaseConv):
    """2-D convolution over NHWC images (`Conv2D(16, [3, 3], activation="relu")`)."""
    rank = 2


class Conv3D(BaseConv):
    """3-D convolution over NDHWC volumes."""
    rank = 3


class _BaseConvTranspose(BaseConv):
    transpose = True

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, **kwargs)
        self.output_padding = None if output_padding is None else _tuple(output_padding, self.rank, "output_padding",
                                                                              allow_zero=True)

    def _output_size(self, size, k, s, d, i):
        k = (k - 1) * d + 1
        op = None if self.output_padding is None else self.output_padding[i]
        if self.padding == "valid":
            return size * s + max(k - s, 0) if op is None else (size - 1) * s + k + op
        return size * s if op is None else (size - 1) * s + k - 2 * (k // 2) + op

    def _convolve(self, x, k):
        cl = self.data_format == "channels_last"
        sizes = x.shape[1:-1] if cl else x.shape[2:]
        out = [self._output_size(n, kk, s, d, i) for i, (n, kk, s, d) in
               enumerate(zip(sizes, self.kernel_size, self.strides, self.dilation_rate))]
        shape = [x.shape[0]] + (out + [self.filters] if cl else [self.filters] + out)
        fn = {1: conv_ops.conv1d_transpose, 2: conv_ops.conv2d_transpose, 3: conv_ops.conv3d_transpose}[self.rank]
        strides = list(self.strides) if self.rank > 1 else self.strides[0]
        dil = list(self.dilation_rate) if self.rank > 1 else self.dilation_rate[0]
        y = fn(_wrap(x), _wrap(k), shape, strides, padding=self.padding.upper(), data_format=self._tf_format(),
               dilations=dil)
        return storage(y)

    def get_config(self):
        config = super().get_config()
        config.pop("groups", None)
        items = list(config.items())                    # Keras writes output_padding right after padding
        at = [k for k, _ in items].index("padding") + 1
        return dict(items[:at] + [("output_padding", self.output_padding)] + items[at:])


class Conv1DTranspose(_BaseConvTranspose):
    rank = 1


class Conv2DTranspose(_BaseConvTranspose):
    """Transposed 2-D convolution; kernel shape `(kh, kw, filters, in_channels)` as Keras."""
    rank = 2


class Conv3DTranspose(_BaseConvTranspose):
    rank = 3


_DEPTHWISE_KEYS = ("depth_multiplier", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
                   "activation", "use_bias", "depthwise_initializer", "bias_initializer", "depthwise_regularizer",
                   "bias_regularizer", "activity_regularizer", "depthwise_constraint", "bias_constraint")
_SEPARABLE_KEYS = ("depth_multiplier", "filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
                   "activation", "use_bias", "depthwise_initializer", "pointwise_initializer", "bias_initializer",
                   "depthwise_regularizer", "pointwise_regularizer", "bias_regularizer", "activity_regularizer",
                   "depthwise_constraint", "pointwise_constraint", "bias_constraint")


def _keras_order(config, keys):
    """`config` with the layer's own keys in Keras's order, after the base keys and before any others."""
    head = {k: v for k, v in config.items() if k in ("name", "trainable", "dtype")}
    own = {k: config[k] for k in keys if k in config}
    return {**head, **own, **{k: v for k, v in config.items() if k not in head and k not in own}}


class DepthwiseConv2D(BaseConv):
    """Per-channel 2-D convolution; kernel `(kh, kw, in_channels, depth_multiplier)`."""
    rank = 2

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(None, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         kernel_initializer=depthwise_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=depthwise_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, kernel_constraint=depthwise_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier

    def build(self, input_shape):
        in_ch = self._channels(input_shape)
        self.kernel = self.add_weight(name="kernel", shape=self.kernel_size + (in_ch, self.depth_multiplier),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight(name="bias", shape=(in_ch * self.depth_multiplier,),
                                    initializer=self.bias_initializer, regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _convolve(self, x, k):
        strides = [1, *self.strides, 1] if self.data_format == "channels_last" else [1, 1, *self.strides]
        y = conv_ops.depthwise_conv2d(_wrap(x), _wrap(k), strides, self.padding.upper(),
                                      data_format=self._tf_format(), dilations=list(self.dilation_rate))
        return storage(y)

    def get_config(self):
        config = super().get_config()
        for key in ("filters", "groups"):
            config.pop(key, None)
        config["depth_multiplier"] = self.depth_multiplier
        for a, b in (("kernel_initializer", "depthwise_initializer"), ("kernel_regularizer", "depthwise_regularizer"),
                     ("kernel_constraint", "depthwise_constraint")):
            config[b] = config.pop(a)
        return _keras_order(config, _DEPTHWISE_KEYS)


class SeparableConv2D(BaseConv):
    """Depthwise then pointwise 2-D convolution (kernels `depthwise_kernel`, `pointwise_kernel`)."""
    rank = 2

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         kernel_initializer="zeros",    # unused: no seed drawn (Keras draws only the two below)
                         bias_initializer=bias_initializer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer, bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape):
        in_ch = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=self.kernel_size + (in_ch, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel", shape=(1,) * self.rank + (in_ch * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None
        self.built = True

    def call(self, inputs):
        x = input_storage(inputs)
        if not x.is_floating_point():
            raise integer_input_error(self, x)
        strides = [1, *self.strides, 1] if self.data_format == "channels_last" else [1, 1, *self.strides]
        y = storage(conv_ops.separable_conv2d(_wrap(x), _wrap(self.depthwise_kernel._read().to(x.dtype)),
                                              _wrap(self.pointwise_kernel._read().to(x.dtype)), strides,
                                              self.padding.upper(), data_format=self._tf_format(),
                                              dilations=list(self.dilation_rate)))
        if self.bias is not None:
            b = self.bias._read().to(y.dtype)
            y = y + (b if self.data_format == "channels_last" else b.reshape(1, -1, 1, 1))
        out = _wrap(y)
        return self.activation(out) if self.activation is not activations.linear else out

    def get_config(self):
        config = super().get_config()
        for key in ("groups", "kernel_initializer", "kernel_regularizer", "kernel_constraint"):
            config.pop(key)
        config.update({
            "depth_multiplier": self.depth_multiplier,
            "depthwise_initializer": _ser(self.depthwise_initializer),
            "pointwise_initializer": _ser(self.pointwise_initializer),
            "depthwise_regularizer": _ser(self.depthwise_regularizer),
            "pointwise_regularizer": _ser(self.pointwise_regularizer),
            "depthwise_constraint": _ser(self.depthwise_constraint),
            "pointwise_constraint": _ser(self.pointwise_constraint),
        })
        return _keras_order(config, _SEPARABLE_KEYS)


class _OneD:
    """Keras's 1-D depthwise/separable convolutions: the 2-D kernels on `(batch, 1, steps, channels)`."""
    rank = 1

    def _check_padding(self, padding):
        if str(padding).lower() not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a list/tuple or one of {{'same', 'valid'}}. "
                             f"Received: {str(padding).lower()}")

    def _as_2d(self, x):
        """`x` with a unit height axis, and the 2-D op's data format, strides and dilations."""
        if self.data_format == "channels_last":
            return x.unsqueeze(1), "NHWC", [1, 1, self.strides[0], 1], [1, self.dilation_rate[0]]
        return x.unsqueeze(2), "NCHW", [1, 1, 1, self.strides[0]], [1, self.dilation_rate[0]]

    def _squeeze(self, y):
        return y.squeeze(1) if self.data_format == "channels_last" else y.squeeze(2)


class DepthwiseConv1D(_OneD, DepthwiseConv2D):
    """Per-channel 1-D convolution; kernel `(k, in_channels, depth_multiplier)`."""
    rank = 1

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(kernel_size, strides=strides, padding=padding, depth_multiplier=depth_multiplier,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)
        self._check_padding(padding)
        if not isinstance(depth_multiplier, int) or depth_multiplier <= 0:
            raise ValueError(f"Invalid value for argument `depth_multiplier`. Expected a strictly positive value. "
                             f"Received depth_multiplier={depth_multiplier}.")

    def build(self, input_shape):
        in_ch = self._channels(input_shape)
        self._check_output_size(input_shape, None if in_ch is None else in_ch * self.depth_multiplier)
        super().build(input_shape)

    def _convolve(self, x, k):
        x4, fmt, strides, dil = self._as_2d(x)
        y = conv_ops.depthwise_conv2d(_wrap(x4), _wrap(k.unsqueeze(0)), strides, self.padding.upper(),
                                      data_format=fmt, dilations=dil)
        return self._squeeze(storage(y))


class SeparableConv1D(_OneD, SeparableConv2D):
    """Depthwise then pointwise 1-D convolution (kernels `depthwise_kernel` `(k, in, multiplier)`,
    `pointwise_kernel` `(1, in * multiplier, filters)`)."""
    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 depth_multiplier=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         dilation_rate=dilation_rate, depth_multiplier=depth_multiplier, **kwargs)
        self._check_padding(padding)

    def build(self, input_shape):
        self._check_output_size(input_shape)
        super().build(input_shape)

    def call(self, inputs):
        x = input_storage(inputs)
        if not x.is_floating_point():
            raise integer_input_error(self, x)
        x4, fmt, strides, dil = self._as_2d(x)
        y = storage(conv_ops.separable_conv2d(_wrap(x4), _wrap(self.depthwise_kernel._read().to(x.dtype).unsqueeze(0)),
                                              _wrap(self.pointwise_kernel._read().to(x.dtype).unsqueeze(0)), strides,
                                              self.padding.upper(), data_format=fmt, dilations=dil))
        y = self._squeeze(y)
        if self.bias is not None:
            b = self.bias._read().to(y.dtype)
            y = y + (b if self.data_format == "channels_last" else b.reshape(1, -1, 1))
        out = _wrap(y)
        return self.activation(out) if self.activation is not activations.linear else out


Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
Convolution1DTranspose, Convolution2DTranspose, Convolution3DTranspose = Conv1DTranspose, Conv2DTranspose, \
    Conv3DTranspose
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D
