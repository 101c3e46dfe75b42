"""`RaggedTensor.__getitem__`: TF's indexing of rows, and slices of ragged and uniform inner dimensions."""
import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.ragged.tensor import RaggedTensor, ranges, splits_from_lengths, take
from tfcompat.framework.tensor import Tensor, wrap


def _index(k):
    """A scalar integer index (Python, NumPy or tensor) as an int; other keys unchanged."""
    if isinstance(k, Tensor) and k.shape.rank == 0 and k.dtype.is_integer:
        return int(k)
    return int(k) if isinstance(k, np.integer) else k


def getitem(rt, key):
    """`rt[key]`: an int or a slice per dimension; the first applies to rows, the rest inside each row. An Ellipsis
    stands for the full slices it spans, `tf.newaxis` (None) inserts a uniform dimension of size 1."""
    key = tuple(_index(k) for k in (key if isinstance(key, tuple) else (key,)))
    for k in key:
        if not (k is None or k is Ellipsis or isinstance(k, (int, slice))):
            raise NotImplementedError(f"RaggedTensor indexing with {k!r} is not supported by tfcompat "
                                      "(only ints, slices, Ellipsis and tf.newaxis)")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        spanned = rt.shape.rank - sum(1 for k in key if k is not None and k is not Ellipsis)
        key = key[:at] + (slice(None),) * max(spanned, 0) + tuple(k for k in key[at + 1:] if k is not Ellipsis)
    if None in key:
        out = getitem(rt, tuple(k for k in key if k is not None)) if any(k is not None for k in key) else rt
        kept = 0
        for k in key:           # a newaxis lands after the dimensions kept (slices and earlier newaxes) before it
            if k is None:
                out = _expand(out, kept)
            if not isinstance(k, int):
                kept += 1
        return out
    if len(key) > rt.shape.rank:
        raise ValueError("Too many indices for RaggedTensor")
    first, rest = key[0], key[1:]
    if isinstance(first, int):
        n = rt.nrows_int()
        if first >= n:
            raise IndexError(f"Row key {first} out of bounds")
        if first < -n:
            raise errors.InvalidArgumentError(None, None, f"slice index {first + n} of dimension 0 out of bounds. "
                                              "[Op:StridedSlice] name: strided_slice/")
        s = rt._row_splits._t
        lo, hi = int(s[first % n]), int(s[first % n + 1])
        row = take(rt._values, torch.arange(lo, hi, dtype=torch.int64))
        return row[rest] if rest else row
    rows = take(rt, torch.arange(*first.indices(rt.nrows_int()), dtype=torch.int64))
    return _inner(rows, rest) if rest else rows


def _inner(rt, key):
    """`key` applied to dimensions 1.. of every row of `rt` (its first dimension is ragged)."""
    k = key[0]
    if isinstance(k, int):
        raise ValueError("Cannot index into an inner ragged dimension.")
    s = rt._row_splits._t.to(torch.int64)
    lengths = s[1:] - s[:-1]
    if k.step not in (None, 1):
        step = int(k.step)
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "Requires delta != 0 [Op:RaggedRange] name: ")
        # Python's slice semantics within each row (as TF's ragged_range over per-row bounds)
        rows = [range(*k.indices(n)) for n in lengths.tolist()]
        new_lengths = torch.tensor([len(r) for r in rows], dtype=torch.int64)
        index = torch.tensor([int(base) + i for base, r in zip(s[:-1].tolist(), rows) for i in r], dtype=torch.int64)
        values = take(rt._values, index)
    else:
        start = _bound(k.start, lengths, 0)
        stop = _bound(k.stop, lengths, lengths)
        new_lengths = torch.clamp(stop - start, min=0)
        values = take(rt._values, ranges(s[:-1] + start, new_lengths))
    if len(key) > 1:
        values = _inner(values, key[1:]) if isinstance(values, RaggedTensor) else values[(slice(None),) + key[1:]]
    return RaggedTensor(values, wrap(splits_from_lengths(new_lengths, rt._row_splits._t.dtype)), internal=True)


def _bound(b, lengths, default):
    """Per-row position of slice bound `b` (Python semantics: negative counts from each row's end, clamped)."""
    if b is None:
        return default if isinstance(default, torch.Tensor) else torch.full_like(lengths, default)
    if b < 0:
        return torch.clamp(lengths + b, min=0)
    return torch.minimum(lengths, torch.full_like(lengths, b))


def _expand(x, axis):
    """A uniform dimension of size 1 inserted at `axis` of a RaggedTensor or a Tensor."""
    if not isinstance(x, RaggedTensor):
        return wrap(x._t[(slice(None),) * axis + (None,)]) if type(x._t) is not np.ndarray else \
            wrap(np.expand_dims(x._t, axis))
    if axis == 0:
        return RaggedTensor.from_uniform_row_length(x, x.nrows_int(), nrows=1, validate=False)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(x, 1, nrows=x.nrows_int(), validate=False)
    return x.with_values(_expand(x._values, axis - 1))
