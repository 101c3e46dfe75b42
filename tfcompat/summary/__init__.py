"""`tf.summary`: TensorBoard event files written as TF 2 writes them.

Summaries go to the thread's default writer (`writer.as_default()`), at an
explicit `step` or the one from `tf.summary.experimental.set_step`. Every summary
function returns a bool tensor: True when written, False when there is no
default writer or recording is off (`tf.summary.record_if`).
"""
import abc
import contextlib
import functools
import itertools
import struct
import threading
import time
import weakref

import numpy as np
import torch

import tfcompat as _tf
from tfcompat.framework import context as _context, dtypes as _dtypes, errors as _errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import type_name as _type_name
from tfcompat.framework.tensor import Tensor as _Tensor, storage as _storage
from tfcompat.summary import _proto
from tfcompat.summary._writer import EventFile as _EventFile
from tfcompat.util import encoders as _encoders

_pack_d = struct.Struct("<d").pack
_pack_f = struct.Struct("<f").pack
_NO_STEP = ("No step set. Please specify one either through the `step` argument or through "
            "tf.summary.experimental.set_step()")
_resource_ids = itertools.count()


class _SummaryState(threading.local):
    def __init__(self):
        self.writer = None
        self.step = None
        self.is_recording = None


_state = _SummaryState()


_TRUE = _tf.constant(True)      # what every summary op returns (tensors are immutable, so shared)
_FALSE = _tf.constant(False)


# -- writers ----------------------------------------------------------------------------------------------------------
class _SummaryContextManager:
    """`writer.as_default(step)`: makes `writer` (and `step`) the thread's defaults until exit."""

    def __init__(self, writer, step=None):
        self._writer = writer
        self._step = step
        self._old_writer = None
        self._old_step = None

    def __enter__(self):
        self._old_writer = _state.writer
        _state.writer = self._writer
        if self._step is not None:
            self._old_step = _state.step
            _state.step = self._step
        return self._writer

    def __exit__(self, *exc):
        _state.writer.flush()
        _state.writer = self._old_writer
        if self._step is not None:
            _state.step = self._old_step
        return False


@tf_export("summary.SummaryWriter")
class SummaryWriter(metaclass=abc.ABCMeta):  # noqa: B024 - TF's, also without abstract methods
    """Interface representing a stateful summary writer object."""

    def set_as_default(self, step=None):
        """Makes this writer (and `step`, if given) the current thread's default."""
        self.as_default(step).__enter__()

    def as_default(self, step=None):
        """A context manager making this writer (and `step`, if given) the default inside it."""
        return _SummaryContextManager(self, step)

    def init(self):
        """Initializes the summary writer."""
        raise NotImplementedError()

    def flush(self):
        """Flushes any buffered data."""
        raise NotImplementedError()

    def close(self):
        """Flushes and closes the summary writer."""
        raise NotImplementedError()


def _tf_repr(obj):
    return f"<tensorflow.python.ops.summary_ops_v2.{type(obj).__name__} object at {hex(id(obj))}>"


class _ResourceSummaryWriter(SummaryWriter):
    """A writer of one event file (what `tf.summary.create_file_writer` returns)."""

    __repr__ = _tf_repr

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        self._file = _EventFile(logdir, max_queue, flush_millis, filename_suffix)
        self._closed = False
        self._id = next(_resource_ids)
        weakref.finalize(self, self._file.close)     # flushes at collection and at interpreter exit

    def _check_open(self):
        if self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")

    def set_as_default(self, step=None):
        self._check_open()
        super().set_as_default(step)

    def as_default(self, step=None):
        self._check_open()
        return super().as_default(step)

    def init(self):
        """Creates the event file (done at construction already)."""
        self._check_open()

    def flush(self):
        """Writes the queued events to the file."""
        if not self._closed:
            self._file.flush()

    def close(self):
        """Flushes and closes the event file."""
        if not self._closed:
            self._closed = True
            self._file.close()

    def _add(self, event, now):
        if self._closed:
            raise _errors.op_error(
                _errors.NotFoundError, f"Resource localhost/_AnonymousVar{self._id}/"
                "N10tensorflow22SummaryWriterInterfaceE does not exist.", "WriteSummary")
        self._file.add(event, now)


class _NoopSummaryWriter(SummaryWriter):
    """A summary writer that does nothing, for create_noop_writer()."""

    __repr__ = _tf_repr

    def set_as_default(self, step=None):
        pass

    @contextlib.contextmanager
    def as_default(self, step=None):
        yield

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass


@tf_export("summary.create_file_writer", unsupported=("experimental_trackable", "experimental_mesh"))
def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    """A `SummaryWriter` writing a new event file in `logdir` (queue of `max_queue`=10, flushed every 120 s)."""
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    logdir = _string(logdir)
    max_queue = 10 if max_queue is None else int(max_queue)
    flush_millis = 120000 if flush_millis is None else int(flush_millis)
    filename_suffix = ".v2" if filename_suffix is None else _string(filename_suffix)
    return _ResourceSummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def _string(value):
    if isinstance(value, _Tensor):
        value = value.numpy()
    return value.decode() if isinstance(value, bytes) else str(value)


@tf_export("summary.create_noop_writer")
def create_noop_writer():
    """A summary writer that does nothing (a placeholder where code expects a writer)."""
    return _NoopSummaryWriter()


@tf_export("summary.flush")
def flush(writer=None, name=None):
    """Writes `writer`'s (default: the default writer's) queued summaries to storage."""
    del name
    if writer is None:
        writer = _state.writer
        if writer is None:
            return None
    if isinstance(writer, SummaryWriter):
        return writer.flush()
    raise ValueError("Invalid argument to flush(): %r" % (writer,))


# -- recording condition and step -----------------------------------------------------------------------------------
@tf_export("summary.record_if")
@contextlib.contextmanager
def record_if(condition):
    """Turns recording on or off (a bool, bool tensor or callable giving one) inside the context."""
    old = _state.is_recording
    try:
        _state.is_recording = condition
        yield
    finally:
        _state.is_recording = old


def _recording():
    cond = _state.is_recording
    if cond is None:
        return True
    if callable(cond):
        cond = cond()
    return bool(cond)


@tf_export("summary.should_record_summaries")
def should_record_summaries():
    """A bool tensor: True when a default writer exists and the `record_if` condition holds."""
    return _TRUE if _state.writer is not None and _recording() else _FALSE


def get_step():
    """The default summary step of this thread (set by `set_step` or `as_default(step=)`), or None."""
    return _state.step


def set_step(step):
    """Sets this thread's default summary step (an int64-castable value or variable; None unsets it)."""
    _state.step = step


def _step_value(step):
    """`step` as a Python int, checked as TF converts it (an int64 scalar)."""
    if type(step) is int:
        return step
    t = _tf.convert_to_tensor(step, dtype=_dtypes.int64)
    if t._num_elements() != 1:
        raise ValueError(f"Argument `step` must be a scalar. Received step with shape {t.shape}.")
    return int(t._array().reshape(-1)[0])


def _active_writer(step):
    """(writer, step as int) when a summary should be written now, else (None, None)."""
    writer = _state.writer
    if writer is None or not _recording():
        return None, None
    if step is None:
        step = _state.step
        if step is None:
            raise ValueError(_NO_STEP)
    return writer, _step_value(step)


def _tag(name, default_name):
    """The summary tag: `name` under the enclosing `tf.name_scope`s."""
    name = name or default_name
    scope = "/".join(s for s in _context.state.name_scope if s)
    return scope + "/" + name if scope else name


# -- writing ----------------------------------------------------------------------------------------------------------
def _event(step, summary):
    now = time.time()
    return b"\x09" + _pack_d(now) + (b"\x10" + _proto.varint(step) if step else b"") + summary, now


def _write(tag, make_tensor, step, metadata):
    """Writes `make_tensor()` (TensorProto bytes, built only when recording) under `tag`."""
    if step is not None:
        step = _step_value(step)
    writer, step = _active_writer(step)
    if writer is None:
        return _FALSE
    summary = _proto.field(b"\x2a", _proto.summary_value(tag.encode(), make_tensor(), metadata))
    writer._add(*_event(step, summary))
    return _TRUE


@functools.lru_cache(maxsize=1024)
def _metadata(plugin_name, content=b"", description=None):
    return _proto.plugin_metadata(plugin_name, content, description or "")


@tf_export("summary.write")
def write(tag, tensor, step=None, metadata=None, name=None):
    """Writes a generic tensor summary (`tensor` may be a callable, called only when recording)."""
    del name
    if metadata is None:
        metadata = b""
    elif hasattr(metadata, "SerializeToString"):
        metadata = metadata.SerializeToString()
    elif isinstance(metadata, str):
        metadata = metadata.encode()
    return _write(tag, lambda: _tensor_proto(tensor() if callable(tensor) else tensor), step, metadata)


def _tensor_proto(value):
    t = _tf.convert_to_tensor(value)
    s = _storage(t)
    enum = t.dtype.as_datatype_enum
    if type(s) is np.ndarray:
        return _proto.array_tensor_proto(enum, s)
    s = s.detach().cpu()
    if s.dtype is torch.bfloat16:
        s = s.view(torch.int16)
    return _proto.array_tensor_proto(enum, s.resolve_conj().numpy())


_SCALAR_TEMPLATES = {}       # (tag, description) -> (bytes before the float32 value, bytes after it)
_SCALAR_TENSOR = b"\x42\x0a\x08\x01\x12\x00\x22\x04"     # tensor{dtype: DT_FLOAT, tensor_shape{}, content: 4 bytes}


def _scalar_template(tag, description):
    key = (tag, description)
    template = _SCALAR_TEMPLATES.get(key)
    if template is None:
        meta = _proto.field(b"\x4a", _metadata("scalars", b"", description))
        tag_field = _proto.field(b"\x0a", tag.encode())
        value_len = len(tag_field) + len(_SCALAR_TENSOR) + 4 + len(meta)
        value_head = b"\x0a" + _proto.varint(value_len) + tag_field + _SCALAR_TENSOR
        summary_len = len(value_head) + 4 + len(meta)
        if len(_SCALAR_TEMPLATES) > 10000:
            _SCALAR_TEMPLATES.clear()
        template = _SCALAR_TEMPLATES[key] = (b"\x2a" + _proto.varint(summary_len) + value_head, meta)
    return template


def _float32_bytes(data):
    """`data` cast to a float32 scalar, as 4 little-endian bytes (TF's assert_scalar + cast)."""
    kind = type(data)
    if kind is float:
        try:
            return _pack_f(data)
        except OverflowError:
            pass
    elif kind is int and -16777216 <= data <= 16777216:
        return _pack_f(data)
    t = data if kind is _Tensor else _tf.convert_to_tensor(data)
    if t.ndim != 0:
        raise ValueError(f"Expected scalar shape, saw shape: {t.shape}.")
    if t.dtype is not _dtypes.float32:
        t = _tf.cast(t, _dtypes.float32)
    return _pack_f(_storage(t).item())


@tf_export("summary.scalar")
def scalar(name, data, step=None, description=None):
    """Writes a scalar summary (`data` cast to float32) for TensorBoard's Scalars dashboard."""
    value = _float32_bytes(data)
    if step is not None:
        step = _step_value(step)
    writer, step = _active_writer(step)
    if writer is None:
        return _FALSE
    head, tail = _scalar_template(_tag(name, "scalar_summary"), description)
    now = time.time()
    writer._add(b"\x09" + _pack_d(now) + (b"\x10" + _proto.varint(step) if step else b"") + head + value + tail,
                now)
    return _TRUE


@tf_export("summary.histogram")
def histogram(name, data, step=None, buckets=None, description=None):
    """Writes a histogram summary of `data`'s elements in `buckets` (default 30) equal-width buckets."""
    return _write(_tag(name, "histogram_summary"), lambda: _histogram_tensor(data, buckets), step,
                  _metadata("histograms", b"", description))


def _histogram_tensor(data, buckets):
    count = 30 if buckets is None else max(0, int(buckets))
    x = _tf.cast(_tf.convert_to_tensor(data), _dtypes.float64)._array().reshape(-1)
    if count == 0 or x.size == 0:
        table = np.zeros((count, 3))
    else:
        lo, hi = x.min(), x.max()
        span = hi - lo
        if span == 0:
            counts = np.zeros(count)
            counts[-1] = x.size
            table = np.stack([np.full(count, hi), np.full(count, hi), counts], axis=1)
        else:
            with np.errstate(invalid="ignore"):
                q = np.floor((x - lo) / (span / count))
                q = q[(q >= 0) & (q < 2.0 ** 31)]      # TF's int32 cast + one_hot drop NaN, inf and overflow
            index = np.minimum(q.astype(np.int64), count - 1)
            counts = np.bincount(index, minlength=count).astype(np.float64)
            with np.errstate(invalid="ignore"):
                edges = lo + np.arange(count + 1, dtype=np.float64) * (span / count)
            edges[0], edges[-1] = lo, hi                 # TF's linspace keeps both ends exact
            table = np.stack([edges[:-1], edges[1:], counts], axis=1)
    return _proto.array_tensor_proto(_proto.DT_DOUBLE, table)


@tf_export("summary.image")
def image(name, data, step=None, max_outputs=3, description=None):
    """Writes up to `max_outputs` images of `data` ([k, h, w, c]; uint8, or floats in [0, 1]) as PNGs."""
    return _write(_tag(name, "image_summary"), lambda: _image_tensor(data, max_outputs), step,
                  _metadata("images", b"", description))


def _image_tensor(data, max_outputs):
    t = _tf.convert_to_tensor(data)
    if t.ndim != 4:
        raise ValueError(f"Tensor  must have rank 4.  Received rank {t.ndim}, shape {tuple(t.shape)}")
    _check_max_outputs(max_outputs)
    images = _to_uint8(t._array())
    _, h, w, c = images.shape
    if c not in (1, 2, 3, 4):
        raise _errors.op_error(_errors.InvalidArgumentError,
                               "{{function_node __wrapped__EncodePng_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                               f"image must have 1, 2, 3, or 4 channels, got {c}", "EncodePng")
    pngs = [_encoders.encode_png(img) for img in images[:int(max_outputs)]]
    strings = [str(w).encode(), str(h).encode()] + pngs
    return _proto.tensor_proto(_proto.DT_STRING, (len(strings),), strings=strings)


def _check_max_outputs(max_outputs):
    if int(max_outputs) < 0:
        raise _errors.InvalidArgumentError(
            None, None, "\nCondition x >= 0 did not hold element-wise:\nx (shape=() dtype=int32) = \n"
            f"{int(max_outputs)}")


def _to_uint8(a):
    """TF's `convert_image_dtype(a, tf.uint8, saturate=True)` on a NumPy array."""
    kind = a.dtype.kind
    if a.dtype == np.uint8:
        return a
    if kind == "f" or a.dtype.name == "bfloat16":
        if a.dtype.itemsize < 2 or a.dtype.name == "bfloat16":
            a = a.astype(np.float32)
        with np.errstate(invalid="ignore"):
            return np.clip(a * a.dtype.type(255.5), 0, 255).astype(np.uint8)
    if kind in "iu":
        top = np.iinfo(a.dtype).max
        if top > 255:
            return np.clip(a // ((top + 1) // 256), 0, 255).astype(np.uint8)
        return np.clip(a, 0, 255).astype(np.uint8) * np.uint8(256 // (top + 1))
    raise TypeError(f"tf.summary.image: unsupported image dtype {a.dtype}")


@tf_export("summary.text")
def text(name, data, step=None, description=None):
    """Writes a text summary (a string tensor; Markdown is rendered by TensorBoard)."""
    t = _tf.convert_to_tensor(data)
    if t.dtype is not _dtypes.string:
        raise TypeError(f"tensor must be of type tf.string; got {t.dtype!r}")
    return _write(_tag(name, "text_summary"), lambda: _proto.array_tensor_proto(_proto.DT_STRING, _storage(t)), step,
                  _metadata("text", b"", description))


_AUDIO_WAV = b"\x10\x0b"      # AudioPluginData{encoding: WAV}


@tf_export("summary.audio")
def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Writes up to `max_outputs` clips of `data` ([k, t, c] float32 in [-1, 1]) as 16-bit WAV."""
    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError("Unknown encoding: %r" % encoding)
    return _write(_tag(name, "audio_summary"), lambda: _audio_tensor(data, sample_rate, max_outputs), step,
                  _metadata("audio", _AUDIO_WAV, description))


def _audio_tensor(data, sample_rate, max_outputs):
    t = _tf.convert_to_tensor(data)
    if t.ndim != 3:
        raise ValueError(f"Tensor  must have rank 3.  Received rank {t.ndim}, shape {tuple(t.shape)}")
    _check_max_outputs(max_outputs)
    if t.dtype is not _dtypes.float32:
        raise _errors.op_error(
            _errors.InvalidArgumentError, "cannot compute EncodeWav as input #0(zero-based) was expected to be "
            f"a float tensor but is a {_type_name(_storage(t).dtype)} tensor", "EncodeWav")
    rate = int(sample_rate.numpy() if isinstance(sample_rate, _Tensor) else sample_rate)
    clips = t._array()[:int(max_outputs)]
    strings = []
    for clip in clips:
        strings += [_encoders.encode_wav(clip, rate), b""]
    return _proto.tensor_proto(_proto.DT_STRING, (len(clips), 2), strings=strings)


# -- not supported ----------------------------------------------------------------------------------------------------
@tf_export("summary.graph")
def graph(graph_data):
    """Not supported: tfcompat runs eagerly on torch and has no `tf.Graph` to write."""
    raise NotImplementedError("tf.summary.graph is not supported by tfcompat (there is no tf.Graph)")


@tf_export("summary.trace_on")
def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Not supported: tfcompat has no graph tracing or TF profiler."""
    raise NotImplementedError("tf.summary.trace_on is not supported by tfcompat (no graph/profiler tracing)")


@tf_export("summary.trace_export")
def trace_export(name, step=None, profiler_outdir=None):
    """Not supported: tfcompat has no graph tracing or TF profiler."""
    raise NotImplementedError("tf.summary.trace_export is not supported by tfcompat (no graph/profiler tracing)")


@tf_export("summary.trace_off")
def trace_off():
    """Not supported: tfcompat has no graph tracing or TF profiler."""
    raise NotImplementedError("tf.summary.trace_off is not supported by tfcompat (no graph/profiler tracing)")


from tfcompat.summary import experimental  # noqa: E402,F401  (needs the functions above)


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("summary", attr)
