"""Keras 3's `Pipeline`: a layer applying a list of (preprocessing) layers in order."""
import inspect

from tfcompat.keras.layers.base import Layer, _masks_of
from tfcompat.keras.saving_utils import deserialize_keras_object, serialize_keras_object


def _takes(layer, name):
    try:
        return name in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False


class Pipeline(Layer):
    """Calls each layer on the previous one's output (the mask follows along); `training` defaults to True, as
    in Keras (its random layers augment unless told otherwise)."""
    _allow_non_tensor_positional_args = True

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = layers

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        outputs = inputs
        for layer in self._pipeline_layers:
            kwargs = {}
            if _takes(layer, "mask"):
                kwargs["mask"] = mask
            if _takes(layer, "training") and training is not None:
                kwargs["training"] = training
            outputs = layer(inputs, **kwargs)
            inputs = outputs
            mask = _masks_of(outputs)
        return outputs

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError(f"`Pipeline` config must contain a `layers` key mapping to a list of serialized layers. "
                             f"Received config with layers={layers}.")
        config = {**config, "layers": [deserialize_keras_object(x) for x in layers]}
        return cls(**config)

    def get_config(self):
        return {"layers": serialize_keras_object(self._pipeline_layers), "name": self.name}
