"""`KerasTensor`: the symbolic tensor of the functional API (`keras.Input`, layer outputs)."""
from tfcompat.framework import dtypes
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.keras.engine import naming


class KerasTensor:
    """A placeholder with a static shape (None for unknown dims) and dtype, produced by a layer call."""

    def __init__(self, shape, dtype="float32", sparse=False, ragged=False, name=None, history=None):
        self._shape = tuple(None if d is None else int(d) for d in shape)
        self._dtype = dtypes.as_dtype(dtype)
        self.sparse = sparse
        self.ragged = ragged
        self.name = name or naming.unique_name("keras_tensor")
        self._history = history      # (Node, output index) that produced it

    @property
    def shape(self):
        return TensorShape._from_tuple(self._shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return len(self._shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self._dtype.name}, sparse={self.sparse}, "
                f"ragged={self.ragged}, name={self.name}>")

    def __hash__(self):
        return id(self)

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def numpy(self):
        raise ValueError("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have "
                         "any actual numerical value. You cannot convert it to a NumPy array.")

    def __array__(self, *args, **kwargs):
        raise TypeError(
            f"You are passing {self!r} to a TensorFlow/NumPy function: a KerasTensor is a symbolic placeholder "
            "of the functional API. Use Keras layers or keras.ops on it instead.")

    def _op_layer(self, fn, *others):
        from tfcompat.keras.engine.ops_layer import OpLayer
        return OpLayer(fn)(self, *others)

    def __getitem__(self, key):
        return self._op_layer(lambda x: x[key])


def _binary(name):
    def method(self, other):
        return self._op_layer(lambda x, y: getattr(x, name)(y), other)
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
              "__matmul__", "__rmatmul__", "__pow__", "__floordiv__", "__mod__", "__lt__", "__le__", "__gt__",
              "__ge__", "__and__", "__or__"):
    setattr(KerasTensor, _name, _binary(_name))
KerasTensor.__neg__ = lambda self: self._op_layer(lambda x: -x)
KerasTensor.__abs__ = lambda self: self._op_layer(lambda x: abs(x))


def is_keras_tensor(x):
    return isinstance(x, KerasTensor)
