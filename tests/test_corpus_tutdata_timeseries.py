"""keras.utils.timeseries_dataset_from_array as the TF tutorials on time series use it.

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

X = np.arange(100, dtype="float32").reshape(50, 2)
Y = np.arange(50) * 10


def _first(ds):
    return tf.nest.map_structure(lambda t: (tuple(t.shape), t.dtype.name, t.numpy().ravel()[:6].tolist()),
                                 next(iter(ds)))


def test_batched_windows_spec_name_and_values():
    ds = tf.keras.utils.timeseries_dataset_from_array(X, None, sequence_length=7, sampling_rate=2, batch_size=4)
    # TF 2.21: the window's time dimension is unknown (a tf.range of tensor bounds), the pipeline ends with batch
    assert repr(ds) == "<_BatchDataset element_spec=TensorSpec(shape=(None, None, 2), dtype=tf.float32, name=None)>"
    assert int(ds.cardinality()) == 10
    assert _first(ds) == ((4, 7, 2), "float32", [0.0, 1.0, 4.0, 5.0, 8.0, 9.0])


def test_batched_windows_with_targets():
    ds = tf.keras.utils.timeseries_dataset_from_array(X, Y, sequence_length=7, sampling_rate=2, batch_size=4)
    assert repr(ds) == ("<_BatchDataset element_spec=(TensorSpec(shape=(None, None, 2), dtype=tf.float32, name=None), "
                        "TensorSpec(shape=(None,), dtype=tf.int64, name=None))>")
    assert int(ds.cardinality()) == 10
    assert _first(ds) == (((4, 7, 2), "float32", [0.0, 1.0, 4.0, 5.0, 8.0, 9.0]), ((4,), "int64", [0, 10, 20, 30]))


def test_unbatched_windows_prefetch_and_shuffle_names():
    ds = tf.keras.utils.timeseries_dataset_from_array(X, None, sequence_length=7, sampling_rate=2, batch_size=None)
    assert repr(ds) == "<_PrefetchDataset element_spec=TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)>"
    assert int(ds.cardinality()) == 38
    assert _first(ds) == ((7, 2), "float32", [0.0, 1.0, 4.0, 5.0, 8.0, 9.0])
    ds = tf.keras.utils.timeseries_dataset_from_array(X, Y, sequence_length=7, sampling_rate=2, batch_size=None,
                                                      shuffle=True, seed=1)
    assert repr(ds) == ("<_ShuffleDataset element_spec=(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), "
                        "TensorSpec(shape=(), dtype=tf.int64, name=None))>")
    assert _first(ds) == (((7, 2), "float32", [60.0, 61.0, 64.0, 65.0, 68.0, 69.0]), ((), "int64", [300]))


def test_shuffled_batches_and_2d_targets():
    ds = tf.keras.utils.timeseries_dataset_from_array(X, Y.reshape(50, 1).astype("float64"), sequence_length=7,
                                                      sampling_rate=2, batch_size=5, shuffle=True, seed=1)
    assert repr(ds) == ("<_BatchDataset element_spec=(TensorSpec(shape=(None, None, 2), dtype=tf.float32, name=None), "
                        "TensorSpec(shape=(None, 1), dtype=tf.float64, name=None))>")
    assert int(ds.cardinality()) == 8
    assert _first(ds) == (((5, 7, 2), "float32", [60.0, 61.0, 64.0, 65.0, 68.0, 69.0]),
                          ((5, 1), "float64", [300.0, 310.0, 240.0, 40.0, 360.0]))


def test_dataframe_input_reshuffles_each_pass():
    pd = pytest.importorskip("pandas")      # a DataFrame input (pandas is not a dependency: as test_keras_pandas.py)
    df = pd.DataFrame({"a": np.arange(20.0), "b": np.arange(20) * 2})
    ds = tf.keras.utils.timeseries_dataset_from_array(df, df["a"], sequence_length=3, batch_size=4, shuffle=True, seed=7)
    assert repr(ds) == ("<_BatchDataset element_spec=(TensorSpec(shape=(None, None, 2), dtype=tf.float64, name=None), "
                        "TensorSpec(shape=(None,), dtype=tf.float64, name=None))>")
    # TF 2.21: two passes
    assert [b[1].numpy().tolist() for b in ds] == [[11.0, 12.0, 6.0, 8.0], [2.0, 17.0, 16.0, 15.0],
                                                   [10.0, 3.0, 13.0, 14.0], [0.0, 9.0, 7.0, 5.0], [4.0, 1.0]]
    assert [b[1].numpy().tolist() for b in ds] == [[0.0, 11.0, 7.0, 13.0], [10.0, 8.0, 16.0, 15.0],
                                                   [3.0, 6.0, 9.0, 12.0], [2.0, 17.0, 5.0, 14.0], [1.0, 4.0]]


def test_lists_tensors_and_index_range():
    ds = tf.keras.utils.timeseries_dataset_from_array([[1, 2], [3, 4], [5, 6]], None, sequence_length=2, batch_size=2)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, None, 2), dtype=tf.int32, name=None)"
    assert [b.numpy().tolist() for b in ds] == [[[[1, 2], [3, 4]], [[3, 4], [5, 6]]]]
    ds = tf.keras.utils.timeseries_dataset_from_array(tf.range(30), tf.range(30) * 2, sequence_length=4,
                                                      sequence_stride=3, start_index=2, end_index=25, batch_size=3)
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(None, None), dtype=tf.int32, name=None), "
                                     "TensorSpec(shape=(None,), dtype=tf.int32, name=None))")
    assert [(a.numpy()[:, 0].tolist(), b.numpy().tolist()) for a, b in ds] == [
        ([2, 5, 8], [4, 10, 16]), ([11, 14, 17], [22, 28, 34]), ([20], [40])]
    ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(10), None, sequence_length=3, batch_size=None)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"
    ds = tf.keras.preprocessing.timeseries_dataset_from_array(np.zeros((10, 3, 4), "float16"), None, 2)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, None, 3, 4), dtype=tf.float16, name=None)"


def test_data_shorter_than_a_window():
    ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(5.0), None, sequence_length=10, batch_size=2)
    assert repr(ds) == "<_BatchDataset element_spec=TensorSpec(shape=(None, None), dtype=tf.float64, name=None)>"
    assert int(ds.cardinality()) == 0 and list(ds.as_numpy_iterator()) == []
    ds = tf.keras.utils.timeseries_dataset_from_array(np.arange(5.0), None, sequence_length=10, batch_size=None)
    assert repr(ds) == "<_PrefetchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.float64, name=None)>"
    assert list(ds.as_numpy_iterator()) == []


def test_format_argument():
    with pytest.raises(ValueError, match='`format` should be either "tf" or "grain". Received: format=np'):
        tf.keras.utils.timeseries_dataset_from_array(X, None, sequence_length=3, format="np")
    ds = tf.keras.utils.timeseries_dataset_from_array(X, None, sequence_length=3, format="tf", batch_size=None)
    assert int(ds.cardinality()) == 48
    with pytest.raises(NotImplementedError, match="grain"):
        tf.keras.utils.timeseries_dataset_from_array(X, None, sequence_length=3, format="grain")


def test_windows_train_a_recurrent_model():
    m = tf.keras.Sequential([tf.keras.Input((None, 2)), tf.keras.layers.LSTM(3), tf.keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    ds = tf.keras.utils.timeseries_dataset_from_array(np.random.rand(40, 2).astype("float32"),
                                                      np.random.rand(40).astype("float32"), sequence_length=5,
                                                      batch_size=8)
    with pytest.warns(UserWarning, match="`shuffle=True` was passed, but will be ignored"):   # as in TF 2.21
        history = m.fit(ds, epochs=1, verbose=0)
    assert sorted(history.history) == ["loss"]
