"""`keras.Model`: a Layer with the training API; `Model(inputs, outputs)` builds a Functional model."""
from tfcompat.keras.engine import naming
from tfcompat.keras.layers.base import Layer


class Model(Layer):
    """Keras 3's `Model`: subclass it (define `call`), or call it with `inputs`/`outputs` (functional)."""

    def __new__(cls, *args, **kwargs):
        if cls is Model and (len(args) >= 2 or "inputs" in kwargs or "outputs" in kwargs):
            from tfcompat.keras.models.functional import Functional
            return Functional.__new__(Functional, *args, **kwargs)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        trainable = kwargs.pop("trainable", True)
        name = kwargs.pop("name", None)
        dtype = kwargs.pop("dtype", None)
        if args or kwargs:
            unknown = [a for a in kwargs]
            raise TypeError(f"Model.__init__() got unexpected arguments: {list(args) + unknown}")
        if name is None:
            name = naming.unique_name(naming.to_snake_case(type(self).__name__))
        super().__init__(trainable=trainable, name=name, dtype=dtype)

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` method implemented.")

    def get_layer(self, name=None, index=None):
        if index is not None:
            if name is not None:
                raise ValueError("Provide only a layer name or a layer index. Received: "
                                 f"index={index}, name={name}.")
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in self.layers]}.")
