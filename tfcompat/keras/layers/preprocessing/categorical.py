"""Categorical encodings: CategoryEncoding (one_hot / multi_hot / count), Discretization (bucketing), Hashing."""
import math

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras._config import config
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _batches, validate_string_arg
from tfcompat.ops.gather_ops import one_hot_rows


def _encode(idx, depth, mode, dtype, weights=None, valid=None):
    """Integer ids `idx` (torch) as one_hot / multi_hot / count rows of width `depth` (Keras's encoding)."""
    if mode == "one_hot":
        if idx.ndim > 1 and idx.shape[-1] == 1:
            idx = idx.squeeze(-1)
        out = one_hot_rows(idx.clamp(0, depth - 1), depth)
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
        validate_string_arg(output_mode, ("int", "one_hot", "multi_hot", "count"), type(self).__name__,
                            "output_mode")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None and len(bin_boundaries) != num_bins - 1:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: `num_bins="
                             f"{num_bins}` and `bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
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


class Hashing(Layer):
    """Hashes values (strings; numbers by their decimal text) into `num_bins` bins with TF's FarmHash fingerprint
    (`salt`: the keyed SipHash of `to_hash_bucket_strong`); `mask_value` takes bin 0, the others shift by one."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else config.floatx
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        if output_mode == "int" and self.dtype_policy.name not in ("int32", "int64"):
            raise ValueError("When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or 'in64'. "
                             f"Received: dtype={kwargs['dtype']}")
        modes = ("int", "one_hot", "multi_hot", "count")
        if output_mode not in modes:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {modes}. Received: "
                             f"output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `\"one_hot\"`, `\"multi_hot\"`, or "
                             f"`\"count\"`. Received: sparse={sparse} and output_mode={output_mode}")
        if salt is not None and not (isinstance(salt, int) or (isinstance(salt, (tuple, list)) and len(salt) == 2)):
            raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a single "
                             f"integer. Received: salt={salt}.")
        self.num_bins, self.mask_value, self.output_mode, self.sparse = num_bins, mask_value, output_mode, sparse
        self.salt = None if salt is None else [salt, salt] if isinstance(salt, int) else list(salt)
        self.built = True

    def call(self, inputs):
        from tfcompat.ops import array_ops, math_ops, string_ops
        values = convert_to_tensor(inputs)
        if self.output_mode == "one_hot" and values.shape.rank and values.shape[-1] == 1:
            values = array_ops.squeeze(values, axis=-1)
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = math_ops.equal(values, self.mask_value)
        if values.dtype.is_floating:
            values = math_ops.cast(values, "int64")
        if values.dtype != dtypes.string:
            values = string_ops.as_string(values)
        if self.salt is not None:
            ids = storage(string_ops.to_hash_bucket_strong(values, bins, key=self.salt))
        else:
            ids = storage(string_ops.to_hash_bucket_fast(values, bins))
        if mask is not None:
            ids = torch.where(storage(mask), 0, ids + 1)
        if self.output_mode == "int":
            return _wrap(ids.to(getattr(torch, self.compute_dtype)))
        out = _encode(ids, self.num_bins, self.output_mode, getattr(torch, self.compute_dtype))
        return _sparse(out, out != 0) if self.sparse else _wrap(out)

    def _keras_output_spec(self, inputs, shape):
        """Keras's output spec: the input shape in "int" mode, else its last axis replaced by `num_bins`."""
        if self.output_mode == "int":
            return shape, self.compute_dtype
        return tuple(shape)[:-1] + (self.num_bins,), self.compute_dtype

    def get_config(self):
        config_ = super().get_config()
        config_.update({"num_bins": self.num_bins, "salt": self.salt, "mask_value": self.mask_value,
                        "output_mode": self.output_mode, "sparse": self.sparse})
        return config_
