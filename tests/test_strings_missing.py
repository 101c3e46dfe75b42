"""tf.strings.to_hash_bucket, unsorted_segment_join, unicode_decode/split_with_offsets (golden values: TF 2.21)."""
import pytest

import tfcompat as tf


def test_to_hash_bucket_is_tf_hash64():
    words = ["a", "b", "hello world", "", "abcdefghijklmnop"]
    out = tf.strings.to_hash_bucket(words, 1000000007)
    assert out.dtype == tf.int64
    assert out.numpy().tolist() == [395105680, 704649615, 651585384, 727638525, 495684858]       # TF 2.21
    assert tf.strings.to_hash_bucket(words, 10).numpy().tolist() == [8, 0, 5, 9, 0]
    assert tf.strings.to_hash_bucket([["a"], ["b"]], 3).numpy().tolist() == [[1], [1]]
    assert tf.strings.to_hash_bucket(tf.constant([b"\xff\xfe", b"x" * 33]), 7).numpy().tolist() == [0, 0]
    assert tf.strings.to_hash_bucket(tf.ragged.constant([["a", "b"], ["c"]]), 3).to_list() == [[1, 1], [2]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'num_buckets' of 0 must be at least "
                                                             r"minimum 1\n\t; NodeDef: \{\{node StringToHashBucket"):
        tf.strings.to_hash_bucket("a", 0)
    with pytest.raises(TypeError, match=r"Cannot convert \[1\] to EagerTensor of dtype string"):
        tf.strings.to_hash_bucket([1], 3)


def test_unsorted_segment_join():
    j = tf.strings.unsorted_segment_join
    assert j(["a", "b", "c", "d"], [0, 1, 0, 3], 4).numpy().tolist() == [b"ac", b"b", b"", b"d"]      # TF 2.21
    assert j(["a", "b", "c", "d"], [0, 1, 0, 3], 4, separator=":").numpy().tolist() == [b"a:c", b"b", b"", b"d"]
    assert j([["a", "b"], ["c", "d"]], [1, 0], 3, separator=",").numpy().tolist() == \
        [[b"c", b"d"], [b"a", b"b"], [b"", b""]]
    assert j(["a", "b"], tf.constant([0, 1], tf.int64), tf.constant(2, tf.int64)).numpy().tolist() == [b"a", b"b"]


def test_unsorted_segment_join_errors():
    j = tf.strings.unsorted_segment_join
    bad = "segment_ids are not allowed to exceed num_segments or to have negative values. \\[Op:UnsortedSegmentJoin\\]"
    for ids in ([[0, 1], [1, -1]], [0, 2], [0, -1]):
        with pytest.raises(tf.errors.InvalidArgumentError, match=bad):
            j([["a", "b"], ["c", "d"]] if len(ids) == 2 and isinstance(ids[0], list) else ["a", "b"], ids, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Segment dimension is 1 while input dimension is 1 in "
                                                             "rank 0"):
        j(["a", "b"], [0], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of segments must be non-negative but got -1"):
        j(["a", "b"], [0, 1], -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tindices' of float is not in the list "
                                                             "of allowed values: int32, int64"):
        j(["a", "b"], [0.0, 1.0], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Segment_id cannot have rank 0"):
        j("a", 0, 2)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Invalid segment_id rank 2 for input with 1 dimension\(s\)"):
        j(["a", "b"], [[0, 1]], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of segments must be a scalar"):
        j(["a", "b"], [0, 1], [2])


def _lists(pair):
    return [x.to_list() if hasattr(x, "to_list") else x.numpy().tolist() for x in pair]


def test_unicode_decode_with_offsets():
    d = tf.strings.unicode_decode_with_offsets
    assert _lists(d(["héllo", "ab"], "UTF-8")) == [[[104, 233, 108, 108, 111], [97, 98]], [[0, 1, 3, 4, 5], [0, 1]]]
    v, o = d("héllo", "UTF-8")
    assert v.dtype == tf.int32 and o.dtype == tf.int64 and o.numpy().tolist() == [0, 1, 3, 4, 5]
    bad = tf.constant([b"a\xffb"])
    assert _lists(d(bad, "UTF-8", errors="ignore")) == [[[97, 98]], [[0, 2]]]                          # TF 2.21
    assert _lists(d(bad, "UTF-8", errors="replace", replacement_char=63)) == [[[97, 63, 98]], [[0, 1, 2]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting on input string "
                                                             r"\[Op:UnicodeDecodeWithOffsets\]"):
        d(bad, "UTF-8", errors="strict")
    assert _lists(d(tf.constant([b"\xe2\x82", b"\xf0\x9f\x98\x80z\xc3"]), "UTF-8")) == \
        [[[65533], [128512, 122, 65533]], [[0], [0, 4, 5]]]
    utf16 = tf.constant(["\U0001F600x".encode("utf-16-be"), b"\xd8\x00\x00a"])
    assert _lists(d(utf16, "UTF-16-BE")) == [[[128512, 120], [65533, 97]], [[0, 4], [0, 2]]]
    assert _lists(d(["a\x01"], "UTF-8", replace_control_characters=True)) == [[[97, 65533]], [[0, 1]]]
    assert _lists(d(tf.ragged.constant([["héllo"], ["a", "bc"]]), "UTF-8")) == \
        [[[[104, 233, 108, 108, 111]], [[97], [98, 99]]], [[[0, 1, 3, 4, 5]], [[0], [0, 1]]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'errors' of \"bogus\" is not in the list "
                                                             r"of allowed values[^$]*\{\{node UnicodeDecodeWithOffsets"):
        d(["a"], "UTF-8", errors="bogus")
    with pytest.raises(tf.errors.InvalidArgumentError, match="replacement_char out of unicode codepoint range"):
        d(["a"], "UTF-8", replacement_char=-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor but is a float tensor"):
        d([[]], "UTF-8")


def test_unicode_split_with_offsets():
    s = tf.strings.unicode_split_with_offsets
    assert _lists(s(["héllo", "ab"], "UTF-8")) == \
        [[[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [b"a", b"b"]], [[0, 1, 3, 4, 5], [0, 1]]]
    chars, offs = s("hé", "UTF-8")
    assert chars.numpy().tolist() == [b"h", b"\xc3\xa9"] and offs.numpy().tolist() == [0, 1]
    assert _lists(s(tf.constant([b"a\xffb"]), "UTF-8", errors="replace")) == [[[b"a", b"\xef\xbf\xbd", b"b"]],
                                                                              [[0, 1, 2]]]
    assert _lists(s(tf.constant([b"a\xffb"]), "UTF-8", errors="ignore")) == [[[b"a", b"b"]], [[0, 2]]]
    assert _lists(s(tf.ragged.constant([["hé"], []]), "UTF-8")) == [[[[b"h", b"\xc3\xa9"]], []], [[[0, 1]], []]]
    utf16 = tf.constant(["\U0001F600x".encode("utf-16-be")])
    assert _lists(s(utf16, "UTF-16-BE")) == [[[b"\xd8=\xde\x00", b"\x00x"]], [[0, 4]]]     # TF 2.21: input encoding
