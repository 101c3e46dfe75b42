"""Gather/scatter: `tf.gather`, `gather_nd`, `scatter_nd`, `tensor_scatter_nd_*`, `where`, `boolean_mask`, `one_hot`."""
import math

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, int_list, int_value, type_name, wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops._array_util import (
    _broadcast_dims, _dims, _fail, _fast_name, _int32, _int64, _is_str, _kfail, _matching, _numel)


_INDEX_ATTRS = {
    "GatherV2": ("Tindices", "int16, int32, int64",
                 "signature=params:Tparams, indices:Tindices, axis:Taxis -> output:Tparams; attr=batch_dims:int,"
                 "default=0; attr=Tparams:type; attr=Tindices:type,allowed=[DT_INT16, DT_INT32, DT_INT64]; "
                 "attr=Taxis:type,allowed=[DT_INT32, DT_INT64]"),
    "OneHot": ("TI", "uint8, int8, int32, int64",
               "signature=indices:TI, depth:int32, on_value:T, off_value:T -> output:T; attr=axis:int,default=-1; "
               "attr=T:type; attr=TI:type,default=DT_INT64,allowed=[DT_UINT8, DT_INT8, DT_INT32, DT_INT64]"),
}


_INDEX_DTYPES = {"GatherV2": (_int32, _int64, torch.int16), "OneHot": (_int32, _int64, torch.int8, torch.uint8)}


def _index_input(indices, op):
    i = input_storage(indices)
    if _is_str(i) or i.dtype not in _INDEX_DTYPES.get(op, (_int32, _int64, torch.int16, torch.int8, torch.uint8)):
        attr, allowed, sig = _INDEX_ATTRS.get(op, ("Tindices", "int32, int64", None))
        tail = f"\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; {sig}>" if sig else ""
        raise _fail(f"Value for attr '{attr}' of {type_name(i.dtype)} is not in the list of allowed values: "
                    f"{allowed}{tail}", op)
    return i


_WIDE_UNSIGNED = frozenset([torch.uint16, torch.uint32, torch.uint64])


def _signed(t):
    """uint16/32/64 storage (few torch kernels) as int64 for kernels that move or add values; `_unsigned` undoes it
    (uint64 keeps its bits, wrapping as TF's modular arithmetic does)."""
    if t.dtype not in _WIDE_UNSIGNED:
        return t
    return t.view(_int64) if t.dtype is torch.uint64 else t.to(_int64)


def _unsigned(t, dtype):
    if t.dtype is dtype:
        return t
    return t.view(dtype) if dtype is torch.uint64 else t.to(dtype)


def _out_of_range(idx, dim):
    """Whether an index lies outside [0, dim): one bool read, which a traced function keeps as a guard that holds
    while the indices stay in range (reading their min and max made every call with new indices run the body)."""
    return bool(((idx < 0) | (idx >= dim)).any())


def _index_text(pos, shape):
    return ",".join(str(int(v)) for v in np.unravel_index(pos, shape)) if len(shape) else ""


@tf_export("gather")
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` along `axis` at `indices` (with `batch_dims` leading batch axes)."""
    p = input_storage(params)
    idx = _index_input(indices, "GatherV2")
    bd = int_value(batch_dims)
    if bd < 0:
        bd += idx.ndim
    if isinstance(axis, (bool, float)):
        raise _fail(f"Value for attr 'Taxis' of {'bool' if isinstance(axis, bool) else 'float'} is not in the list "
                    f"of allowed values: int32, int64\n\t; NodeDef: {{{{node GatherV2}}}}; Op<name=GatherV2; "
                    f"{_INDEX_ATTRS['GatherV2'][2]}>", "GatherV2")
    a = bd if axis is None else int_value(axis)
    if a == 0:     # TF's Python wrapper calls GatherV2 without batch_dims when the axis is 0
        bd = 0
    if a < 0:
        a += p.ndim
    if not 0 <= a < p.ndim:
        raise _fail(f"Expected axis in the range [{-p.ndim}, {p.ndim}), but got {a}", "GatherV2")
    if bd > a:
        raise _fail(f"batch_dims ({bd}) must be less than or equal to axis ({a}).", "GatherV2", "")
    for i in range(bd):
        if p.shape[i] != idx.shape[i]:
            raise _fail(f"params.shape[{i}]: {p.shape[i]} should be equal to indices.shape[{i}]: {idx.shape[i]}",
                        "GatherV2", "")
    dim = p.shape[a]
    empty = _numel(p.shape[:a]) * _numel(p.shape[a + 1:]) == 0     # TF checks no index for an empty result
    # index_select's own bounds check (an IndexError along axis 0) covers the common CPU gather; other paths (other
    # axes, advanced indexing, NumPy's take, a CUDA kernel's device assert) would wrap negative indices, fail with
    # other errors or abort, so they check first
    kernel_checked = bd == 0 and a == 0 and idx.device.type == "cpu" and not _is_str(p)
    if idx.numel() and not empty and not kernel_checked and _out_of_range(idx, dim):
        raise _gather_index_error(idx, dim, _fast_name(params, indices))
    if _is_str(p):
        if bd:
            raise NotImplementedError("tf.gather: batch_dims for tf.string params")
        return wrap(np.take(p, idx.cpu().numpy(), axis=a))
    if bd == 0:
        shape = p.shape[:a] + idx.shape + p.shape[a + 1:]
        if empty:
            return wrap(p.new_empty(shape))
        try:
            out = _signed(p).index_select(a, idx.reshape(-1))
        except IndexError:
            raise _gather_index_error(idx, dim, _fast_name(params, indices)) from None
        return wrap(_unsigned(out, p.dtype).reshape(shape))
    batch = p.shape[:bd]
    nb = _numel(batch)
    pp = p.reshape((nb,) + p.shape[bd:]).movedim(a - bd + 1, 1)
    ii = idx.reshape(nb, -1).to(_int64)
    rows = torch.arange(nb, device=p.device).unsqueeze(1)
    out = pp[rows, ii].movedim(1, a - bd + 1)
    return wrap(out.reshape(batch + p.shape[bd:a] + idx.shape[bd:] + p.shape[a + 1:]))


def _gather_index_error(idx, dim, name=None):
    """TF's GatherV2 error for the first index outside [0, dim)."""
    pos = int(((idx < 0) | (idx >= dim)).reshape(-1).nonzero()[0])
    where_ = f"[{_index_text(pos, tuple(idx.shape))}]" if idx.ndim else ""     # TF: "indices = 5" for a scalar
    return _kfail(f"indices{where_} = {int(idx.reshape(-1)[pos])} is not in [0, {dim})", "GatherV2", name, like=idx)


def _check_nd(p_shape, idx, op, batch=0, scatter=False, name=None):
    k = idx.shape[-1]
    if k > len(p_shape) - batch:
        raise _kfail(f"index innermost dimension length must be <= params rank; saw: {k} vs. {len(p_shape)}", op,
                     name, like=idx)
    if idx.numel() == 0:
        return
    limit = torch.tensor(p_shape[batch:batch + k], device=idx.device)
    bad = ((idx < 0) | (idx >= limit)).any(-1).reshape(-1)
    if bool(bad.any()):
        pos = int(bad.nonzero()[0])
        row = idx.reshape(-1, k)[pos].tolist()
        where_ = _index_text(pos, tuple(idx.shape[:-1])).join("[]") if idx.ndim > 1 else "[]"
        if scatter:
            raise _kfail(f"indices{where_} = [{', '.join(map(str, row))}] does not index into shape "
                         f"{_dims(p_shape)}", op, name, like=idx)
        raise _kfail(f"indices{where_} = [{', '.join(map(str, row))}] does not index into param shape "
                     f"{_dims(p_shape)}, node name: {op}", op, name, like=idx)


@tf_export("gather_nd")
def gather_nd(params, indices, batch_dims=0, name=None):
    """Slices of `params` at the multi-indices in the last axis of `indices`."""
    p = input_storage(params)
    idx = _index_input(indices, "GatherNd")
    bd = int_value(batch_dims)
    _check_nd(tuple(p.shape), idx, "GatherNd", bd, name=_fast_name(params, indices))
    if _is_str(p):
        if bd:
            raise NotImplementedError("tf.gather_nd: batch_dims for tf.string params")
        ii = idx.cpu().numpy()
        return wrap(p[tuple(np.moveaxis(ii, -1, 0))])
    k = idx.shape[-1]
    idx = idx.to(_int64)
    if bd == 0:
        return wrap(p[tuple(idx.unbind(-1))] if k else p.expand(idx.shape[:-1] + p.shape))
    batch = p.shape[:bd]
    nb = _numel(batch)
    pp = p.reshape((nb,) + p.shape[bd:])
    ii = idx.reshape(nb, -1, k)
    rows = torch.arange(nb, device=p.device).unsqueeze(1)
    out = pp[(rows,) + tuple(ii.unbind(-1))]
    return wrap(out.reshape(batch + idx.shape[bd:-1] + p.shape[bd + k:]))


def _flat_nd(indices, shape, op):
    """Row positions (int64, flattened over `shape[:k]`) of `indices` whose last axis has length k."""
    k = indices.shape[-1]
    _check_nd(tuple(shape), indices, op, scatter=True)
    strides = []
    s = 1
    for d in reversed(shape[:k]):
        strides.append(s)
        s *= d
    w = torch.tensor(strides[::-1], dtype=_int64, device=indices.device)
    return (indices.to(_int64) * w).sum(-1).reshape(-1), k


def _scatter_nd(tensor, indices, updates, op, mode):
    idx = _index_input(indices, op)
    u = updates
    shape = tuple(tensor.shape)
    flat, k = _flat_nd(idx, shape, op)
    inner = shape[k:]
    want = tuple(idx.shape[:-1]) + inner
    if tuple(u.shape) != want:
        raise _fail(f"Outer dimensions of indices and update must match. Indices shape: {_dims(idx.shape)}, "
                    f"updates shape:{_dims(u.shape)}", op)
    if not _numel(shape) and flat.numel():
        raise _fail("Indices and updates specified for empty output shape", op, None)
    if _is_str(tensor):
        raise NotImplementedError(f"tfcompat: {op} of tf.string tensors")
    if not flat.numel():
        return wrap(tensor.clone())
    dt = tensor.dtype
    if mode in ("amax", "amin") and dt.is_floating_point:   # TF's std::max/min keeps the current value over a NaN
        u = torch.where(torch.isnan(u), torch.full_like(u, -math.inf if mode == "amax" else math.inf), u)
    if dt is torch.uint64 and mode in ("amax", "amin"):   # order-preserving on int64 once the sign bit flips
        return wrap(_scatter_rows(tensor.view(_int64) ^ _SIGN, flat, u.view(_int64) ^ _SIGN, shape, k, mode)
                    .__xor__(_SIGN).view(dt))
    return wrap(_unsigned(_scatter_rows(_signed(tensor), flat, _signed(u), shape, k, mode), dt))


_SIGN = -2 ** 63


def _scatter_rows(tensor, flat, u, shape, k, mode):
    rows = _numel(shape[:k])
    inner = _numel(shape[k:])
    t2 = tensor.reshape(rows, inner)
    u2 = u.reshape(flat.numel(), inner)
    if mode == "update":
        out = t2.index_copy(0, flat, u2)
    elif mode == "add":
        out = t2.index_add(0, flat, u2)
    elif mode == "sub":
        out = t2.index_add(0, flat, u2, alpha=-1) if u2.dtype is not torch.bool else t2
    else:
        out = t2.scatter_reduce(0, flat.unsqueeze(1).expand_as(u2), u2, mode, include_self=True)
    return out.reshape(shape)


@tf_export("scatter_nd")
def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` summed in at `indices`."""
    u = input_storage(updates)
    zeros = np.full(int_list(shape), b"", dtype=object) if _is_str(u) else \
        torch.zeros(int_list(shape), dtype=u.dtype, device=u.device)
    return _scatter_nd(zeros, indices, u, "ScatterNd", "add")


def _tensor_scatter(mode, op):
    def f(tensor, indices, updates, name=None):
        t, u = _matching([tensor, updates], op, numbers=(0, 2))
        if mode in ("amax", "amin") and not _is_str(t) and t.dtype.is_complex:
            i = _index_input(indices, op)
            raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node {op}}}}} = {op}"
                                  f"[T=DT_{type_name(t.dtype).upper()}, Tindices=DT_{type_name(i.dtype).upper()}, "
                                  f"bad_indices_policy=\"\"]\nAll kernels registered for op {op}:\n", op)
        return _scatter_nd(t, indices, u, op, mode)
    f.__name__ = "tensor_scatter_nd_" + ("update" if mode == "update" else mode.replace("amax", "max").replace(
        "amin", "min"))
    f.__doc__ = f"A copy of `tensor` with `updates` {mode}-combined in at the multi-indices `indices`."
    return tf_export(f.__name__, "tensor_scatter_nd_" + f.__name__.rsplit("_", 1)[1])(f)


tensor_scatter_nd_update = _tensor_scatter("update", "TensorScatterUpdate")
tensor_scatter_nd_add = _tensor_scatter("add", "TensorScatterAdd")
tensor_scatter_nd_sub = _tensor_scatter("sub", "TensorScatterSub")
tensor_scatter_nd_max = _tensor_scatter("amax", "TensorScatterMax")
tensor_scatter_nd_min = _tensor_scatter("amin", "TensorScatterMin")


@tf_export("where")
def where(condition, x=None, y=None, name=None):
    """With one argument: int64 coordinates of true (non-zero) elements; else elementwise `x if c else y`."""
    if x is None and y is None:
        c = input_storage(condition)
        if _is_str(c):
            raise NotImplementedError("tf.where of a tf.string tensor")
        if c.ndim == 0:
            raise _fail("WhereOp : Unhandled input dimensions: 0", "Where", "")
        if c.dtype is torch.float16:
            raise errors.kernel_error(errors.UnimplementedError, "No WhereOp available for float16/half type on CPU; "
                                      "dying in CPU WhereOp to avoid silently creating costly copies from device.",
                                      "Where")
        return wrap(torch.nonzero(c if c.dtype is torch.bool else c != 0))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    if not all(isinstance(v, (Tensor, Variable, int, float, bool, np.generic)) for v in (condition, x, y)):
        c = to_storage(condition, dtypes.bool)    # TF's slow path (a list or array operand) converts it to bool
    else:
        c = input_storage(condition)
    if _is_str(c) or c.dtype is not torch.bool:    # all tensors: the kernel's dtype check
        raise errors.op_error(errors.InvalidArgumentError, f"cannot compute SelectV2 as input #0(zero-based) was "
                              f"expected to be a bool tensor but is a {type_name(c.dtype)} tensor", "SelectV2")
    a, b = _matching([x, y], "SelectV2", numbers=(1, 2))
    if _broadcast_dims(_broadcast_dims(c.shape, a.shape) or [None, None], b.shape) is None or \
            _broadcast_dims(c.shape, a.shape) is None:
        raise _fail(f"condition {_dims(c.shape)}, then {_dims(a.shape)}, and else {_dims(b.shape)} must be "
                    "broadcastable", "SelectV2")
    if _is_str(a):
        return wrap(np.where(c.cpu().numpy(), a, b))
    return wrap(torch.where(c, a, b))


@tf_export("boolean_mask")
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The elements (or slices along `axis`) of `tensor` where `mask` is true, flattened over the mask axes."""
    t = input_storage(tensor)
    m = input_storage(mask)
    k = m.ndim
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    a = 0 if axis is None else int_value(axis)
    if a < 0:
        a += t.ndim
    if tuple(t.shape[a:a + k]) != tuple(m.shape):
        raise ValueError(f"Shapes {TensorShape(tuple(t.shape[a:a + k]))} and {TensorShape(tuple(m.shape))} "
                         "are incompatible")
    pos = torch.nonzero(m.reshape(-1)).reshape(-1)
    if _is_str(t):
        flat = t.reshape(t.shape[:a] + (-1,) + t.shape[a + k:])
        return wrap(np.take(flat, pos.numpy(), axis=a))
    flat = _signed(t.flatten(a, a + k - 1) if k > 1 else t)
    return wrap(_unsigned(flat.index_select(a, pos.to(t.device)), t.dtype))


def one_hot_rows(idx, depth):
    """Integer ids `idx` as int64 0/1 rows of width `depth` (an id outside [0, depth) gives a zero row, as TF's
    OneHot). torch's `one_hot` reads the ids' min and max on the host, which a traced function keeps as value guards
    (every call with new ids ran its Python body again); a comparison reads nothing."""
    return (idx.unsqueeze(-1) == torch.arange(depth, device=idx.device, dtype=idx.dtype)).to(_int64)


@tf_export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors of length `depth` along a new `axis` (-1 = last); out-of-range indices give all off."""
    depth = int_value(depth)
    on_dt = None if on_value is None else dtypes.FROM_STORAGE[input_storage(on_value).dtype]
    off_dt = None if off_value is None else dtypes.FROM_STORAGE[input_storage(off_value).dtype]
    if on_dt is not None and off_dt is not None and on_dt != off_dt:
        raise TypeError(f"dtype {on_dt} of on_value does not match dtype {off_dt} of off_value")
    dtype = dtypes.as_dtype(dtype if dtype is not None else on_dt or off_dt or dtypes.float32)
    on = input_storage(1 if on_value is None else on_value, dtype)
    off = input_storage(0 if off_value is None else off_value, dtype)
    idx = _index_input(indices, "OneHot")       # after the values: TF converts them in Python, first
    if depth < 0:
        raise _kfail(f"depth must be non-negative, got: {depth}", "OneHot", _fast_name(indices), like=idx)
    if axis is not None and not -1 <= int_value(axis) <= idx.ndim:
        raise _kfail(f"Expected axis to be -1 or between [0, {idx.ndim + 1}).  But received: {int_value(axis)}",
                     "OneHot", _fast_name(indices), like=idx)
    if _is_str(on):
        raise NotImplementedError("tfcompat: tf.one_hot of tf.string values")
    tdt = dtype.torch_dtype
    on, off = on.to(idx.device), off.to(idx.device)
    hot = idx.unsqueeze(-1) == torch.arange(depth, device=idx.device, dtype=idx.dtype)
    out = torch.where(hot, on.to(tdt), off.to(tdt))
    if axis is not None and axis != -1:
        out = out.movedim(-1, int_value(axis))
    return wrap(out)
