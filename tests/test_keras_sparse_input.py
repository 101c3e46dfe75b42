"""`keras.Input(sparse=True)`: a KerasTensor marked sparse whose model takes a `tf.SparseTensor`, as in Keras 3."""
import numpy as np

import tfcompat as tf

keras = tf.keras


def test_sparse_input_feeds_dense_with_a_sparse_tensor():
    inp = keras.Input(shape=(3,), sparse=True)
    assert repr(inp) == "<KerasTensor shape=(None, 3), dtype=float32, sparse=True, ragged=False, name=keras_tensor>"
    m = keras.Model(inp, keras.layers.Dense(2, kernel_initializer="ones")(inp))
    assert m.get_config()["layers"][0]["config"]["sparse"] is True
    st = tf.sparse.SparseTensor([[0, 1], [1, 2]], [1., 2.], [2, 3])
    np.testing.assert_array_equal(m(st).numpy(), [[1., 1.], [2., 2.]])      # TF 2.21's values
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(m(st))
    kernel, bias = tape.gradient(loss, m.trainable_variables)
    np.testing.assert_array_equal(kernel.numpy(), [[0., 0.], [1., 1.], [2., 2.]])
    np.testing.assert_array_equal(bias.numpy(), [2., 2.])


def test_sparse_input_values_cast_to_the_input_dtype():
    # guide/sparse_tensor: int32 values reach a float32 sparse Input as float32 (TF 2.21's values)
    inp = keras.Input(shape=(4,), sparse=True)
    m = keras.Model(inp, keras.layers.Dense(4, kernel_initializer="ones", bias_initializer="ones")(inp))
    st = tf.sparse.SparseTensor([(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)], [1, 1, 1, 1, 1, 2], (6, 4))
    np.testing.assert_array_equal(m(st).numpy(), [[4.] * 4, [1.] * 4, [1.] * 4, [1.] * 4, [2.] * 4, [4.] * 4])
