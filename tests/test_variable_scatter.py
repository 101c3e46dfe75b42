"""`Variable.scatter_*`, `scatter_nd_*`, `batch_scatter_update`, `sparse_read`, `gather_nd` and TF1's
`tf.compat.v1.scatter_*`: values, returned `UnreadVariable`s and errors recorded from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_scatter_nd_methods_in_sequence():
    v = tf.Variable([1., 2., 3., 4.])
    r = v.scatter_nd_update([[1], [3]], [10., 20.])
    assert repr(r) == ("<tf.Variable 'UnreadVariable' shape=(4,) dtype=float32, "
                       "numpy=array([ 1., 10.,  3., 20.], dtype=float32)>")
    assert type(v.scatter_nd_add([[1], [1]], [1., 1.])).__name__ == "_UnreadVariable"
    np.testing.assert_array_equal(v.numpy(), [1., 12., 3., 20.])
    v.scatter_nd_sub([[0]], [5.])
    v.scatter_nd_max([[0], [2]], [0., 100.])
    v.scatter_nd_min([[0], [2]], [-10., 100.])
    np.testing.assert_array_equal(v.numpy(), [-10., 12., 100., 20.])
    m = tf.Variable([[1, 2, 3], [0, 0, 0]])
    np.testing.assert_array_equal(m.scatter_nd_update([[0, 1]], [9]).numpy(), [[1, 9, 3], [0, 0, 0]])


def test_scatter_row_methods_in_sequence():
    v = tf.Variable([-10., 12., 100., 20.])
    expected = [([7., 8.], [0, 2], "update", [7., 12., 8., 20.]),
                ([1., 1.], [0, 0], "add", [9., 12., 8., 20.]),        # repeated rows add twice
                ([1.], [1], "sub", [9., 11., 8., 20.]),
                ([2.], [3], "mul", [9., 11., 8., 40.]),
                ([4.], [3], "div", [9., 11., 8., 10.]),
                ([100.], [1], "max", [9., 100., 8., 10.]),
                ([-1.], [2], "min", [9., 100., -1., 10.])]
    for values, indices, mode, want in expected:
        r = getattr(v, "scatter_" + mode)(tf.IndexedSlices(values, indices))
        assert r.name == "UnreadVariable" and r.shape == (4,)
        np.testing.assert_array_equal(v.numpy(), want, err_msg=mode)


def test_scatter_rows_of_a_matrix_broadcast_and_batches():
    m = tf.Variable([[1, 2, 3], [4, 5, 6]])
    m.scatter_update(tf.IndexedSlices([[0, 0, 0]], [1]))
    np.testing.assert_array_equal(m.numpy(), [[1, 2, 3], [0, 0, 0]])
    m.scatter_update(tf.IndexedSlices(5, [1, 0]))                       # a scalar update fills the rows
    np.testing.assert_array_equal(m.numpy(), [[5, 5, 5], [5, 5, 5]])
    m.batch_scatter_update(tf.IndexedSlices([[7], [8]], [[2], [0]]))
    np.testing.assert_array_equal(m.numpy(), [[5, 5, 7], [8, 5, 5]])
    f = tf.Variable([[1., 2.], [3., 4.]])
    f.scatter_update(tf.IndexedSlices([[[5., 6.]], [[7., 8.]]], [[0], [1]]))
    np.testing.assert_array_equal(f.numpy(), [[5., 6.], [7., 8.]])
    f.scatter_add(tf.IndexedSlices([[1., 1.]], tf.constant([0], tf.int64)))
    np.testing.assert_array_equal(f.numpy(), [[6., 7.], [7., 8.]])
    f.batch_scatter_update(tf.IndexedSlices([[9.], [8.]], [[1], [0]]))
    np.testing.assert_array_equal(f.numpy(), [[6., 9.], [8., 8.]])


def test_integer_division_truncates_and_other_dtypes():
    i = tf.Variable([7, -7, 9])
    i.scatter_div(tf.IndexedSlices([2, 2, 3, 2], [0, 1, 2, 2]))
    np.testing.assert_array_equal(i.numpy(), [3, -3, 1])
    u = tf.Variable([1, 2], dtype=tf.uint32)
    u.scatter_add(tf.IndexedSlices(tf.constant([5], tf.uint32), [0]))
    u.scatter_nd_add([[0]], tf.constant([5], tf.uint32))
    assert u.dtype == tf.uint32 and u.numpy().tolist() == [11, 2]
    b = tf.Variable([True, False])
    b.scatter_nd_add([[1]], [True])                 # a logical or
    b.scatter_update(tf.IndexedSlices([False], [0]))
    assert b.numpy().tolist() == [False, True]
    s = tf.Variable(["a", "b"])
    s.scatter_update(tf.IndexedSlices(["z"], [0]))
    s.scatter_nd_update([[1]], ["y"])
    assert s.numpy().tolist() == [b"z", b"y"]


def test_earlier_reads_keep_their_values():
    v = tf.Variable([1., 2.])
    before = v.read_value()
    v.scatter_nd_update([[0]], [5.])
    assert before.numpy().tolist() == [1., 2.] and v.numpy().tolist() == [5., 2.]


def test_sparse_reads():
    v = tf.Variable([9., 1., -1., 10.])
    assert repr(v.sparse_read([0, 2])) == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 9., -1.], dtype=float32)>"
    np.testing.assert_array_equal(v.gather_nd([[0], [2]]).numpy(), [9., -1.])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.Variable([[1., 2.], [3., 4.]]).sparse_read(5)
    assert str(e.value) == PREFIX % "ResourceGather" + "indices = 5 is not in [0, 2) [Op:ResourceGather] name: "
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices = 5 is not in \[0, 2\)"):
        tf.gather([1, 2], 5)


@pytest.mark.parametrize("call, op, message", [
    (lambda v, m: v.scatter_update(tf.IndexedSlices([1.], [9])), "ResourceScatterUpdate",
     "indices[0] = 9 is not in [0, 4)"),
    (lambda v, m: v.scatter_add(tf.IndexedSlices([1.], [-1])), "ResourceScatterAdd",
     "indices[0] = -1 is not in [0, 4)"),
    (lambda v, m: v.scatter_nd_update([[9]], [1.]), "ResourceScatterNdUpdate",
     "indices[0] = [9] does not index into shape [4]"),
    (lambda v, m: v.scatter_update(tf.IndexedSlices([1., 2.], [0])), "ResourceScatterUpdate",
     "The shape of indices ([1]) must be a prefix of the shape of updates ([2])"),
    (lambda v, m: v.scatter_nd_update([[1]], [1., 2.]), "ResourceScatterNdUpdate",
     "Dimensions [0,1) of indices[shape=[1,1]] = 1 must match dimensions [0,1) of updates[shape=[2]] = 2"),
    (lambda v, m: m.scatter_nd_update([[[1]]], [1., 2.]), "ResourceScatterNdUpdate",
     "Dimensions [0,1) of indices[shape=[1,1,1]] = 1 must match dimensions [0,1) of updates[shape=[2]] = 2"),
    (lambda v, m: m.scatter_nd_update([[1]], [[1., 2., 3.]]), "ResourceScatterNdUpdate",
     "Dimensions [1,2) of input[shape=[2,2]] must match dimensions [1,2) of updates[shape=[1,3]]"),
    (lambda v, m: m.scatter_nd_update([[0, 1, 0]], [1.]), "ResourceScatterNdUpdate",
     "Dimensions [3,2) of input[shape=[2,2]] must match dimensions [3,1) of updates[shape=[1]]"),
    (lambda v, m: m.scatter_update(tf.IndexedSlices([1., 2.], [0])), "ResourceScatterUpdate",
     "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got updates.shape [2], "
     "indices.shape [1], params.shape [2,2]"),
    (lambda v, m: v.scatter_div(tf.IndexedSlices([0.], [0])), "ResourceScatterDiv", "updates must not contain 0"),
])
def test_kernel_errors(call, op, message):
    v, m = tf.Variable([1., 2., 3., 4.]), tf.Variable([[1., 2.], [3., 4.]])
    before = v.numpy(), m.numpy()
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call(v, m)
    assert str(e.value) == PREFIX % op + message + f" [Op:{op}]"
    np.testing.assert_array_equal(v.numpy(), before[0])          # nothing changed
    np.testing.assert_array_equal(m.numpy(), before[1])


def test_argument_errors():
    v = tf.Variable([1., 2.])
    with pytest.raises(TypeError, match=r"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: \[1.0\]"):
        v.scatter_update([1.])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor with dtype int32"):
        v.scatter_nd_update([[1]], tf.constant([1]))
    v.scatter_nd_update([[1]], [1])                 # Python numbers convert to the variable's dtype
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tindices' of float is not in the list"):
        v.scatter_nd_update(tf.constant([[1]], tf.float32), [1.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of bool is not in the list"):
        tf.Variable([True]).scatter_add(tf.IndexedSlices([True], [0]))
    with pytest.raises(NotImplementedError, match="scatter_update of a scalar variable"):
        tf.Variable(3.).scatter_update(tf.IndexedSlices(1., 0))


def test_compat_v1_functions():
    v = tf.Variable([0., 2., -1., 10.])
    r = tf.compat.v1.scatter_update(v, [1], [5.])
    assert repr(r) == ("<tf.Variable 'UnreadVariable' shape=(4,) dtype=float32, "
                       "numpy=array([ 0.,  5., -1., 10.], dtype=float32)>")
    tf.compat.v1.scatter_nd_update(v, [[1]], [6.])
    tf.compat.v1.scatter_add(v, [0, 0], [1., 1.])
    tf.compat.v1.scatter_nd_sub(v, [[3]], [4.])
    np.testing.assert_array_equal(v.numpy(), [2., 6., -1., 6.])
    assert tf.compat.v1.tensor_scatter_update is tf.tensor_scatter_nd_update
    with pytest.raises(AttributeError, match="no attribute '_lazy_read'"):
        tf.compat.v1.scatter_update(tf.constant([1., 2.]), [0], [3.])
