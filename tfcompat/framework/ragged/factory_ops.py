"""`tf.ragged.constant`, `tf.ragged.range` and the row-splits / segment-ids conversions."""
import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged.tensor import RaggedTensor, _splits
from tfcompat.framework.tensor import Tensor, wrap


def _depth(x):
    if isinstance(x, (list, tuple)):
        return 1 + max((_depth(v) for v in x), default=0)
    if isinstance(x, np.ndarray):
        return x.ndim
    return 0


def _scalar_depths(x, depth, out):
    if isinstance(x, (list, tuple)):
        for v in x:
            _scalar_depths(v, depth + 1, out)
    else:
        out.add(depth)


@tf_export("ragged.constant")
def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A RaggedTensor from nested Python lists (a tf.Tensor when `ragged_rank` is 0); `inner_shape` is the shape of
    each flat value (the dimensions below the ragged ones)."""
    if isinstance(pylist, Tensor):
        raise TypeError("pylist may not be a Tensor")
    depths = set()
    _scalar_depths(pylist, 0, depths)
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    has_scalars = bool(depths)
    depth = depths.pop() if depths else _depth(pylist)
    if inner_shape is not None:
        inner_shape = tuple(int(d) for d in inner_shape)
        if ragged_rank is None:
            ragged_rank = max(depth - 1 - len(inner_shape), 0)
        elif has_scalars and ragged_rank + len(inner_shape) + 1 != depth:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank} and "
                             f"dim(inner_shape)={len(inner_shape)}")
        if ragged_rank == 0:
            from tfcompat.framework.convert import constant as dense_constant
            return dense_constant(pylist, dtype=dtype, shape=inner_shape)
    if ragged_rank is None:
        ragged_rank = max(depth - 1, 0)
    if ragged_rank and ragged_rank >= max(depth, 1):
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    splits_dt = dtypes.as_dtype(row_splits_dtype).as_numpy_dtype
    nested_splits = []
    rows = list(pylist) if isinstance(pylist, (list, tuple)) else pylist
    for _ in range(ragged_rank):
        splits = [0]
        nxt = []
        for r in rows:
            nxt.extend(r)
            splits.append(len(nxt))
        nested_splits.append(np.asarray(splits, dtype=splits_dt))
        rows = nxt
    if rows:
        flat = convert_to_tensor(rows, dtype=dtype)
    else:
        inner = [0] * (depth - ragged_rank) if depths else [0]
        inner = [0] + list(inner_shape) if inner_shape is not None else inner
        flat = wrap(np.empty(inner, dtype=object)) if dtype is dtypes.string else \
            wrap(torch.zeros(inner, dtype=(dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32).torch_dtype))
    if ragged_rank == 0:
        return flat
    return RaggedTensor.from_nested_row_splits(flat, [convert_to_tensor(s) for s in nested_splits], validate=False)


@tf_export("ragged.range")
def range_(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
    """Row `i` is `range(starts[i], limits[i], deltas[i])` (rows from 0 to `starts` when `limits` is None)."""
    if limits is None:
        starts, limits = 0, starts
    parts = [convert_to_tensor(v) if not isinstance(v, Tensor) else v for v in (starts, limits, deltas)]
    if dtype is not None:
        parts = [wrap(p._t.to(dtypes.as_dtype(dtype).torch_dtype)) for p in parts]
    else:
        kinds = [p.dtype for p in parts]
        common = dtypes.float32 if any(k.is_floating for k in kinds) else dtypes.int32
        if dtypes.int64 in kinds and common is dtypes.int32:
            common = dtypes.int64
        parts = [wrap(p._t.to(common.torch_dtype)) for p in parts]
    s, l, d = torch.broadcast_tensors(*(p._t.reshape(-1) for p in parts))
    rows = [torch.arange(float(a) if a.is_floating_point() else int(a), float(b) if b.is_floating_point() else int(b),
                         float(c) if c.is_floating_point() else int(c), dtype=a.dtype) for a, b, c in zip(s, l, d)]
    values = torch.cat(rows) if rows else s.new_zeros(0)
    lengths = torch.tensor([r.shape[0] for r in rows], dtype=dtypes.as_dtype(row_splits_dtype).torch_dtype)
    return RaggedTensor.from_row_lengths(wrap(values), wrap(lengths), validate=False)


@tf_export("ragged.row_splits_to_segment_ids")
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of each value for the given row splits."""
    s = _splits(splits)._t
    ids = torch.repeat_interleave(torch.arange(s.shape[0] - 1, dtype=s.dtype), s[1:] - s[:-1])
    return wrap(ids if out_type is None else ids.to(dtypes.as_dtype(out_type).torch_dtype))


@tf_export("ragged.segment_ids_to_row_splits")
def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of sorted segment ids (`num_segments` rows, by default max id + 1)."""
    ids = _splits(segment_ids)._t
    n = int(num_segments) if num_segments is not None else (int(ids.max()) + 1 if ids.numel() else 0)
    counts = torch.bincount(ids, minlength=n)
    out = torch.cat([counts.new_zeros(1), torch.cumsum(counts, 0)])
    return wrap(out.to(dtypes.as_dtype(out_type or dtypes.int64).torch_dtype))
