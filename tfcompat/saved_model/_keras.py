"""What `tf.saved_model.save` of a Keras model writes as Keras 3 on TF does: its `serving_default` signature."""
from tfcompat.eager.function import Function
from tfcompat.framework import dtypes
from tfcompat.ops.misc_ops import TensorSpec
from tfcompat.util import nest


def _spec(x, name=None):
    return TensorSpec(tuple(x.shape), dtypes.as_dtype(x.dtype), name)


def _model_io(model):
    """(inputs, outputs) of Keras 3's `_default_save_signature`: a Sequential's or Functional's structures, else
    (None, None)."""
    from tfcompat.keras.models.functional import Functional
    from tfcompat.keras.models.sequential import Sequential
    if isinstance(model, Functional):
        return model.input, model.output
    if isinstance(model, Sequential) and model.inputs:
        return model.inputs[0], model.outputs[0]
    return None, None


def default_signature(model):
    """(Function, output specs or None) of Keras 3's `serving_default` for `model`, or None (not a built Keras Model).

    Sequential and Functional models take their input structure (batch dimension as built, usually None); other
    models the shapes their `build` received (the first call's shapes, batch size included), as Keras 3 does."""
    from tfcompat.keras.models.model import Model
    if not isinstance(model, Model) or not model.built:
        return None
    inputs, outputs = _model_io(model)
    if inputs is not None:
        signature = (nest.map_structure(_spec, inputs),)
        outputs = nest.map_structure(_spec, outputs)
    else:
        config = model.get_build_config() or {}
        shapes = list(config.get("shapes_dict", {}).values()) if "shapes_dict" in config else \
            [config["input_shape"]] if config.get("input_shape") is not None else []
        if not shapes:
            return None
        dtype = dtypes.as_dtype(model.input_dtype)
        signature = tuple(_shape_spec(s, dtype) for s in shapes)
        outputs = None

    def serving_default(inputs):
        return model(inputs)

    serving_default.keras_model = model
    return Function(serving_default, "serving_default", input_signature=signature), outputs


def _shape_spec(shape, dtype):
    """TensorSpecs for a build shape: a tuple of dims, or a nest of such tuples."""
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape):
        return TensorSpec(tuple(shape), dtype)
    if isinstance(shape, dict):
        return {k: _shape_spec(v, dtype) for k, v in shape.items()}
    return type(shape)(_shape_spec(s, dtype) for s in shape)



def _called_model(function):
    """The Keras model a saved function only calls (Keras's default signature, an export endpoint), or None."""
    from tfcompat.keras.export import _Call
    from tfcompat.keras.models.model import Model
    python_function = function.python_function
    model = python_function._layer if isinstance(python_function, _Call) else getattr(python_function, "keras_model",
                                                                                       None)
    return model if isinstance(model, Model) else None


def _built_in(config):
    """Whether a Keras config names only Keras's own classes and functions (no registered or custom code)."""
    if isinstance(config, dict):
        module = config.get("module")
        if module is not None and not (isinstance(module, str) and module.split(".")[0] == "keras"):
            return False
        if module is None and config.get("registered_name") is not None:    # a class of the user's (__main__)
            return False
        return all(_built_in(v) for v in config.values())
    if isinstance(config, (list, tuple)):
        return all(_built_in(v) for v in config)
    return True


def rebuild_entry(functions, signatures, var_ids):
    """The `keras` entry: the config of the one built-in Keras model that saved functions only call, its variables
    (indices in the saved variables, in `model.variables` order) and which functions call it; None if there is none.
    A load rebuilds the model from it, so that a call with a shape no program was traced for runs the model."""
    from tfcompat.keras.saving.model_config import serialize_model
    calls = {}
    for name, f in functions:
        model = _called_model(f)
        if model is not None:
            calls.setdefault(id(model), (model, []))[1].append(name)
    for name, cf in signatures:
        model = _called_model(cf._function)
        if model is not None:
            calls.setdefault(id(model), (model, []))[1].append("signature:" + name)
    if len(calls) != 1:
        return None
    (model, names), = calls.values()
    config = serialize_model(model)
    config.pop("compile_config", None)
    if not _built_in(config) or any(id(v) not in var_ids for v in model.variables):
        return None
    return {"config": config, "variables": [var_ids[id(v)] for v in model.variables], "calls": names}
