"""tf.strings as text-preprocessing code uses it (values recorded from TF 2.21)."""
import tfcompat as tf


def test_split_whitespace_maxsplit():
    x = ["a b", "c", "a  b c", " x y "]
    # TF 2.21: once maxsplit tokens are taken the rest is one more piece, empty when nothing is left
    assert tf.strings.split(x, maxsplit=0).to_list() == [[b"a b"], [b"c"], [b"a  b c"], [b" x y "]]
    assert tf.strings.split(x, maxsplit=1).to_list() == [[b"a", b"b"], [b"c", b""], [b"a", b"b c"], [b"x", b"y "]]
    assert tf.strings.split(x, maxsplit=2).to_list() == [
        [b"a", b"b", b""], [b"c"], [b"a", b"b", b"c"], [b"x", b"y", b""]]
    assert tf.strings.split(x).to_list() == [[b"a", b"b"], [b"c"], [b"a", b"b", b"c"], [b"x", b"y"]]
    # an empty separator splits on whitespace too
    assert tf.strings.split("a b", sep="").numpy().tolist() == [b"a", b"b"]


def test_split_separator_maxsplit():
    x = ["a,b", "c", "a,,b,c"]
    # TF 2.21
    assert tf.strings.split(x, sep=",", maxsplit=0).to_list() == [[b"a,b"], [b"c"], [b"a,,b,c"]]
    assert tf.strings.split(x, sep=",", maxsplit=1).to_list() == [[b"a", b"b"], [b"c"], [b"a", b",b,c"]]
    assert tf.strings.split(x, sep=",").to_list() == [[b"a", b"b"], [b"c"], [b"a", b"", b"b", b"c"]]
    assert repr(tf.strings.split(["a b", "c"], maxsplit=1)) == "<tf.RaggedTensor [[b'a', b'b'],\n [b'c', b'']]>"


def test_string_plus_number():
    import pytest
    # TF 2.21: tf.add runs the Add op (not AddV2) when its first operand is a string tensor
    for call in (lambda: tf.constant("abc") + 1, lambda: tf.add("a", 1),
                 lambda: tf.constant(["a"]) + tf.constant([1])):
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            call()
        assert str(e.value) == ("cannot compute Add as input #1(zero-based) was expected to be a string tensor but is "
                                "a int32 tensor [Op:Add] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute AddV2 as input #1"):
        tf.constant(1) + tf.constant("a")
    assert (tf.constant("a") + tf.constant(["b", "c"])).numpy().tolist() == [b"ab", b"ac"]


_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_kernel_errors():
    import pytest
    cases = [
        (lambda: tf.strings.to_number(["abc"]), "StringToNumber",
         "StringToNumberOp could not correctly convert string: abc [Op:StringToNumber]"),
        (lambda: tf.strings.to_number(tf.constant(["abc"])), "StringToNumber",
         "StringToNumberOp could not correctly convert string: abc [Op:StringToNumber] name: "),
        (lambda: tf.strings.substr("abc", 5, 1), "Substr", "pos 5 out of range for string b'abc' at index 0 [Op:Substr]"),
        (lambda: tf.strings.substr(tf.constant("abc"), 5, 1), "Substr",
         "pos 5 out of range for string b'abc' at index 0 [Op:Substr] name: "),
        (lambda: tf.math.segment_sum([1, 2], [1, 0]), "SegmentSum", "segment ids are not increasing [Op:SegmentSum]"),
        (lambda: tf.math.segment_sum(tf.constant([1, 2]), tf.constant([-1, 0])), "SegmentSum",
         "Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted. [Op:SegmentSum] name: "),
        (lambda: tf.math.segment_max(tf.constant([1., 2.]), tf.constant([-1, -1])), "SegmentMax",
         "segment ids must be >= 0 [Op:SegmentMax] name: "),
        (lambda: tf.math.segment_mean(tf.constant([1., 2., 3.]), tf.constant([0, 1])), "SegmentMean",
         "segment_ids should be the same size as dimension 0 of input. [Op:SegmentMean] name: "),
    ]
    for call, op, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            call()
        assert str(e.value) == f"{{{{function_node __wrapped__{op}_device_{_CPU}}}}} {message}"  # TF 2.21
