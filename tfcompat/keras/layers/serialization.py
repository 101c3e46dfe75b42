"""`keras.layers.serialize` / `deserialize`: a layer to and from its Keras 3 config dict."""
from tfcompat.keras.layers.base import Layer


def serialize(layer):
    """The layer's Keras 3 config dict (`serialize_keras_object`)."""
    from tfcompat.keras.saving_utils import serialize_keras_object
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """The layer a Keras config dict describes; anything that is not a layer is Keras's ValueError."""
    from tfcompat.keras.saving_utils import deserialize_keras_object
    obj = deserialize_keras_object(config, custom_objects=custom_objects)
    if not isinstance(obj, Layer):
        raise ValueError("`keras.layers.deserialize` was passed a `config` object that is not a "
                         f"`keras.layers.Layer`. Received: {config}")
    return obj
