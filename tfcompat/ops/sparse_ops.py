"""`tf.sparse` ops beyond the basics of framework/sparse.py: concat, slice, map_values, reductions, retain,
reset_shape, fill_empty_rows."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.sparse import SparseTensor, _linear, reorder
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops import debugging_ops


def _ints(value):
    return [int(v) for v in (storage(value).reshape(-1).tolist() if isinstance(value, Tensor) else value)]


def _shape_tensor(dims):
    return wrap(torch.tensor(dims, dtype=torch.int64))


def _take(values, index):
    t = storage(values)
    return wrap(t[index.numpy()] if type(t) is np.ndarray else t[index.to(t.device)])


@tf_export("sparse.concat")
def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None, concat_dim=None):
    """SparseTensors joined along `axis` (other dimensions equal, or grown to the largest when expanded)."""
    axis = concat_dim if concat_dim is not None else axis
    shapes = [sp.shape.as_list() for sp in sp_inputs]
    rank = len(shapes[0])
    a = int(axis) % rank
    out_shape = list(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        for d in range(rank):
            if d != a and s[d] != out_shape[d] and not expand_nonconcat_dims:
                raise errors.op_error(errors.InvalidArgumentError, f"Input shapes must match: expected {out_shape[d]}"
                                      f" for dimension {d} but got {s[d]} at position {i}", "SparseConcat")
    if expand_nonconcat_dims:
        out_shape = [max(s[d] for s in shapes) for d in range(rank)]
    out_shape[a] = sum(s[a] for s in shapes)
    offset, parts, values = 0, [], []
    for sp, s in zip(sp_inputs, shapes):
        idx = storage(sp.indices).clone()
        idx[:, a] += offset
        offset += s[a]
        parts.append(idx)
        values.append(storage(sp.values))
    vals = np.concatenate(values) if type(values[0]) is np.ndarray else torch.cat(values)
    return reorder(SparseTensor(wrap(torch.cat(parts)), wrap(vals), _shape_tensor(out_shape)))


@tf_export("sparse.slice")
def slice(sp_input, start, size, name=None):  # noqa: A001  (TF's name)
    """The entries inside the box `[start, start + size)` (clipped to the dense shape), re-indexed from `start`."""
    shape = sp_input.shape.as_list()
    start, size = _ints(start), _ints(size)
    for what, v in (("start", start), ("size", size)):
        if len(v) != len(shape):
            raise errors.op_error(errors.InvalidArgumentError, f"Expected {what} to be a vector of length "
                                  f"{len(shape)} but got length {len(v)}", "SparseSlice")
    lo = torch.tensor(start, dtype=torch.int64)
    hi = torch.minimum(lo + torch.tensor(size, dtype=torch.int64), torch.tensor(shape, dtype=torch.int64))
    idx = storage(sp_input.indices)
    keep = ((idx >= lo) & (idx < hi)).all(1).nonzero().reshape(-1)
    return SparseTensor(wrap(idx[keep] - lo), _take(sp_input.values, keep), wrap(torch.clamp(hi - lo, min=0)))


@tf_export("sparse.map_values")
def map_values(op, *args, **kwargs):
    """`op` applied to the values of the SparseTensor arguments (which must share indices and dense shape)."""
    found = []

    def values_of(v):
        if isinstance(v, SparseTensor):
            found.append(v)
            return v.values
        return v

    args = [values_of(a) for a in args]
    kwargs = {k: values_of(v) for k, v in kwargs.items()}
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = found[0]
    for other in found[1:]:
        debugging_ops.assert_equal(first.dense_shape, other.dense_shape,
                                   message="Dense shapes of all SparseTensors in map_values must match")
        debugging_ops.assert_equal(first.indices, other.indices,
                                   message="Indices of all SparseTensors in map_values must match")
    return SparseTensor(first.indices, op(*args, **kwargs), first.dense_shape)


def _reduce(kind, sp_input, axis, keepdims, output_is_sparse):
    """TF's sparse reductions: over the stored values only; output positions without any are 0 (dense output)."""
    shape = sp_input.shape.as_list()
    rank = len(shape)
    axes = set(range(rank)) if axis is None else {a % rank for a in _ints([axis] if np.ndim(axis) == 0 else axis)}
    kept = [d for d in range(rank) if d not in axes]
    idx = storage(sp_input.indices)[:, kept]
    vals = storage(sp_input.values)
    out_shape = [shape[d] for d in kept]
    uniq, inverse = torch.unique(_linear(idx, out_shape), sorted=True, return_inverse=True)
    index = inverse.to(vals.device)
    if kind == "sum":
        reduced = torch.zeros(uniq.shape[0], dtype=vals.dtype, device=vals.device).index_add(0, index, vals)
    else:
        reduced = torch.zeros(uniq.shape[0], dtype=vals.dtype, device=vals.device).scatter_reduce(
            0, index, vals, "amax" if kind == "max" else "amin", include_self=False)
    full_shape = [1 if d in axes else shape[d] for d in range(rank)] if keepdims else out_shape
    if output_is_sparse:
        first = torch.full((uniq.shape[0],), idx.shape[0], dtype=torch.int64).scatter_reduce(
            0, inverse, torch.arange(idx.shape[0]), "amin")
        out_idx = storage(sp_input.indices)[first]
        out_idx = torch.where(torch.tensor([d in axes for d in range(rank)]), 0, out_idx) if keepdims else \
            out_idx[:, kept]
        return SparseTensor(wrap(out_idx), wrap(reduced), _shape_tensor(full_shape))
    out = torch.zeros(int(np.prod(out_shape)), dtype=vals.dtype, device=vals.device)
    out[uniq.to(vals.device)] = reduced
    return wrap(out.reshape(full_shape))


@tf_export("sparse.reduce_sum")
def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """Sum of a SparseTensor's values over `axis` (all axes by default): dense, or sparse when `output_is_sparse`."""
    return _reduce("sum", sp_input, axis, keepdims, output_is_sparse)


@tf_export("sparse.reduce_max")
def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """Maximum of a SparseTensor's stored values over `axis` (positions without values are 0 in a dense result)."""
    return _reduce("max", sp_input, axis, keepdims, output_is_sparse)


@tf_export("sparse.reduce_min")
def reduce_min(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """Minimum of a SparseTensor's stored values over `axis` (positions without values are 0 in a dense result)."""
    return _reduce("min", sp_input, axis, keepdims, output_is_sparse)


@tf_export("sparse.retain")
def retain(sp_input, to_retain):
    """The entries whose flag in the boolean vector `to_retain` is True."""
    keep = storage(to_retain if isinstance(to_retain, Tensor) else wrap(torch.tensor(list(to_retain))))
    n = sp_input.indices.shape[0]
    if keep.shape[0] != n:
        raise ValueError(f"Dimensions {n} and {keep.shape[0]} are not compatible")
    where = keep.to(torch.bool).nonzero().reshape(-1)
    return SparseTensor(wrap(storage(sp_input.indices)[where]), _take(sp_input.values, where), sp_input.dense_shape)


@tf_export("sparse.reset_shape")
def reset_shape(sp_input, new_shape=None):
    """The SparseTensor with dense shape `new_shape` (no smaller), or the tight bounding box of its indices."""
    idx = storage(sp_input.indices)
    if new_shape is None:
        dims = (idx.max(0).values + 1).tolist() if idx.shape[0] else [0] * idx.shape[1]
        return SparseTensor(sp_input.indices, sp_input.values, _shape_tensor(dims))
    dims = _ints(new_shape)
    old = sp_input.shape.as_list()
    if any(n < o for n, o in zip(dims, old)):
        raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                         f"({np.array(old)}), sp_input.shape ({np.array(dims)}).")
    return SparseTensor(sp_input.indices, sp_input.values, _shape_tensor(dims))


@tf_export("sparse.fill_empty_rows")
def fill_empty_rows(sp_input, default_value, name=None):
    """(the SparseTensor with `default_value` at `[row, 0, ...]` of every empty row, the empty-row indicator)."""
    idx = storage(sp_input.indices)
    nrows = sp_input.shape.as_list()[0]
    counts = torch.bincount(idx[:, 0], minlength=nrows)
    empty = (counts == 0).nonzero().reshape(-1)
    new_idx = torch.zeros((empty.shape[0], idx.shape[1]), dtype=torch.int64)
    new_idx[:, 0] = empty
    vals = storage(sp_input.values)
    if type(vals) is np.ndarray:
        fill = np.full(empty.shape[0], default_value.encode() if isinstance(default_value, str) else default_value,
                       dtype=object)
        new_vals = np.concatenate([vals, fill])
    else:
        fill = storage(default_value) if isinstance(default_value, Tensor) else default_value
        new_vals = torch.cat([vals, torch.full((empty.shape[0],), fill, dtype=vals.dtype, device=vals.device)])
    out = reorder(SparseTensor(wrap(torch.cat([idx, new_idx])), wrap(new_vals), sp_input.dense_shape))
    return out, wrap(counts == 0)


@tf_export("sparse.bincount")
def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """Counts (or summed `weights`) of each value as a SparseTensor: over all values (axis 0) or per row (axis -1)
    of a 2-D Tensor, RaggedTensor or SparseTensor; size max(value) + 1, at least `minlength`, at most `maxlength`."""
    flat, rows, nrows = _bincount_input(values)
    w = None if weights is None else _bincount_input(weights)[0]
    size = int(flat.max()) + 1 if flat.numel() else 0
    size = max(size, int(minlength)) if minlength is not None else size
    size = min(size, int(maxlength)) if maxlength is not None else size
    keep = (flat < size).nonzero().reshape(-1)
    key = rows[keep] * size + flat[keep].to(torch.int64) if int(axis) == -1 else flat[keep].to(torch.int64)
    uniq, inverse = torch.unique(key, sorted=True, return_inverse=True)
    if binary_output:
        counts = torch.ones(uniq.shape[0], dtype=flat.dtype)
    elif w is not None:
        counts = torch.zeros(uniq.shape[0], dtype=w.dtype).index_add(0, inverse, w[keep])
    else:
        counts = torch.zeros(uniq.shape[0], dtype=flat.dtype).index_add(0, inverse, torch.ones_like(flat[keep]))
    if int(axis) == -1:
        return SparseTensor(wrap(torch.stack([uniq // max(size, 1), uniq % max(size, 1)], 1)), wrap(counts),
                            _shape_tensor([nrows, size]))
    return SparseTensor(wrap(uniq.reshape(-1, 1)), wrap(counts), _shape_tensor([size]))


def _bincount_input(values):
    """(flat values, their row ids, number of rows) of a bincount input (a 2-D one has rows)."""
    from tfcompat.framework.ragged import RaggedTensor
    if isinstance(values, SparseTensor):
        return storage(values.values), storage(values.indices)[:, 0], values.shape.as_list()[0]
    if isinstance(values, RaggedTensor):
        return storage(values.flat_values), storage(values.value_rowids()).to(torch.int64), values.nrows_int()
    t = storage(values if isinstance(values, Tensor) else convert_to_tensor(values))
    if t.dim() == 2:
        return t.reshape(-1), torch.arange(t.shape[0]).repeat_interleave(t.shape[1]), t.shape[0]
    return t.reshape(-1), torch.zeros(t.numel(), dtype=torch.int64), 1


@tf_export("sparse.expand_dims")
def expand_dims(sp_input, axis=None, name=None):
    """The SparseTensor with a size-1 dimension inserted at `axis`."""
    idx = storage(sp_input.indices)
    rank = idx.shape[1]
    a = int(axis) % (rank + 1) if axis is not None else 0
    new = torch.cat([idx[:, :a], torch.zeros((idx.shape[0], 1), dtype=torch.int64), idx[:, a:]], 1)
    shape = sp_input.shape.as_list()
    return SparseTensor(wrap(new), sp_input.values, _shape_tensor(shape[:a] + [1] + shape[a:]))


@tf_export("sparse.eye")
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A sparse identity matrix of `num_rows` x `num_columns` (ones on the diagonal)."""
    rows = int(num_rows)
    cols = rows if num_columns is None else int(num_columns)
    diag = torch.arange(min(rows, cols), dtype=torch.int64)
    return SparseTensor(wrap(torch.stack([diag, diag], 1)),
                        wrap(torch.ones(diag.shape[0], dtype=dtypes.as_dtype(dtype).torch_dtype)),
                        _shape_tensor([rows, cols]))


def _union(sp_a, sp_b, fn):
    """Elementwise `fn` of two SparseTensors over the union of their entries (a missing entry counts as 0)."""
    shape = sp_a.shape.as_list()
    idx = torch.cat([storage(sp_a.indices), storage(sp_b.indices)])
    lin = _linear(idx, shape)
    uniq, inverse = torch.unique(lin, sorted=True, return_inverse=True)
    va, vb = storage(sp_a.values), storage(sp_b.values)
    n = va.shape[0]
    a = torch.zeros(uniq.shape[0], dtype=va.dtype).index_copy(0, inverse[:n], va)
    b = torch.zeros(uniq.shape[0], dtype=vb.dtype).index_copy(0, inverse[n:], vb)
    first = torch.full((uniq.shape[0],), idx.shape[0], dtype=torch.int64).scatter_reduce(
        0, inverse, torch.arange(idx.shape[0]), "amin")
    return SparseTensor(wrap(idx[first]), wrap(fn(a, b)), sp_a.dense_shape)


@tf_export("sparse.maximum")
def maximum(sp_a, sp_b, name=None):
    """Elementwise maximum of two SparseTensors of one shape (missing entries are 0)."""
    return _union(sp_a, sp_b, torch.maximum)


@tf_export("sparse.minimum")
def minimum(sp_a, sp_b, name=None):
    """Elementwise minimum of two SparseTensors of one shape (missing entries are 0)."""
    return _union(sp_a, sp_b, torch.minimum)


@tf_export("sparse.split")
def split(sp_input=None, num_split=None, axis=None, name=None, keyword_required=None):
    """`num_split` SparseTensors along `axis` (the first `size % num_split` pieces one longer)."""
    shape = sp_input.shape.as_list()
    a = int(axis) % len(shape)
    n = int(num_split)
    sizes = [shape[a] // n + (1 if i < shape[a] % n else 0) for i in range(n)]
    out, start = [], 0
    for size in sizes:
        lo = [0] * len(shape)
        hi = list(shape)
        lo[a], hi[a] = start, size
        out.append(slice(sp_input, lo, hi))
        start += size
    return out


@tf_export("sparse.softmax")
def softmax(sp_input, name=None):
    """Softmax over the stored values of each innermost row (missing entries take no part)."""
    idx = storage(sp_input.indices)
    vals = storage(sp_input.values)
    outer = sp_input.shape.as_list()[:-1]
    uniq, group = torch.unique(_linear(idx[:, :-1], outer), return_inverse=True)
    top = torch.full((uniq.shape[0],), float("-inf"), dtype=vals.dtype).scatter_reduce(0, group, vals, "amax")
    e = torch.exp(vals - top[group])
    total = torch.zeros(uniq.shape[0], dtype=vals.dtype).index_add(0, group, e)
    return sp_input.with_values(wrap(e / total[group]))


@tf_export("sparse.to_indicator")
def to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor: `[..., v]` is True where row `...` of `sp_input` holds the value `v`."""
    idx = storage(sp_input.indices)
    shape = sp_input.shape.as_list()[:-1] + [int(vocab_size)]
    out = torch.zeros(shape, dtype=torch.bool)
    out[tuple(idx[:, :-1].T) + (storage(sp_input.values).to(torch.int64),)] = True
    return wrap(out)


def _segment(kind, data, indices, segment_ids, num_segments):
    rows = storage(data if isinstance(data, Tensor) else convert_to_tensor(data))
    picked = rows[storage(convert_to_tensor(indices)).to(torch.int64)]
    ids = storage(convert_to_tensor(segment_ids)).to(torch.int64)
    n = int(num_segments) if num_segments is not None else (int(ids.max()) + 1 if ids.numel() else 0)
    out = torch.zeros((n,) + tuple(rows.shape[1:]), dtype=rows.dtype).index_add(0, ids, picked)
    if kind != "sum":
        count = torch.bincount(ids, minlength=n).to(rows.dtype).clamp(min=1)
        count = count.reshape((n,) + (1,) * (rows.dim() - 1))
        out = out / count if kind == "mean" else out * count.rsqrt()
    return wrap(out)


@tf_export("sparse.segment_sum")
def segment_sum(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Sums of the rows `data[indices]` grouped by `segment_ids` (sorted); `num_segments` rows if given."""
    return _segment("sum", data, indices, segment_ids, num_segments)


@tf_export("sparse.segment_mean")
def segment_mean(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Means of the rows `data[indices]` grouped by `segment_ids`."""
    return _segment("mean", data, indices, segment_ids, num_segments)


@tf_export("sparse.segment_sqrt_n")
def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    """Sums of the rows `data[indices]` grouped by `segment_ids`, divided by the square root of their count."""
    return _segment("sqrt_n", data, indices, segment_ids, num_segments)


@tf_export("sparse.sampled_addmm")
def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0, output_type=dtypes.float32):
    """`(indices, alpha * (mat1 @ mat2)[indices] + beta * values, dense_shape)`, batched over leading dimensions."""
    idx = storage(convert_to_tensor(indices)).to(torch.int64)
    product = storage(convert_to_tensor(mat1)) @ storage(convert_to_tensor(mat2))
    vals = storage(convert_to_tensor(values))
    batch = idx.shape[:-2]
    flat_idx, flat_prod = idx.reshape(-1, idx.shape[-2], 2), product.reshape((-1,) + tuple(product.shape[-2:]))
    picked = torch.stack([p[i[:, 0], i[:, 1]] for p, i in zip(flat_prod, flat_idx)]).reshape(batch + idx.shape[-2:-1])
    out = (alpha * picked + beta * vals).to(dtypes.as_dtype(output_type).torch_dtype)
    return convert_to_tensor(indices), wrap(out), convert_to_tensor(dense_shape)
