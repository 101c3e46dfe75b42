"""`tf.experimental.DynamicRaggedShape` and `tf.experimental.RowPartition`: the shape of a RaggedTensor (row
partitions, then the inner dense shape), as `tf.shape(rt)` returns it."""
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged.tensor import RaggedTensor, splits_from_lengths
from tfcompat.framework.tensor import Tensor, wrap


def _int_list(values):
    if isinstance(values, Tensor):
        return [int(v) for v in values._array().reshape(-1)]
    return [int(v) for v in values]


@tf_export("experimental.RowPartition", partial="built from row lengths or row splits only")
class RowPartition:
    """How a flat list of values is cut into rows (held as row splits)."""

    def __init__(self, row_splits, internal=False):
        if not internal:
            raise ValueError("RowPartition constructor is private; please use one of the factory methods instead "
                             "(e.g., RowPartition.from_row_lengths())")
        self._splits = row_splits

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        lengths = torch.tensor(_int_list(row_lengths), dtype=torch.int64)
        return cls(splits_from_lengths(lengths), internal=True)

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        return cls(torch.tensor(_int_list(row_splits), dtype=torch.int64), internal=True)

    def row_splits(self):
        return wrap(self._splits)

    def row_lengths(self):
        return wrap(self._splits[1:] - self._splits[:-1])

    def nrows(self):
        return wrap(torch.tensor(self._splits.shape[0] - 1, dtype=torch.int64))

    def lengths(self):
        return tuple((self._splits[1:] - self._splits[:-1]).tolist())

    def __repr__(self):
        return f"tf.RowPartition(row_splits={self._splits.numpy()})"


@tf_export("experimental.DynamicRaggedShape", partial="construction, indexing and slicing from the start; no "
                                                       "broadcasting or conversion methods")
class DynamicRaggedShape:
    """A shape whose dimensions may be ragged: `row_partitions` (one per ragged or partitioned dimension) and the
    dense `inner_shape` of the flat values."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=True, static_inner_shape=None):
        self._partitions = [p.lengths() if isinstance(p, RowPartition) else tuple(p) for p in row_partitions]
        self._inner = _int_list(inner_shape)
        self._dtype = dtypes.int64 if dtype is None else dtypes.as_dtype(dtype)
        self._uniform = {}          # partition index -> its row length, for partitions given as a uniform size

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """From `[nrows, (row lengths) or size, ...]`: a tuple per ragged dimension, ints for uniform ones."""
        lengths = [tuple(int(v) for v in d) if isinstance(d, (tuple, list)) else int(d) for d in lengths]
        ragged = [i for i, d in enumerate(lengths) if isinstance(d, tuple)]
        k = ragged[-1] if ragged and num_row_partitions is None else (num_row_partitions or 0)
        partitions, uniform, rows = [], {}, lengths[0] if lengths else 0
        for i, d in enumerate(lengths[1:k + 1]):
            if not isinstance(d, tuple):
                uniform[i] = d
            part = d if isinstance(d, tuple) else (d,) * rows
            partitions.append(part)
            rows = sum(part)
        inner = [rows] + list(lengths[k + 1:]) if k else list(lengths)
        shape = cls(partitions, inner, dtype)
        shape._uniform = uniform
        return shape

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a RaggedTensor (its nested row lengths) or of a dense tensor."""
        if isinstance(t, RaggedTensor):
            parts = [tuple((s._t[1:] - s._t[:-1]).tolist()) for s in t.nested_row_splits]
            return cls(parts, [int(t.flat_values._t.shape[0])] + t.flat_values.shape.as_list()[1:], dtype)
        return cls([], list(t.shape.as_list()), dtype)

    dtype = property(lambda self: self._dtype)
    num_row_partitions = property(lambda self: len(self._partitions))
    rank = property(lambda self: len(self._partitions) + len(self._inner))

    @property
    def row_partitions(self):
        return tuple(RowPartition.from_row_lengths(p) for p in self._partitions)

    @property
    def inner_shape(self):
        return wrap(torch.tensor(self._inner, dtype=self._dtype.torch_dtype))

    def static_lengths(self, ragged_lengths=True):
        """The dimension lengths: ints, and for ragged dimensions tuples of row lengths (None if not asked for)."""
        return [d if ragged_lengths or not isinstance(d, tuple) else None for d in self._lengths()]

    def __getitem__(self, index):
        dims = self._lengths()
        if isinstance(index, slice):
            if index.start not in (None, 0) or index.step not in (None, 1):
                raise NotImplementedError("DynamicRaggedShape slices other than [:k] are not supported by tfcompat")
            return DynamicRaggedShape.from_lengths(dims[:index.stop], dtype=self._dtype)
        i = int(index) % len(dims)
        if isinstance(dims[i], tuple):
            raise ValueError(f"Index {int(index)} is not uniform")
        return wrap(torch.tensor(dims[i], dtype=self._dtype.torch_dtype))

    def _lengths(self):
        """TF's `lengths`: the row count, a tuple per partitioned dimension, then the inner dimensions."""
        if not self._partitions:
            return list(self._inner)
        parts = [self._uniform.get(i, p) for i, p in enumerate(self._partitions)]
        return [len(self._partitions[0])] + parts + self._inner[1:]

    def __repr__(self):
        text = ", ".join(map(repr, self._lengths()))
        return f"<DynamicRaggedShape lengths=[{text}] num_row_partitions={self.num_row_partitions}>"

    def _ragged_of(self, flat):
        """A RaggedTensor of this shape whose flat values are `flat` (a Tensor of the inner shape)."""
        result = flat
        for p in reversed(self._partitions):
            lengths = torch.tensor(p, dtype=torch.int64)
            result = RaggedTensor(result, wrap(splits_from_lengths(lengths)), internal=True)
        return result
