"""`tf.ragged.cross`, `tf.sparse.cross` and their hashed forms (feature crosses of string/int64 rows), and
`tf.sparse.mask`."""
import itertools

import numpy as np
import torch

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.util import farmhash


def _text(v):
    return v if isinstance(v, bytes) else str(int(v)).encode()


def _rows(x, convert=_text):
    """The rows of one cross input (RaggedTensor, 2-D SparseTensor or dense tensor) as lists of `convert`ed values
    (bytes by default)."""
    if isinstance(x, RaggedTensor):
        return [[convert(v) for v in row] for row in x.to_list()]
    if isinstance(x, SparseTensor):
        rows = [[] for _ in range(x.shape.as_list()[0])]
        for (r, _), v in zip(storage(x.indices).tolist(), x.values.numpy().tolist()):
            rows[r].append(convert(v))
        return rows
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    return [[convert(v) for v in row] for row in t.numpy().tolist()]


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


def _hashed_crosses(inputs, num_buckets, hash_key):
    """Row by row, TF's hashed crosses: FingerprintCat64 chained from `hash_key` over each value's Fingerprint64 (an
    int64 value hashes as itself), modulo `num_buckets` (int64 max when 0)."""
    key = 0xDECAFCAFFE if hash_key is None else int(hash_key) & ((1 << 64) - 1)
    mod = int(num_buckets) if num_buckets else (1 << 63) - 1
    out = []
    for rows in zip(*[_rows(x, lambda v: v) for x in inputs]):
        crossed = []
        for parts in itertools.product(*rows):
            h = key
            for p in parts:
                h = farmhash.fingerprint_cat64(h, farmhash.fingerprint64(p) if isinstance(p, bytes)
                                               else int(p) & ((1 << 64) - 1))
            crossed.append(h % mod)
        out.append(crossed)
    return out


@tf_export("ragged.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """`tf.ragged.cross` with each cross hashed (int64) as TF's SparseCrossHashed does."""
    rows = _hashed_crosses(inputs, num_buckets, hash_key)
    values = wrap(torch.tensor([v - (1 << 64) if v >= 1 << 63 else v for r in rows for v in r], dtype=torch.int64))
    return RaggedTensor.from_row_lengths(values, torch.tensor([len(r) for r in rows], dtype=torch.int64),
                                         validate=False)


@tf_export("sparse.cross_hashed")
def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """`tf.ragged.cross_hashed` as a SparseTensor."""
    rt = cross_hashed(inputs, num_buckets, hash_key)
    return rt.to_sparse()


@tf_export("sparse.mask")
def mask(a, mask_indices, name=None):
    """The IndexedSlices `a` without the slices whose index is in `mask_indices`."""
    idx = storage(a.indices)
    drop = torch.as_tensor(storage(convert_to_tensor(mask_indices))).to(idx.dtype)
    keep = (~torch.isin(idx, drop)).nonzero().reshape(-1)
    values = storage(a.values)
    return IndexedSlices(wrap(values[keep.to(values.device)]), wrap(idx[keep]), a.dense_shape)
