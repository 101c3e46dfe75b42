"""Untrusted inputs: bad arguments, corrupt bytes and oversized files raise TF's error classes, bounded.

Expected classes and messages were recorded from TensorFlow 2.21 / Keras 3.15.1.
"""
import base64
import gzip
import io
import json
import os
import struct
import subprocess
import sys
import time
import tracemalloc
import zipfile
import zlib

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import errors

_ATTR = ("Value for attr '{attr}' of float is not in the list of allowed values: int32, int64\n\t; NodeDef: "
         "{{{{node {op}}}}}; Op<name={op}; signature={sig}> [Op:{op}]")


# ------------------------------------------------------------------------------------------ bad arguments

@pytest.mark.parametrize("call, text", [
    (lambda: tf.ones([2.5]), "Cannot convert [2.5] to EagerTensor of dtype int32"),
    (lambda: tf.zeros([2.5], tf.int32), "Cannot convert [2.5] to EagerTensor of dtype int32"),
    (lambda: tf.ones(2.5), "Cannot convert 2.5 to EagerTensor of dtype int32"),
    (lambda: tf.ones((2.0,)), "Cannot convert (2.0,) to EagerTensor of dtype int32"),
    (lambda: tf.ones([2, 2.5]), "Cannot convert [2, 2.5] to EagerTensor of dtype int32"),
    (lambda: tf.ones(["a"]), "Cannot convert ['a'] to EagerTensor of dtype int32"),
])
def test_float_shape_to_ones_is_a_type_error(call, text):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == text


def test_float_shape_to_ops_fails_their_attr_check():
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.reshape([1., 2.], [2.5])
    assert str(e.value) == _ATTR.format(
        attr="Tshape", op="Reshape", sig="tensor:T, shape:Tshape -> output:T; attr=T:type; attr=Tshape:type,"
        "default=DT_INT32,allowed=[DT_INT32, DT_INT64]")
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.fill(tf.constant([2.0]), 1)
    assert str(e.value) == _ATTR.format(
        attr="index_type", op="Fill", sig="dims:index_type, value:T -> output:T; attr=T:type; attr=index_type:type,"
        "default=DT_INT32,allowed=[DT_INT32, DT_INT64]") + " name: "
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'index_type' of float .*\[Op:Fill\] name: $"):
        tf.ones(tf.constant([2.0]))
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'T' of float .*\[Op:RandomUniform\] name: $"):
        tf.random.uniform([2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'T' of float .*\[Op:RandomUniformInt\] name: $"):
        tf.random.uniform([2.5], maxval=3, dtype=tf.int32)
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'T' of float .*\[Op:RandomStandardNormal\]"):
        tf.random.normal([2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'Tmultiples' of float .*\[Op:Tile\]$"):
        tf.tile([1.], [2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'Tidx' of float .*\[Op:BroadcastTo\]$"):
        tf.broadcast_to(1., [2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'Tperm' of float .*\[Op:Transpose\]$"):
        tf.transpose([[1.]], [0.5, 1])


def test_shape_arguments_that_tf_accepts():
    assert tf.ones(np.array([2.0])).shape == (2,)            # NumPy float arrays truncate, as in TF
    assert tf.fill(np.array([2.5]), 1).shape == (2,)
    assert tf.ones([True]).shape == (1,)
    assert tf.ones(tf.TensorShape([2])).shape == (2,)
    assert tf.ones((tf.constant(2), np.int64(3))).shape == (2, 3)
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\)"):
        tf.ones([None])
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.zeros([-1])
    assert str(e.value) == ("{{function_node __wrapped__Fill_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            "Dimension -1 must be >= 0 [Op:Fill] name: ")


@pytest.mark.parametrize("value, kwargs", [
    ([1, "a"], {}), (["a", 1], {}), ([1.5, "a"], {}), ([[1], ["a"]], {}), ([True, "a"], {}),
    ([np.int32(1), "a"], {}), (["a", ["b"]], {}), ([1, b"a"], {}), ([1, "a"], {"dtype": tf.int32}),
    ([1, "a"], {"dtype": tf.string}),
])
def test_mixed_type_lists_are_refused(value, kwargs):
    with pytest.raises(ValueError) as e:
        tf.constant(value, **kwargs)
    assert str(e.value) == "Can't convert Python sequence with mixed types to Tensor."


def test_mixed_types_elsewhere():
    for call in (lambda: tf.convert_to_tensor([1, "a"]), lambda: tf.add([1, "a"], 1), lambda: tf.ones([2, "a"])):
        with pytest.raises(ValueError, match="^Can't convert Python sequence with mixed types to Tensor.$"):
            call()
    with pytest.raises(ValueError, match="^Can't convert non-rectangular Python sequence to Tensor.$"):
        tf.constant([[1, 2], "a"])
    assert tf.constant(np.array([1, "a"])).numpy().tolist() == [b"1", b"a"]     # NumPy did the conversion


# ------------------------------------------------------------------------------------- Keras input shapes

def _model(shape=(3,), units=2):
    inp = tf.keras.Input(shape)
    return tf.keras.Model(inp, tf.keras.layers.Dense(units)(inp)), inp


def test_rank_one_input_to_a_rank_two_model_is_refused():
    m, inp = _model()
    with pytest.raises(ValueError) as e:
        m(np.ones(3, np.float32))
    msg = str(e.value)
    assert msg.startswith("Exception encountered when calling Functional.call().\n\n\x1b[1mInvalid input shape for "
                          f"input [1. 1. 1.] with name '{inp.name}' and path ''. Expected shape (None, 3), but input "
                          "has incompatible shape (3,)\x1b[0m")
    m.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"Invalid input shape for input .* Expected shape \(None, 3\)"):
        m.fit(np.ones(3, np.float32), np.ones(3), verbose=0)
    s = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"(?s)^Exception encountered when calling Sequential.call\(\).*Invalid input "
                                         r"shape .* but input has incompatible shape \(3,\)"):
        s(np.ones(3, np.float32))


def test_named_inputs_report_their_path_and_dims():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    m = tf.keras.Model([a, b], tf.keras.layers.Concatenate()([a, b]))
    with pytest.raises(ValueError, match=r"Invalid input shape for input \[1. 1. 1.\] with name 'a' and path '0'"):
        m([np.ones(3, np.float32), np.ones((1, 2), np.float32)])
    with pytest.raises(ValueError) as e:
        m([np.ones((1, 3), np.float32), np.ones((1, 5), np.float32)])
    assert str(e.value) == (f"Input 1 with name 'b' of layer '{m.name}' is incompatible with the layer: expected "
                            "shape=(None, 2), found shape=(1, 5)")


def test_trailing_unit_axis_is_squeezed_or_added_as_keras_does():
    i = tf.keras.Input((3, 1))
    assert tf.keras.Model(i, tf.keras.layers.Flatten()(i))(np.ones((2, 3), np.float32)).shape == (2, 3)
    m, _ = _model(units=1)
    assert m(np.ones((2, 3, 1), np.float32)).shape == (2, 1)
    with pytest.raises(ValueError, match=r"incompatible shape \(2, 3, 1, 1\)"):
        m(np.ones((2, 3, 1, 1), np.float32))


def test_dense_input_spec():
    d = tf.keras.layers.Dense(2)
    d(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError) as e:
        d(np.ones((2, 4), np.float32))
    assert str(e.value) == (f"Input 0 with name 'None' of layer '{d.name}' is incompatible with the layer: expected "
                            "axis -1 of input shape to have value 3, but received input with shape (2, 4)")
    with pytest.raises(ValueError) as e:
        d(np.ones(3, np.float32))
    assert str(e.value).endswith("expected min_ndim=2, found ndim=1. Full shape received: (3,)")
    s = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"^Exception encountered when calling Sequential.call\(\).\n\n\x1b\[1mInput "
                                         r"0 with name 'None' of layer 'dense\w*' is incompatible"):
        s(np.ones((2, 4), np.float32))


# ----------------------------------------------------------------------------------- bounded .keras loading

def _small_keras(path):
    inp = tf.keras.Input((3,))
    tf.keras.Model(inp, tf.keras.layers.Dense(2)(inp)).save(path)
    return path


def _replace_member(path, member, data, compress=zipfile.ZIP_STORED):
    """Rewrites the zip at `path` with `member`'s bytes replaced by `data`."""
    with zipfile.ZipFile(path) as zf:
        members = [(i, zf.read(i.filename)) for i in zf.infolist()]
    with zipfile.ZipFile(path, "w") as zf:
        for info, old in members:
            if info.filename == member:
                zf.writestr(zipfile.ZipInfo(member), data, compress_type=compress)
            else:
                zf.writestr(info, old)


def _claim_size(path, member, size):
    """Patches the zip's local and central headers so that `member` claims `size` uncompressed bytes."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    with zipfile.ZipFile(path) as zf:
        struct.pack_into("<I", data, zf.getinfo(member).header_offset + 22, size)
    pos = data.find(b"PK\x01\x02")
    while pos != -1:
        n = struct.unpack_from("<H", data, pos + 28)[0]
        if data[pos + 46:pos + 46 + n] == member.encode():
            struct.pack_into("<I", data, pos + 24, size)
        pos = data.find(b"PK\x01\x02", pos + 46)
    with open(path, "wb") as f:
        f.write(bytes(data))


_RSS_CHILD = """
import resource, sys
import tfcompat as tf
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for path in sys.argv[1:]:
    try:
        tf.keras.models.load_model(path)
        print("loaded", path)
    except ValueError as e:
        print("ValueError", str(e).split(":")[0] + ":", str(e).split("'")[1])
print("growth_kib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_keras_zip_bombs_are_refused_with_bounded_memory(tmp_path):
    weights_bomb = _small_keras(str(tmp_path / "weights_bomb.keras"))
    _replace_member(weights_bomb, "model.weights.h5", os.urandom(2 << 20))    # a 2 MB member...
    _claim_size(weights_bomb, "model.weights.h5", 3 << 30)                    # ...claiming 3 GiB
    config_bomb = _small_keras(str(tmp_path / "config_bomb.keras"))
    _claim_size(config_bomb, "config.json", 1536 << 20)
    honest = _small_keras(str(tmp_path / "honest.keras"))                     # 80 MiB of JSON in ~80 KB
    _replace_member(honest, "config.json", b" " * (80 << 20), zipfile.ZIP_DEFLATED)
    assert os.path.getsize(honest) < 1 << 20
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _RSS_CHILD, weights_bomb, config_bomb, honest],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[:3] == [f"ValueError Refusing to load {weights_bomb}: model.weights.h5",
                         f"ValueError Refusing to load {config_bomb}: config.json",
                         f"ValueError Refusing to load {honest}: config.json"]
    assert int(lines[3].split()[1]) < 64 << 10          # peak RSS grew by less than 64 MiB
    assert time.perf_counter() - start < 60


def test_refusal_message_names_file_member_and_sizes(tmp_path):
    path = _small_keras(str(tmp_path / "m.keras"))
    _claim_size(path, "config.json", 1536 << 20)
    with pytest.raises(ValueError) as e:
        tf.keras.models.load_model(path)
    assert str(e.value) == (f"Refusing to load {path}: its member 'config.json' holds 1610612736 bytes uncompressed, "
                            "more than the 67108864 bytes a model config may have (a corrupt or malicious file?)")


def test_a_weights_member_out_of_proportion_is_refused_but_a_real_one_loads(tmp_path):
    path = _small_keras(str(tmp_path / "m.keras"))
    assert tf.keras.models.load_model(path).count_params() == 8
    _replace_member(path, "model.weights.h5", bytes(40 << 20), zipfile.ZIP_DEFLATED)   # 40 MiB for 8 floats
    with pytest.raises(ValueError, match=r"^Refusing to load .*'model.weights.h5' holds 41943040 bytes .* the model's "
                                         r"weight shapes declare"):
        tf.keras.models.load_model(path)


def test_a_member_whose_header_lies_is_a_clean_error(tmp_path):
    path = _small_keras(str(tmp_path / "m.keras"))
    with zipfile.ZipFile(path) as zf:
        size = zf.getinfo("config.json").file_size
    _claim_size(path, "config.json", size - 10)        # the stream then fails its CRC
    with pytest.raises(ValueError, match=r"^Cannot load .*: its member 'config.json' is corrupt"):
        tf.keras.models.load_model(path)


def test_weights_h5_claiming_a_huge_dataset_is_refused_before_reading(tmp_path):
    import h5py
    path = _small_keras(str(tmp_path / "m.keras"))
    with zipfile.ZipFile(path) as zf:
        h5_bytes = zf.read("model.weights.h5")
    buf = io.BytesIO(h5_bytes)
    with h5py.File(buf, "r+") as h5:
        kernel = "layers/dense/vars/0"
        del h5[kernel]
        h5.create_dataset(kernel, shape=(1 << 20, 1 << 20), dtype="f8", compression="gzip", chunks=(1024, 1024))
    _replace_member(path, "model.weights.h5", buf.getvalue())
    with pytest.raises(ValueError, match=r"value.shape=\(1048576, 1048576\)"):
        tf.keras.models.load_model(path)


# ------------------------------------------------------------------------------- decoder fuzz against TF

def _fuzz_tool():
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "tools", "record_decoder_fuzz.py")
    spec = importlib.util.spec_from_file_location("record_decoder_fuzz", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_FUZZ = _fuzz_tool()
with gzip.open(_FUZZ.FIXTURE, "rt") as _f:
    _CASES = json.load(_f)["cases"]


def _tf_class(recorded):
    # TF's eager runtime fails to decode a kernel error message that quotes non-UTF-8 input bytes and raises
    # UnicodeDecodeError instead of the kernel's InvalidArgumentError; tfcompat raises the latter.
    return "InvalidArgumentError" if recorded == "UnicodeDecodeError" else recorded


# Cases (indices into a decoder's 200) where tfcompat is known to differ from TF, kept exact so that any change
# shows (none at present).
_KNOWN_DIFFERENCES = {}


@pytest.mark.parametrize("decoder", list(_FUZZ.CALLS))
def test_fuzzed_inputs_give_tf_outcomes(decoder, tmp_path):
    """200 seeded mutations of valid encodings per decoder (tools/record_decoder_fuzz.py): same outcome as
    TF 2.21: the same exception class, or the same result digest when TF succeeds."""
    exact = _FUZZ.EXACT.get(decoder, True)
    cases = [(base64.b64decode(data), want) for name, data, want in _CASES if name == decoder]
    assert len(cases) == _FUZZ.PER_DECODER
    differ = []
    for i, (data, want) in enumerate(cases):
        got = _FUZZ.outcome(tf, decoder, data, str(tmp_path))
        want = _tf_class(want)
        if not exact:
            got, want = got.split(":")[0], want.split(":")[0]
        if got != want:
            differ.append((i, f"#{i} {data[:40]!r}: tf {want}, tfcompat {got}"))
        assert not got.startswith(("MemoryError", "RuntimeError", "TypeError", "EOFError", "UnicodeDecodeError"))
    known = _KNOWN_DIFFERENCES.get(decoder, set())
    new = [text for i, text in differ if i not in known]
    assert not new, f"{len(new)} of {len(cases)} differ:\n" + "\n".join(new[:15])
    assert {i for i, _ in differ} == known          # a fixed difference: drop it from _KNOWN_DIFFERENCES


# ------------------------------------------------------------------------------------- bounded TFRecords

def _record(data, length=None):
    from tfcompat.util.crc32c import crc32c, mask
    head = struct.pack("<Q", len(data) if length is None else length)
    return head + struct.pack("<I", mask(crc32c(head))) + data + struct.pack("<I", mask(crc32c(data)))


def _read_tfrecords(tmp_path, data, compression=None):
    path = tmp_path / "r.tfrecord"
    path.write_bytes(data)
    return [r.numpy() for r in tf.data.TFRecordDataset(str(path), compression_type=compression)]


_ITER = ("{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/replica:0/task:0/device:"
         "CPU:0}} ")


@pytest.mark.parametrize("compression, pack, eof", [
    (None, lambda b: b, "Read less bytes than requested"),
    ("GZIP", lambda b: gzip.compress(b, mtime=0), "EOF reached"),
    ("ZLIB", zlib.compress, "EOF reached"),
])
def test_a_huge_record_length_is_data_loss_without_allocating(tmp_path, compression, pack, eof):
    data = _record(b"ok") + _record(b"abc", length=1 << 60)[:12] + bytes(1000)
    tracemalloc.start()
    with pytest.raises(errors.DataLossError) as e:
        _read_tfrecords(tmp_path, pack(data), compression)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert str(e.value) == _ITER + f"truncated record at 18' failed with {eof} [Op:IteratorGetNext] name: "
    assert peak < 8 << 20


def test_a_gzip_bomb_is_read_block_by_block(tmp_path):
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = _record(b"", length=1 << 40)[:12]              # a record claiming 1 TiB...
    bomb = comp.compress(head) + comp.compress(bytes(32 << 20)) + comp.flush()    # ...of which 32 MiB exist
    assert len(bomb) < 64 << 10
    with pytest.raises(errors.DataLossError, match="truncated record at 0' failed with EOF reached"):
        _read_tfrecords(tmp_path, bomb, "GZIP")


def test_compressed_record_files_as_tf_reads_them(tmp_path):
    one, two = _record(b"abc"), _record(b"de")
    assert _read_tfrecords(tmp_path, gzip.compress(one) + gzip.compress(two), "GZIP") == [b"abc", b"de"]
    assert _read_tfrecords(tmp_path, zlib.compress(one) + zlib.compress(two), "ZLIB") == [b"abc"]
    assert _read_tfrecords(tmp_path, zlib.compress(one) + b"garbage", "ZLIB") == [b"abc"]
    assert _read_tfrecords(tmp_path, b"", "GZIP") == []
    for data in (gzip.compress(one) + b"garbage", b"\x1f\x8c" + gzip.compress(one)[2:]):
        with pytest.raises(errors.DataLossError) as e:
            _read_tfrecords(tmp_path, data, "GZIP")
        assert str(e.value) == _ITER + ("inflate() failed with error -3: incorrect header check "
                                        "[Op:IteratorGetNext] name: ")


# ------------------------------------------------------------------------------- tf.function retracing

_RETRACE_TAIL = (" triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could "
                 "be due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, "
                 "(3) passing Python objects instead of tensors. For (1), please define your @tf.function outside of "
                 "the loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary "
                 "retracing. For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing "
                 "and https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


def _retrace_warnings(caplog, calls):
    import logging
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        calls()
    return [r.getMessage() for r in caplog.records if "retracing" in r.getMessage()]


def test_frequent_retracing_warns_as_tf(caplog):
    def f(x):
        return x + 1
    fn = tf.function(f)
    assert _retrace_warnings(caplog, lambda: [fn(i) for i in range(8)]) == [
        f"5 out of the last 5 calls to {f}" + _RETRACE_TAIL, f"6 out of the last 6 calls to {f}" + _RETRACE_TAIL]

    def g(x):
        return x * 2
    gn = tf.function(g)
    assert _retrace_warnings(caplog, lambda: [gn(i) for i in (1, 1, 1, 2, 3, 4, 5, 6)]) == [
        f"5 out of the last 7 calls to {g}" + _RETRACE_TAIL, f"6 out of the last 8 calls to {g}" + _RETRACE_TAIL]

    def h(x):
        return x - 1
    assert len(_retrace_warnings(caplog, lambda: [tf.function(h)(tf.constant(1.0)) for _ in range(7)])) == 2

    def k(x):
        return x * 3
    kn = tf.function(k)          # retracing now and then, among many calls: no warning
    assert _retrace_warnings(caplog, lambda: [kn(i // 20) for i in range(200)]) == []


def test_compressed_fixed_length_records_stream(tmp_path):
    path = tmp_path / "r.bin"
    for kind, pack in (("GZIP", gzip.compress), ("ZLIB", zlib.compress)):
        path.write_bytes(pack(b"abcdefgh"))
        got = [x.numpy() for x in tf.data.FixedLengthRecordDataset(str(path), 4, compression_type=kind)]
        assert got == [b"abcd", b"efgh"]


def _fixed_length_records(path, data, kind, n, header=None, footer=None):
    """The records read before the error, and the error's class and text after the device prefix."""
    path.write_bytes({"GZIP": gzip.compress, "": bytes}[kind](data))
    got = []
    try:
        for x in tf.data.FixedLengthRecordDataset(str(path), n, header, footer, compression_type=kind):
            got.append(x.numpy())
    except errors.OpError as e:
        return got, type(e).__name__, str(e).partition("} ")[2]
    return got


def test_fixed_length_records_are_read_one_at_a_time_as_tf(tmp_path):
    path = tmp_path / "r.bin"
    bad = (f'Excluding the header (1 bytes) and footer (1 bytes), input file "{path}" has body length 9 bytes, which is '
           f"not an exact multiple of the record length (4 bytes). [Op:IteratorGetNext] name: ")
    # TF 2.21: a compressed file yields its whole records before the length error; a plain file fails first
    assert _fixed_length_records(path, b"abcdefghijk", "GZIP", 4, 1, 1) == ([b"bcde", b"fghi"], "DataLossError", bad)
    assert _fixed_length_records(path, b"abcdefghijk", "", 4, 1, 1) == ([], "InvalidArgumentError", bad)
    assert _fixed_length_records(path, b"abcdefghij", "GZIP", 4, 1, 1) == [b"bcde", b"fghi"]
    assert _fixed_length_records(path, b"a", "", 4, 2)[2].startswith(      # TF's unsigned arithmetic
        "Excluding the header (2 bytes) and footer (0 bytes), input file")
    assert "has body length 18446744073709551615 bytes" in _fixed_length_records(path, b"a", "", 4, 2)[2]
    assert _fixed_length_records(path, b"a", "GZIP", 4, 2)[1] == "InternalError"        # TF: EOF inside the header
    path.write_bytes(gzip.compress(bytes(64 << 20), 9))                    # 64 MiB inflated: read a record at a time
    tracemalloc.start()
    first = next(iter(tf.data.FixedLengthRecordDataset(str(path), 1024, compression_type="GZIP")))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert first.numpy() == bytes(1024) and peak < 16 << 20


def _png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_a_png_declaring_a_huge_interlaced_image_is_refused_within_its_data():
    ihdr = struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 1)          # 3.6 GB of interlaced gray pixels
    idat = zlib.compress(bytes(8 << 20), 9)                              # of which 8 MiB exist
    png = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")
    tracemalloc.start()
    with pytest.raises(errors.InvalidArgumentError, match=f"Invalid PNG data, size {len(png)}"):
        tf.io.decode_png(png)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 << 20
