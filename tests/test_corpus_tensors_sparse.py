"""tf.SparseTensor construction checks and tf.sparse.to_dense's index validation (guide/sparse_tensor).

Messages recorded from TF 2.21 (its `{{function_node ...}}` prefix left out, as the corpus comparison does)."""
import numpy as np
import pytest

import tfcompat as tf


def test_to_dense_out_of_bounds_index():
    # TF 2.21: InvalidArgumentError, checked before the order of the indices
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.sparse.to_dense(tf.sparse.SparseTensor([[5, 0]], [1], [2, 2]))
    assert str(e.value) == "indices[0] = [5,0] is out of bounds: need 0 <= index < [2,2] [Op:SparseToDense] name: "
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.sparse.to_dense(tf.sparse.SparseTensor([[0, -1]], [1], [2, 2]))
    assert str(e.value) == "indices[0] = [0,-1] is out of bounds: need 0 <= index < [2,2] [Op:SparseToDense] name: "
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[3,0\] is out of bounds"):
        tf.sparse.to_dense(tf.sparse.SparseTensor([[1, 0], [3, 0]], [1, 2], [2, 2]), validate_indices=False)


def test_to_dense_order_messages_unchanged():
    st = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4], [1, 1]], values=[10, 20, 30], dense_shape=[3, 10])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.sparse.to_dense(st)
    assert str(e.value) == ("indices[2] = [1,1] is out of order. Many sparse ops require sorted indices.\n    Use "
                            "`tf.sparse.reorder` to create a correctly ordered copy.\n\n [Op:SparseToDense] name: ")
    # TF 2.21: [[0 10 0 ...], [0 0 ... 30 ...]] once reordered
    assert tf.sparse.to_dense(tf.sparse.reorder(st)).numpy()[1, 1] == 30


def test_sparse_tensor_rank_of_indices_and_dense_shape_must_agree():
    # TF 2.21: ValueError: Dimensions 2 and 1 are not compatible
    with pytest.raises(ValueError, match="^Dimensions 2 and 1 are not compatible$"):
        tf.sparse.SparseTensor(indices=[[0, 0]], values=[1.0], dense_shape=[2])


def test_sparse_tensor_index_conversion():
    # TF 2.21: a Python float index is refused, a NumPy float array is cast
    with pytest.raises(TypeError, match=r"^Cannot convert \[\[0.5, 0\]\] to EagerTensor of dtype int64$"):
        tf.sparse.SparseTensor([[0.5, 0]], [1.0], [2, 2])
    with pytest.raises(TypeError, match=r"^Cannot convert \[2.5, 2\] to EagerTensor of dtype int64$"):
        tf.sparse.SparseTensor([[0, 0]], [1], [2.5, 2])
    st = tf.sparse.SparseTensor(np.array([[0., 1.]]), [1], [2, 2])
    assert st.indices.dtype == tf.int64 and st.indices.numpy().tolist() == [[0, 1]]
    empty = tf.sparse.SparseTensor(np.zeros((0, 2)), tf.zeros([0]), [2, 2])
    assert empty.indices.shape == (0, 2)
