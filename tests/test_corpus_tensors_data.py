"""tf.data behaviour met with ragged and sparse elements (guides ragged_tensor, sparse_tensor, data_performance).

Golden texts recorded from TF 2.21."""
import pytest

import tfcompat as tf


def test_padded_batch_refuses_composite_elements():
    ragged = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]]))
    msg = ("`padded_batch` is only supported for datasets that produce tensor elements but type spec of elements in the "
           "input dataset is not a subclass of TensorSpec: `{}`.")
    with pytest.raises(TypeError) as e:
        ragged.padded_batch(2)
    assert str(e.value) == msg.format("RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)")
    with pytest.raises(TypeError) as e:
        tf.data.Dataset.zip((ragged, tf.data.Dataset.range(2))).padded_batch(2)
    assert str(e.value) == msg.format("RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)")
    with pytest.raises(TypeError) as e:
        tf.data.Dataset.from_tensor_slices(tf.sparse.from_dense([[1, 0], [0, 2]])).padded_batch(2)
    assert str(e.value) == msg.format("SparseTensorSpec(TensorShape([2]), tf.int32)")


def test_padded_batch_of_tensors_unchanged():
    # TF 2.21: [[0, 0], [0, 1]]
    out = tf.data.Dataset.range(1, 3).map(lambda n: tf.range(n)).padded_batch(2, padded_shapes=[None])
    assert [b.numpy().tolist() for b in out] == [[[0, 0], [0, 1]]]


def test_padded_batch_pads_value_dependent_lengths_to_the_batch_max():
    # TF 2.21: the map's output length depends on the element's value (its traced spec has shape (None,)), so the
    # default padded_shapes pad each batch to its longest element
    words = tf.data.Dataset.from_tensor_slices(["a b", "c d e", "f"]).map(lambda s: tf.strings.split(s))
    assert [b.numpy().tolist() for b in words.padded_batch(2)] == [[[b"a", b"b", b""], [b"c", b"d", b"e"]], [[b"f"]]]
    ranges = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n))
    assert [b.numpy().tolist() for b in ranges.padded_batch(2)] == [[[0, 0], [0, 1]], [[0, 1, 2]]]
    # an explicit padded shape smaller than an element stays an error (TF's DataLossError)
    with pytest.raises(tf.errors.DataLossError, match="Attempted to pad to a smaller size than the input element"):
        list(ranges.padded_batch(2, padded_shapes=[1]))
