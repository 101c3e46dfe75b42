"""Functional `from_config` with custom layers whose `get_config` omits `name` (Keras 3.15.1's names recorded)."""
import numpy as np

from tfcompat import keras
from tfcompat.keras import layers, ops


class CustomDense(layers.Layer):
    def __init__(self, units=32):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal")

    def call(self, inputs):
        return ops.matmul(inputs, self.w)

    def get_config(self):
        return {"units": self.units}


def test_layers_are_found_by_the_configs_names():
    inputs = keras.Input((4,))
    hidden = CustomDense(10)(inputs)
    outputs = CustomDense(3)(hidden)
    model = keras.Model(inputs, outputs)
    config = model.get_config()
    assert [lc["name"] for lc in config["layers"]] == ["input_layer", "custom_dense", "custom_dense_1"]
    assert config["output_layers"] == ["custom_dense_1", 0, 0]
    new_model = keras.Model.from_config(config, custom_objects={"CustomDense": CustomDense})
    assert [layer.name for layer in new_model.layers] == ["input_layer", "custom_dense_2", "custom_dense_3"]
    assert new_model.output_shape == (None, 3)
    assert new_model.count_params() == 70
    assert new_model(np.ones((2, 4), "float32")).shape == (2, 3)
