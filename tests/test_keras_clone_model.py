"""keras.models.clone_model with clone_function, input_tensors, call_function and recursive, as Keras 3.15 builds
the clone (values and messages recorded from TF 2.21 + Keras 3.15)."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


def functional():
    inp = keras.Input((4,), name="x")
    h = keras.layers.Dense(3, activation="relu", name="d1")(inp)
    shared = keras.layers.Dense(3, name="shared")
    model = keras.Model(inp, keras.layers.Dense(1, name="out")(shared(shared(h))), name="func")
    model.compile("adam", "mse", metrics=["mae"])
    return model


def sequential():
    return keras.Sequential([keras.Input((4,), name="sin"), keras.layers.Dense(2, name="a"),
                             keras.layers.Dropout(0.1, name="b")], name="seq")


def test_clone_function_rebuilds_the_graph_keeping_sharing_and_compile_config():
    model = functional()

    def widen_output(layer):
        config = layer.get_config()
        if layer.name == "out":
            config["units"] += 1
        return layer.__class__.from_config(config)
    clone = keras.models.clone_model(model, clone_function=widen_output)
    assert type(clone).__name__ == "Functional" and clone.name == "func"
    assert [layer.name for layer in clone.layers] == ["x", "d1", "shared", "out"]        # shared cloned once
    assert clone.output_shape == (None, 2) and (clone.count_params(), model.count_params()) == (35, 31)
    assert clone.compiled and clone.get_compile_config()["loss"] == "mse"
    assert clone.get_compile_config()["metrics"] == ["mae"]
    clone.fit(np.ones((4, 4), "float32"), np.ones((4, 2), "float32"), verbose=0)
    calls = []

    def call_function(layer, *args, **kwargs):
        calls.append(layer.name)
        return layer(*args, **kwargs)
    keras.models.clone_model(model, call_function=call_function)
    assert calls == ["d1", "shared", "shared", "out"]


def test_sequential_clone_function_and_input_tensors():
    model = sequential()
    clone = keras.models.clone_model(model, clone_function=lambda layer: keras.layers.Dense(5, name="new_" + layer.name)
                                     if isinstance(layer, keras.layers.Dense) else layer)
    assert [layer.name for layer in clone.layers] == ["new_a", "b"] and clone.output_shape == (None, 5)
    assert clone.layers[1] is model.layers[1] and not clone.compiled
    other = keras.Input((4,), name="other")
    clone = keras.models.clone_model(model, input_tensors=other)
    assert [layer.name for layer in clone.layers] == ["a", "b"] and clone.inputs[0] is other
    default = keras.models.clone_model(model)
    assert [layer.name for layer in default.layers] == ["a", "b"] and default.layers[0] is not model.layers[0]


def test_recursive_clones_nested_models_layer_by_layer():
    inner = sequential()
    outer = keras.Sequential([keras.Input((4,)), inner, keras.layers.Dense(1, name="top")])
    seen = []

    def record(layer):
        seen.append(layer.name)
        return layer.__class__.from_config(layer.get_config())
    keras.models.clone_model(outer, clone_function=record, recursive=True)
    assert seen == ["a", "b", "top"]
    seen.clear()
    keras.models.clone_model(outer, clone_function=record)
    assert seen == ["seq", "top"]


def test_clone_model_errors_as_keras():
    model, seq = functional(), sequential()
    with pytest.raises(ValueError, match=r"^`call_function` argument is not supported with Sequential models."):
        keras.models.clone_model(seq, call_function=lambda layer, *a, **k: layer(*a, **k))
    with pytest.raises(TypeError, match="'int' object is not callable"):
        keras.models.clone_model(model, clone_function=3)
    with pytest.raises(ValueError, match=r"^Argument `input_tensors` must contain a single tensor\.$"):
        keras.models.clone_model(seq, input_tensors=[keras.Input((4,)), keras.Input((4,))])
    with pytest.raises(ValueError, match=r"^`input_tensors` must have the same structure as model.input\n"):
        keras.models.clone_model(model, input_tensors=[keras.Input((4,)), keras.Input((4,))])
    with pytest.raises(ValueError, match=r"^Unexpected keyword argument\(s\): \('foo',\)$"):
        keras.models.clone_model(model, foo=1)
    with pytest.raises(ValueError, match="you cannot provide an incompatible `shape` argument"):
        keras.Input((3,), tensor=keras.Input((4,)))


def test_subclassed_model_clones_through_its_config():
    class Sub(keras.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.d = keras.layers.Dense(units)

        def call(self, x):
            return self.d(x)

        def get_config(self):
            return {"units": self.units, "name": self.name}
    clone = keras.models.clone_model(Sub(3, name="sub"))
    assert type(clone).__name__ == "Sub" and clone.units == 3 and clone.name == "sub"
    with pytest.raises(ValueError, match=r"^Arguments `clone_function` and `input_tensors` are only supported for "
                                         r"Sequential models or Functional models. Received model of type 'Sub'"):
        keras.models.clone_model(Sub(3), clone_function=lambda layer: layer)


def test_layer_from_config_takes_keras_only_default_keys():
    for layer in [keras.layers.Dense(2), keras.layers.Embedding(3, 2), keras.layers.EinsumDense("ab,bc->ac", (3,))]:
        assert "quantization_config" in layer.get_config()
        assert type(layer).from_config(layer.get_config()).get_config() == layer.get_config()


def test_tf_initializers_in_a_keras_config_are_written_under_tf_s_module():
    from tfcompat.keras import saving
    layer = keras.layers.Dense(2, kernel_initializer=tf.random_normal_initializer(0.0, 0.02, seed=3),
                               bias_initializer=tf.zeros_initializer())
    config = saving.serialize_keras_object(layer)["config"]
    assert config["kernel_initializer"] == {"module": "tensorflow.python.ops.init_ops_v2", "class_name": "RandomNormal",
                                            "config": {"mean": 0.0, "stddev": 0.02, "seed": 3},
                                            "registered_name": "RandomNormal"}          # TF 2.21's text
    assert config["bias_initializer"]["module"] == "tensorflow.python.ops.init_ops_v2"
    restored = saving.deserialize_keras_object(saving.serialize_keras_object(layer))      # as Keras: Keras's class
    assert type(restored.kernel_initializer) is keras.initializers.RandomNormal
