"""The functional API: layer calls on KerasTensors record Nodes; `Functional` replays them in order.

Output shapes are inferred by running the layer on placeholder zeros (no
tape, no state updates, `training=False`), twice when some dims are unknown:
a dim that changes between the two runs is unknown (None) in the output.
"""
import numpy as np
import torch

from tfcompat.eager.tape import pause_recording
from tfcompat.framework import dtypes
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.keras.engine import call_context
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
        layer.__dict__.setdefault("_inbound_nodes", []).append(self)

    def unpacked_inputs(self):
        return self.args[0] if len(self.args) == 1 and not self.kwargs else self.args

    def unpacked_outputs(self):
        return self.outputs


def _placeholder(kt, size):
    shape = [size if d is None else d for d in kt._shape]
    if kt.dtype is dtypes.string:
        return _wrap(np.full(shape, b"", dtype=object))
    return _wrap(torch.zeros(shape, dtype=kt.dtype.torch_dtype))


def _run_on_placeholders(layer, args, kwargs, size):
    from tfcompat.keras.layers.base import _set_mask

    def sub(x):
        if not isinstance(x, KerasTensor):
            return x
        p = _placeholder(x, size)
        mask = getattr(x, "_keras_mask", None)
        if mask is not None:        # a masked KerasTensor: the layer sees a mask (all steps kept), as in Keras
            _set_mask(p, _wrap(torch.ones([size if d is None else d for d in mask._shape], dtype=torch.bool)))
        return p
    args_v = nest.map_structure(sub, args)
    kwargs_v = nest.map_structure(sub, kwargs)
    kwargs_v.setdefault("training", False) if _accepts_training(layer) else None
    with pause_recording(), call_context.symbolic_scope():
        return layer(*args_v, **kwargs_v)


def _accepts_training(layer):
    from tfcompat.keras.layers.base import _signature_flags
    return _signature_flags(type(layer))[0]


def _has_unknown(args, kwargs):
    return any(None in x._shape for x in nest.flatten((args, kwargs)) if isinstance(x, KerasTensor))


def symbolic_call(layer, args, kwargs):
    """`layer(*args)` on KerasTensors: build the layer, infer output specs, record a Node."""
    first = nest.flatten(args[0])
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
    out_a = _run_on_placeholders(layer, args, kwargs, 2)
    out_b = _run_on_placeholders(layer, args, kwargs, 3) if _has_unknown(args, kwargs) else out_a

    from tfcompat.keras.layers.base import _mask_of

    def spec(a, b):
        if not isinstance(a, Tensor):
            return a
        shape = tuple(da if da == db else None for da, db in zip(storage(a).shape, storage(b).shape))
        kt = KerasTensor(shape, dtype=a.dtype)
        ma, mb = _mask_of(a), _mask_of(b)
        if ma is not None and mb is not None:     # Keras 3 gives the output KerasTensor its `_keras_mask`
            mshape = tuple(da if da == db else None for da, db in zip(storage(ma).shape, storage(mb).shape))
            kt._keras_mask = KerasTensor(mshape, dtype="bool")
        return kt
    outputs = nest.map_structure(spec, out_a, out_b)
    node = Node(layer, args, kwargs, outputs)
    for i, kt in enumerate(nest.flatten(outputs)):
        if isinstance(kt, KerasTensor):
            kt._history = (node, i)
    del first
    return outputs


def infer_output_shape(layer, input_shape):
    def kt(s):
        return KerasTensor(s)
    is_shape = isinstance(input_shape, (tuple, list)) and all(d is None or isinstance(d, int) for d in input_shape)
    inputs = kt(input_shape) if is_shape else [kt(s) for s in input_shape]  # a list of shapes
    out = symbolic_call(layer, (inputs,), {})
    layer.__dict__["_inbound_nodes"].pop()
    return nest.map_structure(lambda t: t._shape if isinstance(t, KerasTensor) else t, out)


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


def run_graph(nodes, inputs, input_values, outputs, training=None):
    """Evaluates the recorded graph on concrete `input_values`."""
    values = {}
    for kt, v in zip(nest.flatten(inputs), nest.flatten(input_values)):
        values[id(kt)] = v

    def get(x):
        return values[id(x)] if isinstance(x, KerasTensor) else x

    for node in nodes:
        args = nest.map_structure(get, node.args)
        kwargs = nest.map_structure(get, node.kwargs)
        if training is not None and _accepts_training(node.layer):      # the model's flag wins, as in Keras 3
            kwargs["training"] = training
        out = node.layer(*args, **kwargs)
        for kt, v in zip(nest.flatten(node.outputs), nest.flatten(out)):
            values[id(kt)] = v
    return nest.map_structure(get, outputs)


def dtype_name(x):
    return dtypes.as_dtype(x).name
