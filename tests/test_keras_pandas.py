"""Keras on pandas objects: fit/evaluate/predict, layer and model calls, as Keras 3.15 on TF 2.21 (golden values
recorded there). pandas is no dependency of tfcompat: these tests skip without it."""
import numpy as np
import pytest

import tfcompat as tf

pd = pytest.importorskip("pandas")


def _frame():
    return pd.DataFrame({"a": [1, 2, 3, 4, 5, 6], "b": [0.5, 1.5, 2.5, 3.5, 4.5, 5.5],
                         "c": [10, 20, 30, 40, 50, 60]})


def _labels():
    return pd.Series([1.0, 0.0, 1.0, 0.0, 1.0, 1.0], name="y")


def _model(n):
    m = tf.keras.Sequential([tf.keras.Input((n,)),
                             tf.keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")])
    m.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.001))
    return m


def test_fit_evaluate_predict_on_a_dataframe_and_series():
    df, y = _frame(), _labels()
    m = _model(3)
    h = m.fit(df, y, epochs=2, batch_size=2, verbose=0, shuffle=False, validation_split=0.5)
    np.testing.assert_allclose(h.history["loss"], [316.5132, 53.2628], rtol=1e-5)
    np.testing.assert_allclose(h.history["val_loss"], [506.3123, 122.2564], rtol=1e-5)
    np.testing.assert_allclose(m.layers[0].kernel.numpy().ravel(), [0.90591, 0.92562, 0.05907], atol=1e-5)
    assert m.evaluate(df, y, verbose=0) == pytest.approx(69.9503, rel=1e-5)
    pred = m.predict(df.iloc[:2], verbose=0)
    assert pred.dtype == np.float32
    np.testing.assert_allclose(pred, [[1.92], [4.3423]], atol=1e-4)


def test_a_series_is_one_column():
    df, y = _frame(), _labels()
    m = _model(1)
    h = m.fit(df["b"], y, epochs=1, batch_size=3, verbose=0, shuffle=False)
    np.testing.assert_allclose(h.history["loss"], [8.1764], rtol=1e-4)
    np.testing.assert_allclose(m.predict(df["b"][:2], verbose=0), [[0.4713], [1.4325]], atol=1e-4)


def test_a_dict_of_series_feeds_named_inputs():
    df = _frame()
    ins = {k: tf.keras.Input(shape=(1,), name=k) for k in "abc"}
    m = tf.keras.Model(ins, tf.keras.layers.Concatenate()([ins[k] for k in "abc"]))
    want = [[1.0, 0.5, 10.0], [2.0, 1.5, 20.0]]
    np.testing.assert_array_equal(m.predict(dict(df.iloc[:2]), verbose=0), want)
    np.testing.assert_array_equal(m(dict(df.iloc[:2])).numpy(), want)


def test_layers_called_on_pandas_objects():
    df = _frame()
    norm = tf.keras.layers.Normalization(axis=-1)
    norm.adapt(np.array(df))
    out = norm(df.iloc[:2])
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [[-1.4638, -1.4638, -1.4639], [-0.8783, -0.8783, -0.8783]], atol=1e-4)
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
    np.testing.assert_array_equal(dense(df[["b"]]).numpy(), [[v, v] for v in df["b"]])
    ints = tf.keras.layers.Dense(1, kernel_initializer="ones")(df[["a", "c"]])
    np.testing.assert_array_equal(ints.numpy(), [[11.0], [22.0], [33.0], [44.0], [55.0], [66.0]])


def test_string_columns_raise_as_keras_does():
    frame = pd.DataFrame({"s": ["x", "y", "x"], "v": [1.0, 2.0, 3.0]})
    ins = {"s": tf.keras.Input(shape=(1,), name="s", dtype=tf.string), "v": tf.keras.Input(shape=(1,), name="v")}
    lookup = tf.keras.layers.StringLookup(vocabulary=["x", "y"], output_mode="one_hot")
    m = tf.keras.Model(ins, tf.keras.layers.Concatenate()([lookup(ins["s"]), ins["v"]]))
    want = [[0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 2.0], [0.0, 1.0, 0.0, 3.0]]
    np.testing.assert_array_equal(m(dict(frame)).numpy(), want)       # a call converts each column
    with pytest.raises(ValueError, match=r"^Invalid dtype: (str|object)$"):
        m.predict(dict(frame), verbose=0)                            # Keras's array adapter refuses them


def test_fit_before_compile_message():
    m = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    for call in (lambda: m.fit(_frame(), _labels(), verbose=0), lambda: m.evaluate(_frame(), _labels(), verbose=0)):
        with pytest.raises(ValueError, match=r"^You must call `compile\(\)` before using the model\.$"):
            call()


def test_convert_to_tensor_and_datasets_of_pandas_objects():
    df = _frame()
    t = tf.convert_to_tensor(df[["a", "c"]])
    assert t.dtype == tf.int64 and t.shape == (6, 2)
    rows = list(tf.data.Dataset.from_tensor_slices((df, _labels())).take(1))
    np.testing.assert_array_equal(rows[0][0].numpy(), [1.0, 0.5, 10.0])
    first = next(iter(tf.data.Dataset.from_tensor_slices(dict(df))))
    assert {k: v.dtype for k, v in first.items()} == {"a": tf.int64, "b": tf.float64, "c": tf.int64}
