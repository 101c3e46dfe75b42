"""`tf.sets`: set operations over the last dimension of dense tensors and SparseTensors (TF's SetSize and
Dense/Sparse-To-Dense/Sparse SetOperation kernels).

Each index of the leading `rank - 1` dims holds one set: a dense row's values (every value counts), or a sparse
tensor's values at that index. Results are SparseTensors whose rows hold the sorted members, `dense_shape` the
leading dims plus the largest row size, indices int64 in row-major order, as TF's kernels build them.
"""
import itertools

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, device_name
from tfcompat.framework.variables import Variable

_VALID = frozenset([dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.string])
_VALID_TEXT = "frozenset({tf.int32, tf.uint8, tf.int16, tf.int8, tf.string, tf.int64, tf.uint16})"   # TF 2.21's text


def _fail(msg, op):
    return errors.kernel_error(errors.InvalidArgumentError, msg, op, device_name(torch.device("cpu")))


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


class _Sets:
    """One operand: its leading shape and {leading index: set of values}."""

    def __init__(self, leading, groups, dtype):
        self.leading, self.groups, self.dtype = leading, groups, dtype


def _host(t):
    return t if isinstance(t, np.ndarray) else t.cpu().numpy()


def _dense_sets(x, op):
    t = input_storage(x)
    shape = list(t.shape)
    if len(shape) < 2:
        raise _fail(f"Shape {_dims(shape)} has rank {len(shape)} < 2", op)
    a = _host(t).reshape(-1, shape[-1])
    leading = shape[:-1]
    groups = {}
    for pos, row in zip(itertools.product(*[range(d) for d in leading]), a):
        groups[pos] = set(row.tolist())
    return _Sets(leading, groups, dtypes.FROM_STORAGE[t.dtype] if type(t) is torch.Tensor else dtypes.string)


def _sparse_sets(sp, op, validate):
    idx = np.asarray(_host(input_storage(sp.indices)), np.int64)
    vals = _host(input_storage(sp.values)).tolist()
    shape = [int(d) for d in _host(input_storage(sp.dense_shape))]
    if len(shape) < 2:
        raise _fail(f"Shape {_dims(shape)} has rank {len(shape)} < 2", op)
    if validate:
        _check_order(idx, shape, op)
    groups = {}
    for row, v in zip(idx.tolist(), vals):
        groups.setdefault(tuple(row[:-1]), set()).add(v)
    return _Sets(shape[:-1], groups, sp.dtype)


def _check_order(idx, shape, op):
    rows = idx.tolist()
    for i, row in enumerate(rows):
        for v, n in zip(row, shape):
            if not 0 <= v < n:
                raise _fail(f"indices[{i}] = {_dims(row)} is out of bounds: need 0 <= index < {_dims(shape)}", op)
        if i and rows[i - 1] >= row:
            word = "repeated" if rows[i - 1] == row else "out of order"
            raise _fail(f"indices[{i}] = {_dims(row)} is {word}. Many sparse ops require sorted indices.\n    Use "
                        "`tf.sparse.reorder` to create a correctly ordered copy.\n\n", op)


def _checked_dtype(x, arg):
    dtype = x.dtype
    if dtype not in _VALID:
        raise TypeError(f"'{arg}' has invalid dtype `{dtype}` not in supported dtypes: `{_VALID_TEXT}`.")
    return dtype


def _as_operand(x):
    if isinstance(x, SparseTensor):
        return x
    return x if isinstance(x, (Tensor, Variable)) else convert_to_tensor(x)


def _result(sets, leading, dtype):
    """The SparseTensor of the sorted members of each set, row-major over `leading`."""
    rows, width = [], 0
    for pos in itertools.product(*[range(d) for d in leading]):
        members = sorted(sets.get(pos, ()))
        width = max(width, len(members))
        rows.append((pos, members))
    indices = [list(pos) + [j] for pos, members in rows for j in range(len(members))]
    values = [v for _, members in rows for v in members]
    idx = torch.tensor(indices, dtype=torch.int64).reshape(len(indices), len(leading) + 1)
    if dtype == dtypes.string:
        vals = np.array(values, dtype=object).reshape(len(values))
        vt = convert_to_tensor(vals, dtypes.string) if len(values) else convert_to_tensor(np.array([], object),
                                                                                            dtypes.string)
    else:
        vt = wrap(torch.tensor(values, dtype=dtype.torch_dtype).reshape(len(values)))
    return SparseTensor(wrap(idx), vt, wrap(torch.tensor(list(leading) + [width], dtype=torch.int64)))


def _set_operation(a, b, kind, validate_indices):
    a, b = _as_operand(a), _as_operand(b)
    if kind in ("intersection", "union") and isinstance(b, SparseTensor) and not isinstance(a, SparseTensor):
        a, b = b, a              # dense op sparse: TF swaps the operands of the symmetric operations
    da = _checked_dtype(a, "a")
    db = _checked_dtype(b, "b")
    if da != db:
        raise TypeError(f"Types don't match, {da} vs {db}.")
    if isinstance(a, SparseTensor):
        op = "SparseToSparseSetOperation" if isinstance(b, SparseTensor) else "SparseToDenseSetOperation"
    else:
        if isinstance(b, SparseTensor):
            raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. Please flip the order of your "
                             "inputs.")
        op = "DenseToDenseSetOperation"
    sa = _sparse_sets(a, op, validate_indices) if isinstance(a, SparseTensor) else _dense_sets(a, op)
    sb = _sparse_sets(b, op, validate_indices) if isinstance(b, SparseTensor) else _dense_sets(b, op)
    if sa.leading != sb.leading:
        raise _fail(f"Mismatched shapes {_dims(sa.leading)} vs {_dims(sb.leading)}", op)
    out = {}
    for pos in set(sa.groups) | set(sb.groups):
        x, y = sa.groups.get(pos, set()), sb.groups.get(pos, set())
        out[pos] = x & y if kind == "intersection" else x | y if kind == "union" else \
            x - y if kind == "a-b" else y - x
    return _result(out, sa.leading, da)


@tf_export("sets.size")
def set_size(a, validate_indices=True):
    """The number of unique values in each set (last dim) of SparseTensor `a`: int32, shape `dense_shape[:-1]`."""
    if not isinstance(a, SparseTensor):
        raise TypeError("Expected `SparseTensor`, got %s." % (a,))
    _checked_dtype(a, "a")
    sets = _sparse_sets(a, "SetSize", validate_indices)
    counts = np.zeros(sets.leading, np.int32)
    for pos, members in sets.groups.items():
        counts[pos] = len(members)
    return wrap(torch.from_numpy(counts))


@tf_export("sets.intersection")
def set_intersection(a, b, validate_indices=True):
    """Members of both sets, per index of the leading dims (a SparseTensor)."""
    return _set_operation(a, b, "intersection", validate_indices)


@tf_export("sets.union")
def set_union(a, b, validate_indices=True):
    """Members of either set, per index of the leading dims (a SparseTensor)."""
    return _set_operation(a, b, "union", validate_indices)


@tf_export("sets.difference")
def set_difference(a, b, aminusb=True, validate_indices=True):
    """`a - b` (or `b - a` with `aminusb=False`), per index of the leading dims (a SparseTensor)."""
    if isinstance(b, SparseTensor) and not isinstance(a, SparseTensor):      # TF flips a dense `a` and sparse `b`
        a, b, aminusb = b, a, not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)
