"""tf.io.parse_single_sequence_example / parse_sequence_example (golden values: TF 2.21; the serialized
SequenceExamples were written by TF 2.21's tf.train.SequenceExample)."""
import numpy as np
import pytest

import tfcompat as tf

# context {name: [b'x'], len: [3]}; feature lists w: [[a], [b, c], []], tok: [[1], [2], [3]], emb: [[1, 2], [3, 4], [5, 6]]
A = (b'\n\x1d\n\r\n\x04name\x12\x05\n\x03\n\x01x\n\x0c\n\x03len\x12\x05\x1a\x03\n\x01\x03\x12m\n\x1a\n\x01w\x12\x15\n'
     b'\x05\n\x03\n\x01a\n\x08\n\x06\n\x01b\n\x01c\n\x02\n\x00\n\x1c\n\x03tok\x12\x15\n\x05\x1a\x03\n\x01\x01\n\x05\x1a'
     b'\x03\n\x01\x02\n\x05\x1a\x03\n\x01\x03\n1\n\x03emb\x12*\n\x0c\x12\n\n\x08\x00\x00\x80?\x00\x00\x00@\n\x0c\x12\n'
     b'\n\x08\x00\x00@@\x00\x00\x80@\n\x0c\x12\n\n\x08\x00\x00\xa0@\x00\x00\xc0@')
# context {len: [1]}; feature lists w: [[z]], tok: [[7]], emb: [[9, 9]]
B = (b'\n\x0e\n\x0c\n\x03len\x12\x05\x1a\x03\n\x01\x01\x125\n\x0c\n\x01w\x12\x07\n\x05\n\x03\n\x01z\n\x0e\n\x03tok\x12'
     b'\x07\n\x05\x1a\x03\n\x01\x07\n\x15\n\x03emb\x12\x0e\n\x0c\x12\n\n\x08\x00\x00\x10A\x00\x00\x10A')

CTX = {"len": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.FixedLenFeature([], tf.string, default_value="?")}
SEQ = {"tok": tf.io.FixedLenSequenceFeature([], tf.int64), "emb": tf.io.FixedLenSequenceFeature([2], tf.float32),
       "w": tf.io.VarLenFeature(tf.string)}


def _sp(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


def test_parse_single_sequence_example():
    ctx, seq = tf.io.parse_single_sequence_example(A, CTX, SEQ)
    assert list(ctx) == ["len", "name"] and list(seq) == ["w", "emb", "tok"]      # TF 2.21: sparse, dense, ragged
    assert int(ctx["len"]) == 3 and ctx["name"].numpy() == b"x"
    assert _sp(seq["w"]) == ([[0, 0], [1, 0], [1, 1]], [b"a", b"b", b"c"], [3, 2])
    assert seq["emb"].dtype == tf.float32 and seq["emb"].numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert seq["tok"].numpy().tolist() == [1, 2, 3]
    ctx, seq = tf.io.parse_single_sequence_example(B, CTX, SEQ)
    assert ctx["name"].numpy() == b"?" and _sp(seq["w"]) == ([[0, 0]], [b"z"], [1, 1])


def test_parse_sequence_example_batch():
    ctx, seq, lengths = tf.io.parse_sequence_example([A, B], CTX, SEQ)
    assert ctx["len"].numpy().tolist() == [3, 1] and ctx["name"].numpy().tolist() == [b"x", b"?"]
    assert _sp(seq["w"]) == ([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], [b"a", b"b", b"c", b"z"], [2, 3, 2])
    assert seq["emb"].numpy().tolist() == [[[1, 2], [3, 4], [5, 6]], [[9, 9], [0, 0], [0, 0]]]
    assert seq["tok"].numpy().tolist() == [[1, 2, 3], [7, 0, 0]]
    assert list(lengths) == ["emb", "tok"] and lengths["tok"].numpy().tolist() == [3, 1]
    ctx, seq, lengths = tf.io.parse_sequence_example(A, CTX, SEQ)        # a scalar: one example, scalar lengths
    assert seq["tok"].numpy().tolist() == [1, 2, 3] and int(lengths["emb"]) == 3


def test_ragged_and_var_len_features():
    rf = {"w": tf.io.RaggedFeature(tf.string), "tok": tf.io.RaggedFeature(tf.int64)}
    ctx, seq = tf.io.parse_single_sequence_example(
        A, {"name": tf.io.VarLenFeature(tf.string), "len": tf.io.RaggedFeature(tf.int64)}, rf)
    assert _sp(ctx["name"]) == ([[0]], [b"x"], [1]) and ctx["len"].numpy().tolist() == [3]
    assert seq["tok"].to_list() == [[1], [2], [3]] and seq["w"].to_list() == [[b"a"], [b"b", b"c"], []]
    ctx, seq, lengths = tf.io.parse_sequence_example([A, B], {"name": tf.io.VarLenFeature(tf.string)}, rf)
    assert _sp(ctx["name"]) == ([[0, 0]], [b"x"], [2, 1]) and lengths == {}
    assert seq["tok"].to_list() == [[[1], [2], [3]], [[7]]] and seq["w"].to_list() == [[[b"a"], [b"b", b"c"], []],
                                                                                         [[b"z"]]]
    ctx, _, _ = tf.io.parse_sequence_example(
        [A, B], {"len": tf.io.RaggedFeature(tf.int64, row_splits_dtype=tf.int64)}, None)
    assert ctx["len"].to_list() == [[3], [1]]


def test_missing_feature_lists():
    _, seq = tf.io.parse_single_sequence_example(
        A, None, {"missing": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    assert seq["missing"].shape == (0,) and seq["missing"].dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Name: <unknown>, Feature list 'missing' is required but could not be found.  Did you "
                             "mean to include it in feature_list_dense_missing_assumed_empty or "
                             r"feature_list_dense_defaults\? \[Op:ParseSequenceExampleV2\]"):
        tf.io.parse_single_sequence_example(A, None, {"missing": tf.io.FixedLenSequenceFeature([], tf.int64)})


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Inconsistent max number of elements for feature zz: expected 1, but found 0"):
        tf.io.parse_single_sequence_example(A, {"zz": tf.io.FixedLenFeature([], tf.int64)}, None)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Feature: name \\(data type: string\\) is required but could not be found."):
        tf.io.parse_sequence_example([A, B], {"name": tf.io.FixedLenFeature([], tf.string)}, None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected 2, but found 1"):
        tf.io.parse_sequence_example([A, B], {"len": tf.io.FixedLenFeature([2], tf.int64)}, None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Name: <unknown>, Context feature: len.  Data types "
                                                             "don't match. Expected type: float"):
        tf.io.parse_single_sequence_example(A, {"len": tf.io.FixedLenFeature([], tf.float32)}, None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Name: ex0, Feature list: tok, Index: 0.  Data types "
                                                             "don't match. Expected type: float"):
        tf.io.parse_sequence_example([A, B], None, {"tok": tf.io.FixedLenSequenceFeature([], tf.float32)},
                                     example_names=["ex0", "ex1"])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Name: <unknown>, Key: emb, Index: 0.  Number of values "
                                                             r"!= expected.  values size: 2 but output shape: \[3\]"):
        tf.io.parse_single_sequence_example(A, None, {"emb": tf.io.FixedLenSequenceFeature([3], tf.float32)})
    with pytest.raises(ValueError, match="Both context_features and sequence_features are None"):
        tf.io.parse_single_sequence_example(A, None, None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid protocol message input, example id: <unknown>"):
        tf.io.parse_single_sequence_example(b"\xff\xff", CTX, None)
    with pytest.raises(ValueError, match="Input serialized must be a scalar"):
        tf.io.parse_single_sequence_example([A], CTX, None)
    with pytest.raises(ValueError, match=r"Value feature_list.dense_defaults\[w\] must be None"):
        tf.io.parse_single_sequence_example(A, None, {"w": tf.io.FixedLenSequenceFeature([], tf.string,
                                                                                          default_value="PAD")})
    with pytest.raises(ValueError, match="Tensor conversion requested dtype string for Tensor with dtype float32"):
        tf.io.parse_sequence_example([], CTX, None)


def test_in_dataset_map():
    ds = tf.data.Dataset.from_tensor_slices([A, B]).map(lambda x: tf.io.parse_single_sequence_example(
        x, {"len": tf.io.FixedLenFeature([], tf.int64)}, {"tok": tf.io.FixedLenSequenceFeature([], tf.int64)}))
    got = [(int(c["len"]), s["tok"].numpy().tolist()) for c, s in ds]
    assert got == [(3, [1, 2, 3]), (1, [7])]                                        # TF 2.21
    assert np.array_equal(tf.io.parse_single_sequence_example(tf.constant(A), CTX, SEQ)[1]["tok"].numpy(), [1, 2, 3])


# -- tf.io.serialize_sparse / serialize_many_sparse / deserialize_many_sparse ----------------------------------------
def test_serialize_sparse_bytes_as_tf():
    sp = tf.SparseTensor([[0, 1], [2, 3]], [1.5, 2.5], [3, 4])
    assert tf.io.serialize_sparse(sp).numpy().tolist() == [                          # TF 2.21
        b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02" \x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00'
        b'\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00',
        b'\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\xc0?\x00\x00 @',
        b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00']
    m = tf.SparseTensor([[0, 0], [0, 2], [2, 1]], ["a", "b", "c"], [3, 4])
    sm = tf.io.serialize_many_sparse(m)
    assert sm.shape == (3, 3)
    assert sm.numpy()[0].tolist() == [
        b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x01"\x10\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00'
        b'\x00\x00', b'\x08\x07\x12\x04\x12\x02\x08\x02"\x04\x01\x01ab',
        b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x04\x00\x00\x00\x00\x00\x00\x00']
    assert sm.numpy()[1].tolist()[:2] == [b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x01', b'\x08\x07\x12\x02\x12\x00']
    back = tf.io.deserialize_many_sparse(sm, tf.string)
    assert _sp(back) == ([[0, 0], [0, 2], [2, 1]], [b"a", b"b", b"c"], [3, 4])
    assert _sp(tf.io.deserialize_many_sparse(tf.io.serialize_sparse(sp), tf.float32)) == \
        ([[0, 1], [2, 3]], [1.5, 2.5], [3, 4])                                        # TF 2.21: a 3-vector as is


def test_deserialize_many_sparse_combines_shapes_and_checks():
    a = tf.io.serialize_sparse(tf.SparseTensor([[0, 1]], [1], [2, 5]))
    b = tf.io.serialize_sparse(tf.SparseTensor([[3, 0]], [2], [4, 2]))
    assert _sp(tf.io.deserialize_many_sparse(tf.stack([a, b]), tf.int32)) == ([[0, 0, 1], [1, 3, 0]], [1, 2],
                                                                              [2, 4, 5])
    m3 = tf.io.serialize_many_sparse(tf.SparseTensor([[0, 0, 1], [1, 1, 0]], [1, 2], [2, 2, 2]))
    assert _sp(tf.io.deserialize_many_sparse(m3, tf.int32)) == ([[0, 0, 1], [1, 1, 0]], [1, 2], [2, 2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Requested SparseTensor of type int64 but "
                                                             r"SparseTensor\[0\].values.dtype\(\) == int32"):
        tf.io.deserialize_many_sparse(m3, tf.int64)
    with pytest.raises(ValueError, match=r"Tensor's shape \(2, 3\) is not compatible with supplied shape "
                                         r"\(None, 2\)."):
        tf.io.deserialize_many_sparse(m3, tf.int32, rank=2)
    c = tf.io.serialize_sparse(tf.SparseTensor([[3]], [2], [4]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Inconsistent shape across SparseTensors: rank prior "
                                                             r"to SparseTensor\[1\] was: 2 but rank of "
                                                             r"SparseTensor\[1\] is: 1"):
        tf.io.deserialize_many_sparse(tf.stack([a, c]), tf.int32)
    with pytest.raises(TypeError, match="Input must be a SparseTensor."):
        tf.io.serialize_sparse(tf.constant([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Rank of input SparseTensor should be > 1, but saw "
                                                             "rank: 1"):
        tf.io.serialize_many_sparse(tf.SparseTensor([[1]], [1.0], [3]))
    with pytest.raises(NotImplementedError, match="out_type"):
        tf.io.serialize_sparse(tf.SparseTensor([[1]], [1.0], [3]), out_type=tf.variant)


# -- tf.io.decode_json_example -------------------------------------------------------------------------------------
def test_decode_json_example_bytes_as_tf():
    j = tf.io.decode_json_example
    doc = ('{"features": {"feature": {"z": {"floatList": {"value": [1.5, "NaN", -2, "Infinity"]}}, '
           '"a": {"int64_list": {"value": [1, "-3"]}}, "m": {"bytesList": {"value": ["YWJj", "_-8=", ""]}}}}}')
    assert j([doc]).numpy().tolist() == [                                            # TF 2.21
        b'\nG\n\x1b\n\x01z\x12\x16\x12\x14\r\x00\x00\xc0?\r\x00\x00\xc0\x7f\r\x00\x00\x00\xc0\r\x00\x00\x80\x7f\n\x14'
        b'\n\x01a\x12\x0f\x1a\r\x08\x01\x08\xfd\xff\xff\xff\xff\xff\xff\xff\xff\x01\n\x12\n\x01m\x12\r\n\x0b\n\x03abc'
        b'\n\x02\xff\xef\n\x00']
    assert j(['{"features": {}}', '{"features": {"feature": {}}}', '{"features": {"feature": {"e": {}}}}',
              '{"features": {"feature": {"e": {"int64List": {}}}}}']).numpy().tolist() == \
        [b'\n\x00', b'\n\x00', b'\n\x07\n\x05\n\x01e\x12\x00', b'\n\t\n\x07\n\x01e\x12\x02\x1a\x00']
    assert j('{"features": {"feature": {"a": {"int64List": {"value": [12345678901]}}}}}').numpy() == \
        b'\n\x0f\n\r\n\x01a\x12\x08\x1a\x06\x08\xb5\xb8\xf0\xfe-'
    assert j('{"features": null}').numpy() == b"" and j([["{}", "{}"]]).numpy().tolist() == [[b"", b""]]
    parsed = tf.io.parse_single_example(j('{"features":{"feature":{"a":{"bytesList":{"value":["YQ"]}}}}}'),
                                        {"a": tf.io.FixedLenFeature([], tf.string)})
    assert parsed["a"].numpy() == b"a"


def test_decode_json_example_errors():
    j = tf.io.decode_json_example
    for doc, words in [('{"unknown": 1}', "no such field: 'unknown'"),
                       ('{"features": {"feature": {"a": {"floatList": {"value": [0.1, 1e40]}}}}}',
                        r"features.feature\[0\].floatList.value\[1\]: float, float out of range"),
                       ('{"features": {"feature": {"a": {"int64List": {"value": [1.5]}}}}}',
                        "expected integer, but JSON number had fractional part"),
                       ('{"features": {"feature": {"a": {"bytesList": {"value": ["@@"]}}}}}', "corrupt base64"),
                       ('{"features": {"feature": {"a": {"int64List": {"value": ["9223372036854775808"]}}}}}',
                        "JSON number out of range for int"),
                       ('{"features": {"feature": {"a": {"floatList": {"value": [1.5]}, "bytesList": {}}}}}',
                        "'bytesList' has already been set"),
                       ("not json", "")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Error while parsing JSON: invalid JSON in "
                                                                 "type.googleapis.com/tensorflow.Example.*" + words):
            j(doc)


def test_parse_tensor_reads_string_tensor_content():
    # serialize_sparse writes string values as TF's string list in tensor_content; parse_tensor reads it as TF 2.21
    s = tf.io.serialize_sparse(tf.SparseTensor([[0], [1]], ["ab", "c"], [2]))
    assert tf.io.parse_tensor(s[1], tf.string).numpy().tolist() == [b"ab", b"c"]
    for bad in (b'\x08\x07\x12\x04\x12\x02\x08\x02"\x04\x01\x05ab', b'\x08\x07\x12\x04\x12\x02\x08\x02"\x05\x01\x01abc'):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot parse tensor from proto: goo.gle/debugstr"):
            tf.io.parse_tensor(bad, tf.string)
