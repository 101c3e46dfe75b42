"""Functional models: a graph of layer calls between `keras.Input`s and output KerasTensors."""
from tfcompat.keras.engine import naming
from tfcompat.keras.engine.functional import run_graph, topological_nodes
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.input_layer import InputLayer
from tfcompat.keras.models.model import Model
from tfcompat.util import nest


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
        self._inputs_struct = inputs if not (isinstance(inputs, (list, tuple)) and len(inputs) == 1) else inputs[0] \
            if isinstance(inputs, list) and False else inputs
        self._outputs_struct = outputs
        self._nodes = topological_nodes(inputs, outputs)
        layers = _layers_by_depth(self._nodes, nest.flatten(inputs))
        self._tracking = False
        self._layers.extend(layers)
        self.__dict__["_tracking"] = True
        self.built = True

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
        return nest.map_structure(lambda t: t._shape, self._inputs_struct)

    @property
    def output_shape(self):
        return nest.map_structure(lambda t: t._shape, self._outputs_struct)

    def call(self, inputs, training=None, mask=None):
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
        else:
            values = nest.flatten(inputs) if isinstance(struct, (list, tuple, dict)) else [inputs]
        values = [self._convert_inputs(v) for v in values]
        return run_graph(self._nodes, nest.flatten(struct), values, self._outputs_struct, training)

    def _layers_for_summary(self):
        return [l for l in self.layers]


def _layers_by_depth(nodes, inputs):
    """The graph's layers as Keras 3 lists them: deepest first (inputs), then by first use."""
    depth = {}
    for node in reversed(nodes):                 # consumers before producers
        d = depth.setdefault(id(node), 0)
        for kt in node.input_tensors:
            producer = kt._history[0] if kt._history else None
            if producer is not None:
                depth[id(producer)] = max(depth.get(id(producer), 0), d + 1)
    order, layer_depth = [], {}
    entries = [kt._history[0] for kt in inputs if kt._history] + list(nodes)
    for node in entries:
        layer = node.layer
        d = depth.get(id(node), 0)
        if id(layer) not in layer_depth:
            order.append(layer)
            layer_depth[id(layer)] = d
        else:
            layer_depth[id(layer)] = max(layer_depth[id(layer)], d)
    return sorted(order, key=lambda l: -layer_depth[id(l)])     # stable: first use breaks ties


def is_input_layer(layer):
    return isinstance(layer, InputLayer)
