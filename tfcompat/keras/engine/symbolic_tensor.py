"""The tensor a layer's `call` sees while a functional model is built: stand-in values, Keras's symbolic shape."""
from tfcompat.framework.tensor import EagerTensor
from tfcompat.framework.tensor_shape import TensorShape


class SymbolicTensor(EagerTensor):
    """A layer input during a symbolic call: zeros of a stand-in size (see `functional`), with the KerasTensor's shape
    (None for unknown dims) and TF's symbolic text, as the graph placeholder Keras on TF passes to `call`."""

    __slots__ = ("_keras_shape", "_name")

    @property
    def shape(self):
        return TensorShape(self._keras_shape)

    def get_shape(self):
        return self.shape

    def __repr__(self):
        return f"<tf.Tensor '{self._name}' shape={self.shape} dtype={self.dtype.name}>"

    def __str__(self):
        return f'Tensor("{self._name}", shape={self.shape}, dtype={self.dtype.name})'


def symbolic(t, shape, index):
    """Storage `t` (a stand-in of `shape`'s unknown dims) as a SymbolicTensor of `shape`, the call's `index`-th
    placeholder (TF's `Placeholder:0`, `Placeholder_1:0`, ...)."""
    x = object.__new__(SymbolicTensor)
    x._set_storage(t)
    x._keras_shape = tuple(shape)
    x._name = f"Placeholder_{index}:0" if index else "Placeholder:0"
    return x

