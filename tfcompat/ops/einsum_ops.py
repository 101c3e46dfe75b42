"""TF's tensor contractions: `tf.einsum` and `tf.tensordot`."""
import collections
import functools
import re

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    NUMERIC, broadcastable, device_name, int_list, int_value, kernel_dtypes, same_dtype_inputs, translate, type_name,
    wrap)
from tfcompat.framework.tensor import Tensor

# TF 2.21 has CPU Einsum kernels for bfloat16, half, float, double, int32, int64 and complex types only
_NO_EINSUM_KERNEL = frozenset([torch.int8, torch.int16, torch.uint8, torch.uint16, torch.uint32, torch.uint64,
                               torch.bool])
_MATMUL = kernel_dtypes("MatMul", NUMERIC)


@tf_export("einsum", "linalg.einsum", partial="keyword arguments other than `name` (`optimize`)")
def einsum(equation, *inputs, **kwargs):
    """Einstein summation over the inputs as described by `equation`."""
    kwargs.pop("name", None)
    if kwargs:
        raise NotImplementedError(f"tf.einsum arguments {sorted(kwargs)}")
    spec = _parse(equation, len(inputs))
    ts = same_dtype_inputs(inputs, "Einsum")
    if ts and ts[0].dtype in _NO_EINSUM_KERNEL:
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node Einsum}}}} = Einsum["
                              f"N={len(ts)}, T=DT_{type_name(ts[0].dtype).upper()}, equation=\"{equation}\"]\n"
                              "All kernels registered for op Einsum:\n", "Einsum")
    problem = _check_dimensions(spec, ts)
    if problem is None:
        try:
            out = torch.einsum(spec[0], *ts)
        except RuntimeError as e:
            problem = str(e).split("\n")[0]
        else:
            return wrap(out.to(ts[0].dtype) if ts and out.dtype != ts[0].dtype else out)
    device = device_name(ts[0].device) if ts else device_name(torch.device("cpu"))
    raise errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__Einsum_N_{len(ts)}_device_{device}}}}} "
                                                  f"{problem} [Op:Einsum] name: ")


@functools.lru_cache(maxsize=256)
def _parse(equation, n_inputs):
    """TF's Python-side checks of an einsum equation (`_einsum_v2`'s ValueErrors) and its explicit form: the implicit
    output is the labels appearing once, sorted, the ellipsis first when it appears once. Returns (equation for torch,
    input label strings, output label string) with `.` standing for an ellipsis."""
    eq = equation.replace(" ", "")
    if "..." in eq and "0" in eq:
        raise ValueError(f'Invalid character "0" in equation: {equation}.')
    eq = eq.replace("...", "0")
    m = re.match(r"^([a-zA-Z0,]*)(->[a-zA-Z0]*)?$", eq)
    if not m:
        raise ValueError(f"Subscripts have incorrect format: {eq}")
    ins = m.group(1).split(",")
    if len(ins) != n_inputs:
        raise ValueError(f'Got {n_inputs} inputs for equation "{equation}", expecting {len(ins)}')
    if m.group(2) is None:
        counts = collections.Counter(m.group(1))
        out = "".join(c for c in sorted(counts) if c != "," and counts[c] == 1)
    else:
        out = m.group(2)[2:]
    if len(set(out)) != len(out):
        raise ValueError(f"Output subscripts contain a label appearing more than once: {equation}")
    for c in out:
        if c != "0" and c not in m.group(1):
            raise ValueError(f"Output subscripts contain the label {c} not present in the input subscripts.")
    ins = tuple(s.replace("0", ".") for s in ins)
    out = out.replace("0", ".")
    torch_eq = (",".join(ins) + "->" + out).replace(".", "...")
    return torch_eq, ins, out


def _check_dimensions(spec, ts):
    """The einsum kernel's checks of the inputs' shapes (ProcessDimensions and the contraction's broadcast), as the
    message TF's kernel reports, or None when they pass."""
    _, ins, out = spec
    sizes = {}
    bcast = []
    for i, (labels, t) in enumerate(zip(ins, ts)):
        shape = t.shape
        if "." not in labels:
            if len(shape) != len(labels):
                return f"Expected input {i} to have rank {len(labels)} but got: {len(shape)}"
            axes = range(len(labels))
            bcast.append(None)
        else:
            if len(shape) + 1 < len(labels):
                return f"Expected input {i} to have rank at least {len(labels) - 1} but got: {len(shape)}"
            e = labels.index(".")
            nb = len(shape) - len(labels) + 1
            axes = [a if a < e else a + nb - 1 for a in range(len(labels))]
            bcast.append(tuple(shape[e:e + nb]))
        for c, a in zip(labels, axes):
            if c == ".":
                continue
            seen = sizes.get(c, 0)
            if seen and seen != shape[a]:
                shape_text = ",".join(str(d) for d in shape)
                return (f"Expected dimension {seen} at axis {a} of the input shaped [{shape_text}] but got dimension "
                        f"{shape[a]}")
            sizes[c] = shape[a]
    nb = max((len(b) for b in bcast if b is not None), default=0)
    if nb and "." not in out:
        return f"Output contains {nb} broadcasting dimension(s) but no ellipsis (...) was found in the output subscripts."
    if len(ts) == 2 and bcast[0] and bcast[1] and not broadcastable(bcast[0], bcast[1]):
        return "Invalid broadcasting dimensions: " + " vs. ".join(
            _reduced_shape(ins, out, i, bcast[i], sizes) for i in range(2))
    return None


def _reduced_shape(ins, out, i, bcast, sizes):
    """Operand `i`'s shape as the two-input kernel reshapes it for its batch matmul: [broadcast..., batch...,
    free, contract], free and contract swapped when the operand's labels already run batch, contract, free."""
    order = {}
    for c in "".join(ins) + out:
        if c != "." and c not in order:
            order[c] = len(order)

    def kind(c):  # TF's DimensionType order, with free (2) and contract (3)
        removed = c not in out
        unique = c not in ins[0] or c not in ins[1]
        return (4 if unique else 3) if removed else (2 if unique else 1)

    labels = [c for c in ins[i] if c != "."]
    remap = {1: 1, 2: 3, 3: 2, 4: 4}
    keys = [(remap[kind(c)], order[c]) for c in labels]
    swap = all(keys[j] <= keys[j + 1] for j in range(len(keys) - 1))
    batch = [sizes[c] for c in sorted(set(labels), key=order.get) if kind(c) == 1]
    free = contract = 1
    for c in set(labels):
        if kind(c) == 2:
            free *= sizes[c]
        elif kind(c) == 3:
            contract *= sizes[c]
    if swap:
        free, contract = contract, free
    return "[" + ",".join(str(d) for d in list(bcast) + batch + [free, contract]) + "]"


@tf_export("tensordot", "linalg.tensordot")
def tensordot(a, b, axes, name=None):
    """Sums products over the last `axes` axes of `a` and first of `b` (or the given axis lists)."""
    x, y = same_dtype_inputs([a, b], "MatMul", _MATMUL)
    if isinstance(axes, (int, np.integer)) or (isinstance(axes, Tensor) and axes.ndim == 0):
        n = int_value(axes)
        if n < 0:
            raise ValueError(f"'axes' must be at least 0, but got {n}.")
        return _contract(x, y, n)
    ax, bx = axes
    ax = int_list(ax)
    bx = int_list(bx)
    if len(ax) != len(bx):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(ax)} != {len(bx)}.")
    return _contract(x, y, (ax, bx))


def _contract(x, y, dims):
    """TF's tensordot: `x` as a [free, contracted] matrix times `y` as [contracted, free], so only the products of
    the contracted sizes must agree (MatMul's error where they do not)."""
    if isinstance(dims, int):
        for t in (x, y):
            if dims > t.ndim:
                raise ValueError(f"`axes` must not be larger than the number of dimensions of tensor "
                                 f"{wrap(t).numpy()}.  Received {dims}, vs tensor dimensions {t.ndim}.")
        ca, cb = list(range(x.ndim - dims, x.ndim)), list(range(dims))
    else:
        ca = [a + x.ndim if -x.ndim <= a < 0 else a for a in dims[0]]
        cb = [b + y.ndim if -y.ndim <= b < 0 else b for b in dims[1]]
    if (min(ca + cb, default=0) < 0 or len(set(ca)) != len(ca) or len(set(cb)) != len(cb) or
            any(a >= x.ndim for a in ca) or any(b >= y.ndim for b in cb)):
        try:
            return wrap(torch.tensordot(x, y, dims))
        except RuntimeError as e:
            raise translate(e, "MatMul", x, y) from None
    fa = [i for i in range(x.ndim) if i not in ca]
    fb = [i for i in range(y.ndim) if i not in cb]
    rows, inner = _size(x.shape, fa), _size(x.shape, ca)
    inner_b, cols = _size(y.shape, cb), _size(y.shape, fb)
    if inner != inner_b:
        raise errors.kernel_error(errors.InvalidArgumentError, f"Matrix size-incompatible: In[0]: [{rows},{inner}], "
                                  f"In[1]: [{inner_b},{cols}]", "MatMul")
    out = x.permute(fa + ca).reshape(rows, inner) @ y.permute(cb + fb).reshape(inner, cols)
    return wrap(out.reshape([x.shape[i] for i in fa] + [y.shape[i] for i in fb]))


def _size(shape, axes):
    n = 1
    for a in axes:
        n *= shape[a]
    return n
