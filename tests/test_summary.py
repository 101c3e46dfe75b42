"""tf.summary: event files as TF 2.21 writes them, read back with TensorBoard's own reader and server.

Golden values: sha256 (first 24 hex digits) of each event's serialized `Summary` in files written by
TF 2.21 (with tensorboard 2.21) from the same inputs, and TF's messages.
"""
import glob
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import numpy as np
import pytest
from tensorboard.backend.event_processing import event_accumulator
from tensorboard.backend.event_processing import event_file_loader
from tensorboard.compat.proto import event_pb2

import tfcompat as tf
from tfcompat.util.crc32c import crc32c
from tfcompat.util.records import masked_crc32c


def _events(logdir):
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    return [event_pb2.Event.FromString(r) for r in event_file_loader.RawEventFileLoader(path).Load()]


def _digests(logdir):
    return [(e.summary.value[0].tag, e.step, hashlib.sha256(e.summary.SerializeToString()).hexdigest()[:24])
            for e in _events(logdir)[1:]]


# -- byte-level equality with TF --------------------------------------------------------------------------------------
GOLDEN_BASIC = [
    ("loss", 3, "681c1654b4f1bfce3db919a4"), ("loss_int", 4, "f8aa68fe615ed939914b72da"),
    ("loss_f64", 5, "50ca0de5f5a9242a9bce7ca6"), ("h", 1, "5011ba3ee5833a8fced5e18d"),
    ("h1", 1, "fc1f6ffca880cd068ac9537a"), ("h0", 1, "3cbc79e918205451f5bdda86"),
    ("hint", 1, "f974cb8fd1ae9669dd0fb83b"), ("hb", 1, "ba029520982bfb58d1e365a6"),
    ("hb0", 1, "99378ed07944cd86f6753677"), ("hb1", 1, "848bf005c5739a869c1fe964"),
    ("hd", 1, "e8898c8d94bc4414256ababe"), ("img", 2, "264fdceed2770f71c07c5c9f"),
    ("imgf", 2, "cc6912a352833ffcb900e4f5"), ("imgmax", 2, "b93f55cd641a387c9e695fff"),
    ("t", 6, "0bead87c7049b5d03ef70191"), ("t2", 6, "010c55f562c7f8622b6be1aa"),
    ("a", 7, "ff66646f3ec0b74cff89fbc1"), ("gen", 8, "b7132b44934f4a9ddfdbb0da"),
    ("gen2", 9, "22522581a0f3125d63a72443"),
]


def test_summaries_match_tf_bytes(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default():
        assert bool(tf.summary.scalar("loss", 0.5, step=3))
        tf.summary.scalar("loss_int", 7, step=4)
        tf.summary.scalar("loss_f64", np.float64(1.25), step=5)
        tf.summary.histogram("h", [1.0, 2.0, 3.0, 10.0, -4.0], step=1)
        tf.summary.histogram("h1", [5.0, 5.0], step=1)
        tf.summary.histogram("h0", tf.zeros([0]), step=1)
        tf.summary.histogram("hint", tf.constant([[1, 2], [3, 4]]), step=1)
        tf.summary.histogram("hb", [1.0, 2.0, 3.0], step=1, buckets=4)
        tf.summary.histogram("hb0", [1.0, 2.0, 3.0], step=1, buckets=0)
        tf.summary.histogram("hb1", [1.0, 2.0, 3.0], step=1, buckets=1)
        tf.summary.histogram("hd", [1.0, 2.0, 3.0], step=1, description="desc")
        tf.summary.image("img", np.arange(2 * 3 * 4 * 3, dtype=np.uint8).reshape(2, 3, 4, 3), step=2)
        tf.summary.image("imgf", np.linspace(0, 1, 4, dtype=np.float32).reshape(1, 2, 2, 1), step=2)
        tf.summary.image("imgmax", np.zeros((5, 2, 2, 4), np.uint8), step=2, max_outputs=2)
        tf.summary.text("t", "hello", step=6)
        tf.summary.text("t2", ["a", "bb"], step=6)
        clips = np.sin(np.linspace(0, 6, 20)).reshape(2, 10, 1).astype(np.float32)
        tf.summary.audio("a", clips, 8000, step=7)
        tf.summary.write("gen", tf.constant([1, 2, 3]), step=8, metadata=b"")
        tf.summary.write("gen2", tf.constant(1.5), step=9)
    w.close()
    assert _digests(str(tmp_path)) == GOLDEN_BASIC


GOLDEN_MORE = [
    ("rand", 1, "4d3205d2615dca701a88a327"), ("smooth", 1, "71b1dc109222eb98937abef5"),
    ("f64", 1, "5dec861c1edceac55213ae89"), ("i32", 1, "aa3bb53fa855529c4ba583e4"),
    ("u16", 1, "78c3512c094f908b77b4cb43"), ("i8", 1, "b7370d9a19fd8fee1d2d6da8"),
    ("row1", 1, "17526b61cb67b4a7fc50ad55"), ("col1", 1, "57e8ed70be8c9cb7f097f12e"),
    ("px1", 1, "c5815e99c7106c885e3cca94"), ("f16", 1, "d41bfe26bf9221869fd66e95"),
    ("stereo", 1, "7d182409d8004a40248f6e4f"), ("big", 1, "d22644ca817f1ce3c1dccd4a"),
    ("neg", 1, "42d934eb69091bf0344e4a14"), ("neg_step", -7, "e600b48e967106f48b00d95b"),
    ("big_step", 1099511627776, "3c30b867da69cf5effa3c1db"), ("inf", 0, "0dbecce0042370ab826fe04e"),
    ("bool", 0, "242731a813256c2a6dcc7112"), ("bigint", 0, "53095338ae7bf4a649058797"),
    ("uni", 0, "55a3f9c6d65884f474ed6f41"), ("mat", 0, "367db397220f276830c6d6d8"),
    ("f64", 0, "0d6fd6f5fe5c393713d7148f"), ("b", 0, "0613c63b8c2dac4dda504e43"),
    ("h", 0, "9684683cca0c666e858428a6"), ("i64", 0, "48b23272e09df38adf80fdc1"),
    ("meta", 0, "64a6f172919e3343b2e61f96"), ("empty", 0, "536378e29ceef36164538083"),
    ("nan2", 1, "f0a418fa863ca4b5b02f06a6"), ("inf", 1, "59d77b72f0a9d190087714f0"),
]


def _images():
    rs = np.random.RandomState(0)
    yield "rand", rs.randint(0, 256, size=(2, 70, 90, 3)).astype(np.uint8)      # > 16 KiB: several IDAT chunks
    yield "smooth", (np.add.outer(np.arange(100), np.arange(120))[None, :, :, None] % 256
                     ).astype(np.uint8).repeat(4, axis=3)
    yield "f64", np.linspace(-0.2, 1.2, 3 * 5 * 7 * 2).reshape(3, 5, 7, 2)
    yield "i32", np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1) * 150000000 - 10
    yield "u16", np.arange(27, dtype=np.uint16).reshape(1, 3, 3, 3) * 2000
    yield "i8", (np.arange(9, dtype=np.int8).reshape(1, 3, 3, 1) * 30 - 100).astype(np.int8)
    yield "row1", np.arange(27, dtype=np.uint8).reshape(1, 1, 9, 3) * 7
    yield "col1", np.arange(9, dtype=np.uint8).reshape(1, 9, 1, 1) * 7
    yield "px1", np.full((1, 1, 1, 3), 200, np.uint8)
    yield "f16", np.linspace(0, 1, 18).reshape(2, 3, 3, 1).astype(np.float16)


def test_more_dtypes_and_edge_cases_match_tf_bytes(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default(step=1):
        for name, img in _images():
            tf.summary.image(name, img, max_outputs=5)
        rs = np.random.RandomState(1)
        tf.summary.audio("stereo", rs.uniform(-1.2, 1.2, size=(2, 50, 2)).astype(np.float32), 44100)
        tf.summary.histogram("big", rs.normal(size=1000), buckets=17)
        tf.summary.histogram("neg", -rs.uniform(size=100).astype(np.float32))
        tf.summary.scalar("neg_step", 3.0, step=-7)
        tf.summary.scalar("big_step", 3.0, step=2 ** 40)
        tf.summary.scalar("inf", float("inf"), step=0)
        tf.summary.scalar("bool", True, step=0)
        tf.summary.scalar("bigint", 2 ** 40 + 1, step=0)
        tf.summary.text("uni", "héllo", step=0)
        tf.summary.text("mat", [["a", "b"], ["c", ""]], step=0)
        tf.summary.write("f64", np.arange(3.0), step=0)
        tf.summary.write("b", [True, False], step=0)
        tf.summary.write("h", np.arange(3).astype(np.float16), step=0)
        tf.summary.write("i64", np.arange(3), step=0)
        tf.summary.write("meta", 1.0, step=0, metadata=b"\x0a\x05\x0a\x03foo")
        tf.summary.write("empty", np.zeros((0, 2), np.float32), step=0)
        tf.summary.histogram("nan2", [1.0, 2.0, 3.0, float("nan")], step=1)     # NaN is left out of the counts
        tf.summary.histogram("inf", [1.0, 2.0, float("inf")], step=1)
    w.close()
    assert _digests(str(tmp_path)) == GOLDEN_MORE


# -- file layout --------------------------------------------------------------------------------------------------------
def test_file_name_first_event_and_framing(tmp_path):
    before = int(time.time())
    w1 = tf.summary.create_file_writer(str(tmp_path / "a"))
    w2 = tf.summary.create_file_writer(str(tmp_path / "b"), filename_suffix=".foo")
    (n1,) = os.listdir(tmp_path / "a")
    (n2,) = os.listdir(tmp_path / "b")
    pat = r"events\.out\.tfevents\.(\d{10})\.%s\.%d\.(\d+)%s"
    m1 = re.fullmatch(pat % (re.escape(socket.gethostname()), os.getpid(), r"\.v2"), n1)
    m2 = re.fullmatch(pat % (re.escape(socket.gethostname()), os.getpid(), r"\.foo"), n2)
    assert m1 and m2 and int(m2.group(2)) == int(m1.group(2)) + 1
    assert before <= int(m1.group(1)) <= time.time()
    # the file_version event is on disk as soon as the writer exists (78 bytes, as TF writes it)
    path = os.path.join(tmp_path, "a", n1)
    assert os.path.getsize(path) == 78
    data = open(path, "rb").read()
    length = int.from_bytes(data[:8], "little")
    assert int.from_bytes(data[8:12], "little") == masked_crc32c(data[:8])
    assert int.from_bytes(data[12 + length:16 + length], "little") == masked_crc32c(data[12:12 + length])
    first = event_pb2.Event.FromString(data[12:12 + length])
    assert first.file_version == "brain.Event:2" and first.wall_time == int(m1.group(1))
    assert first.source_metadata.writer == "tensorflow.core.util.events_writer"
    w1.close()
    w2.close()


def test_crc32c():
    assert crc32c(b"123456789") == 0xE3069283
    assert crc32c(b"") == 0
    assert crc32c(bytes(32)) == 0x8A9136AA                      # RFC 3720 test vector


# -- TensorBoard's reader finds everything ------------------------------------------------------------------------------
def test_event_accumulator_reads_everything(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default():
        for step in range(5):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
            tf.summary.histogram("weights", np.arange(10.0) * step, step=step)
        tf.summary.image("pics", np.full((2, 4, 6, 3), 0.5, np.float32), step=3)
        tf.summary.text("notes", "**bold**", step=4)
        tf.summary.audio("sound", np.zeros((1, 80, 1), np.float32), 16000, step=2)
    w.close()
    acc = event_accumulator.EventAccumulator(str(tmp_path), size_guidance={"tensors": 0})
    acc.Reload()
    tags = acc.Tags()["tensors"]
    assert sorted(tags) == ["loss", "notes", "pics", "sound", "weights"]
    assert [e.step for e in acc.Tensors("loss")] == [0, 1, 2, 3, 4]
    from tensorboard.util import tensor_util
    values = [tensor_util.make_ndarray(e.tensor_proto) for e in acc.Tensors("loss")]
    np.testing.assert_array_equal(values, np.float32([1.0, 0.5, 1 / 3, 0.25, 0.2]))
    assert acc.SummaryMetadata("loss").plugin_data.plugin_name == "scalars"
    hist = tensor_util.make_ndarray(acc.Tensors("weights")[2].tensor_proto)
    assert hist.shape == (30, 3) and hist[:, 2].sum() == 10 and hist[0, 0] == 0 and hist[-1, 1] == 18
    assert acc.SummaryMetadata("weights").plugin_data.plugin_name == "histograms"
    (img_event,) = acc.Tensors("pics")
    img = tensor_util.make_ndarray(img_event.tensor_proto)
    assert img_event.step == 3 and list(img[:2]) == [b"6", b"4"] and len(img) == 4
    assert img[2].startswith(b"\x89PNG\r\n\x1a\n")
    import zlib
    raw = zlib.decompress(img[2][41:-16])      # IDAT payload of the only IDAT chunk: Sub-filtered 0.5*255.5
    assert raw[:19] == bytes([1, 127, 127, 127] + [0] * 15) and acc.SummaryMetadata("pics").plugin_data.plugin_name == "images"
    (text_event,) = acc.Tensors("notes")
    assert text_event.step == 4 and tensor_util.make_ndarray(text_event.tensor_proto) == b"**bold**"
    assert acc.SummaryMetadata("notes").plugin_data.plugin_name == "text"
    (sound,) = acc.Tensors("sound")
    wav = tensor_util.make_ndarray(sound.tensor_proto)
    assert wav.shape == (1, 2) and wav[0, 0][:4] == b"RIFF" and wav[0, 1] == b""


def test_plugins_read_back_values(tmp_path):
    """The dashboards' own data providers (via the multiplexer) see the scalars as written."""
    from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
    w = tf.summary.create_file_writer(str(tmp_path / "run1"))
    with w.as_default(step=7):
        tf.summary.scalar("acc", 0.75)
    w.close()
    mux = pem.EventMultiplexer({"run1": str(tmp_path / "run1")})
    mux.Reload()
    (e,) = mux.Tensors("run1", "acc")
    assert e.step == 7 and e.tensor_proto.tensor_content == np.float32(0.75).tobytes()


# -- API behaviour (TF 2.21's returns and messages) ---------------------------------------------------------------------
def test_returns_and_step_errors(tmp_path):
    r = tf.summary.scalar("x", 1.0, step=1)
    assert r.dtype == tf.bool and not bool(r)            # no default writer
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default() as ctx:
        assert ctx is w
        with pytest.raises(ValueError, match=re.escape(
                "No step set. Please specify one either through the `step` argument or through "
                "tf.summary.experimental.set_step()")):
            tf.summary.scalar("x", 1.0)
        with pytest.raises(ValueError, match=re.escape("Expected scalar shape, saw shape: (2,).")):
            tf.summary.scalar("v", [1.0, 2.0], step=1)
        with pytest.raises(ValueError, match=re.escape(
                "Argument `step` must be a scalar. Received step with shape (2,).")):
            tf.summary.scalar("v", 1.0, step=[1, 2])
        with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int64"):
            tf.summary.scalar("v", 1.0, step=1.5)
        with pytest.raises(TypeError, match=re.escape("tensor must be of type tf.string; got tf.int32")):
            tf.summary.text("v", 1, step=1)
        with pytest.raises(ValueError, match=re.escape(
                "Tensor  must have rank 4.  Received rank 3, shape (2, 2, 3)")):
            tf.summary.image("v", np.zeros((2, 2, 3), np.uint8), step=1)
        with pytest.raises(ValueError, match="Unknown encoding: 'mp3'"):
            tf.summary.audio("v", np.zeros((1, 2, 1), np.float32), 100, step=1, encoding="mp3")
        with pytest.raises(tf.errors.InvalidArgumentError, match="image must have 1, 2, 3, or 4 channels, got 5"):
            tf.summary.image("v", np.zeros((1, 2, 2, 5), np.uint8), step=1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor but is a double"):
            tf.summary.audio("v", np.zeros((1, 2, 1)), 100, step=1)
        assert bool(tf.summary.scalar("st", 1.0, step=tf.Variable(4, dtype=tf.int64)))
        assert bool(tf.summary.should_record_summaries())
    assert not bool(tf.summary.should_record_summaries())
    with pytest.raises(ValueError, match=re.escape("Invalid argument to flush(): 3")):
        tf.summary.flush(3)
    assert tf.summary.flush() is None
    w.close()
    w.close()                                              # closing twice is fine, as in TF
    w.flush()
    for call in (w.as_default, w.set_as_default, w.init):
        with pytest.raises(RuntimeError, match="is already closed"):
            call()
    with pytest.raises(ValueError, match="Argument `logdir` cannot be None"):
        tf.summary.create_file_writer(None)


def test_default_step_record_if_and_scopes(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default(step=5):
        assert tf.summary.experimental.get_step() == 5
        with tf.summary.record_if(False):
            assert not bool(tf.summary.scalar("off", 1.0))
            assert not bool(tf.summary.should_record_summaries())
        with tf.summary.record_if(lambda: False):
            assert not bool(tf.summary.histogram("off2", [1.0]))
        with tf.name_scope("outer"):
            assert bool(tf.summary.scalar("in/ner", 2.0))
            with tf.summary.experimental.summary_scope("a b", "Def") as (tag, scope):
                assert (tag, scope) == ("outer/a b", "outer/ab/")
        with tf.summary.experimental.summary_scope(None, "Def") as pair:
            assert pair == ("Def", "Def/")
    assert tf.summary.experimental.get_step() is None
    w.set_as_default(step=9)
    try:
        assert bool(tf.summary.scalar("late", 3.0))
    finally:
        tf.summary.create_noop_writer().set_as_default()
        tf.summary.experimental.set_step(None)
        from tfcompat.summary import _state
        _state.writer = None
    w.close()
    events = _events(str(tmp_path))[1:]
    assert [(e.summary.value[0].tag, e.step) for e in events] == [("outer/in/ner", 5), ("late", 9)]


def test_noop_writer_and_unsupported():
    n = tf.summary.create_noop_writer()
    with n.as_default(step=3) as x:
        assert x is None
        assert not bool(tf.summary.scalar("x", 1.0))
    assert isinstance(n, tf.summary.SummaryWriter)
    for fn in (tf.summary.trace_on, tf.summary.trace_off, lambda: tf.summary.trace_export("t")):
        with pytest.raises(NotImplementedError, match="not supported"):
            fn()
    with pytest.raises(NotImplementedError, match="experimental_trackable"):
        tf.summary.create_file_writer("/nonexistent/never", experimental_trackable=True)


def test_write_after_close_and_callable_tensor(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default(step=1):
        calls = []
        with tf.summary.record_if(False):
            tf.summary.write("lazy", lambda: calls.append(1) or tf.constant(1.0))
        assert calls == []
        assert bool(tf.summary.write("lazy", lambda: tf.constant([2.0])))
        w.close()
        with pytest.raises(tf.errors.NotFoundError, match="does not exist"):
            tf.summary.scalar("x", 1.0)


# -- queueing and flushing ---------------------------------------------------------------------------------------------
def test_queue_flushes_after_max_queue(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))           # max_queue=10, as TF
    (path,) = glob.glob(str(tmp_path / "events*"))
    with w.as_default(step=5):
        for _ in range(10):
            tf.summary.scalar("a", 1.0)
        assert os.path.getsize(path) == 78
        tf.summary.scalar("a", 1.0)                            # the 11th event flushes the queue (TF: 727 bytes)
        assert os.path.getsize(path) == 727
        tf.summary.scalar("a", 1.0)
    assert os.path.getsize(path) == 786                         # as_default's exit flushes
    w0 = tf.summary.create_file_writer(str(tmp_path / "q0"), max_queue=0)
    (p0,) = glob.glob(str(tmp_path / "q0" / "events*"))
    with w0.as_default(step=1):
        tf.summary.scalar("x", 1.0)
        assert os.path.getsize(p0) == 137
    w.close()
    w0.close()


def test_background_flush_every_flush_millis(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path), flush_millis=50)
    (path,) = glob.glob(str(tmp_path / "events*"))
    with w.as_default(step=1):
        tf.summary.scalar("x", 1.0)
        deadline = time.time() + 5
        while os.path.getsize(path) == 78 and time.time() < deadline:
            time.sleep(0.02)
        assert os.path.getsize(path) > 78                      # flushed by the background thread, no new write
    w.close()


def test_flush_on_garbage_collection_and_exit(tmp_path):
    import gc
    w = tf.summary.create_file_writer(str(tmp_path / "gc"))
    with tf.summary.record_if(True):
        w.set_as_default(step=1)
        tf.summary.scalar("x", 1.0)
        from tfcompat.summary import _state
        _state.writer = None
    del w
    gc.collect()
    assert [e.summary.value[0].tag for e in _events(str(tmp_path / "gc"))[1:]] == ["x"]
    code = ("import tfcompat as tf\n"
            f"w = tf.summary.create_file_writer({str(tmp_path / 'exit')!r})\n"
            "w.set_as_default(step=2)\n"
            "tf.summary.scalar('y', 3.0)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert [(e.summary.value[0].tag, e.step) for e in _events(str(tmp_path / "exit"))[1:]] == [("y", 2)]


def test_threads_write_concurrently(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path), max_queue=3)

    def work(k):
        with w.as_default():                                   # the default writer is per thread, as in TF
            for i in range(200):
                tf.summary.scalar(f"t{k}", float(i), step=i)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    w.close()
    events = _events(str(tmp_path))[1:]
    assert len(events) == 800
    for k in range(4):
        assert [e.step for e in events if e.summary.value[0].tag == f"t{k}"] == list(range(200))


# -- the real TensorBoard server ----------------------------------------------------------------------------------------
def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tensorboard_server_serves_scalars(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    with w.as_default():
        for step in range(4):
            tf.summary.scalar("loss", 2.0 - 0.5 * step, step=step)
    w.close()
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tensorboard.main", "--logdir", str(tmp_path), "--port", str(port),
         "--host", "127.0.0.1", "--load_fast=false"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/data/plugin/scalars/scalars?run=.&tag=loss"
        deadline = time.time() + 30
        series = None
        while time.time() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    series = json.loads(r.read())
                if series:
                    break
            except OSError:
                time.sleep(0.3)
        if not series:
            pytest.skip("tensorboard server did not start within 30 s")
        assert [(s, v) for _, s, v in series] == [(0, 2.0), (1, 1.5), (2, 1.0), (3, 0.5)]
    finally:
        proc.kill()
        proc.wait(timeout=10)
