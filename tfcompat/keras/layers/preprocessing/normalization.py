"""Keras's Normalization layer: `(x - mean) / sqrt(variance)` with statistics from adapt() or given."""
import itertools
import math

import numpy as np
import torch

from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _EPSILON, _float_input, _listify, _numpy


class Normalization(Layer):
    """`(x - mean) / sqrt(variance)` per `axis` position (`invert=True`: `mean + x * sqrt(variance)`)."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        self.supports_masking = True
        self.mean = self.variance = None
        if (mean is not None) != (variance is not None):
            raise ValueError(f"When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        if mean is not None and np.shape(mean) != np.shape(variance):
            raise ValueError(f"When setting values directly, `mean` and `variance` must have the same shape. "
                             f"Received: mean shape {np.shape(mean)} and variance shape {np.shape(variance)}")

    def build(self, input_shape):
        ndim = len(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Received inputs with "
                             f"ndim={ndim}, while axis={self.axis}")
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = [input_shape[d] if d in self._keep_axis else 1 for d in range(ndim)]
        self._stat_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=self._stat_shape, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=self._stat_shape, initializer="ones",
                                                  trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64", initializer="zeros",
                                         trainable=False)
            self.built = True
            self.finalize_state()
        else:
            mean = torch.as_tensor(np.asarray(self.input_mean, dtype=self.compute_dtype))
            var = torch.as_tensor(np.asarray(self.input_variance, dtype=self.compute_dtype))
            if mean.ndim:
                expanded = [1] * ndim
                for i in range(1, mean.ndim + 1):
                    expanded[self._keep_axis[-i]] = mean.shape[-i]
                mean, var = mean.reshape(expanded), var.reshape(expanded)
            self.mean = _wrap(mean.expand(self._broadcast_shape))
            self.variance = _wrap(var.expand(self._broadcast_shape))
            self.built = True

    def adapt(self, data):
        """Sets mean and variance from `data` as Keras 3 does: a NumPy array's moments computed by NumPy in its
        own dtype, a tensor's in floats, a dataset's (batched by 128 when its elements are rank 1) or an
        iterable's batch by batch in the compute dtype, merged as they come."""
        if isinstance(data, (np.ndarray, Tensor, Variable)):
            self._check_adapt_shape(tuple(data.shape))
            if not isinstance(data, np.ndarray):
                data = _numpy(data)
                data = data if data.dtype.kind in "fc" else data.astype(self.compute_dtype)
            mean, var = np.mean(data, axis=self._reduce_axis), np.var(data, axis=self._reduce_axis)
        else:
            mean, var = self._merged_moments(data)
        self.adapt_mean.assign(np.asarray(mean, dtype="float32"))
        self.adapt_variance.assign(np.asarray(var, dtype="float32"))
        self.finalize_state()

    def _check_adapt_shape(self, input_shape):
        if not self.built:
            self.build(input_shape)
            return
        if any(input_shape[d] != self._build_input_shape[d] for d in self._keep_axis):
            raise ValueError(f"The layer was built with input_shape={self._build_input_shape}, but adapt() is being "
                             f"called with data with an incompatible shape, data.shape={input_shape}")

    def _merged_moments(self, data):
        """Keras's running merge of per-batch moments over a dataset, `PyDataset` or iterable of batches."""
        if hasattr(data, "element_spec"):
            spec = data.element_spec[0] if isinstance(data.element_spec, tuple) else data.element_spec
            if spec.shape.rank == 1:
                data = data.batch(128)
        elif not hasattr(data, "__iter__"):
            raise TypeError(f"Unsupported data type: {type(data)}. `adapt` supports `np.ndarray`, backend tensors, "
                            "`tf.data.Dataset`, `keras.utils.PyDataset`, and iterables of batches (e.g. list, "
                            "generator).")
        batches = iter(data)
        first = next(batches, None)
        if first is None:
            raise ValueError("adapt() received an empty iterable (no batches). Expected at least one batch. Pass a "
                             "non-empty iterable of arrays or tensors, e.g. layer.adapt([x]) or "
                             "layer.adapt(list_of_batches).")
        first = first[0] if isinstance(first, tuple) else first
        if getattr(first, "shape", None) is None:
            raise TypeError("adapt() expects an iterable that yields arrays or tensors with a `.shape` attribute "
                            "(e.g. numpy arrays or backend tensors). Got an element of type "
                            f"{type(first).__name__}. Ensure each yielded element is array-like with a `.shape` "
                            "attribute.")
        self._check_adapt_shape(tuple(first.shape))
        mean = var = np.zeros(self._stat_shape, dtype=self.compute_dtype)
        total = 0
        for batch in itertools.chain([first], batches):
            b = _numpy(batch[0] if isinstance(batch, tuple) else batch).astype(self.compute_dtype)
            if any(b.shape[d] != self._build_input_shape[d] for d in self._keep_axis
                   if self._build_input_shape[d] is not None):
                raise ValueError(f"adapt() yielded a batch with incompatible shape. Expected "
                                 f"{self._build_input_shape}, got {b.shape}.")
            b_mean, b_var = b.mean(axis=self._reduce_axis), b.var(axis=self._reduce_axis)
            n = math.prod(b.shape[d] for d in self._reduce_axis)
            total += n
            w = n / total
            new_mean = mean * (1 - w) + b_mean * w
            var = (var + (mean - new_mean) ** 2) * (1 - w) + (b_var + (b_mean - new_mean) ** 2) * w
            mean = new_mean
        return mean, var

    def finalize_state(self):
        if self.input_mean is not None or not self.built:
            return
        self.mean = _wrap(self.adapt_mean._read().reshape(self._broadcast_shape))
        self.variance = _wrap(self.adapt_variance._read().reshape(self._broadcast_shape))

    def load_own_variables(self, store):
        """Keras: the loaded statistics become the layer's mean and variance (`finalize_state` after loading)."""
        super().load_own_variables(store)
        self.finalize_state()

    def call(self, inputs):
        x = _float_input(self, inputs)
        mean, var = storage(self.mean).to(x.dtype), storage(self.variance).to(x.dtype)
        std = torch.clamp(var.sqrt(), min=_EPSILON)
        return _wrap(mean + x * std if self.invert else (x - mean) / std)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "invert": self.invert, "mean": _listify(self.input_mean),
                       "variance": _listify(self.input_variance)})
        return config
