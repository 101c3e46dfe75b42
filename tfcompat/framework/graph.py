"""TF1 graphs: `tf.Graph`, its symbolic tensors and operations (deferred op calls), and running them (`run_graph`).

Inside `Graph.as_default()` ops taking a graph tensor do not run: they record a node (`deferred`), elementwise ops and
the tensor operators through `op_def.COMPOSITE_ELEMENTWISE` (eager calls pay nothing), other public ops through the
wrappers compat/v1/graph_ops.py installs; an op reached otherwise refuses a graph tensor with NotImplementedError.
`Session.run` (compat/v1/session.py) evaluates the nodes its fetches depend on, once each (`run_graph`).
"""
import contextlib

import numpy as np

from tfcompat.framework import convert, errors, graph_state, op_def
from tfcompat.framework.context import state as eager_state
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import EagerTensor
from tfcompat.framework.tensor_shape import TensorShape


class GraphArgumentError(NotImplementedError, TypeError):
    """An op that tfcompat's graph mode does not defer got a graph tensor (a TypeError, so that elementwise ops
    dispatch it to a graph node instead)."""


def refuse(x):
    raise GraphArgumentError(f"{x!r}: tfcompat's TF1 graph mode defers public tf ops and tensor operators; this call "
                             "does not take a graph tensor")


@tf_export("Graph", partial="no GraphDef, graph control flow or ops with several outputs; unnamed ops have no name")
class Graph:
    """A TF1 dataflow graph: the ops built under `as_default()`, their names and collections."""

    def __init__(self):
        graph_state.graph_made()
        self._names = {}            # lowercased name -> times used (TF's unique_name)
        self._by_name = {}          # op name -> Operation
        self._collections = {}      # collection key -> list
        self.variable_store = {}    # get_variable full name -> variable
        self._finalized = False
        self._control = []          # `control_dependencies` scopes: lists of ops new ops run after

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops made inside run after `control_inputs` (None: after nothing, as TF clears the enclosing scopes)."""
        saved = self._control
        self._control = [] if control_inputs is None else saved + [
            x.op if isinstance(x, SymbolicTensor) else x for x in control_inputs]
        try:
            yield
        finally:
            self._control = saved

    @contextlib.contextmanager
    def as_default(self):
        """Makes this the graph new ops and variables go to."""
        graph_state.state.graphs.append(self)
        try:
            yield self
        finally:
            graph_state.state.graphs.pop()

    def unique_name(self, name, mark_as_used=True):
        """`name`, or `name_N` for the first N that is free (case-insensitively), as TF names ops."""
        key = name.lower()
        i = self._names.get(key, 0)
        if mark_as_used:
            self._names[key] = i + 1
        if i > 0:
            base = key
            while key in self._names:
                key = f"{base}_{i}"
                i += 1
            if mark_as_used:
                self._names[key] = 1
            name = f"{name}_{i - 1}"
        return name

    def _add(self, op):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        self._by_name[op.name] = op
        return op

    def finalize(self):
        self._finalized = True

    @property
    def finalized(self):
        return self._finalized

    def get_operations(self):
        return list(self._by_name.values())

    def get_operation_by_name(self, name):
        if name not in self._by_name:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return self._by_name[name]

    def get_tensor_by_name(self, name):
        op_name, _, index = name.partition(":")
        if not index:
            raise ValueError(f"The name {name!r} looks a like an Operation name, not a Tensor name (no ':<output "
                             "index>' suffix).")
        op = self._by_name.get(op_name)
        if op is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, {op_name!r}, "
                           "does not exist in the graph.")
        if index != "0" or op.output is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, {op_name!r}, "
                           f"exists but only has {0 if op.output is None else 1} outputs.")
        return op.output

    def get_collection(self, name, scope=None):
        items = self._collections.get(name, [])
        return [v for v in items if scope is None or getattr(v, "name", "").startswith(scope)]

    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def get_all_collection_keys(self):
        return list(self._collections)

    @property
    def building_function(self):
        return False


class Operation:
    """A graph node: `fn(session, *input values)` computes its output (None for ops without one)."""

    def __init__(self, graph, name, op_type, fn, inputs=(), output_spec=None):
        self.graph, self.type, self._fn, self.inputs = graph, op_type, fn, tuple(inputs)
        self.control_inputs = tuple(graph._control)
        # a name ending in "/" (a name scope's) is taken as it is, as TF takes it
        self.name = None if name is None else name[:-1] if name.endswith("/") else graph.unique_name(name)
        self.output = SymbolicTensor(self, *output_spec) if output_spec is not None else None
        if self.name is not None:
            graph._add(self)

    def run(self, feed_dict=None, session=None):
        _session(session).run(self, feed_dict)

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


class SymbolicTensor:
    """The output of an `Operation` (TF's `SymbolicTensor`): known dtype and shape where the op fixes them."""

    def __init__(self, op, dtype=None, shape=None):
        self.op, self._dtype, self._shape = op, dtype, shape

    @property
    def graph(self):
        return self.op.graph

    @property
    def name(self):
        if self.op.name is None:
            raise NotImplementedError("tfcompat's TF1 graph mode does not name the outputs of deferred ops")
        return self.op.name + ":0"

    @property
    def dtype(self):
        return self._spec()[0]

    @property
    def shape(self):
        return self._spec()[1]

    def get_shape(self):
        return self.shape

    def _spec(self):
        if self._dtype is None:
            self._dtype, self._shape = _infer(self.op)
        return self._dtype, self._shape

    def eval(self, feed_dict=None, session=None):
        return _session(session).run(self, feed_dict)

    def numpy(self):
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    def __tf_tensor__(self, dtype=None, name=None):
        refuse(self)

    def __bool__(self):
        raise TypeError("Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the "
                        "following resolutions to the problem: If you are running in Graph mode, use Eager execution "
                        "mode or decorate this function with @tf.function.")

    def __str__(self):
        name = f'"{self.name}", ' if self.op.name else ""
        return f"Tensor({name}shape={self.shape}, dtype={self.dtype.name})"

    def __repr__(self):
        name = f" '{self.name}'" if self.op.name else ""
        return f"<tf.Tensor{name} shape={self.shape} dtype={self.dtype.name}>"


def _infer(op):
    """(dtype, shape) of a deferred op's output: the op run on zeros of its inputs' shapes, twice when some input
    dimension is unknown (as 2, then 3): output dimensions that differ between the runs are unknown."""
    runs = [_run_on_zeros(op, 2)]
    if any(not x.shape.is_fully_defined() for x in op.inputs if isinstance(x, SymbolicTensor) or getattr(
            x, "_graph_variable", False)):
        runs.append(_run_on_zeros(op, 3))
    dtype, shape = runs[0]
    if len(runs) > 1:
        other = runs[1][1]
        shape = TensorShape(None) if len(shape) != len(other) else TensorShape(
            [a if a == b else None for a, b in zip(shape, other)])
    return dtype, TensorShape(shape)


def _run_on_zeros(op, unknown):
    values = []
    for x in op.inputs:
        if isinstance(x, SymbolicTensor) or getattr(x, "_graph_variable", False):
            dtype, shape = x.dtype, x.shape
            if shape.rank is None:
                raise NotImplementedError("tfcompat's TF1 graph mode: the shape of an op on an input of unknown rank")
            dims = [unknown if d is None else d for d in shape.as_list()]
            values.append(convert.convert_to_tensor(np.zeros(dims, dtype.as_numpy_dtype), dtype=dtype))
        else:
            values.append(x)
    with _eagerly():
        out = op._fn(None, *values)
    if not isinstance(out, EagerTensor):
        raise NotImplementedError(f"tfcompat's TF1 graph mode: {op.type} does not give one tensor")
    return out.dtype, tuple(out.shape)


@contextlib.contextmanager
def _eagerly():
    saved = graph_state.state.graphs
    graph_state.state.graphs = []
    try:
        yield
    finally:
        graph_state.state.graphs = saved


def is_graph_value(x):
    """True for graph tensors, graph variables and operations (what a session evaluates)."""
    return isinstance(x, (SymbolicTensor, Operation)) or getattr(x, "_graph_variable", False)


def graph_of(values):
    for x in values:
        if isinstance(x, SymbolicTensor):
            return x.graph
        if getattr(x, "_graph_variable", False):
            return x.graph
    return None


# TF's default node names (checked against TF 2.21) of the tensor operators and of the public ops, by the operator's
# dunder (stripped) and by the op function's name; ops left out stay unnamed (their `name` raises NotImplementedError)
_OPERATOR_NAMES = {
    "add": "add", "radd": "add", "sub": "sub", "rsub": "sub", "mul": "mul", "rmul": "mul", "truediv": "truediv",
    "rtruediv": "truediv", "floordiv": "floordiv", "rfloordiv": "floordiv", "mod": "mod", "rmod": "mod", "pow": "pow",
    "rpow": "pow", "matmul": "matmul", "rmatmul": "matmul", "neg": "Neg", "abs": "Abs", "getitem": "strided_slice",
    "gt": "Greater", "lt": "Less", "ge": "GreaterEqual", "le": "LessEqual"}
_OP_NAMES = {
    "constant": "Const", "zeros": "zeros", "ones": "ones", "add": "Add", "multiply": "Mul", "subtract": "Sub", "divide": "truediv", "matmul": "MatMul",
    "reduce_mean": "Mean", "reduce_sum": "Sum", "reduce_max": "Max", "reduce_min": "Min", "reduce_prod": "Prod",
    "relu": "Relu", "sigmoid": "Sigmoid", "square": "Square", "reshape": "Reshape", "cast": "Cast",
    "softmax": "Softmax", "exp": "Exp", "log": "Log", "argmax": "ArgMax", "argmin": "ArgMin",
    "transpose": "transpose", "concat": "concat", "ones_like": "ones_like", "zeros_like": "zeros_like",
    "sqrt": "Sqrt", "maximum": "Maximum", "minimum": "Minimum", "equal": "Equal", "greater": "Greater",
    "less": "Less", "tanh": "Tanh", "abs": "Abs", "negative": "Neg", "pow": "Pow", "identity": "Identity",
    "sigmoid_cross_entropy_with_logits": "logistic_loss", "clip_by_value": "clip_by_value",
    "expand_dims": "ExpandDims", "squeeze": "Squeeze", "stack": "stack", "gather": "GatherV2", "where": "SelectV2"}
# reductions over all axes: TF adds a top-level `Const` node of the axes first (its name is taken)
_ALL_AXES_CONST = {"reduce_mean", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
                   "reduce_all", "reduce_logsumexp"}


def deferred(fn, inputs, op_type):
    """The output tensor of a node calling `fn(*inputs)` (the eager op) when a session runs it."""
    graph = graph_of(inputs)
    return Operation(graph, scoped(_OPERATOR_NAMES.get(op_type)), op_type, lambda session, *values: fn(*values),
                     inputs, output_spec=()).output


def _elementwise(f, *operands):
    """op_def's composite hook: an elementwise op on a graph tensor becomes a node running `f` on the values."""
    return deferred(f, operands, getattr(f, "op_name", f.__name__))


op_def.COMPOSITE_ELEMENTWISE[SymbolicTensor] = _elementwise

_OPERATORS = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
              "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__",
              "__rmatmul__", "__neg__", "__abs__", "__invert__", "__and__", "__rand__", "__or__", "__ror__",
              "__xor__", "__rxor__", "__lt__", "__le__", "__gt__", "__ge__", "__getitem__")


def add_operators(cls):
    """Gives `cls` the tensor operators as deferred nodes running `EagerTensor`'s operator on the values."""
    for dunder in _OPERATORS:
        def method(self, *args, _dunder=dunder):
            return deferred(getattr(EagerTensor, _dunder), (self,) + args, _dunder.strip("_"))
        method.__name__ = dunder
        setattr(cls, dunder, method)
    return cls


add_operators(SymbolicTensor)


def _session(session):
    session = session if session is not None else graph_state.default_session()
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use `with "
                         "sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    return session


def run_graph(targets, session, feeds):
    """Evaluates graph values `targets` (each node once, inputs first); returns {id(node): value}."""
    saved, graph_state.state.feeds = graph_state.state.feeds, feeds
    try:
        with _eagerly():
            return _run(targets, session, dict(feeds))
    finally:
        graph_state.state.feeds = saved


def evaluate_in_run(targets, session, seeds=None):
    """The values of `targets` computed afresh inside the session run in progress (its feeds; `seeds`, by id,
    replacing values): what a gradients node re-runs under a tape."""
    memo = dict(graph_state.state.feeds)
    memo.update(seeds or {})
    memo = _run(list(targets), session, memo)
    return [memo[id(t)] if is_graph_value(t) else t for t in targets]


def _run(targets, session, memo):
    stack = list(targets)
    while stack:
        node = stack[-1]
        if id(node) in memo:
            stack.pop()
            continue
        op = None if getattr(node, "_graph_variable", False) else node.op if isinstance(node, SymbolicTensor) else node
        inputs = () if op is None else op.inputs
        todo = [x for x in inputs + (() if op is None else op.control_inputs) if is_graph_value(x) and id(x) not in memo]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        if op is None:
            memo[id(node)] = session.read(node)
            continue
        value = op._fn(session, *(memo[id(x)] if is_graph_value(x) else x for x in inputs))
        memo[id(op)] = value
        if op.output is not None:
            memo[id(op.output)] = value
    return memo


def feed_value(tensor, value):
    """A feed for `tensor` as TF's Session converts it: to the tensor's dtype, its shape checked."""
    dtype = tensor.dtype
    array = np.asarray(value, dtype=dtype.as_numpy_dtype)
    if not TensorShape(tensor._shape).is_compatible_with(array.shape):
        raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor {tensor.name}, which has shape "
                         f"{tensor.shape}")
    return convert.convert_to_tensor(array, dtype=dtype)


_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def tf_type_name(dtype):
    """TF's C++ name of `dtype` (DataTypeString: float, double, int32, ...), as its kernels' messages print it."""
    return _TF_TYPE_NAMES.get(dtype.name, dtype.name)


def placeholder(graph, dtype, shape, name):
    """A graph input: its value comes from `feed_dict`, else running it raises TF's InvalidArgumentError."""
    shape = TensorShape(shape)

    def unfed(session):
        text = "" if shape.rank is None else " and shape [" + ",".join(
            "?" if d is None else str(d) for d in shape.as_list()) + "]"
        raise errors.InvalidArgumentError(None, None, f"You must feed a value for placeholder tensor '{op.name}' "
                                                      f"with dtype {tf_type_name(dtype)}{text}")
    op = Operation(graph, scoped(name or "Placeholder"), "Placeholder", unfed, output_spec=(dtype, shape))
    return op.output


def no_op(graph, name, inputs, fn=None):
    """An operation without output running `fn(session)` (or nothing) after its inputs."""
    return Operation(graph, name, "NoOp", (lambda session, *v: fn(session)) if fn else (lambda session, *v: None),
                     inputs)


def _leaves(structure):
    """The values inside nested lists, tuples and dicts (an op's arguments), depth first."""
    if isinstance(structure, (list, tuple)):
        for x in structure:
            yield from _leaves(x)
    elif isinstance(structure, dict):
        for x in structure.values():
            yield from _leaves(x)
    else:
        yield structure


def _substitute(structure, values):
    """`structure` with each graph value replaced by the next of `values` (the order of `_leaves`)."""
    if isinstance(structure, (list, tuple)):
        items = [_substitute(x, values) for x in structure]
        return items if isinstance(structure, list) else type(structure)(*items) if hasattr(
            structure, "_fields") else tuple(items)
    if isinstance(structure, dict):
        return {k: _substitute(x, values) for k, x in structure.items()}
    return next(values) if is_graph_value(structure) else structure


def scoped(name):
    """`name` inside the current name scope (None stays None), as TF names graph ops."""
    scope = "/".join(s for s in eager_state.name_scope if s)
    return f"{scope}/{name}" if scope and name is not None else name


def has_graph_value(args, kwargs):
    return any(is_graph_value(x) for x in _leaves((args, kwargs)))


def deferred_call(fn, args, kwargs, op_type):
    """The output of a node calling `fn(*args, **kwargs)` when a session runs it, graph values replaced by theirs
    (TF's graph op); `name=` names it as TF does (inside the current name scope)."""
    inputs = [x for x in _leaves((args, kwargs)) if is_graph_value(x)]
    graph = graph_of(inputs) or graph_state.default_graph()
    if op_type in _ALL_AXES_CONST and kwargs.get("axis", args[1] if len(args) > 1 else None) is None:
        graph.unique_name("Const")
    name = scoped(kwargs.get("name") or _OP_NAMES.get(op_type))

    def run(session, *values):
        a, k = _substitute((args, kwargs), iter(values))
        return fn(*a, **k)
    return Operation(graph, name, op_type, run, inputs, output_spec=()).output
