"""The functional API: layer calls on KerasTensors record Nodes; `Functional` replays them in order.

Output shapes are inferred by running the layer on placeholder zeros (no
tape, no state updates, `training=False`), twice when some dims are unknown:
a dim that changes between the two runs is unknown (None) in the output.
An unknown batch dim is 2 then 3; other unknown dims are 32 then 48, long
enough for any usual kernel, stride or pool to leave a dim that differs.
"""
import itertools

import numpy as np
import torch

from tfcompat.eager.function._host import quiet
from tfcompat.eager.tape import pause_recording
from tfcompat.framework import dtypes, errors
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import EagerTensor, Tensor, _wrap, storage
from tfcompat.keras.engine import call_context, naming
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.util import nest


class Node:
    """One call of `layer` on symbolic inputs (`args`, `kwargs` hold KerasTensors), producing `outputs`."""

    def __init__(self, layer, args, kwargs, outputs):
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        self.input_tensors = [x for x in nest.flatten((args, kwargs)) if isinstance(x, KerasTensor)]
        # the one KerasTensor of a call `layer(x)` (no other argument): replayed without walking structures
        self.single_input = args[0] if len(args) == 1 and type(args[0]) is KerasTensor and not kwargs else None
        layer.__dict__.setdefault("_inbound_nodes", []).append(self)

    single_input = None
    takes_training = None       # whether `layer.call` takes `training` (found on the first replay)

    def __repr__(self):
        return f"<Node operation={self.layer.name}, id={id(self)}>"

    def unpacked_inputs(self):
        """Keras 3's `layer.input`: the one input KerasTensor, or the list of them."""
        return self.input_tensors[0] if len(self.input_tensors) == 1 else list(self.input_tensors)

    def unpacked_outputs(self):
        """Keras 3's `layer.output`: the one output KerasTensor, or the flat list of them."""
        outputs = nest.flatten(self.outputs)
        return outputs[0] if len(outputs) == 1 else outputs


_SIZES = ((2, 32), (3, 48))     # (batch, other) sizes of unknown dims in the two shape-inference runs


def _concrete_shape(shape, sizes, offset=0):
    """`shape` with unknown dims filled in: the batch size on axis 0 (of a shape aligned `offset` axes right)."""
    return [(sizes[0] if i + offset == 0 else sizes[1]) if d is None else d for i, d in enumerate(shape)]


def _placeholder(kt, sizes, shapes, keras_shape=None):
    """Zeros standing for KerasTensor `kt` (unknown dims of `sizes`); with `keras_shape` (the call's placeholder count)
    a SymbolicTensor showing the KerasTensor's shape (None for the unknown dims)."""
    symbolic_shape, offset = shapes.get(id(kt), (kt._shape, 0))
    shape = _concrete_shape(symbolic_shape, sizes, offset)
    if kt.sparse:       # an all-zero SparseTensor of the shape
        return SparseTensor(torch.zeros((0, len(shape)), dtype=torch.int64),
                            _wrap(torch.zeros((0,), dtype=kt._dtype.torch_dtype)), shape)
    value = np.full(shape, b"", dtype=object) if kt._dtype is dtypes.string else \
        torch.zeros(shape, dtype=kt._dtype.torch_dtype)
    if keras_shape is None:
        return _wrap(value)
    from tfcompat.keras.engine.symbolic_tensor import symbolic
    return symbolic(value, symbolic_shape, next(keras_shape))


def _run_on_placeholders(layer, args, kwargs, sizes, shapes, masks=None):
    """The layer's outputs on placeholders (of `shapes[id(kt)]` where given, see `symbolic_call`, else of each
    KerasTensor's shape); `masks` (if given) gets id(placeholder mask) -> (that tensor, the input KerasTensor's
    mask), so that a mask the layer passes through keeps its KerasTensor. A kernel error is Keras's ValueError of a
    symbolic call."""
    from tfcompat.keras.layers.base import _set_mask
    # user code (a layer class of the program's own) sees Keras's symbolic shapes; tfcompat's layers, which compute
    # with their inputs' sizes, see the stand-in's
    keras_shape = None if type(layer).__module__.startswith("tfcompat.") else itertools.count()

    def sub(x):
        if not isinstance(x, KerasTensor):
            return x
        p = _placeholder(x, sizes, shapes, keras_shape)
        mask = getattr(x, "_keras_mask", None)
        if mask is not None:        # a masked KerasTensor: the layer sees a mask (all steps kept), as in Keras
            m = _wrap(torch.ones(_concrete_shape(mask._shape, sizes), dtype=torch.bool))
            _set_mask(p, m)
            if masks is not None:
                masks[id(m)] = (m, mask)
        return p
    args_v = nest.map_structure(sub, args)
    kwargs_v = nest.map_structure(sub, kwargs)
    if keras_shape is None and _accepts_training(layer) and not _is_model(layer):
        kwargs_v.setdefault("training", False)      # tfcompat's layers: inference (user code sees Keras's None)
    variables = _state_of(layer)                # Keras's symbolic call assigns no variable
    values = [storage(v) for v in variables]
    try:
        with pause_recording(), call_context.symbolic_scope():
            return layer(*args_v, **kwargs_v)
    except (RuntimeError, errors.InvalidArgumentError) as e:
        if isinstance(e, (NotImplementedError, RecursionError)):
            raise
        raise ValueError(str(e)) from None      # Keras infers shapes symbolically: TF's graph shape errors
    finally:
        for v, t in zip(variables, values):
            v._set_storage(t)


def _unknown_batch_in_build_shapes(layers):
    """Sublayers first built by a symbolic call saw the placeholder batch size: as in Keras (which builds them on
    symbolic tensors), the shape they record (summary, build config) has an unknown batch dim."""
    batch = _SIZES[0][0]

    def unknown_batch(shape):
        if isinstance(shape, tuple) and shape and all(d is None or isinstance(d, int) for d in shape):
            return (None,) + shape[1:] if shape[0] == batch else shape
        if isinstance(shape, list):
            return [unknown_batch(s) for s in shape]
        return shape
    for sub in layers:
        shape = sub.__dict__.get("_build_input_shape")
        if sub.built and shape is not None:
            sub.__dict__["_build_input_shape"] = unknown_batch(shape)


def _is_model(layer):
    from tfcompat.keras.models.model import Model
    return isinstance(layer, Model)


def _accepts_training(layer):
    from tfcompat.keras.layers.base import _signature_flags
    return _signature_flags(type(layer))[0]


def _has_unknown(args, kwargs):
    return any(None in x._shape for x in nest.flatten((args, kwargs)) if isinstance(x, KerasTensor))


def symbolic_call(layer, args, kwargs, operand_shapes=None):
    """`layer(*args)` on KerasTensors: build the layer, infer output specs, record a Node. `operand_shapes` can give
    the shape to infer with for some inputs (id -> (shape, axes it is aligned right by): an op's operand with its
    unknown dims broadcast)."""
    operand_shapes = operand_shapes or {}
    from tfcompat.keras.layers.base import Layer
    # Keras 3 first traces such a layer to build it (one output spec per output, each taking a name)
    traced = not layer.built and type(layer).build is Layer.build and any(not sub.built for sub in layer._layers)
    if not layer.built:
        shapes = nest.map_structure(lambda x: x._shape if isinstance(x, KerasTensor) else x, args[0])
        layer.__dict__["_build_input_shape"] = shapes
        from tfcompat.keras import variables as kvars
        from tfcompat.keras.layers.base import _in_own_scope, _null, build_for_call
        with kvars.name_scope(layer.name) if not _in_own_scope(layer) else _null():
            call_context.enter_build()
            try:
                build_for_call(layer, args, shapes)
            finally:
                call_context.exit_build()
        layer.built = True
    input_masks = {}
    unbuilt = [sub for sub in layer._flatten_layers(include_self=False) if not sub.built]
    out_a = _run_on_placeholders(layer, args, kwargs, _SIZES[0], operand_shapes, input_masks)
    if _has_unknown(args, kwargs):
        with quiet():       # Keras runs `call` once: the second size's run prints nothing
            out_b = _run_on_placeholders(layer, args, kwargs, _SIZES[1], operand_shapes)
    else:
        out_b = out_a
    first = nest.flatten(args)[0] if args else None
    if unbuilt and isinstance(first, KerasTensor) and first._shape and first._shape[0] is None:
        _unknown_batch_in_build_shapes(unbuilt)

    from tfcompat.keras.layers.base import _mask_of
    keras_spec = getattr(layer, "_keras_output_spec", None)    # a layer with Keras's own compute_output_spec

    def spec(a, b):
        sparse = isinstance(a, SparseTensor)
        if not sparse and not isinstance(a, Tensor):
            return a
        shape = tuple(da if da == db else None for da, db in zip(*((a.shape, b.shape) if sparse else
                                                                   (storage(a).shape, storage(b).shape))))
        dtype = a.dtype
        if keras_spec is not None:      # (Keras's compute_output_spec of such layers marks no output sparse)
            shape, dtype = keras_spec(args[0], shape)
            sparse = False
        kt = KerasTensor(shape, dtype=dtype, sparse=sparse)
        ma, mb = _mask_of(a), _mask_of(b)
        if ma is not None and id(ma) in input_masks:      # a mask passed through is the input's KerasTensor
            kt._keras_mask = input_masks[id(ma)][1]
        elif ma is not None and mb is not None:     # Keras 3 gives the output KerasTensor its `_keras_mask`
            mshape = tuple(da if da == db else None for da, db in zip(storage(ma).shape, storage(mb).shape))
            kt._keras_mask = KerasTensor(mshape, dtype="bool")
        return kt
    for x in nest.flatten(out_a) if traced else ():
        if isinstance(x, Tensor):
            naming.unique_name("keras_tensor")
    outputs = nest.map_structure(spec, out_a, out_b)
    node = Node(layer, args, kwargs, outputs)
    for i, kt in enumerate(nest.flatten(outputs)):
        if isinstance(kt, KerasTensor):
            kt._history = (node, i)
    return outputs


def _state_of(layer):
    """Every variable a call of `layer` could assign: its weights, and those of metrics and plain `tf.Variable`s its
    layers hold as attributes (Keras's symbolic trace assigns none of them)."""
    from tfcompat.framework.variables import Variable
    from tfcompat.keras.metrics import Metric
    found = {id(v): v for v in layer.weights}
    for sub in layer._flatten_layers():
        for value in list(sub.__dict__.values()):
            for v in (value.variables if isinstance(value, Metric) else [value]):
                if isinstance(v, Variable):
                    found.setdefault(id(v), v)
    return list(found.values())


def trace_to_build(layer, args, kwargs):
    """Keras 3's first call of a layer without its own `build` whose sublayers are unbuilt: `call` runs once
    symbolically to build them (its Python side effects, such as prints, happen twice), on zeros of the inputs'
    shapes with variable values and added losses restored; each output takes a `keras_tensor_N` name as Keras's
    output spec does. A trace that fails is dropped: the real call builds the layer. Inside a tf.function trace it
    is skipped (its ops would join the recorded program): the real call builds the layer there."""
    from tfcompat.eager.function._state import current_recorder
    if current_recorder() is not None:
        return
    variables = _state_of(layer)
    values = [storage(v) for v in variables]
    losses = [(sub, list(sub._losses)) for sub in layer._flatten_layers()]

    def zeros(x):
        if isinstance(x, Tensor) and isinstance(storage(x), torch.Tensor):
            return _wrap(torch.zeros_like(storage(x)))
        return x
    from tfcompat.keras import variables as kvars
    from tfcompat.keras.layers.base import _in_own_scope, _null
    try:
        with pause_recording(), call_context.symbolic_scope(), \
                kvars.name_scope(layer.name) if not _in_own_scope(layer) else _null():
            out = layer.call(*nest.map_structure(zeros, args), **nest.map_structure(zeros, kwargs))
    except Exception:       # noqa: BLE001 - as Keras: an eager first call builds the layer itself
        return
    finally:
        for v, t in zip(variables, values):
            v._set_storage(t)
        for sub, kept in losses:
            sub._losses[:] = kept
    for x in nest.flatten(out):
        if isinstance(x, Tensor):
            naming.unique_name("keras_tensor")


def infer_output_shape(layer, input_shape):
    """The output shape(s) of `layer` for `input_shape` (or a list of shapes), from a symbolic call."""
    is_shape = isinstance(input_shape, (tuple, list)) and all(d is None or isinstance(d, int) for d in input_shape)
    inputs = _inference_input(input_shape) if is_shape else [_inference_input(s) for s in input_shape]
    out = _call_on_placeholders(layer, (inputs,), {})
    return nest.map_structure(lambda t: t._shape if isinstance(t, KerasTensor) else t, out)


def infer_output_spec(layer, args, kwargs):
    """Keras's `compute_output_spec`: the KerasTensors `layer` returns for KerasTensor arguments, from a symbolic call
    on placeholders of the same shapes and dtypes (the arguments' own graph is left as it was)."""
    def placeholder(t):
        return _inference_input(t._shape, t._dtype, t.sparse, t.ragged) if isinstance(t, KerasTensor) else t
    args, kwargs = nest.map_structure(placeholder, (tuple(args), dict(kwargs)))
    out = _call_on_placeholders(layer, args, kwargs)
    return nest.map_structure(lambda t: KerasTensor(t._shape, dtype=t._dtype, sparse=t.sparse, ragged=t.ragged)
                              if isinstance(t, KerasTensor) else t, out)


def _inference_input(shape, dtype="float32", sparse=False, ragged=False):
    """A KerasTensor for shape inference: it takes no keras_tensor_N name."""
    return KerasTensor(shape, dtype=dtype, sparse=sparse, ragged=ragged, name="shape_inference")


def _call_on_placeholders(layer, args, kwargs):
    out = symbolic_call(layer, args, kwargs)
    layer.__dict__["_inbound_nodes"].pop()
    return out


def topological_nodes(inputs, outputs):
    """The Nodes between `inputs` and `outputs` in an order where each node's inputs come first."""
    input_ids = {id(x) for x in nest.flatten(inputs)}
    order, seen = [], set()

    def visit(kt):
        if id(kt) in input_ids or kt._history is None:
            if id(kt) not in input_ids:
                raise ValueError(f"Graph disconnected: cannot find the inputs of tensor {kt!r}. The following "
                                 f"previous layers were accessed without issue: {[n.layer.name for n in order]}")
            return
        node = kt._history[0]
        if id(node) in seen:
            return
        for x in node.input_tensors:
            visit(x)
        seen.add(id(node))
        order.append(node)

    for out in nest.flatten(outputs):
        visit(out)
    return order


def run_graph(nodes, inputs, input_values, outputs, training=None, layer_for=None):
    """Evaluates the recorded graph on concrete `input_values` (`inputs`: the flat list of Input KerasTensors,
    `input_values` the list of their values); `layer_for(layer)` gives the layer to call in each node's place
    (`clone_model` rebuilds a graph on new KerasTensors so)."""
    values = {}
    for kt, v in zip(inputs, input_values):
        values[id(kt)] = v

    def get(x):
        return values[id(x)] if isinstance(x, KerasTensor) else x

    for node in nodes:
        train = False
        if training is not None:                              # the model's flag wins, as in Keras 3
            train = node.takes_training
            if train is None:
                train = node.takes_training = _accepts_training(node.layer)
        layer = node.layer if layer_for is None else layer_for(node.layer)
        single = node.single_input
        if single is not None:
            x = values[id(single)]
            out = layer(x, training=training) if train else layer(x)
        else:
            args = nest.map_structure(get, node.args)
            kwargs = nest.map_structure(get, node.kwargs)
            if train:
                kwargs["training"] = training
            out = layer(*args, **kwargs)
        if type(node.outputs) is KerasTensor and type(out) is EagerTensor:
            values[id(node.outputs)] = out
        else:
            for kt, v in zip(nest.flatten(node.outputs), nest.flatten(out)):
                values[id(kt)] = v
    return values[id(outputs)] if type(outputs) is KerasTensor else nest.map_structure(get, outputs)


def dtype_name(x):
    return dtypes.as_dtype(x).name
