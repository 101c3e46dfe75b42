"""Smaller tf.data / tf.io behaviours checked against TF 2.21: option reprs, `gfile.glob`'s order."""
import os

import tfcompat as tf


def test_options_reprs():
    o = tf.data.Options()
    # TF 2.21: default object reprs from tensorflow.python.data.ops.options
    for obj, name in ((o, "Options"), (o.autotune, "AutotuneOptions"), (o.threading, "ThreadingOptions"),
                      (o.experimental_distribute, "DistributeOptions"),
                      (o.experimental_optimization, "OptimizationOptions")):
        assert repr(obj) == f"<tensorflow.python.data.ops.options.{name} object at {hex(id(obj))}>"


def test_gfile_glob_keeps_directory_order(tmp_path):
    for n in ["b", "a", "c", "f10", "f2", "f1", "z", "y"]:
        (tmp_path / f"{n}.txt").write_text("")
    (tmp_path / "other.csv").write_text("")
    d = str(tmp_path)
    listed = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".txt")]
    # TF 2.21: glob lists in the directory's order (os.listdir's), matching_files and list_files sort
    assert tf.io.gfile.glob(os.path.join(d, "*.txt")) == listed
    assert tf.io.gfile.glob([os.path.join(d, "f*.txt"), os.path.join(d, "[ab].txt")]) == \
        [p for p in listed if os.path.basename(p).startswith("f")] + \
        [p for p in listed if os.path.basename(p) in ("a.txt", "b.txt")]
    assert [p.decode() for p in tf.io.matching_files(os.path.join(d, "*.txt")).numpy()] == sorted(listed)
    assert [p.decode() for p in tf.data.Dataset.list_files(os.path.join(d, "*.txt"), shuffle=False)
            .as_numpy_iterator()] == sorted(listed)


def test_make_csv_dataset_unknown_label(tmp_path):
    import pytest
    path = str(tmp_path / "t.csv")
    with open(path, "w") as f:
        f.write('id,name,score,tag\n1,"Smith, J",3.5,a\n')
    # TF 2.21
    with pytest.raises(ValueError, match=r"^`label_name` provided must be one of the columns: \['id', 'name', 'score', "
                                         r"'tag'\]. Received: nope.$"):
        tf.data.experimental.make_csv_dataset(path, batch_size=2, label_name="nope")


def test_dataset_class_name_in_argument_errors():
    import pytest
    # TF 2.21: tf.data.Dataset is DatasetV2, which Python's own argument errors name
    assert repr(tf.data.Dataset) == "<class 'tensorflow.python.data.ops.dataset_ops.DatasetV2'>"
    with pytest.raises(TypeError, match=r"^DatasetV2.batch\(\) got an unexpected keyword argument 'foo'$"):
        tf.data.Dataset.range(3).batch(2, foo=1)
    with pytest.raises(TypeError, match=r"^DatasetV2.zip\(\) got an unexpected keyword argument 'a'$"):
        tf.data.Dataset.zip(a=tf.data.Dataset.range(2))
    with pytest.raises(TypeError, match=r"^DatasetV2.map\(\) missing 1 required positional argument: 'map_func'$"):
        tf.data.Dataset.range(3).map()
    assert isinstance(tf.data.Dataset.range(2), tf.data.Dataset)
