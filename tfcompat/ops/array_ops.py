"""TF's array ops (shape manipulation, slicing, gather/scatter, creation, sorting, segments) and `Tensor[...]`."""
import builtins
import collections

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device, state
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    FLOAT, NUMERIC, REAL, check_dtype, input_storage, int_list, int_value, same_dtype_inputs, type_name, wrap)
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable, _UnreadVariable

_IAE = errors.InvalidArgumentError
_pyslice = builtins.slice
_pyrange = builtins.range
_int32 = torch.int32
_int64 = torch.int64


def _fail(msg, op, name=None):
    """TF's eager error text; ops called through Python wrappers that pass a name add `name: <name>`."""
    if name is None:
        return _IAE(None, None, f"{msg} [Op:{op}]")
    return _IAE(None, None, f"{msg} [Op:{op}] name: {name}")


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _is_str(t):
    return type(t) is np.ndarray


def _tdtype(dtype):
    return dtypes.as_dtype(dtype).torch_dtype


def _axis(axis, ndim, op=None, name=None, extra=0):
    """One axis argument in [-ndim-extra, ndim+extra) as a non-negative int."""
    a = int_value(axis)
    n = ndim + extra
    if not -n <= a < n:
        raise _fail(f"Expected axis in the range [{-n}, {n}), but got {a}", op, name) if op else \
            ValueError(f"Argument `axis` = {a} not in range [{-n}, {n})")
    return a % n if n else 0


def _is_tensor_like(v):
    return isinstance(v, (Tensor, Variable))


def _matching(values, op, name=None, numbers=None):
    """Storages of inputs sharing one dtype attr, converted as TF's eager ops do.

    The first tensor fixes the dtype; other Python/NumPy values convert to it strictly (TypeError as TF);
    a tensor of another dtype is InvalidArgumentError. `numbers` are the op input numbers of `values`.
    """
    ref = None
    for v in values:
        if _is_tensor_like(v):
            ref = input_storage(v).dtype
            break
    out = []
    for i, v in enumerate(values):
        if _is_tensor_like(v) or ref is None:
            t = input_storage(v)
            ref = t.dtype if ref is None else ref
        else:
            t = input_storage(v, dtypes.FROM_STORAGE[ref])
        if t.dtype != ref:
            raise _fail(f"cannot compute {op} as input #{numbers[i] if numbers else i}(zero-based) was expected to be a "
                        f"{type_name(ref)} tensor but is a {type_name(t.dtype)} tensor", op, name)
        out.append(t)
    return out


def _flat_ints(value):
    """A (nested) int argument such as `paddings` as a flat list of Python ints."""
    if isinstance(value, (Tensor, Variable)):
        value = value._array()
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


# -- shape and structure --------------------------------------------------------------

@tf_export("reshape")
def reshape(tensor, shape, name=None):
    """Reshapes to `shape` (one entry may be -1), keeping the elements in row-major order."""
    t = input_storage(tensor)
    dims = int_list(shape, "Reshape")
    n = t.size if _is_str(t) else t.numel()
    unknown = [i for i, d in enumerate(dims) if d == -1]
    known = 1
    for d in dims:
        if d != -1:
            if d < 0:
                raise _fail(f"Size {dims.index(d)} must be non-negative, not {d}", "Reshape")
            known *= d
    if len(unknown) > 1:
        raise _fail(f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}", "Reshape")
    if unknown and n == 0 and known == 0:     # TF infers -1 from the non-zero dims of input and shape
        dims[unknown[0]] = _numel(d for d in t.shape if d) // _numel(d for d in dims if d not in (0, -1))
    elif unknown:
        if known == 0 or n % known:
            raise _fail(f"Input to reshape is a tensor with {n} values, but the requested shape requires a "
                        f"multiple of {known}", "Reshape")
    elif known != n:
        raise _fail(f"Input to reshape is a tensor with {n} values, but the requested shape has {known}", "Reshape")
    return wrap(t.reshape(dims))


@tf_export("transpose")
def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permutes the axes (reverses them when `perm` is None); `conjugate` also conjugates complex values."""
    t = input_storage(a)
    n = t.ndim
    if perm is None:
        p = list(_pyrange(n - 1, -1, -1))
    else:
        p = int_list(perm, "Transpose")
        if len(p) != n:
            raise _fail(f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(p)}",
                        "Transpose")
        p = [d + n if d < 0 else d for d in p]
        for d in _pyrange(n):
            if d not in p:
                raise _fail(f"{d} is missing from {{{','.join(map(str, p))}}}.", "Transpose")
    out = t.transpose(p) if _is_str(t) else t.permute(p)
    if conjugate and not _is_str(t) and t.is_complex():
        out = out.conj()
    return wrap(out)


@tf_export("squeeze")
def squeeze(input, axis=None, name=None):  # noqa: A002
    """Removes size-1 axes (all of them, or those in `axis`)."""
    t = input_storage(input)
    shape = t.shape
    if axis is None:
        return wrap(t.reshape([d for d in shape if d != 1]))
    axes = int_list(axis)
    n = t.ndim
    keep = set()
    for a in axes:
        if not -n <= a < n:
            raise _fail(f"Tried to squeeze dim index {a} for tensor with {n} dimensions.", "Squeeze", "")
        a %= n
        if shape[a] != 1:
            raise _fail(f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}", "Squeeze", "")
        keep.add(a)
    return wrap(t.reshape([d for i, d in enumerate(shape) if i not in keep]))


@tf_export("expand_dims")
def expand_dims(input, axis, name=None):  # noqa: A002
    """Inserts a size-1 axis at `axis` (in [-rank-1, rank])."""
    t = input_storage(input)
    n = t.ndim
    a = int_value(axis)
    if not -n - 1 <= a <= n:
        raise _fail(f"Tried to expand dim index {a} for tensor with {n} dimensions.", "ExpandDims", "")
    a = a + n + 1 if a < 0 else a
    if _is_str(t):
        return wrap(np.expand_dims(t, a))
    return wrap(t.unsqueeze(a))


@tf_export("identity")
def identity(input, name=None):  # noqa: A002
    """Returns a tensor with the same value (reads a variable)."""
    return wrap(input_storage(input))


@tf_export("identity_n")
def identity_n(input, name=None):  # noqa: A002
    """`identity` of each tensor in a list."""
    return [identity(x) for x in input]


def _shape_tensor(dims, out_type):
    return wrap(torch.tensor(dims, dtype=_tdtype(out_type), device=current_device()))


def _shape_of(x):
    if isinstance(x, (Tensor, Variable)):
        return tuple(storage(x).shape)
    t = input_storage(x)
    return tuple(t.shape)


@tf_export("shape")
def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The shape of a tensor as a 1-D `out_type` (int32 by default) tensor."""
    return _shape_tensor(list(_shape_of(input)), out_type)


@tf_export("shape_n")
def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """`tf.shape` of each tensor in a list."""
    return [shape(x, out_type) for x in input]


@tf_export("rank")
def rank(input, name=None):  # noqa: A002
    """The number of axes, as an int32 scalar."""
    return _shape_tensor(len(_shape_of(input)), dtypes.int32)


@tf_export("size")
def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    """The number of elements, as an `out_type` scalar."""
    return _shape_tensor(_numel(_shape_of(input)), out_type)


def _broadcast_dims(a, b):
    """TF's broadcast of two shapes (lists of ints, None unknown), or None if incompatible."""
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            return None
    return out


@tf_export("broadcast_static_shape")
def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two `TensorShape`s (ValueError when incompatible)."""
    sx, sy = TensorShape(shape_x), TensorShape(shape_y)
    if sx.rank is None or sy.rank is None:
        return TensorShape(None)
    out = _broadcast_dims(sx.as_list(), sy.as_list())
    if out is None:
        raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                         f"pair they are either equal or one of them is 1. Received: {sx} and {sy}.")
    return TensorShape(out)


@tf_export("broadcast_dynamic_shape")
def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two 1-D shape tensors, as a shape tensor of their dtype."""
    tx = input_storage(shape_x)
    ty = input_storage(shape_y)
    out = _broadcast_dims(tx.tolist(), ty.tolist())
    if out is None:
        raise _fail(f"Incompatible shapes: {_dims(tx.tolist())} vs. {_dims(ty.tolist())}", "BroadcastArgs", "")
    return wrap(torch.tensor(out, dtype=tx.dtype, device=tx.device))


@tf_export("broadcast_to")
def broadcast_to(input, shape, name=None):  # noqa: A002
    """Broadcasts `input` to `shape` with NumPy's rules."""
    t = input_storage(input)
    dims = int_list(shape, "BroadcastTo")
    if _broadcast_dims(t.shape, dims) != dims:
        raise _fail(f"Incompatible shapes: {_dims(t.shape)} vs. {_dims(dims)}", "BroadcastTo")
    if _is_str(t):
        return wrap(np.broadcast_to(t, dims).copy())
    return wrap(t.expand(dims))


@tf_export("concat")
def concat(values, axis, name="concat"):
    """Joins tensors along an existing axis."""
    ts = _matching(values, "ConcatV2", name)
    if len(ts) == 1:
        return wrap(ts[0])
    ref = ts[0]
    n = ref.ndim
    if n == 0:
        raise _fail("ConcatOp : Can't concatenate scalars (use tf.stack instead)", "ConcatV2", name)
    a = int_value(axis)
    if not -n <= a < n:
        raise _fail(f"ConcatOp : Expected concatenating dimensions in the range [{-n}, {n}), but got {a}",
                    "ConcatV2", name)
    a %= n
    for i, t in enumerate(ts[1:], 1):
        if t.ndim != n:
            raise _fail(f"ConcatOp : Ranks of all input tensors should match: shape[0] = {_dims(ref.shape)} vs. "
                        f"shape[{i}] = {_dims(t.shape)}", "ConcatV2", name)
        for d in _pyrange(n):
            if d != a and t.shape[d] != ref.shape[d]:
                raise _fail(f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = {_dims(ref.shape)}"
                            f" vs. shape[{i}] = {_dims(t.shape)}", "ConcatV2", name)
    if _is_str(ref):
        return wrap(np.concatenate(ts, a))
    return wrap(torch.cat(ts, a))


@tf_export("stack")
def stack(values, axis=0, name="stack"):
    """Stacks same-shape tensors along a new axis."""
    ts = _matching(values, "Pack", name)
    n = ts[0].ndim if ts else 0
    a = _axis(axis, n, extra=1)
    for i, t in enumerate(ts[1:], 1):
        if t.shape != ts[0].shape:
            raise _fail(f"Shapes of all inputs must match: values[0].shape = {_dims(ts[0].shape)} != "
                        f"values[{i}].shape = {_dims(t.shape)}", "Pack", name)
    if ts and _is_str(ts[0]):
        return wrap(np.stack(ts, a))
    return wrap(torch.stack(ts, a))


@tf_export("parallel_stack")
def parallel_stack(values, name="parallel_stack"):
    """Graph-mode only in TF: eager execution raises RuntimeError."""
    raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")


@tf_export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    """Splits a tensor into a list of tensors along `axis`, removing that axis."""
    t = input_storage(value)
    n = t.ndim
    if n == 0:
        raise ValueError("Input shape should be at least 1-D, got: ()")
    a = _axis(axis, n)
    if num is not None and num != t.shape[a]:
        raise ValueError(f"Dimension {a} in both shapes must be equal, but are {t.shape[a]} and {num}.")
    if _is_str(t):
        return [wrap(np.asarray(np.take(t, i, axis=a), dtype=object)) for i in _pyrange(t.shape[a])]
    return [wrap(x) for x in t.unbind(a)]


@tf_export("split")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits into `num_or_size_splits` equal parts, or parts of the given sizes (one may be -1)."""
    t = input_storage(value)
    a = int_value(axis)
    n = t.ndim
    if not -n <= a < n:
        raise _fail(f"-{n} <= split_dim < {n} but got {a}" if n else "split_dim must be in [0, 0)", "Split", name)
    a %= n
    dim = t.shape[a]
    if isinstance(num_or_size_splits, (int, np.integer)) or (
            isinstance(num_or_size_splits, Tensor) and num_or_size_splits.ndim == 0):
        k = int_value(num_or_size_splits)
        if k <= 0 or dim % k:
            raise _fail(f"Number of ways to split should evenly divide the split dimension, but got split_dim {a} "
                        f"(size = {dim}) and num_split {k}", "Split", name)
        sizes = [dim // k] * k
    else:
        sizes = int_list(num_or_size_splits)
        if sizes.count(-1) > 1:
            raise _fail("There can only be one -1 in the input.", "SplitV", name)
        known = sum(s for s in sizes if s != -1)
        if -1 in sizes:
            if known > dim:
                raise _fail("Determined shape must either match input shape along split_dim exactly if fully "
                            "specified, or be less than the size of the input along split_dim if not fully "
                            f"specified.  Got: {known}", "SplitV", name)
            sizes[sizes.index(-1)] = dim - known
        elif known != dim:
            raise _fail("Determined shape must either match input shape along split_dim exactly if fully "
                        "specified, or be less than the size of the input along split_dim if not fully "
                        f"specified.  Got: {known}", "SplitV", name)
    if _is_str(t):
        return [wrap(p) for p in np.split(t, np.cumsum(sizes)[:-1], axis=a)]
    return [wrap(p) for p in torch.split(t, sizes, a)]


@tf_export("tile")
def tile(input, multiples, name=None):  # noqa: A002
    """Repeats the whole tensor `multiples[i]` times along axis i."""
    t = input_storage(input)
    m = int_list(multiples, "Tile")
    if len(m) != t.ndim:
        raise _fail(f"Expected multiples argument to be a vector of length {t.ndim} but got length {len(m)}", "Tile")
    if _is_str(t):
        return wrap(np.tile(t, m))
    return wrap(t.repeat(m) if m else t)


def _pad_index(n, lo, hi, mode, device):
    """Source positions along one axis for REFLECT / SYMMETRIC padding."""
    i = torch.arange(-lo, n + hi, device=device)
    if mode == "REFLECT":
        period = 2 * (n - 1)
        i = torch.remainder(i, period) if period else torch.zeros_like(i)
        return torch.where(i >= n, period - i, i)
    period = 2 * n
    i = torch.remainder(i, period)
    return torch.where(i >= n, period - 1 - i, i)


@tf_export("pad")
def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pads each axis by `paddings[i] = [before, after]` (CONSTANT, REFLECT or SYMMETRIC)."""
    t = input_storage(tensor)
    p = _flat_ints(paddings)
    n = t.ndim
    if len(p) != 2 * n:
        raise _fail(f"The first dimension of paddings must be the rank of inputs{_dims([len(p) // 2, 2])} "
                    f"{_dims(t.shape)}", "Pad")
    pairs = [(p[2 * i], p[2 * i + 1]) for i in _pyrange(n)]
    mode = mode.upper()
    if any(lo < 0 or hi < 0 for lo, hi in pairs):
        raise _fail(f"Paddings must be non-negative: {pairs[0][0]} {pairs[0][1]}", "Pad")
    if mode == "CONSTANT":
        if _is_str(t):
            cv = constant_values.encode() if isinstance(constant_values, str) else constant_values
            return wrap(np.pad(t, pairs, constant_values=cv if cv != 0 else b""))
        flat = [v for lo_hi in reversed(pairs) for v in lo_hi]
        value = constant_values
        if isinstance(value, (Tensor, Variable, np.ndarray, np.generic)):
            value = input_storage(value).item()
        return wrap(torch.nn.functional.pad(t, flat, value=value) if flat else t)
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                         f'Received `mode` = {mode}')
    out = t
    off = 1 if mode == "REFLECT" else 0
    for d, (lo, hi) in enumerate(pairs):
        if lo == 0 and hi == 0:
            continue
        size_ = t.shape[d]
        if lo > size_ - off or hi > size_ - off:
            raise _fail(f"paddings must be less than{' or equal to' if off == 0 else ''} the dimension size: "
                        f"{lo}, {hi} not less than {size_}", "MirrorPad")
        out = out.index_select(d, _pad_index(size_, lo, hi, mode, t.device)) if not _is_str(t) else \
            np.take(out, _pad_index(size_, lo, hi, mode, "cpu").numpy(), axis=d)
    return wrap(out)


@tf_export("slice")
def slice(input_, begin, size, name=None):  # noqa: A001
    """The block of `size` (-1: to the end) starting at `begin`."""
    t = input_storage(input_)
    b = int_list(begin)
    s = int_list(size)
    if len(b) != t.ndim or len(s) != t.ndim:
        raise _fail(f"Expected begin and size arguments to be 1-D tensors of size {t.ndim}, but got shapes "
                    f"[{len(b)}] and [{len(s)}] instead.", "Slice")
    key = []
    for d, (lo, n) in enumerate(zip(b, s)):
        dim = t.shape[d]
        if n == -1:
            n = dim - lo
        if not (0 <= lo <= dim and 0 <= n and lo + n <= dim):
            raise _fail(f"Expected size[{d}] in [0, {dim - lo}], but got {n}" if 0 <= lo <= dim else
                        f"Expected begin[{d}] in [0, {dim}], but got {lo}", "Slice")
        key.append(_pyslice(lo, lo + n))
    return wrap(t[tuple(key)])


@tf_export("strided_slice", unsupported=("var",))
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """Python-style strided slicing `input_[begin:end:strides]`, with TF's bit masks per index entry."""
    b = _flat_ints(begin)
    e = _flat_ints(end)
    s = _flat_ints(strides) if strides is not None else [1] * len(b)
    key = []
    for i in _pyrange(len(b)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b[i])
        else:
            key.append(_pyslice(None if begin_mask & bit else b[i], None if end_mask & bit else e[i], s[i]))
    return _getitem_storage(input_storage(input_), tuple(key))


@tf_export("reverse")
def reverse(tensor, axis, name=None):
    """Reverses the order of elements along the axes in `axis`."""
    t = input_storage(tensor)
    n = t.ndim
    axes = []
    for a in int_list(axis):
        if not -n <= a < n:
            raise _fail(f"'axis'[0] = {a} is out of valid range [0, {n - 1}", "ReverseV2")
        axes.append(a % n)
    if _is_str(t):
        return wrap(np.flip(t, axes).copy())
    return wrap(t.flip(axes) if axes else t)


@tf_export("roll")
def roll(input, shift, axis, name=None):  # noqa: A002
    """Rolls elements by `shift` along `axis` (elements leaving one end re-enter at the other)."""
    t = input_storage(input)
    shifts = int_list(shift)
    axes = int_list(axis)
    if len(shifts) != len(axes):
        raise _fail("shift and axis must have the same size", "Roll")
    n = t.ndim
    for a in axes:
        if not -n <= a < n:
            raise _fail(f"axis {a} is out of range", "Roll")
    if _is_str(t):
        return wrap(np.roll(t, shifts, axes))
    return wrap(torch.roll(t, shifts, axes))


# -- gather / scatter ---------------------------------------------------------------------

_INDEX_ATTRS = {
    "GatherV2": ("Tindices", "int16, int32, int64",
                 "signature=params:Tparams, indices:Tindices, axis:Taxis -> output:Tparams; attr=batch_dims:int,"
                 "default=0; attr=Tparams:type; attr=Tindices:type,allowed=[DT_INT16, DT_INT32, DT_INT64]; "
                 "attr=Taxis:type,allowed=[DT_INT32, DT_INT64]"),
    "OneHot": ("TI", "uint8, int8, int32, int64",
               "signature=indices:TI, depth:int32, on_value:T, off_value:T -> output:T; attr=axis:int,default=-1; "
               "attr=T:type; attr=TI:type,default=DT_INT64,allowed=[DT_UINT8, DT_INT8, DT_INT32, DT_INT64]"),
}


def _index_input(indices, op):
    i = input_storage(indices)
    if _is_str(i) or i.dtype not in (_int32, _int64, torch.int16, torch.int8, torch.uint8):
        attr, allowed, sig = _INDEX_ATTRS.get(op, ("Tindices", "int32, int64", None))
        tail = f"\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; {sig}>" if sig else ""
        raise _fail(f"Value for attr '{attr}' of {type_name(i.dtype)} is not in the list of allowed values: "
                    f"{allowed}{tail}", op)
    return i


def _out_of_range(idx, dim):
    lo, hi = torch.aminmax(idx)
    return int(lo) < 0 or int(hi) >= dim


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
    a = bd if axis is None else int_value(axis)
    if a < 0:
        a += p.ndim
    if not 0 <= a < p.ndim:
        raise _fail(f"Expected axis in the range [{-p.ndim}, {p.ndim}), but got {a}", "GatherV2")
    dim = p.shape[a]
    if idx.numel() and _out_of_range(idx, dim):
        pos = int(((idx < 0) | (idx >= dim)).reshape(-1).nonzero()[0])
        raise _fail(f"indices[{_index_text(pos, tuple(idx.shape))}] = {int(idx.reshape(-1)[pos])} is not in "
                    f"[0, {dim})", "GatherV2")
    if _is_str(p):
        if bd:
            raise NotImplementedError("tf.gather: batch_dims for tf.string params")
        return wrap(np.take(p, idx.cpu().numpy(), axis=a))
    if bd == 0:
        out = p.index_select(a, idx.reshape(-1))
        return wrap(out.reshape(p.shape[:a] + idx.shape + p.shape[a + 1:]))
    batch = p.shape[:bd]
    nb = _numel(batch)
    pp = p.reshape((nb,) + p.shape[bd:]).movedim(a - bd + 1, 1)
    ii = idx.reshape(nb, -1).to(_int64)
    rows = torch.arange(nb, device=p.device).unsqueeze(1)
    out = pp[rows, ii].movedim(1, a - bd + 1)
    return wrap(out.reshape(batch + p.shape[bd:a] + idx.shape[bd:] + p.shape[a + 1:]))


def _check_nd(p_shape, idx, op, batch=0, scatter=False):
    k = idx.shape[-1]
    if k > len(p_shape) - batch:
        raise _fail(f"index innermost dimension length must be <= params rank; saw: {k} vs. {len(p_shape)}", op)
    if idx.numel() == 0:
        return
    limit = torch.tensor(p_shape[batch:batch + k], device=idx.device)
    bad = ((idx < 0) | (idx >= limit)).any(-1).reshape(-1)
    if bool(bad.any()):
        pos = int(bad.nonzero()[0])
        row = idx.reshape(-1, k)[pos].tolist()
        where_ = _index_text(pos, tuple(idx.shape[:-1])).join("[]") if idx.ndim > 1 else "[]"
        if scatter:
            raise _fail(f"indices{where_} = [{', '.join(map(str, row))}] does not index into shape "
                        f"{_dims(p_shape)}", op)
        raise _fail(f"indices{where_} = [{', '.join(map(str, row))}] does not index into param shape "
                    f"{_dims(p_shape)}, node name: {op}", op)


@tf_export("gather_nd")
def gather_nd(params, indices, batch_dims=0, name=None):
    """Slices of `params` at the multi-indices in the last axis of `indices`."""
    p = input_storage(params)
    idx = _index_input(indices, "GatherNd")
    bd = int_value(batch_dims)
    _check_nd(tuple(p.shape), idx, "GatherNd", bd)
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
    rows = _numel(shape[:k])
    t2 = tensor.reshape(rows, -1)
    u2 = u.reshape(flat.numel(), -1)
    if mode == "update":
        out = t2.index_copy(0, flat, u2)
    elif mode == "add":
        out = t2.index_add(0, flat, u2)
    elif mode == "sub":
        out = t2.index_add(0, flat, u2, alpha=-1) if u2.dtype is not torch.bool else t2
    else:
        out = t2.scatter_reduce(0, flat.unsqueeze(1).expand_as(u2), u2, mode, include_self=True)
    return wrap(out.reshape(shape))


@tf_export("scatter_nd")
def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` summed in at `indices`."""
    u = input_storage(updates)
    return _scatter_nd(torch.zeros(int_list(shape), dtype=u.dtype, device=u.device), indices, u, "ScatterNd", "add")


def _tensor_scatter(mode, op):
    def f(tensor, indices, updates, name=None):
        t, u = _matching([tensor, updates], op, numbers=(0, 2))
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
        return wrap(torch.nonzero(c))
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    c = to_storage(condition, dtypes.bool)
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
    flat = t.flatten(a, a + k - 1) if k > 1 else t
    return wrap(flat.index_select(a, pos.to(t.device)))


@tf_export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors of length `depth` along a new `axis` (-1 = last); out-of-range indices give all off."""
    idx = _index_input(indices, "OneHot")
    depth = int_value(depth)
    on_dt = None if on_value is None else dtypes.FROM_STORAGE[input_storage(on_value).dtype]
    off_dt = None if off_value is None else dtypes.FROM_STORAGE[input_storage(off_value).dtype]
    if on_dt is not None and off_dt is not None and on_dt != off_dt:
        raise TypeError(f"dtype {on_dt} of on_value does not match dtype {off_dt} of off_value")
    dtype = dtypes.as_dtype(dtype if dtype is not None else on_dt or off_dt or dtypes.float32)
    tdt = dtype.torch_dtype
    on = input_storage(1 if on_value is None else on_value, dtype).to(idx.device)
    off = input_storage(0 if off_value is None else off_value, dtype).to(idx.device)
    hot = idx.unsqueeze(-1) == torch.arange(depth, device=idx.device, dtype=idx.dtype)
    out = torch.where(hot, on.to(tdt), off.to(tdt))
    if axis is not None and axis != -1:
        out = out.movedim(-1, int_value(axis))
    return wrap(out)


# -- creation ---------------------------------------------------------------------------------

_RANGE_ORDER = [torch.int32, torch.int64, torch.float32, torch.float64]


def _range_arg(v):
    if isinstance(v, (Tensor, Variable)):
        t = input_storage(v)
        return t.item(), t.dtype
    if isinstance(v, (np.ndarray, np.generic)):
        return v.item(), dtypes.as_dtype(v.dtype).torch_dtype
    if isinstance(v, float):
        return v, torch.float32
    return int(v), torch.int32


@tf_export("range")
def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    """`[start, start+delta, ...)` up to `limit`; ints give int32, any float gives float32 (or `dtype`)."""
    if limit is None:
        start, limit = 0, start
    vals = [_range_arg(v) for v in (start, limit, delta)]
    if dtype is not None:
        tdt = _tdtype(dtype)
    else:
        tdt = max((d for _, d in vals), key=lambda d: _RANGE_ORDER.index(d) if d in _RANGE_ORDER else -1)
    s, l_, d = (v for v, _ in vals)
    if d == 0:
        raise _fail("Requires delta != 0: 0", "Range", "")
    if d > 0 and s > l_:
        raise _fail(f"Requires start <= limit when delta > 0: {s}/{l_}", "Range", "")
    if d < 0 and s < l_:
        raise _fail(f"Requires start >= limit when delta < 0: {s}/{l_}", "Range", "")
    if tdt.is_floating_point:
        n = int(np.ceil(abs((l_ - s) / d)))
        return wrap(torch.arange(n, dtype=tdt, device=current_device()) * d + s)
    return wrap(torch.arange(s, l_, d, dtype=tdt, device=current_device()))


@tf_export("fill")
def fill(dims, value, name=None):
    """A tensor of shape `dims` filled with the scalar `value` (dtype inferred from it)."""
    v = input_storage(value)
    shp = _fill_dims(int_list(dims, "Fill"))
    if _is_str(v):
        return wrap(np.full(shp, v.reshape(())[()], dtype=object))
    if v.ndim != 0:
        raise _fail(f"value must be a scalar, got shape {_dims(v.shape)}", "Fill", "")
    return wrap(v.expand(shp).clone() if shp else v.clone())


def _fill_dims(dims):
    """`dims` of a Fill, checked non-negative as TF's kernel does."""
    for d in dims:
        if d < 0:
            raise errors.kernel_error(_IAE, f"Dimension {d} must be >= 0", "Fill")
    return dims


def _filled(shape, dtype, value):
    dtype = dtypes.as_dtype(dtype)
    shp = _fill_dims([int(shape)] if isinstance(shape, (int, np.integer))
                     else int_list(shape, "Fill" if isinstance(shape, Tensor) else None))
    if dtype is dtypes.string:
        return wrap(np.full(shp, b"" if value == 0 else value, dtype=object))
    return wrap(torch.full(shp, value, dtype=dtype.torch_dtype, device=current_device()))


@tf_export("zeros")
def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of zeros of `shape` and `dtype` (float32 by default)."""
    return _filled(shape, dtype, 0)


@tf_export("ones")
def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of ones of `shape` and `dtype` (float32 by default)."""
    return _filled(shape, dtype, 1)


def _like(input, dtype, value):  # noqa: A002
    t = input_storage(input)
    if dtype is None:
        if _is_str(t):
            return wrap(np.full(t.shape, b"" if value == 0 else value, dtype=object))
        return wrap(torch.full_like(t, value))
    return _filled(list(t.shape), dtype, value)


@tf_export("zeros_like")
def zeros_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    """Zeros with the shape (and dtype, unless given) of `input`."""
    return _like(input, dtype, 0)


@tf_export("ones_like")
def ones_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    """Ones with the shape (and dtype, unless given) of `input`."""
    return _like(input, dtype, 1)


@tf_export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix (or a batch of them) of `dtype`."""
    r = int_value(num_rows)
    c = r if num_columns is None else int_value(num_columns)
    out = torch.eye(r, c, dtype=_tdtype(dtype), device=current_device())
    if batch_shape is not None:
        b = int_list(batch_shape)
        out = out.expand(b + [r, c]).clone()
    return wrap(out)


@tf_export("linspace")
def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` inclusive (N-D start/stop along `axis`)."""
    a, b = same_dtype_inputs([start, stop], "LinSpace")
    if a.dtype not in FLOAT:
        a, b = a.to(torch.float64), b.to(torch.float64)
    n = int_value(num)
    a, b = torch.broadcast_tensors(a, b)
    steps = max(n - 1, 1)
    delta = (b - a) / steps
    shape = [1] * (a.ndim + 1)
    shape[0] = -1
    mid = torch.arange(1, steps, dtype=a.dtype, device=a.device).reshape(shape)
    out = torch.cat([a.unsqueeze(0), a.unsqueeze(0) + mid * delta.unsqueeze(0), b.unsqueeze(0)], 0)[:n]
    ax = int_value(axis)
    if ax < 0:
        ax += out.ndim
    return wrap(out.movedim(0, ax) if ax else out)


@tf_export("meshgrid")
def meshgrid(*args, **kwargs):
    """Coordinate grids of 1-D inputs; `indexing='xy'` (default) swaps the first two output axes."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments: {list(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    ts = [input_storage(a).reshape(-1) for a in args]
    if not ts:
        return []
    return [wrap(g) for g in torch.meshgrid(*ts, indexing=indexing)]


# -- sorting and searching -----------------------------------------------------------------

def _sort_axis(t, axis):
    n = t.ndim
    a = int_value(axis)
    if not -n <= a < n:
        raise ValueError(f"Argument `axis` = {a} not in range [{-n}, {n})" if n else
                         "Argument `axis` = -1 not in range [0, 0)")
    return a % n


def _direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
                         f"direction={direction}")
    return direction == "DESCENDING"


@tf_export("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    """Sorted values along `axis`."""
    t = input_storage(values)
    desc = _direction(direction)
    a = _sort_axis(t, axis)
    return wrap(torch.sort(t, dim=a, descending=desc, stable=True).values)


@tf_export("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 indices that sort `values` along `axis` (ties keep input order)."""
    t = input_storage(values)
    desc = _direction(direction)
    a = _sort_axis(t, axis)
    return wrap(torch.sort(t, dim=a, descending=desc, stable=True).indices.to(_int32))


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


@tf_export("math.top_k", "nn.top_k")
def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The `k` largest entries of the last axis and their indices (lower index first on ties)."""
    t = input_storage(input)
    check_dtype(t, "TopKV2", REAL)
    k = int_value(k)
    if t.ndim == 0:
        raise _fail("input must be at least 1-D, got shape []", "TopKV2")
    if k < 0:
        raise _fail(f"Need k >= 0, got {k}", "TopKV2")
    if k > t.shape[-1]:
        raise _fail(f"input must have at least k columns. Had {t.shape[-1]}, needed {k}", "TopKV2")
    s = torch.sort(t, dim=-1, descending=True, stable=True)
    return TopKV2(wrap(s.values[..., :k]), wrap(s.indices[..., :k].to(_tdtype(index_type))))


@tf_export("math.in_top_k", "nn.in_top_k")
def in_top_k(targets, predictions, k, name=None):
    """Whether each target's prediction is among the `k` largest of its row (ties count in its favour)."""
    p = input_storage(predictions)
    tg = input_storage(targets).to(_int64)
    k = int_value(k)
    own = p.gather(1, tg.unsqueeze(1))
    better = (p > own).sum(1)
    ok = (better < k) & torch.isfinite(own.squeeze(1)) & (tg >= 0) & (tg < p.shape[1])
    return wrap(ok)


Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _unique(x, out_idx):
    t = input_storage(x)
    if t.ndim != 1:
        raise _fail("unique expects a 1D vector.", "Unique")
    odt = _tdtype(out_idx)
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
    out = torch.searchsorted(s.contiguous(), v.contiguous(), right=side == "right")
    return wrap(out.to(_tdtype(out_type)))


@tf_export("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """`mask[..., j] = j < lengths[...]`, with `maxlen` columns (default: the largest length)."""
    ln = input_storage(lengths)
    m = int(ln.max()) if maxlen is None and ln.numel() else (0 if maxlen is None else int_value(maxlen))
    out = torch.arange(m, device=ln.device, dtype=ln.dtype) < ln.unsqueeze(-1)
    return wrap(out.to(_tdtype(dtype)))


# -- clipping ---------------------------------------------------------------------------------

@tf_export("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Elementwise `min(max(t, clip_value_min), clip_value_max)` with broadcasting."""
    x, hi = _matching([t, clip_value_max], "Minimum", "")
    check_dtype(x, "Minimum", REAL)
    m, lo = _matching([wrap(x), clip_value_min], "Maximum", "")
    low = torch.where(x <= hi, x, hi)           # TF's minimum/maximum send tie gradients to x
    out = torch.where(low >= lo, low, lo)
    if out.shape != x.shape:
        raise _fail(f"Incompatible shapes: {_dims(x.shape)} vs. {_dims(out.shape)}", "Maximum")
    return wrap(out)


@tf_export("clip_by_norm")
def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescales `t` so that its L2 norm (over `axes`) is at most `clip_norm`."""
    x = input_storage(t)
    check_dtype(x, "Mul", FLOAT)
    c = input_storage(clip_norm, dtypes.FROM_STORAGE[x.dtype]) if not isinstance(clip_norm, (Tensor, Variable)) \
        else input_storage(clip_norm)
    dims = tuple(_pyrange(x.ndim)) if axes is None else tuple(int_list(axes))
    l2sum = torch.sum(x * x, dim=dims, keepdim=True) if dims else x * x
    pos = l2sum > 0
    l2norm = torch.where(pos, torch.sqrt(torch.where(pos, l2sum, torch.ones_like(l2sum))), l2sum)
    return wrap(x * c / torch.maximum(l2norm, c))


def _global_norm(t_list):
    """sqrt(sum of squared L2 norms) of the tensors in `t_list` (None entries skipped)."""
    ts = [input_storage(v) for v in t_list if v is not None]
    if not ts:
        return wrap(torch.tensor(0.0, device=current_device()))
    return wrap(torch.sqrt(sum(torch.sum(v * v) for v in ts)))


@tf_export("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor by `clip_norm / max(global_norm, clip_norm)`; returns (list, global_norm)."""
    if isinstance(t_list, (Tensor, Variable)) or not isinstance(t_list, collections.abc.Iterable):
        raise TypeError("`t_list` should be a sequence of tensors. Received {}.".format(type(t_list)))
    t_list = list(t_list)
    norm = _global_norm(t_list) if use_norm is None else wrap(input_storage(use_norm))
    g = storage(norm)
    c = input_storage(clip_norm, dtypes.FROM_STORAGE[g.dtype]) if not isinstance(clip_norm, (Tensor, Variable)) \
        else input_storage(clip_norm)
    scale = c * torch.minimum(1.0 / g, 1.0 / c) + (g - g)
    out = []
    for v in t_list:
        if v is None:
            out.append(None)
            continue
        x = input_storage(v)
        out.append(wrap(x * scale.to(x.dtype)))
    return out, norm


# -- contractions -------------------------------------------------------------------------

@tf_export("einsum", "linalg.einsum", partial="keyword arguments other than `name` (`optimize`)")
def einsum(equation, *inputs, **kwargs):
    """Einstein summation over the inputs as described by `equation`."""
    kwargs.pop("name", None)
    if kwargs:
        raise NotImplementedError(f"tf.einsum arguments {sorted(kwargs)}")
    ts = same_dtype_inputs(inputs, "Einsum")
    out = torch.einsum(equation.replace(" ", ""), *ts)
    return wrap(out.to(ts[0].dtype) if ts and out.dtype != ts[0].dtype else out)


@tf_export("tensordot", "linalg.tensordot")
def tensordot(a, b, axes, name=None):
    """Sums products over the last `axes` axes of `a` and first of `b` (or the given axis lists)."""
    x, y = same_dtype_inputs([a, b], "MatMul")
    if isinstance(axes, (int, np.integer)) or (isinstance(axes, Tensor) and axes.ndim == 0):
        n = int_value(axes)
        if n < 0:
            raise ValueError(f"'axes' must be at least 0, but got {n}.")
        return wrap(torch.tensordot(x, y, n))
    ax, bx = axes
    ax = int_list(ax)
    bx = int_list(bx)
    if len(ax) != len(bx):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(ax)} != {len(bx)}.")
    return wrap(torch.tensordot(x, y, (ax, bx)))


# -- counting and segments -------------------------------------------------------------------

@tf_export("math.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """Counts (or sums `weights`) of each value of the non-negative ints in `arr`."""
    x = input_storage(arr)
    w = None if weights is None else input_storage(weights)
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported axis value {axis}. Only 0 and -1 are currently supported.")
    if axis in (None, 0):
        x = x.reshape(-1)
        w = None if w is None else w.reshape(-1)
    if x.numel() and bool((x < 0).any()):
        raise _fail("Input arr must be non-negative!", "DenseBincount", "")
    n = int(x.max()) + 1 if x.numel() else 0
    if minlength is not None:
        n = max(n, int_value(minlength))
    if maxlength is not None:
        n = min(n, int_value(maxlength))
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
    """Reduces rows of `data` (flattened over the id axes) into `n` segments; rows with id < 0 are dropped."""
    d2 = data.reshape(ids.numel(), cols)
    valid = ids >= 0
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
    init = {"amax": _lowest(dt), "amin": _highest(dt), "prod": 1}[kind]
    out = torch.full((n, cols), init, dtype=dt, device=data.device).scatter_reduce(
        0, idx, d2, kind, include_self=True)
    if empty_zero and kind != "prod":
        present = torch.zeros(n, dtype=torch.bool, device=data.device)
        present[ids] = True
        out = torch.where(present.unsqueeze(1), out, torch.zeros((), dtype=dt, device=data.device))
    return out


def _unsorted_segment(kind, op):
    def f(data, segment_ids, num_segments, name=None):
        d = input_storage(data)
        check_dtype(d, op, NUMERIC if kind in ("sum", "prod", "mean") else (FLOAT if kind == "sqrt_n" else REAL))
        if kind == "mean" and not (d.dtype.is_floating_point or d.dtype.is_complex):   # TF's truediv of the sum
            d = d.to(dtypes.division_result(dtypes.FROM_STORAGE[d.dtype]).torch_dtype)
        ids = _segment_ids(segment_ids, d, op)
        n = int_value(num_segments)
        if ids.numel() and int(ids.max()) >= n:
            raise _fail(f"segment_ids[{int((ids >= n).nonzero()[0])}] = {int(ids.max())} is out of range [0, {n})",
                        op)
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
        if s.ndim != 1:
            raise _fail("segment_ids should be a vector.", op)
        if s.shape[0] != d.shape[0]:
            raise _fail("segment_ids should be the same size as dimension 0 of input.", op)
        ids = s.to(_int64)
        if ids.numel() > 1 and bool((ids[1:] < ids[:-1]).any()):
            raise _fail("segment ids are not increasing", op)
        if ids.numel() and int(ids[0]) < 0:
            raise _fail("segment ids must be >= 0", op)
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
        if v.numel() and int(v.max()) >= n:
            raise _IAE(None, None, f"`{what}` out of bound\nCondition x < y did not hold.\nFirst {min(v.numel(), 3)} "
                       f"elements of x:\n{v[:3].cpu().numpy()}\nFirst 1 elements of y:\n[{n}]")
    dt = _tdtype(dtype)
    w = torch.ones(lb.numel(), dtype=dt, device=lb.device) if weights is None else \
        input_storage(weights).reshape(-1).to(dt)
    out = torch.zeros(n * n, dtype=dt, device=lb.device).index_add(0, lb * n + pr, w)
    return wrap(out.reshape(n, n))


@tf_export("repeat")
def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeats each element (of the flattened input when `axis` is None) `repeats` times."""
    t = input_storage(input)
    r = input_storage(repeats)
    if axis is None:
        t = t.reshape(-1)
        a = 0
    else:
        a = _axis(axis, t.ndim)
    if r.ndim == 0 or r.numel() == 1:
        return wrap(torch.repeat_interleave(t, int(r.reshape(())), dim=a))
    return wrap(torch.repeat_interleave(t, r.to(_int64).to(t.device), dim=a))


@tf_export("stop_gradient")
def stop_gradient(input, name=None):  # noqa: A002
    """The same value, as a constant to every gradient tape."""
    t = input_storage(input)
    return wrap(t.detach() if not _is_str(t) else t)


tf_export("newaxis")(None)
newaxis = None


@tf_export("ensure_shape")
def ensure_shape(x, shape, name=None):
    """Returns `x` after checking that its shape is compatible with `shape` (None: any size)."""
    t = input_storage(x)
    want = TensorShape(shape)
    if not want.is_compatible_with(TensorShape(tuple(t.shape))):
        dims = "[" + ",".join("?" if d is None else str(d) for d in want.as_list()) + "]" if want.rank is not None \
            else "<unknown>"
        raise _fail(f"Shape of tensor input {_dims(t.shape)} is not compatible with expected shape {dims}.",
                    "EnsureShape", "")
    return wrap(t)


@tf_export("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Reverses the first `seq_lengths[b]` elements along `seq_axis` of each batch entry b."""
    t = input_storage(input)
    ln = input_storage(seq_lengths).to(_int64)
    sa = int_value(seq_axis) % t.ndim
    ba = int_value(0 if batch_axis is None else batch_axis) % t.ndim
    n = t.shape[sa]
    if ln.numel() and int(ln.max()) > n:
        raise _fail(f"seq_lens(0) > input.dims({sa})", "ReverseSequence")
    pos = torch.arange(n, device=t.device).unsqueeze(0)
    lens = ln.to(t.device).unsqueeze(1)
    src = torch.where(pos < lens, lens - 1 - pos, pos)     # (batch, n)
    shape = [1] * t.ndim
    shape[ba] = t.shape[ba]
    shape[sa] = n
    order = [ba, sa] if ba < sa else [sa, ba]
    src = src if ba < sa else src.t()
    src = src.reshape([t.shape[d] if d in order else 1 for d in _pyrange(t.ndim)]).expand(t.shape)
    return wrap(torch.gather(t, sa, src))


# -- Tensor.__getitem__ ------------------------------------------------------------------------

_INDEX_TYPES = "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 " \
               "tensors are valid indices, got "


def _slice_error(msg):
    return _IAE(None, None, f"{msg} [Op:StridedSlice] name: strided_slice/")


def _as_index(v, key):
    """An int from an index entry (int, NumPy int, scalar int32/int64 tensor); TypeError otherwise."""
    tv = type(v)
    if tv is int or tv is bool:
        return int(v)
    if isinstance(v, np.integer) or (isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu"):
        return int(v)
    if isinstance(v, (Tensor, Variable)):
        t = storage(v)
        if not _is_str(t) and t.dtype in (_int32, _int64) and t.ndim == 0:
            return int(t)
    raise TypeError(_INDEX_TYPES + repr(v))


def _bound(v, key):
    return None if v is None else _as_index(v, key)


def _getitem_storage(t, key):
    """`t[key]` with TF's indexing rules on a storage `t` (torch tensor or string array)."""
    if type(key) is tuple:
        keys = key
    elif type(key) is list:
        keys = tuple(key)
    else:
        keys = (key,)
    n = t.ndim
    consumed = 0
    ellipses = 0
    for k in keys:
        if k is Ellipsis:
            ellipses += 1
        elif k is not None:
            consumed += 1
    if ellipses > 1:
        raise _slice_error("Multiple ellipses in slice spec not allowed")
    if consumed > n:
        if n == 0:
            raise _slice_error("Attempting to slice scalar input.")
        raise _slice_error(f"Index out of range using input dim {n}; input has only {n} dims")
    idx = []
    flips = []
    d = 0
    o = 0
    for pos, k in enumerate(keys):
        if k is Ellipsis:
            fill_ = n - consumed
            idx.extend([_pyslice(None)] * fill_)
            d += fill_
            o += fill_
        elif k is None:
            idx.append(None)
            o += 1
        elif type(k) is _pyslice:
            step = 1 if k.step is None else _as_index(k.step, k)
            start = _bound(k.start, k)
            stop = _bound(k.stop, k)
            if step == 0:
                raise _slice_error(f"strides[{pos}] must be non-zero")
            if step > 0 or _is_str(t):
                idx.append(_pyslice(start, stop, step))
            else:
                r = _pyrange(*_pyslice(start, stop, step).indices(t.shape[d]))
                if len(r):
                    idx.append(_pyslice(r[-1], r[0] + 1, -step))
                    flips.append(o)
                else:
                    idx.append(_pyslice(0, 0))
            d += 1
            o += 1
        else:
            i = _as_index(k, key)
            dim = t.shape[d]
            if not -dim <= i < dim:
                raise _slice_error(f"slice index {i + dim if i < 0 else i} of dimension {d} out of bounds.")
            idx.append(i)
            d += 1
    out = t[tuple(idx)]
    if type(out) is not np.ndarray and _is_str(t):
        out = np.asarray(out, dtype=object)
    if flips:
        out = out.flip(flips)
    return wrap(out)


def _is_mask(key):
    if type(key) is bool:
        return True
    if isinstance(key, (Tensor, Variable)):
        return key.dtype is dtypes.bool
    return isinstance(key, np.ndarray) and key.dtype == np.bool_


def _getitem(self, key):
    """TF's `tensor[key]`: ints, slices (any step), `...`, `tf.newaxis`, scalar int tensors, bool masks."""
    t = storage(self)
    if type(t) is torch.Tensor and t.requires_grad and not state.recording:
        t = t.detach()
    tk = type(key)
    if tk is int and type(t) is torch.Tensor:
        if t.ndim:
            dim = t.shape[0]
            if -dim <= key < dim:
                return wrap(t[key])
    elif tk is _pyslice and type(t) is torch.Tensor and t.ndim and (key.step is None or (
            type(key.step) is int and key.step > 0)) and type(key.start) in _PLAIN and type(key.stop) in _PLAIN:
        return wrap(t[key])
    elif _is_mask(key):
        return boolean_mask(wrap(t), key)
    return _getitem_storage(t, key)


_PLAIN = (int, type(None))


class _SlicedVariable(Tensor):
    """`variable[key]`: a tensor whose `assign` writes the slice back into the variable (TF's sliced l-value)."""

    __slots__ = ("_var", "_key")

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Rebinds the variable to a copy with this slice replaced by `value` (broadcast to the slice shape)."""
        var = self._var
        base = storage(var)
        if _is_str(base):
            raise NotImplementedError("sliced assignment to a tf.string variable")
        pos = storage(_getitem_storage(torch.arange(base.numel(), device=base.device).reshape(base.shape),
                                       self._key))
        v = input_storage(value, var.dtype) if not isinstance(value, (Tensor, Variable)) else input_storage(value)
        if v.dtype != base.dtype:
            raise _fail(f"cannot compute ResourceStridedSliceAssign as input #4(zero-based) was expected to be a "
                        f"{type_name(base.dtype)} tensor but is a {type_name(v.dtype)} tensor",
                        "ResourceStridedSliceAssign", "strided_slice/_assign")
        if tuple(v.shape) != tuple(pos.shape) and _broadcast_dims(pos.shape, v.shape) != list(pos.shape):
            raise _fail(f"Cannot broadcast input shape {_dims(v.shape)} into final shape {_dims(pos.shape)}",
                        "ResourceStridedSliceAssign",
                        "strided_slice/_assign")
        new = base.clone()
        new.view(-1)[pos.reshape(-1)] = v.detach().to(base.device).expand(pos.shape).reshape(-1)
        var._set_storage(new)
        return _UnreadVariable(var) if read_value else None


def _variable_getitem(self, key):
    """`variable[key]`: the slice of its value, with `.assign` writing back into the variable."""
    r = _getitem(self.read_value(), key)
    out = object.__new__(_SlicedVariable)
    out._set_storage(storage(r))
    out._var = self
    out._key = key
    return out


Tensor.__getitem__ = _getitem
Variable.__getitem__ = _variable_getitem
