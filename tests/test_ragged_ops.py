"""RaggedTensor indexing, conversions, broadcasting, reductions and structural ops print as TF 2.21 does."""
import contextlib
import io

import pytest

import tfcompat as tf

# name -> (code, what TF 2.21 prints running it)
CASES = {
    'digits_ops': (
        'digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])\n'
        'words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])\n'
        'print(tf.add(digits, 3))\n'
        'print(tf.reduce_mean(digits, axis=1))\n'
        'print(tf.concat([digits, [[5, 3]]], axis=0))\n'
        'print(tf.tile(digits, [1, 2]))\n'
        'print(tf.strings.substr(words, 0, 2))\n'
        'print(tf.map_fn(tf.math.square, digits))\n'
        'print(digits[:, :2], digits[:, -2:])\n'
        'print(tf.ragged.map_flat_values(lambda x: x * 2 + 1, digits))\n',
        '<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>\n'
        'tf.Tensor([2.25              nan 5.33333333 6.                nan], shape=(5,), dtype=float64)\n'
        '<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], [], [5, 3]]>\n'
        '<tf.RaggedTensor [[3, 1, 4, 1, 3, 1, 4, 1], [], [5, 9, 2, 5, 9, 2], [6, 6], []]>\n'
        "<tf.RaggedTensor [[b'So', b'lo'], [b'th', b'fo', b'al', b'th', b'fi']]>\n"
        '<tf.RaggedTensor [[9, 1, 16, 1], [], [25, 81, 4], [36], []]>\n'
        '<tf.RaggedTensor [[3, 1], [], [5, 9], [6], []]> <tf.RaggedTensor [[4, 1], [], [9, 2], [6], []]>\n'
        '<tf.RaggedTensor [[7, 3, 9, 3], [], [11, 19, 5], [13], []]>\n'
        ''),
    'indexing': (
        "queries = tf.ragged.constant([['Who', 'is', 'George', 'Washington'], ['What', 'is', 'the', 'weather', 'tomorrow'], ['Goodnight']])\n"
        'print(queries[1, 2], queries[1:], queries[:, :3], queries[:, -2:])\n'
        'rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])\n'
        'print(rt[1], rt[3, 0], rt[:, 1:3], rt[:, -1:])\n'
        'try:\n'
        '    rt[:, 0]\n'
        'except ValueError as e:\n'
        '    print(e)\n',
        "tf.Tensor(b'the', shape=(), dtype=string) <tf.RaggedTensor [[b'What', b'is', b'the', b'weather', b'tomorrow'], [b'Goodnight']]> <tf.RaggedTensor [[b'Who', b'is', b'George'], [b'What', b'is', b'the'], [b'Goodnight']]> <tf.RaggedTensor [[b'George', b'Washington'], [b'weather', b'tomorrow'], [b'Goodnight']]>\n"
        '<tf.RaggedTensor [[5], [], [6]]> tf.Tensor([8 9], shape=(2,), dtype=int32) <tf.RaggedTensor [[[4]], [[], [6]], [], [[10]]]> <tf.RaggedTensor [[[4]],\n'
        '\n'
        ' [[6]],\n'
        '\n'
        ' [[7]],\n'
        '\n'
        ' [[10]]]>\n'
        'Cannot index into an inner ragged dimension.\n'
        ''),
    'conversions': (
        "s = tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']])\n"
        "print(s.to_tensor(default_value='', shape=[None, 10]))\n"
        'print(tf.RaggedTensor.from_tensor([[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]], padding=-1))\n'
        'print(s.to_sparse())\n'
        "st = tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]], values=['a', 'b', 'c'], dense_shape=[3, 3])\n"
        'print(tf.RaggedTensor.from_sparse(st))\n'
        'x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])\n'
        'print(x.to_tensor(shape=[2, 2], default_value=9))\n'
        'print(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).to_sparse())\n'
        'rt = tf.RaggedTensor.from_uniform_row_length(values=tf.RaggedTensor.from_row_splits(values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 5, 9, 10]), uniform_row_length=2)\n'
        'print(rt, rt.shape, rt.ragged_rank)\n'
        'print(x.nested_row_lengths())\n'
        'try:\n'
        '    tf.RaggedTensor.from_tensor([[1, 2]], lengths=[1], padding=0)\n'
        'except ValueError as e:\n'
        '    print(e)\n',
        'tf.Tensor(\n'
        "[[b'Hi' b'' b'' b'' b'' b'' b'' b'' b'' b'']\n"
        " [b'Welcome' b'to' b'the' b'fair' b'' b'' b'' b'' b'' b'']\n"
        " [b'Have' b'fun' b'' b'' b'' b'' b'' b'' b'' b'']], shape=(3, 10), dtype=string)\n"
        '<tf.RaggedTensor [[1, 3], [2], [4, 5, 8, 9]]>\n'
        'SparseTensor(indices=tf.Tensor(\n'
        '[[0 0]\n'
        ' [1 0]\n'
        ' [1 1]\n'
        ' [1 2]\n'
        ' [1 3]\n'
        ' [2 0]\n'
        " [2 1]], shape=(7, 2), dtype=int64), values=tf.Tensor([b'Hi' b'Welcome' b'to' b'the' b'fair' b'Have' b'fun'], shape=(7,), dtype=string), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))\n"
        "<tf.RaggedTensor [[b'a'], [], [b'b', b'c']]>\n"
        'tf.Tensor(\n'
        '[[1 2]\n'
        ' [3 4]], shape=(2, 2), dtype=int32)\n'
        'SparseTensor(indices=tf.Tensor(\n'
        '[[0 0 0]\n'
        ' [0 0 1]\n'
        ' [0 1 0]\n'
        ' [0 1 1]\n'
        ' [1 0 0]\n'
        ' [1 0 1]], shape=(6, 3), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([2 2 2], shape=(3,), dtype=int64))\n'
        '<tf.RaggedTensor [[[10, 11, 12], [13, 14]],\n'
        ' [[15, 16, 17, 18], [19]]]> (2, 2, None) 2\n'
        '(<tf.Tensor: shape=(3,), dtype=int64, numpy=array([2, 4, 1])>,)\n'
        'Specify argument `lengths` or `padding`, but not both.\n'
        ''),
    'broadcast': (
        'x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])\n'
        'print(x + [[1000], [2000], [3000]])\n'
        'x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)\n'
        'print(x + tf.constant([[10]]))\n'
        'x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]], ragged_rank=2)\n'
        'print(x + tf.constant([10, 20, 30]))\n'
        'y = tf.ragged.constant([[1.5, 2.], [3.]])\n'
        'print(y * 2, 2 - y, y < 2, -y, abs(-y), y ** 2, y // 1.)\n'
        'x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])\n'
        'for other in (tf.constant([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]), tf.constant([[1], [2]]), tf.constant([1, 2]),\n'
        '              tf.ragged.constant([[1, 2], [3], [4, 5, 6]])):\n'
        '    try:\n'
        '        x + other\n'
        '    except tf.errors.InvalidArgumentError as e:\n'
        '        print(e)\n',
        '<tf.RaggedTensor [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]>\n'
        '<tf.RaggedTensor [[[11, 12],\n'
        '  [13, 14],\n'
        '  [15, 16]], [[17, 18]]]>\n'
        '<tf.RaggedTensor [[[[11, 21, 31],\n'
        '   [12, 22, 32]], [], [[13, 23, 33]], [[14, 24, 34]]],\n'
        ' [[[15, 25, 35],\n'
        '   [16, 26, 36]], [[17, 27, 37]]]]>\n'
        '<tf.RaggedTensor [[3.0, 4.0], [6.0]]> <tf.RaggedTensor [[0.5, 0.0], [-1.0]]> <tf.RaggedTensor [[True, False], [False]]> <tf.RaggedTensor [[-1.5, -2.0], [-3.0]]> <tf.RaggedTensor [[1.5, 2.0], [3.0]]> <tf.RaggedTensor [[2.25, 4.0], [9.0]]> <tf.RaggedTensor [[1.0, 2.0], [3.0]]>\n'
        'Condition x == y did not hold.\n'
        'Indices of first 3 different values:\n'
        '[[1]\n'
        ' [2]\n'
        ' [3]]\n'
        'Corresponding x values:\n'
        '[ 4  8 12]\n'
        'Corresponding y values:\n'
        '[2 6 7]\n'
        'First 3 elements of x:\n'
        '[0 4 8]\n'
        'First 3 elements of y:\n'
        '[0 2 6]\n'
        'Condition x == y did not hold.\n'
        'First 1 elements of x:\n'
        '[False]\n'
        'First 1 elements of y:\n'
        '[ True]\n'
        'Condition x == y did not hold.\n'
        'Indices of first 2 different values:\n'
        '[[2]\n'
        ' [3]]\n'
        'Corresponding x values:\n'
        '[4 6]\n'
        'Corresponding y values:\n'
        '[6 7]\n'
        'First 3 elements of x:\n'
        '[0 2 4]\n'
        'First 3 elements of y:\n'
        '[0 2 6]\n'
        'Condition x == y did not hold.\n'
        'Indices of first 2 different values:\n'
        '[[2]\n'
        ' [3]]\n'
        'Corresponding x values:\n'
        '[6 7]\n'
        'Corresponding y values:\n'
        '[3 6]\n'
        'First 3 elements of x:\n'
        '[0 2 6]\n'
        'First 3 elements of y:\n'
        '[0 2 3]\n'
        ''),
    'reductions': (
        'x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])\n'
        'print(tf.reduce_max(x, axis=0), tf.reduce_sum(x, axis=0), tf.reduce_sum(x), tf.reduce_sum(x, axis=[0, 1]))\n'
        'print(tf.reduce_min(x, axis=1), tf.reduce_prod(x, axis=1), tf.reduce_any(x > 5, axis=1))\n'
        'print(tf.reduce_mean(tf.ragged.constant([[1., 2.], []]), axis=1), tf.reduce_max(tf.ragged.constant([[1., 2.], []]), axis=1))\n'
        'print(tf.math.reduce_max(tf.ragged.constant([[1, 2], []]), axis=1))\n'
        'r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])\n'
        'print(tf.reduce_sum(r3, axis=2), tf.reduce_sum(r3, axis=-1).shape)\n',
        'tf.Tensor([7 4 5 6], shape=(4,), dtype=int32) tf.Tensor([11  6  5  6], shape=(4,), dtype=int32) tf.Tensor(28, shape=(), dtype=int32) tf.Tensor(28, shape=(), dtype=int32)\n'
        'tf.Tensor([1 3 7], shape=(3,), dtype=int32) tf.Tensor([  2 360   7], shape=(3,), dtype=int32) tf.Tensor([False  True  True], shape=(3,), dtype=bool)\n'
        'tf.Tensor([1.5 nan], shape=(2,), dtype=float32) tf.Tensor([ 2.0000000e+00 -3.4028235e+38], shape=(2,), dtype=float32)\n'
        'tf.Tensor([          2 -2147483648], shape=(2,), dtype=int32)\n'
        '<tf.RaggedTensor [[3, 3], [15], []]> (3, None)\n'
        ''),
    'structure': (
        'x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]])\n'
        'print(tf.tile(x, [2, 2]))\n'
        'print(tf.reverse(x, [0]), tf.reverse(x, [1]))\n'
        'print(tf.ragged.stack([x, x]), tf.ragged.boolean_mask(x, x > 2))\n'
        'r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])\n'
        'print(tf.concat([x, x], axis=0), tf.reverse(r3, [2]))\n'
        'print(tf.concat([tf.constant([["#"]] * 2), tf.ragged.constant([["a", "b"], []])], axis=1))\n'
        "a = tf.ragged.constant([['John'], ['a', 'big', 'dog'], ['my', 'cat']])\n"
        "b = tf.ragged.constant([['fell', 'asleep'], ['barked'], ['is', 'fuzzy']])\n"
        'print(tf.concat([a, b], axis=1))\n'
        "print(tf.strings.join([a, a], separator='+'))\n",
        '<tf.RaggedTensor [[1, 2, 1, 2], [3, 4, 5, 6, 3, 4, 5, 6], [7, 7], [1, 2, 1, 2],\n'
        ' [3, 4, 5, 6, 3, 4, 5, 6], [7, 7]]>\n'
        '<tf.RaggedTensor [[7], [3, 4, 5, 6], [1, 2]]> <tf.RaggedTensor [[2, 1], [6, 5, 4, 3], [7]]>\n'
        '<tf.RaggedTensor [[[1, 2], [3, 4, 5, 6], [7]],\n'
        ' [[1, 2], [3, 4, 5, 6], [7]]]> <tf.RaggedTensor [[], [3, 4, 5, 6], [7]]>\n'
        '<tf.RaggedTensor [[1, 2], [3, 4, 5, 6], [7], [1, 2], [3, 4, 5, 6], [7]]> <tf.RaggedTensor [[[2, 1], [3]], [[6, 5, 4]], []]>\n'
        "<tf.RaggedTensor [[b'#', b'a', b'b'], [b'#']]>\n"
        "<tf.RaggedTensor [[b'John', b'fell', b'asleep'], [b'a', b'big', b'dog', b'barked'],\n"
        " [b'my', b'cat', b'is', b'fuzzy']]>\n"
        "<tf.RaggedTensor [[b'John+John'], [b'a+a', b'big+big', b'dog+dog'], [b'my+my', b'cat+cat']]>\n"
        ''),
    'gather_size_rank_join_merge': (
        'rt = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])\n'
        "s = tf.ragged.constant([['a', 'b'], ['c'], []])\n"
        'print(tf.gather(rt, [3, 0, 0]), tf.gather(rt, 1), tf.size(rt), tf.rank(rt))\n'
        "print(tf.strings.reduce_join(s, axis=-1, separator=' '), tf.strings.reduce_join(s, axis=1))\n"
        'for f in (lambda: tf.gather(rt, [5]), lambda: tf.gather(rt, -1)):\n'
        '    try:\n'
        '        f()\n'
        '    except tf.errors.InvalidArgumentError as e:\n'
        "        print(str(e).split('}} ')[-1])\n"
        'print(tf.gather(rt, [[1, 0], [3, 3]]), tf.gather([10, 20, 30], tf.ragged.constant([[0, 2], [1]])))\n'
        "print(tf.strings.reduce_join(tf.ragged.constant([[['a', 'b'], ['c']], [[]]]), axis=-1))\n"
        'r3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])\n'
        'print(r3.merge_dims(0, 1), r3.merge_dims(1, 2), rt.merge_dims(0, 1), r3.merge_dims(0, -1))\n'
        'print(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1).merge_dims(1, 2))\n',
        '<tf.RaggedTensor [[4, 5, 6], [1, 2], [1, 2]]> tf.Tensor([3], shape=(1,), dtype=int32) tf.Tensor(6, shape=(), dtype=int32) tf.Tensor(2, shape=(), dtype=int32)\n'
        "tf.Tensor([b'a b' b'c' b''], shape=(3,), dtype=string) tf.Tensor([b'ab' b'c' b''], shape=(3,), dtype=string)\n"
        'indices[0] = 5 is not in [0, 4) [Op:RaggedGather] name: \n'
        'indices = -1 is not in [0, 4) [Op:RaggedGather] name: \n'
        '<tf.RaggedTensor [[[3], [1, 2]],\n'
        ' [[4, 5, 6], [4, 5, 6]]]> <tf.RaggedTensor [[10, 30], [20]]>\n'
        "<tf.RaggedTensor [[b'ab', b'c'], [b'']]>\n"
        '<tf.RaggedTensor [[1, 2], [3], [4]]> <tf.RaggedTensor [[1, 2, 3], [4]]> tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32) tf.Tensor([1 2 3 4], shape=(4,), dtype=int32)\n'
        '<tf.RaggedTensor [[1, 2, 3, 4], [5, 6]]>\n'
        ''),
    'more_reductions': (
        'rt = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])\n'
        'r3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])\n'
        'print(tf.math.reduce_mean(rt), tf.reduce_sum(r3, axis=1), tf.cast(rt, tf.float32))\n'
        'print(tf.reduce_max(tf.ragged.constant([[[1, 2], [3]], [[4]], []]), axis=1))\n'
        'print(tf.ragged.boolean_mask(rt, rt > 2))\n',
        'tf.Tensor(3.5, shape=(), dtype=float64) <tf.RaggedTensor [[4, 2], [4]]> <tf.RaggedTensor [[1.0, 2.0], [3.0], [], [4.0, 5.0, 6.0]]>\n'
        '<tf.RaggedTensor [[3, 2], [4], []]>\n'
        '<tf.RaggedTensor [[], [3], [], [4, 5, 6]]>\n'
        ''),
    'strings_and_where': (
        "rt = tf.ragged.constant([['a b', 'c'], ['d e f']])\n"
        'print(tf.strings.split(rt))\n'
        "print(tf.strings.unicode_split(rt, 'UTF-8'))\n"
        'x = tf.ragged.constant([[1, -2], [3]])\n'
        'print(tf.where(x > 0, x, 0), tf.where(x > 0, x, tf.ragged.constant([[9, 9], [9]])), tf.where(x > 0))\n'
        "print(tf.strings.lower(tf.ragged.constant([['A', 'B']])), tf.strings.regex_replace(tf.ragged.constant([['ab']]), 'a', 'x'))\n"
        'print(tf.math.maximum(x, 0), tf.math.minimum(x, x))\n',
        "<tf.RaggedTensor [[[b'a', b'b'], [b'c']], [[b'd', b'e', b'f']]]>\n"
        "<tf.RaggedTensor [[[b'a', b' ', b'b'], [b'c']], [[b'd', b' ', b'e', b' ', b'f']]]>\n"
        '<tf.RaggedTensor [[1, 0], [3]]> <tf.RaggedTensor [[1, 9], [3]]> tf.Tensor(\n'
        '[[0 0]\n'
        ' [1 0]], shape=(2, 2), dtype=int64)\n'
        "<tf.RaggedTensor [[b'a', b'b']]> <tf.RaggedTensor [[b'xb']]>\n"
        '<tf.RaggedTensor [[1, 0], [3]]> <tf.RaggedTensor [[1, -2], [3]]>\n'
        ''),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prints_as_tf(name):
    code, expected = CASES[name]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"tf": tf})
    assert out.getvalue() == expected
