"""The element spec of `map` over batches whose sizes coincide with other dimensions: TF's static shapes (TF traces
the function; tfcompat runs it on the first element). Golden specs from TF 2.21."""
import numpy as np

import tfcompat as tf


def test_map_keeps_known_dimension_equal_to_batch_size():
    b = tf.data.Dataset.from_tensor_slices(np.ones((4, 2), np.float32)).batch(2)
    # TF 2.21
    assert repr(b.map(lambda x: x * 2).element_spec) == "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)"
    assert repr(b.map(lambda x: (x, tf.reduce_sum(x, axis=1))).element_spec) == (
        "(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None))")
    ds = tf.data.Dataset.from_tensor_slices([[1., 2.], [3., 4.]]).map(lambda x: x).batch(2).map(lambda x: x)
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)"


def test_map_tuple_and_dict_specs():
    c = tf.data.Dataset.from_tensor_slices((np.ones((4, 3), np.float32), np.arange(4))).batch(3)
    # TF 2.21
    assert repr(c.map(lambda x, y: (x + 1.0, y * 3)).element_spec) == (
        "(TensorSpec(shape=(None, 3), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None))")
    assert repr(c.map(lambda x, y: {"f": x[:, :1], "g": tf.cast(y, tf.float32)}).element_spec) == (
        "{'f': TensorSpec(shape=(None, 1), dtype=tf.float32, name=None), "
        "'g': TensorSpec(shape=(None,), dtype=tf.float32, name=None)}")
