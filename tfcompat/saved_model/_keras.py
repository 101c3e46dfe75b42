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

    return Function(serving_default, "serving_default", input_signature=signature), outputs


def _shape_spec(shape, dtype):
    """TensorSpecs for a build shape: a tuple of dims, or a nest of such tuples."""
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape):
        return TensorSpec(tuple(shape), dtype)
    if isinstance(shape, dict):
        return {k: _shape_spec(v, dtype) for k, v in shape.items()}
    return type(shape)(_shape_spec(s, dtype) for s in shape)

