"""`keras.models.clone_model`: the same architecture with new layers (by default fresh weights), as Keras 3 builds it.

Sequential and functional models are rebuilt layer by layer through `clone_function` (default: a layer from its
config) on new inputs, keeping layer sharing (each layer is cloned once); other models go through their config.
A compiled model's clone is compiled with the same compile config.
"""
import functools

from tfcompat.keras.engine.functional import run_graph
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.layers.input_layer import Input, InputLayer
from tfcompat.keras.models.functional import Functional
from tfcompat.keras.models.sequential import Sequential
from tfcompat.keras.saving_utils import deserialize_keras_object, serialize_keras_object
from tfcompat.util import nest


def clone_model(model, input_tensors=None, clone_function=None, call_function=None, recursive=False, **kwargs):
    """A new model with `model`'s architecture: each layer replaced by `clone_function(layer)`."""
    cache = kwargs.pop("cache", None)
    if kwargs:
        raise ValueError(f"Unexpected keyword argument(s): {tuple(kwargs.keys())}")
    if isinstance(model, (Sequential, Functional)):
        clone_layer = _sharing_clone_function(clone_function, recursive, {} if cache is None else cache)
        if isinstance(model, Sequential):
            if call_function is not None:       # (Keras's text names the clone function here)
                raise ValueError("`call_function` argument is not supported with Sequential models.  In a Sequential "
                                 "model, layers aren't called at model-construction time (they're merely listed). "
                                 "Use `call_function` with Functional models only. Received model of type "
                                 f"'{type(model).__name__}', with call_function={clone_layer}")
            return _compiled_like(model, _clone_sequential(model, clone_layer, input_tensors))
        return _compiled_like(model, _clone_functional(model, clone_layer, input_tensors, call_function))
    if clone_function or input_tensors:
        raise ValueError("Arguments `clone_function` and `input_tensors` are only supported for Sequential models or "
                         f"Functional models. Received model of type '{type(model).__name__}', with "
                         f"clone_function={clone_function} and input_tensors={input_tensors}")
    if call_function is not None:
        raise ValueError("Argument `call_function` is only supported for Functional models. Received model of type "
                         f"'{type(model).__name__}', with call_function={clone_function}")
    return deserialize_keras_object(serialize_keras_object(model),
                                    custom_objects={type(model).__name__: type(model)})


def _sharing_clone_function(clone_function, recursive, cache):
    """`clone_function` (default: a layer from its config) applied once per layer; with `recursive`, nested
    Sequential and functional models are cloned layer by layer too."""
    if clone_function is None:
        def clone_function(layer):
            return layer.__class__.from_config(layer.get_config())

    def clone_once(layer):
        if id(layer) not in cache:
            if recursive and isinstance(layer, (Sequential, Functional)):
                cache[id(layer)] = clone_model(layer, clone_function=clone_function, recursive=True, cache=cache)
            else:
                cache[id(layer)] = clone_function(layer)
        return cache[id(layer)]
    return clone_once


def _clone_sequential(model, clone_layer, input_tensors):
    layers = [clone_layer(layer) for layer in model.layers]
    ref = model._input_layer
    if input_tensors is not None:
        if isinstance(input_tensors, (list, tuple)):
            if len(input_tensors) != 1:
                raise ValueError("Argument `input_tensors` must contain a single tensor.")
            input_tensors = input_tensors[0]
        if not isinstance(input_tensors, KerasTensor):
            raise ValueError(f"Argument `input_tensors` must be a KerasTensor. Received invalid value: "
                             f"input_tensors={input_tensors}")
        layers.insert(0, Input(tensor=input_tensors, name=None if ref is None else ref.name,
                               optional=False if ref is None else ref.optional))
    elif isinstance(ref, InputLayer):
        layers.insert(0, Input(batch_shape=ref.batch_shape, dtype=ref.dtype, name=ref.name, optional=ref.optional))
    return Sequential(layers, name=model.name, trainable=model.trainable)


def _clone_functional(model, clone_layer, input_tensors, call_function):
    if input_tensors is not None:
        if not all(isinstance(x, KerasTensor) for x in nest.flatten(input_tensors)):
            raise ValueError(f"All entries in `input_tensors` must be KerasTensors. Received invalid values: "
                             f"inputs_tensors={input_tensors}")
        try:
            nest.assert_same_structure(input_tensors, model.input)
        except (ValueError, TypeError) as e:
            raise ValueError(f"`input_tensors` must have the same structure as model.input\nReference structure: "
                             f"{model.input}\nReceived structure: {input_tensors}") from e
    else:
        input_tensors = nest.map_structure(lambda x: Input(batch_shape=x.shape, dtype=x.dtype, name=x.name),
                                           model.input)
    def layer_for(op):
        op = clone_layer(op) if _is_layer(op) else op
        return op if call_function is None else functools.partial(call_function, op)
    outputs = run_graph(model._nodes, model.inputs, nest.flatten(input_tensors), model._outputs_struct,
                        layer_for=layer_for)
    cls = type(model) if _functional_like_constructor(type(model)) else Functional
    return cls(input_tensors, outputs, name=model.name)


def _functional_like_constructor(cls):
    """Keras's test: `cls.__init__` takes Functional's positional arguments (else the clone is a Functional)."""
    import inspect
    return inspect.getfullargspec(cls.__init__).args[1:] == inspect.getfullargspec(Functional.__init__).args[1:]


def _is_layer(op):
    from tfcompat.keras.layers.base import Layer
    return isinstance(op, Layer)


def _compiled_like(model, clone):
    if model.compiled:
        clone.compile_from_config(model.get_compile_config())
    return clone
