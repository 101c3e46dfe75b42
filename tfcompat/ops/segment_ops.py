"""TF's counting and segment ops: `math.bincount`, `math.(unsorted_)segment_*`, `math.confusion_matrix`."""
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, NUMERIC, REAL, check_dtype, input_storage, int_value, wrap
from tfcompat.ops._array_util import _IAE, _dims, _fail, _fast_name, _int64, _kfail, _numel, _tdtype
from tfcompat.ops.gather_ops import _index_input, _signed, _unsigned


@tf_export("math.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """Counts (or sums `weights`) of each value of the non-negative ints in `arr`."""
    if binary_output and weights is not None:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    x = input_storage(arr)
    w = None if weights is None else input_storage(weights)
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported axis value {axis}. Only 0 and -1 are currently supported.")
    if axis in (None, 0):
        x = x.reshape(-1)
        w = None if w is None else w.reshape(-1)
    if x.numel() and bool((x < 0).any()):
        raise _fail("Input arr must be non-negative!", "DenseBincount", "")
    lo = None if minlength is None else int_value(minlength)
    hi = None if maxlength is None else int_value(maxlength)
    if lo is not None and hi is not None and lo >= hi:
        n = hi              # the values do not decide the size (a traced function reads none of them)
    else:
        n = int(x.max()) + 1 if x.numel() else 0
        if lo is not None:
            n = max(n, lo)
        if hi is not None:
            n = min(n, hi)
    if maxlength is not None:
        keep = x < n
        if w is not None:
            w = torch.where(keep, w, torch.zeros_like(w))
        x = torch.where(keep, x, torch.zeros_like(x))
        if w is None:
            w = keep.to(_tdtype(dtype))
    out_dt = w.dtype if w is not None else _tdtype(dtype)
    rows = x.reshape(-1, x.shape[-1]) if x.ndim == 2 else x.reshape(1, -1)
    ws = None if w is None else w.reshape(rows.shape)
    out = torch.zeros(rows.shape[0], n, dtype=out_dt if not binary_output else _tdtype(dtype), device=x.device)
    src = ws if ws is not None and not binary_output else torch.ones(rows.shape, dtype=out.dtype, device=x.device)
    if n == 0:      # maxlength=0: no bin to count into
        return wrap(out if x.ndim == 2 else out.reshape(0))
    if binary_output:
        out = out.scatter(1, rows.to(_int64), src)
    else:
        out = out.scatter_add(1, rows.to(_int64), src.to(out.dtype))
    return wrap(out if x.ndim == 2 else out.reshape(n))


def _segment_ids(segment_ids, data, op):
    s = _index_input(segment_ids, op)
    if tuple(data.shape[:s.ndim]) != tuple(s.shape):
        raise _fail(f"data.shape = {_dims(data.shape)} does not start with segment_ids.shape = {_dims(s.shape)}", op)
    return s.to(_int64).reshape(-1)


def _lowest(dt):
    return -torch.finfo(dt).max if dt.is_floating_point else torch.iinfo(dt).min


def _highest(dt):
    return torch.finfo(dt).max if dt.is_floating_point else torch.iinfo(dt).max


def _segment_reduce(data, ids, n, kind, empty_zero, cols):
    """Reduces rows of `data` (flattened over the id axes) into `n` segments; rows with id < 0 are dropped.
    uint16/32/64 data (few torch kernels) is reduced as int64 (uint64 max/min with the sign bit flipped)."""
    dt = data.dtype
    if dt is torch.uint64 and kind in ("amax", "amin"):    # empty segments: the key's extremes map to 0 / max
        out = (_segment_rows(data.view(_int64) ^ _SIGN, ids, n, kind, False, cols) ^ _SIGN).view(dt)
        if empty_zero and kind == "amin":
            out = out.view(_int64).masked_fill(out.view(_int64) == -1, 0).view(dt)
        return out
    if kind == "mean" and dt in (torch.uint16, torch.uint32):    # TF's sums wrap in the dtype before dividing
        total = _unsigned(_segment_rows(_signed(data), ids, n, "sum", empty_zero, cols), dt).to(_int64)
        cnt = torch.bincount(ids[(ids >= 0) & (ids < n)], minlength=n).clamp(min=1).unsqueeze(1)
        return (total // cnt).to(dt)
    return _unsigned(_segment_rows(_signed(data), ids, n, kind, empty_zero, cols), dt)


_SIGN = -2 ** 63


def _segment_rows(data, ids, n, kind, empty_zero, cols):
    d2 = data.reshape(ids.numel(), cols)
    valid = (ids >= 0) & (ids < n)     # ids past n only reach here for empty data, which TF leaves unchecked
    if not bool(valid.all()):
        d2 = d2[valid]
        ids = ids[valid]
    dt = data.dtype
    idx = ids.unsqueeze(1).expand(-1, cols)
    if kind in ("sum", "mean", "sqrt_n"):
        out = torch.zeros(n, cols, dtype=dt, device=data.device).index_add(0, ids, d2)
        if kind != "sum":
            cnt = torch.zeros(n, dtype=dt, device=data.device).index_add(
                0, ids, torch.ones(ids.numel(), dtype=dt, device=data.device))
            cnt = torch.clamp(cnt, min=1).unsqueeze(1)
            if kind == "sqrt_n":
                cnt = torch.sqrt(cnt)
            out = out / cnt if dt.is_floating_point or dt.is_complex else torch.div(out, cnt, rounding_mode="trunc")
        return out
    if kind == "prod":
        return torch.ones((n, cols), dtype=dt, device=data.device).scatter_reduce(0, idx, d2, kind, include_self=True)
    inf = float("inf") if dt.is_floating_point else None     # a -inf (+inf) value wins its segment's max (min)
    init = {"amax": -inf if inf else _lowest(dt), "amin": inf or _highest(dt)}[kind]
    out = torch.full((n, cols), init, dtype=dt, device=data.device).scatter_reduce(
        0, idx, d2, kind, include_self=True)
    present = torch.zeros(n, dtype=torch.bool, device=data.device)
    present[ids] = True
    empty = 0 if empty_zero else (_lowest(dt) if kind == "amax" else _highest(dt))
    return torch.where(present.unsqueeze(1), out, torch.full((), empty, dtype=dt, device=data.device))


def _unsorted_segment(kind, op):
    def f(data, segment_ids, num_segments, name=None):
        d = input_storage(data)
        check_dtype(d, op, NUMERIC if kind in ("sum", "prod", "mean") else (FLOAT if kind == "sqrt_n" else REAL))
        if kind == "mean" and not (d.dtype.is_floating_point or d.dtype.is_complex):   # TF's truediv of the sum
            d = d.to(dtypes.division_result(dtypes.FROM_STORAGE[d.dtype]).torch_dtype)
        ids = _segment_ids(segment_ids, d, op)
        n = int_value(num_segments)
        if n < 0:
            raise errors.kernel_error(_IAE, f"Input num_segments == {n} must not be negative.", op)
        unchecked = kind in ("amax", "amin", "prod") and not _numel(d.shape)   # TF's kernel returns empty data
        if ids.numel() and not unchecked and bool((ids >= n).any()):    # a bool: a traced function's guard holds
            pos = int((ids >= n).nonzero()[0])
            raise errors.kernel_error(_IAE, f"segment_ids[{pos}] = {int(ids[pos])} is out of range [0, {n})", op,
                                      name=None)
        k = input_storage(segment_ids).ndim
        out = _segment_reduce(d, ids, n, kind, False, _numel(d.shape[k:]))
        return wrap(out.reshape((n,) + tuple(d.shape[k:])))
    f.__name__ = "unsorted_segment_" + kind.replace("amax", "max").replace("amin", "min")
    f.__doc__ = f"TF's `{op}`: reduces the rows of `data` with the same segment id (ids < 0 dropped)."
    return tf_export("math." + f.__name__)(f)


unsorted_segment_sum = _unsorted_segment("sum", "UnsortedSegmentSum")
unsorted_segment_mean = _unsorted_segment("mean", "UnsortedSegmentSum")
unsorted_segment_sqrt_n = _unsorted_segment("sqrt_n", "UnsortedSegmentSum")
unsorted_segment_max = _unsorted_segment("amax", "UnsortedSegmentMax")
unsorted_segment_min = _unsorted_segment("amin", "UnsortedSegmentMin")
unsorted_segment_prod = _unsorted_segment("prod", "UnsortedSegmentProd")


def _sorted_segment(kind, op):
    def f(data, segment_ids, name=None):
        d = input_storage(data)
        check_dtype(d, op, NUMERIC if kind in ("sum", "prod", "mean") else REAL)
        s = _index_input(segment_ids, op)
        name = _fast_name(data, segment_ids)
        if s.ndim != 1:
            raise _kfail("segment_ids should be a vector.", op, name, like=d)
        if s.shape[0] != d.shape[0]:
            raise _kfail("segment_ids should be the same size as dimension 0 of input.", op, name, like=d)
        ids = s.to(_int64)
        if ids.numel() > 1 and bool((ids[1:] < ids[:-1]).any()):
            raise _kfail("segment ids are not increasing", op, name, like=d)
        if ids.numel() and int(ids[-1]) < 0:        # no output rows
            raise _kfail("segment ids must be >= 0", op, name, like=d)
        if ids.numel() and int(ids[0]) < 0:
            raise _kfail(f"Segment id {int(ids[0])} out of range [0, {int(ids[-1]) + 1}), possibly because "
                         "'segment_ids' input is not sorted.", op, name, like=d)
        n = int(ids[-1]) + 1 if ids.numel() else 0
        out = _segment_reduce(d, ids, n, kind, True, _numel(d.shape[1:]))
        return wrap(out.reshape((n,) + tuple(d.shape[1:])))
    f.__name__ = "segment_" + kind.replace("amax", "max").replace("amin", "min")
    f.__doc__ = f"TF's `{op}`: reduces runs of rows with the same (sorted) segment id; empty segments are 0."
    return tf_export("math." + f.__name__)(f)


segment_sum = _sorted_segment("sum", "SegmentSum")
segment_mean = _sorted_segment("mean", "SegmentMean")
segment_max = _sorted_segment("amax", "SegmentMax")
segment_min = _sorted_segment("amin", "SegmentMin")
segment_prod = _sorted_segment("prod", "SegmentProd")


@tf_export("math.confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """`m[i, j]` counts (or sums `weights` of) examples with label i predicted as j."""
    lb = input_storage(labels).to(_int64).reshape(-1)
    pr = input_storage(predictions).to(_int64).reshape(-1)
    if lb.numel() != pr.numel():
        raise ValueError(f"Dimensions {lb.numel()} and {pr.numel()} are not compatible")
    if num_classes is None:
        n = int(torch.maximum(lb.max(), pr.max())) + 1 if lb.numel() else 0
    else:
        n = int_value(num_classes)
    if lb.numel() and (bool((lb < 0).any()) or bool((pr < 0).any())):
        raise _IAE(None, None, "`labels` contains negative values." if bool((lb < 0).any()) else
                   "`predictions` contains negative values.")
    for what, v in (("labels", lb), ("predictions", pr)):
        if v.numel() and bool((v >= n).any()):       # a bool: a traced function's guard holds
            raise _IAE(None, None, f"`{what}` out of bound\nCondition x < y did not hold.\nFirst {min(v.numel(), 3)} "
                       f"elements of x:\n{v[:3].cpu().numpy()}\nFirst 1 elements of y:\n[{n}]")
    dt = _tdtype(dtype)
    w = torch.ones(lb.numel(), dtype=dt, device=lb.device) if weights is None else \
        input_storage(weights).reshape(-1).to(dt)
    out = torch.zeros(n * n, dtype=dt, device=lb.device).index_add(0, lb * n + pr, w)
    return wrap(out.reshape(n, n))
