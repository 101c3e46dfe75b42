"""`tf.edit_distance`: TF's EditDistance op, the Levenshtein distance between the sequences of two SparseTensors.

Each SparseTensor holds one sequence per index of its first `rank - 1` dims (its entries in index order, as the
kernel reorders them); the output, float32, has the elementwise larger of the two leading shapes. A sequence that
only the hypothesis has gives its length (normalized: inf), one only the truth has its length (normalized: 1).
"""
import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import device_name

_OP = "EditDistance"


def _kernel_fail(cls, msg, name):
    return errors.kernel_error(cls, msg, _OP, device_name(torch.device("cpu")), name=name)


def _parts(sp):
    return (np.asarray(input_storage(sp.indices).cpu().numpy(), np.int64),
            input_storage(sp.values), [int(d) for d in np.asarray(input_storage(sp.dense_shape).cpu().numpy())])


def _is_sparse(x):
    return isinstance(x, SparseTensor) or type(x).__name__ == "SparseTensorValue"


def _sequences(indices, values):
    """[(location, [values])]: the runs of consecutive entries sharing a leading index, in the order given (the
    kernel's grouping; the last index is not used, only the entries' order)."""
    vals = values if isinstance(values, np.ndarray) else values.cpu().numpy()
    runs = []
    for i in range(len(indices)):
        loc = tuple(int(v) for v in indices[i, :-1])
        if runs and runs[-1][0] == loc:
            runs[-1][1].append(vals[i])
        else:
            runs.append((loc, [vals[i]]))
    return runs


def _levenshtein(a, b):
    if not a:
        return len(b)
    if not b:
        return len(a)
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


@tf_export("edit_distance")
def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """Levenshtein distances between the sequences of `hypothesis` and `truth` (normalized by the truth's length)."""
    if not _is_sparse(hypothesis):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not _is_sparse(truth):
        raise TypeError("Truth must be a SparseTensor.")
    h_idx, h_val, h_shape = _parts(hypothesis)
    t_idx, t_val, t_shape = _parts(truth)
    if h_val.dtype != t_val.dtype:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"cannot compute {_OP} as input #4(zero-based) was expected to be a "
                              f"{type_name(h_val.dtype)} tensor but is a {type_name(t_val.dtype)} tensor", _OP, name)
    if len(h_shape) != len(t_shape):
        raise _kernel_fail(errors.InvalidArgumentError,
                           f"Expected truth and hypothesis to have matching ranks, but their shapes are: "
                           f"[{len(t_shape)}] and [{len(h_shape)}]", name)
    if len(t_shape) < 2:
        raise _kernel_fail(errors.InvalidArgumentError,
                           f"Input SparseTensors must have rank at least 2, but truth_shape rank is: {len(t_shape)}",
                           name)
    out_shape = [max(a, b) for a, b in zip(h_shape[:-1], t_shape[:-1])]
    size = int(np.prod(out_shape, dtype=np.int64))
    strides = [int(np.prod(out_shape[d + 1:], dtype=np.int64)) for d in range(len(out_shape))]
    hyp = _sequences(h_idx, h_val)
    tru = _sequences(t_idx, t_val)
    out = np.zeros(size, np.float32)

    def put(loc, a, b):
        flat = sum(i * s for i, s in zip(loc, strides))
        if not 0 <= flat < size:
            raise _kernel_fail(errors.InternalError,
                               f"Got an inner product {flat} which would require writing to outside of the buffer "
                               f"for the output tensor (max elements {size})", name)
        d = _levenshtein(a, b)
        if normalize:
            d = np.float32(d) / np.float32(len(b)) if b else np.float32(np.inf)
        out[flat] = d

    hi = ti = 0                # the kernel's merge of the two run lists by location (later runs overwrite)
    while hi < len(hyp) and ti < len(tru):
        (hl, a), (tl, b) = hyp[hi], tru[ti]
        if hl == tl:
            put(hl, a, b)
            hi += 1
            ti += 1
        elif hl < tl:
            put(hl, a, [])
            hi += 1
        else:
            put(tl, [], b)
            ti += 1
    for hl, a in hyp[hi:]:
        put(hl, a, [])
    for tl, b in tru[ti:]:
        put(tl, [], b)
    return wrap(torch.from_numpy(out.reshape(out_shape)))
