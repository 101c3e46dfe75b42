"""`tf.IndexedSlices`: a sparse set of rows of a dense tensor (the gradient of a gather)."""
import torch

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape


def _as_tensor(x):
    return x if isinstance(x, Tensor) or x is None else convert_to_tensor(x)


@tf_export("IndexedSlices")
class IndexedSlices:
    """Rows `values[i]` of a dense tensor of shape `dense_shape` at row indices `indices[i]`."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = _as_tensor(values)
        self._indices = _as_tensor(indices)
        self._dense_shape = _as_tensor(dense_shape)

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape(None)
        return TensorShape([int(d) for d in self._dense_shape._array()])

    def _dense(self):
        """The dense tensor (rows at repeated indices are summed, as TF's conversion does)."""
        if self._dense_shape is None:
            raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` without "
                             f"dense_shape: {self}")
        v = self._values._t
        shape = [int(d) for d in self._dense_shape._array()]
        out = torch.zeros(shape, dtype=v.dtype, device=v.device)
        idx = self._indices._t.to(device=v.device, dtype=torch.int64)
        return wrap(out.index_add(0, idx, v))

    def __neg__(self):
        return IndexedSlices(wrap(-self._values._t), self._indices, self._dense_shape)

    def __str__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"
