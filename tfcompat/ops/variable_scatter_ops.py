"""Sparse updates of variables: `Variable.scatter_*` (rows at `IndexedSlices.indices`), `scatter_nd_*`
(slices at multi-indices), `batch_scatter_update`, and the sparse reads `sparse_read` and `gather_nd`.

Each write replaces the variable's storage by a new tensor (TF's copy-on-write value semantics) and returns
the variable as `UnreadVariable`, as TF's resource ops do; bad indices or shapes raise TF's kernel errors.
"""
import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.tensor import storage
from tfcompat.framework.variables import Variable, _UnreadVariable
from tfcompat.ops import gather_ops
from tfcompat.ops._array_util import _dims, _is_str

# the dtypes TF registers the arithmetic resource scatter kernels for (update takes every dtype)
_ARITHMETIC = ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, "
               "qint16, quint16, uint16, complex128, half, uint32, uint64")
_ORDERED = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.int16,
                      torch.int32, torch.int64, torch.uint8, torch.uint16, torch.uint32, torch.uint64])


def _bare(message):
    """A dense op's error text without its kernel prefix and `[Op:...]` tail, to report it as the resource op."""
    message = message.rsplit(" [Op:", 1)[0]
    return message.split("}} ", 1)[1] if message.startswith("{{function_node ") else message


def _kernel_error(variable, message, op):
    return errors.kernel_error(errors.InvalidArgumentError, message, op, variable.device, name=None)


def _updates(variable, updates):
    """`updates` as a storage of the variable's dtype (a tensor of another dtype is TF's ValueError)."""
    return storage(convert_to_tensor(updates, dtype=variable.dtype))


def _check_dtype(variable, t, mode, op):
    if mode == "update":
        return
    if _is_str(t) or t.dtype is torch.bool or (mode in ("amax", "amin") and t.dtype not in _ORDERED):
        kind = "string" if _is_str(t) else variable.dtype.name
        raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'dtype' of {kind} is not in the list of "
                              f"allowed values: {_ARITHMETIC}", op, None)


def _wide(t):
    """Storage a torch reduction kernel takes: uint16/32/64 as int64 (uint64 keeps its bits)."""
    return gather_ops._signed(t)


# -- rows: scatter_update/add/sub/mul/div/max/min -------------------------------------------------------------

def _scatter_rows(variable, sparse_delta, mode, op):
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {sparse_delta}")
    t = storage(variable)
    _check_dtype(variable, t, mode, op)
    idx = gather_ops._index_input(sparse_delta.indices, op)
    u = _updates(variable, sparse_delta.values)
    if t.ndim == 0:
        raise NotImplementedError(f"Variable.{_METHOD[op]} of a scalar variable")
    rows, dim = idx.reshape(-1).to(torch.int64), t.shape[0]
    want = tuple(idx.shape) + tuple(t.shape[1:])
    if u.ndim and tuple(u.shape) != want:
        if u.ndim == len(want) and tuple(u.shape[:idx.ndim]) != tuple(idx.shape):
            raise _kernel_error(variable, f"The shape of indices ({_dims(idx.shape)}) must be a prefix of the shape "
                                f"of updates ({_dims(u.shape)})", op)
        raise _kernel_error(variable, "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = "
                            f"[], got updates.shape {_dims(u.shape)}, indices.shape {_dims(idx.shape)}, params.shape "
                            f"{_dims(t.shape)}", op)
    if rows.numel() == 0:
        return _UnreadVariable(variable)
    bad = ((rows < 0) | (rows >= dim)).nonzero()
    if bad.numel():
        pos = int(bad[0])
        raise _kernel_error(variable, f"indices[{pos}] = {int(rows[pos])} is not in [0, {dim})", op)
    row_shape = (rows.numel(),) + tuple(t.shape[1:])
    if _is_str(t):
        new = t.copy()
        new[rows.cpu().numpy()] = np.broadcast_to(u, row_shape)
        variable._set_storage(new)
        return _UnreadVariable(variable)
    u = u.expand(row_shape) if u.ndim == 0 else u.reshape(row_shape)
    if mode == "div" and bool((u == 0).any()):         # TF checks floats too
        raise _kernel_error(variable, "updates must not contain 0", op)
    variable._set_storage(gather_ops._unsigned(_combine(_wide(t), rows.to(t.device), _wide(u), mode), t.dtype))
    return _UnreadVariable(variable)


def _combine(t, rows, u, mode):
    """`t` with each row `rows[i]` combined with `u[i]`, in index order (repeated rows combine repeatedly)."""
    if mode == "update":
        return t.index_copy(0, rows, u)
    if mode in ("add", "sub"):
        return t.index_add(0, rows, u, alpha=1 if mode == "add" else -1)
    index = rows.reshape((-1,) + (1,) * (u.ndim - 1)).expand_as(u)
    if mode == "div":      # dividing by each update in turn is dividing by their product (exact for integers)
        divisor = torch.ones_like(t).scatter_reduce(0, index, u, "prod", include_self=True)
        if t.dtype.is_floating_point or t.dtype.is_complex:
            return t / divisor
        return torch.div(t, divisor, rounding_mode="trunc")
    return t.scatter_reduce(0, index, u, "prod" if mode == "mul" else mode, include_self=True)


# -- slices at multi-indices: scatter_nd_update/add/sub/max/min ------------------------------------------------

def _check_nd_shapes(variable, t, idx, u, op):
    """TF's ResourceScatterNd shape checks (`indices.shape[:-1] + params.shape[k:] == updates.shape`)."""
    if t.ndim == 0:
        raise _kernel_error(variable, "Output must be at least 1-D, got shape: []", op)
    slice_dim = idx.shape[-1] if idx.ndim > 1 else 1
    batch_dim = idx.ndim - 1 if idx.ndim > 1 else 1
    outer = (f"Dimensions [0,{{0}}) of indices[shape={_dims(idx.shape)}] = {{1}} must match dimensions "
             f"[0,{{0}}) of updates[shape={_dims(u.shape)}] = {{2}}")
    inner = (f"Dimensions [{slice_dim},{t.ndim}) of input[shape={_dims(t.shape)}] must match dimensions "
             f"[{slice_dim},{u.ndim}) of updates[shape={_dims(u.shape)}]")
    for d in range(min(batch_dim, u.ndim)):
        if u.shape[d] != idx.shape[d]:
            raise _kernel_error(variable, outer.format(d + 1, idx.shape[d], u.shape[d]), op)
    if u.ndim < batch_dim or u.ndim - batch_dim != t.ndim - slice_dim or \
            tuple(u.shape[batch_dim:]) != tuple(t.shape[slice_dim:]):
        raise _kernel_error(variable, inner, op)


def _scatter_nd(variable, indices, updates, mode, op):
    t = storage(variable)
    logical_or = mode == "add" and not _is_str(t) and t.dtype is torch.bool     # TF adds booleans with an or
    if not logical_or:
        _check_dtype(variable, t, mode, op)
    idx = gather_ops._index_input(indices, op)
    u = _updates(variable, updates)
    _check_nd_shapes(variable, t, idx, u, op)
    if idx.ndim == 1:
        idx = idx.reshape(-1, 1)
    try:
        if _is_str(t):
            return _string_update(variable, t, idx, u, op)
        if logical_or:
            new = storage(gather_ops._scatter_nd(t.to(torch.uint8), idx, u.to(torch.uint8), op, "amax")).bool()
        else:
            new = storage(gather_ops._scatter_nd(t, idx, u, op, mode))
    except errors.InvalidArgumentError as e:        # the tensor op's check, with the resource op's prefix
        raise _kernel_error(variable, _bare(e.message), op) from None
    variable._set_storage(new)
    return _UnreadVariable(variable)


def _string_update(variable, t, idx, u, op):
    """`scatter_nd_update` of a tf.string variable (NumPy object storage)."""
    gather_ops._flat_nd(idx, tuple(t.shape), op)       # TF's index checks
    new = t.copy()
    new[tuple(idx.reshape(-1, idx.shape[-1]).cpu().numpy().T)] = u.reshape((-1,) + t.shape[idx.shape[-1]:])
    variable._set_storage(new)
    return _UnreadVariable(variable)


_METHOD = {}


def _rows_method(mode, op, name):
    def method(self, sparse_delta, use_locking=False, name=None):
        return _scatter_rows(self, sparse_delta, mode, op)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Combines rows `sparse_delta.indices` of the variable with `sparse_delta.values` ({mode})."
    _METHOD[op] = name
    return method


def _nd_method(mode, op, name):
    def method(self, indices, updates, name=None):
        return _scatter_nd(self, indices, updates, mode, op)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Combines the slices of the variable at multi-indices `indices` with `updates` ({mode})."
    return method


def batch_scatter_update(self, sparse_delta, use_locking=True, name=None):
    """Row `indices[b..., j]` of each batch `b...` of the variable set to `values[b..., j]`."""
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {sparse_delta}")
    idx = gather_ops._index_input(sparse_delta.indices, "ResourceScatterNdUpdate")
    if idx.ndim <= 1:
        nd = idx.reshape(-1, 1)
    else:           # prefix each index with its batch position
        grids = torch.meshgrid(*[torch.arange(d, dtype=idx.dtype, device=idx.device) for d in idx.shape],
                               indexing="ij")
        nd = torch.stack(list(grids[:-1]) + [idx], dim=-1)
    return _scatter_nd(self, nd, sparse_delta.values, "update", "ResourceScatterNdUpdate")


def sparse_read(self, indices, name=None):
    """The rows of the variable at `indices` (`tf.gather` of its value)."""
    try:
        return gather_ops.gather(self, indices)
    except errors.InvalidArgumentError as e:        # TF reads through its resource op
        raise errors.kernel_error(type(e), _bare(e.message), "ResourceGather", self.device) from None


def gather_nd(self, indices, name=None):
    """The slices of the variable at multi-indices `indices` (`tf.gather_nd` of its value)."""
    return gather_ops.gather_nd(self, indices)


for _mode, _op in (("update", "ResourceScatterUpdate"), ("add", "ResourceScatterAdd"),
                   ("sub", "ResourceScatterSub"), ("mul", "ResourceScatterMul"), ("div", "ResourceScatterDiv"),
                   ("amax", "ResourceScatterMax"), ("amin", "ResourceScatterMin")):
    _name = "scatter_" + _mode.replace("amax", "max").replace("amin", "min")
    setattr(Variable, _name, _rows_method(_mode, _op, _name))
for _mode, _op in (("update", "ResourceScatterNdUpdate"), ("add", "ResourceScatterNdAdd"),
                   ("sub", "ResourceScatterNdSub"), ("amax", "ResourceScatterNdMax"),
                   ("amin", "ResourceScatterNdMin")):
    _name = "scatter_nd_" + _mode.replace("amax", "max").replace("amin", "min")
    setattr(Variable, _name, _nd_method(_mode, _op, _name))
Variable.batch_scatter_update = batch_scatter_update
Variable.sparse_read = sparse_read
Variable.gather_nd = gather_nd
