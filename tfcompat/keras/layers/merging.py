"""Merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot."""
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer


def _elementwise_shape(shape1, shape2):
    """Keras's Merge._compute_elemwise_op_output_shape: the broadcast of two shapes without their batch dim."""
    if shape1 is None or shape2 is None:
        return None
    if len(shape1) < len(shape2):
        return _elementwise_shape(shape2, shape1)
    if not shape2:
        return shape1
    out = list(shape1[:-len(shape2)])
    for i, j in zip(shape1[-len(shape2):], shape2):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {shape1} and {shape2}")
        else:
            out.append(i)
    return tuple(out)


def _check_elementwise_shapes(input_shape):
    batch_sizes = {s[0] for s in input_shape if s} - {None}
    if len(batch_sizes) > 1:
        raise ValueError(f"Cannot merge tensors with different batch sizes. Received tensors with shapes "
                         f"{input_shape}")
    out = None if input_shape[0] is None else tuple(input_shape[0][1:])
    for s in input_shape[1:]:
        out = _elementwise_shape(out, None if s is None else tuple(s[1:]))


class _Merge(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    # Keras builds a layer called on an empty list with input_shape=None: its shape checks fail on None
    _empty_list_error = "'NoneType' object is not subscriptable"

    def build(self, input_shape):
        if isinstance(input_shape, (list, tuple)) and not input_shape:
            raise TypeError(self._empty_list_error)
        if not isinstance(input_shape, (list, tuple)) or not input_shape or not isinstance(input_shape[0],
                                                                                              (list, tuple)):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        if self._elementwise:
            _check_elementwise_shapes(input_shape)
        self.built = True

    _elementwise = True     # Keras's Merge.build checks the shapes broadcast (not Concatenate's nor Dot's build)

    def call(self, inputs):
        ts = [input_storage(x) for x in inputs]
        return _wrap(self._merge(ts))


class Add(_Merge):
    def _merge(self, ts):
        out = ts[0]
        for t in ts[1:]:
            out = out + t
        return out


class Subtract(_Merge):
    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: "
                             f"input_shape={input_shape}")

    def _merge(self, ts):
        return ts[0] - ts[1]


class Multiply(_Merge):
    def _merge(self, ts):
        out = ts[0]
        for t in ts[1:]:
            out = out * t
        return out


class Average(_Merge):
    def _merge(self, ts):
        out = ts[0]
        for t in ts[1:]:
            out = out + t
        return out / len(ts)


class Maximum(_Merge):
    def _merge(self, ts):
        out = ts[0]
        for t in ts[1:]:
            out = torch.maximum(out, t)
        return out


class Minimum(_Merge):
    def _merge(self, ts):
        out = ts[0]
        for t in ts[1:]:
            out = torch.minimum(out, t)
        return out


class Concatenate(_Merge):
    _elementwise = False
    """Concatenates along `axis` (default -1)."""

    _empty_list_error = "object of type 'NoneType' has no len()"

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        super().build(input_shape)
        ranks = {len(s) for s in input_shape}
        bad = len(ranks) != 1
        if not bad:
            rank = ranks.pop()
            axis = self.axis % rank
            bad = any(len({s[i] for s in input_shape if s[i] is not None}) > 1 for i in range(rank) if i != axis)
        if bad:
            raise ValueError(f"A `Concatenate` layer requires inputs with matching shapes except for the "
                             f"concatenation axis. Received: input_shape={list(input_shape)}")

    def _merge(self, ts):
        return torch.cat(ts, dim=self.axis)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


class Dot(_Merge):
    _elementwise = False
    """Dot product of two inputs along `axes` (optionally L2-normalized first: cosine proximity)."""

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes = axes
        self.normalize = normalize

    def build(self, input_shape):
        """Keras's Dot.build: two shapes whose `axes` dims are equal (checked before any call)."""
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (tuple, list)) or len(input_shape) != 2:
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: "
                             f"input_shape={input_shape}")
        shape1, shape2 = input_shape
        if shape1 is not None and shape2 is not None:
            if isinstance(self.axes, int):
                axes = [self.axes % len(shape1), self.axes % len(shape2)] if self.axes < 0 else [self.axes] * 2
            else:
                axes = self.axes
            if shape1[axes[0]] != shape2[axes[1]]:
                raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at axis {axes[0]}) != "
                                 f"{shape2[axes[1]]} (at axis {axes[1]}). Full input shapes: {shape1}, {shape2}")
        self.built = True

    def _merge(self, ts):
        a, b = ts
        axes = self.axes if isinstance(self.axes, (list, tuple)) else (self.axes, self.axes)
        axes = [ax % t.ndim for ax, t in zip(axes, (a, b))]
        if self.normalize:
            a = torch.nn.functional.normalize(a, dim=axes[0], eps=1e-12)
            b = torch.nn.functional.normalize(b, dim=axes[1], eps=1e-12)
        out = torch.stack([torch.tensordot(a[i], b[i], dims=([axes[0] - 1], [axes[1] - 1]))
                           for i in range(a.shape[0])]) if a.ndim > 2 or b.ndim > 2 else \
            torch.sum(a * b, dim=1, keepdim=True)
        return out

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes=-1, **kwargs):
    return Dot(axes=axes, **kwargs)(inputs)
