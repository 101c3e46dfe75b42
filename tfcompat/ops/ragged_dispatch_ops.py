"""More of TF's RaggedTensor dispatch targets: `tf.squeeze`, `tf.split`, `tf.one_hot`, `tf.gather_nd`,
`tf.dynamic_partition`, `tf.math.add_n`, `cumsum`, `reduce_std`/`reduce_variance`, the `unsorted_segment_*` ops,
`tf.nn.softmax`, `tf.math.bincount` and `tf.strings.format` (with `ragged_to_string`, which `tf.print` uses too),
and the elementwise APIs of TF's unary/binary dispatch lists that the op helper does not already hand to ragged code.
Each follows TF's ragged algorithm (ragged_array_ops, ragged_gather_ops, ragged_math_ops, ragged_squeeze_op)."""
import inspect

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.ragged import RaggedTensor, broadcast
from tfcompat.framework.ragged.tensor import splits_from_lengths
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops import array_ops, debugging_ops, gather_ops, math_ops, reduction_ops, segment_ops, string_ops
from tfcompat.ops.ragged_array_ops import ragged_gather, stack_dynamic_partitions
from tfcompat.ops.ragged_ops import dispatch, expand_dims, map_flat_values, positive_axis


def _tensor(x):
    return x if isinstance(x, (Tensor, RaggedTensor)) else convert_to_tensor(x)


# -- structure --------------------------------------------------------------------------------------------------------
def ragged_squeeze(input, axis=None, name=None):  # noqa: A002  (TF's argument name)
    """Size-1 dimensions `axis` removed; a ragged one must have every row of length 1 (TF's assertion)."""
    if axis is None:
        raise ValueError("Ragged.squeeze must have an axis argument.")
    if isinstance(axis, int):
        axis = [axis]
    elif not isinstance(axis, (list, tuple)) or not all(isinstance(d, int) for d in axis):
        raise TypeError("Axis must be a list or tuple of integers.")
    rank = input.shape.rank
    axis = [positive_axis(d, rank, f"axis[{i}]") for i, d in enumerate(axis)]
    dense_dims = [d - input.ragged_rank for d in axis if d > input.ragged_rank]
    ragged_dims = [d for d in axis if d <= input.ragged_rank]
    for i, lengths in enumerate(input.nested_row_lengths()):
        if i + 1 in ragged_dims and not bool((storage(lengths) == 1).all()):
            _not_squeezable(i + 1)
    if 0 in ragged_dims and input.nrows_int() != 1:
        _not_squeezable(0)
    values = input.flat_values
    if dense_dims:
        values = array_ops.squeeze(values, dense_dims)
    splits = [s for i, s in enumerate(input.nested_row_splits) if i + 1 not in ragged_dims]
    if splits and 0 in ragged_dims:
        splits.pop(0)
    out = RaggedTensor.from_nested_row_splits(values, splits, validate=False) if splits else values
    if set(range(input.ragged_rank + 1)) <= set(ragged_dims):
        out = array_ops.squeeze(out, [0])
    return out


def _not_squeezable(axis):
    raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                      f"Summarized data: b'the given axis (axis = {axis}) is not squeezable!'")


def ragged_split(value, num_or_size_splits, axis=0, num=None, name=None):
    """Pieces of `value` along a uniform dimension `axis` (TF refuses a ragged one)."""
    if isinstance(num_or_size_splits, int) and num_or_size_splits == 1:
        return [value]
    rank = value.shape.rank
    axis = positive_axis(axis, rank)
    if 0 < axis <= value.ragged_rank:
        from tfcompat.ops.ragged_array_ops import ragged_shape
        raise ValueError(f"Cannot split a ragged dimension. Got `value` with shape {ragged_shape(value)} and "
                         f"`axis` {axis}.")
    dim = value.nrows_int() if axis == 0 else value.flat_values.shape[axis - value.ragged_rank]
    if isinstance(num_or_size_splits, int):
        if num_or_size_splits < 1:
            raise ValueError("`num_or_size_splits` must be >=1 if it is an `int`."
                             f"Received {num_or_size_splits}.")
        sizes = convert_to_tensor([dim // num_or_size_splits] * num_or_size_splits)
    else:
        sizes = _tensor(num_or_size_splits)
        if sizes.shape.rank != 1:
            raise TypeError("`num_or_size_splits` must be an `int` or 1-D list or `Tensor`. "
                            f"Received {num_or_size_splits}.")
        if num is not None and num != sizes.shape[0]:
            raise ValueError("`num` does not match the size of `num_or_size_split`. Received `num`: "
                             f"{num} and size of `num_or_size_split`: {sizes.shape[0]}.")
        debugging_ops.assert_non_negative(sizes, message="`num_or_size_splits` must be non-negative.")
    bounds = [0] + np.cumsum(storage(sizes).cpu().numpy()).tolist()
    debugging_ops.assert_equal(wrap(torch.tensor(dim)), wrap(storage(sizes).to(torch.int64).sum()),
                               message="Cannot exactly split the `axis` dimension of `value` with the given "
                                       "`num_or_size_split`.")
    if axis == 0:
        return [value[int(a):int(b)] for a, b in zip(bounds[:-1], bounds[1:])]
    inner = (slice(None),) * (axis - value.ragged_rank)
    return [value.with_flat_values(value.flat_values[inner + (slice(int(a), int(b)),)])
            for a, b in zip(bounds[:-1], bounds[1:])]


def ragged_one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors of the flat values (a new innermost dimension), same row partitions."""
    if axis is not None and axis >= 0 and axis <= indices.ragged_rank:
        raise ValueError(f"axis ({axis}) must be greater than indices.ragged_rank ({indices.ragged_rank}).")
    return indices.with_flat_values(gather_ops.one_hot(indices.flat_values, depth, on_value, off_value, axis, dtype))


def ragged_gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    """`tf.gather_nd` with ragged params or ragged (outer) index dimensions: TF's flattening of index tuples."""
    if not isinstance(batch_dims, int) or batch_dims != 0:
        raise ValueError("batch_dims != 0 is not supported for ragged gather yet.")
    params, indices = _tensor(params), _tensor(indices)
    ndims = indices.shape.rank
    if ndims == 0:
        raise ValueError("indices.rank must be at least 1.")
    if isinstance(indices, RaggedTensor) and ndims == indices.ragged_rank + 1:
        raise ValueError("The innermost dimension of indices may not be ragged")
    index_size = indices.shape[-1]
    if ndims > 2:
        dense = not isinstance(indices, RaggedTensor)
        if dense:
            indices = RaggedTensor.from_tensor(indices, ragged_rank=ndims - 2)
        result = indices.with_flat_values(ragged_gather_nd(params, indices.flat_values))
        if dense and isinstance(result, RaggedTensor) and result.ragged_rank == ndims - 2:
            result = result.to_tensor()
        return result
    if not isinstance(params, RaggedTensor):
        return gather_ops.gather_nd(params, indices)
    if index_size == 0:
        for _ in range(ndims - 1):
            params = expand_dims(params, 0)
        return ragged_gather(params, wrap(torch.zeros(tuple(indices.shape.as_list()[:-1]), dtype=torch.int64))) \
            if ndims > 1 else params
    if index_size == 1:
        return ragged_gather(params, array_ops.reshape(indices, [-1]))
    idx = storage(indices).to(torch.int64)
    flat_index = gather_ops.gather(params.row_splits, wrap(idx[..., 0]))
    flat_index = wrap(storage(flat_index).to(torch.int64) + idx[..., 1])
    flat_params = params.values
    for dim in range(2, index_size):
        if not isinstance(flat_params, RaggedTensor):
            tuples = torch.cat([storage(flat_index).unsqueeze(-1), idx[..., dim:]], -1)
            return gather_ops.gather_nd(flat_params, wrap(tuples))
        flat_index = gather_ops.gather(flat_params.row_splits, flat_index)
        flat_index = wrap(storage(flat_index).to(torch.int64) + idx[..., dim])
        flat_params = flat_params.values
    return (ragged_gather if isinstance(flat_params, RaggedTensor) else gather_ops.gather)(flat_params, flat_index)


def ragged_dynamic_partition(data, partitions, num_partitions, name=None):
    if not isinstance(num_partitions, int) or num_partitions < 0:
        raise TypeError("num_partitions must be a non-negative integer")
    if isinstance(partitions, RaggedTensor):
        raise NotImplementedError("tf.dynamic_partition with RaggedTensor partitions is not supported by tfcompat")
    stacked = stack_dynamic_partitions(data, partitions, num_partitions)
    return [stacked[i] for i in range(num_partitions)]


# -- math -------------------------------------------------------------------------------------------------------------
def ragged_add_n(inputs, name=None):
    return map_flat_values(math_ops.add_n, list(inputs))


def ragged_cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sums within rows (axis == ragged_rank), of the flat values (deeper), or down columns (outer)."""
    axis = positive_axis(axis, x.shape.rank, "rank")
    if axis > x.ragged_rank:
        return x.with_flat_values(reduction_ops.cumsum(x.flat_values, axis - x.ragged_rank, exclusive, reverse))
    if axis < x.ragged_rank:
        if x.ragged_rank != 1:
            raise NotImplementedError("tf.math.cumsum over an outer axis of a RaggedTensor of ragged_rank > 1 is "
                                      "not supported by tfcompat")
        summed = reduction_ops.cumsum(x.to_tensor(), axis, exclusive, reverse)
        return RaggedTensor.from_tensor(summed, lengths=x.row_lengths())
    inner = x
    while isinstance(inner.values, RaggedTensor):
        inner = inner.values
    flat = storage(x.flat_values)
    splits = storage(inner.row_splits).to(torch.int64).to(flat.device)
    lengths = splits[1:] - splits[:-1]
    values = flat.flip(0) if reverse else flat
    starts = (splits[-1] - splits[1:]).flip(0) if reverse else splits[:-1]
    lengths = lengths.flip(0) if reverse else lengths
    total = torch.cumsum(values, 0, dtype=values.dtype)
    before = torch.cat([total.new_zeros((1,) + tuple(total.shape[1:])), total])[starts]
    out = total - torch.repeat_interleave(before, lengths, dim=0)
    if exclusive:
        out = out - values
    return x.with_flat_values(wrap(out.flip(0) if reverse else out))


def _ragged_moment(std):
    def moment(input_tensor, axis=None, keepdims=False, name=None):
        """TF's ragged variance: max(mean(x**2) - mean(x)**2, 0) (float64 for integers, as the ragged mean)."""
        if input_tensor.dtype.is_complex:
            raise ValueError("reduce_variance is not supported for RaggedTensors with complex dtypes.")
        mean = _public("math.reduce_mean")
        mean_of_square = mean(math_ops.square(input_tensor), axis=axis, keepdims=keepdims)
        variance = math_ops.maximum(mean_of_square - math_ops.square(mean(input_tensor, axis=axis,
                                                                           keepdims=keepdims)), 0)
        return math_ops.sqrt(variance) if std else variance
    return moment


def _segment_op(kind):
    dense = getattr(segment_ops, f"unsorted_segment_{kind}")

    def op(data, segment_ids, num_segments, name=None):
        """Row `k` of the result combines, position by position, the rows of `data` whose segment id is `k`."""
        if isinstance(segment_ids, RaggedTensor):
            if not isinstance(data, RaggedTensor) or data.ragged_rank != segment_ids.ragged_rank:
                raise NotImplementedError("unsorted_segment ops with ragged segment_ids of another ragged_rank "
                                          "than data are not supported by tfcompat")
            for a, b in zip(data.nested_row_splits, segment_ids.nested_row_splits):
                debugging_ops.assert_equal(a, b, message="segment_ids.shape must be a prefix of data.shape")
            return _public(f"math.unsorted_segment_{kind}")(data.flat_values, segment_ids.flat_values, num_segments)
        ids = storage(_tensor(segment_ids)).to(torch.int64)
        n = int(num_segments)
        lengths = storage(data.row_lengths()).to(torch.int64)
        out_lengths = torch.zeros(n, dtype=torch.int64).scatter_reduce(0, ids, lengths, "amax")
        out_splits = splits_from_lengths(out_lengths)
        row_of_value = torch.repeat_interleave(torch.arange(lengths.shape[0]), lengths)
        column = torch.arange(int(lengths.sum())) - torch.repeat_interleave(storage(data.row_splits).to(torch.int64)
                                                                            [:-1], lengths)
        value_ids = out_splits[ids[row_of_value]] + column
        values = _public(f"math.unsorted_segment_{kind}")(data.values, wrap(value_ids), int(out_splits[-1]))
        return RaggedTensor(_tensor(values), wrap(out_splits.to(storage(data.row_splits).dtype)), internal=True)
    op.__name__ = dense.__name__
    return op


def _public(name):
    """The public op `tf.<name>` as now exported (with its ragged dispatch)."""
    return EXPORTS[name]


def ragged_softmax(logits, axis=None, name=None):
    """TF's ragged softmax: exp(x - max) / sum over `axis` (default the last)."""
    axis = positive_axis(-1 if axis is None else axis, logits.shape.rank)
    if axis == logits.ragged_rank and logits.flat_values.shape.rank == 1:
        inner = logits                  # within the innermost rows: one segment per row of the flat values
        while isinstance(inner.values, RaggedTensor):
            inner = inner.values
        flat = storage(logits.flat_values)
        ids = storage(inner.value_rowids()).to(torch.int64).to(flat.device)
        n = inner.nrows_int()
        biggest = torch.full((n,), -torch.inf, dtype=flat.dtype, device=flat.device).scatter_reduce(
            0, ids, flat, "amax")
        e = torch.exp(flat - biggest[ids])
        total = torch.zeros(n, dtype=flat.dtype, device=flat.device).index_add(0, ids, e)
        return logits.with_flat_values(wrap(e / total[ids]))
    biggest = _public("math.reduce_max")(logits, axis=axis, keepdims=True)
    e = math_ops.exp(logits - biggest)
    return math_ops.divide(e, _public("math.reduce_sum")(e, axis=axis, keepdims=True))


def ragged_bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
                    binary_output=False):
    """Counts of the flat values (axis None or 0), or of each row's values (axis -1) as a dense [nrows, size]."""
    if isinstance(weights, RaggedTensor):
        weights = weights.flat_values
    if axis in (None, 0):
        return segment_ops.bincount(arr.flat_values, weights, minlength, maxlength, dtype, axis=None,
                                    binary_output=binary_output)
    if axis != -1 or arr.ragged_rank != 1 or arr.shape.rank != 2:
        raise NotImplementedError(f"tf.math.bincount(axis={axis}) of a RaggedTensor of rank {arr.shape.rank} is "
                                  "not supported by tfcompat")
    values = storage(arr.values).to(torch.int64)
    if values.numel() and int(values.min()) < 0:
        raise errors.InvalidArgumentError(None, None, "Input arr must be non-negative!")
    size = int(values.max()) + 1 if values.numel() else 0
    size = max(size, int(minlength)) if minlength is not None else size
    size = min(size, int(maxlength)) if maxlength is not None else size
    rows = storage(arr.value_rowids()).to(torch.int64)
    keep = values < size
    out_dtype = storage(_tensor(weights)).dtype if weights is not None else dtypes.as_dtype(dtype).torch_dtype
    w = storage(_tensor(weights)).reshape(-1) if weights is not None else torch.ones(values.shape, dtype=out_dtype)
    counts = torch.zeros((arr.nrows_int(), size), dtype=out_dtype)
    counts.index_put_((rows[keep], values[keep]), w[keep].to(out_dtype), accumulate=True)
    if binary_output:
        counts = (counts > 0).to(out_dtype)
    return wrap(counts)


# -- text -------------------------------------------------------------------------------------------------------------
def _leaf_text(v):
    if isinstance(v, bytes):
        return "'" + v.decode("utf-8", "backslashreplace").replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (float, np.floating)):
        return "%f" % v
    return str(v)


def _list_text(items, summarize):
    if summarize not in (None, -1) and len(items) > 2 * summarize:
        items = items[:summarize] + [None] + items[-summarize:]
    parts = ["..." if v is None else (_list_text(v, summarize) if isinstance(v, list) else _leaf_text(v))
             for v in items]
    return "[" + ", ".join(parts) + "]"


def ragged_to_string(rt, summarize=None):
    """TF's text of a RaggedTensor (tf.print, tf.strings.format): nested "[a, b]" lists, strings quoted, floats
    as "%f", at most `summarize` leading and trailing items per dimension (-1 or None: all)."""
    if summarize is not None and summarize != -1 and not (isinstance(summarize, int) and summarize > 0):
        raise ValueError(f"Expected summarize to be -1 or a positive int, got {summarize!r}")
    return _list_text(rt.to_list(), summarize)


def ragged_format(template, inputs, placeholder="{}", summarize=3, name=None):
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(inputs):
        return string_ops.format(template, [_tensor(0)] * len(inputs), placeholder, summarize)   # its ValueError
    out = pieces[0]
    for value, piece in zip(inputs, pieces[1:]):
        if isinstance(value, RaggedTensor):
            text = ragged_to_string(value, summarize)
        else:
            text = string_ops.format("{}", [value], summarize=summarize)._array()[()].decode("utf-8")
        out += text + piece
    return wrap(np.array(out.encode("utf-8"), dtype=object))


dispatch("squeeze", ragged_squeeze)
dispatch("split", ragged_split)
dispatch("one_hot", ragged_one_hot)
dispatch("gather_nd", ragged_gather_nd)
dispatch("dynamic_partition", ragged_dynamic_partition)
dispatch("math.add_n", ragged_add_n)
dispatch("math.cumsum", ragged_cumsum)
dispatch("math.reduce_std", _ragged_moment(std=True))
dispatch("math.reduce_variance", _ragged_moment(std=False))
for _kind in ("sum", "prod", "max", "min", "mean", "sqrt_n"):
    dispatch(f"math.unsorted_segment_{_kind}", _segment_op(_kind))
dispatch("nn.softmax", ragged_softmax)
dispatch("math.bincount", ragged_bincount)
dispatch("strings.format", ragged_format)
del _kind


# -- elementwise APIs (TF's register_unary/binary_elementwise_api lists) not built on op_def's composite hook ------------
def _operands(dense, count):
    sig = inspect.signature(dense)
    names = list(sig.parameters)[:count]

    def split(args, kwargs):
        bound = sig.bind(*args, **kwargs)
        rest = dict(bound.arguments)
        rest.pop("name", None)
        return [rest.pop(n) for n in names], rest
    return names, split


def _unary(dense):
    (x_name,), split = _operands(dense, 1)

    def op(*args, **kwargs):
        (x,), rest = split(args, kwargs)
        return x.with_flat_values(dense(**{x_name: x.flat_values}, **rest))
    return op


def _binary(dense):
    (x_name, y_name), split = _operands(dense, 2)

    def op(*args, **kwargs):
        (x, y), rest = split(args, kwargs)
        return broadcast.elementwise(lambda a, b: dense(**{x_name: a, y_name: b}, **rest), x, y)
    return op


for _name in ("round", "logical_not", "nn.relu6", "nn.elu", "nn.selu", "nn.gelu", "nn.leaky_relu", "nn.silu",
              "math.reciprocal_no_nan", "math.erfcinv", "math.imag", "math.angle", "saturate_cast",
              "debugging.check_numerics", "image.adjust_brightness", "image.adjust_gamma", "image.convert_image_dtype",
              "io.encode_base64", "strings.unicode_transcode"):
    if _name in EXPORTS:
        dispatch(_name, _unary(EXPORTS[_name]))
for _name in ("truediv", "divide", "pow", "math.divide_no_nan", "math.multiply_no_nan", "complex",
              "nn.sigmoid_cross_entropy_with_logits"):
    if _name in EXPORTS:
        dispatch(_name, _binary(EXPORTS[_name]))
del _name
