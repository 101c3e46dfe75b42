"""What `TestCase.evaluate` returns for composite tensors, as TF's TF1-era value classes: `SparseTensorValue`,
`tf.RaggedTensorValue` (with `to_list`), `IndexedSlicesValue`; and the conversion of one value to NumPy."""
import collections
import sys

import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable

SparseTensorValue = collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])
IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])


class RaggedTensorValue:
    """A ragged tensor's NumPy value: `values` (an ndarray or a nested RaggedTensorValue) and `row_splits`."""

    def __init__(self, values, row_splits):
        self._values = values
        self._row_splits = row_splits

    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)
    flat_values = property(lambda self: self._values.flat_values if isinstance(self._values, RaggedTensorValue)
                           else self._values)
    dtype = property(lambda self: self._values.dtype)
    ragged_rank = property(lambda self: 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensorValue)
                                             else 0))

    @property
    def shape(self):
        return (self._row_splits.shape[0] - 1, None) + tuple(self._values.shape[1:])

    def __str__(self):
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"

    def to_list(self):
        """The value as nested Python lists."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        splits = self._row_splits.tolist()
        return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]


def is_tensor_like(x):
    """TF's `tensor_util.is_tf_type`: a tensor, a variable or a composite tensor."""
    return isinstance(x, (Tensor, Variable, SparseTensor, RaggedTensor, IndexedSlices))


def is_bfloat16(x):
    """Whether `x` is a bfloat16 tensor or variable (whose NumPy value tfcompat gives as float32)."""
    return isinstance(x, (Tensor, Variable)) and x.dtype == dtypes.bfloat16


def eval_tensor(tensor):
    """One value of `TestCase.evaluate`'s structure as NumPy (TF's `_eval_tensor`)."""
    if tensor is None:
        return None
    if callable(tensor) and not isinstance(tensor, (Tensor, Variable)):
        return eval_structure(tensor())
    try:
        if isinstance(tensor, SparseTensor):
            return SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(), tensor.dense_shape.numpy())
        if isinstance(tensor, RaggedTensor):
            return RaggedTensorValue(eval_tensor(tensor.values), eval_tensor(tensor.row_splits))
        if isinstance(tensor, IndexedSlices):
            shape = tensor.dense_shape
            return IndexedSlicesValue(values=tensor.values.numpy(), indices=tensor.indices.numpy(),
                                      dense_shape=None if shape is None else shape.numpy())
        if callable(getattr(tensor, "numpy", None)):
            return tensor.numpy()
        data = sys.modules.get("tfcompat.data.dataset")
        if data is not None and isinstance(tensor, data.Dataset):
            # TF expands a dataset to its variant tensor, which has no NumPy value
            from tfcompat.framework import errors
            raise errors.InvalidArgumentError(None, None, "Cannot convert a Tensor of dtype variant to a NumPy array.")
        from tfcompat.util import nest
        return nest.map_structure(lambda t: t.numpy(), tensor, expand_composites=True)
    except AttributeError as e:
        raise ValueError(f"Unsupported type {type(tensor).__name__!r}.") from e


def eval_structure(tensors):
    """TF's `_eval_helper`: `eval_tensor` over a nested structure."""
    if tensors is None:
        return None
    from tfcompat.util import nest
    return nest.map_structure(eval_tensor, tensors)


def as_ndarray(a):
    """TF's `_GetNdArray`: a tensor's NumPy value, or `np.array(a)` (dtype object for a ragged nested list)."""
    if is_tensor_like(a):
        a = eval_tensor(a)
    if not isinstance(a, np.ndarray):
        try:
            return np.array(a)
        except ValueError as e:
            if "inhomogeneous shape" in str(e):
                return np.array(a, dtype=object)
            raise
    return a
