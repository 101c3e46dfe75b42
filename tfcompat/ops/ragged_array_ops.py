"""RaggedTensor forms of structural ops (TF's dispatch): `tf.concat`, `tf.stack`, `tf.tile`, `tf.reverse`,
`tf.strings.join`, and `tf.ragged.stack`/`boolean_mask`/`stack_dynamic_partitions`."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import DynamicRaggedShape, RaggedTensor, broadcast
from tfcompat.framework.ragged.tensor import ranges, splits_from_lengths, take
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops import array_ops, creation_ops, debugging_ops, gather_ops, string_ops
from tfcompat.ops.ragged_ops import _innermost_replaced, dispatch


def _as_ragged(values, dtype):
    """Operands of a ragged op: RaggedTensors kept, dense values (rank >= 2) converted with ragged_rank 1."""
    out = []
    for v in values:
        if not isinstance(v, RaggedTensor):
            v = v if isinstance(v, Tensor) else convert_to_tensor(v, dtype=dtype)
            if v.shape.rank < 2:
                raise ValueError(f"Ragged ops need inputs of rank >= 2 (got rank {v.shape.rank})")
            v = RaggedTensor.from_tensor(v)
        out.append(v)
    ranks = {v.ragged_rank for v in out}
    if len(ranks) > 1:
        raise NotImplementedError("ragged ops over RaggedTensors of different ragged_rank are not supported by "
                                  "tfcompat")
    return out


def _cat_rows(parts):
    """Rows of Tensors or RaggedTensors, one after another."""
    if isinstance(parts[0], RaggedTensor):
        return _concat_rows(parts)
    return array_ops.concat(parts, 0)


def _concat_rows(rts):
    values = _cat_rows([r.values for r in rts])
    lengths = torch.cat([storage(r.row_lengths()).to(torch.int64) for r in rts])
    return RaggedTensor(values, wrap(splits_from_lengths(lengths, storage(rts[0].row_splits).dtype)), internal=True)


def _interleave_rows(rts):
    """Row `i` of the result is row `i` of each input in turn (concatenation along axis 1)."""
    n = rts[0].nrows_int()
    if any(r.nrows_int() != n for r in rts):
        raise errors.InvalidArgumentError(None, None, "Input tensors have incompatible shapes.")
    lengths = torch.stack([storage(r.row_lengths()).to(torch.int64) for r in rts])       # [k, n]
    new_splits = splits_from_lengths(lengths.sum(0))
    before = torch.cumsum(lengths, 0) - lengths                                           # earlier inputs, per row
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(lengths.sum(1), 0)[:-1]])
    source = torch.empty(int(new_splits[-1]), dtype=torch.int64)
    for k, r in enumerate(rts):
        own = storage(r.row_splits).to(torch.int64)
        source[ranges(new_splits[:-1] + before[k], lengths[k])] = ranges(own[:-1] + offsets[k], lengths[k])
    values = take(_cat_rows([r.values for r in rts]), source)
    return RaggedTensor(values, wrap(new_splits.to(storage(rts[0].row_splits).dtype)), internal=True)


def _dtype(values):
    return next((v.dtype for v in values if isinstance(v, (Tensor, RaggedTensor))), None)


def ragged_concat(values, axis, name=None):
    """`tf.concat` with RaggedTensor inputs, along axis 0 (rows) or 1 (within rows)."""
    rts = _as_ragged(values, _dtype(values))
    rank = max(r.shape.rank for r in rts)
    a = int(axis) % rank
    if a == 0:
        return _concat_rows(rts)
    if a == 1:
        return _interleave_rows(rts)
    raise NotImplementedError(f"tf.concat of RaggedTensors along axis {axis} is not supported by tfcompat")


def ragged_stack(values, axis=0, name=None):
    """`tf.stack` with RaggedTensor inputs along axis 0: a RaggedTensor with one more (uniform-count) dimension."""
    if int(axis) != 0:
        raise NotImplementedError(f"tf.stack of RaggedTensors along axis {axis} is not supported by tfcompat")
    rts = _as_ragged(values, _dtype(values))
    counts = torch.tensor([r.nrows_int() for r in rts], dtype=torch.int64)
    return RaggedTensor(_concat_rows(rts), wrap(splits_from_lengths(counts)), internal=True)


def ragged_tile(input, multiples, name=None):  # noqa: A002  (TF's argument name)
    """`tf.tile` of a 2-D RaggedTensor: each row repeated `multiples[1]` times, then all rows `multiples[0]`."""
    m = [int(v) for v in (storage(multiples).tolist() if isinstance(multiples, Tensor) else multiples)]
    if input.shape.rank != 2 or len(m) != 2:
        raise NotImplementedError("tf.tile of RaggedTensors other than 2-D is not supported by tfcompat")
    s = storage(input.row_splits).to(torch.int64)
    lengths = s[1:] - s[:-1]
    new_lengths = lengths * m[1]
    local = ranges(torch.zeros_like(lengths), new_lengths)
    rows = torch.repeat_interleave(torch.arange(lengths.shape[0]), new_lengths)
    values = take(input.values, s[:-1][rows] + local % lengths[rows].clamp(min=1))
    tiled = RaggedTensor(values, wrap(splits_from_lengths(new_lengths, s.dtype)), internal=True)
    return take(tiled, torch.arange(lengths.shape[0]).repeat(m[0]))


def _reverse_axis(rt, axis):
    if not isinstance(rt, RaggedTensor):
        return array_ops.reverse(rt, [axis])
    if axis == 0:
        return take(rt, torch.arange(rt.nrows_int() - 1, -1, -1))
    if axis > rt.ragged_rank:
        return rt.with_flat_values(array_ops.reverse(rt.flat_values, [axis - rt.ragged_rank]))
    if axis >= 2:
        return rt.with_values(_reverse_axis(rt.values, axis - 1))
    s = storage(rt.row_splits).to(torch.int64)
    lengths = s[1:] - s[:-1]
    local = ranges(torch.zeros_like(lengths), lengths)
    rows = torch.repeat_interleave(torch.arange(lengths.shape[0]), lengths)
    return rt.with_values(take(rt.values, s[1:][rows] - 1 - local))


def ragged_reverse(tensor, axis, name=None):
    """`tf.reverse` of a RaggedTensor: rows (axis 0), values within rows, or inner dimensions."""
    out = tensor
    rank = tensor.shape.rank
    for a in (storage(axis).reshape(-1).tolist() if isinstance(axis, Tensor) else list(axis)):
        out = _reverse_axis(out, int(a) % rank)
    return out


def ragged_join(inputs, separator="", name=None):
    """`tf.strings.join` of RaggedTensors sharing one row partition (scalars broadcast)."""
    rts = [v for v in inputs if isinstance(v, RaggedTensor)]
    first = rts[0]
    for other in rts[1:]:
        for a, b in zip(first.nested_row_splits, other.nested_row_splits):
            debugging_ops.assert_equal(a, b)
    flat = [v.flat_values if isinstance(v, RaggedTensor) else v for v in inputs]
    return first.with_flat_values(string_ops.join(flat, separator=separator))


@tf_export("ragged.stack")
def stack(values, axis=0, name=None):
    """Stacks RaggedTensors (or dense tensors) along a new axis 0; dense vectors become the rows."""
    if int(axis) == 0 and values and not any(isinstance(v, RaggedTensor) for v in values):
        dense = [v if isinstance(v, Tensor) else convert_to_tensor(v, dtype=_dtype(values)) for v in values]
        if all(v.shape.rank == 1 for v in dense):
            return RaggedTensor.from_row_lengths(array_ops.concat(dense, 0), [v.shape[0] for v in dense],
                                                 validate=False)
    return ragged_stack(values, axis, name)


@tf_export("ragged.boolean_mask")
def boolean_mask(data, mask, name=None):
    """The entries of `data` where `mask` (same outer shape, dense or ragged) is True, keeping the row structure."""
    if not isinstance(data, RaggedTensor) and not isinstance(mask, RaggedTensor):
        keep = storage(convert_to_tensor(mask)).to(torch.bool)
        if keep.dim() > 2:
            raise NotImplementedError("tf.ragged.boolean_mask of dense tensors with a mask of rank > 2 is not "
                                      "supported by tfcompat")
        if keep.dim() == 1:
            return take(data if isinstance(data, Tensor) else convert_to_tensor(data), keep.nonzero().reshape(-1))
    if not isinstance(data, RaggedTensor):
        data = RaggedTensor.from_tensor(convert_to_tensor(data))
    if not isinstance(mask, RaggedTensor):
        mask = RaggedTensor.from_tensor(convert_to_tensor(mask))
    if mask.ragged_rank != 1 or data.ragged_rank != 1:
        raise NotImplementedError("tf.ragged.boolean_mask beyond ragged_rank 1 is not supported by tfcompat")
    keep = storage(mask.flat_values).to(torch.bool)
    rows = storage(mask.value_rowids()).to(torch.int64)
    counts = torch.bincount(rows[keep], minlength=mask.nrows_int())
    values = take(data.values, keep.nonzero().reshape(-1))
    return RaggedTensor(values, wrap(splits_from_lengths(counts, storage(data.row_splits).dtype)), internal=True)


def ragged_shape(input, out_type=dtypes.int32, name=None):  # noqa: A002  (TF's argument name)
    """`tf.shape` of a RaggedTensor: its DynamicRaggedShape."""
    return DynamicRaggedShape.from_tensor(input, out_type)


def _shaped(shape, dense):
    """A RaggedTensor of DynamicRaggedShape `shape` whose flat values `dense(inner_shape)` makes."""
    return shape._ragged_of(dense(shape.inner_shape))


def ragged_gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """`tf.gather` of RaggedTensor rows (axis 0), or of dense params by ragged indices (a RaggedTensor)."""
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(gather_ops.gather(params, indices.flat_values, axis=axis,
                                                          batch_dims=batch_dims))
    if axis not in (None, 0) or batch_dims:
        raise NotImplementedError("tf.gather of a RaggedTensor along an axis other than 0 is not supported by "
                                  "tfcompat")
    idx = storage(indices if isinstance(indices, Tensor) else convert_to_tensor(indices)).to(torch.int64)
    n = params.nrows_int()
    bad = ((idx < 0) | (idx >= n)).reshape(-1).nonzero().reshape(-1)
    if bad.numel():
        i = int(bad[0])
        where = "indices" if idx.dim() == 0 else f"indices[{i}]"
        raise errors.op_error(errors.InvalidArgumentError, f"{where} = {int(idx.reshape(-1)[i])} is not in [0, {n})",
                              "RaggedGather")
    if idx.dim() == 0:
        return params[int(idx)]
    rows = take(params, idx.reshape(-1))
    for d in reversed(idx.shape[1:]):
        rows = RaggedTensor.from_uniform_row_length(rows, d, validate=False)
    return rows


def ragged_reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """`tf.strings.reduce_join` of a RaggedTensor: each row of the innermost ragged dimension joined."""
    rank = inputs.shape.rank
    if axis is None or int(axis) % rank != inputs.ragged_rank or inputs.flat_values.shape.rank != 1 or keepdims:
        raise NotImplementedError("tf.strings.reduce_join of a RaggedTensor other than along its innermost ragged "
                                  "dimension is not supported by tfcompat")
    sep = separator.encode() if isinstance(separator, str) else separator
    flat = storage(inputs.flat_values)
    splits = storage(inputs.nested_row_splits[-1]).tolist()
    joined = np.empty(len(splits) - 1, dtype=object)
    for i in range(len(splits) - 1):
        joined[i] = sep.join(flat[splits[i]:splits[i + 1]])
    return _innermost_replaced(inputs, wrap(joined))


def ragged_where(condition, x=None, y=None, name=None):
    """`tf.where(condition, x, y)` with a ragged condition: `x`/`y` (ragged alike or broadcast dense) per value."""
    if not isinstance(condition, RaggedTensor) or (x is None) != (y is None):
        raise NotImplementedError("tf.where with a RaggedTensor is supported by tfcompat only as "
                                  "where(ragged_condition[, x, y])")
    if x is None:       # the coordinates of the True values, as TF: an int64 [n, rank] tensor
        coords = condition.to_sparse()
        keep = storage(coords.values).to(torch.bool).nonzero().reshape(-1)
        return wrap(storage(coords.indices)[keep])

    def values_of(v):
        if isinstance(v, RaggedTensor):
            for a, b in zip(condition.nested_row_splits, v.nested_row_splits):
                debugging_ops.assert_equal(a, b)
            return v.flat_values
        return broadcast._aligned(condition, v if isinstance(v, Tensor) else convert_to_tensor(v, dtype_hint=_dtype(
            [x, y])))
    return condition.with_flat_values(gather_ops.where(condition.flat_values, values_of(x), values_of(y)))


dispatch("shape", ragged_shape)
dispatch("where", ragged_where)
dispatch("gather", ragged_gather)
dispatch("strings.reduce_join", ragged_reduce_join)
dispatch("reshape", lambda tensor, shape, name=None: _shaped(shape, lambda s: array_ops.reshape(tensor, s)))
dispatch("zeros", lambda shape, dtype=dtypes.float32, name=None, layout=None: _shaped(
    shape, lambda s: creation_ops.zeros(s, dtype)))
dispatch("ones", lambda shape, dtype=dtypes.float32, name=None, layout=None: _shaped(
    shape, lambda s: creation_ops.ones(s, dtype)))
dispatch("fill", lambda dims, value, name=None: _shaped(dims, lambda s: creation_ops.fill(s, value)))
dispatch("concat", ragged_concat)
dispatch("stack", ragged_stack)
dispatch("tile", ragged_tile)
dispatch("reverse", ragged_reverse)
dispatch("strings.join", ragged_join)


@tf_export("ragged.stack_dynamic_partitions")
def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row `p` holds the rows of `data` whose partition is `p`, in order (a RaggedTensor of `num_partitions` rows)."""
    data = data if isinstance(data, (Tensor, RaggedTensor)) else convert_to_tensor(data)
    parts = storage(partitions if isinstance(partitions, Tensor) else convert_to_tensor(partitions)).to(torch.int64)
    order = torch.argsort(parts, stable=True)
    counts = torch.bincount(parts, minlength=int(num_partitions))
    return RaggedTensor(take(data, order), wrap(splits_from_lengths(counts)), internal=True)
