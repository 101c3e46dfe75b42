"""RaggedTensor dispatch of TF's public ops met around the ragged tensor guide (expand_dims, gather_nd, one_hot,
split, squeeze, add_n, cumsum, std/variance, unsorted_segment_*, softmax, bincount, dynamic_partition,
strings.format, keepdims reductions, elementwise APIs), row_lengths(axis), nested_value_rowids, Ellipsis/newaxis
indexing and tf.print's ragged text.

GOLDEN holds TF 2.21's results (to_list(), shape, dtype) and error (class, message) of the same calls."""
import math

import pytest

import tfcompat as tf

NAN = float("nan")

rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
rf = tf.ragged.constant([[3., 1, 4, 1], [], [5, 9, 2], [6], []])
r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])


def L(x):
    value = x.to_list() if isinstance(x, tf.RaggedTensor) else x.numpy()
    return (value.tolist() if hasattr(value, "tolist") else value, str(x.shape), x.dtype.name)


CASES = {
 'expand0': lambda: L(tf.expand_dims(rt, 0)), 'expand1': lambda: L(tf.expand_dims(rt, 1)), 'expand2': lambda: L(tf.expand_dims(rt, -1)),
 'expand_r3': lambda: L(tf.expand_dims(r3, 2)),
 'gather_nd': lambda: L(tf.gather_nd(rt, [[2, 1], [0, 0]])), 'gather_nd1': lambda: L(tf.gather_nd(rt, [[2], [0]])),
 'gather_nd_r3': lambda: L(tf.gather_nd(r3, [[0, 0], [1, 0]])), 'gather_nd_3d': lambda: L(tf.gather_nd(r3, [[0, 0, 1], [1, 0, 2]])),
 'gather_nd_deep': lambda: L(tf.gather_nd(rt, [[[2, 1]], [[0, 0]]])), 'gather_nd_empty': lambda: L(tf.gather_nd(rt, tf.zeros([2, 0], tf.int32))),
 'gather_nd_dense_ragidx': lambda: L(tf.gather_nd(tf.constant([[1, 2], [3, 4]]), tf.ragged.constant([[[0, 1]], [[1, 0], [1, 1]]], ragged_rank=1))),
 'one_hot': lambda: L(tf.one_hot(rt, 3)), 'one_hot_int': lambda: L(tf.one_hot(rt, 3, on_value=5, off_value=-1, dtype=tf.int32)),
 'split': lambda: [L(p) for p in tf.split(rt, [2, 3])], 'split5': lambda: [L(p) for p in tf.split(rt, 5)],
 'split_uniform': lambda: [L(p) for p in tf.split(tf.RaggedTensor.from_row_lengths(tf.reshape(tf.range(6), [3, 2]), [2, 1]), 2, axis=-1)],
 'squeeze': lambda: L(tf.squeeze(tf.ragged.constant([[[1],[2]],[[3]]]), axis=2)), 'squeeze0': lambda: L(tf.squeeze(tf.ragged.constant([[[1,2]]]), axis=0)),
 'squeeze_dense': lambda: L(tf.squeeze(tf.RaggedTensor.from_row_lengths(tf.ones([3, 1]), [2, 1]), axis=2)),
 'add_n': lambda: L(tf.math.add_n([rt, rt, rt])), 'cumsum': lambda: L(tf.math.cumsum(rt, axis=1)),
 'cumsum_er': lambda: L(tf.math.cumsum(rt, axis=1, exclusive=True, reverse=True)), 'cumsum0': lambda: L(tf.math.cumsum(rt, axis=0)),
 'cumsum_f': lambda: L(tf.math.cumsum(rf, axis=-1, exclusive=True)), 'cumsum_rev': lambda: L(tf.math.cumsum(rf, axis=1, reverse=True)),
 'std': lambda: L(tf.math.reduce_std(rf, axis=1)), 'var': lambda: L(tf.math.reduce_variance(rf, axis=1)), 'std_all': lambda: L(tf.math.reduce_std(rf)),
 'var0': lambda: L(tf.math.reduce_variance(rf, axis=0)), 'std_int': lambda: L(tf.math.reduce_std(rt, axis=1)),
 'useg_sum': lambda: L(tf.math.unsorted_segment_sum(rt, [0, 1, 0, 1, 0], 2)), 'useg_max': lambda: L(tf.math.unsorted_segment_max(rt, [0, 1, 0, 1, 0], 2)),
 'useg_mean': lambda: L(tf.math.unsorted_segment_mean(rf, [0, 1, 0, 1, 0], 2)), 'useg_sqrt': lambda: L(tf.math.unsorted_segment_sqrt_n(rf, [0, 1, 0, 1, 0], 3)),
 'useg_prod': lambda: L(tf.math.unsorted_segment_prod(rt, [0, 1, 0, 1, 0], 3)), 'useg_min': lambda: L(tf.math.unsorted_segment_min(rt, [0, 1, 0, 1, 0], 3)),
 'useg_ragids': lambda: L(tf.math.unsorted_segment_sum(rt, tf.ragged.constant([[0, 1, 0, 1], [], [0, 0, 1], [1], []]), 2)),
 'useg_r3': lambda: L(tf.math.unsorted_segment_sum(r3, [0, 0], 1)),
 'softmax': lambda: L(tf.nn.softmax(rf)), 'softmax3': lambda: L(tf.nn.softmax(tf.ragged.constant([[[1., 2], [3, 4]], [[5, 6]]]), axis=-1)),
 'bincount': lambda: L(tf.math.bincount(rt)), 'bincount_rows': lambda: L(tf.math.bincount(rt, minlength=12, axis=-1)),
 'bincount_w': lambda: L(tf.math.bincount(rt, weights=tf.ragged.constant([[1., 2, 3, 4], [], [5, 6, 7], [8], []]))),
 'bincount_max': lambda: L(tf.math.bincount(rt, maxlength=4)), 'bincount_bin': lambda: L(tf.math.bincount(rt, binary_output=True, axis=-1)),
 'dynpart': lambda: [L(p) for p in tf.dynamic_partition(rt, [0, 1, 0, 1, 1], 2)],
 'format': lambda: L(tf.strings.format("x={} y={}", (rt, rf))), 'format_sum': lambda: L(tf.strings.format("x={}", rt, summarize=1)),
 'format_str': lambda: L(tf.strings.format("x={}", tf.ragged.constant([['a', 'b'], []]))),
 'format_big': lambda: L(tf.strings.format("{}", tf.ragged.constant([list(range(10)), [1]]))),
 'format_all': lambda: L(tf.strings.format("{}", tf.ragged.constant([list(range(10)), [1]]), summarize=-1)),
 'keep_mean': lambda: L(tf.reduce_mean(rf, axis=1, keepdims=True)), 'keep0': lambda: L(tf.reduce_sum(rt, axis=0, keepdims=True)),
 'keep_all': lambda: L(tf.reduce_sum(rt, keepdims=True)),
 'round': lambda: L(tf.round(rf / 2)), 'relu': lambda: L(tf.nn.relu(rf - 3)), 'leaky': lambda: L(tf.nn.leaky_relu(features=rf - 3, alpha=0.5)),
 'truediv': lambda: L(tf.math.truediv(rt, 2)), 'pow': lambda: L(tf.pow(rt, 2)), 'divide_dense': lambda: L(tf.math.divide(rf, tf.constant([[1.], [2.], [4.], [8.], [1.]]))),
 'logical_not': lambda: L(tf.logical_not(rt > 2)),
 'rowlen2': lambda: L(r3.row_lengths(axis=2)), 'rowlen-1': lambda: L(r3.row_lengths(axis=-1)), 'rowlen0': lambda: L(r3.row_lengths(axis=0)),
 'rowlen_dense': lambda: L(tf.RaggedTensor.from_row_lengths(tf.ones([3, 4]), [2, 1]).row_lengths(axis=2)),
 'nvr': lambda: [L(p) for p in r3.nested_value_rowids()],
 'newaxis': lambda: L(rt[tf.newaxis]), 'newaxis1': lambda: L(rt[:, tf.newaxis]), 'newaxis_int': lambda: L(rt[2, tf.newaxis]),
 'ellipsis': lambda: L(r3[..., :1]), 'ellipsis0': lambda: L(r3[0, ...]), 'ellipsis_new': lambda: L(rt[..., tf.newaxis]),
}

ERRORS = {
 'expand_oob': lambda: tf.expand_dims(rt, -4), 'gather_nd_ragidx': lambda: tf.gather_nd(rt, tf.ragged.constant([[[2]], [[0], [1]]])),
 'gather_nd_batch': lambda: tf.gather_nd(rt, [[2, 1]], batch_dims=1), 'one_hot_axis0': lambda: tf.one_hot(rt, 3, axis=0),
 'split_ragged': lambda: tf.split(tf.ragged.constant([[1,2],[3,4]]), 2, axis=1), 'split_bad': lambda: tf.split(rt, 2),
 'split_neg': lambda: tf.split(rt, [-1, 6]), 'split0': lambda: tf.split(rt, 0), 'split_num': lambda: tf.split(rt, [2, 3], num=3),
 'squeeze_none': lambda: tf.squeeze(rt), 'squeeze_bad': lambda: tf.squeeze(tf.ragged.constant([[[1],[2, 3]],[[3]]]), axis=2),
 'squeeze_bad0': lambda: tf.squeeze(rt, axis=0), 'squeeze_str': lambda: tf.squeeze(rt, axis='a'),
 'dynpart_float': lambda: tf.dynamic_partition(rt, [0, 1, 0, 1, 1], 2.0), 'ellipsis_int': lambda: r3[..., 0],
}

# TF 2.21
GOLDEN = {'add_n': ([[9, 3, 12, 3], [], [15, 27, 6], [18], []], '(5, None)', 'int32'),
 'bincount': ([0, 2, 1, 1, 1, 1, 1, 0, 0, 1], '(10,)', 'int32'),
 'bincount_bin': ([[0, 1, 0, 1, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 1, 0, 0, 0, 1],
                   [0, 0, 0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
                  '(5, 10)', 'int32'),
 'bincount_max': ([0, 2, 1, 1], '(4,)', 'int32'),
 'bincount_rows': ([[0, 2, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    [0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
                    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
                   '(5, 12)', 'int32'),
 'bincount_w': ([0.0, 6.0, 7.0, 1.0, 3.0, 5.0, 8.0, 0.0, 0.0, 6.0], '(10,)', 'float32'),
 'cumsum': ([[3, 4, 8, 9], [], [5, 14, 16], [6], []], '(5, None)', 'int32'),
 'cumsum0': ([[3, 1, 4, 1], [], [8, 10, 6], [14], []], '(5, None)', 'int32'),
 'cumsum_er': ([[6, 5, 1, 0], [], [11, 2, 0], [0], []], '(5, None)', 'int32'),
 'cumsum_f': ([[0.0, 3.0, 4.0, 8.0], [], [0.0, 5.0, 14.0], [0.0], []], '(5, None)', 'float32'),
 'cumsum_rev': ([[9.0, 6.0, 5.0, 1.0], [], [16.0, 11.0, 2.0], [6.0], []], '(5, None)', 'float32'),
 'divide_dense': ([[3.0, 1.0, 4.0, 1.0], [], [1.25, 2.25, 0.5], [0.75], []], '(5, None)', 'float32'),
 'dynpart': [([[3, 1, 4, 1], [5, 9, 2]], '(2, None)', 'int32'), ([[], [6], []], '(3, None)', 'int32')],
 'dynpart_float': ('TypeError', 'num_partitions must be a non-negative integer'),
 'ellipsis': ([[[1], [3]], [[4]]], '(2, None, None)', 'int32'),
 'ellipsis0': ([[1, 2], [3]], '(2, None)', 'int32'),
 'ellipsis_int': ('ValueError', 'Cannot index into an inner ragged dimension.'),
 'ellipsis_new': ([[[3], [1], [4], [1]], [], [[5], [9], [2]], [[6]], []], '(5, None, 1)', 'int32'),
 'expand0': ([[[3, 1, 4, 1], [], [5, 9, 2], [6], []]], '(1, 5, None)', 'int32'),
 'expand1': ([[[3, 1, 4, 1]], [[]], [[5, 9, 2]], [[6]], [[]]], '(5, 1, None)', 'int32'),
 'expand2': ([[[3], [1], [4], [1]], [], [[5], [9], [2]], [[6]], []], '(5, None, 1)', 'int32'),
 'expand_oob': ('ValueError', 'axis=-4 out of bounds: expected -3<=axis<3'),
 'expand_r3': ([[[[1, 2]], [[3]]], [[[4, 5, 6]]]], '(2, None, 1, None)', 'int32'),
 'format': (b'x=[[3, 1, 4, 1], [], [5, 9, 2], [6], []] y=[[3.000000, 1.000000, 4.000000, 1.000000], [], [5.000000,'
            b' 9.000000, 2.000000], [6.000000], []]',
            '()', 'string'),
 'format_all': (b'[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1]]', '()', 'string'),
 'format_big': (b'[[0, 1, 2, ..., 7, 8, 9], [1]]', '()', 'string'),
 'format_str': (b"x=[['a', 'b'], []]", '()', 'string'),
 'format_sum': (b'x=[[3, ..., 1], ..., []]', '()', 'string'),
 'gather_nd': ([9, 3], '(2,)', 'int32'),
 'gather_nd1': ([[5, 9, 2], [3, 1, 4, 1]], '(2, None)', 'int32'),
 'gather_nd_3d': ([2, 6], '(2,)', 'int32'),
 'gather_nd_batch': ('ValueError', 'batch_dims != 0 is not supported for ragged gather yet.'),
 'gather_nd_deep': ([[9], [3]], '(2, 1)', 'int32'),
 'gather_nd_dense_ragidx': ([[2], [3, 4]], '(2, None)', 'int32'),
 'gather_nd_empty': ([[[3, 1, 4, 1], [], [5, 9, 2], [6], []], [[3, 1, 4, 1], [], [5, 9, 2], [6], []]],
                     '(2, None, None)', 'int32'),
 'gather_nd_r3': ([[1, 2], [4, 5, 6]], '(2, None)', 'int32'),
 'gather_nd_ragidx': ('ValueError', 'The innermost dimension of indices may not be ragged'),
 'keep0': ([[14, 10, 6, 1]], '(1, 4)', 'int32'),
 'keep_all': ([[31]], '(1, 1)', 'int32'),
 'keep_mean': ([[2.25], [NAN], [5.333333492279053], [6.0], [NAN]], '(5, 1)', 'float32'),
 'leaky': ([[0.0, -1.0, 1.0, -1.0], [], [2.0, 6.0, -0.5], [3.0], []], '(5, None)', 'float32'),
 'logical_not': ([[False, True, False, True], [], [False, False, True], [False], []], '(5, None)', 'bool'),
 'newaxis': ([[[3, 1, 4, 1], [], [5, 9, 2], [6], []]], '(1, 5, None)', 'int32'),
 'newaxis1': ([[[3, 1, 4, 1]], [[]], [[5, 9, 2]], [[6]], [[]]], '(5, 1, None)', 'int32'),
 'newaxis_int': ([[5, 9, 2]], '(1, 3)', 'int32'),
 'nvr': [([0, 0, 1], '(3,)', 'int64'), ([0, 0, 1, 2, 2, 2], '(6,)', 'int64')],
 'one_hot': ([[[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [],
              [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]], [[0.0, 0.0, 0.0]], []],
             '(5, None, 3)', 'float32'),
 'one_hot_axis0': ('ValueError', 'axis (0) must be greater than indices.ragged_rank (1).'),
 'one_hot_int': ([[[-1, -1, -1], [-1, 5, -1], [-1, -1, -1], [-1, 5, -1]], [],
                  [[-1, -1, -1], [-1, -1, -1], [-1, -1, 5]], [[-1, -1, -1]], []],
                 '(5, None, 3)', 'int32'),
 'pow': ([[9, 1, 16, 1], [], [25, 81, 4], [36], []], '(5, None)', 'int32'),
 'relu': ([[0.0, 0.0, 1.0, 0.0], [], [2.0, 6.0, 0.0], [3.0], []], '(5, None)', 'float32'),
 'round': ([[2.0, 0.0, 2.0, 0.0], [], [2.0, 4.0, 1.0], [3.0], []], '(5, None)', 'float32'),
 'rowlen-1': ([[2, 1], [3]], '(2, None)', 'int64'),
 'rowlen0': (2, '()', 'int64'),
 'rowlen2': ([[2, 1], [3]], '(2, None)', 'int64'),
 'rowlen_dense': ([[4, 4], [4]], '(2, None)', 'int64'),
 'softmax': ([[0.2506923973560333, 0.03392752632498741, 0.6814525723457336, 0.03392752632498741], [],
              [0.017970118671655655, 0.9811351895332336, 0.0008946795132942498], [1.0], []],
             '(5, None)', 'float32'),
 'softmax3': ([[[0.2689414322376251, 0.7310585975646973], [0.2689414322376251, 0.7310585975646973]],
               [[0.2689414322376251, 0.7310585975646973]]],
              '(2, None, None)', 'float32'),
 'split': [([[3, 1, 4, 1], []], '(2, None)', 'int32'), ([[5, 9, 2], [6], []], '(3, None)', 'int32')],
 'split0': ('ValueError', '`num_or_size_splits` must be >=1 if it is an `int`.Received 0.'),
 'split5': [([[3, 1, 4, 1]], '(1, None)', 'int32'), ([[]], '(1, None)', 'int32'), ([[5, 9, 2]], '(1, None)', 'int32'),
            ([[6]], '(1, None)', 'int32'), ([[]], '(1, None)', 'int32')],
 'split_bad': ('InvalidArgumentError',
               'Cannot exactly split the `axis` dimension of `value` with the given `num_or_size_split`.\n'
               'Condition x == y did not hold.\n'
               'First 1 elements of x:\n'
               '[5]\n'
               'First 1 elements of y:\n'
               '[4]'),
 'split_neg': ('InvalidArgumentError',
               '`num_or_size_splits` must be non-negative..  \n'
               'Condition x >= 0 did not hold element-wise:\n'
               'x (shape=(2,) dtype=int32) = \n'
               "['-1', '6']"),
 'split_num': ('ValueError',
               '`num` does not match the size of `num_or_size_split`. Received `num`: 3 and size of '
               '`num_or_size_split`: 2.'),
 'split_ragged': ('ValueError',
                  'Cannot split a ragged dimension. Got `value` with shape <DynamicRaggedShape lengths=[2, (2, 2)] '
                  'num_row_partitions=1> and `axis` 1.'),
 'split_uniform': [([[[0], [2]], [[4]]], '(2, None, 1)', 'int32'), ([[[1], [3]], [[5]]], '(2, None, 1)', 'int32')],
 'squeeze': ([[1, 2], [3]], '(2, None)', 'int32'),
 'squeeze0': ([[1, 2]], '(1, None)', 'int32'),
 'squeeze_bad': ('InvalidArgumentError',
                 "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'the given axis "
                 "(axis = 2) is not squeezable!'"),
 'squeeze_bad0': ('InvalidArgumentError',
                  "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'the given axis "
                  "(axis = 0) is not squeezable!'"),
 'squeeze_dense': ([[1.0, 1.0], [1.0]], '(2, None)', 'float32'),
 'squeeze_none': ('ValueError', 'Ragged.squeeze must have an axis argument.'),
 'squeeze_str': ('TypeError', 'Axis must be a list or tuple of integers.'),
 'std': ([1.299038052558899, NAN, 2.8674416542053223, 0.0, NAN], '(5,)', 'float32'),
 'std_all': (2.5708703994750977, '()', 'float32'),
 'std_int': ([1.299038105676658, NAN, 2.8674417556808756, 0.0, NAN], '(5,)', 'float64'),
 'truediv': ([[1.5, 0.5, 2.0, 0.5], [], [2.5, 4.5, 1.0], [3.0], []], '(5, None)', 'float64'),
 'useg_max': ([[5, 9, 4, 1], [6]], '(2, None)', 'int32'),
 'useg_mean': ([[4.0, 5.0, 3.0, 1.0], [6.0]], '(2, None)', 'float32'),
 'useg_min': ([[3, 1, 2, 1], [6], []], '(3, None)', 'int32'),
 'useg_prod': ([[15, 9, 8, 1], [6], []], '(3, None)', 'int32'),
 'useg_r3': ([[[5, 7, 6], [3]]], '(1, None, None)', 'int32'),
 'useg_ragids': ([21, 10], '(2,)', 'int32'),
 'useg_sqrt': ([[5.656854152679443, 7.071067810058594, 4.242640972137451, 1.0], [6.0], []], '(3, None)', 'float32'),
 'useg_sum': ([[8, 10, 6, 1], [6]], '(2, None)', 'int32'),
 'var': ([1.6875, NAN, 8.222221374511719, 0.0, NAN], '(5,)', 'float32'),
 'var0': ([1.5555572509765625, 16.0, 1.0, 0.0], '(4,)', 'float32')}


def _close(x, y):
    if isinstance(x, float) and isinstance(y, float):
        return (math.isnan(x) and math.isnan(y)) or abs(x - y) <= 1e-5 + 1e-5 * abs(x)
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(_close(u, v) for u, v in zip(x, y))
    return x == y


@pytest.mark.parametrize("case", sorted(CASES))
def test_ragged_dispatch_values(case):
    assert _close(CASES[case](), GOLDEN[case])


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_ragged_dispatch_errors(case):
    cls, message = GOLDEN[case]
    with pytest.raises(Exception) as info:
        ERRORS[case]()
    assert type(info.value).__name__ == cls
    assert str(info.value) == message


def test_print_ragged(capsys):
    # TF 2.21: tf.print writes a RaggedTensor as its ragged_tensor_to_string text, unquoted
    tf.print(rf, output_stream=__import__("sys").stdout)
    tf.print(tf.ragged.constant([list(range(10)), [1]]), output_stream=__import__("sys").stdout)
    tf.print(tf.ragged.constant([["a", "b"], []]), output_stream=__import__("sys").stdout)
    tf.print("val:", rt, 5, output_stream=__import__("sys").stdout)
    tf.print(r3, summarize=1, output_stream=__import__("sys").stdout)
    assert capsys.readouterr().out.splitlines() == [
        "[[3.000000, 1.000000, 4.000000, 1.000000], [], [5.000000, 9.000000, 2.000000], [6.000000], []]",
        "[[0, 1, 2, ..., 7, 8, 9], [1]]",
        "[['a', 'b'], []]",
        "val: [[3, 1, 4, 1], [], [5, 9, 2], [6], []] 5",
        "[[[1, 2], [3]], [[4, ..., 6]]]",
    ]


def test_stepped_slices_of_ragged_dimensions():
    # TF 2.21: Python slice semantics within each row
    rt5 = tf.ragged.constant([[3, 1, 4, 1, 5], [], [5, 9, 2], [6], []])
    assert rt5[:, ::2].to_list() == [[3, 4, 5], [], [5, 2], [6], []]
    assert rt5[:, ::-1].to_list() == [[5, 1, 4, 1, 3], [], [2, 9, 5], [6], []]
    assert rt5[:, 1::2].to_list() == [[1, 1], [], [9], [], []]
    assert rt5[:, -1:0:-2].to_list() == [[5, 4], [], [2], [], []]
    assert rt5[:, :-1:3].to_list() == [[3, 1], [], [5], [], []]
    assert rt5[::2, ::-1].to_list() == [[5, 1, 4, 1, 3], [2, 9, 5], []]
    rr = tf.ragged.constant([[[1, 2, 3], [4]], [[5, 6]]])
    assert rr[:, ::-1].to_list() == [[[4], [1, 2, 3]], [[5, 6]]]
    assert rr[:, :, ::2].to_list() == [[[1, 3], [4]], [[5]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Requires delta != 0 \[Op:RaggedRange\] name: $"):
        rt5[:, ::0]


def test_elementwise_ops_between_ragged_ranks():
    # TF 2.21: a uniform dimension (size 1, or every row's length) broadcasts against the other operand's ragged one
    x = tf.ragged.constant([[[1., 2], [3, 4, 5]], [[6]], []])
    m = tf.reduce_mean(x, axis=2, keepdims=True)
    assert (m.ragged_rank, str(m.shape)) == (1, "(3, None, 1)")
    assert (x - m).to_list() == [[[-0.5, 0.5], [-1.0, 0.0, 1.0]], [[0.0]], []]
    assert (m * x).to_list() == [[[1.5, 3.0], [12.0, 16.0, 20.0]], [[36.0]], []]
    same = tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]], []], ragged_rank=1)
    assert _close((tf.ragged.constant([[[1., 2], [3, 4]], [[6, 7]], []]) + same).to_list(),
                  [[[2.0, 4.0], [6.0, 8.0]], [[11.0, 13.0]], []])
    assert _close(tf.nn.softmax(x).to_list(), [[[0.26894143, 0.7310586], [0.09003057, 0.24472848, 0.66524094]],
                                               [[1.0]], []])
    assert _close(tf.math.reduce_std(x, axis=-1, keepdims=True).to_list(), [[[0.5], [0.8164966]], [[0.0]], []])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        x + same


def test_ragged_constant_inner_shape():
    # TF 2.21
    a = tf.ragged.constant([[1, 2], [3]], inner_shape=())
    assert (a.to_list(), str(a.shape), a.ragged_rank) == ([[1, 2], [3]], "(2, None)", 1)
    b = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], inner_shape=(2,))
    assert (b.to_list(), str(b.shape), b.ragged_rank) == ([[[1, 2]], [[3, 4], [5, 6]]], "(2, None, 2)", 1)
    c = tf.ragged.constant([[[1, 2]], []], inner_shape=(2,))
    assert (c.to_list(), str(c.shape), c.ragged_rank) == ([[[1, 2]], []], "(2, None, 2)", 1)
    with pytest.raises(ValueError, match=r"incompatible with ragged_rank=0 and dim\(inner_shape\)=1$"):
        tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], inner_shape=(2,), ragged_rank=0)
    with pytest.raises(ValueError, match="Can't convert non-rectangular Python sequence to Tensor."):
        tf.ragged.constant([[1, 2], [3]], inner_shape=(2,))
    with pytest.raises(TypeError, match="Eager execution of tf.constant with unsupported shape"):
        tf.ragged.constant([[1, 2], [3, 4]], inner_shape=(1,))


def test_dense_op_given_a_ragged_tensor_message():
    # TF 2.21: ops without a ragged form fail converting it with this ValueError text
    for op in (tf.convert_to_tensor, tf.constant, tf.argmax, tf.sort):
        with pytest.raises(ValueError) as e:
            op(rt)
        assert str(e.value) == "TypeError: object of type 'RaggedTensor' has no len()\n"
