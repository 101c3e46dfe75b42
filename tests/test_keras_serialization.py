"""Keras 3 object serialization: registered functions and classes, `layers.serialize`/`deserialize`, the
`serialize` / `deserialize` / `get` of activations, losses and metrics. Golden dicts are what Keras 3.15.1 printed."""
import io
import json
import os
import sys
import zipfile

import h5py
import numpy as np
import pytest

import tfcompat as tf
import tfcompat.keras
keras = sys.modules["tfcompat.keras"]     # all of Keras 3 (`import keras`), not the `tf.keras` view

saving = keras.saving
REG_ACT = {"module": "builtins", "class_name": "function", "config": "t16_pkg>t16_act", "registered_name": "function"}


@saving.register_keras_serializable(package="t16_pkg")
def t16_act(x):
    return tf.nn.relu(x) * 2.0


@keras.utils.register_keras_serializable(package="t16_l", name="myloss")
def t16_loss(y, p):
    return tf.reduce_mean(tf.square(y - p))


@saving.register_keras_serializable()
def t16_metric(y, p):
    return tf.reduce_mean(tf.abs(y - p))


def plain(x):
    return x


@saving.register_keras_serializable(package="t16")
class Scaled(keras.layers.Layer):
    def __init__(self, k=1, **kw):
        super().__init__(**kw)
        self.k = k

    def call(self, x):
        return x * self.k

    def get_config(self):
        return {**super().get_config(), "k": self.k}


def test_functions_serialize_as_builtins_function():
    ser = saving.serialize_keras_object
    assert ser(keras.activations.relu) == {"module": "builtins", "class_name": "function", "config": "relu",
                                           "registered_name": "function"}
    assert ser(keras.losses.mean_squared_error)["config"] == "mean_squared_error"
    assert ser(plain) == {"module": "builtins", "class_name": "function", "config": "plain",
                          "registered_name": "function"}
    assert ser(t16_act) == REG_ACT
    assert saving.get_registered_name(t16_act) == "t16_pkg>t16_act"
    assert saving.get_registered_object("t16_l>myloss") is t16_loss


def test_namespace_serialize_deserialize_get():
    assert keras.activations.serialize(keras.activations.relu) == "relu"
    assert keras.activations.serialize(t16_act) == REG_ACT
    assert keras.activations.serialize(plain)["config"] == "plain"
    assert keras.layers.Dense(2, activation=plain).get_config()["activation"]["config"] == "plain"
    assert keras.losses.serialize(keras.losses.mean_squared_error) == {
        "module": "builtins", "class_name": "function", "config": "mean_squared_error", "registered_name": "function"}
    assert keras.losses.serialize(keras.losses.MeanSquaredError()) == {
        "module": "keras.losses", "class_name": "MeanSquaredError",
        "config": {"name": "mean_squared_error", "reduction": "sum_over_batch_size"}, "registered_name": None}
    assert keras.metrics.serialize(t16_act) == REG_ACT
    de = saving.deserialize_keras_object
    assert de(REG_ACT) is t16_act
    assert de({**REG_ACT, "config": "relu"}) is keras.activations.relu
    assert de("relu") == "relu"
    assert keras.activations.deserialize("relu") is keras.activations.relu
    assert keras.activations.deserialize(REG_ACT) is t16_act
    assert keras.activations.get(REG_ACT) is t16_act
    assert keras.losses.deserialize("mean_squared_error") is keras.losses.mean_squared_error
    assert keras.losses.deserialize(REG_ACT) is t16_act and keras.losses.get(REG_ACT) is t16_act
    assert keras.metrics.get(REG_ACT) is t16_act
    with pytest.raises(TypeError, match="Could not locate function 'nope'"):
        de({**REG_ACT, "config": "nope"})
    with pytest.raises(ValueError, match="Could not interpret activation function identifier: nope"):
        keras.activations.get("nope")


def test_registered_functions_in_a_saved_model(tmp_path):
    inp = keras.Input((3,))
    m = keras.Model(inp, keras.layers.Dense(2, activation=t16_act, kernel_initializer="ones")(inp))
    m.compile(optimizer="adam", loss=t16_loss, metrics=[t16_metric])
    x, y = np.ones((4, 3), "float32"), np.zeros((4, 2), "float32")
    m.fit(x, y, epochs=1, verbose=0)
    m.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as z:
        config = json.loads(z.read("config.json"))
    assert config["config"]["layers"][1]["config"]["activation"] == REG_ACT
    cc = config["compile_config"]
    assert cc["loss"] == {"module": "builtins", "class_name": "function", "config": "t16_l>myloss",
                          "registered_name": "function"}
    assert cc["metrics"] == [{"module": "builtins", "class_name": "function", "config": "Custom>t16_metric",
                              "registered_name": "function"}]
    m2 = keras.models.load_model(tmp_path / "m.keras")
    assert m2.layers[1].activation is t16_act and m2.loss is t16_loss
    np.testing.assert_allclose(m2.evaluate(x, y, verbose=0), [35.9040641784668, 5.992000102996826], rtol=1e-5)


def test_layers_serialize_and_deserialize():
    config = keras.layers.serialize(Scaled(3, name="a"))
    assert config == {"module": __name__, "class_name": "Scaled", "config": {
        "name": "a", "trainable": True, "dtype": {"module": "keras", "class_name": "DTypePolicy",
                                                  "config": {"name": "float32"}, "registered_name": None}, "k": 3},
        "registered_name": "t16>Scaled"}
    layer = keras.layers.deserialize(config)
    assert type(layer) is Scaled and layer.k == 3 and layer.name == "a"
    with pytest.raises(ValueError, match="`keras.layers.deserialize` was passed a `config` object that is not a "
                                         "`keras.layers.Layer`"):
        keras.layers.deserialize(saving.serialize_keras_object(keras.optimizers.Adam()))


# -- configs real Keras 3.15.1 wrote, one per built-in layer (tools/keras_layer_files.py configs) -------------
LAYER_CONFIGS = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "keras", "layer_configs.json")))


@pytest.mark.parametrize("case", sorted(LAYER_CONFIGS))
def test_every_layer_config_keras_writes_loads(case):
    entry = LAYER_CONFIGS[case]
    layer = keras.layers.deserialize(entry["layer"])
    assert type(layer).__name__ == entry["layer"]["class_name"]
    inputs = [keras.Input(tuple(shape), dtype=dtype) for shape, dtype in entry["inputs"]]
    out = layer(inputs[0], inputs[1]) if case == "MultiHeadAttention" else \
        layer(inputs if len(inputs) > 1 else inputs[0])
    assert list(out.shape) == entry["output_shape"]


def test_unsupported_keras_keys_are_refused_by_name():
    config = json.loads(json.dumps(LAYER_CONFIGS["Dense"]["layer"]))
    config["config"]["lora_rank"] = 4
    with pytest.raises(NotImplementedError, match="lora_rank=4"):
        keras.layers.deserialize(config)
    config = json.loads(json.dumps(LAYER_CONFIGS["StringLookup"]["layer"]))
    config["config"]["oov_method"] = "farmhash"             # a Keras key tfcompat now takes: kept, not refused
    assert keras.layers.deserialize(config).get_config()["oov_method"] == "farmhash"
    assert keras.layers.deserialize(LAYER_CONFIGS["Dense_mixed"]["layer"]).dtype_policy.name == "mixed_float16"


def test_model_training_flag_overrides_node_kwargs():
    # Keras-written nodes carry `training: true` (random layers); the model's own flag wins, as in Keras 3
    i = keras.Input((1000,))
    m = keras.Model(i, keras.layers.Dropout(0.5)(i, training=True))
    x = np.ones((1, 1000), "float32")
    assert np.all(np.asarray(m(x, training=False)) == 1.0)
    assert np.mean(np.asarray(m(x)) == 0) > 0.3
    assert np.all(np.asarray(m.predict(x, verbose=0)) == 1.0)


def test_global_average_pooling_1d_takes_the_mask():
    i = keras.Input((4,), dtype="int32")
    e = keras.layers.Embedding(5, 2, mask_zero=True)
    m = keras.Model(i, keras.layers.GlobalAveragePooling1D()(e(i)))
    e.set_weights([np.arange(10, dtype="float32").reshape(5, 2)])
    np.testing.assert_array_equal(np.asarray(m(np.array([[1, 2, 0, 0], [3, 0, 0, 0]], "int32"))),
                                  [[3.0, 4.0], [6.0, 7.0]])
    out = keras.layers.GlobalAveragePooling1D()(np.ones((2, 3, 2), "float32"),
                                                mask=np.array([[1, 1, 0], [1, 0, 0]], bool))
    np.testing.assert_array_equal(np.asarray(out), np.ones((2, 2)))


# -- build and compile configs -------------------------------------------------------------------------------
@saving.register_keras_serializable(package="t16")
class TwoShapes(keras.layers.Layer):
    def build(self, a_shape, b_shape):
        self.w = self.add_weight(shape=(a_shape[-1], b_shape[-1]), initializer="ones", name="w")

    def call(self, a, b):
        return tf.matmul(a, self.w) + b


@saving.register_keras_serializable(package="t16")
class OwnBuildConfig(keras.layers.Layer):
    def __init__(self, units=2, **kw):
        super().__init__(**kw)
        self.units = units
        self.seen = None

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones", name="w")

    def call(self, x):
        return tf.matmul(x, self.w)

    def get_config(self):
        return {**super().get_config(), "units": self.units}

    def get_build_config(self):
        return {"in_dim": self.w.shape[0], "extra": 7}

    def build_from_config(self, config):
        self.seen = config
        self.build((None, config["in_dim"]))


def test_build_taking_several_shapes(tmp_path):
    layer = TwoShapes(name="two")
    a, b = keras.Input((3,)), keras.Input((2,))
    m = keras.Model([a, b], layer(a, b))
    assert layer.get_build_config() == {"shapes_dict": {"a_shape": (None, 3), "b_shape": (None, 2)}}
    m.save(tmp_path / "two.keras")
    with zipfile.ZipFile(tmp_path / "two.keras") as z:
        assert json.loads(z.read("config.json"))["config"]["layers"][2]["build_config"] == {
            "shapes_dict": {"a_shape": [None, 3], "b_shape": [None, 2]}}
    m2 = keras.models.load_model(tmp_path / "two.keras")
    np.testing.assert_array_equal(np.asarray(m2([np.ones((1, 3), "float32"), np.ones((1, 2), "float32")])),
                                  [[4.0, 4.0]])
    copy = keras.layers.deserialize(keras.layers.serialize(layer))
    assert copy.built and [tuple(w.shape) for w in copy.weights] == [(3, 2)]


def test_overridden_build_config_is_used_at_load(tmp_path):
    m = keras.Sequential([keras.Input((3,)), OwnBuildConfig(2, name="c")])
    assert keras.layers.serialize(m.layers[0])["build_config"] == {"in_dim": 3, "extra": 7}
    m.save(tmp_path / "c.keras")
    m2 = keras.models.load_model(tmp_path / "c.keras")
    assert m2.layers[0].seen == {"in_dim": 3, "extra": 7}
    np.testing.assert_array_equal(np.asarray(m2(np.ones((1, 3), "float32"))), [[3.0, 3.0]])


SGD_CONFIG = {"module": "keras.optimizers", "class_name": "SGD", "config": {
    "name": "sgd", "learning_rate": 0.10000000149011612, "weight_decay": None, "clipnorm": None,
    "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
    "ema_overwrite_frequency": None, "loss_scale_factor": None, "gradient_accumulation_steps": None,
    "momentum": 0.9, "nesterov": False}, "registered_name": None}


def test_compile_config_round_trip(tmp_path):
    i = keras.Input((3,))
    m = keras.Model(i, keras.layers.Dense(2)(i))
    assert m.get_compile_config() == {}
    m.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss=keras.losses.Huber(delta=2.0),
              metrics=["mae", keras.metrics.RootMeanSquaredError()])
    config = m.get_compile_config()
    assert config == {
        "optimizer": SGD_CONFIG, "loss": {"module": "keras.losses", "class_name": "Huber",
                                          "config": {"name": "huber_loss", "reduction": "sum_over_batch_size"},
                                          "registered_name": None},
        "loss_weights": None, "metrics": ["mae", {"module": "keras.metrics", "class_name": "RootMeanSquaredError",
                                                  "config": {"name": "root_mean_squared_error", "dtype": "float32"},
                                                  "registered_name": None}],
        "weighted_metrics": None, "run_eagerly": False, "steps_per_execution": 1, "jit_compile": False}
    m2 = keras.Model(i, keras.layers.Dense(2)(i))
    m2.compile_from_config(config)
    assert type(m2.optimizer).__name__ == "SGD" and float(m2.optimizer.momentum) == 0.9
    assert type(m2.loss).__name__ == "Huber"
    x, y = np.ones((4, 3), "float32"), np.ones((4, 2), "float32")
    m.fit(x, y, verbose=0)
    m.save(tmp_path / "cc.keras")
    m3 = keras.models.load_model(tmp_path / "cc.keras")
    assert m3.compiled and int(m3.optimizer.iterations.numpy()) == 1
    with zipfile.ZipFile(tmp_path / "cc.keras") as z:
        assert json.loads(z.read("config.json"))["compile_config"] == config
    assert set(m3.evaluate(x, y, verbose=0, return_dict=True)) == {"loss", "mae", "root_mean_squared_error"}


# -- Lambda layers --------------------------------------------------------------------------------------------
def twice(x):
    return x * 2.0


def test_lambda_saves_its_bytecode_and_loads_only_unsafe(tmp_path):
    k = 3.0
    m = keras.Sequential([keras.Input((3,)), keras.layers.Lambda(lambda x: x * k + 1.0, name="lam"),
                          keras.layers.Lambda(lambda x, a=2.0: x - a, arguments={"a": 0.5}, name="args")])
    config = m.layers[0].get_config()
    assert sorted(config) == ["arguments", "dtype", "function", "name", "trainable"]
    fn = config["function"]
    assert fn["class_name"] == "__lambda__" and sorted(fn["config"]) == ["closure", "code", "defaults"]
    assert fn["config"]["closure"] == (3.0,) and fn["config"]["defaults"] is None
    assert m.layers[1].get_config()["arguments"] == {"a": 0.5}
    m.save(tmp_path / "lam.keras")
    with pytest.raises(ValueError, match=r"^Requested the deserialization of a `Lambda` layer whose `function` is a "
                                         r"Python lambda\. This carries a potential risk"):
        keras.models.load_model(tmp_path / "lam.keras")
    with pytest.raises(ValueError, match="Requested the deserialization of a `Lambda` layer"):
        keras.layers.Lambda.from_config(config)         # outside a load: safe (Keras fails closed)
    m2 = keras.models.load_model(tmp_path / "lam.keras", safe_mode=False)
    np.testing.assert_allclose(np.asarray(m2(np.ones((1, 3), "float32"))), [[3.5, 3.5, 3.5]])


def test_lambda_of_a_named_function_and_its_output_shape():
    layer = keras.layers.Lambda(twice, output_shape=(3,), name="named")
    config = layer.get_config()
    assert config["function"] == {"module": "builtins", "class_name": "function", "config": "twice",
                                  "registered_name": "function"}
    assert config["output_shape"] == (3,)
    with pytest.raises(TypeError, match="Could not locate function 'twice'"):
        keras.layers.deserialize(keras.layers.serialize(layer))
    copy = keras.layers.deserialize(keras.layers.serialize(layer), custom_objects={"twice": twice})
    assert copy.function is twice
    with pytest.warns(UserWarning, match="The object being serialized includes a `lambda`. This is unsafe."):
        assert saving.serialize_keras_object(lambda x: x)["class_name"] == "__lambda__"


# -- layers with their own saving hooks; objects holding objects ----------------------------------------------
@saving.register_keras_serializable(package="t16")
class OwnState(keras.layers.Layer):
    def __init__(self, n=3, **kw):
        super().__init__(**kw)
        self.n = n
        self.table = np.zeros(n, "float32")
        self.vocab = []

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.n), initializer="ones", name="w")

    def call(self, x):
        return tf.matmul(x, self.w) + self.table

    def get_config(self):
        return {**super().get_config(), "n": self.n}

    def save_own_variables(self, store):
        store["w"] = self.w.numpy()
        store["table"] = self.table

    def load_own_variables(self, store):
        self.keys_seen = sorted(store.keys())
        self.w.assign(store["w"])
        self.table = np.asarray(store["table"])

    def save_assets(self, dir_path):
        with open(os.path.join(dir_path, "vocab.txt"), "w") as f:
            f.write("\n".join(self.vocab))

    def load_assets(self, dir_path):
        with open(os.path.join(dir_path, "vocab.txt")) as f:
            self.vocab = f.read().split("\n")


def test_sequential_of_layers_with_own_variables_and_assets(tmp_path):
    m = keras.Sequential([keras.Input((2,)), OwnState(3, name="own"),
                          keras.layers.Dense(1, kernel_initializer="ones", name="d")])
    own = m.layers[0]
    own.table, own.vocab = np.array([1.0, 2.0, 3.0], "float32"), ["a", "b"]
    own.w.assign(np.full((2, 3), 0.5, "float32"))
    m.save(tmp_path / "own.keras")
    with zipfile.ZipFile(tmp_path / "own.keras") as z:      # the layout Keras 3.15.1 writes
        assert sorted(z.namelist()) == ["assets/layers/own_state/vocab.txt", "config.json", "metadata.json",
                                        "model.weights.h5"]
        with h5py.File(io.BytesIO(z.read("model.weights.h5"))) as h5:
            assert sorted(h5["layers/own_state/vars"]) == ["table", "w"] and h5["layers/own_state/vars"].attrs["name"] == "own"
    m2 = keras.models.load_model(tmp_path / "own.keras")
    assert m2.layers[0].keys_seen == ["table", "w"] and m2.layers[0].vocab == ["a", "b"]
    np.testing.assert_array_equal(m2.layers[0].table, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(m2(np.ones((1, 2), "float32"))), [[9.0]])
    m.save_weights(tmp_path / "own.weights.h5")
    m3 = keras.Sequential([keras.Input((2,)), OwnState(3, name="own"), keras.layers.Dense(1, name="d")])
    m3.load_weights(tmp_path / "own.weights.h5")
    np.testing.assert_array_equal(np.asarray(m3(np.ones((1, 2), "float32"))), [[9.0]])


def test_wrappers_models_and_other_objects_round_trip():
    ser, de = saving.serialize_keras_object, saving.deserialize_keras_object
    bi = keras.layers.Bidirectional(keras.layers.GRU(2, name="f"),
                                    backward_layer=keras.layers.GRU(2, go_backwards=True, name="b"), name="bb")
    config = ser(bi)
    assert sorted(config["config"]) == ["backward_layer", "dtype", "layer", "merge_mode", "name", "trainable"]
    copy = keras.layers.deserialize(config)
    assert copy.backward_layer.name == "b" and copy.backward_layer.go_backwards
    td = de(ser(keras.layers.TimeDistributed(keras.layers.Dense(2, name="dd"), name="td")))
    assert type(td.layer).__name__ == "Dense" and td.layer.name == "dd"
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)], name="sq")
    config = ser(m)
    assert sorted(config) == ["build_config", "class_name", "compile_config", "config", "module", "registered_name"]
    assert (config["module"], config["registered_name"], config["build_config"]) == ("keras", None,
                                                                                   {"input_shape": (None, 2)})
    assert de(config).built and de(config).name == "sq"
    assert float(de(ser(keras.optimizers.Adam(learning_rate=0.01))).learning_rate) == pytest.approx(0.01)
    loss = de(ser(keras.losses.CategoricalCrossentropy(from_logits=True)))
    assert loss.get_config() == {"name": "categorical_crossentropy", "reduction": "sum_over_batch_size",
                                 "from_logits": True, "label_smoothing": 0.0, "axis": -1}
    assert de(ser(keras.initializers.HeNormal(seed=3))).get_config() == {"seed": 3, "input_axes": None,
                                                                        "output_axes": None}
    assert keras.layers.Dense(2, activity_regularizer="l2").get_config()["activity_regularizer"] == {
        "module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.01}, "registered_name": None}


# -- Keras's automatic config for layers without get_config ---------------------------------------------------
class AutoArgs(keras.layers.Layer):
    def __init__(self, units=32, act="relu", sizes=(1, 2), **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def call(self, x):
        return x


class NoKwargs(keras.layers.Layer):
    def __init__(self, units=4):
        super().__init__()
        self.units = units


class NotPlain(keras.layers.Layer):
    def __init__(self, init=None, **kw):
        super().__init__(**kw)


class Variadic(keras.layers.Layer):
    def __init__(self, *args, **kw):
        super().__init__(**kw)


DTYPE32 = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}


def test_layers_without_get_config_save_their_arguments(tmp_path):
    assert AutoArgs(5, name="a").get_config() == {"name": "a", "units": 5, "act": "relu", "sizes": (1, 2),
                                                  "trainable": True, "dtype": DTYPE32}
    assert list(AutoArgs(5, name="a", dtype="float64", trainable=False).get_config()) == [
        "name", "units", "act", "sizes", "dtype", "trainable"]
    assert NoKwargs(7).get_config() == {"units": 7, "trainable": True, "dtype": DTYPE32}
    assert Variadic().get_config() == {"trainable": True, "dtype": DTYPE32}
    assert AutoArgs.from_config(AutoArgs(5, name="a").get_config()).units == 5
    with pytest.raises(NotImplementedError, match=r"^\nObject NotPlain was created by passing\nnon-serializable "
                                                  r"argument values in `__init__\(\)`"):
        NotPlain(init=np.zeros(2)).get_config()
    with pytest.raises(NotImplementedError, match=r"^\nObject Variadic was created by passing\npositional only or "
                                                  r"variadic positional arguments"):
        Variadic(1, 2).get_config()
    m = keras.Sequential([keras.Input((2,)), AutoArgs(9, name="auto")])
    m.save(tmp_path / "auto.keras")
    with zipfile.ZipFile(tmp_path / "auto.keras") as z:
        assert json.loads(z.read("config.json"))["config"]["layers"][1]["config"] == {
            "name": "auto", "units": 9, "act": "relu", "sizes": [1, 2], "trainable": True, "dtype": DTYPE32}
    assert keras.models.load_model(tmp_path / "auto.keras", custom_objects={"AutoArgs": AutoArgs}).layers[0].units == 9


def test_configs_real_keras_reads():
    # tfcompat-written .keras files of all the cases load in real Keras 3.15.1 (tools/keras_layer_files.py, by hand);
    # these were the keys it refused or misread
    assert keras.layers.ActivityRegularization(l1=0.01).get_config() == {
        "name": "activity_regularization", "trainable": True, "dtype": DTYPE32, "l1": 0.01, "l2": 0.0}
    assert keras.layers.Cropping1D((1, 2)).get_config()["cropping"] == (1, 2)
    assert keras.layers.Cropping1D.from_config(keras.layers.Cropping1D((1, 2)).get_config()).cropping == ((1, 2),)
    assert keras.layers.RandomRotation(0.1).get_config() == {
        "name": "random_rotation", "trainable": True, "dtype": DTYPE32, "seed": None, "data_format": "channels_last",
        "fill_mode": "reflect", "interpolation": "bilinear", "fill_value": 0.0, "factor": (-0.1, 0.1)}
    q = keras.Input((3, 4))
    mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)
    mha(q, q)
    assert mha.get_build_config() == {"shapes_dict": {"query_shape": (None, 3, 4), "value_shape": (None, 3, 4)}}
