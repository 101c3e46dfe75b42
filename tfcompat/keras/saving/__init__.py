"""`tf.keras.saving`: Keras 3's `.keras` / `.weights.h5` files, legacy `.h5` reading, object (de)serialization."""
from tfcompat.keras.models.cloning import clone_model  # noqa: F401
from tfcompat.keras.saving.keras_file import load_model, save_model  # noqa: F401
from tfcompat.keras.saving.object_registration import (  # noqa: F401
    CustomObjectScope, custom_object_scope, get_custom_objects, get_registered_name, get_registered_object,
    register_keras_serializable)
from tfcompat.keras.saving.weights import load_weights, save_weights  # noqa: F401
from tfcompat.keras.saving_utils import deserialize_keras_object, serialize_keras_object  # noqa: F401


def model_to_json(model, **kwargs):
    """`model.to_json()`: the model's Keras 3 serialization as a JSON string."""
    import json
    from tfcompat.keras.saving.keras_file import _json_default
    from tfcompat.keras.saving.model_config import serialize_model
    return json.dumps(serialize_model(model), default=_json_default, **kwargs)     # with Keras's compile_config


def model_from_json(json_string, custom_objects=None):
    """`keras.models.model_from_json`: a new (freshly initialized) model from `to_json()` text."""
    import json
    return deserialize_keras_object(json.loads(json_string), custom_objects=custom_objects)


