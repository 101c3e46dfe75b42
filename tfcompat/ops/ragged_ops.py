"""TF's dispatch of public ops to RaggedTensor arguments: reductions, `tf.ragged.map_flat_values` and ops that act
on flat values; `ragged_array_ops` adds the structural ones (concat, tile, reverse, ...)."""
import functools

import numpy as np
import torch

from tfcompat.framework import dtypes, ragged as _ragged
from tfcompat.framework.export import EXPORTS, tf_export
from tfcompat.framework.ragged import DynamicRaggedShape, RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops import array_ops, debugging_ops, math_ops, reduction_ops

_ragged.register_ops(**{name: getattr(math_ops, name) for name in (
    "floordiv", "floormod", "pow", "logical_and", "logical_or", "logical_xor", "less", "less_equal", "greater",
    "greater_equal", "negative", "abs", "logical_not", "equal", "not_equal")})


RAGGED = (RaggedTensor, DynamicRaggedShape)


def _has(types, value):
    if type(value) in types:
        return True
    if isinstance(value, (list, tuple)):
        return any(_has(types, v) for v in value)
    if isinstance(value, dict):
        return any(_has(types, v) for v in value.values())
    return False


def dispatch(name, ragged_fn, types=RAGGED):
    """Public op `tf.<name>` (and its aliases) runs `ragged_fn` when the dense op rejects an argument of `types`
    (RaggedTensors by default)."""
    dense = EXPORTS[name]

    @functools.wraps(dense)
    def op(*args, **kwargs):
        try:
            return dense(*args, **kwargs)
        except (TypeError, ValueError):
            if not (_has(types, args) or _has(types, kwargs)):
                raise
        return ragged_fn(*args, **kwargs)

    for alias in _aliases(dense):
        EXPORTS[alias] = op
    return op


_ALIASES = {}       # id(exported object) -> its public names, indexed once (the registry holds thousands)


def _aliases(obj):
    if not _ALIASES:
        for name, o in EXPORTS.items():
            _ALIASES.setdefault(id(o), []).append(name)
    return [name for name in _ALIASES.get(id(obj), ()) if EXPORTS.get(name) is obj]


def on_flat_values(dense, position=0):
    """The ragged form of an op elementwise in argument `position`: the op on its flat values, same partition."""
    def ragged_fn(*args, **kwargs):
        args = list(args)
        rt = args[position]
        args[position] = rt.flat_values
        return rt.with_flat_values(dense(*args, **kwargs))
    return ragged_fn


def _flatten_args(value, partitions):
    """`value` with every RaggedTensor replaced by its flat values (their row splits collected)."""
    if type(value) is RaggedTensor:
        partitions.append(value)
        return value.flat_values
    if isinstance(value, (list, tuple)):
        return type(value)(_flatten_args(v, partitions) for v in value)
    if isinstance(value, dict):
        return {k: _flatten_args(v, partitions) for k, v in value.items()}
    return value


@tf_export("ragged.map_flat_values")
def map_flat_values(op, *args, **kwargs):
    """`op` applied to the flat values of the RaggedTensor arguments (which must share row partitions)."""
    partitions = []
    args = _flatten_args(list(args), partitions)
    kwargs = _flatten_args(kwargs, partitions)
    if not partitions:
        return op(*args, **kwargs)
    first = partitions[0]
    for other in partitions[1:]:
        if other.ragged_rank != first.ragged_rank:
            raise ValueError("All ragged inputs must have the same ragged_rank.")
        for a, b in zip(first.nested_row_splits, other.nested_row_splits):
            debugging_ops.assert_equal(a, b, message="Inputs must have identical ragged splits")
    return first.with_flat_values(op(*args, **kwargs))


# -- reductions ---------------------------------------------------------------------------------------------------
def _segment_reduce(kind, t, ids, n):
    """Reduction `kind` of the rows of storage `t` grouped by `ids` into `n` segments (TF's empty-segment values)."""
    shape = (n,) + tuple(t.shape[1:])
    index = ids.to(t.device).reshape((-1,) + (1,) * (t.dim() - 1)).expand_as(t)
    if kind in ("sum", "mean"):
        total = torch.zeros(shape, dtype=t.dtype, device=t.device).index_add(0, ids.to(t.device), t)
        if kind == "sum":
            return total
        count = torch.bincount(ids, minlength=n).to(t.dtype).reshape((n,) + (1,) * (t.dim() - 1))
        return storage(math_ops.truediv(wrap(total), wrap(count.to(t.device).expand(shape).contiguous())))
    if t.dtype is torch.bool:
        fill, mode, t = (0, "amax", t.to(torch.uint8)) if kind == "any" else (1, "amin", t.to(torch.uint8))
        return torch.full(shape, fill, dtype=torch.uint8, device=t.device).scatter_reduce(
            0, index, t, mode).to(torch.bool)
    info = torch.finfo(t.dtype) if t.dtype.is_floating_point else torch.iinfo(t.dtype)
    fill, mode = {"max": (info.min, "amax"), "min": (info.max, "amin"), "prod": (1, "prod")}[kind]
    return torch.full(shape, fill, dtype=t.dtype, device=t.device).scatter_reduce(0, index, t, mode)


def _innermost_replaced(rt, new_values):
    """`rt` with its innermost row partition replaced by `new_values` (one row each)."""
    if isinstance(rt.values, RaggedTensor):
        return rt.with_values(_innermost_replaced(rt.values, new_values))
    return new_values


def _reduce_axis(kind, dense, x, axis):
    if not isinstance(x, RaggedTensor):
        return dense(x, axis=axis)
    if axis > x.ragged_rank:
        return x.with_flat_values(dense(x.flat_values, axis=axis - x.ragged_rank))
    flat = storage(x.flat_values)
    if axis == 0:
        if x.ragged_rank != 1:
            raise NotImplementedError("reducing axis 0 of a RaggedTensor of ragged_rank > 1 is not supported by "
                                      "tfcompat")
        columns = torch.from_numpy(x._coords()[1])
        return wrap(_segment_reduce(kind, flat, columns, int(x.bounding_shape()._array()[1])))
    if axis >= 2:
        return x.with_values(_reduce_axis(kind, dense, x.values, axis - 1))
    if isinstance(x.values, RaggedTensor):
        return _reduce_columns_per_row(kind, x)
    ids = storage(x.value_rowids()).to(torch.int64).cpu()
    return wrap(_segment_reduce(kind, flat, ids, x.nrows_int()))


def _reduce_columns_per_row(kind, x):
    """Axis 1 of a RaggedTensor of ragged_rank 2: each row's sub-rows reduced column by column."""
    if isinstance(x.values.values, RaggedTensor):
        raise NotImplementedError("reducing axis 1 of a RaggedTensor of ragged_rank > 2 is not supported by tfcompat")
    outer, _, column = (torch.from_numpy(c) for c in x._coords())
    inner_rows = storage(x.values.row_lengths()).to(torch.int64)
    owner = storage(x.value_rowids()).to(torch.int64)
    widths = torch.zeros(x.nrows_int(), dtype=torch.int64).scatter_reduce(0, owner, inner_rows, "amax")
    offsets = torch.cumsum(widths, 0) - widths
    reduced = _segment_reduce(kind, storage(x.flat_values), offsets[outer] + column, int(widths.sum()))
    return RaggedTensor.from_row_lengths(wrap(reduced), wrap(widths), validate=False)


def _ragged_reduction(kind, dense):
    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        rank = input_tensor.shape.rank
        if axis is None:
            if kind == "mean":      # TF's ragged mean: sum / count (an integer input gives float64)
                flat = input_tensor.flat_values
                count = wrap(torch.tensor(flat.shape.num_elements(), dtype=storage(flat).dtype))
                out = math_ops.truediv(reduction_ops.reduce_sum(flat), count)
            else:
                out = dense(input_tensor.flat_values)
            return array_ops.reshape(out, [1] * rank) if keepdims else out
        axes = np.asarray(storage(axis) if isinstance(axis, Tensor) else axis).reshape(-1)
        out = input_tensor
        for a in sorted({int(a) % rank for a in axes}, reverse=True):
            out = _reduce_axis(kind, dense, out, a)
            if keepdims:        # TF: the reduced dimension kept with size 1 (reduced from the last, so axes hold)
                out = expand_dims(out, a)
        return out
    return reduce


def positive_axis(axis, ndims, axis_name="axis"):
    """`axis` in [0, ndims), TF's get_positive_axis (its ValueError text)."""
    axis = int(axis)
    if not -ndims <= axis < ndims:
        raise ValueError(f"{axis_name}={axis} out of bounds: expected {-ndims}<={axis_name}<{ndims}")
    return axis % ndims


def expand_dims(input, axis, name=None):  # noqa: A002  (TF's argument name)
    """`tf.expand_dims` of a RaggedTensor: a uniform dimension of size 1 at `axis` (TF's ragged expand_dims)."""
    if not isinstance(input, RaggedTensor):
        return array_ops.expand_dims(input, axis)
    axis = positive_axis(axis, input.shape.rank + 1)
    if axis == 0:
        return RaggedTensor.from_uniform_row_length(input, input.nrows_int(), nrows=1, validate=False)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(input, 1, nrows=input.nrows_int(), validate=False)
    return input.with_values(expand_dims(input.values, axis - 1))


_RAGGED_REDUCTIONS = {f"reduce_{kind}": _ragged_reduction(kind, getattr(reduction_ops, f"reduce_{kind}"))
                      for kind in ("sum", "mean", "prod", "max", "min", "any", "all")}
# the reductions hand a RaggedTensor here from their conversion-error path (a dispatch wrapper cost every dense call)
reduction_ops.COMPOSITE_REDUCTIONS[RaggedTensor] = \
    lambda name, x, axis, keepdims: _RAGGED_REDUCTIONS[name](x, axis, keepdims)

def _ragged_size(input, out_type=None, name=None):  # noqa: A002  (TF's argument name)
    return array_ops.size(input.flat_values, out_type or dtypes.int32)


dispatch("size", _ragged_size)
dispatch("expand_dims", expand_dims)
dispatch("rank", lambda input, name=None: wrap(torch.tensor(input.shape.rank, dtype=torch.int32)))

for _name, _position in (("strings.substr", 0), ("strings.length", 0), ("strings.lower", 0), ("strings.upper", 0),
                         ("strings.strip", 0), ("strings.regex_replace", 0), ("strings.regex_full_match", 0),
                         ("strings.to_number", 0), ("strings.as_string", 0), ("strings.to_hash_bucket_fast", 0),
                         ("strings.to_hash_bucket_strong", 0), ("strings.to_hash_bucket", 0),
                         ("zeros_like", 0), ("ones_like", 0), ("nn.embedding_lookup", 1), ("clip_by_value", 0),
                         ("math.is_nan", 0), ("math.is_finite", 0),
                         ("math.is_inf", 0), ("strings.split", 0), ("strings.unicode_split", 0),
                         ("strings.unicode_decode", 0)):
    if _name in EXPORTS:
        dispatch(_name, on_flat_values(EXPORTS[_name], _position))
del _name, _position


def _cast(x, dtype, name=None):
    """`tf.cast` of a RaggedTensor (its flat values) or a SparseTensor (its values)."""
    if isinstance(x, SparseTensor):
        return x.with_values(math_ops.cast(x.values, dtype))
    return x.with_flat_values(math_ops.cast(x.flat_values, dtype))


dispatch("cast", _cast, types=(RaggedTensor, SparseTensor))
