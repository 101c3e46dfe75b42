"""Elementwise ops with a RaggedTensor operand: TF's broadcasting of ragged, uniform and dense dimensions."""
import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.ragged.tensor import OPS, RaggedTensor
from tfcompat.framework.tensor import Tensor, wrap

# TF's text when the outer dimensions of a ragged operand and a dense one differ (its shape assertion compares
# booleans)
_NROWS_MISMATCH = "Condition x == y did not hold.\nFirst 1 elements of x:\n[False]\nFirst 1 elements of y:\n[ True]"


def elementwise(op, x, y):
    """`op(x, y)` where `x` or `y` is a RaggedTensor: a RaggedTensor with the ragged operand's row partition."""
    if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
        return _both_ragged(op, x, y)
    swapped = not isinstance(x, RaggedTensor)
    rt, other = (y, x) if swapped else (x, y)
    if not isinstance(other, Tensor):
        other = convert_to_tensor(other, dtype_hint=rt.dtype)
    dense = _aligned(rt, other)
    flat = rt.flat_values
    return rt.with_flat_values(op(dense, flat) if swapped else op(flat, dense))


def _both_ragged(op, x, y):
    if x.ragged_rank != y.ragged_rank and x.shape.rank != y.shape.rank:
        raise NotImplementedError("elementwise ops between RaggedTensors of different ranks are not supported by "
                                  "tfcompat")
    if x.ragged_rank < y.ragged_rank:
        x = _raise_rank(x, y)
    elif y.ragged_rank < x.ragged_rank:
        y = _raise_rank(y, x)
    if x.nrows_int() != y.nrows_int():
        raise errors.InvalidArgumentError(None, None, _NROWS_MISMATCH)
    for a, b in zip(x.nested_row_splits, y.nested_row_splits):
        if a._t.shape != b._t.shape or not torch.equal(a._t, b._t.to(a._t.dtype)):
            OPS["assert_equal"](a, b)
    return x.with_flat_values(op(x.flat_values, y.flat_values))


def _raise_rank(low, high):
    """`low` (the lower ragged_rank) with its uniform dimensions below its last partition made ragged like `high`'s:
    a dimension of size 1 repeated along each row of `high`, one of every row's length kept (TF's broadcasting of
    a uniform dimension against a ragged one)."""
    splits = list(low.nested_row_splits)
    flat = low.flat_values._t
    for level in range(low.ragged_rank, high.ragged_rank):
        target = high.nested_row_splits[level]._t.to(torch.int64).cpu()
        lengths = target[1:] - target[:-1]
        if flat.ndim < 2 or flat.shape[0] != lengths.shape[0]:
            raise errors.InvalidArgumentError(None, None, _NROWS_MISMATCH)
        d = flat.shape[1]
        if d == 1:
            rows = flat[:, 0]
            flat = np.repeat(rows, lengths.numpy(), axis=0) if type(flat) is np.ndarray else \
                torch.repeat_interleave(rows, lengths.to(rows.device), dim=0)
        elif bool((lengths == d).all()):
            flat = flat.reshape((-1,) + tuple(flat.shape[2:]))
        else:
            OPS["assert_equal"](wrap(torch.arange(target.shape[0], dtype=torch.int64) * d), wrap(target))
        splits.append(high.nested_row_splits[level])
    out = wrap(flat)
    for s in reversed(splits):
        out = RaggedTensor(out, s, internal=True)
    return out


def _aligned(rt, dense):
    """`dense` broadcast against `rt`'s flat values: itself when it only spans the uniform inner dimensions,
    else its entries gathered for each flat value (its ragged-aligned dimensions must be 1 or match exactly)."""
    inner = rt.flat_values.shape.rank - 1
    rank = dense.shape.rank
    if rank <= inner:
        return dense
    outer = rt.ragged_rank + 1
    if rank > outer + inner:
        raise NotImplementedError("elementwise ops between a RaggedTensor and a dense tensor of higher rank are "
                                  "not supported by tfcompat")
    dims = [1] * (outer + inner - rank) + dense.shape.as_list()
    if dims[0] not in (1, rt.nrows_int()):
        raise errors.InvalidArgumentError(None, None, _NROWS_MISMATCH)
    r = rt
    for d in dims[1:outer]:
        if d != 1:
            splits = r._row_splits._t
            uniform = torch.arange(splits.shape[0], dtype=splits.dtype) * d
            if not torch.equal(uniform, splits):
                OPS["assert_equal"](wrap(uniform), r._row_splits)
        r = r._values
    coords = rt._coords()
    t = dense._t.reshape(dims)
    index = tuple(c if d > 1 else np.zeros_like(c) for c, d in zip(coords, dims[:outer]))
    if type(t) is np.ndarray:
        return wrap(t[index])
    return wrap(t[tuple(torch.from_numpy(i).to(t.device) for i in index)])


def dispatch(op, *operands):
    """An elementwise op (unary or binary) of op_def given a RaggedTensor operand (op_def's composite hook)."""
    if len(operands) == 1:
        return operands[0].with_flat_values(op(operands[0].flat_values))
    return elementwise(op, *operands)
