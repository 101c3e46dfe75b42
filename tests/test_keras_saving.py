"""Keras 3 files: `.weights.h5`, `.keras`, legacy `.h5`, configs; fixtures written by real Keras 3.15
(tests/fixtures/keras/make_fixtures.py). Real Keras also loads the files tfcompat writes (checked by hand)."""
import io
import json
import os
import re
import zipfile

import h5py
import numpy as np
import pytest

import tfcompat as tf
from tfcompat.keras import saving

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "keras")
EXP = np.load(os.path.join(FIX, "expected.npz"))


def fx(name):
    return os.path.join(FIX, name)


def h5_layout(f):
    out = {}

    def visit(name, obj):
        out[name] = (type(obj).__name__, {k: str(v) for k, v in obj.attrs.items()}, getattr(obj, "shape", None),
                     str(getattr(obj, "dtype", "")))
    f.visititems(visit)
    return out


def json_keys(x, path=""):
    if isinstance(x, dict):
        return set().union(*([{f"{path}/{k}"} | json_keys(v, f"{path}/{k}") for k, v in x.items()] or [set()]))
    if isinstance(x, list):
        return set().union(*([json_keys(v, f"{path}[{i}]") for i, v in enumerate(x)] or [set()]))
    return set()


def seq_model():
    return tf.keras.Sequential([tf.keras.Input((6, 6, 2)), tf.keras.layers.Conv2D(3, 3, activation="relu"),
                                tf.keras.layers.BatchNormalization(), tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(4)], name="seq")


def func_model():
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((2,), name="b")
    x = tf.keras.layers.Dense(4, activation="tanh")(a)
    y = tf.keras.layers.Dense(4)(b)
    z = tf.keras.layers.Concatenate()([x, y])
    return tf.keras.Model([a, b], tf.keras.layers.Dense(2, name="out")(z), name="func")


# -- interop: files written by real Keras -------------------------------------------------------------------
def test_load_keras_written_weights_h5():
    m = seq_model()
    m.load_weights(fx("seq.weights.h5"))
    np.testing.assert_allclose(m(EXP["x_seq"]).numpy(), EXP["y_seq"], atol=1e-5)
    f = func_model()
    assert f.load_weights(fx("func.weights.h5")) is None
    np.testing.assert_allclose(f([EXP["xa"], EXP["xb"]]).numpy(), EXP["y_func"], atol=1e-5)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_load_keras_written_dot_keras():
    m = tf.keras.models.load_model(fx("seq.keras"))
    assert [l.name for l in m.layers] == ["conv2d", "batch_normalization", "flatten", "dense"]
    np.testing.assert_allclose(m(EXP["x_seq"]).numpy(), EXP["y_seq"], atol=1e-5)
    f = saving.load_model(fx("func.keras"))
    assert [l.name for l in f.layers] == ["a", "b", "dense", "dense_1", "concatenate", "out"]
    np.testing.assert_allclose(f([EXP["xa"], EXP["xb"]]).numpy(), EXP["y_func"], atol=1e-5)


def test_load_legacy_h5_model():
    m = saving.load_model(fx("seq_legacy.h5"))
    np.testing.assert_allclose(m(EXP["x_seq"]).numpy(), EXP["y_seq"], atol=1e-5)
    m2 = seq_model()
    m2.load_weights(fx("seq_legacy.h5"))
    np.testing.assert_allclose(m2(EXP["x_seq"]).numpy(), EXP["y_seq"], atol=1e-5)


# -- layout: files written by tfcompat match Keras's ----------------------------------------------------------
def test_weights_h5_layout_matches_keras(tmp_path):
    for name, make in (("seq", seq_model), ("func", func_model)):
        tf.keras.backend.clear_session()
        model = make()
        model.save_weights(tmp_path / f"{name}.weights.h5")
        with h5py.File(fx(f"{name}.weights.h5")) as ref, h5py.File(tmp_path / f"{name}.weights.h5") as mine:
            want = {k: v for k, v in h5_layout(ref).items() if not k.startswith("optimizer")}
            assert h5_layout(mine) == want
            assert dict(mine.attrs) == dict(ref.attrs) == {}


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_dot_keras_layout_matches_keras(tmp_path):
    for name in ("seq", "func"):
        model = saving.load_model(fx(f"{name}.keras"))
        model.save(tmp_path / f"{name}.keras")
        with zipfile.ZipFile(fx(f"{name}.keras")) as ref, zipfile.ZipFile(tmp_path / f"{name}.keras") as mine:
            assert mine.namelist() == ref.namelist() == ["metadata.json", "config.json", "model.weights.h5"]
            assert [i.compress_type for i in mine.infolist()] == [zipfile.ZIP_STORED] * 3
            assert set(json.loads(mine.read("metadata.json"))) == {"keras_version", "date_saved"}
            want, got = json.loads(ref.read("config.json")), json.loads(mine.read("config.json"))
            assert json_keys(got) == {k for k in json_keys(want) if "shared_object_id" not in k}
            assert got["config"]["layers"] == [
                {k: v for k, v in l.items()} for l in _strip_shared(want["config"]["layers"])]
            ref_h5 = h5_layout(h5py.File(io.BytesIO(ref.read("model.weights.h5"))))
            mine_h5 = h5_layout(h5py.File(io.BytesIO(mine.read("model.weights.h5"))))
            if "optimizer" not in mine_h5:      # saved by a model that was not compiled
                ref_h5 = {k: v for k, v in ref_h5.items() if not k.startswith("optimizer")}
            assert mine_h5 == ref_h5


def _strip_shared(x):
    if isinstance(x, dict):
        return {k: _strip_shared(v) for k, v in x.items() if k != "shared_object_id"}
    if isinstance(x, list):
        return [_strip_shared(v) for v in x]
    return x


def test_config_json_structure(tmp_path):
    m = seq_model()
    m.save(tmp_path / "m.keras")
    config = json.loads(zipfile.ZipFile(tmp_path / "m.keras").read("config.json"))
    assert {k: config[k] for k in ("module", "class_name", "registered_name", "build_config", "compile_config")} \
        == {"module": "keras", "class_name": "Sequential", "registered_name": None,
            "build_config": {"input_shape": [None, 6, 6, 2]}, "compile_config": {}}
    f = json.loads(func_model().to_json())
    assert (f["module"], f["class_name"], f["registered_name"]) == \
        ("keras.src.models.functional", "Functional", "Functional")
    assert f["config"]["input_layers"] == [["a", 0, 0], ["b", 0, 0]]
    assert f["config"]["output_layers"] == ["out", 0, 0]


# -- round trips --------------------------------------------------------------------------------------------
def test_save_load_weights_roundtrip_pathlib(tmp_path):
    m, m2 = seq_model(), seq_model()
    x = EXP["x_seq"]
    p = tmp_path / "w.weights.h5"
    m.save_weights(p)
    assert m2.load_weights(p) is None
    np.testing.assert_allclose(m2(x).numpy(), m(x).numpy(), atol=1e-6)


def test_subclassed_model_with_tf_variables(tmp_path):
    class Linear(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.W = tf.Variable(5., name="weight")
            self.B = tf.Variable(10., name="bias")

        def call(self, inputs):
            return inputs * self.W + self.B
    m = Linear()
    m(tf.constant([1.0]))
    m.save_weights(tmp_path / "test.weights.h5")
    assert m.load_weights(tmp_path / "test.weights.h5") is None
    with h5py.File(tmp_path / "test.weights.h5") as f:   # Keras 3 does not track plain tf.Variables
        assert h5_layout(f) == {"vars": ("Group", {"name": "linear"}, None, "")}


def test_subclassed_model_attribute_paths_and_registered_roundtrip(tmp_path):
    @saving.register_keras_serializable(package="T")
    class Sub(tf.keras.Model):
        def __init__(self, units=3, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.d2 = tf.keras.layers.Dense(units)
            self.d1 = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.d2(self.d1(x))

        def get_config(self):
            return {**super().get_config(), "units": self.units}
    m = Sub(name="sub")
    x = np.ones((2, 4), "float32")
    m(x)
    m.save_weights(tmp_path / "s.weights.h5")
    with h5py.File(tmp_path / "s.weights.h5") as f:
        assert sorted(h5_layout(f)) == ["d1", "d1/vars", "d1/vars/0", "d1/vars/1", "d2", "d2/vars", "d2/vars/0",
                                        "d2/vars/1", "vars"]
    assert saving.get_registered_object("T>Sub") is Sub
    assert saving.serialize_keras_object(m)["registered_name"] == "T>Sub"
    m2 = Sub.from_config(m.get_config())
    assert m2.units == 3 and m2.name == "sub"
    m2(x)
    m2.load_weights(tmp_path / "s.weights.h5")
    np.testing.assert_allclose(m2(x).numpy(), m(x).numpy())


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_keras_roundtrip_and_json_and_clone(tmp_path):
    for model, x in ((seq_model(), EXP["x_seq"]), (func_model(), [EXP["xa"], EXP["xb"]])):
        y = model(x).numpy()
        model.save(tmp_path / "m.keras")
        loaded = tf.keras.models.load_model(tmp_path / "m.keras")
        np.testing.assert_allclose(loaded(x).numpy(), y, atol=1e-6)
        assert type(loaded) is type(model) and loaded.name == model.name
        rebuilt = saving.model_from_json(model.to_json())
        assert [l.name for l in rebuilt.layers] == [l.name for l in model.layers]
        assert [w.shape for w in rebuilt.weights] == [w.shape for w in model.weights]
        clone = saving.clone_model(model)
        assert clone is not model and [w.shape for w in clone.weights] == [w.shape for w in model.weights]
        cfg = model.get_config()
        again = type(model).from_config(cfg)
        assert again.get_config() == cfg


def test_custom_object_scope_and_deserialize():
    class MyDense(tf.keras.layers.Dense):
        pass
    config = saving.serialize_keras_object(MyDense(3, name="md"))
    assert config["class_name"] == "MyDense" and config["registered_name"] == "MyDense"
    with pytest.raises(TypeError, match="Could not locate class 'MyDense'"):
        saving.deserialize_keras_object(config)
    with saving.custom_object_scope({"MyDense": MyDense}):
        layer = saving.deserialize_keras_object(config)
    assert isinstance(layer, MyDense) and layer.units == 3
    assert isinstance(saving.deserialize_keras_object(config, custom_objects={"MyDense": MyDense}), MyDense)
    assert saving.CustomObjectScope is saving.custom_object_scope
    d = saving.deserialize_keras_object(saving.serialize_keras_object(tf.keras.layers.Dense(2, activation="relu")))
    assert type(d).__name__ == "Dense" and d.activation.__name__ == "relu"


# -- errors -------------------------------------------------------------------------------------------------
def small(units=4, extra=False):
    layers = [tf.keras.Input((3,)), tf.keras.layers.Dense(units, name="d1")]
    if extra:
        layers.append(tf.keras.layers.Dense(2, name="d2"))
    return tf.keras.Sequential(layers, name="s")


def test_missing_extra_misshaped_weights(tmp_path):
    small().save_weights(tmp_path / "a.weights.h5")
    with pytest.raises(ValueError) as e:
        small(4, extra=True).load_weights(tmp_path / "a.weights.h5")
    assert str(e.value) == (
        "A total of 1 objects could not be loaded. Example error message for object <Dense name=d2, built=True>:\n\n"
        "Layer 'd2' expected 2 variables, but received 0 variables during loading. Expected: ['kernel', 'bias']"
        "\n\nList of objects that could not be loaded:\n[<Dense name=d2, built=True>]")
    with pytest.raises(ValueError) as e:
        small(5).load_weights(tmp_path / "a.weights.h5")
    assert str(e.value).startswith(
        "A total of 1 objects could not be loaded. Example error message for object <Dense name=d1, built=True>:\n\n"
        "The shape of the target variable and the shape of the target value in `variable.assign(value)` must "
        "match. variable.shape=(3, 5), Received: value.shape=(3, 4). Target variable: <Variable path=")
    assert str(e.value).endswith("List of objects that could not be loaded:\n[<Dense name=d1, built=True>]")
    small(4, extra=True).save_weights(tmp_path / "b.weights.h5")
    assert small().load_weights(tmp_path / "b.weights.h5") is None   # extra layers in the file are ignored (Keras)
    with h5py.File(tmp_path / "c.weights.h5", "w") as f:            # an extra variable for a layer
        small().save_weights(tmp_path / "a.weights.h5")
        with h5py.File(tmp_path / "a.weights.h5") as src:
            for k in src:
                src.copy(k, f)
        f["layers/dense/vars/2"] = np.zeros(3, "float32")
    with pytest.raises(ValueError, match=re.escape("Layer 'd1' expected 2 variables, but received 3 variables")):
        small().load_weights(tmp_path / "c.weights.h5")


def test_filename_and_build_errors(tmp_path):
    m = small()
    with pytest.raises(ValueError, match=re.escape(
            f"The filename must end in `.weights.h5`. Received: filepath={tmp_path}/x.h5")):
        m.save_weights(tmp_path / "x.h5")
    with pytest.raises(ValueError, match=re.escape(
            f"File format not supported: filepath={tmp_path}/x.foo. Keras 3 only supports V3 `.keras` files, "
            "`.weights.h5` files, legacy H5 format files (`.h5` extension), or Orbax checkpoints.")):
        m.load_weights(tmp_path / "x.foo")
    with pytest.raises(ValueError, match=re.escape(
            "Invalid filepath extension for saving. Please add either a `.keras` extension")):
        m.save(tmp_path / "x.foo")
    with pytest.raises(ValueError, match=re.escape(
            f"File not found: filepath={tmp_path}/nope.keras. Please ensure the file is an accessible `.keras` "
            "zip file.")):
        saving.load_model(tmp_path / "nope.keras")

    class Empty(tf.keras.Model):
        def call(self, x):
            return x
    with pytest.raises(ValueError, match="You are saving a model that has not yet been built. Try building the "
                                         "model first by calling it on some data or by using `build\\(\\)`."):
        Empty().save_weights(tmp_path / "e.weights.h5")


def test_lambda_refused_unless_unsafe():
    with pytest.raises(ValueError, match=re.escape(
            "Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. This carries a "
            "potential risk of arbitrary code execution and thus it is disallowed by default. If you trust the "
            "source of the artifact, you can override this error by passing `safe_mode=False` to the loading "
            "function, or calling `keras.config.enable_unsafe_deserialization().")):
        saving.load_model(fx("lam.keras"))
    with pytest.raises(ValueError, match="Requested the deserialization of a Python lambda"):
        saving.deserialize_keras_object({"class_name": "__lambda__", "config": {"value": "AA=="}})
    m = saving.load_model(fx("lam.keras"), safe_mode=False)
    np.testing.assert_allclose(m(np.ones((1, 3), "float32")).numpy(), [[2.0, 2.0, 2.0]])


def test_unknown_module_is_never_imported():
    config = {"module": "os", "class_name": "system", "config": {}, "registered_name": None}
    with pytest.raises(TypeError, match="Could not locate class 'system'"):
        saving.deserialize_keras_object(config)


# -- atomic writes ------------------------------------------------------------------------------------------
def test_failed_save_leaves_previous_file(tmp_path, monkeypatch):
    from tfcompat.keras.saving import weights as weights_io
    m = small()
    p = tmp_path / "m.weights.h5"
    k = tmp_path / "m.keras"
    m.save_weights(p)
    m.save(k)
    before_w, before_k = p.read_bytes(), k.read_bytes()

    def boom(*args, **kwargs):
        raise OSError("disk full")
    monkeypatch.setattr(weights_io, "_own_variables", boom)
    with pytest.raises(OSError, match="disk full"):
        m.save_weights(p)
    with pytest.raises(OSError, match="disk full"):
        m.save(k)
    assert p.read_bytes() == before_w and k.read_bytes() == before_k
    assert sorted(os.listdir(tmp_path)) == ["m.keras", "m.weights.h5"]


def test_keras_file_with_vocabulary_assets_and_string_input(tmp_path):
    """Adapted lookup vocabularies travel as Keras 3's `assets/<path>/vocabulary.txt` members."""
    import zipfile
    texts = np.array(["good movie", "bad movie"] * 4)
    vec = tf.keras.layers.TextVectorization(max_tokens=10, output_sequence_length=3)
    vec.adapt(texts)
    model = tf.keras.Sequential([tf.keras.Input((), dtype="string"), vec, tf.keras.layers.Embedding(10, 4)])
    model.save(tmp_path / "t.keras")
    names = zipfile.ZipFile(tmp_path / "t.keras").namelist()
    assert names == ["metadata.json", "config.json", "model.weights.h5",
                     "assets/layers/text_vectorization/vocabulary.txt",
                     "assets/layers/text_vectorization/_lookup_layer/vocabulary.txt"]
    loaded = tf.keras.models.load_model(tmp_path / "t.keras")
    assert loaded.layers[0].get_vocabulary() == ["", "[UNK]", "movie", "good", "bad"]
    x = tf.constant(["good movie", "bad film"])
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


# -- one traversal: the order both writing and reading use --------------------------------------------------
class Sub(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.blocks = [tf.keras.layers.Dense(3), tf.keras.layers.Dense(3),
                       [tf.keras.layers.Dense(3), tf.keras.layers.BatchNormalization()]]
        self.heads = {"b": tf.keras.layers.Dense(2), "a": tf.keras.layers.Dense(2)}
        self.zz = tf.keras.layers.Dense(3)
        self._hidden = tf.keras.layers.Dense(3)

    def call(self, x):
        for b in self.blocks[:2]:
            x = b(x)
        x = self._hidden(self.zz(self.blocks[2][1](self.blocks[2][0](x))))
        return self.heads["a"](x) + self.heads["b"](x)


def test_one_traversal_orders_writing_and_reading(tmp_path):
    """`weights.saveables` is the single walk: the file's groups are its paths; Keras 3.15 wrote these paths for
    the same subclassed model (attributes sorted, a subclassed Model's `layers` after `heads`, before `zz`)."""
    from tfcompat.keras.saving import weights as weights_io
    tf.keras.backend.clear_session()
    x = np.ones((2, 4), "float32")
    m = Sub()
    m(x)
    m.compile(optimizer="adam", loss="mse")
    m.train_on_batch(x, np.zeros((2, 2), "float32"))
    m.save_weights(tmp_path / "s.weights.h5")
    walked = [(path, obj.name, len(variables)) for path, obj, variables in weights_io.saveables(m)]
    assert walked == [
        ("", "sub", 0), ("blocks/dense", "dense", 2), ("blocks/dense_1", "dense_1", 2),
        ("blocks/container/dense", "dense_2", 2), ("blocks/container/batch_normalization", "batch_normalization", 4),
        ("heads/dense", "dense_3", 2), ("heads/dense_1", "dense_4", 2), ("layers/dense_5", "dense_5", 2),
        ("layers/dense_6", "dense_6", 2), ("optimizer", "adam", 34)]
    with h5py.File(tmp_path / "s.weights.h5") as f:
        groups = {k[:-len("/vars")].rstrip("/") for k, v in h5_layout(f).items() if k.split("/")[-1] == "vars"}
        assert groups == {p for p, _, _ in walked}
        assert f["heads/dense/vars"].attrs["name"] == "dense_3"      # dict values in insertion order
    m2 = Sub()
    m2(x)
    m2.load_weights(tmp_path / "s.weights.h5")
    np.testing.assert_allclose(m2(x).numpy(), m(x).numpy())


def test_reordered_model_does_not_load(tmp_path):
    """Weights are matched by traversal path, not by name: a model with its layers' shapes swapped fails as in
    Keras 3.15 (every mismatching object listed, nothing assigned)."""
    def make(a, b):
        return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(a, name="p"),
                                    tf.keras.layers.Dense(b, name="q")], name="s")
    make(4, 2).save_weights(tmp_path / "r.weights.h5")
    m = make(2, 4)
    before = [w.numpy().copy() for w in m.weights]
    with pytest.raises(ValueError) as e:
        m.load_weights(tmp_path / "r.weights.h5")
    assert str(e.value).startswith(
        "A total of 2 objects could not be loaded. Example error message for object <Dense name=p, built=True>:\n\n"
        "The shape of the target variable and the shape of the target value in `variable.assign(value)` must "
        "match. variable.shape=(3, 2), Received: value.shape=(3, 4). Target variable: <Variable path=s/p/kernel, "
        "shape=(3, 2), dtype=float32, value=")
    assert str(e.value).endswith("List of objects that could not be loaded:\n"
                                 "[<Dense name=p, built=True>, <Dense name=q, built=True>]")
    for w, b in zip(m.weights, before):
        np.testing.assert_array_equal(w.numpy(), b)


def test_assets_follow_the_weights_paths(tmp_path):
    """Assets live at their layer's traversal path, not its name: Keras 3.15's members for these two models."""
    texts = np.array(["good movie", "bad movie"] * 4)
    vec = tf.keras.layers.TextVectorization(max_tokens=10, output_sequence_length=3, name="vec")
    vec.adapt(texts)
    model = tf.keras.Sequential([tf.keras.Input((), dtype="string"), vec, tf.keras.layers.Embedding(10, 4)])
    model.save(tmp_path / "t.keras")
    assert sorted(zipfile.ZipFile(tmp_path / "t.keras").namelist()[3:]) == [
        "assets/layers/text_vectorization/_lookup_layer/vocabulary.txt",
        "assets/layers/text_vectorization/vocabulary.txt"]
    assert tf.keras.models.load_model(tmp_path / "t.keras").layers[0].get_vocabulary() == vec.get_vocabulary()

    class Sub(tf.keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.lk = [tf.keras.layers.StringLookup(name="look")]
            self.lk[0].adapt(np.array(["a", "b"]))
            self.other = tf.keras.layers.StringLookup(name="zz")
            self.other.adapt(np.array(["c"]))

        def call(self, x):
            return self.lk[0](x)
    s = Sub()
    s(np.array(["a"]))
    s.save(tmp_path / "s.keras")
    assert zipfile.ZipFile(tmp_path / "s.keras").namelist()[3:] == [
        "assets/layers/string_lookup/vocabulary.txt", "assets/layers/string_lookup_1/vocabulary.txt"]


# -- legacy .h5 whole-model files, as Keras 3.15.1 writes them -------------------------------------------------
LEGACY_LAYOUT = {   # h5 paths and attributes of `model.save("m.h5")` in Keras 3.15.1 (compiled Adam, trained)
    "model_weights": ["backend", "keras_version", "layer_names"],
    "model_weights/bn": ["weight_names"], "model_weights/bn/s": [], "model_weights/bn/s/bn": [],
    "model_weights/bn/s/bn/beta": [], "model_weights/bn/s/bn/gamma": [], "model_weights/bn/s/bn/moving_mean": [],
    "model_weights/bn/s/bn/moving_variance": [], "model_weights/d1": ["weight_names"], "model_weights/d1/s": [],
    "model_weights/d1/s/d1": [], "model_weights/d1/s/d1/bias": [], "model_weights/d1/s/d1/kernel": [],
    "model_weights/top_level_model_weights": ["weight_names"], "optimizer_weights": ["weight_names"],
    "optimizer_weights/adam": [], "optimizer_weights/adam/iteration": [], "optimizer_weights/adam/learning_rate": [],
    "optimizer_weights/adam/s_bn_beta_momentum": [], "optimizer_weights/adam/s_bn_beta_velocity": [],
    "optimizer_weights/adam/s_bn_gamma_momentum": [], "optimizer_weights/adam/s_bn_gamma_velocity": [],
    "optimizer_weights/adam/s_d1_bias_momentum": [], "optimizer_weights/adam/s_d1_bias_velocity": [],
    "optimizer_weights/adam/s_d1_kernel_momentum": [], "optimizer_weights/adam/s_d1_kernel_velocity": []}
LEGACY_TRAINING = {"loss": "mse", "loss_weights": None, "metrics": ["mae"], "weighted_metrics": None,
                   "run_eagerly": False, "steps_per_execution": 1, "jit_compile": False, "optimizer_config": {
                       "class_name": "Adam", "config": {
                           "name": "adam", "learning_rate": 0.0010000000474974513, "weight_decay": None,
                           "clipnorm": None, "global_clipnorm": None, "clipvalue": None, "use_ema": False,
                           "ema_momentum": 0.99, "ema_overwrite_frequency": None, "loss_scale_factor": None,
                           "gradient_accumulation_steps": None, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07,
                           "amsgrad": False}}}


def test_legacy_h5_save_and_load(tmp_path, caplog):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, activation="relu", name="d1"),
                             tf.keras.layers.BatchNormalization(name="bn")], name="s")
    m.compile(optimizer="adam", loss="mse", metrics=["mae"])
    m.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    with caplog.at_level("WARNING", logger="absl"):
        m.save(tmp_path / "m.h5")
    assert caplog.records[-1].getMessage().startswith(
        "You are saving your model as an HDF5 file via `model.save()` or `keras.saving.save_model(model)`. This file "
        "format is considered legacy.")
    with h5py.File(tmp_path / "m.h5") as f:
        layout = {}
        f.visititems(lambda name, obj: layout.__setitem__(name, sorted(obj.attrs)))
        assert layout == LEGACY_LAYOUT
        assert sorted(f.attrs) == ["backend", "keras_version", "model_config", "training_config"]
        assert f.attrs["keras_version"] == "3.15.1" and f.attrs["backend"] == "tensorflow"
        config = json.loads(f.attrs["model_config"])
        assert config["class_name"] == "Sequential" and config["config"]["build_input_shape"] == [None, 3]
        assert [lc["class_name"] for lc in config["config"]["layers"]] == ["InputLayer", "Dense", "BatchNormalization"]
        assert all(sorted(lc) == ["class_name", "config"] for lc in config["config"]["layers"])
        assert json.loads(f.attrs["training_config"]) == LEGACY_TRAINING
        assert list(f["model_weights"].attrs["layer_names"]) == ["d1", "bn"]
        assert list(f["model_weights/d1"].attrs["weight_names"]) == ["s/d1/kernel", "s/d1/bias"]
        assert f["model_weights/top_level_model_weights"].attrs["weight_names"].dtype == np.float64
    with pytest.raises(ValueError, match=r"^Could not deserialize 'keras\.metrics\.mse' because it is not a "
                                         r"KerasSaveable subclass$"):
        saving.load_model(tmp_path / "m.h5")          # Keras 3.15 cannot resolve the alias "mse" it saved
    m2 = saving.load_model(tmp_path / "m.h5", custom_objects={"mse": tf.keras.losses.mse})
    # compiled from training_config; Keras builds the optimizer over the model's own (no) variables: only
    # `iterations` and `learning_rate` are restored
    assert m2.compiled and type(m2.optimizer).__name__ == "Adam" and int(m2.optimizer.iterations.numpy()) == 1
    assert len(m2.optimizer.variables) == 2
    for a, b in zip(m2.optimizer.variables, m.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_allclose(m2.predict(np.ones((2, 3)), verbose=0), m.predict(np.ones((2, 3)), verbose=0))
    before = m.evaluate(np.ones((4, 3)), np.ones((4, 2)), verbose=0, return_dict=True)
    after = m2.evaluate(np.ones((4, 3)), np.ones((4, 2)), verbose=0, return_dict=True)
    assert after == {"loss": before["loss"], "mean_absolute_error": before["mae"]}    # Keras 3.15 renames it too
    m.save(tmp_path / "no_opt.h5", include_optimizer=False)
    with h5py.File(tmp_path / "no_opt.h5") as f:
        assert "optimizer_weights" not in f and "training_config" not in f.attrs
    caplog.clear()
    with caplog.at_level("WARNING", logger="absl"):
        assert not getattr(saving.load_model(tmp_path / "no_opt.h5"), "compiled", False)
    assert caplog.records[-1].getMessage() == ("No training configuration found in the save file, so the model was "
                                               "*not* compiled. Compile it manually.")


def test_declared_saving_limits(tmp_path):
    m = seq_model()
    with pytest.raises(NotImplementedError, match=r"^Model.save_weights\(max_shard_size=1\) is not supported"):
        m.save_weights(tmp_path / "w.weights.h5", max_shard_size=1)
    with pytest.raises(NotImplementedError, match=r"zipped=False\) is not supported by tfcompat"):
        m.save(tmp_path / "m", zipped=False)
    (tmp_path / "unzipped").mkdir()
    (tmp_path / "unzipped" / "config.json").write_text("{}")
    with pytest.raises(NotImplementedError, match=r"^keras.saving.load_model of a model directory \(saved with "
                                                  r"zipped=False\)"):
        saving.load_model(tmp_path / "unzipped")
    with pytest.raises(ValueError, match=r"^The following argument\(s\) are not supported: \['save_traces'\]"):
        m.save(tmp_path / "m.keras", save_traces=True)
