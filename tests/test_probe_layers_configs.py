"""Layer configs, `layers` attributes and functional loading as Keras 3.15 (values recorded from TF 2.21)."""
import warnings

import numpy as np
import pytest

from tfcompat import keras
from tfcompat.keras import layers

_BASE = ["name", "trainable", "dtype"]


@pytest.mark.parametrize("make, keys", [
    (lambda: layers.RandomRotation(0.1),
     _BASE + ["data_format", "factor", "fill_mode", "fill_value", "interpolation", "seed"]),
    (lambda: layers.RandomZoom(0.1),
     _BASE + ["data_format", "height_factor", "width_factor", "fill_mode", "interpolation", "seed", "fill_value"]),
    (lambda: layers.RandomTranslation(0.1, 0.2),
     _BASE + ["data_format", "height_factor", "width_factor", "fill_mode", "interpolation", "seed", "fill_value"]),
    (lambda: layers.Resizing(2, 2),
     _BASE + ["data_format", "height", "width", "interpolation", "crop_to_aspect_ratio", "pad_to_aspect_ratio",
              "fill_mode", "fill_value", "antialias"]),
    (lambda: layers.CenterCrop(2, 2), _BASE + ["data_format", "height", "width"]),
    (lambda: layers.Conv2DTranspose(2, 3),
     _BASE + ["filters", "kernel_size", "strides", "padding", "output_padding", "data_format", "dilation_rate",
              "activation", "use_bias", "kernel_initializer", "bias_initializer", "kernel_regularizer",
              "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint"]),
    (lambda: layers.ELU(), ["name", "alpha", "trainable", "dtype"]),
])
def test_config_key_order(make, keys):
    # TF 2.21: list(layer.get_config())
    assert list(make().get_config()) == keys


def test_config_values():
    # TF 2.21
    assert layers.RandomRotation(0.1).get_config()["factor"] == (-0.1, 0.1)
    assert list(layers.ELU(alpha=0.5, name="e").get_config().items())[:2] == [("name", "e"), ("alpha", 0.5)]
    assert layers.Conv2DTranspose(2, 3, output_padding=1, strides=2).get_config()["output_padding"] == (1, 1)
    cfg = layers.Resizing(3, 4, interpolation="nearest").get_config()
    assert (cfg["data_format"], cfg["height"], cfg["width"], cfg["interpolation"]) == ("channels_last", 3, 4,
                                                                                        "nearest")
    assert layers.Resizing.from_config(cfg).get_config() == cfg


def test_lookup_vocabulary_size_in_config():
    # TF 2.21: None until a vocabulary is set or adapted, then the size with the OOV/mask tokens
    assert layers.StringLookup().get_config()["vocabulary_size"] is None
    assert layers.IntegerLookup().get_config()["vocabulary_size"] is None
    s = layers.StringLookup()
    s.adapt(["x", "y", "x"])
    assert s.get_config()["vocabulary_size"] == 3
    assert layers.StringLookup(vocabulary=["a", "b", "c"]).get_config()["vocabulary_size"] == 4
    assert layers.IntegerLookup(vocabulary=[5, 6]).get_config()["vocabulary_size"] == 3
    c = layers.StringLookup()
    c.set_vocabulary(["p"])
    assert c.get_config()["vocabulary_size"] == 2
    assert layers.StringLookup.from_config(s.get_config()).get_config()["vocabulary_size"] is None


class _Stack(layers.Layer):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.layers = [layers.Dense(4), layers.Dense(2)]

    def call(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_plain_layer_may_own_a_layers_attribute():
    # TF 2.21: a Layer has no `layers` property, so a custom layer can keep its sublayers under that name
    s = _Stack(name="st")
    assert not hasattr(layers.Dense(1), "layers")
    assert s(np.ones((1, 3), "float32")).shape == (1, 2)
    assert [w.path for w in s.weights] == ["st/dense/kernel", "st/dense/bias", "st/dense_1/kernel", "st/dense_1/bias"]


def test_model_layers_attribute_is_reserved():
    m = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
    with pytest.raises(AttributeError, match=r"`Sequential.layers` attribute is reserved and should not be used. "
                                             r"Use `add\(\)` and `pop\(\)`"):
        m.layers = []

    class Sub(keras.Model):
        def call(self, x):
            return x
    with pytest.raises(AttributeError, match="`Model.layers` attribute is reserved and should not be used. "
                                             "Please use another name."):
        Sub().layers = []


def test_summary_expands_a_layer_with_a_layers_list():
    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.stack = _Stack()

        def call(self, x):
            return self.stack(x)
    m = M()
    m(np.ones((1, 3), "float32"))
    lines = []
    m.summary(expand_nested=True, print_fn=lines.append)
    text = "\n".join(lines)
    # TF 2.21: the custom layer's `layers` list is expanded
    assert "│    └ dense (Dense)              │ (1, 4)                 │            16 │" in text
    assert "│    └ dense_1 (Dense)            │ (1, 2)                 │            10 │" in text
    assert [layer.name for layer in m.layers] == ["__stack"]


class _NoBuild(layers.Layer):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.d = layers.Dense(2)

    def call(self, x):
        return self.d(x)


def test_functional_from_config_builds_layers_from_build_config():
    inp = keras.Input((4,))
    f = keras.Model(inp, _NoBuild(name="nb")(inp))
    cfg = f.get_config()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        g = keras.Model.from_config(cfg, custom_objects={"_NoBuild": _NoBuild})
    # TF 2.21: the layer's default build() runs from its build_config (warning), then the call builds the Dense
    assert [str(x.message)[:60] for x in w] == ["`build()` was called on layer '__no_build', however the laye"]
    assert g.layers[1].built and g.layers[1].d.built
    assert g(np.ones((1, 4), "float32")).shape == (1, 2)


def test_functional_from_config_missing_class_quotes_whole_entry():
    inp = keras.Input((4,))
    f = keras.Model(inp, _NoBuild(name="nb")(inp))
    cfg = f.get_config()
    with pytest.raises(TypeError) as e:
        keras.Model.from_config(cfg)
    # TF 2.21: the inner error quotes the layer's entry with its build_config, name and inbound_nodes
    assert "Could not locate class '_NoBuild'" in str(e.value)
    assert ("'registered_name': '_NoBuild', 'build_config': {'input_shape': (None, 4)}, 'name': 'nb', "
            "'inbound_nodes': [{'args': ({'class_name': '__keras_tensor__', 'config': {'shape': (None, 4), "
            "'dtype': 'float32', 'keras_history': ['input_layer', 0, 0]}},), 'kwargs': {}}]}") in str(e.value)


def test_sequential_build_checks_each_input_spec():
    # TF 2.21: building the stack calls each layer, which checks its InputSpec first
    with pytest.raises(ValueError, match=r"^Input 0 with name 'None' of layer 'conv2d' is incompatible with the "
                                         r"layer: expected min_ndim=4, found ndim=3. Full shape received: "
                                         r"\(None, 28, 28\)$"):
        keras.Sequential([keras.Input((28, 28)), layers.Conv2D(8, 3)])
    with pytest.raises(ValueError, match=r"^Input 0 with name 'None' of layer 'lstm' is incompatible with the "
                                         r"layer: expected ndim=3, found ndim=2. Full shape received: \(None, 10\)$"):
        keras.Sequential([keras.Input((10,)), layers.LSTM(4)])
    m = keras.Sequential([layers.Dense(3), layers.LSTM(2)])
    with pytest.raises(ValueError, match="layer 'lstm_1' is incompatible with the layer: expected ndim=3, found "
                                         r"ndim=2. Full shape received: \(None, 3\)"):
        m.build((None, 5))


def test_functional_from_config_takes_keras_tensor_names():
    # TF 2.21: each serialized KerasTensor argument is revived as a KerasTensor of its own (one auto-name) before
    # the layer's call names its output
    inp = keras.Input((4,))
    m = keras.Model(inp, layers.Dense(2)(inp))
    assert keras.Input((1,)).name == "keras_tensor_2"
    m2 = keras.Model.from_config(m.get_config())
    assert m2.outputs[0].name == "keras_tensor_4"
    assert keras.Input((1,)).name == "keras_tensor_5"


def test_functional_config_nodes_and_build_configs():
    # TF 2.21 (Keras 3.15): layers built at construction (pooling, dropout) have no build_config; a call records
    # Keras's implicit `training` (a non-None default) and `mask` (one tensor argument, no keyword arguments)
    q, v = keras.Input((3, 4)), keras.Input((2, 4))
    o = layers.Attention()([q, v])
    o = layers.GlobalAveragePooling1D()(o)
    o = layers.Dropout(0.1)(o)
    o = layers.BatchNormalization()(o)
    o = layers.Dense(2)(o)
    cfg = keras.Model([q, v], o).get_config()
    assert [(lc["class_name"], lc["inbound_nodes"][0]["kwargs"] if lc["inbound_nodes"] else None,
             "build_config" in lc) for lc in cfg["layers"]] == [
        ("InputLayer", None, False), ("InputLayer", None, False), ("Attention", {}, True),
        ("GlobalAveragePooling1D", {"mask": None}, False), ("Dropout", {"training": False}, False),
        ("BatchNormalization", {"mask": None}, True), ("Dense", {}, True)]
    t = keras.Input((5, 3))
    r = layers.LSTM(2, return_sequences=True)(t)
    r = layers.SimpleRNN(2)(r, training=True)
    assert [lc["inbound_nodes"][0]["kwargs"] if lc["inbound_nodes"] else None
            for lc in keras.Model(t, r).get_config()["layers"]] == [None, {"training": False, "mask": None},
                                                                   {"training": True}]
    m2 = keras.Model.from_config(cfg)
    x = [np.ones((2, 3, 4), "float32"), np.ones((2, 2, 4), "float32")]
    assert m2(x).shape == (2, 2)


def test_rnn_build_config_is_its_input_shape():
    # TF 2.21: a build given one shape records it as input_shape (RNN's build(sequences_shape))
    s = keras.Sequential([keras.Input((5, 3)), layers.LSTM(2, return_sequences=True), layers.Bidirectional(layers.GRU(2))])
    assert [lc.get("build_config") for lc in s.get_config()["layers"]] == [
        None, {"input_shape": (None, 5, 3)}, {"input_shape": (None, 5, 2)}]
    assert s.layers[1].forward_layer.get_build_config() == {"input_shape": (None, 5, 2)}


def test_multi_head_attention_node_keeps_its_arguments():
    # TF 2.21: mha(q, q) records two arguments (no key)
    q = keras.Input((3, 4))
    x = layers.MultiHeadAttention(2, 4)(q, q)
    assert len(keras.Model(q, x).get_config()["layers"][1]["inbound_nodes"][0]["args"]) == 2


def test_sequential_config_build_configs():
    # TF 2.21: a Dropout (built at construction) has no build_config in a Sequential's config either
    s = keras.Sequential([keras.Input((4,)), layers.Dense(2), layers.Dropout(0.5), layers.Dense(1)])
    assert [lc.get("build_config") for lc in s.get_config()["layers"]] == [
        None, {"input_shape": (None, 4)}, None, {"input_shape": (None, 2)}]
    assert keras.Sequential.from_config(s.get_config()).count_params() == 13
