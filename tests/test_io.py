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
