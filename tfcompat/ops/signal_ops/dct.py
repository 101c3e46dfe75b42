"""`tf.signal.dct`/`idct` (types I-IV over the innermost axis, via the real FFT as TF) and MFCCs from log-mel spectra."""
import math

import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import kernel_error, wrap
from tfcompat.ops.signal_ops._common import FLOAT_REAL, storage_of


def _validate(t, dct_type, n, axis, norm):
    """TF's argument checks, in TF's order."""
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        if t.ndim == 0:
            raise IndexError("tuple index out of range")
        if t.shape[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _check_scalar(t):
    """dct/idct of a scalar: TF converts 0.0 to its dtype, then reads the shape's last dim (TF's TypeError, IndexError)."""
    if t.ndim == 0:
        if not (t.dtype.is_floating_point or t.dtype.is_complex):
            raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {dtypes.FROM_STORAGE[t.dtype].name}")
        raise IndexError("tuple index out of range")


def check_input(t, dct_type):
    """TF's errors for inputs its FFT-based DCT cannot take (scalars, integers, half precision)."""
    if t.ndim == 0:
        raise kernel_error(errors.InvalidArgumentError, "Input must have rank of at least 1 but got: []", "RFFT", t)
    if t.dtype in FLOAT_REAL:
        return
    name = dtypes.FROM_STORAGE[t.dtype].name
    if not (t.dtype.is_floating_point or t.dtype.is_complex):
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {name}")
    if dct_type == 1:
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {str(wrap(t))}")
    if t.dtype.is_complex:
        raise AssertionError()       # what TF's FFT-based DCT raises for complex input
    raise TypeError(f"The `real` and `imag` components have incorrect types: {name} {name}. They must be "
                    f"consistent, and one of [tf.float32, tf.float64]")


def _check_empty(t, dct_type, size):
    """TF's FFT kernel check on the empty inputs its DCT passes through unpadded (types II-IV of a non-empty axis)."""
    if not size or dct_type == 1:
        return
    op, need, got = {2: ("RFFT", 2 * size, size), 3: ("IRFFT", size + 1, size), 4: ("RFFT", 4 * size, 2 * size)}[dct_type]
    raise kernel_error(errors.InvalidArgumentError, f"Input dimension {t.ndim - 1} must have length of at least "
                       f"{need} but got: {got}", op, t)


def dct_storage(t, dct_type, n=None, norm=None):
    """Storage of the DCT of storage `t` over its last axis (TF's FFT formulation)."""
    if n is not None:
        size = t.shape[-1]
        t = t[..., :n] if n <= size else torch.nn.functional.pad(t, (0, n - size))
    size = t.shape[-1]
    if t.numel() == 0:
        _check_empty(t, dct_type, size)
        return torch.zeros(t.shape, dtype=t.dtype, device=t.device)
    fsize = torch.tensor(float(size), dtype=t.dtype, device=t.device)
    if dct_type == 1:
        return torch.fft.rfft(torch.cat([t, torch.flip(t[..., 1:-1], (-1,))], -1)).real
    if dct_type == 2:
        k = torch.arange(size, dtype=t.dtype, device=t.device)
        scale = 2.0 * torch.exp(torch.complex(torch.zeros_like(k), -k * math.pi * 0.5 / fsize))
        out = (torch.fft.rfft(t, n=2 * size)[..., :size] * scale).real
        if norm == "ortho":
            n1 = 0.5 * torch.rsqrt(fsize)
            weights = torch.full((size,), float(n1 * math.sqrt(2.0)), dtype=t.dtype, device=t.device)
            weights[0] = n1
            out = out * weights
        return out
    if dct_type == 3:
        if norm == "ortho":
            n1 = torch.sqrt(fsize)
            weights = torch.full((size,), float(n1 * math.sqrt(0.5)), dtype=t.dtype, device=t.device)
            weights[0] = n1
            t = t * weights
        else:
            t = t * fsize
        k = torch.arange(size, dtype=t.dtype, device=t.device)
        scale = 2.0 * torch.exp(torch.complex(torch.zeros_like(k), k * math.pi * 0.5 / fsize))
        return torch.fft.irfft(scale * torch.complex(t, torch.zeros_like(t)), n=2 * size)[..., :size]
    out = dct_storage(t, 2, n=2 * size)[..., 1::2]
    if norm == "ortho":
        out = out * (math.sqrt(0.5) * torch.rsqrt(fsize))
    return out


@tf_export("signal.dct")
def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """Discrete cosine transform of `type` 1-4 over the innermost axis (cropped or zero-padded to `n`)."""
    t = storage_of(input, dtypes.float32)
    _validate(t, type, n, axis, norm)
    _check_scalar(t)
    check_input(t, type)
    return wrap(dct_storage(t, type, n, norm))


@tf_export("signal.idct")
def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """Inverse DCT: the DCT of type 1, 3, 2, 4 for `type` 1-4 (the exact inverse up to 0.5/N unless norm='ortho')."""
    t = storage_of(input, dtypes.float32)
    _validate(t, type, n, axis, norm)
    inverse = {1: 1, 2: 3, 3: 2, 4: 4}[type]
    _check_scalar(t)
    check_input(t, inverse)
    return wrap(dct_storage(t, inverse, n, norm))


@tf_export("signal.mfccs_from_log_mel_spectrograms")
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """MFCCs: the type-II DCT of log-mel spectrograms over the innermost axis, scaled by 1/sqrt(2*num_mel_bins)."""
    t = storage_of(log_mel_spectrograms, dtypes.float32)
    if t.ndim == 0:        # TF reads the bin count as tf.shape(x)[-1]
        raise errors.kernel_error(errors.InvalidArgumentError, "slice index -1 of dimension 0 out of bounds.",
                                  "StridedSlice", name="strided_slice/")
    if t.shape[-1] == 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {str(wrap(t))}")
    check_input(t, 2)
    bins = torch.tensor(float(t.shape[-1]) * 2.0, dtype=t.dtype, device=t.device)
    return wrap(dct_storage(t, 2) * torch.rsqrt(bins))
