"""Sparse data through Keras: CategoryEncoding(sparse=True) outputs, sparse KerasTensors in functional models and
fit/evaluate/predict batching one SparseTensor by rows, against TF 2.21 + Keras 3.15."""
import warnings

import numpy as np
import pytest

import tfcompat as tf


def parts(sp):
    return sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.dense_shape.numpy().tolist()


@pytest.mark.parametrize("mode, ids, expected", [
    ("count", [3, 1, 3], ([[1], [3]], [1.0, 2.0], [4])),
    ("count", [[1, 2], [0, 2]], ([[0, 1], [0, 2], [1, 0], [1, 2]], [1.0] * 4, [2, 4])),
    ("multi_hot", [[1], [0], [3]], ([[0, 1], [1, 0], [2, 3]], [1.0] * 3, [3, 4])),
    ("multi_hot", 2, ([[2]], [1.0], [4])),
    ("one_hot", [3, 1, 3], ([[0, 3], [1, 1], [2, 3]], [1.0] * 3, [3, 4])),
    ("one_hot", [[1, 2], [0, 2]], ([[0, 0, 1], [0, 1, 2], [1, 0, 0], [1, 1, 2]], [1.0] * 4, [2, 2, 4])),
])
def test_category_encoding_sparse_matches_keras(mode, ids, expected):
    out = tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode=mode, sparse=True)(tf.constant(ids))
    assert isinstance(out, tf.SparseTensor) and out.dtype == tf.float32
    assert parts(out) == expected


def test_category_encoding_sparse_count_weights():
    ids = tf.constant([[5, 11, 5, 17, 17]])
    weights = tf.constant([[0.5, 1.5, 0.7, 1.8, 0.2]])
    out = tf.keras.layers.CategoryEncoding(num_tokens=20, output_mode="count", sparse=True)(ids, count_weights=weights)
    indices, values, shape = parts(out)
    assert indices == [[0, 5], [0, 11], [0, 17]] and shape == [1, 20]
    np.testing.assert_allclose(values, [1.2, 1.5, 2.0], rtol=1e-6)
    # a present id whose weights sum to zero stays an explicit zero (tf.sparse.bincount)
    zero = tf.keras.layers.CategoryEncoding(num_tokens=3, output_mode="count", sparse=True)(
        tf.constant([[0, 1]]), count_weights=tf.constant([[0., 2.]]))
    assert parts(zero) == ([[0, 0], [0, 1]], [0.0, 2.0], [1, 3])


def test_sparse_keras_tensor_through_functional_model():
    x = tf.keras.Input(shape=(5,), dtype="int32")
    y = tf.keras.layers.CategoryEncoding(num_tokens=20, output_mode="count", sparse=True)(x)
    assert repr(y).startswith("<KerasTensor shape=(None, 20), dtype=float32, sparse=True, ragged=False, name=")
    z = tf.keras.layers.Dense(2, kernel_initializer="ones")(y)
    assert z.shape == (None, 2) and not z.sparse
    model = tf.keras.Model(x, z)
    assert model(tf.constant([[5, 11, 5, 17, 17]])).numpy().tolist() == [[5.0, 5.0]]


def _sparse_model():
    x = tf.keras.Input(shape=(4,), sparse=True)
    model = tf.keras.Model(x, tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="ones")(x))
    data = tf.sparse.SparseTensor(indices=[(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                                  values=[1., 2, 3, 4, 5, 6], dense_shape=(6, 4))
    return model, data


def test_predict_fit_evaluate_batch_a_sparse_tensor_by_rows():
    model, data = _sparse_model()
    assert model.predict(data, batch_size=4, verbose=0).tolist() == [[7.0, 7.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0],
                                                                     [5.0, 5.0], [12.0, 12.0]]
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.01))
    y = np.arange(12.).reshape(6, 2)
    with warnings.catch_warnings():     # as in TF, the step is traced: no warning
        warnings.simplefilter("error")
        history = model.fit(data, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [17.02861785888672, 15.725543022155762], rtol=1e-5)
    np.testing.assert_allclose(model.evaluate(data, y, batch_size=4, verbose=0), 14.819445610046387, rtol=1e-5)


def test_sparse_rows_keeps_row_order():
    from tfcompat.keras.engine.data_adapter import sparse_rows
    import torch
    _, data = _sparse_model()
    out = sparse_rows(data, torch.tensor([5, 0, 3]))
    assert parts(out) == ([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [5.0, 6.0, 1.0, 2.0, 3.0], [3, 4])


def test_layer_builds_from_a_sparse_tensor_shape():
    # migrating_feature_columns: an unbuilt Dense called eagerly on CategoryEncoding's sparse output
    count = tf.keras.layers.CategoryEncoding(num_tokens=20, output_mode="count", sparse=True)
    dense = tf.keras.layers.Dense(4, use_bias=False, kernel_initializer="ones")
    out = dense(count(tf.constant([[5, 11, 5, 17, 17]]), count_weights=tf.constant([[0.5, 1.5, 0.7, 1.8, 0.2]])))
    assert dense.kernel.shape == (20, 4)
    np.testing.assert_allclose(out.numpy(), [[4.7] * 4], rtol=1e-6)


STRINGS = [["a", "b", "a"], ["c", "a", "x"]]


@pytest.mark.parametrize("mode, expected", [
    ("one_hot", ([[0, 0, 1], [0, 1, 2], [0, 2, 1], [1, 0, 0], [1, 1, 1], [1, 2, 0]], [1] * 6, [2, 3, 3])),
    ("multi_hot", ([[0, 1], [0, 2], [1, 0], [1, 1]], [1] * 4, [2, 3])),
    ("count", ([[0, 1], [0, 2], [1, 0], [1, 1]], [2, 1, 2, 1], [2, 3])),
])
def test_string_lookup_sparse(mode, expected):
    out = tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode=mode, sparse=True)(tf.constant(STRINGS))
    assert out.dtype == tf.int64 and parts(out) == expected


def test_integer_lookup_and_discretization_sparse():
    count = tf.keras.layers.IntegerLookup(vocabulary=[7, 9], output_mode="count", sparse=True)
    assert parts(count(tf.constant([[7, 9, 7], [1, 7, 9]]))) == ([[0, 1], [0, 2], [1, 0], [1, 1], [1, 2]],
                                                                [2, 1, 1, 1, 1], [2, 3])
    values = tf.constant([[-1., 0.5, 2.], [0.7, 0.2, 3.]])
    disc = tf.keras.layers.Discretization(bin_boundaries=[0., 1.], output_mode="count", sparse=True)(values)
    assert disc.dtype == tf.float32
    assert parts(disc) == ([[0, 0], [0, 1], [0, 2], [1, 1], [1, 2]], [1.0, 1.0, 1.0, 2.0, 1.0], [2, 3])
    one_hot = tf.keras.layers.Discretization(bin_boundaries=[0., 1.], output_mode="one_hot", sparse=True)(values)
    assert parts(one_hot)[0] == [[0, 0, 0], [0, 1, 1], [0, 2, 2], [1, 0, 1], [1, 1, 1], [1, 2, 2]]


def test_text_vectorization_sparse():
    layer = tf.keras.layers.TextVectorization(vocabulary=["a", "b"], output_mode="count", sparse=True)
    assert parts(layer(tf.constant(["a b a", "c"]))) == ([[0, 1], [0, 2], [1, 0]], [2, 1, 1], [2, 3])
    # Keras's compute_output_spec of the lookups marks no symbolic output sparse (CategoryEncoding's does)
    kt = layer(tf.keras.Input(shape=(), dtype="string"))
    assert repr(kt).startswith("<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=")


@pytest.mark.parametrize("make, message", [
    (lambda: tf.keras.layers.StringLookup(sparse=True),
     "`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, `'count'` or `'tf_idf'`. "
     "Received: sparse=True and output_mode=int"),
    (lambda: tf.keras.layers.TextVectorization(sparse=True),
     "`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, `'count'` or `'tf_idf'`. "
     "Received: sparse=True and output_mode=int"),
    (lambda: tf.keras.layers.Discretization(bin_boundaries=[0.], sparse=True),
     "`sparse=True` may only be used if `output_mode` is `'one_hot'`, `'multi_hot'`, or `'count'`. "
     "Received: sparse=True and output_mode=int"),
])
def test_sparse_int_mode_errors(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value) == message
