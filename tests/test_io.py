"""tf.io (gfile, read_file, TFRecord, Example parsing, serialize_tensor, decode_csv) against TF 2.21 goldens."""
import os

import numpy as np
import pytest

import tfcompat as tf

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "io")
CPU = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def _msg(excinfo):
    return str(excinfo.value)


def test_gfile_files_and_dirs(tmp_path):
    g = tf.io.gfile
    d = str(tmp_path / "d")
    assert g.exists(d + "/nope") is False
    with pytest.raises(tf.errors.NotFoundError, match=r"^Could not find directory .*/nope$"):
        g.listdir(d + "/nope")
    with pytest.raises(tf.errors.NotFoundError) as e:
        g.stat(d + "/nope")
    assert _msg(e) == d + "/nope; No such file or directory"
    with pytest.raises(tf.errors.NotFoundError) as e:
        g.remove(d + "/nope")
    assert _msg(e) == d + "/nope; No such file or directory"
    with pytest.raises(tf.errors.NotFoundError) as e:
        g.rmtree(d + "/nope")
    assert _msg(e) == d + "/nope not found"
    with pytest.raises(tf.errors.NotFoundError) as e:
        g.mkdir(d + "/a/b")
    assert _msg(e) == d + "/a/b; No such file or directory"
    g.makedirs(d + "/a/b")
    g.makedirs(d + "/a")
    g.mkdir(d + "/a")
    assert g.isdir(d + "/a") and not g.isdir(d + "/a/f.txt")
    with g.GFile(d + "/a/f.txt", "w") as f:
        assert f.write("hello\nworld\n") is None
    with g.GFile(d + "/a/f.txt", "a") as f:
        f.write(b"x")
    assert g.stat(d + "/a/f.txt").length == 13 and not g.stat(d + "/a/f.txt").is_directory
    g.copy(d + "/a/f.txt", d + "/a/g.txt")
    with pytest.raises(tf.errors.AlreadyExistsError, match="^file already exists$"):
        g.copy(d + "/a/f.txt", d + "/a/g.txt")
    g.copy(d + "/a/f.txt", d + "/a/g.txt", overwrite=True)
    with pytest.raises(tf.errors.AlreadyExistsError, match="^file already exists$"):
        g.rename(d + "/a/g.txt", d + "/a/f.txt")
    g.rename(d + "/a/g.txt", d + "/a/h.txt")
    assert sorted(g.listdir(d + "/a")) == ["b", "f.txt", "h.txt"]
    assert g.glob(d + "/a/*.txt") == [d + "/a/f.txt", d + "/a/h.txt"]
    assert g.glob(d + "/*/*") == [d + "/a/b", d + "/a/f.txt", d + "/a/h.txt"]
    assert g.glob(d + "/nope/*") == []
    assert [(p[len(d):], sorted(s), sorted(f)) for p, s, f in g.walk(d)] == [
        ("", ["a"], []), ("/a", ["b"], ["f.txt", "h.txt"]), ("/a/b", [], [])]
    assert list(g.walk(d + "/nope")) == []
    assert g.join("a", "b", "/c") == "/c"
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
        g.remove(d + "/a")
    assert _msg(e) == d + "/a; Is a directory"
    g.rmtree(d + "/a/h.txt")              # TF's rmtree deletes a plain file too
    g.rmtree(d + "/a")
    assert not g.exists(d + "/a")
    with pytest.raises(NotImplementedError, match="'gs'"):
        g.exists("gs://bucket/x")


def test_gfile_read_modes(tmp_path):
    g = tf.io.gfile
    p = str(tmp_path / "f.txt")
    with g.GFile(p, "w") as f:
        f.write("hello\nworld\nx")
    with g.GFile(p) as f:
        assert f.read() == "hello\nworld\nx"
    with g.GFile(p, "rb") as f:
        assert f.read() == b"hello\nworld\nx"
    with g.GFile(p) as f:
        assert f.readline() == "hello\n" and f.readlines() == ["world\n", "x"]
    with g.GFile(p) as f:
        assert list(f) == ["hello\n", "world\n", "x"]
    with g.GFile(p, "rb") as f:
        assert list(f) == [b"hello\n", b"world\n", b"x"] and f.size() == 13 and f.tell() == 13
    with g.GFile(p, "rb") as f:
        assert f.read(3) == b"hel" and f.tell() == 3
        f.seek(1)
        assert f.read(2) == b"el" and f.mode == "rb" and f.name == p
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^mode is not 'r' or 'w' or 'a' or 'r\+' or 'w\+' or 'a\+'$"):
        g.GFile(p, "x")
    with pytest.raises(tf.errors.PermissionDeniedError, match="^File isn't open for reading$"):
        g.GFile(p, "w").read()
    with pytest.raises(tf.errors.PermissionDeniedError, match="^File isn't open for writing$"):
        g.GFile(p, "r").write("a")
    with pytest.raises(tf.errors.NotFoundError) as e:
        g.GFile(p + "nope").read()
    assert _msg(e) == p + "nope; No such file or directory"
    with g.GFile(p, "wb") as f:
        f.write(b"\x00\x01")
        f.write("str")
    assert open(p, "rb").read() == b"\x00\x01str"


def test_read_write_matching_files(tmp_path):
    d = str(tmp_path)
    with pytest.raises(tf.errors.NotFoundError) as e:
        tf.io.read_file(d + "/nope")
    assert _msg(e) == CPU % "ReadFile" + d + "/nope; No such file or directory [Op:ReadFile]"
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
        tf.io.read_file(d)
    assert _msg(e) == CPU % "ReadFile" + d + "; Is a directory [Op:ReadFile]"
    assert tf.io.write_file(d + "/q/r/w.txt", "abc") is None      # parents are created
    t = tf.io.read_file(tf.constant(d + "/q/r/w.txt"))
    assert t.dtype == tf.string and t.shape == () and t.numpy() == b"abc"
    tf.io.write_file(d + "/q/a.txt", tf.constant(b"\x00z"))
    m = tf.io.matching_files(d + "/q/*")
    assert m.dtype == tf.string and m.numpy().tolist() == [(d + "/q/a.txt").encode(), (d + "/q/r").encode()]
    m = tf.io.matching_files([d + "/q/a*", d + "/q/r/*"])
    assert m.numpy().tolist() == [(d + "/q/a.txt").encode(), (d + "/q/r/w.txt").encode()]
    assert tf.io.matching_files(d + "/zz/*").shape == (0,)


TF_RECORDS = bytes.fromhex("0300000000000000b099490e6162636e57f121000000000000000029039807d8ea82a20300000000000000"
                           "b099490e78797a1e358d73")          # TF's bytes for records b"abc", b"", b"xyz"
TF_GZIP = bytes.fromhex("1f8b0800000000000003636680800d333df9129392f3c23f2ab240859c5c83585252d3d2d5d9a5170200d7ce76"
                        "ac27000000")                         # TF's GZIP bytes for b"abc", b"defg"
TF_ZLIB = bytes.fromhex("789c636680800d333df9129392f3c23f2ab240859c5c83585252d3d2d5d9a51702008e960802")


def test_tfrecord_writer_bytes_equal_tf(tmp_path):
    p = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(p) as w:
        w.write(b"abc")
        w.write(b"")
        w.write(tf.constant(b"xyz").numpy())
        w.flush()
    assert open(p, "rb").read() == TF_RECORDS
    for kind, golden in [("GZIP", TF_GZIP), ("ZLIB", TF_ZLIB)]:
        with tf.io.TFRecordWriter(p, options=kind) as w:
            w.write(b"abc")
            w.write(b"defg")
        assert open(p, "rb").read() == golden
        w = tf.io.TFRecordWriter(p, options=tf.io.TFRecordOptions(compression_type=kind))
        w.write(b"abc")
        w.write("defg")
        w.close()
        assert open(p, "rb").read() == golden
        ds = tf.data.TFRecordDataset([p], compression_type=kind, buffer_size=10)
        assert [x.numpy() for x in ds] == [b"abc", b"defg"]
    o = tf.io.TFRecordOptions(compression_type="GZIP")
    assert (o.compression_type, o.compression_level, o.flush_mode) == ("GZIP", None, None)
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    assert tf.io.TFRecordOptions.get_compression_type_string("ZLIB") == "ZLIB"
    with pytest.raises(ValueError, match='^Not a valid compression_type: "BAD"$'):
        tf.io.TFRecordOptions("BAD")
    with pytest.raises(ValueError, match='^Not a valid compression_type: "BAD"$'):
        tf.io.TFRecordWriter(p, options="BAD")


def test_tfrecord_dataset_reads_tf_files():
    ds = tf.data.TFRecordDataset(os.path.join(FIX, "examples.tfrecord"))
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    plain = list(ds)
    assert all(x.dtype == tf.string and x.shape == () for x in plain)
    gz = tf.data.TFRecordDataset(tf.constant([os.path.join(FIX, "examples.tfrecord.gz")]), compression_type="GZIP")
    assert [x.numpy() for x in gz] == [x.numpy() for x in plain] and len(plain) == 3
    spec = {"id": tf.io.FixedLenFeature([], tf.int64), "xy": tf.io.FixedLenFeature([2], tf.float32),
            "tags": tf.io.VarLenFeature(tf.string)}
    b = tf.io.parse_example(next(iter(gz.batch(3))), spec)   # tf.data has no SparseTensor elements yet
    assert list(b) == ["tags", "id", "xy"]
    assert b["id"].dtype == tf.int64 and b["id"].numpy().tolist() == [0, 1, 2]
    assert b["xy"].dtype == tf.float32 and b["xy"].numpy().tolist() == [[0.5, 0.0], [1.5, -1.0], [2.5, -2.0]]
    t = b["tags"]
    assert isinstance(t, tf.SparseTensor)
    assert t.indices.numpy().tolist() == [[1, 0], [2, 0], [2, 1]]
    assert t.values.numpy().tolist() == [b"t0", b"t0", b"t1"] and t.dense_shape.numpy().tolist() == [3, 2]


def test_tfrecord_written_here_equals_tf_fixture(tmp_path):
    records = [x.numpy() for x in tf.data.TFRecordDataset(os.path.join(FIX, "examples.tfrecord"))]
    for name, kind in [("examples.tfrecord", None), ("examples.tfrecord.gz", "GZIP")]:
        p = str(tmp_path / name)
        with tf.io.TFRecordWriter(p, kind) as w:
            for r in records:
                w.write(r)
        assert open(p, "rb").read() == open(os.path.join(FIX, name), "rb").read()


def test_tfrecord_corruption_errors(tmp_path):
    p = str(tmp_path / "two.tfr")
    with tf.io.TFRecordWriter(p) as w:
        w.write(b"abcd")
        w.write(b"efghij")
    data = open(p, "rb").read()
    prefix = CPU % "IteratorGetNext_output_types_1"

    def read(b):
        open(p, "wb").write(b)
        try:
            return [x.numpy() for x in tf.data.TFRecordDataset(p)]
        except tf.errors.DataLossError as e:
            assert str(e).startswith(prefix) and str(e).endswith(" [Op:IteratorGetNext] name: ")
            return str(e)[len(prefix):-len(" [Op:IteratorGetNext] name: ")]

    def flip(i):
        b = bytearray(data)
        b[i] ^= 1
        return bytes(b)
    assert read(flip(3)) == "corrupted record at 0 (Is this even a TFRecord file?)"
    assert read(flip(14)) == "corrupted record at 12"
    assert read(flip(25)) == "corrupted record at 20"
    assert read(flip(40)) == "corrupted record at 32"
    assert read(data[:5]) == []
    assert read(data[:15]) == "truncated record at 0' failed with Read less bytes than requested"
    assert read(data[:25]) == [b"abcd"]
    assert read(data[:35]) == "truncated record at 20' failed with Read less bytes than requested"
    with pytest.raises(tf.errors.NotFoundError) as e:
        list(tf.data.TFRecordDataset(p + "nope"))
    assert _msg(e) == prefix + p + "nope; No such file or directory [Op:IteratorGetNext] name: "


def test_fixed_length_record_dataset(tmp_path):
    p = str(tmp_path / "fl.bin")
    open(p, "wb").write(b"HH" + bytes(range(9)) + b"F")
    ds = tf.data.FixedLengthRecordDataset(p, 3, header_bytes=2, footer_bytes=1)
    assert [x.numpy() for x in ds] == [b"\x00\x01\x02", b"\x03\x04\x05", b"\x06\x07\x08"]
    open(p, "wb").write(b"HH" + bytes(range(10)) + b"F")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        list(tf.data.FixedLengthRecordDataset(p, 3, header_bytes=2, footer_bytes=1))
    assert _msg(e) == (CPU % "IteratorGetNext_output_types_1" + "Excluding the header (2 bytes) and footer (1 bytes), "
                       f'input file "{p}" has body length 10 bytes, which is not an exact multiple of the record '
                       "length (3 bytes). [Op:IteratorGetNext] name: ")


EXAMPLE = bytes.fromhex("0a3a0a0e0a016212090a070a01780a02797a0a110a0166120c120a0a080000003f0000c03f0a150a016912101a0e0a0c"
                        "01feffffffffffffffff0103")     # TF's deterministic bytes of the example built below
EXAMPLE2 = bytes.fromhex("0a1f0a110a0166120c120a0a0800002040000060400a0a0a016912051a030a0107")


def _example():
    return tf.train.Example(features=tf.train.Features(feature={
        "i": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, -2, 3])),
        "f": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 1.5])),
        "b": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"x", b"yz"])),
    }))


def test_example_proto():
    ex = _example()
    assert ex.SerializeToString(deterministic=True) == EXAMPLE
    assert tf.train.Example.FromString(EXAMPLE) == ex
    assert str(ex).startswith('features {\n  feature {\n    key: "i"\n    value {\n      int64_list {\n        value: 1\n')
    assert ex.features.feature["f"].WhichOneof("kind") == "float_list"
    seq = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
        "t": tf.train.FeatureList(feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=[5]))])}))
    assert tf.train.SequenceExample.FromString(seq.SerializeToString()).feature_lists.feature_list["t"] \
        .feature[0].int64_list.value == [5]


def test_parse_single_example():
    spec = {"i": tf.io.FixedLenFeature([3], tf.int64), "f": tf.io.FixedLenFeature([2], tf.float32),
            "b": tf.io.VarLenFeature(tf.string), "m": tf.io.FixedLenFeature([], tf.int64, default_value=5)}
    out = tf.io.parse_single_example(EXAMPLE, spec)
    assert list(out) == ["b", "f", "i", "m"]
    assert out["b"].indices.numpy().tolist() == [[0], [1]] and out["b"].values.numpy().tolist() == [b"x", b"yz"]
    assert out["b"].dense_shape.numpy().tolist() == [2]
    assert out["f"].dtype == tf.float32 and out["f"].numpy().tolist() == [0.5, 1.5]
    assert out["i"].dtype == tf.int64 and out["i"].numpy().tolist() == [1, -2, 3]
    assert out["m"].shape == () and out["m"].numpy() == 5
    seq = tf.io.parse_single_example(EXAMPLE, {
        "i": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
        "z": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True)})
    assert seq["i"].numpy().tolist() == [1, -2, 3] and seq["z"].shape == (0, 2) and seq["z"].dtype == tf.float32
    d = tf.io.parse_single_example(EXAMPLE, {"f": tf.io.FixedLenFeature([1, 2], tf.float32, default_value=[[1., 2.]]),
                                             "g": tf.io.FixedLenFeature([1, 2], tf.float32, default_value=[[1., 2.]])})
    assert d["f"].numpy().tolist() == [[0.5, 1.5]] and d["g"].numpy().tolist() == [[1.0, 2.0]]
    e = tf.io.parse_single_example(tf.train.Example().SerializeToString(), {"f": tf.io.VarLenFeature(tf.float32)})
    assert e["f"].indices.shape == (0, 1) and e["f"].values.dtype == tf.float32
    assert e["f"].dense_shape.numpy().tolist() == [0]
    assert repr(tf.io.FixedLenFeature([2], tf.float32)) == "FixedLenFeature(shape=[2], dtype=tf.float32, default_value=None)"
    assert repr(tf.io.VarLenFeature(tf.string)) == "VarLenFeature(dtype=tf.string)"


def test_parse_example_batch():
    out = tf.io.parse_example(tf.constant([EXAMPLE, EXAMPLE2]), {
        "f": tf.io.FixedLenFeature([2], tf.float32), "b": tf.io.VarLenFeature(tf.string),
        "i": tf.io.VarLenFeature(tf.int64)})
    assert list(out) == ["b", "i", "f"]
    assert out["b"].indices.numpy().tolist() == [[0, 0], [0, 1]] and out["b"].dense_shape.numpy().tolist() == [2, 2]
    assert out["i"].indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [1, 0]]
    assert out["i"].values.numpy().tolist() == [1, -2, 3, 7] and out["i"].dense_shape.numpy().tolist() == [2, 3]
    assert out["f"].numpy().tolist() == [[0.5, 1.5], [2.5, 3.5]]
    empty = tf.io.parse_example([EXAMPLE2, EXAMPLE2], {"b": tf.io.VarLenFeature(tf.string)})["b"]
    assert empty.indices.shape == (0, 2) and empty.dense_shape.numpy().tolist() == [2, 0]
    pad = tf.io.parse_example([EXAMPLE, EXAMPLE2], {"i": tf.io.FixedLenSequenceFeature([], tf.int64,
                                                                                        allow_missing=True)})
    assert pad["i"].numpy().tolist() == [[1, -2, 3], [7, 0, 0]]
    s = tf.io.parse_example([EXAMPLE, EXAMPLE2], {"b": tf.io.FixedLenFeature([2], tf.string, default_value=[b"p", b"q"])})
    assert s["b"].dtype == tf.string and s["b"].numpy().tolist() == [[b"x", b"yz"], [b"p", b"q"]]


def test_parse_example_errors():
    dense1 = CPU % "ParseExampleV2_Tdense_1_num_sparse_0_ragged_split_types_0_ragged_value_types_0_sparse_types_0"
    sparse1 = CPU % "ParseExampleV2_Tdense_0_num_sparse_1_ragged_split_types_0_ragged_value_types_0_sparse_types_1"
    cases = [
        (lambda: tf.io.parse_single_example(EXAMPLE2, {"b": tf.io.FixedLenFeature([], tf.string)}),
         dense1 + "Feature: b (data type: string) is required but could not be found. [Op:ParseExampleV2]"),
        (lambda: tf.io.parse_example([EXAMPLE2], {"b": tf.io.FixedLenFeature([], tf.string)}),
         dense1 + "Name: <unknown>, Feature: b (data type: string) is required but could not be found. "
                  "[Op:ParseExampleV2]"),
        (lambda: tf.io.parse_single_example(EXAMPLE, {"i": tf.io.FixedLenFeature([2], tf.int64)}),
         dense1 + "Key: i.  Can't parse serialized Example: Some int64_list slice was not parsed. [Op:ParseExampleV2]"),
        (lambda: tf.io.parse_example([EXAMPLE], {"i": tf.io.FixedLenFeature([2], tf.int64)}),
         dense1 + "Name: <unknown>, Key: i, Index: 0.  Number of int64 values != expected.  Values size: 3 but "
                  "output shape: [2] [Op:ParseExampleV2]"),
        (lambda: tf.io.parse_single_example(EXAMPLE, {"i": tf.io.FixedLenFeature([3], tf.float32)}),
         dense1 + "Key: i.  Data types don't match. Data type: int64 but expected type: float [Op:ParseExampleV2]"),
        (lambda: tf.io.parse_example([EXAMPLE], {"i": tf.io.VarLenFeature(tf.float32)}),
         sparse1 + "Name: <unknown>, Key: i, Index: 0.  Data types don't match. Expected type: float, Actual type: "
                   "int64 [Op:ParseExampleV2]"),
        (lambda: tf.io.parse_single_example(b"garbage", {"i": tf.io.FixedLenFeature([], tf.int64)}),
         dense1 + "Could not parse example input, value: 'garbage' [Op:ParseExampleV2]"),
        (lambda: tf.io.parse_example(tf.constant([[EXAMPLE]]), {"i": tf.io.FixedLenFeature([3], tf.int64)}),
         dense1 + "Expected serialized to be a scalar or vector, got shape: [1,1] [Op:ParseExampleV2]"),
    ]
    for fn, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            fn()
        assert _msg(e) == message
    with pytest.raises(ValueError, match="^Unsupported: FixedLenSequenceFeature requires allow_missing to be True.$"):
        tf.io.parse_single_example(EXAMPLE, {"i": tf.io.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(ValueError, match="^Invalid argument: features cannot be empty.$"):
        tf.io.parse_single_example(EXAMPLE, {})


SERIALIZED = [  # (value, TF's serialize_tensor bytes)
    (lambda: tf.constant([[1.5, 2.0]], tf.float32), "08011208120208011202080222080000c03f00000040"),
    (lambda: tf.constant([1, 2, 3], tf.int32), "0803120412020803220c010000000200000003000000"),
    (lambda: tf.constant(b"hi"), "0807120042026869"),
    (lambda: tf.constant([b"a", b"bc"]), "080712041202080242016142026263"),
    (lambda: tf.constant(True), "080a1200220101"),
    (lambda: tf.constant(7, tf.int64), "0809120022080700000000000000"),
    (lambda: tf.constant([1.5], tf.float64), "08021204120208012208000000000000f83f"),
    (lambda: tf.constant([1, 2], tf.uint8), "080412041202080222020102"),
    (lambda: tf.constant([1.0], tf.float16), "08131204120208012202003c"),
]


def test_serialize_parse_tensor():
    for make, golden in SERIALIZED:
        v = make()
        s = tf.io.serialize_tensor(v)
        assert s.dtype == tf.string and s.shape == () and s.numpy().hex() == golden
        back = tf.io.parse_tensor(s, v.dtype)
        assert back.dtype == v.dtype and back.shape == v.shape
        assert np.array_equal(back.numpy(), v.numpy())
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1, 2])), tf.float32)
    assert _msg(e) == CPU % "ParseTensor" + ("Type mismatch between parsed tensor (int32) and dtype (float) "
                                             "[Op:ParseTensor] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.parse_tensor(b"\xff\xff", tf.float32)
    assert _msg(e) == CPU % "ParseTensor" + "Could not parse `serialized` as TensorProto, base64: //8= [Op:ParseTensor]"


def test_decode_csv():
    a, b, c = tf.io.decode_csv(["1,2.5,a", "3,,b"], record_defaults=[[0], [0.0], ["z"]])
    assert (a.dtype, b.dtype, c.dtype) == (tf.int32, tf.float32, tf.string)
    assert a.numpy().tolist() == [1, 3] and b.numpy().tolist() == [2.5, 0.0] and c.numpy().tolist() == [b"a", b"b"]
    out = tf.io.decode_csv("1,2.5,a", record_defaults=[tf.zeros([0], tf.int32), [1.0], [""]])
    assert [t.shape for t in out] == [(), (), ()] and out[2].numpy() == b"a"
    q = tf.io.decode_csv(['"a,b",2'], record_defaults=[[""], [0]])
    assert q[0].numpy().tolist() == [b"a,b"] and q[1].numpy().tolist() == [2]
    d = tf.io.decode_csv(["1;2"], record_defaults=[[0], [tf.constant(0, tf.int64)]], field_delim=";")
    assert d[1].dtype == tf.int64 and d[1].numpy().tolist() == [2]
    assert tf.io.decode_csv(["1,NA"], record_defaults=[[0], [9]], na_value="NA")[1].numpy().tolist() == [9]
    assert tf.io.decode_csv(["1.5,2"], record_defaults=[[0.0], [tf.constant(0, tf.float64)]])[1].dtype == tf.float64
    prefix3, prefix2 = CPU % "DecodeCSV_OUT_TYPE_3", CPU % "DecodeCSV_OUT_TYPE_2"
    cases = [
        (lambda: tf.io.decode_csv(["1,,a"], record_defaults=[[0], tf.zeros([0], tf.float32), [""]]),
         prefix3 + "Field 1 is required but missing in record 0! [Op:DecodeCSV]"),
        (lambda: tf.io.decode_csv(["1,2"], record_defaults=[[0], [0], [0]]),
         prefix3 + "Expect 3 fields but have 2 in record 0 [Op:DecodeCSV]"),
        (lambda: tf.io.decode_csv(["x,2"], record_defaults=[[0], [0]]),
         prefix2 + "Field 0 in record 0 is not a valid int32: x [Op:DecodeCSV]"),
    ]
    for fn, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            fn()
        assert _msg(e) == message
    with pytest.raises(ValueError, match="^Length of select_cols and record_defaults do not match.$"):
        tf.io.decode_csv(["1,2,3"], record_defaults=[[0], [0], [0]], select_cols=[0, 2])


# -- image codecs ------------------------------------------------------------------------------------------------

import struct  # noqa: E402
import zlib  # noqa: E402


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(w, h, depth, ctype, rows=None, extra=b"", interlace=0, raw=None):
    """A PNG built by hand (no filters) to cover colour types and bit depths."""
    raw = raw if raw is not None else b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
            + extra + _chunk(b"IDAT", zlib.compress(raw)) + _chunk(b"IEND", b""))


_PLTE = _chunk(b"PLTE", bytes([10, 20, 30, 40, 50, 60, 70, 80, 90]))
_PNGS = {
    "g1": _png(3, 2, 1, 0, [bytes([0b10100000]), bytes([0b01100000])]),
    "g2": _png(3, 1, 2, 0, [bytes([0b00011011])]),
    "g4": _png(3, 1, 4, 0, [bytes([0x1F, 0xA0])]),
    "g16": _png(2, 1, 16, 0, [struct.pack(">HH", 0x1234, 0xFFFF)]),
    "ga8": _png(2, 1, 8, 4, [bytes([7, 100, 200, 50])]),
    "rgb8": _png(2, 1, 8, 2, [bytes([1, 2, 3, 250, 251, 252])]),
    "rgb16": _png(1, 1, 16, 2, [struct.pack(">HHH", 0x0102, 0x8081, 0xFF00)]),
    "rgba16": _png(1, 1, 16, 6, [struct.pack(">HHHH", 0x0102, 0x8081, 0xFF00, 0x7FFF)]),
    "pal2": _png(3, 1, 2, 3, [bytes([0b00011000])], _PLTE),
    "pal8trns": _png(3, 1, 8, 3, [bytes([0, 1, 2])], _PLTE + _chunk(b"tRNS", bytes([0, 128]))),
    "g8trns": _png(2, 1, 8, 0, [bytes([7, 200])], _chunk(b"tRNS", struct.pack(">H", 7))),
    "rgb8green": _png(2, 1, 8, 2, [bytes([0, 255, 0, 255, 0, 0])]),
}

# (case, channels, dtype) -> TF 2.21's tf.io.decode_png(...) shape and flat values
_DECODED = [
    ("g1", 0, "uint8", (2, 3, 1), [255, 0, 255, 0, 255, 255]),
    ("g1", 4, "uint8", (2, 3, 4), [255, 255, 255, 1, 0, 0, 0, 1, 255, 255, 255, 1, 0, 0, 0, 1, 255, 255, 255, 1,
                                   255, 255, 255, 1]),
    ("g1", 4, "uint16", (2, 3, 4), [65535, 65535, 65535, 257, 0, 0, 0, 257, 65535, 65535, 65535, 257, 0, 0, 0, 257,
                                    65535, 65535, 65535, 257, 65535, 65535, 65535, 257]),
    ("g2", 0, "uint16", (1, 3, 1), [0, 21845, 43690]),
    ("g4", 3, "uint8", (1, 3, 3), [17, 17, 17, 255, 255, 255, 170, 170, 170]),
    ("g16", 0, "uint8", (1, 2, 1), [18, 255]),
    ("g16", 4, "uint16", (1, 2, 4), [4660, 4660, 4660, 65535, 65535, 65535, 65535, 65535]),
    ("ga8", 0, "uint8", (1, 2, 2), [7, 100, 200, 50]),
    ("ga8", 1, "uint16", (1, 2, 1), [1799, 51400]),
    ("ga8", 4, "uint8", (1, 2, 4), [7, 7, 7, 100, 200, 200, 200, 50]),
    ("rgb8", 1, "uint8", (1, 2, 1), [1, 250]),
    ("rgb8", 4, "uint16", (1, 2, 4), [257, 514, 771, 65535, 64250, 64507, 64764, 65535]),
    ("rgb16", 0, "uint8", (1, 1, 3), [1, 128, 255]),
    ("rgb16", 1, "uint8", (1, 1, 1), [104]),
    ("rgb16", 1, "uint16", (1, 1, 1), [26832]),
    ("rgba16", 3, "uint16", (1, 1, 3), [258, 32897, 65280]),
    ("rgba16", 0, "uint8", (1, 1, 4), [1, 128, 255, 127]),
    ("pal2", 0, "uint8", (1, 3, 3), [10, 20, 30, 40, 50, 60, 70, 80, 90]),
    ("pal2", 1, "uint16", (1, 3, 1), [4626, 12336, 20046]),
    ("pal2", 4, "uint8", (1, 3, 4), [10, 20, 30, 3, 40, 50, 60, 3, 70, 80, 90, 3]),
    ("pal8trns", 0, "uint8", (1, 3, 4), [10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255]),
    ("pal8trns", 4, "uint16", (1, 3, 4), [2570, 5140, 7710, 0, 10280, 12850, 15420, 32896, 17990, 20560, 23130,
                                          65535]),
    ("g8trns", 0, "uint8", (1, 2, 1), [7, 200]),
    ("g8trns", 4, "uint8", (1, 2, 4), [7, 7, 7, 0, 200, 200, 200, 255]),
    ("rgb8green", 1, "uint8", (1, 2, 1), [149, 76]),
]


@pytest.mark.parametrize("case,channels,dtype,shape,values", _DECODED)
def test_decode_png_colour_types(case, channels, dtype, shape, values):
    out = tf.io.decode_png(_PNGS[case], channels=channels, dtype=getattr(tf, dtype))
    assert out.dtype == getattr(tf, dtype) and out.shape == shape
    assert out.numpy().reshape(-1).tolist() == values


def test_decode_png_interlaced_and_filtered():
    img = np.random.RandomState(0).randint(0, 256, (5, 6)).astype(np.uint8)
    raw = b""
    for y0, x0, dy, dx in [(0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2),
                           (1, 0, 2, 1)]:
        sub = img[y0::dy, x0::dx]
        if sub.size:
            raw += b"".join(b"\x00" + r.tobytes() for r in sub)
    out = tf.io.decode_png(_png(6, 5, 8, 0, interlace=1, raw=raw))
    np.testing.assert_array_equal(out.numpy()[..., 0], img)
    # TF's own encoder uses all five row filters on this image
    big = (np.arange(40 * 50 * 3).reshape(40, 50, 3) % 251).astype(np.uint8)
    np.testing.assert_array_equal(tf.io.decode_png(tf.io.encode_png(big)).numpy(), big)


_ENC_IMG = (np.arange(4 * 5 * 3) * 7 % 256).reshape(4, 5, 3).astype(np.uint8)
# tf.io.encode_png bytes of TF 2.21
_ENC_DEFAULT = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000005000000040802000000c95162170000001f494441540899636460e71345022c9999"
    "99c87cc64b371fa0f0ad9d3c91f9000e3b08994f29cfe30000000049454e44ae426082")
_ENC_LEVEL1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000005000000040802000000c95162170000002049444154081d636460e71345022c9999"
    "99485c51c64b371fa0f0ad9d3c91f9000e3b0899fc2955ce0000000049454e44ae426082")
_ENC_U16 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000005000000041004000000bcaae18800000038494441540899636660e03091982"
    "3b34df595268be10eb34b766c8e0b58aa79aa7924782478247924e12492e05b9e3730417f1e0844560900ccc00e78a8ca2bf7"
    "0000000049454e44ae426082")


def test_encode_png_bytes_match_tf():
    assert tf.io.encode_png(_ENC_IMG).numpy() == _ENC_DEFAULT
    assert tf.image.encode_png(tf.constant(_ENC_IMG), compression=1).numpy() == _ENC_LEVEL1
    u16 = tf.constant(_ENC_IMG.astype(np.int32)[..., :2] * 300, tf.int32)
    u16 = tf.cast(u16, tf.uint16)
    assert tf.io.encode_png(u16).numpy() == _ENC_U16
    np.testing.assert_array_equal(tf.io.decode_png(_ENC_U16, dtype=tf.uint16).numpy(),
                                  _ENC_IMG[..., :2].astype(np.uint16) * 300)
    batch = tf.io.encode_png(np.stack([_ENC_IMG] * 6).reshape(2, 3, 4, 5, 3))
    assert batch.shape == (2, 3) and batch.dtype == tf.string and batch.numpy()[1, 2] == _ENC_DEFAULT


def test_encode_png_errors():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.encode_png(np.zeros((2, 2), np.uint8))
    assert _msg(e) == CPU % "EncodePng" + "images must be at least rank 3[2,2] [Op:EncodePng] name: "
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.encode_png(np.zeros((2, 2, 5), np.uint8))
    assert _msg(e) == CPU % "EncodePng" + "image must have 1, 2, 3, or 4 channels, got 5 [Op:EncodePng] name: "
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.encode_png(np.zeros((2, 2, 1), np.uint8), compression=10)
    assert _msg(e) == CPU % "EncodePng" + "compression should be in [-1,9], got 10 [Op:EncodePng] name: "
    with pytest.raises(tf.errors.InternalError) as e:
        tf.io.encode_png(np.zeros((3, 0, 2, 1), np.uint8))
    assert _msg(e) == (CPU % "EncodePng" + "PNG encoding failed at the following flattened batch indices: 0, 1, 2 "
                       "[Op:EncodePng] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Value for attr 'T' of float is not in the list of "
                       r"allowed values: uint8, uint16\n"):
        tf.io.encode_png(np.zeros((2, 2, 1), np.float32))


def test_decode_png_errors():
    good = _png(2, 1, 8, 0, [bytes([7, 200])])
    bad_crc = bytearray(good)
    bad_crc[-20] ^= 0xFF
    cases = [
        (b"", "Input is empty."),
        (b"hello world, not a png", "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."),
        (good[:-20], "Invalid PNG data, size 48"),
        (good[:30], "Invalid PNG. Failed to initialize decoder."),
        (bytes(bad_crc), "Invalid PNG data, size 68"),
        (_png(2, 2, 8, 0, raw=b"\x00\x01\x02"), "Invalid PNG data, size 68"),
        (_png(2, 1, 8, 0, raw=b"\x07\x01\x02"), "Invalid PNG data, size 68"),
    ]
    for data, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.io.decode_png(data)
        assert _msg(e) == CPU % "DecodePng" + message + " [Op:DecodePng]"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.decode_png(good, channels=2)
    assert _msg(e) == CPU % "DecodePng" + "`channels` must be 0, 1, 3 or 4 but got 2 [Op:DecodePng]"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.decode_png([good])
    assert _msg(e) == CPU % "DecodePng" + "`contents` must be scalar but got shape[1] [Op:DecodePng]"
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Value for attr 'dtype' of float is not in the list"):
        tf.io.decode_png(good, dtype=tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.decode_image(b"GIF")
    assert _msg(e) == (CPU % "DecodeImage" + "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP "
                       "required. [Op:DecodeImage]")


def test_decode_image_dtypes_and_aliases():
    g8, g16 = _png(2, 1, 8, 0, [bytes([7, 200])]), _PNGS["g16"]
    assert tf.image.decode_png is tf.io.decode_png and tf.image.decode_image is tf.io.decode_image
    assert tf.image.decode_jpeg is tf.io.decode_jpeg and tf.image.encode_jpeg is tf.io.encode_jpeg
    out = tf.io.decode_image(g8)
    assert out.dtype == tf.uint8 and out.numpy().reshape(-1).tolist() == [7, 200]
    np.testing.assert_array_equal(tf.io.decode_image(g16, dtype=tf.float32).numpy().reshape(-1),
                                  np.array([0.07110704481601715, 1.0], np.float32))
    np.testing.assert_array_equal(tf.io.decode_image(g8, dtype=tf.float32).numpy().reshape(-1),
                                  np.array([0.027450980618596077, 0.7843137383460999], np.float32))
    assert tf.io.decode_image(g8, dtype=tf.uint16).numpy().reshape(-1).tolist() == [1799, 51400]
    assert tf.io.decode_image(g8, dtype=tf.int32).numpy().reshape(-1).tolist() == [58949632, 1684275200]
    assert tf.io.decode_image(g8, channels=3).shape == (1, 2, 3)
    assert tf.io.decode_jpeg(g8).numpy().reshape(-1).tolist() == [7, 200]      # TF decodes any format here


def test_jpeg_through_pil():
    pytest.importorskip("PIL")
    y, x = np.mgrid[0:8, 0:12]
    img = np.stack([y * 30, x * 20, (x + y) * 10], -1).astype(np.uint8)
    data = tf.io.encode_jpeg(img, quality=95)
    out = tf.io.decode_jpeg(data)
    assert out.shape == (8, 12, 3) and out.dtype == tf.uint8
    err = np.abs(out.numpy().astype(int) - img)      # lossy, chroma subsampled
    assert err.mean() < 6 and err.max() <= 24
    assert tf.image.decode_image(data, channels=1).shape == (8, 12, 1)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.decode_jpeg(data.numpy()[:100])
    assert _msg(e) == (CPU % "DecodeJpeg" + "jpeg::Uncompress failed. Invalid JPEG data or crop window. "
                       "[Op:DecodeJpeg]")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.encode_jpeg(np.zeros((2, 2, 4), np.uint8))
    assert _msg(e) == CPU % "EncodeJpeg" + "image must have 1 or 3 channels, got [2,2,4] [Op:EncodeJpeg] name: "


# ------------------------------------------------------------ declared limits, and arguments that work as in TF

def test_tfrecord_options_write_as_tf(tmp_path):
    from tfcompat.framework.export import partial_note
    O, p = tf.io.TFRecordOptions, str(tmp_path / "r.tfrecord")

    def written(options):
        with tf.io.TFRecordWriter(p, options) as w:
            w.write(b"abc")
            w.write(b"defg")
        with open(p, "rb") as f:
            return f.read()
    # TF 2.21's bytes: a given window_bits is zlib's as is (GZIP adds 16 to the default only, so this "GZIP" file
    # has a zlib header), and the buffer sizes change nothing
    assert written(O("GZIP", window_bits=10)) == bytes.fromhex("2891") + TF_ZLIB[2:]
    assert written(O("ZLIB", compression_level=1, mem_level=5, window_bits=9, compression_strategy=1,
                     input_buffer_size=3, output_buffer_size=2)) == bytes.fromhex("1819") + TF_ZLIB[2:]
    assert written(1) == TF_ZLIB and written(O(2)) == TF_GZIP          # TFRecordCompressionType's values
    assert O.compression_type_map == {1: "ZLIB", 2: "GZIP", 0: ""}
    assert [O.get_compression_type_string(v) for v in (0, 1, 2, False, "")] == ["", "ZLIB", "GZIP", "", ""]
    with pytest.raises(ValueError, match='^Not a valid compression_type: "gzip"$'):
        O("gzip")
    with pytest.raises(NotImplementedError, match=r"^tf.io.TFRecordOptions\(flush_mode=2\) is not supported by "
                                                  r"tfcompat$"):
        O("ZLIB", flush_mode=2)
    assert partial_note(O) == "constructor arguments flush_mode, compression_method"
    with pytest.raises(tf.errors.InvalidArgumentError, match="^deflateInit failed with status-2$"):
        tf.io.TFRecordWriter(p, O("ZLIB", compression_level=12))       # TF 2.21 aborts the process instead


def test_record_datasets_take_compression_types_as_tf(tmp_path):
    from tfcompat.framework.export import partial_note
    p = str(tmp_path / "r.tfrecord.gz")
    with open(p, "wb") as f:
        f.write(TF_GZIP)
    # TF 2.21 reads any compression_type but "ZLIB" and "GZIP" (even "gzip") as uncompressed
    with pytest.raises(tf.errors.DataLossError) as e:
        list(tf.data.TFRecordDataset(p, compression_type="gzip"))
    assert "corrupted record at 0 (Is this even a TFRecord file?)" in _msg(e)
    assert [x.numpy() for x in tf.data.TFRecordDataset(p, compression_type=b"GZIP")] == [b"abc", b"defg"]
    with pytest.raises(TypeError, match="^Expected string, but got 1 of type 'int'.$"):
        tf.data.TFRecordDataset(p, compression_type=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unsupported compression_type."):
        list(tf.data.FixedLengthRecordDataset(p, 4, compression_type="gzip"))
    for cls in (tf.data.TFRecordDataset, tf.data.FixedLengthRecordDataset):     # num_parallel_reads works now
        assert partial_note(cls).startswith("file names given as a dataset;")
        assert "num_parallel_reads" not in partial_note(cls)


def _int_or_float_example(**features):
    return tf.train.Example(features=tf.train.Features(feature={
        k: tf.train.Feature(int64_list=tf.train.Int64List(value=v)) if isinstance(v[0], int) else
        tf.train.Feature(float_list=tf.train.FloatList(value=v)) for k, v in features.items()})).SerializeToString()


def test_parse_example_names_the_examples_in_its_errors():
    fn = "ParseExampleV2_Tdense_1_num_sparse_0_ragged_split_types_0_ragged_value_types_0_sparse_types_0"
    spec = {"a": tf.io.FixedLenFeature([1], tf.int64)}
    good, wrong, missing = (_int_or_float_example(a=[1]), _int_or_float_example(a=[1.0]),
                            _int_or_float_example(b=[1]))
    assert tf.io.parse_example([good], spec, example_names=["x"])["a"].numpy().tolist() == [[1]]
    cases = [  # (serialized, example_names, TF 2.21's message)
        ([good, wrong], ["x", "y"], "Name: y, Key: a, Index: 1.  Data types don't match. Data type: float but "
                                    "expected type: int64"),
        ([good, missing], ["x", "y"], "Name: y, Feature: a (data type: int64) is required but could not be found."),
        ([good, missing], [], "Name: <unknown>, Feature: a (data type: int64) is required but could not be found."),
        ([good, missing], ["x"], "Expected names have the same shape as serialized: name.shape=[1], "
                                 "serialized.shape=[2]"),
        ([good, missing], "x", "Expected names have the same shape as serialized: name.shape=[], serialized.shape=[2]"),
        (missing, "x", "Feature: a (data type: int64) is required but could not be found."),
    ]
    for serialized, names, message in cases:
        parse = tf.io.parse_single_example if isinstance(serialized, bytes) else tf.io.parse_example
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            parse(serialized, spec, example_names=names)
        assert _msg(e) == CPU % fn + message + " [Op:ParseExampleV2]"
    with pytest.raises(TypeError, match=r"^Cannot convert \[1\] to EagerTensor of dtype string$"):
        tf.io.parse_example([good], spec, example_names=[1])
    seq = {"a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)}
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.parse_example([good], seq, example_names=["nm"])
    assert _msg(e) == CPU % fn + ("Name: nm, Key: a, Index: 0.  Number of int64 values is not a multiple of stride "
                                  "length. Saw 1 values but output shape is: [?,2] [Op:ParseExampleV2]")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.parse_single_example(good, seq)
    assert _msg(e) == CPU % fn + ("Error while parsing feature with key a: number of elements should be divisible by "
                                  "2, found 1 instead [Op:ParseExampleV2]")


def test_decode_jpeg_ratio_dct_method_and_declared_limits():
    pytest.importorskip("PIL")
    from tfcompat.framework.export import partial_note
    with open(os.path.join(FIX, "tiny_3x5.jpg"), "rb") as f:
        jpeg = f.read()                        # a 5x3 RGB JPEG written by PIL (quality 90)
    # TF 2.21 with dct_method="INTEGER_ACCURATE" (libjpeg's ISLOW, which tfcompat always uses), IDCT scaled by ratio
    full = [[[58, 49, 44], [45, 50, 43], [50, 81, 73], [29, 72, 55], [58, 96, 71]],
            [[46, 33, 27], [42, 43, 37], [23, 50, 43], [16, 54, 43], [31, 64, 45]],
            [[53, 32, 27], [68, 61, 55], [32, 52, 50], [47, 78, 73], [51, 74, 68]]]
    assert tf.io.decode_jpeg(jpeg, dct_method="INTEGER_ACCURATE").numpy().tolist() == full
    assert tf.io.decode_jpeg(jpeg, ratio=2).numpy().tolist() == [[[51, 42, 37], [22, 68, 57], [45, 80, 50]],
                                                                 [[65, 40, 35], [37, 67, 67], [57, 71, 72]]]
    assert tf.io.decode_jpeg(jpeg, ratio=8).numpy().tolist() == [[[52, 64, 52]]]
    assert tf.io.decode_jpeg(jpeg, ratio=2, channels=1).numpy().reshape(-1).tolist() == [44, 53, 66, 47, 58, 67]
    for kwargs, message in [({"ratio": 3}, "ratio must be 1, 2, 4, or 8, got 3"),
                            ({"dct_method": "X"}, "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}"),
                            ({"channels": 4}, "JPEG does not support 4 channels")]:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.io.decode_jpeg(jpeg, **kwargs)
        assert _msg(e) == CPU % "DecodeJpeg" + message + " [Op:DecodeJpeg]"
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.io.decode_image(jpeg, channels=4)
    assert _msg(e) == CPU % "DecodeImage" + "JPEG does not support 4 channels [Op:DecodeImage]"
    with pytest.raises(NotImplementedError, match=r"^tf.io.decode_jpeg\(fancy_upscaling=False\) is not supported"):
        tf.io.decode_jpeg(jpeg, fancy_upscaling=False)
    assert partial_note(tf.io.decode_jpeg).endswith("; arguments fancy_upscaling, try_recover_truncated, "
                                                    "acceptable_fraction")
    assert tf.io.decode_jpeg(jpeg, acceptable_fraction=1.0).shape == (3, 5, 3)       # the default's value is fine
    with pytest.raises(NotImplementedError, match=r"^tf.io.encode_jpeg\(density_unit='cm'\) is not supported"):
        tf.io.encode_jpeg(np.zeros((2, 2, 3), np.uint8), density_unit="cm")
    assert partial_note(tf.io.encode_jpeg).endswith("arguments density_unit, xmp_metadata")


def test_file_ops_declare_local_files_only():
    from tfcompat.framework.export import partial_note
    with pytest.raises(NotImplementedError, match="^file system scheme 'gs'"):
        tf.io.gfile.exists("gs://bucket/x")
    for f in (tf.io.gfile.exists, tf.io.gfile.GFile, tf.io.read_file, tf.io.TFRecordWriter):
        assert partial_note(f).startswith("local files only")
    assert partial_note(tf.io.gfile.join) is None
