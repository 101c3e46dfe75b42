"""TF's shape and structure ops: reshape, transpose, concat/stack/split, tile, pad, slice, reverse, repeat."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, int_list, int_value, type_name, wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops._array_util import (
    _IAE, _axis, _broadcast_dims, _dims, _fail, _fast_name, _flat_ints, _int64, _is_str, _kfail, _matching, _numel, _pyrange,
    _pyslice, _tdtype)
from tfcompat.ops.gather_ops import _signed, _unsigned


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
                raise _kfail(f"Size {dims.index(d)} must be non-negative, not {d}", "Reshape", like=t)
            known *= d
    if len(unknown) > 1:
        raise _kfail(f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}", "Reshape",
                     like=t)
    if unknown and n == 0 and known == 0:     # TF infers -1 from the non-zero dims of input and shape
        dims[unknown[0]] = _numel(d for d in t.shape if d) // _numel(d for d in dims if d not in (0, -1))
    elif unknown:
        if known == 0 or n % known:
            raise _reshape_error(_kfail(f"Input to reshape is a tensor with {n} values, but the requested shape "
                                        f"requires a multiple of {known}", "Reshape", like=t),
                                 f"Dimension size must be evenly divisible by {known} but is {n}", t, shape, dims)
    elif known != n:
        raise _reshape_error(_kfail(f"Input to reshape is a tensor with {n} values, but the requested shape has "
                                    f"{known}", "Reshape", like=t),
                             f"Cannot reshape a tensor with {n} elements to shape {_dims(dims)} ({known} elements)",
                             t, shape, dims)
    return wrap(t.reshape(dims))


def _dtype_enum(t):
    return "DT_STRING" if _is_str(t) else f"DT_{type_name(t.dtype).upper()}"


def _reshape_error(eager, message, t, shape, dims):
    """Reshape's element-count error; while tracing on known shapes TF's shape-function ValueError (a Python shape is
    the constant `Reshape/shape`; a shape tensor leaves the check to run time, as its value is not static)."""
    if isinstance(shape, (Tensor, Variable)):
        return eager
    partial = "[" + ",".join("?" if d == -1 else str(d) for d in dims) + "]"
    return errors.static_shape_error(eager, message, "Reshape", "Reshape", f"T={_dtype_enum(t)}, Tshape=DT_INT32",
                                     [t, ("{node}/shape", [len(dims)])],
                                     f" and with input tensors computed as partial shapes: input[1] = {partial}")


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
            raise _kfail(f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(p)}",
                         "Transpose", like=t)
        p = [d + n if d < 0 else d for d in p]
        for d in p:
            if not 0 <= d < n:
                raise _kfail(f"{d} is out of range [0 .. {n})", "Transpose", like=t)
        for d in _pyrange(n):
            if d not in p:
                raise _kfail(f"{d} is missing from {{{','.join(map(str, p))}}}.", "Transpose", like=t)
    out = t.transpose(p) if _is_str(t) else t.permute(p)
    if conjugate and not _is_str(t) and t.is_complex():
        out = out.conj()
    return wrap(out)


@tf_export("squeeze")
def squeeze(input, axis=None, name=None):  # noqa: A002
    """Removes size-1 axes (all of them, or those in `axis`)."""
    t = input_storage(input)
    shape = t.shape
    if axis is None or isinstance(axis, (list, tuple)) and not axis:    # an empty list squeezes all, as None
        return wrap(t.reshape([d for d in shape if d != 1]))
    axes = int_list(axis)
    n = t.ndim
    keep = set()
    for a in axes:
        if not -n <= a < n:
            raise _kfail(f"Tried to squeeze dim index {a} for tensor with {n} dimensions.", "Squeeze", "", like=t)
        a %= n
        if shape[a] != 1:
            raise _kfail(f"Can not squeeze dim[{a}], expected a dimension of 1, got {shape[a]}", "Squeeze", "",
                             like=t)
        keep.add(a)
    return wrap(t.reshape([d for i, d in enumerate(shape) if i not in keep]))


@tf_export("expand_dims")
def expand_dims(input, axis, name=None):  # noqa: A002
    """Inserts a size-1 axis at `axis` (in [-rank-1, rank])."""
    t = input_storage(input)
    n = t.ndim
    if type(axis) is not int:
        axis = _single_axis(axis, input, t)
    a = _int_axis(axis)
    if not -n - 1 <= a <= n:
        raise _kfail(f"Tried to expand dim index {a} for tensor with {n} dimensions.", "ExpandDims", "", like=t)
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
    """The shape of a tensor as a 1-D `out_type` (int32 or int64) tensor."""
    dt = dtypes.as_dtype(out_type)
    if dt not in (dtypes.int32, dtypes.int64):
        raise errors.op_error(_IAE, f"Value for attr 'out_type' of {type_name(dt.torch_dtype)} is not in the list of "
                              "allowed values: int32, int64\n\t; NodeDef: {{node Shape}}; Op<name=Shape; signature="
                              "input:T -> output:out_type; attr=T:type; attr=out_type:type,default=DT_INT32,allowed="
                              "[DT_INT32, DT_INT64]>", "Shape")
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
        raise _kfail(f"Incompatible shapes: {_dims(tx.tolist())} vs. {_dims(ty.tolist())}", "BroadcastArgs",
                     _fast_name(shape_x, shape_y), like=tx)
    return wrap(torch.tensor(out, dtype=tx.dtype, device=tx.device))


@tf_export("broadcast_to")
def broadcast_to(input, shape, name=None):  # noqa: A002
    """Broadcasts `input` to `shape` with NumPy's rules."""
    t = input_storage(input)
    dims = int_list(shape, "BroadcastTo")
    if _broadcast_dims(t.shape, dims) != dims:
        raise _kfail(f"Incompatible shapes: {_dims(t.shape)} vs. {_dims(dims)}", "BroadcastTo", like=t)
    if _is_str(t):
        return wrap(np.broadcast_to(t, dims).copy())
    return wrap(t.expand(dims))


@tf_export("concat")
def concat(values, axis, name="concat"):
    """Joins tensors along an existing axis."""
    a = _int_axis(axis)
    ts = _matching(values, "ConcatV2", name)
    if not ts:
        raise _fail("OpKernel 'ConcatV2' has constraint on attr 'T' not in NodeDef '[N=0, Tidx=DT_INT32]'",
                    "ConcatV2", name)
    if len(ts) == 1:
        return wrap(ts[0])
    ref = ts[0]
    n = ref.ndim
    if n == 0:
        raise _kfail("ConcatOp : Can't concatenate scalars (use tf.stack instead)", "ConcatV2", name,
                     f"ConcatV2_N_{len(ts)}", ts[0])
    if not -n <= a < n:
        raise _kfail(f"ConcatOp : Expected concatenating dimensions in the range [{-n}, {n}), but got {a}",
                     "ConcatV2", name, f"ConcatV2_N_{len(ts)}", ts[0])
    a %= n
    for i, t in enumerate(ts[1:], 1):
        if t.ndim != n:
            raise _concat_error(_kfail(f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                                       f"{_dims(ref.shape)} vs. shape[{i}] = {_dims(t.shape)}", "ConcatV2", name,
                                       f"ConcatV2_N_{len(ts)}", t),
                                f"Shape must be rank {n} but is rank {t.ndim}", ts, name, "")
        for d in _pyrange(n):
            if d != a and t.shape[d] != ref.shape[d]:
                rest_ref, rest_t = [x for j, x in enumerate(ref.shape) if j != a], \
                    [x for j, x in enumerate(t.shape) if j != a]
                raise _concat_error(_kfail(f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = "
                                           f"{_dims(ref.shape)} vs. shape[{i}] = {_dims(t.shape)}", "ConcatV2",
                                           name, f"ConcatV2_N_{len(ts)}", t),
                                    f"Dimension {d - (d > a)} in both shapes must be equal, but are {ref.shape[d]} and "
                                    f"{t.shape[d]}. Shapes are {_dims(rest_ref)} and {_dims(rest_t)}.", ts, name,
                                    f" and with computed input tensors: input[{len(ts)}] = <{a}>")
    if _is_str(ref):
        return wrap(np.concatenate(ts, a))
    return wrap(torch.cat(ts, a))


def _concat_error(eager, message, ts, name, tail):
    """ConcatV2's shape error; while tracing on known shapes TF's shape-function ValueError (the axis is the constant
    `concat/axis`)."""
    return errors.static_shape_error(eager, message, name or "concat", "ConcatV2",
                                     f"N={len(ts)}, T={_dtype_enum(ts[0])}, Tidx=DT_INT32",
                                     list(ts) + [("{node}/axis", [])], tail)


@tf_export("stack")
def stack(values, axis=0, name="stack"):
    """Stacks same-shape tensors along a new axis."""
    if not values:     # TF converts the list itself for axis 0, else reads values[0]'s shape
        if not isinstance(axis, (Tensor, Variable)) and axis == 0:
            return wrap(input_storage([]))
        raise IndexError("list index out of range")
    a = _axis(axis, input_storage(values[0]).ndim, extra=1)
    ts = _matching(values, "Pack", name)
    for i, t in enumerate(ts[1:], 1):
        if t.shape != ts[0].shape:
            raise _kfail(f"Shapes of all inputs must match: values[0].shape = {_dims(ts[0].shape)} != "
                         f"values[{i}].shape = {_dims(t.shape)}", "Pack", name, f"Pack_N_{len(ts)}", t)
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
    if isinstance(axis, float):     # TF checks the range, then indexes the shape with it
        if not -n <= axis < n:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
        raise TypeError("list indices must be integers or slices, not float")
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
    a = _int_axis(axis)
    n = t.ndim
    even = isinstance(num_or_size_splits, (int, np.integer)) or (
        isinstance(num_or_size_splits, Tensor) and num_or_size_splits.ndim == 0)
    if even:
        k = int_value(num_or_size_splits)
        if k <= 0:
            raise _fail(f"Value for attr 'num_split' of {k} must be at least minimum 1\n\t; NodeDef: {{{{node Split}}}}; "
                        "Op<name=Split; signature=split_dim:int32, value:T -> output:num_split*T; "
                        "attr=num_split:int,min=1; attr=T:type>", "Split", name)
        op = "Split"
    else:
        sizes = int_list(num_or_size_splits)
        k = len(sizes)
        op = "SplitV"
    wrapped = f"{op}_num_split_{k}"
    if not -n <= a < n:
        raise _kfail(f"-input rank(-{n}) <= split_dim < input rank ({n}), but got {a}", op, name, wrapped, t)
    a %= n
    dim = t.shape[a]
    if even:
        if dim % k:
            raise _kfail(f"Number of ways to split should evenly divide the split dimension, but got split_dim {a} "
                         f"(size = {dim}) and num_split {k}", op, name, wrapped, t)
        sizes = [dim // k] * k
    else:
        if sizes.count(-1) > 1:
            raise _kfail("There can only be one -1 in the input.", op, name, wrapped, t)
        known = sum(s for s in sizes if s != -1)
        if (known > dim) if -1 in sizes else (known != dim):
            raise _kfail("Determined shape must either match input shape along split_dim exactly if fully "
                         "specified, or be less than the size of the input along split_dim if not fully "
                         f"specified.  Got: {known}", op, name, wrapped, t)
        if -1 in sizes:
            sizes[sizes.index(-1)] = dim - known
    if _is_str(t):
        return [wrap(p) for p in np.split(t, np.cumsum(sizes)[:-1], axis=a)]
    return [wrap(p) for p in torch.split(t, sizes, a)]


@tf_export("tile")
def tile(input, multiples, name=None):  # noqa: A002
    """Repeats the whole tensor `multiples[i]` times along axis i."""
    t = input_storage(input)
    if not isinstance(multiples, (list, tuple)):
        rank = np.ndim(multiples) if not isinstance(multiples, (Tensor, Variable)) else len(multiples.shape)
        if rank != 1:
            shape = np.shape(multiples) if not isinstance(multiples, (Tensor, Variable)) else multiples.shape
            raise _kfail(f"Expected multiples to be 1-D, but got shape {_dims(shape)}", "Tile",
                         _fast_name(input, multiples), like=t)
    elif multiples and isinstance(multiples[0], (list, tuple)):
        raise _kfail(f"Expected multiples to be 1-D, but got shape {_dims(np.shape(multiples))}", "Tile", like=t)
    m = int_list(multiples, "Tile")
    if len(m) != t.ndim:
        raise _kfail(f"Expected multiples argument to be a vector of length {t.ndim} but got length {len(m)}", "Tile",
                     like=t)
    for i, k in enumerate(m):
        if k < 0:
            raise errors.kernel_error(_IAE, f"Expected multiples[{i}] >= 0, but got {k}", "Tile", name=None)
    if _is_str(t):
        return wrap(np.tile(t, m))
    if t.dtype is torch.uint16 and t.numel() and all(m) and any(k != 1 for k in m):
        raise _tile_uint16(t.ndim)
    return wrap(t.repeat(m) if m else t)


def _tile_uint16(rank):
    """TF's TileOp has no uint16 case (it answers only an empty output or multiples of all ones)."""
    return errors.kernel_error(errors.UnimplementedError, "TileOp : The input data type is not supported, DataType : "
                               f"uint16, Dimension : {rank}", "Tile", name=None)


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
    pshape = np.shape(paddings.numpy() if isinstance(paddings, (Tensor, Variable)) else paddings)
    if len(pshape) != 2 or pshape[1] != 2:
        raise errors.kernel_error(_IAE, f"paddings must be a matrix with 2 columns: {_dims(pshape)}", "Pad",
                                  name=None)
    if len(p) != 2 * n:
        raise _kfail(f"The first dimension of paddings must be the rank of inputs{_dims([len(p) // 2, 2])} "
                     f"{_dims(t.shape)}", "Pad", like=t)
    pairs = [(p[2 * i], p[2 * i + 1]) for i in _pyrange(n)]
    mode = mode.upper()
    if any(lo < 0 or hi < 0 for lo, hi in pairs):
        raise _kfail(f"Paddings must be non-negative: {pairs[0][0]} {pairs[0][1]}", "Pad", like=t)
    if mode == "CONSTANT":
        if _is_str(t):
            cv = constant_values.encode() if isinstance(constant_values, str) else constant_values
            return wrap(np.pad(t, pairs, constant_values=cv if cv != 0 else b""))
        flat = [v for lo_hi in reversed(pairs) for v in lo_hi]
        value = constant_values
        if isinstance(value, float) and not (t.dtype.is_floating_point or t.dtype.is_complex):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtypes.FROM_STORAGE[t.dtype].name}")
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
            raise _kfail(f"paddings must be less than the dimension size: {lo}, {hi} not less than {size_}" if off else
                         f"paddings must be no greater than the dimension size: {lo}, {hi} greater than {size_}",
                         "MirrorPad", like=t)
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
        raise _kfail(f"Expected begin and size arguments to be 1-D tensors of size {t.ndim}, but got shapes "
                     f"[{len(b)}] and [{len(s)}] instead.", "Slice", like=t)
    key = []
    for d, (lo, n) in enumerate(zip(b, s)):
        dim = t.shape[d]
        if n == -1:
            n = dim - lo
        if not (0 <= lo <= dim and 0 <= n and lo + n <= dim):
            raise _kfail(f"Expected size[{d}] in [0, {dim - lo}], but got {n}" if 0 <= lo <= dim else
                         f"Expected begin[{d}] in [0, {dim}], but got {lo}", "Slice", like=t)
        key.append(_pyslice(lo, lo + n))
    return wrap(t[tuple(key)])


@tf_export("reverse")
def reverse(tensor, axis, name=None):
    """Reverses the order of elements along the axes in `axis`."""
    t = input_storage(tensor)
    n = t.ndim
    axes = []
    if n == 0 or not _numel(t.shape):     # TF's kernel returns an empty or scalar input before checking axes
        return wrap(t)
    for a in int_list(axis):
        if not -n <= a < n:
            raise _kfail(f"'axis'[0] = {a} is out of valid range [0, {n - 1}", "ReverseV2", like=t)
        axes.append(a % n)
    if _is_str(t):
        return wrap(np.flip(t, axes).copy())
    return wrap(_unsigned(_signed(t).flip(axes), t.dtype) if axes else t)


@tf_export("roll")
def roll(input, shift, axis, name=None):  # noqa: A002
    """Rolls elements by `shift` along `axis` (elements leaving one end re-enter at the other)."""
    t = input_storage(input)
    shifts = int_list(shift)
    if isinstance(axis, (bool, float)):
        raise _fail(f"Value for attr 'Taxis' of {'bool' if isinstance(axis, bool) else 'float'} is not in the list of "
                    "allowed values: int32, int64\n\t; NodeDef: {{node Roll}}; Op<name=Roll; signature=input:T, "
                    "shift:Tshift, axis:Taxis -> output:T; attr=T:type; attr=Tshift:type,allowed=[DT_INT32, DT_INT64];"
                    " attr=Taxis:type,allowed=[DT_INT32, DT_INT64]>", "Roll", "")
    axes = int_list(axis)
    if len(shifts) != len(axes):
        raise _kfail("shift and axis must have the same size", "Roll", _fast_name(input, shift, axis), like=t)
    n = t.ndim
    for a in axes:
        if not -n <= a < n:
            raise _kfail(f"axis {a} is out of range", "Roll", _fast_name(input, shift, axis), like=t)
    if _is_str(t):
        return wrap(np.roll(t, shifts, axes))
    return wrap(torch.roll(t, shifts, axes))


@tf_export("repeat")
def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeats each element (of the flattened input when `axis` is None) `repeats` times."""
    t = input_storage(input)
    r = input_storage(repeats)
    if isinstance(axis, float):
        raise TypeError(f"Argument `axis` must be an int. Received `axis` = {axis} of type float")
    if t.ndim == 0:      # TF repeats a scalar as a vector of one
        t = t.reshape(1)
    if axis is None:
        t = t.reshape(-1)
        a = 0
    else:
        a = _axis(axis, t.ndim)
    counts = [int(v) for v in r.reshape(-1).tolist()]
    if len(counts) != 1 and len(counts) != t.shape[a]:
        raise ValueError(f"Dimensions {t.shape[a]} and {len(counts)} are not compatible")
    if any(c < 0 for c in counts):     # TF repeats with a Tile of the expanded input
        raise errors.kernel_error(_IAE, f"Expected multiples[{a + 1}] >= 0, but got {min(counts)}", "Tile", name=None)
    if _is_str(t):
        return wrap(np.repeat(t, counts if len(counts) > 1 else counts[0], axis=a))
    if t.dtype is torch.uint16 and t.numel() and max(counts) > 1:      # that Tile (by the largest count) refuses uint16
        raise _tile_uint16(t.ndim + 1)
    reps = counts[0] if len(counts) == 1 else r.reshape(-1).to(_int64).to(t.device)
    return wrap(_unsigned(torch.repeat_interleave(_signed(t), reps, dim=a), t.dtype))


def _single_axis(axis, input, t):  # noqa: A002
    """expand_dims' `axis` given as other than an int: TF takes a tensor with one value, of any shape."""
    if axis is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    if isinstance(axis, (list, tuple, np.ndarray, Tensor, Variable)):
        if (axis.shape.num_elements() if isinstance(axis, (Tensor, Variable)) else np.size(axis)) != 1:
            raise _kfail("'dim' must be a tensor with a single value", "ExpandDims", _fast_name(input, axis), like=t)
        axis = np.reshape(np.asarray(axis if not isinstance(axis, (Tensor, Variable)) else axis.numpy()), [])[()]
    return axis


def _int_axis(axis):
    """An axis argument TF converts to an int32 tensor (a Python float is TF's TypeError)."""
    if isinstance(axis, float):
        raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
    return int_value(axis)


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
        raise _kfail(f"Shape of tensor input {_dims(t.shape)} is not compatible with expected shape {dims}.",
                     "EnsureShape", "", like=t)
    return wrap(t)


@tf_export("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Reverses the first `seq_lengths[b]` elements along `seq_axis` of each batch entry b."""
    t = input_storage(input)
    ln = input_storage(seq_lengths).to(_int64)
    sa = int_value(seq_axis) % t.ndim
    ba = int_value(0 if batch_axis is None else batch_axis) % t.ndim
    n = t.shape[sa]
    if ln.numel() and bool((ln > n).any()):       # a bool: a traced function's guard holds
        raise _kfail(f"seq_lens(0) > input.dims({sa})", "ReverseSequence", like=t)
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


