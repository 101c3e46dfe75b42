"""TF's tensor contractions: `tf.einsum` and `tf.tensordot`."""
import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    NUMERIC, int_list, int_value, kernel_dtypes, same_dtype_inputs, translate, type_name, wrap)
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
    ts = same_dtype_inputs(inputs, "Einsum")
    if ts and ts[0].dtype in _NO_EINSUM_KERNEL:
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node Einsum}}}} = Einsum["
                              f"N={len(ts)}, T=DT_{type_name(ts[0].dtype).upper()}, equation=\"{equation}\"]\n"
                              "All kernels registered for op Einsum:\n", "Einsum")
    out = torch.einsum(equation.replace(" ", ""), *ts)
    return wrap(out.to(ts[0].dtype) if ts and out.dtype != ts[0].dtype else out)


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
