"""`keras.ops.linalg` and the `keras.ops.math` functions (FFTs, STFT, logdet, ...), over tfcompat's `tf.linalg` and
`tf.signal` ops as Keras's TF backend calls TF's, with Keras's own shape checks first."""
import torch

from tfcompat.framework import errors as _errors
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.keras.ops._common import _floating, _pair, _st
from tfcompat.ops import linalg_ops as _linalg
from tfcompat.ops import math_ops as _math_ops
from tfcompat.ops.signal_ops import fft as _fft
from tfcompat.ops.signal_ops import framing as _framing
from tfcompat.ops.signal_ops import spectral as _spectral
from tfcompat.ops.signal_ops import windows as _windows


def _shape_text(t):
    return "(" + ", ".join(str(d) for d in t.shape) + ("," if t.ndim == 1 else "") + ")"


def _assert_2d(*ts):
    for t in ts:
        if t.ndim < 2:
            raise ValueError(f"Expected input to have rank >= 2. Received input with shape {_shape_text(t)}.")


def _assert_square(*ts):
    for t in ts:
        if t.shape[-2] != t.shape[-1]:
            raise ValueError(f"Expected a square matrix. Received non-square input with shape {_shape_text(t)}")


def _assert_1d(*ts):
    for t in ts:
        if t.ndim < 1:
            raise ValueError(f"Expected input to have rank >= 1. Received scalar input {_wrap(t)}.")


def _assert_a_b_compat(a, b):
    if a.ndim == b.ndim and a.shape[-2] != b.shape[-2]:
        raise ValueError("Incompatible shapes between `a` and `b`. Expected `a.shape[-2] == b.shape[-2]`. "
                         f"Received: a.shape={_shape_text(a)}, b.shape={_shape_text(b)}")
    if a.ndim == b.ndim - 1 and a.shape[-1] != b.shape[-1]:
        raise ValueError("Incompatible shapes between `a` and `b`. Expected `a.shape[-1] == b.shape[-1]`. "
                         f"Received: a.shape={_shape_text(a)}, b.shape={_shape_text(b)}")


def _square(x):
    t = _st(x)
    _assert_2d(t)
    _assert_square(t)
    return t


# -- linalg ------------------------------------------------------------------------------------------------------
def inv(x):
    """The inverse of square matrices."""
    return _linalg.inv(_wrap(_square(x)))


def det(x):
    return _linalg.det(_wrap(_square(x)))


def slogdet(x):
    """(sign, log |det|) of square matrices."""
    return tuple(_linalg.slogdet(_wrap(_st(x))))


def logdet(x):
    """The log-determinant of Hermitian positive definite matrices."""
    return _linalg.logdet(_wrap(_st(x)))


def cholesky(x, upper=False):
    """The lower (or `upper`) Cholesky factor; a failed decomposition is Keras's ValueError."""
    t = _square(x)
    try:
        out = storage(_linalg.cholesky(_wrap(t)))
        if torch.isnan(out).any() or torch.isinf(out).any():
            raise ValueError("Cholesky : Tensor had NaN values")
    except (ValueError, RuntimeError, _errors.OpError) as e:
        raise ValueError(f"Cholesky decomposition failed: {e}") from None
    return _wrap(out.mH.contiguous() if upper else out)


def cholesky_inverse(x, upper=False):
    """The inverse of `A` from its Cholesky factor `x` (`A = L L^H`, or `U^H U` when `upper`)."""
    t = _square(x)
    try:
        eye = torch.eye(t.shape[-1], dtype=t.dtype, device=t.device)
        inv_chol = storage(_linalg.triangular_solve(_wrap(t), _wrap(eye), lower=not upper))
    except (ValueError, RuntimeError, _errors.OpError) as e:
        raise ValueError(f"Cholesky inverse failed: {e}") from None
    return _wrap(inv_chol @ inv_chol.mH if upper else inv_chol.mH @ inv_chol)


def eig(x):
    """(eigenvalues, eigenvectors) of square matrices (complex)."""
    return tuple(_linalg.eig(_wrap(_square(x))))


def eigh(x):
    """(eigenvalues, eigenvectors) of Hermitian matrices."""
    return tuple(_linalg.eigh(_wrap(_square(x))))


def lu_factor(x):
    """(packed LU, pivots) with `P A = L U`; the pivots are the row each row of `A` came from."""
    t = _st(x)
    _assert_2d(t)
    try:
        _assert_square(t)
    except ValueError as e:
        raise ValueError(f"LU decomposition failed: {e}. LU decomposition is only supported for square matrices in "
                         "Tensorflow.") from None
    lu, p = _linalg.lu(_wrap(t))
    perm = storage(p)
    return lu, _wrap(torch.argsort(perm, dim=-1).to(perm.dtype))


def qr(x, mode="reduced"):
    """(q, r) of matrices (`mode` "reduced" or "complete")."""
    if mode not in ("reduced", "complete"):
        raise ValueError("`mode` argument value not supported. Expected one of {'reduced', 'complete'}. "
                         f"Received: mode={mode}")
    t = _st(x)
    return tuple(_linalg.qr(_wrap(t), full_matrices=mode == "complete"))


def solve(a, b):
    """`x` with `a @ x = b` (`b` a vector or a matrix)."""
    ta, tb = _st(a), _st(b)
    _assert_2d(ta)
    _assert_square(ta)
    _assert_1d(tb)
    _assert_a_b_compat(ta, tb)
    if tb.ndim == ta.ndim - 1:
        return _wrap(storage(_linalg.solve(_wrap(ta), _wrap(tb.unsqueeze(-1)))).squeeze(-1))
    return _linalg.solve(_wrap(ta), _wrap(tb))


def solve_triangular(a, b, lower=False):
    """`x` with `a @ x = b` for triangular `a` (upper unless `lower`)."""
    ta, tb = _st(a), _st(b)
    _assert_2d(ta)
    _assert_square(ta)
    _assert_1d(tb)
    _assert_a_b_compat(ta, tb)
    if tb.ndim == ta.ndim - 1:
        out = _linalg.triangular_solve(_wrap(ta), _wrap(tb.unsqueeze(-1)), lower=lower)
        return _wrap(storage(out).squeeze(-1))
    return _linalg.triangular_solve(_wrap(ta), _wrap(tb), lower=lower)


def svd(x, full_matrices=True, compute_uv=True):
    """(u, s, vh) with `x = u @ diag(s) @ vh` (only `s` when not `compute_uv`)."""
    t = _st(x)
    _assert_2d(t)
    if not compute_uv:
        return _linalg.svd(_wrap(t), full_matrices=full_matrices, compute_uv=False)
    s, u, v = _linalg.svd(_wrap(t), full_matrices=full_matrices, compute_uv=True)
    return u, s, _wrap(storage(v).mH.contiguous())


def lstsq(a, b, rcond=None):
    """The least-squares solution of `a @ x = b` (through the SVD, as Keras's TF backend)."""
    ta, tb = _st(a), _st(b)
    if ta.shape[:1] != tb.shape[:1]:
        raise ValueError("Leading dimensions of input arrays must match")
    if ta.ndim != 2:
        raise TypeError(f"{ta.ndim}-dimensional array given. Array must be two-dimensional")
    if tb.ndim not in (1, 2):
        raise TypeError(f"{tb.ndim}-dimensional array given. Array must be one or two-dimensional")
    ta = _floating(ta)
    tb = tb.to(ta.dtype)
    vector = tb.ndim == 1
    if vector:
        tb = tb[:, None]
    m, n = ta.shape
    eps = torch.finfo(ta.dtype).eps
    rc = eps * max(n, m) if rcond is None else (eps if rcond < 0 else rcond)
    u, s, vh = torch.linalg.svd(ta, full_matrices=False)
    mask = s >= rc * s[0] if s.numel() else s > 0
    s_inv = torch.where(mask, 1 / torch.where(mask, s, torch.ones_like(s)), torch.zeros_like(s))[:, None]
    out = vh.mH @ (s_inv * (u.mH @ tb))
    return _wrap(out.reshape(-1) if vector else out)


def matrix_rank(x, tol=None):
    return _linalg.matrix_rank(_wrap(_st(x)), tol=tol)


def pinv(x, rcond=None):
    return _linalg.pinv(_wrap(_floating(_st(x))), rcond=rcond)


def jvp(fun, primals, tangents, has_aux=False):
    """(outputs, output tangents[, aux]) of `fun(*primals)` pushed forward along `tangents`."""
    from tfcompat.eager.custom_gradient import ForwardAccumulator
    from tfcompat.util import nest
    primal_flat = [_wrap(_st(p)) for p in nest.flatten(primals)]
    tangent_flat = [_wrap(_st(t).to(storage(p).dtype)) for t, p in zip(nest.flatten(tangents), primal_flat)]
    args = nest.pack_sequence_as(primals, primal_flat)
    with ForwardAccumulator(primal_flat, tangent_flat) as acc:
        result = fun(*args)
        outs, aux = (result if has_aux else (result, None))
        tangents_out = nest.pack_sequence_as(outs, [acc.jvp(o) for o in nest.flatten(outs)])
    return (outs, tangents_out, aux) if has_aux else (outs, tangents_out)


# -- math: FFTs on (real, imag) pairs, STFT, sequences -------------------------------------------------------------
def _complex_pair(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"Input `x` should be a tuple of two tensors - real and imaginary.Received: x={x}")
    re, im = _st(x[0]), _st(x[1])
    if tuple(re.shape) != tuple(im.shape):
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary.Both the real and imaginary "
                         f"parts should have the same shape. Received: x[0].shape = {_shape_text(re)}, "
                         f"x[1].shape = {_shape_text(im)}")
    if not re.is_floating_point() or not im.is_floating_point():
        raise ValueError(f"At least one tensor in input `x` is not of type float.Received: x={x}.")
    return _wrap(torch.complex(re, im))


def _parts(c):
    t = storage(c)
    return _wrap(torch.real(t).contiguous()), _wrap(torch.imag(t).contiguous())


def fft(x):
    """The FFT over the last axis of `(real, imag)`, as `(real, imag)`."""
    return _parts(_fft.fft(_complex_pair(x)))


def fft2(x):
    return _parts(_fft.fft2d(_complex_pair(x)))


def ifft2(x):
    """The inverse 2-D FFT of `(real, imag)` over the last two axes."""
    c = _complex_pair(x)
    return _parts(_fft.ifft2d(c))


def rfft(x, fft_length=None):
    """The FFT of a real signal over its last axis, as `(real, imag)`."""
    return _parts(_fft.rfft(_wrap(_st(x)), None if fft_length is None else [fft_length]))


def irfft(x, fft_length=None):
    return _fft.irfft(_complex_pair(x), None if fft_length is None else [fft_length])


def _stft_window(window, sequence_length, fft_length, dtype):
    if window is None:
        return None
    if isinstance(window, str):
        fn = _windows.hann_window if window == "hann" else _windows.hamming_window
        win = storage(fn(sequence_length, periodic=True, dtype=dtype))
    else:
        win = _st(window).to(dtype)
    if win.ndim != 1 or win.shape[-1] != sequence_length:
        raise ValueError(f"The shape of `window` must be equal to [sequence_length].Received: window shape="
                         f"{_shape_text(win)}")
    left = (fft_length - sequence_length) // 2
    return torch.nn.functional.pad(win, (left, fft_length - sequence_length - left))


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform over the last axis, as `(real, imag)`."""
    t = _st(x)
    if t.dtype not in (torch.float32, torch.float64):
        from tfcompat.framework import dtypes
        raise TypeError("Invalid input type. Expected `float32` or `float64`. Received: input type="
                        f"{dtypes.as_dtype(t.dtype).name}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. Received: "
                         f"sequence_length={sequence_length}, fft_length={fft_length}")
    if isinstance(window, str) and window not in ("hann", "hamming"):
        raise ValueError(f'If a string is passed to `window`, it must be one of `"hann"`, `"hamming"`. Received: '
                         f"window={window}")
    if center:
        half = fft_length // 2
        shape = t.shape
        t = torch.nn.functional.pad(t.reshape(-1, 1, shape[-1]), (half, half), mode="reflect")
        t = t.reshape(tuple(shape[:-1]) + (t.shape[-1],))
    win = _stft_window(window, sequence_length, fft_length, t.dtype)
    window_fn = None if win is None else (lambda frame_length, dtype: _wrap(win))
    out = _spectral.stft(_wrap(t), fft_length, sequence_stride, fft_length=fft_length, window_fn=window_fn)
    return _parts(out)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """The inverse STFT of `(real, imag)` frames."""
    c = _complex_pair(x)
    dtype = storage(c).real.dtype
    frames = storage(c).shape[-2]
    win = _stft_window(window, sequence_length, fft_length, dtype)
    window_fn = None
    if win is not None:
        window_fn = _spectral.inverse_stft_window_fn(sequence_stride, lambda frame_length, dtype: _wrap(win))
    out = storage(_spectral.inverse_stft(c, fft_length, sequence_stride, fft_length=fft_length, window_fn=window_fn))
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = -(fft_length // 2)
    else:
        end = fft_length + sequence_stride * (frames - 1)
    return _wrap(out[..., start:end].contiguous())


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of `sequence_length` every `sequence_stride` along the last axis."""
    return _framing.frame(_wrap(_st(x)), sequence_length, sequence_stride, pad_end=False, axis=-1)


def view_as_complex(x):
    """A complex tensor from a trailing axis of 2 (real, imag)."""
    t = _st(x)
    if t.ndim < 1 or t.shape[-1] != 2:
        raise ValueError(f"Last dimension of input must be size 2 (real and imaginary). Received shape: "
                         f"{_shape_text(t)}")
    return _wrap(torch.complex(t[..., 0].to(torch.float32), t[..., 1].to(torch.float32)))


def view_as_real(x):
    """`(..., 2)` real and imaginary parts of a complex tensor."""
    t = _st(x)
    if not t.is_complex():
        raise ValueError("Input must be a complex tensor.")
    return _wrap(torch.stack([torch.real(t), torch.imag(t)], -1))


def cdist(x, y):
    """Euclidean distances between the rows of `x` and `y` (batched)."""
    a, b = _pair(x, y)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("`cdist` inputs must have rank >= 2")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("Last dimension of inputs to `cdist` must match")
    diff = a.unsqueeze(-2) - b.unsqueeze(-3)
    return _math_ops.sqrt(_wrap(torch.sum(torch.square(diff), dim=-1).to(a.dtype)))
