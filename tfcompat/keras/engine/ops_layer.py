"""Keras 3 operations (`Add`, `GetItem`, ...): what Python operators on KerasTensors record in a functional graph.

An operation is a graph node but not a layer: Keras 3 lists it in `model.operations` and in `summary()`, not in
`model.layers`. On concrete tensors it runs the `keras.ops` function of its name (Keras's dtype promotion).
"""
from tfcompat.keras.layers.base import Layer
from tfcompat.util import nest


def _get_item(x, key):
    return x[key]


# Keras op class -> the keras.ops function it applies
_FUNCTIONS = {"Add": "add", "Subtract": "subtract", "Multiply": "multiply", "Matmul": "matmul",
              "TrueDivide": "true_divide", "FloorDivide": "floor_divide", "Mod": "mod", "Power": "power",
              "LogicalAnd": "logical_and", "LogicalOr": "logical_or", "LogicalXor": "logical_xor", "Less": "less",
              "LessEqual": "less_equal", "Greater": "greater", "GreaterEqual": "greater_equal",
              "NotEqual": "not_equal", "Negative": "negative", "Absolute": "abs", "LogicalNot": "logical_not",
              "Round": "round", "Reshape": "reshape", "Squeeze": "squeeze", "GetItem": None}


class Operation(Layer):
    """A Keras op applied to its arguments; called with a KerasTensor among them, it records a graph node."""

    _function = None

    def __init__(self, name=None):
        super().__init__(name=name)
        self.built = True

    def __call__(self, *args, **kwargs):
        from tfcompat.keras.engine.functional import symbolic_call
        from tfcompat.keras.engine.keras_tensor import KerasTensor
        if any(isinstance(x, KerasTensor) for x in nest.flatten((args, kwargs))):
            return symbolic_call(self, args, kwargs)
        return self.call(*args, **kwargs)

    def call(self, *args, **kwargs):
        function = self._function
        if function is None:
            return _get_item(*args, **kwargs)
        if isinstance(function, str):
            from tfcompat.keras import ops
            function = getattr(ops, function)
        return function(*args, **kwargs)

    def count_params(self):
        return 0

    def __repr__(self):
        return f"<Operation name={self.name}>"


_CLASSES = {}


def operation(name, function=None):
    """The Operation subclass Keras 3 names `name` (one class per op, so summaries print `add (Add)`); it applies
    `function`, by default the `keras.ops` function Keras's op of that name computes."""
    cls = _CLASSES.get(name)
    if cls is None:
        function = _FUNCTIONS[name] if function is None else staticmethod(function)
        cls = _CLASSES[name] = type(name, (Operation,), {"_function": function})
    return cls


def is_operation(layer):
    return isinstance(layer, Operation)
