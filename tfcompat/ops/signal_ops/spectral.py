"""`tf.signal` short-time transforms: stft/inverse_stft (with inverse_stft_window_fn) and mdct/inverse_mdct."""

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import wrap
from tfcompat.ops.signal_ops import fft, windows
from tfcompat.ops.signal_ops._common import FLOAT_REAL, int_scalar, rank_at_least, storage_of
from tfcompat.ops.signal_ops.dct import check_input, dct_storage
from tfcompat.ops.signal_ops.framing import frame_args, frames_of, overlap_add

_BUILTIN = {windows.hann_window, windows.hamming_window, windows.vorbis_window}
_WINDOWS = {}     # (window_fn, length, torch dtype, device) -> window storage: a pure function of its key

def _window(window_fn, length, t):
    """Storage of `window_fn(length, dtype=<t's dtype>)` (built-in windows are computed once per key)."""
    if window_fn in _BUILTIN and not isinstance(t, np.ndarray):
        key = (window_fn, length, t.dtype, t.device)
        w = _WINDOWS.get(key)
        if w is None:
            w = _WINDOWS[key] = storage_of(window_fn(length, dtype=dtypes.FROM_STORAGE[t.dtype])).to(t.device)
        return w
    return storage_of(window_fn(length, dtype=dtypes.string if isinstance(t, np.ndarray) else
                                dtypes.FROM_STORAGE[t.dtype]))

def _power_of_two(length):
    """TF's default fft_length: the smallest power of two >= frame_length (TF's NumPy logs give 2**30 for 2**29)."""
    if length <= 1 << 28:
        return 1 << (length - 1).bit_length() if length > 0 else 0
    with np.errstate(divide="ignore"):
        return int(2 ** np.ceil(np.log(np.int32(length)) / np.log(2.0)))

def _fft_length(fft_length, frame_length):
    if fft_length is None:
        return _power_of_two(frame_length)
    return fft_length if type(fft_length) is int else int_scalar(fft_length, "fft_length")

@tf_export("signal.stft")
def stft(signals, frame_length, frame_step, fft_length=None, window_fn=windows.hann_window, pad_end=False,
         name=None):
    """Short-time Fourier transform: rfft (fft_length, default the enclosing power of two) of windowed frames."""
    t = storage_of(signals)
    rank_at_least(t, 1)
    length, step = frame_args(frame_length, frame_step)
    n = _fft_length(fft_length, length)
    framed = frames_of(t, length, step, pad_end)
    if window_fn is not None:
        framed = framed * _window(window_fn, length, framed)
    if framed.dtype in FLOAT_REAL and n and framed.numel():       # torch pads or crops only when n differs
        return wrap(torch.fft.rfft(framed) if n == length else torch.fft.rfft(framed, n=n))
    return fft.rfft(wrap(framed), [n])

@tf_export("signal.inverse_stft_window_fn")
def inverse_stft_window_fn(frame_step, forward_window_fn=windows.hann_window, name=None):
    """A window_fn for inverse_stft that undoes `forward_window_fn`'s overlapping sum of squares (perfect rebuild)."""

    def inverse_stft_window_fn_inner(frame_length, dtype):
        step = int_scalar(frame_step, "frame_step")
        length = int_scalar(frame_length, "frame_length")
        forward = storage_of(forward_window_fn(length, dtype=dtype))
        overlaps = -(-length // step)
        denom = torch.nn.functional.pad(torch.square(forward), (0, overlaps * step - length))
        denom = denom.reshape(overlaps, step).sum(0, keepdim=True).tile(overlaps, 1).reshape(-1)[:length]
        return wrap(torch.where(denom == 0.0, torch.zeros_like(forward), forward / denom))

    return inverse_stft_window_fn_inner

@tf_export("signal.inverse_stft")
def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=windows.hann_window, name=None):
    """Inverse of stft: irfft of each frame, cropped or zero-padded to frame_length, windowed and overlap-added."""
    t = storage_of(stfts)
    rank_at_least(t, 2)
    length = int_scalar(frame_length, "frame_length")
    step = int_scalar(frame_step, "frame_step")
    n = _fft_length(fft_length, length)
    frames = fft.irfft(wrap(t), [n])
    real = storage_of(frames)
    if real.shape[-1] > length:
        real = real[..., :length]
    elif real.shape[-1] < length:
        real = torch.nn.functional.pad(real, (0, length - real.shape[-1]))
    if window_fn is not None:
        real = real * _window(window_fn, length, real)
    return wrap(overlap_add(real, step))

def _mdct_frames(t, window_fn, length):
    if window_fn is not None:
        return t * _window(window_fn, length, t)
    return t * (1.0 / np.sqrt(2))

@tf_export("signal.mdct")
def mdct(signals, frame_length, window_fn=windows.vorbis_window, pad_end=False, norm=None, name=None):
    """Modified DCT of frames of `frame_length` (a multiple of 4) with 50% overlap: frame_length/2 coefficients."""
    t = storage_of(signals)
    rank_at_least(t, 1)
    length = int_scalar(frame_length, "frame_length")
    if length % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    framed = _mdct_frames(frames_of(t, length, length // 2, pad_end), window_fn, length)
    check_input(framed, 4)
    q = length // 4
    a, b, c, d = framed[..., :q], framed[..., q:2 * q], framed[..., 2 * q:3 * q], framed[..., 3 * q:]
    first = -torch.flip(c, (-1,)) - d
    second = a - torch.flip(b, (-1,))
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    return wrap(dct_storage(torch.cat([first, second], -1), 4, norm=norm))

@tf_export("signal.inverse_mdct")
def inverse_mdct(mdcts, window_fn=windows.vorbis_window, norm=None, name=None):
    """Inverse of mdct: type-IV DCT of each frame, unfolded to 2x its length, windowed and overlap-added."""
    t = storage_of(mdcts)
    rank_at_least(t, 2)
    if norm is None and not (t.dtype.is_floating_point or t.dtype.is_complex):     # TF scales by 0.5 / N first
        raise TypeError(f"Cannot convert 0.5 to EagerTensor of dtype {dtypes.FROM_STORAGE[t.dtype].name}")
    check_input(t, 4)
    half = t.shape[-1]
    if norm is None:
        coeffs = 0.5 / torch.tensor(float(half), dtype=t.dtype, device=t.device) * dct_storage(t, 4)
    elif norm == "ortho":
        coeffs = dct_storage(t, 4, norm="ortho")
    else:
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    first, second = coeffs[..., :half // 2], coeffs[..., half // 2:]
    real = torch.cat([second, -torch.flip(second, (-1,)), -torch.flip(first, (-1,)), -first], -1)
    real = _mdct_frames(real, window_fn, 2 * half)
    return wrap(overlap_add(real, half))

