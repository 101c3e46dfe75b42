"""Functional models: a graph of layer calls between `keras.Input`s and output KerasTensors."""
import numpy as np

from tfcompat.framework.tensor import EagerTensor, storage
from tfcompat.keras.engine import naming
from tfcompat.keras.engine.functional import run_graph, topological_nodes
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.engine.ops_layer import is_operation
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_layer import InputLayer
from tfcompat.keras.models.model import Model
from tfcompat.util import nest


def _output_paths(struct, prefix=()):
    """(path, leaf) pairs of an outputs structure, dict keys sorted (Keras's `tree.flatten_with_path`)."""
    if isinstance(struct, dict):
        for k in sorted(struct):
            yield from _output_paths(struct[k], prefix + (k,))
    elif isinstance(struct, (list, tuple)):
        for i, x in enumerate(struct):
            yield from _output_paths(x, prefix + (i,))
    else:
        yield prefix, struct


def _check_connected(inputs, outputs, nodes):
    """Keras's ValueError for an output that `inputs` alone cannot compute (it needs another `Input`)."""
    computable = {id(x) for x in nest.flatten(inputs)}
    for node in nodes:
        if not isinstance(node.layer, InputLayer) and all(id(x) in computable for x in node.input_tensors):
            computable.update(id(x) for x in nest.flatten(node.outputs))
    for path, x in _output_paths(outputs):
        if isinstance(x, KerasTensor) and id(x) not in computable:
            raise ValueError(f"Output with path `{'.'.join(str(p) for p in path)}` is not connected to `inputs`")


class Functional(Model):
    """`keras.Model(inputs, outputs)`: replays the recorded layer calls in topological order."""

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        if name is None:
            name = naming.unique_name("functional" if type(self) is Functional else
                                      naming.to_snake_case(type(self).__name__))
        Layer.__init__(self, name=name, trainable=trainable, **kwargs)
        for x in nest.flatten(inputs):
            if not isinstance(x, KerasTensor):
                raise ValueError(f"All `inputs` values must be KerasTensors. Received: inputs={inputs} including "
                                 f"invalid value {x} of type {type(x)}")
        for x in nest.flatten(outputs):
            if not isinstance(x, KerasTensor):
                raise ValueError(f"All `outputs` values must be KerasTensors. Received: outputs={outputs} including "
                                 f"invalid value {x} of type {type(x)}")
        self._inputs_struct = inputs if not (isinstance(inputs, (list, tuple)) and len(inputs) == 1) else inputs[0] \
            if isinstance(inputs, list) and False else inputs
        self._outputs_struct = outputs
        self._nodes = topological_nodes(inputs, outputs)
        _check_connected(inputs, outputs, self._nodes)
        operations, nodes_by_depth = _graph_by_depth(nest.flatten(inputs), nest.flatten(outputs))
        names = [op.name for op in operations]      # Keras's map_graph: serialized nodes refer to them by name
        for n in names:
            if names.count(n) != 1:
                raise ValueError(f'The name "{n}" is used {names.count(n)} times in the model. All operation names '
                                 f'should be unique.')
        self.__dict__["_nodes_by_depth"] = nodes_by_depth
        self._tracking = False
        self.__dict__["_operations"] = operations
        self._layers.extend(op for op in operations if not is_operation(op))
        self.__dict__["_tracking"] = True
        self.built = True
        # Keras 3: the names of the layers making the outputs (a plain attribute users may read or set)
        self.__dict__["output_names"] = [kt._history[0].layer.name for kt in self.outputs]

    @property
    def operations(self):
        """Every node's layer or op (Keras 3: `layers` leaves out the ops that Python operators recorded)."""
        return list(self._operations)

    @property
    def inputs(self):
        return nest.flatten(self._inputs_struct)

    @property
    def outputs(self):
        return nest.flatten(self._outputs_struct)

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    @property
    def input_shape(self):
        """The inputs' shapes (Keras 3: a list, or the one shape of a single input)."""
        shapes = [kt._shape for kt in self.inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        shapes = [kt._shape for kt in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def __call__(self, *args, **kwargs):
        if args and not (type(args[0]) is EagerTensor and type(self._inputs_struct) is KerasTensor):
            _standardize_inputs_check(self, args[0])
        return super().__call__(*args, **kwargs)

    def call(self, inputs, training=None, mask=None, **kwargs):
        if kwargs:
            raise NotImplementedError(f"tfcompat: {type(self).__name__}.call() with context arguments "
                                      f"{sorted(kwargs)} is not supported")
        plan = self._input_plan or self._make_input_plan()
        if plan[0] is not None and type(inputs) is EagerTensor:
            t = storage(inputs)
            if t.dtype is plan[1] and t.ndim == plan[2] and t.shape in plan[3] and (
                    not t.dtype.is_floating_point or t.dtype is self._dtype_policy._compute_storage or
                    not self.autocast):       # Keras's conversions would leave it as it is
                return run_graph(self._nodes, plan[4], [inputs], self._outputs_struct, training)
        struct = self._inputs_struct
        if isinstance(struct, dict) and isinstance(inputs, dict):
            values = [inputs[k] for k in sorted(struct)]
        elif isinstance(inputs, dict) and not isinstance(struct, dict):
            # a dict keyed by the names of the model's Input layers, as Keras maps it
            names = [kt._history[0].layer.name if kt._history else kt.name for kt in nest.flatten(struct)]
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(f"Missing data for input {missing[0]!r}. You passed a data dictionary with keys "
                                 f"{sorted(inputs)}. Expected the following keys: {names}")
            values = [inputs[n] for n in names]
        elif isinstance(struct, (list, tuple)) and not isinstance(inputs, (list, tuple)) and len(struct) == 1:
            values = [inputs]
        elif isinstance(struct, KerasTensor) and isinstance(inputs, (list, tuple)) and len(inputs) == 1 and \
                hasattr(inputs[0], "shape"):
            values = [inputs[0]]        # Keras flattens `[x]` for a single Input (after its structure warning)
        else:
            values = nest.flatten(inputs) if isinstance(struct, (list, tuple, dict)) else [inputs]
        values = [self._convert_inputs(v) for v in values]
        kts = nest.flatten(struct)
        values = cast_inputs(kts, values)
        check_input_shapes(self, kts, values)
        if len(values) == 1 and type(values[0]) is EagerTensor and plan[0] is not None:
            passed = plan[3]              # this shape met the input check: the next call may skip it
            if len(passed) >= 64:
                passed.clear()
            passed.add(storage(values[0]).shape)
        values = adjust_input_ranks(kts, values, struct)
        return run_graph(self._nodes, kts, values, self._outputs_struct, training)

    _input_plan = None

    def _make_input_plan(self):
        """(Input, its torch dtype, its rank, the shapes that passed the input check, [Input]) of a model whose
        inputs are one Input (not in a list or dict), which a call on an eager tensor already of that dtype and rank
        and of a checked shape replays directly; (None,) for other models."""
        kt = self._inputs_struct
        plan = (None,)
        if type(kt) is KerasTensor and not kt.sparse and not getattr(kt, "ragged", False):
            try:
                plan = (kt, kt._dtype.torch_dtype, len(kt._shape), set(), [kt])
            except NotImplementedError:         # tf.string inputs: always converted
                pass
        self.__dict__["_input_plan"] = plan
        return plan

def _shape_of(x):
    return tuple(x.shape) if hasattr(x, "shape") else None


def _lists_to_tuples(x):
    if isinstance(x, (list, tuple)):
        return tuple(_lists_to_tuples(v) for v in x)
    if isinstance(x, dict):
        return {k: _lists_to_tuples(v) for k, v in x.items()}
    return x


def _same_structure(a, b):
    """Keras's `tree.assert_same_structure` (lists already made tuples; None is a leaf)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b) and \
            all(_same_structure(a[k], b[k]) for k in a)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(_same_structure(x, y) for x, y in zip(a, b))
    return True


def _struct_text(struct, leaf):
    if isinstance(struct, dict):
        return {k: _struct_text(v, leaf) for k, v in struct.items()}
    if isinstance(struct, (list, tuple)):
        return type(struct)(_struct_text(v, leaf) for v in struct)
    return "None" if struct is None else leaf(struct)


def _standardize_inputs_check(model, inputs):
    """What Keras 3 checks of a functional model's call arguments before running the graph: its input spec's count
    (as many inputs as Inputs, the named message), then `_standardize_inputs`: an input structure other than the
    model's is a UserWarning ("The structure of `inputs` doesn't match the expected structure"), or a ValueError
    with that text where Keras cannot reconcile it (a dict missing keys; a list for a dict of unsorted keys)."""
    import warnings
    from tfcompat.framework.tensor import Tensor
    from tfcompat.framework.variables import Variable
    struct = model._inputs_struct
    leaves = nest.flatten(inputs)
    if any(isinstance(x, KerasTensor) for x in leaves):
        return
    kts = nest.flatten(struct)
    flat_dict = isinstance(struct, dict) and all(isinstance(v, KerasTensor) for v in struct.values())
    names = None
    if flat_dict or not isinstance(struct, dict):
        names = sorted(struct) if flat_dict else [kt._history[0].layer.name if kt._history else kt.name for kt in kts]
    if names is not None and isinstance(inputs, dict):
        for n in names:
            if n not in inputs:
                e = ValueError(f'Missing data for input "{n}". You passed a data dictionary with keys '
                               f"{list(inputs)}. Expected the following keys: {names}")
                e._keras_input_spec_of = model
                raise e
    elif names is not None and len(leaves) != len(kts):
        e = ValueError(f'Layer "{model.name}" expects {len(kts)} named input(s) with keys {names}, but it received '
                       f"{len(leaves)} input tensors. Pass inputs as a dict, e.g. `layer({{"
                       + ", ".join(f"'{n}': ..." for n in names) + "})`.")
        e._keras_input_spec_of = model
        raise e
    raise_exception = False
    if isinstance(struct, list) and len(struct) == 1 and isinstance(inputs, (Tensor, Variable)):
        inputs = [inputs]
    elif isinstance(inputs, dict) and not isinstance(struct, dict):
        if isinstance(struct, (list, tuple)) and all(isinstance(kt, KerasTensor) for kt in struct):
            if {kt.name for kt in struct} <= set(inputs):
                inputs = [inputs[kt.name] for kt in struct]
            else:
                raise_exception = True
        elif isinstance(struct, KerasTensor):
            if struct.name in inputs:
                inputs = [inputs[struct.name]]
            else:
                raise_exception = True
        else:
            raise_exception = True
    if isinstance(struct, dict) and not isinstance(inputs, dict) and list(struct) != sorted(struct):
        raise_exception = True
    if _same_structure(_lists_to_tuples(inputs), _lists_to_tuples(struct)) and not raise_exception:
        return
    msg = (f"The structure of `inputs` doesn't match the expected structure.\n"
           f"Expected: {_struct_text(struct, lambda kt: kt.name)}\n"
           f"Received: inputs={_struct_text(inputs, lambda x: f'Tensor(shape={x.shape})')}")
    if raise_exception:
        e = ValueError(msg)
        e._keras_input_spec_of = model
        raise e
    warnings.warn(msg)


def check_input_shapes(model, kts, values):
    """Keras 3's input-spec check of a functional model: every known dim of each input (a trailing 1 of
    either side ignored) must match. Raised as is (Keras checks before `call`, so it carries no call info)."""
    for i, (kt, x) in enumerate(zip(kts, values)):
        shape = _shape_of(x)
        if shape is None:
            continue
        want = (None,) + tuple(kt._shape[1:])
        got_s = shape[:-1] if shape and shape[-1] == 1 else shape
        want_s = want[:-1] if want and want[-1] == 1 else want
        if any(w is not None and g is not None and w != g for w, g in zip(want_s, got_s)):
            name = kt._history[0].layer.name if kt._history else kt.name
            e = ValueError(f"Input {i} with name '{name}' of layer '{model.name}' is incompatible with the layer: "
                           f"expected shape={want}, found shape={got_s}")
            e._keras_input_spec_of = model
            raise e


def cast_inputs(kts, values):
    """Keras 3's `_convert_inputs_to_tensors`: each input becomes a tensor of its `Input`'s dtype (uint8 images
    reach a float32 model as float32, so gradients flow)."""
    from tfcompat.framework.convert import convert_to_tensor
    from tfcompat.framework.sparse import SparseTensor
    from tfcompat.framework.tensor import Tensor
    from tfcompat.ops.math_ops import cast
    out = []
    for kt, x in zip(kts, values):
        if isinstance(x, np.ndarray):
            x = convert_to_tensor(x)
        if isinstance(x, Tensor) and x.dtype != kt._dtype and "string" not in (x.dtype.name, kt.dtype):
            x = cast(x, kt._dtype)
        elif isinstance(x, SparseTensor) and x.dtype != kt._dtype and "string" not in (x.dtype.name, kt.dtype):
            x = SparseTensor(x.indices, cast(x.values, kt._dtype), x.dense_shape)
        out.append(x)
    return out


def adjust_input_ranks(kts, values, struct):
    """Keras 3's `_adjust_input_rank`: an input one rank above its `Input` loses a trailing 1, one rank below
    gains one when the `Input` ends in 1; any other rank is a ValueError naming the input and its path."""
    out = []
    for i, (kt, x) in enumerate(zip(kts, values)):
        shape = _shape_of(x)
        ref = kt._shape
        if shape is None or len(shape) == len(ref):
            out.append(x)
        elif len(shape) == len(ref) + 1 and shape[-1] == 1:
            out.append(_squeeze_last(x))
        elif len(shape) == len(ref) - 1 and ref[-1] == 1:
            out.append(_expand_last(x))
        else:
            path = str(i) if isinstance(struct, (list, tuple)) else sorted(struct)[i] if isinstance(struct, dict) \
                else ""
            raise ValueError(f"Invalid input shape for input {x} with name '{kt.name}' and path '{path}'. Expected "
                             f"shape {tuple(ref)}, but input has incompatible shape {shape}")
    return out


def _squeeze_last(x):
    from tfcompat.ops.array_ops import squeeze
    return squeeze(x, axis=-1)


def _expand_last(x):
    from tfcompat.ops.array_ops import expand_dims
    return expand_dims(x, -1)


def _graph_by_depth(inputs, outputs):
    """The graph's layers and ops in Keras 3's order (`map_graph`): by depth below the outputs, deepest first;
    layers at one depth in the order a depth-first walk from the outputs first reaches them. Also the graph's
    nodes grouped by depth (what `summary()` reads to tell a chain from a graph)."""
    input_ids = {id(kt) for kt in inputs}
    order, first_seen, in_graph = [], {}, set()      # nodes from inputs to outputs; layer -> DFS index

    def visit(kt):
        node = kt._history[0] if kt._history else None
        if node is None or id(node) in in_graph:
            return
        is_input = is_input_layer(node.layer)
        if id(kt) in input_ids and not is_input:      # an intermediate tensor used as an input: outside the graph
            return
        first_seen.setdefault(id(node.layer), len(first_seen))
        if not is_input:
            for x in node.input_tensors:
                visit(x)
        in_graph.add(id(node))
        order.append(node)

    for kt in outputs:
        visit(kt)
    node_depth, layer_depth, layers = {}, {}, {}
    for node in reversed(order):                      # consumers before producers
        depth = max(node_depth.get(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)] = node_depth[id(node)] = depth
        layers[id(node.layer)] = node.layer
        for kt in node.input_tensors:
            parent = kt._history[0] if kt._history else None
            if parent is not None and id(parent) in in_graph:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    for kt in inputs:                                 # Input layers no output depends on
        layer = kt._history[0].layer if kt._history else None
        if layer is not None and id(layer) not in layers and is_input_layer(layer):
            layers[id(layer)], layer_depth[id(layer)], first_seen[id(layer)] = layer, 0, -1
    by_depth = {}
    for node in order:
        by_depth.setdefault(node_depth[id(node)], []).append(node)
    return (sorted(layers.values(), key=lambda layer: (-layer_depth[id(layer)], first_seen[id(layer)])),
            [by_depth[d] for d in sorted(by_depth, reverse=True)])


def is_input_layer(layer):
    return isinstance(layer, InputLayer)
