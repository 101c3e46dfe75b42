"""`keras.ops` NumPy-style array functions: creation, windows, shape manipulation, indexing, searching and sets."""
import builtins
import math

import numpy as np
import torch

from tfcompat.framework import dtypes as _dtypes
from tfcompat.framework.context import current_device as _device
from tfcompat.framework.tensor import Tensor, _wrap
from tfcompat.keras.ops._common import _FLOATX, _creation_dtype, _pair, _promoted, _st, _torch_dtype
from tfcompat.ops.gather_ops import one_hot_rows


def _tuple(v):
    return (v,) if isinstance(v, int) else tuple(v)


# -- creation -----------------------------------------------------------------------------------------------------
def array(x, dtype=None):
    """A tensor of `x` (Python ints -> int32, floats -> float32)."""
    t = _st(x)
    return _wrap(t.to(_torch_dtype(dtype)) if dtype is not None else t.clone())


def copy(x):
    return _wrap(_st(x).clone())


def empty(shape, dtype=None):
    """A tensor of `shape` (filled with zeros, as Keras's TF backend)."""
    return _wrap(torch.zeros(_tuple(shape), dtype=_creation_dtype(dtype), device=_device()))


def empty_like(x, dtype=None):
    t = _st(x)
    return _wrap(torch.zeros_like(t, dtype=_creation_dtype(dtype, t.dtype)))


def identity(n, dtype=None):
    """The `n x n` identity matrix (float32 unless `dtype`)."""
    return _wrap(torch.eye(n, dtype=_creation_dtype(dtype), device=_device()))


def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the `k`-th diagonal."""
    ones = torch.ones((N, N if M is None else M), dtype=torch.bool, device=_device())
    return _wrap(torch.tril(ones, k).to(_creation_dtype(dtype)))


def _spaced(start, stop, num, endpoint):
    s, e = _st(start).to(torch.float64), _st(stop).to(torch.float64)
    steps = torch.arange(num, dtype=torch.float64, device=s.device)
    div = (num - 1) if endpoint else num
    frac = steps / div if div > 0 else steps * 0
    shape = (num,) + tuple(torch.broadcast_shapes(s.shape, e.shape))
    frac = frac.reshape((num,) + (1,) * (len(shape) - 1))
    return s + frac * (e - s)


def _axis_moved(out, axis):
    return out if axis == 0 else torch.movedim(out, 0, axis)


def _space_dtype(dtype, *bounds):
    if dtype is not None:
        return _torch_dtype(dtype)
    found = [_st(v).dtype for v in bounds if not isinstance(v, (bool, int, float))]
    dt = found[0] if found else _FLOATX
    for d in found[1:]:
        dt = torch.promote_types(dt, d)
    return dt if dt.is_floating_point else _FLOATX


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """`base ** linspace(start, stop, num)`."""
    out = torch.pow(torch.tensor(float(base), dtype=torch.float64), _spaced(start, stop, num, endpoint))
    return _wrap(_axis_moved(out, axis).to(_space_dtype(dtype, start, stop)))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from `start` to `stop`."""
    if dtype is not None and not _torch_dtype(dtype).is_floating_point:
        from tfcompat.ops import math_ops
        math_ops.log(_wrap(torch.tensor([1], dtype=_torch_dtype(dtype))))     # TF's Log kernel refuses ints
    s, e = _st(start).to(torch.float64), _st(stop).to(torch.float64)
    out = torch.exp(_spaced(torch.log(s), torch.log(e), num, endpoint))
    if endpoint and num > 1:
        out[-1] = e
    if num > 0:
        out[0] = s
    return _wrap(_axis_moved(out, axis).to(_creation_dtype(dtype)))


def _window(fn, x, *args):
    n = int(_st(x))
    return _wrap(torch.tensor(fn(n, *args), dtype=_FLOATX, device=_device()))


def bartlett(x):
    """The Bartlett (triangular) window of `x` points (float32)."""
    return _window(np.bartlett, x)


def blackman(x):
    return _window(np.blackman, x)


def hamming(x):
    return _window(np.hamming, x)


def hanning(x):
    return _window(np.hanning, x)


def kaiser(x, beta):
    return _window(np.kaiser, x, float(beta))


def vander(x, N=None, increasing=False):
    """Columns are powers of `x` (decreasing unless `increasing`)."""
    t = _st(x)
    if t.ndim != 1:
        raise ValueError(f"Input tensor must be 1-dimensional. Received: x.shape={tuple(t.shape)}")
    n = t.shape[0] if N is None else N
    powers = torch.arange(n, dtype=torch.int32, device=t.device)
    if not increasing:
        powers = torch.flip(powers, (0,))
    if t.dtype is torch.bool:
        return _wrap(torch.pow(t.to(torch.int32).unsqueeze(-1), powers) != 0)
    return _wrap(torch.pow(t.unsqueeze(-1), powers.to(t.dtype)).to(t.dtype))


def meshgrid(*x, indexing="xy"):
    """Coordinate matrices from coordinate vectors (`xy` or `ij` indexing)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for `indexing` are 'xy' and 'ij'. Received: indexing={indexing}")
    ts = [_st(v).reshape(-1) for v in x]
    if any(t.dtype != ts[0].dtype for t in ts):
        from tfcompat.ops import math_ops
        math_ops.multiply(_wrap(ts[0]), _wrap(next(t for t in ts if t.dtype != ts[0].dtype)))   # TF's Mul error
    return [_wrap(g) for g in torch.meshgrid(*ts, indexing=indexing)]


# -- shapes ---------------------------------------------------------------------------------------------------------
def ravel(x):
    return _wrap(_st(x).reshape(-1))


def moveaxis(x, source, destination):
    return _wrap(torch.movedim(_st(x), _tuple(source), _tuple(destination)))


def swapaxes(x, axis1, axis2):
    return _wrap(torch.swapaxes(_st(x), axis1, axis2))


def fliplr(x):
    return _wrap(torch.flip(_st(x), (1,)))


def flipud(x):
    return _wrap(torch.flip(_st(x), (0,)))


def rot90(array, k=1, axes=(0, 1)):  # noqa: A002
    """Rotate by 90 degrees `k` times in the plane of `axes` (as Keras's TF backend computes it: for `k` of 2 or 3
    the intermediate result is re-read in the final shape)."""
    t = _st(array)
    if t.ndim < 2:
        raise ValueError(f"Input array must have at least 2 dimensions. Received: array.ndim={t.ndim}")
    if len(axes) != 2 or axes[0] == axes[1]:
        raise ValueError(f"Invalid axes: {axes}. Axes must be a tuple of two different dimensions.")
    k = k % 4
    if k == 0:
        return _wrap(t.clone())
    axes = tuple(a % t.ndim for a in axes)
    perm = [d for d in range(t.ndim) if d not in axes] + list(axes)
    t = t.permute(perm)
    lead, (h, w) = tuple(t.shape[:-2]), tuple(t.shape[-2:])
    t = torch.flip(t.reshape(-1, h, w), (2,)).transpose(1, 2)
    fh, fw = (w, h) if k % 2 else (h, w)
    if k > 1:
        t = t.reshape(-1, fh, fw)
        for _ in range(k - 1):
            t = torch.flip(t, (2,)).transpose(1, 2)
    t = t.reshape(lead + (fh, fw))
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return _wrap(t.permute(inv).contiguous())


def roll(x, shift, axis=None):
    t = _st(x)
    if axis is None:
        return _wrap(torch.roll(t.reshape(-1), _tuple(shift)).reshape(t.shape))
    return _wrap(torch.roll(t, _tuple(shift), _tuple(axis)))


def append(x1, x2, axis=None):
    a, b = _promoted([x1, x2])
    if axis is None:
        return _wrap(torch.cat([a.reshape(-1), b.reshape(-1)]))
    return _wrap(torch.cat([a, b], dim=axis))


def hstack(xs):
    ts = _promoted(xs)
    return _wrap(torch.cat(ts, dim=0 if ts[0].ndim == 1 else 1))


def vstack(xs):
    """Concatenated along axis 0 (1-D inputs too, as Keras's TF backend)."""
    return _wrap(torch.cat(_promoted(xs), dim=0))


def dstack(xs):
    return _wrap(torch.dstack(_promoted(xs)))


def array_split(x, indices_or_sections, axis=0):
    """Splits into `indices_or_sections` near-equal parts (the first ones one longer)."""
    t = _st(x)
    if not isinstance(indices_or_sections, int):
        raise TypeError(f"Argument `indices_or_sections` must be of type `int`. Received: {indices_or_sections}")
    if indices_or_sections <= 0:
        raise ValueError(f"Argument `indices_or_sections` must be larger than 0. Received: {indices_or_sections}")
    return [_wrap(p) for p in torch.tensor_split(t, indices_or_sections, dim=axis)]


def _split_along(x, indices_or_sections, axis, name):
    t = _st(x)
    if isinstance(indices_or_sections, int):
        if t.shape[axis] % indices_or_sections:
            from tfcompat.ops import array_ops
            array_ops.split(_wrap(t), indices_or_sections, axis)     # TF's InvalidArgumentError
        return [_wrap(p) for p in torch.tensor_split(t, indices_or_sections, dim=axis)]
    return [_wrap(p) for p in torch.tensor_split(t, list(indices_or_sections), dim=axis)]


def hsplit(x, indices_or_sections):
    t = _st(x)
    return _split_along(x, indices_or_sections, 0 if t.ndim == 1 else 1, "hsplit")


def vsplit(x, indices_or_sections):
    return _split_along(x, indices_or_sections, 0, "vsplit")


def dsplit(x, indices_or_sections):
    return _split_along(x, indices_or_sections, 2, "dsplit")


def unstack(x, num=None, axis=0):
    """The slices of `x` along `axis`, as a list."""
    t = _st(x)
    if num is not None and num != t.shape[axis]:
        from tfcompat.framework import errors
        raise errors.op_error(errors.InvalidArgumentError, f"Input shape axis {axis} must equal {num}, got shape "
                              f"[{','.join(str(d) for d in t.shape)}]", "Unpack")
    return [_wrap(p) for p in torch.unbind(t, dim=axis)]


def diag(x, k=0):
    """The `k`-th diagonal of a matrix, or a matrix with vector `x` on it."""
    t = _st(x)
    if t.ndim not in (1, 2):
        raise ValueError(f"`x` must be 1d or 2d. Received: x.shape={tuple(t.shape)}")
    return _wrap(torch.diag(t, k))


def diagflat(x, k=0):
    return _wrap(torch.diag(_st(x).reshape(-1), k))


def diagonal(x, offset=0, axis1=0, axis2=1):
    return _wrap(torch.diagonal(_st(x), offset, axis1, axis2).clone())


def trace(x, offset=0, axis1=0, axis2=1):
    """The sum along a diagonal (bools and small ints sum as int32)."""
    t = _st(x)
    d = torch.diagonal(t, offset, axis1, axis2)
    dt = t.dtype
    if dt is torch.bool or dt in (torch.int8, torch.int16):
        dt = torch.int32
    elif dt in (torch.uint8, torch.uint16):
        dt = torch.uint32
    return _wrap(torch.sum(d, dim=-1).to(dt))


def view(x, dtype=None):
    """The same bytes read as `dtype`."""
    t = _st(x)
    if dtype is None:
        return _wrap(t.clone())
    return _wrap(t.view(_torch_dtype(dtype)).clone())


def get_item(x, key):
    """`x[key]`."""
    return (x if isinstance(x, Tensor) else _wrap(_st(x)))[key]


def dtype(x):
    """The dtype of `x` as Keras's string ("float32")."""
    return _dtypes.as_dtype(_st(x).dtype if not hasattr(x, "dtype") else x.dtype).name


def is_tensor(x):
    """Whether `x` is a tensor (a tfcompat tensor or variable value)."""
    return isinstance(x, Tensor)


def saturate_cast(x, dtype):
    """Cast to `dtype`, values clipped to its range first."""
    t = _st(x)
    dt = _torch_dtype(dtype)
    if not (dt.is_floating_point or dt.is_complex or dt is torch.bool):
        info = torch.iinfo(dt)
        lo, hi = info.min, info.max
        if t.is_floating_point():
            t = torch.clamp(t, lo, hi)      # in the input's float type, as TF: int32's max rounds up in float32
        elif t.dtype is not torch.bool:
            t = torch.clamp(t.to(torch.int64), builtins.max(lo, -2 ** 63), builtins.min(hi, 2 ** 63 - 1))
    elif dt.is_floating_point and t.is_floating_point():
        info = torch.finfo(dt)
        t = torch.clamp(t, info.min, info.max)
    return _wrap(t.to(dt))


# -- searching, sets, scatter ------------------------------------------------------------------------------------
def nonzero(x):
    """The indices of nonzero entries, one int32 tensor per axis."""
    return tuple(_wrap(i.to(torch.int32)) for i in torch.nonzero(_st(x), as_tuple=True))


def _top_k_indices(t, k):
    """`tf.math.top_k(t, k).indices` along the last axis (ties: the lower index first)."""
    return torch.argsort(t, dim=-1, descending=True, stable=True)[..., :k]


def argpartition(x, kth, axis=-1):
    """Indices partitioning `x` along `axis` as Keras's TF backend computes them: the values read as int32, the
    `kth + 1` smallest first (in order), then the others largest first with the bottom ones' entries zeroed."""
    t = _st(x).to(torch.int32)
    if axis is None:
        t, axis = t.reshape(-1), 0
    t = torch.swapaxes(t, axis, -1)
    n = t.shape[-1]
    kth = builtins.min(builtins.max(int(kth), 0), n - 1)
    bottom = torch.argsort(t, dim=-1, stable=True)[..., :kth + 1]
    mask = one_hot_rows(bottom, n).sum(0)
    final = t.clone()
    where = torch.nonzero(mask)
    where = where[(where < torch.tensor(final.shape[:where.shape[1]], device=where.device)).all(-1)]    # only entries inside `x`
    final[tuple(where.t())] = 0
    top = _top_k_indices(final, n - kth - 1)
    return _wrap(torch.swapaxes(torch.cat([bottom, top], -1), -1, axis).to(torch.int32))


def searchsorted(sorted_sequence, values, side="left"):
    """Insertion indices of `values` in 1-D `sorted_sequence` (int32)."""
    if side not in ("left", "right"):
        raise ValueError(f"Invalid value for keyword argument `side`: {side}. Accepted values are 'left' and 'right'.")
    s, v = _pair(sorted_sequence, values)
    if s.ndim != 1:
        raise ValueError(f"`searchsorted` only supports 1-D sorted sequences. You can use `keras.ops.vectorized_map` "
                         f"to extend it to N-D sequences. Received: sorted_sequence.shape={tuple(s.shape)}")
    return _wrap(torch.searchsorted(s, v, right=side == "right").to(torch.int32))


def digitize(x, bins):
    """The index of the bin each value falls in (int32)."""
    t, b = _pair(x, bins)
    if b.numel() > 1 and bool((b[1:] < b[:-1]).any()):
        from tfcompat.framework import errors
        raise errors.op_error(errors.InvalidArgumentError, "Expected sorted boundaries", "Bucketize")
    return _wrap(torch.bucketize(t, b, right=True).to(torch.int32))


def unravel_index(indices, shape):
    """Flat indices to a tuple of coordinate tensors for `shape`."""
    i = _st(indices)
    out = []
    for d in reversed(tuple(shape)):
        out.append(torch.remainder(i, d))
        i = torch.div(i, d, rounding_mode="floor")
    return tuple(_wrap(v) for v in reversed(out))


def isin(x1, x2, assume_unique=False, invert=False):
    a, b = _pair(x1, x2)
    return _wrap(torch.isin(a, b, assume_unique=assume_unique, invert=invert))


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, else `default`."""
    if len(condlist) != len(choicelist):
        raise ValueError("condlist and choicelist must have the same length. "
                         f"Received: len(condlist)={len(condlist)}, len(choicelist)={len(choicelist)}")
    conds = [_st(c).to(torch.bool) for c in condlist]
    choices = _promoted(list(choicelist))
    dt = choices[0].dtype
    d = _st(default)
    dt = torch.promote_types(dt, d.dtype) if not isinstance(default, (bool, int, float)) else dt
    out = d.to(dt)
    for c, v in reversed(list(zip(conds, choices))):
        out = torch.where(c, v.to(dt), out)
    return _wrap(out)


def unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=None,  # noqa: A002
           size=None, fill_value=None):
    """The unique values (sorted, or in order of first appearance), with the index of each one's first occurrence,
    the inverse indices and the counts as asked; `size` pads (values with `fill_value`) or truncates."""
    t = _st(x)
    flat = t if axis is not None else t.reshape(-1)
    dim = 0 if axis is None else axis
    vals, inv, counts = torch.unique(flat, sorted=True, return_inverse=True, return_counts=True, dim=axis)
    k = vals.shape[dim]
    positions = torch.arange(inv.shape[0], device=inv.device)
    first = torch.full((k,), inv.shape[0], dtype=torch.int64, device=inv.device).scatter_reduce(
        0, inv, positions, "amin")
    if not sorted:
        order = torch.argsort(first)
        vals, counts, first = vals.index_select(dim, order), counts[order], first[order]
        inv = torch.argsort(order)[inv]
    if size is not None:
        if k < size:
            fill = vals.reshape(-1)[:1] if fill_value is None else torch.tensor(fill_value, dtype=vals.dtype,
                                                                                  device=vals.device)
            pad_shape = list(vals.shape)
            pad_shape[dim] = size - k
            vals = torch.cat([vals, torch.broadcast_to(fill, pad_shape)], dim=dim)
            counts = torch.cat([counts, torch.zeros(size - k, dtype=counts.dtype, device=counts.device)])
            first = torch.cat([first, first[:1].expand(size - k)])
        else:
            vals, counts, first = vals.narrow(dim, 0, size), counts[:size], first[:size]
    out = [_wrap(vals)]
    if return_index:
        out.append(_wrap(first.to(torch.int32)))
    if return_inverse:
        out.append(_wrap((inv.reshape(t.shape) if axis is None else inv).to(torch.int32)))
    if return_counts:
        out.append(_wrap(counts.to(torch.int32)))
    return out[0] if len(out) == 1 else tuple(out)


def scatter(indices, values, shape):
    """A zero tensor of `shape` with `values` added at `indices` (the last axis of `indices` indexes `shape`)."""
    i = _st(indices).long()
    v = _st(values)
    out = torch.zeros(_tuple(shape), dtype=v.dtype, device=v.device)
    k = i.shape[-1]
    flat_i = i.reshape(-1, k)
    tail = tuple(out.shape[k:])
    out.index_put_(tuple(flat_i.t()), v.reshape((-1,) + tail), accumulate=True)
    return _wrap(out)


def scatter_update(inputs, indices, updates, reduction=None):
    """`inputs` with the entries at `indices` replaced by (or reduced with) `updates`."""
    t = _st(inputs).clone()
    i = _st(indices).long()
    u = _st(updates).to(t.dtype)
    k = i.shape[-1]
    idx = tuple(i.reshape(-1, k).t())
    vals = u.reshape((-1,) + tuple(t.shape[k:]))
    if reduction is None:
        t.index_put_(idx, vals)
    elif reduction == "add":
        t.index_put_(idx, vals, accumulate=True)
    elif reduction in ("max", "min", "mul"):
        flat = t.reshape((-1,) + tuple(t.shape[k:]))
        strides = torch.tensor([math.prod(t.shape[d + 1:k]) for d in range(k)], dtype=torch.long, device=t.device)
        lin = (i.reshape(-1, k) * strides).sum(-1)
        fn = {"max": "amax", "min": "amin", "mul": "prod"}[reduction]
        expanded = lin.reshape((-1,) + (1,) * (flat.ndim - 1)).expand_as(vals)
        flat = flat.scatter_reduce(0, expanded, vals, fn, include_self=True)
        t = flat.reshape(t.shape)
    else:
        raise ValueError(f"Unsupported reduction: {reduction}")
    return _wrap(t)


def slice_update(inputs, start_indices, updates):
    """`inputs` with the block at `start_indices` replaced by `updates`."""
    t = _st(inputs).clone()
    u = _st(updates).to(t.dtype)
    starts = [int(s) for s in (_st(start_indices).tolist() if not isinstance(start_indices, (list, tuple))
                               else start_indices)]
    index = tuple(builtins.slice(s, s + n) for s, n in zip(starts, u.shape))
    t[index] = u
    return _wrap(t)


def _segment(data, segment_ids, num_segments, reduce, fill):
    d = _st(data)
    ids = _st(segment_ids).long()
    n = int(ids.max()) + 1 if num_segments is None else int(num_segments)
    keep = (ids >= 0) & (ids < n)
    d, ids = d[keep], ids[keep]
    out = torch.full((n,) + tuple(d.shape[1:]), fill, dtype=d.dtype, device=d.device)
    index = ids.reshape((-1,) + (1,) * (d.ndim - 1)).expand_as(d)
    return _wrap(out.scatter_reduce(0, index, d, reduce, include_self=reduce == "prod"))


def _sorted_check(num_segments, sorted):  # noqa: A002
    if sorted and num_segments is not None:
        raise ValueError("Argument `num_segments` cannot be set when sorted is True when using the tensorflow "
                         f"backend.Received: num_segments={num_segments}, sorted={sorted}.")


def segment_max(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    """The max of each segment (empty segments: the dtype's lowest value)."""
    _sorted_check(num_segments, sorted)
    d = _st(data)
    low = torch.finfo(d.dtype).min if d.is_floating_point() else torch.iinfo(d.dtype).min
    return _segment(data, segment_ids, num_segments, "amax", low)


def segment_min(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    _sorted_check(num_segments, sorted)
    d = _st(data)
    high = torch.finfo(d.dtype).max if d.is_floating_point() else torch.iinfo(d.dtype).max
    return _segment(data, segment_ids, num_segments, "amin", high)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002
    _sorted_check(num_segments, sorted)
    return _segment(data, segment_ids, num_segments, "prod", 1)
