"""Keras 3's `Pipeline`: preprocessing layers applied in turn (a data layer, usable in `tf.data.Dataset.map`)."""
from tfcompat.keras.layers.base import Layer, _signature_flags


class Pipeline(Layer):
    """Calls `layers` one after the other, passing `training` (and the mask) to those whose `call` takes it."""
    _allow_non_tensor_positional_args = True      # a Keras data layer

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = layers

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True, mask=None):
        for layer in self._pipeline_layers:
            takes_training, takes_mask, _ = _signature_flags(type(layer))
            kwargs = {}
            if takes_mask:
                kwargs["mask"] = mask
            if takes_training and training is not None:
                kwargs["training"] = training
            inputs = layer(inputs, **kwargs)
            mask = getattr(inputs, "_keras_mask", None)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list of serialized layers. "
                             f"Received config with layers={layers}.")
        from tfcompat.keras.saving_utils import deserialize_keras_object
        config = {**config}
        config["layers"] = [deserialize_keras_object(x) for x in layers]
        return cls(**config)

    def get_config(self):
        from tfcompat.keras.saving_utils import serialize_keras_object
        return {"layers": [serialize_keras_object(layer) for layer in self._pipeline_layers], "name": self.name}
