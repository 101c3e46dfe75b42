"""`tf.nn.embedding_lookup_sparse` and `tf.nn.safe_embedding_lookup_sparse`: per-row combinations of embeddings.

As TF, each row of the sparse ids is one segment (`indices[:, 0]`), the result has `max(row) + 1` rows (rows without
ids in between are zeros), and a list of parameter shards is TF2's "div" partitioning (their concatenation).
"""
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor
from tfcompat.ops.nn_ops import embedding_lookup
from tfcompat.ops.nn_sampled_loss_ops import sharded_table

_COMBINERS = ("mean", "sqrtn", "sum")


def _params(params, dtype=None, partition_strategy="div"):
    if not isinstance(params, (list, tuple)):
        params = [params]
    return sharded_table([input_storage(p, dtype) for p in params], partition_strategy)


def _combine(table, rows, ids, weights, combiner, max_norm=None, n=None):
    """The per-row combination of `table[ids]` (weighted by `weights`, a storage or None) into `n` rows (default:
    max(rows) + 1, as TF's segment sums)."""
    if n is None:
        n = int(rows.max()) + 1 if rows.numel() else 0
    emb = storage_of(embedding_lookup(wrap(table), wrap(ids)))
    if max_norm is not None:          # TF's clip_by_norm of each looked-up embedding
        dims = tuple(range(1, emb.ndim))
        l2sum = (emb * emb).sum(dims, keepdim=True) if dims else emb * emb
        positive = l2sum > 0
        l2norm = torch.where(positive, torch.sqrt(torch.where(positive, l2sum, torch.ones_like(l2sum))), l2sum)
        emb = emb * max_norm / torch.clamp_min(l2norm, max_norm)
    orig = emb.dtype
    if emb.dtype in (torch.float16, torch.bfloat16):
        emb = emb.to(torch.float32)
    shape = (n,) + tuple(emb.shape[1:])
    rows = rows.to(torch.int64).to(emb.device)
    if weights is None:
        w = torch.ones(ids.shape[0], dtype=emb.dtype, device=emb.device)
    else:
        w = weights.to(emb.dtype)
    wb = w.reshape((-1,) + (1,) * (emb.ndim - 1))
    total = torch.zeros(shape, dtype=emb.dtype, device=emb.device).index_add(0, rows, emb * wb)
    if combiner == "sum":
        out = total
    else:
        wsum = torch.zeros(n, dtype=emb.dtype, device=emb.device).index_add(0, rows, w if combiner == "mean" else w * w)
        if combiner == "sqrtn":
            wsum = torch.sqrt(wsum)
        wsum = wsum.reshape((-1,) + (1,) * (emb.ndim - 1))
        zero = wsum == 0
        out = torch.where(zero, torch.zeros_like(total), total / torch.where(zero, torch.ones_like(wsum), wsum))
    return out.to(orig) if out.dtype is not orig else out


def storage_of(t):
    from tfcompat.framework.tensor import storage
    return storage(t)


def _check_ids(ids, n, segment_combiner):
    """TF's range error: the sparse-segment kernel's (no weights) or the gather of the unique ids'."""
    if not ids.numel():
        return
    bad = (ids < 0) | (ids >= n)
    if not bool(bad.any()):
        return
    if segment_combiner is not None:
        op = {"sum": "SparseSegmentSum", "mean": "SparseSegmentMean", "sqrtn": "SparseSegmentSqrtN"}[segment_combiner]
        pos = int(torch.nonzero(bad)[0])
        raise errors.kernel_error(errors.InvalidArgumentError, f"Bad: indices[{pos}] == {int(ids[pos])} out of range "
                                  f"[0, {n})", op)
    unique = list(dict.fromkeys(ids.tolist()))
    pos = next(k for k, v in enumerate(unique) if not 0 <= v < n)
    raise errors.kernel_error(errors.InvalidArgumentError, f"indices[{pos}] = {unique[pos]} is not in [0, {n})",
                              "GatherV2")


def _check_param_dtypes(params, dtype):
    """TF converts each tensor or variable of `params` to the weights' dtype, refusing another float type."""
    for p in params if isinstance(params, (list, tuple)) else [params]:
        if not (isinstance(p, Tensor) or hasattr(p, "_read")) or p.dtype == dtype:
            continue
        if isinstance(p, Tensor):
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype {p.dtype.name}: "
                             f"{p!r}")
        raise ValueError(f"Incompatible type conversion requested to type {dtype.name} for `tf.Variable of type "
                         f"{p.dtype.name}. (Variable: {p!r})")


def _check_combiner(combiner):
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")


@tf_export("nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """For each row r of `sp_ids`: combine(params[ids of r], weights of r) with `combiner` "sum", "mean" (the
    weighted mean, default) or "sqrtn" (the weighted sum over sqrt(sum of squared weights)); `max_norm` clips each
    embedding's L2 norm first."""
    return embedding_lookup_sparse_v1(params, sp_ids, sp_weights, "div", name, combiner, max_norm, allow_fast_lookup)


def embedding_lookup_sparse_v1(params, sp_ids, sp_weights, partition_strategy="mod", name=None, combiner=None,
                               max_norm=None, allow_fast_lookup=False):
    """TF1's `tf.compat.v1.nn.embedding_lookup_sparse` (sharded params split by `partition_strategy`)."""
    combiner = "mean" if combiner is None else combiner
    _check_combiner(combiner)
    if isinstance(sp_ids, RaggedTensor):          # TF's ragged dispatch: each row a segment of its values
        if sp_weights is not None and not isinstance(sp_weights, RaggedTensor):
            raise TypeError("sp_ids must be of the same type as sp_weights, received {type(sp_ids).__name__!r} for "
                            "sp_ids and {type(sp_weights).__name__!r} for sp_weights.")     # TF's text, unformatted
        sp_ids = sp_ids.to_sparse()
        sp_weights = None if sp_weights is None else sp_weights.to_sparse()
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor,got {type(sp_weights)}")
    if sp_weights is not None and tuple(sp_weights.values.shape) != tuple(sp_ids.values.shape):
        raise ValueError(f"Shapes {sp_ids.values.shape} and {sp_weights.values.shape} are incompatible")
    table = _params(params, None, partition_strategy)
    rows = input_storage(sp_ids.indices)[:, 0]
    ids = input_storage(sp_ids.values)
    weights = None if sp_weights is None else input_storage(sp_weights.values)
    _check_ids(ids, table.shape[0], combiner if weights is None and max_norm is None else None)
    return wrap(_combine(table, rows, ids, weights, combiner, max_norm))


@tf_export("nn.safe_embedding_lookup_sparse")
def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, max_norm=None, name=None, allow_fast_lookup=False):
    """`embedding_lookup_sparse` over ids of any rank (the last dimension is combined), negative ids (and, unless
    "sum", weights <= 0) dropped; an empty row gives `params[default_id]`, or zeros without one."""
    return safe_embedding_lookup_sparse_v1(embedding_weights, sparse_ids, sparse_weights, combiner, default_id, name,
                                           "div", max_norm, allow_fast_lookup)


def safe_embedding_lookup_sparse_v1(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                    default_id=None, name=None, partition_strategy="div", max_norm=None,
                                    allow_fast_lookup=False):
    """TF1's `tf.compat.v1.nn.safe_embedding_lookup_sparse` (its argument order, `partition_strategy`)."""
    if embedding_weights is None or (isinstance(embedding_weights, (list, tuple)) and not embedding_weights):
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    _check_combiner(combiner)
    if isinstance(sparse_ids, RaggedTensor):
        sparse_ids = sparse_ids.to_sparse()
    if isinstance(sparse_weights, RaggedTensor):
        sparse_weights = sparse_weights.to_sparse()
    w_dtype = None if sparse_weights is None else sparse_weights.dtype
    if w_dtype is not None:
        _check_param_dtypes(embedding_weights, w_dtype)
    table = _params(embedding_weights, w_dtype, partition_strategy)
    shape = [int(d) for d in input_storage(sparse_ids.dense_shape).tolist()]
    idx = input_storage(sparse_ids.indices).to(torch.int64)
    ids = input_storage(sparse_ids.values)
    outer = shape[:-1]
    n_rows = 1
    for d in outer:
        n_rows *= d
    dev = ids.device
    rows = torch.zeros(idx.shape[0], dtype=torch.int64, device=dev)
    for k, d in enumerate(outer):               # row-major position of the leading coordinates
        rows = rows * d + idx[:, k].to(dev)
    keep = ids >= 0                             # no branch on values below: a traced step replays this for any batch
    weights = None
    if sparse_weights is not None:
        weights = input_storage(sparse_weights.values).to(dev)
        if combiner != "sum":
            keep = keep & (weights > 0)
        weights = weights[keep]
    rows, ids = rows[keep], ids[keep]
    empty = torch.ones(n_rows, dtype=torch.bool, device=dev)
    empty[rows] = False
    fill = torch.nonzero(empty).reshape(-1)     # sparse_fill_empty_rows: default_id (or 0) of weight 1 in empty rows
    rows = torch.cat([rows, fill])
    ids = torch.cat([ids, torch.full_like(fill, default_id or 0).to(ids.dtype)])
    if weights is not None:
        weights = torch.cat([weights, torch.ones_like(fill, dtype=weights.dtype)])
    _check_ids(ids, table.shape[0], None)
    result = _combine(table, rows, ids, weights, combiner, max_norm, n_rows)
    if default_id is None:
        result = torch.where(empty.to(result.device).reshape((-1,) + (1,) * (result.ndim - 1)),
                             torch.zeros_like(result), result)
    return wrap(result.reshape(tuple(outer) + tuple(result.shape[1:])))
