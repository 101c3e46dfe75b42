import numpy as np

import tfcompat as tf


def test_seed_first_cells():
    m = tf.matmul([[2.]], [[2.]])
    assert f"hello, {m}" == "hello, [[4.]]"
    a = tf.constant([[1, 2], [3, 4]])
    assert str(a) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    b = tf.add(a, 1)
    assert str(np.multiply(a, b)) == "[[ 2  6]\n [12 20]]"
