"""`KerasTensor`: the symbolic tensor of the functional API (`keras.Input`, layer outputs), as Keras 3 prints it."""
import collections
import numbers

from tfcompat.framework import dtypes
from tfcompat.keras.engine import naming

KerasHistory = collections.namedtuple("KerasHistory", ["operation", "node_index", "tensor_index"])

_SYMBOLIC = ("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any actual "
             "numerical value. You cannot convert it to ")
_NOT_TF = ("A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a symbolic placeholder "
           "for a shape and dtype, used when constructing Keras Functional models or Keras Functions. You can only "
           "use it as input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and "
           "`keras.ops`). You are likely doing something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n"
           "```\n\nWhat you should do instead is wrap `tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n"
           "    def call(self, x):\n        return tf_fn(x)\n\nx = MyLayer()(x)\n```\n")


class KerasTensor:
    """A placeholder with a static shape (a tuple, None for unknown dims) and a dtype name, made by `keras.Input` or a
    layer/op call; each one takes the next `keras_tensor_N` name unless given one, as in Keras 3."""

    def __init__(self, shape, dtype="float32", sparse=False, ragged=False, record_history=True, name=None,
                 history=None):
        if sparse and ragged:
            raise ValueError("KerasTensor cannot have `sparse=True` and `ragged=True` at the same time.")
        self._shape = tuple(None if d is None else int(d) for d in shape)
        self._dtype = dtypes.as_dtype(dtype)
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self.record_history = record_history
        self.name = name or naming.unique_name("keras_tensor")
        self._history = history      # (Node, output index) that produced it

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def _keras_history(self):
        if self._history is None:
            raise AttributeError("'KerasTensor' object has no attribute '_keras_history'")
        node, index = self._history
        return KerasHistory(node.layer, node.layer.__dict__["_inbound_nodes"].index(node), index)

    def __repr__(self):
        return (f"<KerasTensor shape={self._shape}, dtype={self._dtype.name}, sparse={self.sparse}, "
                f"ragged={self.ragged}, name={self.name}>")

    def __hash__(self):
        return id(self)

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __iter__(self):
        raise NotImplementedError("Iterating over a symbolic KerasTensor is not supported.")

    def __int__(self):
        raise ValueError(_SYMBOLIC + "an int.")

    def __float__(self):
        raise ValueError(_SYMBOLIC + "a float.")

    def __array__(self, *args, **kwargs):
        raise ValueError(_SYMBOLIC + "a NumPy array.")

    def __tf_tensor__(self, dtype=None, name=None):
        raise ValueError(_NOT_TF)

    def reshape(self, newshape):
        return _operation("Reshape", self, newshape)

    def squeeze(self, axis=None):
        return _operation("Squeeze", self, axis=axis)

    def __getitem__(self, key):
        return _operation("GetItem", self, key)

    def __round__(self, ndigits=None):
        return _operation("Round", self, decimals=ndigits) if ndigits else _operation("Round", self)


def _operation(op, *args, **kwargs):
    from tfcompat.keras.engine.ops_layer import operation
    return operation(op)()(*args, **kwargs)


def _binary(op, reflected):
    def method(self, other):
        return _operation(op, other, self) if reflected else _operation(op, self, other)
    return method


# Python operators record the Keras op Keras 3 records for them (named add, add_1, ... in summaries)
for _op, _names in {"Add": "add", "Subtract": "sub", "Multiply": "mul", "Matmul": "matmul", "TrueDivide": "truediv",
                    "FloorDivide": "floordiv", "Mod": "mod", "Power": "pow", "LogicalAnd": "and",
                    "LogicalOr": "or", "LogicalXor": "xor"}.items():
    setattr(KerasTensor, f"__{_names}__", _binary(_op, False))
    setattr(KerasTensor, f"__r{_names}__", _binary(_op, True))
KerasTensor.__div__, KerasTensor.__rdiv__ = KerasTensor.__truediv__, KerasTensor.__rtruediv__
for _op, _name in {"Less": "lt", "LessEqual": "le", "Greater": "gt", "GreaterEqual": "ge", "NotEqual": "ne"}.items():
    setattr(KerasTensor, f"__{_name}__", _binary(_op, False))
KerasTensor.__neg__ = lambda self: _operation("Negative", self)
KerasTensor.__abs__ = lambda self: _operation("Absolute", self)
KerasTensor.__invert__ = lambda self: _operation("LogicalNot", self)


def is_keras_tensor(x):
    return isinstance(x, KerasTensor)


def standardize_shape(shape):
    """Keras's shape check of `Input`: a tuple of ints >= 0 or None (a scalar tensor counts as its int)."""
    if not isinstance(shape, tuple):
        if shape is None:
            raise ValueError("Undefined shapes are not supported.")
        if not hasattr(shape, "__iter__"):
            raise ValueError(f"Cannot convert '{shape}' to a shape.")
    dims = []
    for d in shape.as_list() if hasattr(shape, "as_list") else shape:
        if d is not None and hasattr(d, "numpy") and getattr(d, "shape", None) == ():
            d = d.numpy()
        if d is not None:
            if not isinstance(d, numbers.Integral):
                raise ValueError(f"Cannot convert '{shape}' to a shape. Found invalid dimension '{d}' of type "
                                 f"'{type(d)}'. ")
            if d < 0:
                raise ValueError(f"Cannot convert '{shape}' to a shape. Negative dimensions are not allowed.")
            d = int(d)
        dims.append(d)
    return tuple(dims)
