"""TF's tensor contractions: `tf.einsum` and `tf.tensordot`."""
import numpy as np
import torch

from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import int_list, int_value, same_dtype_inputs, wrap
from tfcompat.framework.tensor import Tensor


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
