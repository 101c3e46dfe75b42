"""tf.RaggedTensorSpec, RaggedTensor elements in tf.data (from_tensor_slices, batch, unbatch, map, ragged_batch, dense_to_ragged_batch) and tf.io.RaggedFeature print as TF 2.21 does."""
import contextlib
import io

import pytest

import tfcompat as tf

# name -> (code, what TF 2.21 prints running it)
CASES = {
    'ragged_elements': (
        "ds = tf.data.Dataset.from_tensor_slices({'a': tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])})\n"
        'print(ds.element_spec, ds.batch(2).element_spec, ds.batch(2).unbatch().element_spec)\n'
        'print(list(ds.as_numpy_iterator())[:2])\n'
        "print('{}'.format(next(iter(ds))['a']))\n"
        'for x in ds.batch(2):\n'
        '    print(x)\n'
        'for x in ds.batch(2).unbatch().batch(3):\n'
        '    print(x)\n'
        'd = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]]))\n'
        'print(d.map(lambda x: x * 2).element_spec, list(d.map(lambda x: x * 2)))\n'
        'print(list(d.batch(2).as_numpy_iterator()))\n'
        'print(d.map(lambda x: tf.ragged.range(x)).element_spec)\n',
        "{'a': RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)} {'a': RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)} {'a': RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)}\n"
        "[{'a': array([1, 2], dtype=int32)}, {'a': array([3], dtype=int32)}]\n"
        '[1 2]\n'
        "{'a': <tf.RaggedTensor [[1, 2], [3]]>}\n"
        "{'a': <tf.RaggedTensor [[], [4, 5, 6]]>}\n"
        "{'a': <tf.RaggedTensor [[1, 2], [3], []]>}\n"
        "{'a': <tf.RaggedTensor [[4, 5, 6]]>}\n"
        'TensorSpec(shape=(None,), dtype=tf.int32, name=None) [<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>, <tf.Tensor: shape=(1,), dtype=int32, numpy=array([6], dtype=int32)>]\n'
        '[array([array([1, 2], dtype=int32), array([3], dtype=int32)], dtype=object)]\n'
        'RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)\n'
        ''),
    'ragged_batch': (
        'd = tf.data.Dataset.from_tensor_slices([1, 5, 3, 2, 8]).map(tf.range).ragged_batch(2)\n'
        'print(d.element_spec, d)\n'
        'for x in d:\n'
        '    print(x)\n'
        'for x in tf.data.Dataset.from_tensor_slices([1, 5]).map(tf.range).apply(tf.data.experimental.dense_to_ragged_batch(2)):\n'
        '    print(x)\n'
        'd = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [[1., 2.], [3, 4], [5, 6]])).ragged_batch(2)\n'
        'print(d.element_spec)\n'
        'd = tf.data.Dataset.from_tensor_slices([1, 2]).map(lambda x: tf.ones([x, x]))\n'
        'print(d.ragged_batch(2).element_spec)\n'
        'for e in d.ragged_batch(2):\n'
        '    print(e)\n',
        'RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64) <_BatchDataset element_spec=RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)>\n'
        '<tf.RaggedTensor [[0], [0, 1, 2, 3, 4]]>\n'
        '<tf.RaggedTensor [[0, 1, 2], [0, 1]]>\n'
        '<tf.RaggedTensor [[0, 1, 2, 3, 4, 5, 6, 7]]>\n'
        '<tf.RaggedTensor [[0], [0, 1, 2, 3, 4]]>\n'
        '(TensorSpec(shape=(None,), dtype=tf.int32, name=None), TensorSpec(shape=(None, 2), dtype=tf.float32, name=None))\n'
        'RaggedTensorSpec(TensorShape([None, None, None]), tf.float32, 2, tf.int64)\n'
        '<tf.RaggedTensor [[[1.0]], [[1.0, 1.0], [1.0, 1.0]]]>\n'
        ''),
    'ragged_feature': (
        'def ex(colors, lengths):\n'
        "    f = {'colors': tf.train.Feature(bytes_list=tf.train.BytesList(value=colors)),\n"
        "         'lengths': tf.train.Feature(int64_list=tf.train.Int64List(value=lengths))}\n"
        '    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()\n'
        "batch = [ex([b'red', b'blue'], [7]), ex([b'orange'], []), ex([b'black', b'yellow'], [1, 3])]\n"
        "spec = {'colors': tf.io.RaggedFeature(tf.string), 'lengths': tf.io.RaggedFeature(tf.int64)}\n"
        'out = tf.io.parse_example(batch, spec)\n'
        'for k, v in out.items():\n'
        '    print(k, v, v.row_splits.dtype)\n'
        'print(tf.io.parse_single_example(batch[2], spec))\n'
        'print(tf.io.RaggedFeature(tf.int64))\n',
        "colors <tf.RaggedTensor [[b'red', b'blue'], [b'orange'], [b'black', b'yellow']]> <dtype: 'int32'>\n"
        "lengths <tf.RaggedTensor [[7], [], [1, 3]]> <dtype: 'int32'>\n"
        "{'colors': <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'black', b'yellow'], dtype=object)>, 'lengths': <tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 3])>}\n"
        'RaggedFeature(dtype=tf.int64, value_key=None, partitions=(), row_splits_dtype=tf.int32, validate=False)\n'
        ''),
    'spec': (
        's = tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)\n'
        'print(repr(s), s.ragged_rank, s.shape, s.row_splits_dtype, s.flat_values_spec)\n'
        'print(tf.RaggedTensorSpec([2, None, 3], tf.float32, ragged_rank=1))\n'
        'print(tf.RaggedTensorSpec.from_value(tf.ragged.constant([[[1, 2], [3]]])))\n'
        'for args in ((), ([None],)):\n'
        '    try:\n'
        '        tf.RaggedTensorSpec(*args, ragged_rank=None if not args else 1)\n'
        '    except ValueError as e:\n'
        '        print(e)\n'
        'print(tf.RaggedTensorSpec([None, None]).is_compatible_with(tf.ragged.constant([[1.]])),\n'
        '      tf.RaggedTensorSpec([None, None]).is_compatible_with(tf.ragged.constant([[1]])))\n'
        'print(tf.RaggedTensorSpec([None, None], tf.int32) == tf.RaggedTensorSpec([None, None], tf.int32))\n',
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64) 1 (None, None) <dtype: 'int64'> None\n"
        'RaggedTensorSpec(TensorShape([2, None, 3]), tf.float32, 1, tf.int64)\n'
        'RaggedTensorSpec(TensorShape([1, None, None]), tf.int32, 2, tf.int64)\n'
        'Must specify ragged_rank or a shape with a known rank.\n'
        'Argument `ragged_rank` (1) must be less than rank (1).\n'
        'True False\n'
        'True\n'
        ''),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prints_as_tf(name):
    code, expected = CASES[name]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"tf": tf})
    assert out.getvalue() == expected


def test_function_input_signature_with_a_ragged_spec():
    f = tf.function(lambda rt: rt, input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    assert repr(f(tf.ragged.constant([[1], [2, 3]]))) == "<tf.RaggedTensor [[1], [2, 3]]>"


def test_function_with_ragged_arguments_runs():
    palindrome = tf.function(lambda x, axis: tf.concat([x, tf.reverse(x, [axis])], axis))
    out = palindrome(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1)
    assert repr(out) == "<tf.RaggedTensor [[1, 2, 2, 1], [3, 3], [4, 5, 6, 6, 5, 4]]>"


def test_concrete_function_for_a_ragged_spec():
    grow = tf.function(lambda x: x * 2.0)
    cf = grow.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32))
    assert repr(cf.structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64),), {})"
    assert repr(cf(tf.ragged.constant([[1.0], [2.0, 3.0]]))) == "<tf.RaggedTensor [[2.0], [4.0, 6.0]]>"


def test_row_keys_out_of_range_and_elementwise_equality_as_tf():
    rt = tf.ragged.constant([[1], [2, 3]])
    assert [r.numpy().tolist() for r in rt] == [[1], [2, 3]]     # iteration stops at TF's IndexError
    with pytest.raises(IndexError, match=r"^Row key 5 out of bounds$"):
        rt[5]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^slice index -1 of dimension 0 out of bounds\."):
        rt[-3]
    assert repr(rt != rt) == "<tf.RaggedTensor [[False], [False, False]]>"
    assert repr(rt == 1) == "<tf.RaggedTensor [[True], [False, False]]>"
    with pytest.raises(TypeError, match="RaggedTensor is unhashable."):
        hash(rt)


def test_from_generator_with_a_ragged_signature():
    def gen():
        yield tf.ragged.constant([[1, 2], [3]])
        yield tf.ragged.constant([[4], [5, 6, 7]])
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.RaggedTensorSpec(shape=(2, None), dtype=tf.int32))
    assert repr(ds) == "<_FlatMapDataset element_spec=RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)>"
    assert [repr(x) for x in ds] == ["<tf.RaggedTensor [[1, 2], [3]]>", "<tf.RaggedTensor [[4], [5, 6, 7]]>"]
    lists = tf.data.Dataset.from_generator(lambda: iter([[[1, 2], [3]]]),
                                           output_signature=tf.RaggedTensorSpec(shape=(2, None), dtype=tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"TypeError: `generator` yielded an element that did not "
                                                             r"match the expected structure\. The expected structure "
                                                             r"was RaggedTensorSpec\(TensorShape\(\[2, None\]\)"):
        list(lists)
