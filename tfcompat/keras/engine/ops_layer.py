"""A layer that applies one function: what Python operators on KerasTensors record in a functional graph."""
from tfcompat.keras.layers.base import Layer


class OpLayer(Layer):
    def __init__(self, fn, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._fn = fn

    def call(self, *args):
        return self._fn(*args)
