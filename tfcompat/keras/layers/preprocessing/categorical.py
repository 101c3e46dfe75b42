"""Categorical encodings: CategoryEncoding (one_hot / multi_hot / count) and Discretization (bucketing)."""
import math

import numpy as np
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import _wrap
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _batches


def _encode(idx, depth, mode, dtype, weights=None, valid=None):
    """Integer ids `idx` (torch) as one_hot / multi_hot / count rows of width `depth` (Keras's encoding)."""
    if mode == "one_hot":
        if idx.ndim > 1 and idx.shape[-1] == 1:
            idx = idx.squeeze(-1)
        out = torch.nn.functional.one_hot(idx.clamp(0, depth - 1), depth)
        if valid is not None:
            out = out * valid.unsqueeze(-1)
        return out.to(dtype)
    flat = idx.reshape(1, 1) if not idx.ndim else idx.unsqueeze(0) if idx.ndim == 1 else idx.flatten(0, -2)
    # (rank 1: one sample; rows of no ids, such as an empty string's tokens, stay rows)
    w = torch.ones(flat.shape, dtype=torch.float64, device=flat.device) if weights is None else \
        weights.reshape(flat.shape).to(torch.float64)
    if valid is not None:
        w = w * valid.reshape(flat.shape)
    out = torch.zeros((flat.shape[0], depth), dtype=torch.float64, device=flat.device)
    out.scatter_add_(1, flat.clamp(0, depth - 1).long(), w)
    if mode == "multi_hot":
        out = (out > 0).to(torch.float64)
    return out.reshape(*idx.shape[:-1], depth).to(dtype)


def _sparse(dense, present):
    """A SparseTensor holding `dense` where `present` (the ids seen), in row-major order, as Keras's sparse
    encodings (a count whose weights sum to zero stays an explicit zero)."""
    indices = present.nonzero()
    return SparseTensor(_wrap(indices), _wrap(dense[present]), list(dense.shape))


class CategoryEncoding(Layer):
    """Encodes integer ids below `num_tokens` as one_hot / multi_hot / count vectors (float32); `sparse=True`
    gives them as a `tf.SparseTensor`."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens, self.output_mode, self.sparse = num_tokens, output_mode, sparse
        self.built = True

    def call(self, inputs, count_weights=None):
        idx = input_storage(inputs).long()
        w = input_storage(count_weights) if count_weights is not None else None
        dense = _encode(idx, self.num_tokens, self.output_mode, getattr(torch, self.compute_dtype), w)
        if self.sparse:
            present = dense != 0 if w is None else _encode(idx, self.num_tokens, self.output_mode, torch.int64) > 0
            return _sparse(dense, present)
        return _wrap(dense)

    def get_config(self):
        config = super().get_config()
        config.update({"num_tokens": self.num_tokens, "output_mode": self.output_mode})
        return config


class Discretization(Layer):
    """Buckets values by `bin_boundaries` (bucket i holds `b[i-1] <= x < b[i]`); `adapt` picks quantiles."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", sparse=False,
                 dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if sparse and output_mode == "int":
            raise ValueError("`sparse=True` may only be used if `output_mode` is `'one_hot'`, `'multi_hot'`, or "
                             f"`'count'`. Received: sparse={sparse} and output_mode={output_mode}")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {{'int', 'one_hot', "
                             f"'multi_hot', 'count'}}. Received: output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None and len(bin_boundaries) != num_bins - 1:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: `num_bins="
                             f"{num_bins}` and `bin_boundaries={bin_boundaries}`")
        self.bin_boundaries = list(bin_boundaries) if bin_boundaries is not None else None
        self.num_bins, self.epsilon, self.output_mode, self.sparse = num_bins, epsilon, output_mode, sparse
        self.built = True

    def adapt(self, data, steps=None):
        """Sets `bin_boundaries` to the `num_bins` quantiles of `data` (Keras uses an epsilon-approximate sketch;
        this takes exact lower quantiles of all values)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with `bin_boundaries`, "
                             "use `num_bins` instead.")
        values = np.sort(np.concatenate([b.reshape(-1) for b in _batches(data)]).astype("float64"))
        qs = np.arange(1, self.num_bins) / self.num_bins
        self.bin_boundaries = [float(values[int(math.floor(q * (len(values) - 1)))]) for q in qs]

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or call "
                             "`adapt(dataset)` before you can start using the `Discretization` layer.")
        x = input_storage(inputs)
        bounds = torch.tensor(self.bin_boundaries, dtype=torch.float64, device=x.device)
        idx = torch.bucketize(x.to(torch.float64), bounds, right=True)
        if self.output_mode == "int":
            return _wrap(idx.to(torch.int32))
        out = _encode(idx, len(self.bin_boundaries) + 1, self.output_mode, getattr(torch, self.compute_dtype))
        return _sparse(out, out != 0) if self.sparse else _wrap(out)

    def _keras_output_spec(self, inputs, shape):
        """Keras's output spec: int32 bucket ids, else the compute dtype (a sparse output is not marked sparse)."""
        return shape, "int32" if self.output_mode == "int" else self.compute_dtype

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name, "dtype": self.dtype}
