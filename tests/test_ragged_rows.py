"""tf.map_fn over RaggedTensor rows with an output signature, tf.ragged.stack of dense vectors and
tf.ragged.boolean_mask with a 2-D dense mask: golden values from TF 2.21."""
import pytest

import tfcompat as tf


def test_map_fn_over_ragged_rows_with_signature():
    rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
    r = tf.map_fn(tf.reduce_sum, rt, fn_output_signature=tf.int32)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [6, 4, 0, 11]
    r = tf.map_fn(lambda row: row * 2, rt, fn_output_signature=tf.RaggedTensorSpec([None], tf.int32))
    assert isinstance(r, tf.RaggedTensor) and r.to_list() == [[2, 4, 6], [8], [], [10, 12]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="^TensorArray dtype is float32 but Op is trying to write dtype int32 $"):
        tf.map_fn(tf.reduce_sum, rt, fn_output_signature=tf.float32)


def test_ragged_stack_of_dense_vectors():
    assert str(tf.ragged.stack([tf.constant([1]), tf.constant([2, 3])])) == "<tf.RaggedTensor [[1], [2, 3]]>"
    assert str(tf.ragged.stack([[1], [2, 3]])) == "<tf.RaggedTensor [[1], [2, 3]]>"
    assert str(tf.ragged.stack([tf.constant([1, 2]), tf.constant([2, 3])])) == "<tf.RaggedTensor [[1, 2],\n [2, 3]]>"


def test_ragged_boolean_mask_with_2d_dense_mask():
    r = tf.ragged.boolean_mask(tf.constant([[1, 2], [3, 4]]), [[True, False], [True, True]])
    assert str(r) == "<tf.RaggedTensor [[1], [3, 4]]>"
