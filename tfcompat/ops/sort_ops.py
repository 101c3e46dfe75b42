"""TF's sorting and searching ops: `tf.sort`, `argsort`, `math.top_k`, `unique`, `searchsorted`, `sequence_mask`."""
import collections

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    REAL, SIGNED_NUMERIC, check_dtype, dtype_error, input_storage, int_value, type_name, wrap)
from tfcompat.ops import _topk_order
from tfcompat.ops._array_util import _fail, _fast_name, _int32, _int64, _is_str, _kfail, _tdtype


def _sort_axis(t, axis):
    """`axis` as TF's sort reads it: `tf.shape(values)[axis]`, so an axis out of range is StridedSlice's error."""
    n = t.ndim
    a = int(axis) if isinstance(axis, float) else int_value(axis)
    if not -n <= a < n:
        raise errors.kernel_error(errors.InvalidArgumentError, f"slice index {a if a >= 0 else a + n} of dimension 0 "
                                  "out of bounds.", "StridedSlice", name="strided_slice/")
    return a % n


def _sort_input(values, desc):
    """The values to sort, with TF's dtype errors: ascending sorts negate (Neg's types), both run TopKV2."""
    t = input_storage(values)
    if not desc and (_is_str(t) or t.dtype is torch.bool):
        raise dtype_error(t, "Neg", SIGNED_NUMERIC)
    check_dtype(t, "TopKV2", REAL)
    return t


def _direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    return direction == "DESCENDING"


@tf_export("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    """Sorted values along `axis`."""
    desc = _direction(direction)
    t = _sort_input(values, desc)
    a = _sort_axis(t, axis)
    return wrap(torch.sort(t, dim=a, descending=desc, stable=True).values)


@tf_export("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 indices that sort `values` along `axis` (ties keep input order)."""
    desc = _direction(direction)
    t = _sort_input(values, desc)
    a = _sort_axis(t, axis)
    return wrap(torch.sort(t, dim=a, descending=desc, stable=True).indices.to(_int32))


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


@tf_export("math.top_k", "nn.top_k")
def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The `k` largest entries of the last axis and their indices (lower index first on ties); with sorted=False
    in the order of TF's CPU heap, and rows holding NaN as TF's CPU kernel returns them."""
    t = input_storage(input)
    check_dtype(t, "TopKV2", REAL)
    if isinstance(k, float):
        raise TypeError(f"Cannot convert {k!r} to EagerTensor of dtype int32")
    name = _fast_name(input, k)
    k = int_value(k)
    if t.ndim == 0:
        raise _kfail("input must be >= 1-D, got shape []", "TopKV2", name, like=t)
    if k < 0:
        raise _kfail(f"Need k >= 0, got {k}", "TopKV2", name, like=t)
    if k > t.shape[-1]:
        raise _kfail(f"input must have at least k columns. Had {t.shape[-1]}, needed {k}", "TopKV2", name, like=t)
    s = torch.sort(t, dim=-1, descending=True, stable=True)
    values, idx = s.values[..., :k], s.indices[..., :k]
    if t.numel() and not sorted and 1 < k < t.shape[-1]:
        idx = _rows_replayed(t, idx, k, False, None)
        values = _gather(t, idx)
    elif t.numel() and k and t.is_floating_point() and bool(t.isnan().any()):
        idx = _rows_replayed(t, idx, k, bool(sorted), t.reshape(-1, t.shape[-1]).isnan().any(-1))
        values = _gather(t, idx)
    return TopKV2(wrap(values), wrap(idx.to(_tdtype(index_type))))


def _gather(t, idx):
    """`t`'s values at `idx` along the last axis (unsigned types through their signed view: torch has no CPU
    gather for uint16/32/64)."""
    signed = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}.get(t.dtype)
    if signed is None:
        return t.gather(-1, idx)
    return t.view(signed).gather(-1, idx).view(t.dtype)


def _rows_replayed(t, idx, k, sorted_, which):
    """`idx` with the rows `which` selects (a bool mask; None: all) replaced by the columns TF's CPU kernel picks
    (`_topk_order`)."""
    rows = t.reshape(-1, t.shape[-1])
    out = idx.reshape(-1, k).clone()
    lanes = 32 // t.element_size()
    numbers = rows.tolist() if which is None else None
    for r in range(rows.shape[0]) if which is None else which.nonzero().flatten().tolist():
        order = _topk_order.row_order(rows[r].tolist() if numbers is None else numbers[r], k, sorted_, lanes)
        if order is None:
            raise NotImplementedError(f"tf.math.top_k: a row of {t.shape[-1]} values holding NaN with k equal to its "
                                      "length (TF's std::sort order for it is replayed up to 16 values)")
        out[r] = torch.tensor(order, dtype=out.dtype)
    return out.reshape(idx.shape)


@tf_export("math.in_top_k", "nn.in_top_k")
def in_top_k(targets, predictions, k, name=None):
    """Whether each target's prediction is among the `k` largest of its row (ties count in its favour)."""
    p = input_storage(predictions)
    tg = input_storage(targets).to(_int64)
    k = int_value(k)
    if p.shape[1] == 0:
        return wrap(torch.zeros(tg.shape, dtype=torch.bool, device=p.device))
    own = p.gather(1, tg.clamp(0, p.shape[1] - 1).unsqueeze(1))    # out-of-range targets are False
    better = (p > own).sum(1)
    ok = (better < k) & torch.isfinite(own.squeeze(1)) & (tg >= 0) & (tg < p.shape[1])
    return wrap(ok)


Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _unique(x, out_idx):
    t = input_storage(x)
    odt = _tdtype(out_idx)
    if not _is_str(t) and t.is_complex():       # TF registers Unique's CPU kernels for real types only
        enum = {torch.complex64: "DT_COMPLEX64", torch.complex128: "DT_COMPLEX128"}[t.dtype]
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node Unique}}}} = "
                              f"Unique[T={enum}, out_idx=DT_{dtypes.as_dtype(out_idx).name.upper()}]\nAll kernels "
                              "registered for op Unique:\n", "Unique")
    if t.ndim != 1:
        raise _kfail("unique expects a 1D vector.", "Unique", _fast_name(x), like=t)
    if _is_str(t):
        first = {}
        idx = [first.setdefault(v, len(first)) for v in t]
        y = np.empty(len(first), dtype=object)
        y[:] = list(first)
        return y, torch.tensor(idx, dtype=odt), torch.bincount(torch.tensor(idx, dtype=_int64),
                                                                minlength=len(first)).to(odt)
    vals, inv, counts = torch.unique(t, sorted=True, return_inverse=True, return_counts=True)
    pos = torch.arange(t.numel(), device=t.device)
    first = torch.full((vals.numel(),), t.numel(), dtype=pos.dtype, device=t.device).scatter_reduce(
        0, inv, pos, "amin")
    order = torch.argsort(first)
    rank_ = torch.empty_like(order)
    rank_[order] = torch.arange(order.numel(), device=t.device)
    return vals[order], rank_[inv].to(odt), counts[order].to(odt)


@tf_export("unique")
def unique(x, out_idx=dtypes.int32, name=None):
    """Distinct values in order of first occurrence, and each element's position among them."""
    y, idx, _ = _unique(x, out_idx)
    return Unique(wrap(y), wrap(idx))


@tf_export("unique_with_counts")
def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """`tf.unique` plus the number of occurrences of each distinct value."""
    y, idx, count = _unique(x, out_idx)
    return UniqueWithCounts(wrap(y), wrap(idx), wrap(count))


@tf_export("searchsorted")
def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Insertion positions of `values` in the innermost axis of `sorted_sequence`."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = {side}.")
    s = input_storage(sorted_sequence)
    v = input_storage(values)
    if v.dtype != s.dtype:
        op = "LowerBound" if side == "left" else "UpperBound"
        raise _fail(f"cannot compute {op} as input #1(zero-based) was expected to be a {type_name(s.dtype)} tensor "
                    f"but is a {type_name(v.dtype)} tensor", op, "")
    if _is_str(s):
        op = "LowerBound" if side == "left" else "UpperBound"
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node {op}}}}} = {op}[T="
                              f"DT_STRING, out_type=DT_{type_name(_tdtype(out_type)).upper()}]\nAll kernels registered "
                              f"for op {op}:\n", op)
    if s.dtype is torch.uint64:     # no torch kernel: the same order on int64 once the sign bit flips
        s, v = s.view(_int64) ^ -2 ** 63, v.view(_int64) ^ -2 ** 63
    elif s.dtype in (torch.uint16, torch.uint32):
        s, v = s.to(_int64), v.to(_int64)
    out = torch.searchsorted(s.contiguous(), v.contiguous(), right=side == "right")
    return wrap(out.to(_tdtype(out_type)))


@tf_export("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """`mask[..., j] = j < lengths[...]`, with `maxlen` columns (default: the largest length)."""
    ln = input_storage(lengths)
    m = int(ln.max()) if maxlen is None and ln.numel() else (0 if maxlen is None else int_value(maxlen))
    out = torch.arange(m, device=ln.device, dtype=ln.dtype) < ln.unsqueeze(-1)
    return wrap(out.to(_tdtype(dtype)))
