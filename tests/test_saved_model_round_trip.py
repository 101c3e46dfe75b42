"""tf.saved_model round trips of tf.Module trees: values, dtypes, signatures, nested modules and containers,
variable writes and gradients through loaded functions, errors. Expected values from TF 2.21 running the same code."""
import os
import re

import numpy as np
import pytest

import tfcompat as tf


class Inner(tf.Module):
    def __init__(self):
        super().__init__(name="inner")
        self.scale = tf.Variable(2.0, dtype=tf.float64, name="scale")
        self.count = tf.Variable([1, 2], dtype=tf.int64, trainable=False, name="count")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
    def apply(self, x):
        return x * self.scale


class Outer(tf.Module):
    def __init__(self):
        super().__init__(name="outer")
        self.inner = Inner()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
        self.k = tf.Variable(7, dtype=tf.int32, name="k")
        self.layers = [tf.Variable(0.5, name="l0"), tf.Variable(1.5, name="l1")]

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def f(self, x, n):
        return {"y": tf.matmul(x, self.w) * self.layers[1], "n": n + self.k}

    @tf.function(input_signature=[tf.TensorSpec([2, 2], tf.float32)])
    def update(self, delta):
        self.w.assign_add(delta)
        return tf.reduce_sum(self.w)


@pytest.fixture
def saved(tmp_path):
    m = Outer()
    m.f(tf.zeros([3, 2]), tf.constant(0))           # tfcompat replays the shapes traced before saving
    m.inner.apply(tf.zeros([3], tf.float64))
    tf.saved_model.save(m, str(tmp_path), signatures={"serving_default": m.f, "apply": m.inner.apply})
    return m, tf.saved_model.load(str(tmp_path))


def test_loaded_functions_give_the_saved_values(saved):
    _, r = saved
    out = r.f(tf.constant([[1.0, 0.0], [0.5, 2.0], [-1.0, 1.0]]), tf.constant(3))
    assert sorted(out) == ["n", "y"]
    assert out["y"].numpy().tolist() == [[1.5, 3.0], [9.75, 13.5], [3.0, 3.0]] and out["y"].dtype == tf.float32
    assert int(out["n"]) == 10 and out["n"].dtype == tf.int32
    assert r.inner.apply(tf.constant([1.0, -2.5, 4.0], tf.float64)).numpy().tolist() == [2.0, -5.0, 8.0]


def test_variables_keep_names_dtypes_shapes_values_and_trainable(saved):
    _, r = saved
    got = [(v.name, v.dtype.name, v.shape.as_list(), v.trainable, v.numpy().tolist())
           for v in [r.w, r.k, r.layers[0], r.layers[1], r.inner.scale, r.inner.count]]
    assert got == [("w:0", "float32", [2, 2], True, [[1.0, 2.0], [3.0, 4.0]]), ("k:0", "int32", [], True, 7),
                   ("l0:0", "float32", [], True, 0.5), ("l1:0", "float32", [], True, 1.5),
                   ("scale:0", "float64", [], True, 2.0), ("count:0", "int64", [2], False, [1, 2])]
    assert type(r.layers).__name__ == "ListWrapper" and isinstance(r.w, tf.Variable)
    assert [float(v) for v in r.layers] == [0.5, 1.5]


def test_signatures_take_keywords_and_name_their_outputs(saved):
    _, r = saved
    assert sorted(r.signatures) == ["apply", "serving_default"]
    out = r.signatures["serving_default"](x=tf.constant([[2.0, 1.0], [0.0, 1.0], [1.0, 1.0]]), n=tf.constant(1))
    assert sorted(out) == ["n", "y"] and int(out["n"]) == 8
    assert out["y"].numpy().tolist() == [[7.5, 12.0], [4.5, 6.0], [6.0, 9.0]]
    out = r.signatures["apply"](x=tf.constant([3.0, 0.5, -1.0], tf.float64))
    assert list(out) == ["output_0"] and out["output_0"].numpy().tolist() == [6.0, 1.0, -2.0]


def test_loaded_functions_write_and_read_the_loaded_variables(saved):
    m, r = saved
    assert float(r.update(tf.ones([2, 2]))) == 14.0 and r.w.numpy().tolist() == [[2.0, 3.0], [4.0, 5.0]]
    assert float(r.update(tf.ones([2, 2]))) == 18.0 and r.w.numpy().tolist() == [[3.0, 4.0], [5.0, 6.0]]
    assert m.w.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]       # the saved object is not the loaded one
    r.inner.scale.assign(3.0)
    assert r.inner.apply(tf.constant([1.0, 2.0, 3.0], tf.float64)).numpy().tolist() == [3.0, 6.0, 9.0]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(r.f(tf.ones([3, 2]), tf.constant(0))["y"])
    assert tape.gradient(loss, r.w).numpy().tolist() == [[4.5, 4.5], [4.5, 4.5]]


def test_a_call_that_does_not_bind_the_signature_raises_tfs_type_error(saved):
    _, r = saved
    with pytest.raises(TypeError) as e:
        r.f(tf.constant([1.0, 2.0]), tf.constant(1))
    assert str(e.value) == (
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(2,), dtype=tf.float32, name=None) "
        "to TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)`. Received args: (<tf.Tensor: shape=(2,), "
        "dtype=float32, numpy=array([1., 2.], dtype=float32)>, <tf.Tensor: shape=(), dtype=int32, numpy=1>) and "
        "kwargs: {} for signature: (x: TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), n: "
        "TensorSpec(shape=(), dtype=tf.int32, name=None)).")


def test_a_function_with_a_signature_is_traced_when_saved(tmp_path):
    m = Outer()                 # update never called: saving traces it, as TF does
    tf.saved_model.save(m, str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    assert float(r.update(tf.ones([2, 2]))) == 14.0


def test_containers_come_back_as_tf_wrappers_in_order_and_resave(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])
    m.d = {"z": tf.Variable(3), "b": [tf.Variable(4.0)], "a": tf.Variable(5.0)}
    tf.saved_model.save(m, str(tmp_path / "a"))
    r = tf.saved_model.load(str(tmp_path / "a"))
    assert list(r.d) == ["z", "b", "a"] and type(r.d).__name__ == "_DictWrapper"
    assert str(r.d) == ("{'z': <tf.Variable 'Variable:0' shape=() dtype=int32, numpy=3>, 'b': ListWrapper([<tf."
                         "Variable 'Variable:0' shape=() dtype=float32, numpy=4.0>]), 'a': <tf.Variable 'Variable:0' "
                         "shape=() dtype=float32, numpy=5.0>}")
    tf.saved_model.save(r, str(tmp_path / "b"))         # a loaded object saves again
    r2 = tf.saved_model.load(str(tmp_path / "b"))
    np.testing.assert_array_equal(r2.v.numpy(), [1.0, 2.0])
    assert list(r2.d) == ["z", "b", "a"] and float(r2.d["b"][0]) == 4.0


def test_limits_raise_not_implemented(saved, tmp_path):
    _, r = saved
    out = r.f(tf.ones([1, 2]), tf.constant(0))          # TF runs any batch size of the signature (so does tfcompat)
    assert out["y"].numpy().tolist() == [[6.0, 9.0]] and int(out["n"]) == 7
    with pytest.raises(NotImplementedError, match=r"^tf.saved_model.save: re-saving f, a function loaded from a "
                                                  r"SavedModel, is not supported by tfcompat$"):
        tf.saved_model.save(r, str(tmp_path / "again"))


def test_missing_directory_names_the_file(tmp_path):
    missing = str(tmp_path / "nope")
    with pytest.raises(OSError) as e:
        tf.saved_model.load(missing)
    assert str(e.value) == f"SavedModel file does not exist at: {missing}{os.sep}{{saved_model.pbtxt|saved_model.pb}}"


@pytest.mark.parametrize("containers", [{"list": [["v"]], "dict": []}, {"list": [], "dict": [[["d"], ["x"]]]},
                                        {"list": [], "dict": [[["d"], [1]]]}, {"list": []}])
def test_tampered_container_entries_are_refused(tmp_path, containers):
    import json
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.d = {"a": tf.Variable(2.0)}
    tf.saved_model.save(m, str(tmp_path))
    path = tmp_path / "tfcompat_saved_model.json"
    meta = json.loads(path.read_text())
    assert meta["version"] == 3 and meta["containers"] == {"list": [], "dict": [[["d"], ["a"]]]}
    meta["containers"] = containers
    path.write_text(json.dumps(meta))
    with pytest.raises(tf.errors.DataLossError, match="containers"):
        tf.saved_model.load(str(tmp_path))


def test_version_1_files_still_load(tmp_path):
    import json
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])
    tf.saved_model.save(m, str(tmp_path))
    path = tmp_path / "tfcompat_saved_model.json"
    meta = json.loads(path.read_text())
    del meta["containers"], meta["aliases"], meta["keras"]
    meta["version"] = 1
    path.write_text(json.dumps(meta))
    assert tf.saved_model.load(str(tmp_path)).v.numpy().tolist() == [1.0, 2.0]


def test_an_object_reached_by_two_paths_loads_as_one(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.lst = [m.v, tf.Variable(2.0)]
    m.d = {"a": m.v}
    m.again = m.lst
    tf.saved_model.save(m, str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    assert r.lst[0] is r.v and r.d["a"] is r.v and r.again is r.lst
    assert [float(v) for v in r.lst] == [1.0, 2.0]


def test_restored_function_text(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda x: x + 2.0, input_signature=[tf.TensorSpec([], tf.float32)])
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    # TF 2.21 (guide/migrate/saved_model): the class TF restores functions as
    assert re.fullmatch(r"<tensorflow\.python\.saved_model\.function_deserialization\.RestoredFunction object at "
                        r"0x[0-9a-f]+>", repr(loaded.f))
    assert float(loaded.f(5.0)) == 7.0
    # TF 2.21 (tutorials/keras/save_and_load): the restored object's class is local to TF's loader
    assert re.fullmatch(r"<tensorflow\.python\.saved_model\.load\.Loader\._recreate_base_user_object\.<locals>\."
                        r"_UserObject object at 0x[0-9a-f]+>", repr(loaded))
