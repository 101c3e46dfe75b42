"""tf.data.experimental.CsvDataset, Counter and make_csv_dataset(column_defaults=) as TF 2.21 (outputs recorded
from TF)."""
import pytest

import tfcompat as tf

CSV = "a,b,c\n1,x,2.5\n,y,\n3,,4\n"
MISSING = "1,2,3,4\n,2,3,4\n1,,3,4\n1,2,,4\n1,2,3,\n,,,\n"


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text(CSV)
    return str(path)


def test_csv_dataset_types_defaults_and_required_fields(csv_file):
    ds = tf.data.experimental.CsvDataset(csv_file, [0, "d", tf.float32], header=True)
    assert repr(ds) == ("<CsvDatasetV2 element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec("
                        "shape=(), dtype=tf.string, name=None), TensorSpec(shape=(), dtype=tf.float32, name=None))>")
    it = iter(ds)
    assert repr(next(it)) == ("(<tf.Tensor: shape=(), dtype=int32, numpy=1>, <tf.Tensor: shape=(), dtype=string, "
                              "numpy=b'x'>, <tf.Tensor: shape=(), dtype=float32, numpy=2.5>)")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field 2 is required but missing in record!"):
        next(it)


def test_csv_dataset_select_cols(tmp_path):
    path = tmp_path / "missing.csv"
    path.write_text(MISSING)
    ds = tf.data.experimental.CsvDataset(str(path), [999, 999], select_cols=[1, 3])
    rows = [[int(v) for v in r] for r in ds]
    assert rows == [[2, 4], [2, 4], [999, 4], [2, 4], [2, 999], [999, 999]]
    ds = tf.data.experimental.CsvDataset(str(path), [999] * 4).map(lambda *items: tf.stack(items))
    assert repr(ds) == "<_MapDataset element_spec=TensorSpec(shape=(4,), dtype=tf.int32, name=None)>"
    assert [r.numpy().tolist() for r in ds][1:3] == [[999, 2, 3, 4], [1, 999, 3, 4]]
    ds = tf.data.experimental.CsvDataset(str(path), [tf.int64, tf.string], select_cols=[0, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field 0 is required but missing in record!"):
        list(ds)


def test_make_csv_dataset_column_defaults(csv_file):
    ds = tf.data.experimental.make_csv_dataset(csv_file, 2, column_defaults=[0, "z", 1.5], shuffle=False,
                                               num_epochs=1)
    assert [repr(b) for b in ds] == [
        "OrderedDict([('a', <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>), ('b', "
        "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'x', b'y'], dtype=object)>), ('c', <tf.Tensor: "
        "shape=(2,), dtype=float32, numpy=array([2.5, 1.5], dtype=float32)>)])",
        "OrderedDict([('a', <tf.Tensor: shape=(1,), dtype=int32, numpy=array([3], dtype=int32)>), ('b', "
        "<tf.Tensor: shape=(1,), dtype=string, numpy=array([b'z'], dtype=object)>), ('c', <tf.Tensor: shape=(1,), "
        "dtype=float32, numpy=array([4.], dtype=float32)>)])"]
    ds = tf.data.experimental.make_csv_dataset(csv_file, 2, column_defaults=[0, 1.5], select_columns=["a", "c"],
                                               shuffle=False, num_epochs=1)
    assert [list(b) for b in ds] == [["a", "c"], ["a", "c"]]


def test_counter():
    assert list(tf.data.experimental.Counter().take(3).as_numpy_iterator()) == [0, 1, 2]
    assert list(tf.data.experimental.Counter(5, -2, tf.int32).take(2).as_numpy_iterator()) == [5, 3]


def test_map_over_an_empty_dataset_has_the_traced_spec():
    features = {"f0": tf.io.FixedLenFeature([], tf.int64, default_value=0),
                "f2": tf.io.FixedLenFeature([], tf.string, default_value="")}
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([], tf.string))
    assert repr(ds.map(lambda e: tf.io.parse_single_example(e, features))) == (
        "<_MapDataset element_spec={'f0': TensorSpec(shape=(), dtype=tf.int64, name=None), 'f2': TensorSpec(shape=(), "
        "dtype=tf.string, name=None)}>")
    assert repr(tf.data.Dataset.from_tensor_slices(tf.zeros([0, 3])).map(lambda x: x[0])) == (
        "<_MapDataset element_spec=TensorSpec(shape=(), dtype=tf.float32, name=None)>")


def test_rejection_resample_reaches_the_target_distribution(capsys):
    import numpy as np
    tf.random.set_seed(0)
    labels = np.array([0] * 95 + [1] * 5, np.int64)
    ds = tf.data.Dataset.from_tensor_slices((np.arange(100.), labels)).repeat()
    resampled = ds.rejection_resample(lambda f, label: label, target_dist=[0.5, 0.5],
                                      initial_dist=[0.979785144, 0.0202148445], seed=1)
    assert repr(resampled.element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), (TensorSpec(shape=(), dtype=tf.float64, name=None), "
        "TensorSpec(shape=(), dtype=tf.int64, name=None)))")
    classes = [int(c) for c, (_, label) in resampled.take(400)]
    assert 0.4 < sum(classes) / len(classes) < 0.6
    # TF's tf.Print(first_n=10) when most examples are rejected (text from TF 2.21)
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("Proportion")]
    assert lines == ["Proportion of examples rejected by sampler is high: [0.979785144][0.979785144 0.0202148445]"
                     "[0 1]"] * 10
    with pytest.raises(NotImplementedError, match="without initial_dist"):
        ds.rejection_resample(lambda f, label: label, target_dist=[0.5, 0.5])


def test_experimental_aliases_of_dataset_methods():
    e = tf.data.experimental
    ds = tf.data.Dataset.range(5)
    assert [tuple(map(int, p)) for p in ds.apply(e.enumerate_dataset(1)).take(2)] == [(1, 0), (2, 1)]
    assert [b.tolist() for b in ds.apply(e.map_and_batch(lambda x: x * 2, 2)).as_numpy_iterator()] == [[0, 2], [4, 6],
                                                                                                      [8]]
    scanned = ds.apply(e.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s + x)))
    assert list(scanned.as_numpy_iterator()) == [0, 1, 3, 6, 10]
    interleaved = ds.apply(e.parallel_interleave(lambda x: tf.data.Dataset.range(x), 2))
    assert list(interleaved.as_numpy_iterator()) == [0, 0, 1, 0, 1, 0, 2, 1, 2, 3]
    windows = ds.apply(e.group_by_window(lambda x: x % 2, lambda k, d: d.batch(5), 5))
    assert [w.tolist() for w in windows.as_numpy_iterator()] == [[0, 2, 4], [1, 3]]
    assert list(ds.apply(e.take_while(lambda x: x < 2)).as_numpy_iterator()) == [0, 1]
    assert list(ds.batch(2).apply(e.unbatch()).as_numpy_iterator()) == [0, 1, 2, 3, 4]
    assert list(tf.data.Dataset.from_tensor_slices([1, 1, 2]).apply(e.unique()).as_numpy_iterator()) == [1, 2]
    assert int(e.get_single_element(tf.data.Dataset.range(1))) == 0
    assert repr(e.get_structure(ds)) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"
    assert int(e.get_next_as_optional(iter(ds)).get_value()) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^\{\{function_node __wrapped__[^}]*\}\} Dataset was empty\. \[Op:DatasetToSingleElement\]"):
        tf.data.Dataset.range(0).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^\{\{function_node __wrapped__[^}]*\}\} Dataset had more than one element\."):
        tf.data.Dataset.range(2).get_single_element()


def test_sparse_batch_as_tf():
    ds = tf.data.Dataset.from_tensor_slices([1, 3, 2]).map(lambda x: tf.range(x)).sparse_batch(2, [4])
    assert repr(ds) == "<_DenseToSparseBatchDataset element_spec=SparseTensorSpec(TensorShape([None, 4]), tf.int32)>"
    first, second = list(ds)
    assert first.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [1, 2]]
    assert first.values.numpy().tolist() == [0, 0, 1, 2] and first.dense_shape.numpy().tolist() == [2, 4]
    assert second.dense_shape.numpy().tolist() == [1, 4]
    too_long = tf.data.Dataset.from_tensor_slices([5]).map(lambda x: tf.range(x))
    with pytest.raises(tf.errors.DataLossError, match=r"^\{\{function_node __wrapped__[^}]*\}\} Input element had shape \(\[5\]\) that is larger than the "
                                                      r"row shape \(\[4\]\)\."):
        list(too_long.apply(tf.data.experimental.dense_to_sparse_batch(2, [4])))
