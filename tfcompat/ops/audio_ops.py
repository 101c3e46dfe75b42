"""`tf.audio`: 16-bit PCM WAV decoding (TF's parser: untrusted bytes, bounded allocation) and encoding."""
import collections
import struct

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor import Tensor
from tfcompat.util.encoders import encode_wav as _encode_pcm16

DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])
_SKIPPED_BEFORE_FMT = frozenset([b"JUNK", b"bext", b"iXML", b"qlty", b"mext", b"levl", b"link", b"axml"])
_INT32_MAX = 2 ** 31 - 1
# output elements a header's channel count may ask for beyond the decoded samples (1 GiB of float32)
_MAX_PADDED = 1 << 28


def _error(message, op, name):
    """TF's kernel error; its text crosses C strings as TF's does: cut at a NUL, decoded as UTF-8 (strictly)."""
    raw = message.encode("latin-1").split(b"\0", 1)[0]
    error = errors.kernel_error(errors.InvalidArgumentError, "", op, name=name)
    head, tail = str(error).split("}} ", 1)
    (head.encode() + b"}} " + raw + tail.encode()).decode("utf-8")   # TF raises UnicodeDecodeError for such bytes
    return errors.kernel_error(errors.InvalidArgumentError, raw.decode("utf-8"), op, name=name)


class _Reader:
    """TF's wav_io reads: little-endian fields, every read checked against the bytes left."""

    def __init__(self, data, name):
        self.data, self.offset, self.name = data, 0, name

    def take(self, size):
        end = self.offset + size
        if end > len(self.data):
            raise _error("Data too short when trying to read string", "DecodeWav", self.name)
        chunk = self.data[self.offset:end]
        self.offset = end
        return chunk

    def value(self, fmt):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def expect(self, text):
        found = self.take(len(text))
        if found != text:
            raise self.fail(f"Header mismatch: Expected {text.decode()} but found {_text(found)}")

    def fail(self, message):
        return _error(message, "DecodeWav", self.name)


def _text(raw):
    return raw.decode("latin-1")


def _parse(data, name):
    """(int16 samples as float32 [frames * channels], frames, channels, sample_rate) of WAV bytes, as TF parses."""
    r = _Reader(data, name)
    r.expect(b"RIFF")
    r.value("I")
    r.expect(b"WAVE")
    chunk = r.take(4)
    while chunk != b"fmt ":
        if chunk not in _SKIPPED_BEFORE_FMT:
            raise r.fail(f"Unexpected field {_text(chunk)}")
        r.take(r.value("I"))
        chunk = r.take(4)
    fmt_size = r.value("I")
    if fmt_size not in (16, 18):
        raise r.fail(f"Bad format chunk size for WAV: Expected 16 or 18, but got{fmt_size}")
    audio_format = r.value("H")
    if audio_format != 1:
        raise r.fail(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
    channels = r.value("H")
    if channels < 1:
        raise r.fail(f"Bad number of channels for WAV: Expected at least 1, but got {channels}")
    rate = r.value("I")
    bytes_per_second = r.value("I")
    bytes_per_sample = r.value("H")
    bits = r.value("H")
    if bits != 16:
        raise r.fail(f"Can only read 16-bit WAV files, but received {bits}")
    expected = (bits * channels + 7) // 8
    if bytes_per_sample != expected:
        raise r.fail(f"Bad bytes per sample in WAV header: Expected {expected} but got {bytes_per_sample}")
    expected = bytes_per_sample * rate
    if bytes_per_second != expected:
        raise r.fail(f"Bad bytes per second in WAV header: Expected {expected} but got {bytes_per_second} "
                     f"(sample_rate={rate}, bytes_per_sample={bytes_per_sample})")
    if fmt_size == 18:
        r.offset += 2
    samples = None
    frames = 0
    while r.offset < len(data):
        chunk = r.take(4)
        size = r.value("I")
        if size > _INT32_MAX:
            raise r.fail(f"WAV data chunk '{_text(chunk)}' is too large: {size} bytes, but the limit is {_INT32_MAX}")
        if chunk == b"data":
            if samples is not None:
                raise r.fail("More than one data chunk found in WAV")
            frames = size // bytes_per_sample
            count = frames * channels
            if r.offset + 2 * count > len(data):      # checked before anything is allocated
                raise r.fail("Data too short when trying to read string")
            samples = np.frombuffer(data, "<i2", count, r.offset).astype(np.float32) * np.float32(1.0 / 32768)
            r.offset += 2 * count
        else:
            r.offset += size
    if samples is None:
        raise r.fail("No data chunk found in WAV")
    return samples, frames, channels, rate


@tf_export("audio.decode_wav")
def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """Decodes 16-bit PCM WAV bytes: (audio float32 [samples, channels] in [-1, 1), sample_rate int32).

    desired_channels keeps the first channels (repeating the last one when more are asked);
    desired_samples crops or pads with zeros.
    """
    op_name = "" if isinstance(contents, Tensor) else None
    for arg, value in (("desired_channels", desired_channels), ("desired_samples", desired_samples)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"Expected int for argument '{arg}' not {value!r}.")
    t = input_storage(contents) if isinstance(contents, Tensor) else to_storage(contents, dtypes.string)
    if not isinstance(t, np.ndarray):
        raise errors.op_error(errors.InvalidArgumentError, f"cannot compute DecodeWav as input #0(zero-based) was "
                              f"expected to be a string tensor but is a {type_name(t.dtype)} tensor", "DecodeWav")
    if t.ndim != 0:
        raise _error(f"contents must be scalar, got shape [{','.join(str(d) for d in t.shape)}]", "DecodeWav", op_name)
    data = t.item()
    data = data.encode() if isinstance(data, str) else bytes(data)
    samples, frames, channels, rate = _parse(data, op_name)
    for arg, value in (("desired_channels", desired_channels), ("desired_samples", desired_samples)):
        if value < -1:
            raise _error(f"{arg} must be >= -1, got {value}", "DecodeWav", op_name)
    out_frames = frames if desired_samples == -1 else int(desired_samples)
    out_channels = channels if desired_channels == -1 else int(desired_channels)
    if desired_channels == -1 and out_frames > frames and out_frames * out_channels > max(_MAX_PADDED, samples.size):
        raise errors.ResourceExhaustedError(
            None, None, f"decode_wav: {out_frames} samples of the {out_channels} channels the WAV header declares "
            "would exceed tfcompat's limit for untrusted files [Op:DecodeWav]")
    audio = np.zeros((out_frames, out_channels), np.float32)
    keep = min(out_frames, frames)
    if keep and out_channels:
        source = np.minimum(np.arange(out_channels), channels - 1)
        audio[:keep] = samples.reshape(frames, channels)[:keep, source]
    return DecodeWav(wrap(torch.from_numpy(audio)), wrap(torch.tensor(rate, dtype=torch.int32)))


@tf_export("audio.encode_wav")
def encode_wav(audio, sample_rate, name=None):
    """16-bit PCM WAV bytes of float32 audio [frames, channels] (samples scaled by 32768, rounded, clipped)."""
    op_name = "" if isinstance(audio, Tensor) else None
    a = input_storage(audio) if isinstance(audio, Tensor) else to_storage(audio, dtypes.float32)
    if a.dtype is not torch.float32:
        raise errors.op_error(errors.InvalidArgumentError, f"cannot compute EncodeWav as input #0(zero-based) was "
                              f"expected to be a float tensor but is a {type_name(a.dtype)} tensor", "EncodeWav")
    rate = input_storage(sample_rate) if isinstance(sample_rate, Tensor) else to_storage(sample_rate, dtypes.int32)
    if a.ndim != 2:
        raise _error(f"audio must be 2-dimensional[{','.join(str(d) for d in a.shape)}]", "EncodeWav", op_name)
    if rate.ndim != 0:
        raise _error(f"Input sample_rate should be a scalar tensor, got [{','.join(str(d) for d in rate.shape)}] "
                     "instead.", "EncodeWav", op_name)
    frames, channels = a.shape
    if a.numel() >= _INT32_MAX:
        raise _error("Cannot encode audio with >= max int32 elements", "EncodeWav", op_name)
    if a.numel() == 0 and frames > 0:
        raise _error("audio is null", "EncodeWav", op_name)
    rate = int(rate)
    if rate <= 0:
        raise _error(f"sample_rate must be in (0, 2^32), got: {rate % 2 ** 64}", "EncodeWav", op_name)
    if channels == 0 or channels > 0xFFFF:
        raise _error(f"num_channels must be in (0, 2^16), got: {channels}", "EncodeWav", op_name)
    if 44 + 2 * a.numel() > 0xFFFFFFFF:
        raise _error("Provided channels and frames cannot be encoded as a WAV.", "EncodeWav", op_name)
    values = a.detach().cpu().numpy()
    values = np.where(np.isnan(values), np.float32(0), values)      # TF's float-to-int16 conversion gives 0 for NaN
    return wrap(to_storage(_encode_pcm16(values, rate), dtypes.string))
