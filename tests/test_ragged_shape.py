"""tf.shape of a RaggedTensor (tf.experimental.DynamicRaggedShape), RowPartition, and tf.reshape/zeros/ones/fill of a ragged shape print as TF 2.21 does."""
import contextlib
import io

import pytest

import tfcompat as tf

# name -> (code, what TF 2.21 prints running it)
CASES = {
    'tf_shape_of_ragged': (
        'rt = tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]])\n'
        'rt_shape = tf.shape(rt)\n'
        'print(rt_shape, rt_shape.dtype, repr(rt_shape[0]), repr(tf.shape(rt, out_type=tf.int64)[0]), repr(rt_shape[:1]))\n'
        'try:\n'
        '    rt_shape[1]\n'
        'except ValueError as e:\n'
        '    print(e)\n'
        "x = tf.constant([['a', 'b'], ['c', 'd'], ['e', 'f']])\n"
        "print(tf.reshape(x, rt_shape), tf.zeros(rt_shape), tf.ones(rt_shape), tf.fill(rt_shape, 'x'))\n"
        'print(tf.zeros(rt_shape, dtype=tf.int32), tf.ones(tf.shape(tf.ragged.constant([[[1, 2]], []], ragged_rank=1))))\n'
        'print(tf.shape(tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)))\n'
        'print(tf.shape(tf.ragged.constant([[[1], [2, 3]], []])))\n',
        "<DynamicRaggedShape lengths=[4, (1, 3, 0, 2)] num_row_partitions=1> <dtype: 'int32'> <tf.Tensor: shape=(), dtype=int32, numpy=4> <tf.Tensor: shape=(), dtype=int64, numpy=4> <DynamicRaggedShape lengths=[4] num_row_partitions=0>\n"
        'Index 1 is not uniform\n'
        "<tf.RaggedTensor [[b'a'], [b'b', b'c', b'd'], [], [b'e', b'f']]> <tf.RaggedTensor [[0.0], [0.0, 0.0, 0.0], [], [0.0, 0.0]]> <tf.RaggedTensor [[1.0], [1.0, 1.0, 1.0], [], [1.0, 1.0]]> <tf.RaggedTensor [[b'x'], [b'x', b'x', b'x'], [], [b'x', b'x']]>\n"
        '<tf.RaggedTensor [[0], [0, 0, 0], [], [0, 0]]> <tf.RaggedTensor [[[1.0, 1.0]], []]>\n'
        '<DynamicRaggedShape lengths=[2, (1, 2), 2] num_row_partitions=1>\n'
        '<DynamicRaggedShape lengths=[2, (2, 0), (1, 2)] num_row_partitions=2>\n'
        ''),
    'dynamic_ragged_shape': (
        'rp = tf.experimental.RowPartition.from_row_lengths([5, 3, 2])\n'
        'print(rp, repr(tf.experimental.DynamicRaggedShape(row_partitions=[rp], inner_shape=[10, 8])))\n'
        's = tf.experimental.DynamicRaggedShape.from_lengths([4, (2, 1, 0, 8), 12])\n'
        'print(repr(s), repr(s[0]), s[2], repr(s[:2]), s.rank, s.num_row_partitions, s.dtype, s.inner_shape)\n'
        'print(s.static_lengths(), s.row_partitions)\n',
        'tf.RowPartition(row_splits=[ 0  5  8 10]) <DynamicRaggedShape lengths=[3, (5, 3, 2), 8] num_row_partitions=1>\n'
        "<DynamicRaggedShape lengths=[4, (2, 1, 0, 8), 12] num_row_partitions=1> <tf.Tensor: shape=(), dtype=int64, numpy=4> tf.Tensor(12, shape=(), dtype=int64) <DynamicRaggedShape lengths=[4, (2, 1, 0, 8)] num_row_partitions=1> 3 1 <dtype: 'int64'> tf.Tensor([11 12], shape=(2,), dtype=int64)\n"
        '[4, (2, 1, 0, 8), 12] (tf.RowPartition(row_splits=[ 0  2  3  3 11]),)\n'
        ''),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prints_as_tf(name):
    code, expected = CASES[name]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"tf": tf})
    assert out.getvalue() == expected
