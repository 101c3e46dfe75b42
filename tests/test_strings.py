"""tf.strings, tf.io byte ops, tf.ragged and tf.sparse: printed text and values from TF 2.21 (the "tensor" guide)."""
import pytest

import tfcompat as tf


def _err(cls, fn):
    with pytest.raises(cls) as e:
        fn()
    return str(e.value)


def test_split_and_join():
    assert str(tf.strings.split("hello world foo")) == \
        "tf.Tensor([b'hello' b'world' b'foo'], shape=(3,), dtype=string)"
    assert str(tf.strings.split(["a b", "c"])) == "<tf.RaggedTensor [[b'a', b'b'], [b'c']]>"
    assert str(tf.strings.split("a,b,,c", sep=",")) == "tf.Tensor([b'a' b'b' b'' b'c'], shape=(4,), dtype=string)"
    assert str(tf.strings.split("a b c d", maxsplit=1)) == "tf.Tensor([b'a' b'b c d'], shape=(2,), dtype=string)"
    assert str(tf.strings.split(tf.constant([["a b"], ["c d e"]]))) == \
        "<tf.RaggedTensor [[[b'a', b'b']],\n [[b'c', b'd', b'e']]]>"
    assert str(tf.strings.split("")) == "tf.Tensor([], shape=(0,), dtype=string)"
    assert str(tf.strings.split(["a,b,c"], ",", maxsplit=1)) == "<tf.RaggedTensor [[b'a', b'b,c']]>"
    assert str(tf.strings.bytes_split("héllo")) == \
        "tf.Tensor([b'h' b'\\xc3' b'\\xa9' b'l' b'l' b'o'], shape=(6,), dtype=string)"
    assert str(tf.strings.join(["a", "b"], separator="-")) == "tf.Tensor(b'a-b', shape=(), dtype=string)"
    assert str(tf.strings.join([tf.constant(["a", "b"]), "x"])) == \
        "tf.Tensor([b'ax' b'bx'], shape=(2,), dtype=string)"
    assert str(tf.strings.reduce_join(["a", "b", "c"])) == "tf.Tensor(b'abc', shape=(), dtype=string)"
    assert str(tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=",")) == \
        "tf.Tensor([b'a,b' b'c,d'], shape=(2,), dtype=string)"
    assert str(tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=0, keepdims=True)) == \
        "tf.Tensor([[b'ac' b'bd']], shape=(1, 2), dtype=string)"


def test_length_case_regex_substr():
    assert str(tf.strings.length(["héllo", ""])) == "tf.Tensor([6 0], shape=(2,), dtype=int32)"
    assert str(tf.strings.length("héllo", unit="UTF8_CHAR")) == "tf.Tensor(5, shape=(), dtype=int32)"
    assert str(tf.strings.lower("HeLLo")) == "tf.Tensor(b'hello', shape=(), dtype=string)"
    assert str(tf.strings.upper(["ab", "Cé"])) == "tf.Tensor([b'AB' b'C\\xc3\\xa9'], shape=(2,), dtype=string)"
    assert str(tf.strings.strip(["  a b \n"])) == "tf.Tensor([b'a b'], shape=(1,), dtype=string)"
    assert str(tf.strings.regex_full_match(["abc", "xabc"], "a.c")) == \
        "tf.Tensor([ True False], shape=(2,), dtype=bool)"
    assert tf.strings.regex_replace("aaa bbb", "a+", "x").numpy() == b"x bbb"
    assert tf.strings.regex_replace("aaa aa", "a", "x", replace_global=False).numpy() == b"xaa aa"
    assert tf.strings.regex_replace("abc", r"(b)", r"[\1]").numpy() == b"a[b]c"
    assert tf.strings.substr("hello", 1, 3).numpy() == b"ell"
    assert tf.strings.substr(["hello", "hi"], [0, 1], [2, 5]).numpy().tolist() == [b"he", b"i"]
    assert tf.strings.substr("héllo", 1, 2, unit="UTF8_CHAR").numpy() == b"\xc3\xa9l"
    assert tf.strings.substr("hello", -3, 2).numpy() == b"ll"
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.strings.substr("hello", 6, 2)) == (
        "{{function_node __wrapped__Substr_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "pos 6 out of range for string b'hello' at index 0 [Op:Substr]")
    assert _err(TypeError, lambda: tf.strings.length(1)) == "Cannot convert 1 to EagerTensor of dtype string"


def test_numbers_and_formatting():
    assert str(tf.strings.to_number(["1.5", "3"])) == "tf.Tensor([1.5 3. ], shape=(2,), dtype=float32)"
    assert str(tf.strings.to_number("7", out_type=tf.int32)) == "tf.Tensor(7, shape=(), dtype=int32)"
    assert str(tf.strings.to_number(["1e3"], tf.float64)) == "tf.Tensor([1000.], shape=(1,), dtype=float64)"
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.strings.to_number("1.5", tf.int32)) == (
        "{{function_node __wrapped__StringToNumber_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "StringToNumberOp could not correctly convert string: 1.5 [Op:StringToNumber]")
    assert tf.strings.format("x={} y={}", [tf.constant([1, 2]), 3.5]).numpy() == b"x=[1 2] y=3.5"
    assert tf.strings.format("{}", tf.constant("a")).numpy() == b'"a"'
    assert tf.strings.format("{}", tf.range(20)).numpy() == b"[0 1 2 ... 17 18 19]"
    assert tf.strings.format("{}", [tf.range(20)], summarize=2).numpy() == b"[0 1 ... 18 19]"
    assert tf.strings.format("{}", tf.constant([[1., 2.], [3, 4]])).numpy() == b"[[1 2]\n [3 4]]"
    assert tf.strings.as_string([1, 2]).numpy().tolist() == [b"1", b"2"]
    assert tf.as_string(1.5).numpy() == b"1.500000"
    assert tf.strings.as_string([1.25], precision=1).numpy().tolist() == [b"1.2"]
    assert tf.strings.as_string(3, width=5, fill="0").numpy() == b"00003"
    assert tf.strings.as_string(True).numpy() == b"true"
    assert tf.strings.as_string(tf.constant(1e10)).numpy() == b"10000000000.000000"
    assert tf.strings.as_string(1.0, scientific=True).numpy() == b"1.000000e+00"


def test_unicode_and_io():
    assert str(tf.strings.unicode_split("héllo", "UTF-8")) == \
        "tf.Tensor([b'h' b'\\xc3\\xa9' b'l' b'l' b'o'], shape=(5,), dtype=string)"
    assert str(tf.strings.unicode_decode("héllo", "UTF-8")) == \
        "tf.Tensor([104 233 108 108 111], shape=(5,), dtype=int32)"
    assert str(tf.strings.unicode_decode(["hé", "x"], "UTF-8")) == "<tf.RaggedTensor [[104, 233], [120]]>"
    assert tf.strings.unicode_encode([104, 233], "UTF-8").numpy() == b"h\xc3\xa9"
    assert tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [120]]), "UTF-8").numpy().tolist() == \
        [b"h\xc3\xa9", b"x"]
    assert str(tf.strings.unicode_split(["hé", "x"], "UTF-8")) == "<tf.RaggedTensor [[b'h', b'\\xc3\\xa9'], [b'x']]>"
    assert tf.strings.unicode_transcode("héllo", "UTF-8", "UTF-16-BE").numpy() == b"\x00h\x00\xe9\x00l\x00l\x00o"
    assert str(tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x01"]), tf.int16)) == \
        "tf.Tensor([[  1 258]], shape=(1, 2), dtype=int16)"
    assert tf.io.decode_raw(b"\x00\x01", tf.int16, little_endian=False).numpy().tolist() == [1]
    assert tf.io.decode_raw(b"\x01\x02\x03", tf.uint8, fixed_length=4).numpy().tolist() == [1, 2, 3, 0]
    assert tf.io.encode_base64("hello?>").numpy() == b"aGVsbG8_Pg"
    assert tf.io.encode_base64("hello", pad=True).numpy() == b"aGVsbG8="
    assert tf.io.decode_base64("aGVsbG8_Pg").numpy() == b"hello?>"


def test_ragged_tensor():
    r = tf.ragged.constant([[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]])
    assert str(r) == repr(r) == "<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>"
    assert r.shape == tf.TensorShape([4, None]) and r.dtype == tf.int32 and r.ragged_rank == 1
    assert str(r.row_splits) == "tf.Tensor([ 0  4  6  9 10], shape=(5,), dtype=int64)"
    assert str(r.row_lengths()) == "tf.Tensor([4 2 3 1], shape=(4,), dtype=int64)"
    assert str(r.nrows()) == "tf.Tensor(4, shape=(), dtype=int64)"
    assert r.to_list() == [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]
    assert str(r.to_tensor(default_value=-1)) == ("tf.Tensor(\n[[ 0  1  2  3]\n [ 4  5 -1 -1]\n [ 6  7  8 -1]\n"
                                                  " [ 9 -1 -1 -1]], shape=(4, 4), dtype=int32)")
    assert str(r[0]) == "tf.Tensor([0 1 2 3], shape=(4,), dtype=int32)"
    assert str(r[1:3]) == "<tf.RaggedTensor [[4, 5], [6, 7, 8]]>"
    assert str(r.value_rowids()) == "tf.Tensor([0 0 0 0 1 1 2 2 2 3], shape=(10,), dtype=int64)"
    assert str(r.bounding_shape()) == "tf.Tensor([4 4], shape=(2,), dtype=int64)"
    assert str(r * 2) == "<tf.RaggedTensor [[0, 2, 4, 6], [8, 10], [12, 14, 16], [18]]>"
    assert str(r + 1) == "<tf.RaggedTensor [[1, 2, 3, 4], [5, 6], [7, 8, 9], [10]]>"
    r2 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert str(r2) == "<tf.RaggedTensor [[[1, 2], [3]], [[4]]]>"
    assert r2.shape.as_list() == [2, None, None] and r2.ragged_rank == 2
    assert str(r2.values) == "<tf.RaggedTensor [[1, 2], [3], [4]]>"
    assert str(r2.to_tensor()) == "tf.Tensor(\n[[[1 2]\n  [3 0]]\n\n [[4 0]\n  [0 0]]], shape=(2, 2, 2), dtype=int32)"
    assert str(tf.ragged.constant([[1.5], [2, 3]])) == "<tf.RaggedTensor [[1.5], [2.0, 3.0]]>"
    assert str(tf.ragged.constant([["a", "b"], ["c"]])) == "<tf.RaggedTensor [[b'a', b'b'], [b'c']]>"
    assert str(tf.ragged.constant([[1, 2], [3, 4]])) == "<tf.RaggedTensor [[1, 2],\n [3, 4]]>"
    assert str(tf.ragged.constant([[], []])) == "<tf.RaggedTensor [[], []]>"
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert str(inner) == "<tf.RaggedTensor [[[1, 2],\n  [3, 4]], [[5, 6]]]>" and inner.shape.as_list() == [2, None, 2]
    assert str(tf.ragged.constant([list(range(30)), [1]])) == (
        "<tf.RaggedTensor [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,\n"
        "  21, 22, 23, 24, 25, 26, 27, 28, 29]                                      ,\n [1]]>")


def test_ragged_factories():
    assert str(tf.RaggedTensor.from_row_splits([1, 2, 3, 4], [0, 1, 4])) == "<tf.RaggedTensor [[1], [2, 3, 4]]>"
    assert str(tf.RaggedTensor.from_row_lengths([1, 2, 3, 4], [2, 0, 2])) == "<tf.RaggedTensor [[1, 2], [], [3, 4]]>"
    assert str(tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4)) == \
        "<tf.RaggedTensor [[1, 2], [], [3], []]>"
    assert str(tf.ragged.range([3, 1, 2])) == "<tf.RaggedTensor [[0, 1, 2], [0], [0, 1]]>"
    assert str(tf.ragged.range([1, 2], [4, 3])) == "<tf.RaggedTensor [[1, 2, 3], [2]]>"
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.RaggedTensor.from_row_splits([1, 2], [1, 2])) == (
        "Arguments to from_row_splits do not form a valid RaggedTensor:zero\nCondition x == y did not hold.\n"
        "First 1 elements of x:\n[1]\nFirst 1 elements of y:\n[0]")
    assert tf.ragged.constant([]).shape == (0,) and tf.ragged.constant([[]]).dtype == tf.float32


ST_TEXT = ("SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), values=tf.Tensor([1 2], "
           "shape=(2,), dtype=int32), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")


def test_sparse_tensor():
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    assert str(st) == repr(st) == ST_TEXT
    assert st.shape == (3, 4) and st.dtype == tf.int32 and tf.SparseTensor is tf.sparse.SparseTensor
    assert str(tf.sparse.to_dense(st)) == \
        "tf.Tensor(\n[[1 0 0 0]\n [0 0 2 0]\n [0 0 0 0]], shape=(3, 4), dtype=int32)"
    assert str(tf.sparse.to_dense(st, default_value=-1)) == \
        "tf.Tensor(\n[[ 1 -1 -1 -1]\n [-1 -1  2 -1]\n [-1 -1 -1 -1]], shape=(3, 4), dtype=int32)"
    assert str(tf.sparse.from_dense(tf.constant([[0., 1.], [2., 0.]]))) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 1]\n [1 0]], shape=(2, 2), dtype=int64), values=tf.Tensor([1. 2.], "
        "shape=(2,), dtype=float32), dense_shape=tf.Tensor([2 2], shape=(2,), dtype=int64))")
    assert tf.sparse.add(st, tf.ones((3, 4), tf.int32)).numpy().tolist() == [[2, 1, 1, 1], [1, 1, 3, 1], [1, 1, 1, 1]]
    assert tf.sparse.add(st, st).values.numpy().tolist() == [2, 4]
    assert tf.sparse.sparse_dense_matmul(st, tf.ones((4, 2), tf.int32)).numpy().tolist() == [[1, 1], [2, 2], [0, 0]]
    st3 = tf.sparse.SparseTensor([[1, 0], [0, 1]], [5., 6.], [2, 2])
    assert _err(tf.errors.InvalidArgumentError, lambda: tf.sparse.to_dense(st3)) == (
        "indices[1] = [0,1] is out of order. Many sparse ops require sorted indices.\n    Use `tf.sparse.reorder` "
        "to create a correctly ordered copy.\n\n [Op:SparseToDense] name: ")
    ordered = tf.sparse.reorder(st3)
    assert ordered.indices.numpy().tolist() == [[0, 1], [1, 0]] and ordered.values.numpy().tolist() == [6., 5.]
    re = tf.sparse.reshape(st, [4, 3])
    assert re.indices.numpy().tolist() == [[0, 0], [2, 0]] and re.dense_shape.numpy().tolist() == [4, 3]
    tr = tf.sparse.transpose(st)
    assert tr.indices.numpy().tolist() == [[0, 0], [2, 1]] and tr.dense_shape.numpy().tolist() == [4, 3]
    assert str(tf.sparse.reduce_sum(st)) == "tf.Tensor(3, shape=(), dtype=int32)"
    assert str(tf.sparse.reduce_sum(st, axis=1)) == "tf.Tensor([1 2 0], shape=(3,), dtype=int32)"
    assert (st * 2).values.numpy().tolist() == [2, 4]
    assert st.with_values(st.values * 10).values.numpy().tolist() == [10, 20]
    assert _err(ValueError, lambda: tf.sparse.SparseTensor([[0, 0]], [1., 2.], [2, 2])) == \
        "Dimensions 1 and 2 are not compatible"


def test_unicode_malformed_input_replacement_char_and_modes():
    dec = tf.strings.unicode_decode
    cases = {b"a\xffb": [97, 63, 98], b"a\xe2\x82b": [97, 63, 98], b"\xf0\x80\x80\x80z": [63, 63, 63, 63, 122],
             b"\xed\xa0\x80z": [63, 63, 63, 122], b"\xc0\xafz": [63, 63, 122], b"z\xe2\x82": [122, 63]}
    for data, codes in cases.items():       # one replacement per maximal malformed subsequence, as TF (ICU)
        assert dec(data, "UTF-8", replacement_char=63).numpy().tolist() == codes
        assert dec(data, "UTF-8", errors="ignore").numpy().tolist() == [c for c in codes if c != 63]
    fffd = "a\ufffdb".encode()                # a real U+FFFD in the input is kept
    for mode in ("replace", "ignore", "strict"):
        assert dec(fffd, "UTF-8", errors=mode, replacement_char=63).numpy().tolist() == [97, 65533, 98]
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        dec(b"a\xffb", "UTF-8", errors="strict")
    assert str(e.value) == ("{{function_node __wrapped__UnicodeDecode_device_/job:localhost/replica:0/task:0/device:"
                            "CPU:0}} Invalid formatting on input string [Op:UnicodeDecode] name: ")
    assert dec(b"a\x01\tb\x7f\x85", "UTF-8", replace_control_characters=True).numpy().tolist() == \
        [97, 65533, 65533, 98, 127, 65533]
    assert dec("a\x85b".encode(), "UTF-8", replace_control_characters=True, replacement_char=63).numpy().tolist() \
        == [97, 133, 98]
    assert dec("a\u00e9".encode("utf-16-be") + b"\xd8\x00", "UTF-16-BE", replacement_char=63).numpy().tolist() == \
        [97, 233, 63]
    assert tf.strings.unicode_split(b"a\xffb", "UTF-8", replacement_char=63).numpy().tolist() == [b"a", b"?", b"b"]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"}} replacement_char out of unicode codepoint range "
                                                             r"\[Op:UnicodeDecode\] name: $"):
        dec(b"a", "UTF-8", replacement_char=0x110000)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        dec(b"a", "UTF-8", errors="bogus")
    assert str(e.value).startswith("Value for attr 'errors' of \"bogus\" is not in the list of allowed values: "
                                   "\"strict\", \"replace\", \"ignore\"\n\t; NodeDef: {{node UnicodeDecode}}; "
                                   "Op<name=UnicodeDecode; signature=input:string -> row_splits:Tsplits, ")


def test_unicode_encode_and_transcode_invalid_code_points():
    enc = tf.strings.unicode_encode
    bad = [97, 0x110000, 0xD800, -5, 98]
    assert enc(bad, "UTF-8", replacement_char=63).numpy() == b"a???b"
    assert enc(bad, "UTF-8").numpy() == b"a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdb"
    assert enc(bad, "UTF-8", errors="ignore").numpy() == b"ab"
    assert enc([[97, 98], [0xD800, 99]], "UTF-8", errors="ignore").numpy().tolist() == [b"ab", b"c"]
    assert enc(tf.ragged.constant([[97, 0x110000], [98]]), "UTF-8", replacement_char=63).numpy().tolist() == \
        [b"a?", b"b"]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"}} Code point is out of range for Unicode, or is a "
                                                             r"surrogate. \[Op:UnicodeEncode\] name: $"):
        enc(bad, "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Value for attr 'output_encoding' of \"latin1\" is not "
                                                             "in the list of allowed values: \"UTF-8\", \"UTF-16-BE\", "
                                                             "\"UTF-32-BE\"\n\t; NodeDef: {{node UnicodeEncode}}; "):
        enc([97], "latin1")
    tr = tf.strings.unicode_transcode
    assert tr(b"a\xffb", "UTF-8", "UTF-16-BE", replacement_char=63).numpy() == b"\x00a\x00?\x00b"
    assert tr(b"a\xffb", "UTF-8", "UTF-8", errors="ignore").numpy() == b"ab"
    assert tr("a\ufffdb".encode(), "UTF-8", "UTF-8", replacement_char=63).numpy() == b"a\xef\xbf\xbdb"
    assert tr(b"a\x01b", "UTF-8", "UTF-8", replace_control_characters=True, replacement_char=63).numpy() == b"a?b"
    assert tr(b"\xd8\x00\x00a", "UTF-16-BE", "UTF-8", replacement_char=63).numpy() == b"?a"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tr(b"a\xffb", "UTF-8", "UTF-8", errors="strict")
    assert str(e.value) == ("{{function_node __wrapped__UnicodeTranscode_device_/job:localhost/replica:0/task:0/"
                            "device:CPU:0}} Invalid formatting on input string [Op:UnicodeTranscode]")
