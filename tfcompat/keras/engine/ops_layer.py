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
              "Round": "round", "Reshape": "reshape", "Squeeze": "squeeze", "GetItem": None, "Equal": "equal",
              "Divide": "divide", "Maximum": "maximum", "Minimum": "minimum", "Exp": "exp", "Log": "log",
              "Sqrt": "sqrt", "Square": "square", "Tanh": "tanh", "Relu": "relu", "Sigmoid": "sigmoid",
              "Silu": "silu"}
# ops whose Keras config is their name alone, by the Keras module defining them: what a saved config can hold
_SERIALIZABLE = {**dict.fromkeys(("Add", "Subtract", "Multiply", "Matmul", "TrueDivide", "Divide", "FloorDivide",
                                  "Mod", "Power", "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "Less",
                                  "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "Negative",
                                  "Absolute", "Maximum", "Minimum", "Exp", "Log", "Sqrt", "Square", "Tanh"),
                                 "keras.src.ops.numpy"),
                 **dict.fromkeys(("Relu", "Sigmoid", "Silu"), "keras.src.ops.nn")}


# ops whose two operands broadcast elementwise (Keras checks their shapes with `broadcast_shapes`)
_ELEMENTWISE = {"Add", "Subtract", "Multiply", "TrueDivide", "Divide", "FloorDivide", "Mod", "Power", "Maximum",
                "Minimum", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
                "LogicalOr", "LogicalXor"}


def _static_shape(x):
    from tfcompat.keras.engine.keras_tensor import KerasTensor
    if isinstance(x, KerasTensor):
        return list(x._shape)
    shape = getattr(x, "shape", ())
    return list(shape.as_list() if hasattr(shape, "as_list") else shape)


def broadcast_shapes(shape1, shape2):
    """Keras 3's `broadcast_shapes`: an unknown dim takes the other's known one; a mismatch is its ValueError."""
    a, b = list(shape1), list(shape2)
    a = [1] * (len(b) - len(a)) + a
    b = [1] * (len(a) - len(b)) + b
    out = []
    for d1, d2 in zip(a, b):
        if d1 == 1:
            out.append(d2)
        elif d1 is None:
            out.append(None if d2 == 1 else d2)
        elif d2 == 1 or d2 is None or d2 == d1:
            out.append(d1)
        else:
            raise ValueError(f"Cannot broadcast shape, the failure dim has value {d1}, which cannot be broadcasted "
                             f"to {d2}. Input shapes are: {list(shape1)} and {list(shape2)}.")
    return out


def _broadcast_operands(args):
    """id -> (shape, rank offset) each KerasTensor operand is inferred with: its unknown dims known where the other's
    are, aligned right with the broadcast shape (so unknown dims meeting each other get one placeholder size)."""
    from tfcompat.keras.engine.keras_tensor import KerasTensor
    s1, s2 = (_static_shape(a) for a in args)
    out = broadcast_shapes(s1, s2)
    shapes = {}
    for x, s in zip(args, (s1, s2)):
        if isinstance(x, KerasTensor):
            tail = out[len(out) - len(s):] if s else []
            shapes[id(x)] = (tuple(t if d is None and t is not None and t != 1 else d for d, t in zip(s, tail)),
                             len(out) - len(s))
    return shapes


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
            shapes = _broadcast_operands(args) if type(self).__name__ in _ELEMENTWISE and len(args) == 2 else None
            return symbolic_call(self, args, kwargs, shapes)
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

    def get_config(self):
        return {"name": self.name}

    def keras_config(self, nodes):
        """The op's entry in a functional model's config, as Keras 3 writes it (before `name`/`inbound_nodes`)."""
        name = type(self).__name__
        module = _SERIALIZABLE.get(name)
        if module is None or any(node.kwargs for node in nodes):
            raise NotImplementedError(f"tfcompat cannot save the Keras op '{self.name}' ({name}) of a functional "
                                      f"model: only ops whose config is their name alone are saved ("
                                      f"{', '.join(sorted(_SERIALIZABLE))}, called without keyword arguments)")
        return {"module": module, "class_name": name, "config": {"name": self.name}, "registered_name": name}

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


def saved_operation(module, name):
    """The op class a saved config names (`keras.src.ops.numpy` / `Add`), or None."""
    return operation(name) if _SERIALIZABLE.get(name) == module else None
