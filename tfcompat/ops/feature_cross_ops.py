"""`tf.ragged.cross`, `tf.sparse.cross` (feature crosses of string/int64 rows) and `tf.sparse.mask`."""
import itertools

import numpy as np
import torch

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap


def _text(v):
    return v if isinstance(v, bytes) else str(int(v)).encode()


def _rows(x):
    """The rows of one cross input (RaggedTensor, 2-D SparseTensor or dense tensor) as lists of bytes."""
    if isinstance(x, RaggedTensor):
        return [[_text(v) for v in row] for row in x.to_list()]
    if isinstance(x, SparseTensor):
        rows = [[] for _ in range(x.shape.as_list()[0])]
        for (r, _), v in zip(storage(x.indices).tolist(), x.values.numpy().tolist()):
            rows[r].append(_text(v))
        return rows
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return [[_text(v) for v in row] for row in t.numpy().tolist()]


def _crosses(inputs, separator):
    sep = separator.encode() if isinstance(separator, str) else separator
    per_input = [_rows(x) for x in inputs]
    return [[sep.join(parts) for parts in itertools.product(*rows)] for rows in zip(*per_input)]


def _strings(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return wrap(out)


@tf_export("ragged.cross")
def cross(inputs, name=None):
    """Row by row, every combination of one value from each input joined by "_X_" (a RaggedTensor of strings)."""
    rows = _crosses(inputs, "_X_")
    return RaggedTensor.from_row_lengths(_strings([v for r in rows for v in r]),
                                         torch.tensor([len(r) for r in rows], dtype=torch.int64), validate=False)


@tf_export("sparse.cross")
def sparse_cross(inputs, name=None, separator=None):
    """`tf.ragged.cross` as a SparseTensor (the joiner `separator`, "_X_" by default)."""
    rows = _crosses(inputs, "_X_" if separator is None else separator)
    idx = [[i, j] for i, r in enumerate(rows) for j in range(len(r))]
    return SparseTensor(wrap(torch.tensor(idx, dtype=torch.int64).reshape(-1, 2)),
                        _strings([v for r in rows for v in r]),
                        wrap(torch.tensor([len(rows), max((len(r) for r in rows), default=0)], dtype=torch.int64)))


@tf_export("sparse.mask")
def mask(a, mask_indices, name=None):
    """The IndexedSlices `a` without the slices whose index is in `mask_indices`."""
    idx = storage(a.indices)
    drop = torch.as_tensor(storage(convert_to_tensor(mask_indices))).to(idx.dtype)
    keep = (~torch.isin(idx, drop)).nonzero().reshape(-1)
    values = storage(a.values)
    return IndexedSlices(wrap(values[keep.to(values.device)]), wrap(idx[keep]), a.dense_shape)
