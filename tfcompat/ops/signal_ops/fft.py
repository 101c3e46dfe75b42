"""`tf.signal` FFTs: fft/ifft over the 1-3 innermost axes, rfft/irfft with TF's fft_length crop/pad, fftshift."""
import functools

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import kernel_error, type_name, wrap
from tfcompat.framework.tensor import EagerTensor, storage
from tfcompat.ops.signal_ops._common import COMPLEX, COMPLEX_OF, FLOAT_REAL, REAL_OF, rank_at_least, storage_of

_DIMS = {1: (-1,), 2: (-2, -1), 3: (-3, -2, -1)}
_FAST_REAL = frozenset(FLOAT_REAL)
_SUFFIX = {1: "", 2: "2D", 3: "3D"}


class _NoGradient(torch.autograd.Function):
    """Passes a value through; differentiating it raises TF's LookupError (TF registers no RFFT3D/IRFFT3D gradient)."""

    @staticmethod
    def forward(ctx, t, op):
        ctx.op = op
        return t.view_as(t)

    @staticmethod
    def backward(ctx, grad):
        raise LookupError(f"gradient registry has no entry for: {ctx.op}")


def _no_gradient_3d(out, rank, op):
    return _NoGradient.apply(out, op) if rank == 3 and out.requires_grad else out


def _complex_input(x, op, signature="input:Tcomplex -> output:Tcomplex"):
    """The complex64/complex128 storage of a complex FFT input (Python values convert to complex64, as TF's default)."""
    t = storage_of(x, dtypes.complex64)
    if t.dtype not in COMPLEX:
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"Value for attr 'Tcomplex' of {type_name(t.dtype)} is not in the list of allowed values: complex64, "
            f"complex128\n\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={signature}; "
            f"attr=Tcomplex:type,default=DT_COMPLEX64,allowed=[DT_COMPLEX64, DT_COMPLEX128]>", op)
    return t


def _check_rank(t, rank, op):
    if t.ndim < rank:
        raise kernel_error(errors.InvalidArgumentError, f"Input must have rank of at least {rank} but got: "
                           f"[{','.join(str(d) for d in t.shape)}]", op, t)


def _complex_fft(rank, inverse):
    op = ("IFFT" if inverse else "FFT") + _SUFFIX[rank]
    dims = _DIMS[rank]
    kernel = ({1: torch.fft.ifft, 2: torch.fft.ifft2} if inverse else {1: torch.fft.fft, 2: torch.fft.fft2}).get(rank) \
        or functools.partial(torch.fft.ifftn if inverse else torch.fft.fftn, dim=dims)

    def transform(input, name=None):  # noqa: A002
        t = _complex_input(input, op)
        _check_rank(t, rank, op)
        return wrap(kernel(t) if t.numel() else torch.zeros_like(t))

    transform.__name__ = op.lower()
    transform.__doc__ = (f"{'Inverse ' if inverse else ''}{rank}-D discrete Fourier transform over the {rank} "
                         f"innermost axes of a complex64/complex128 tensor.")
    return transform


fft = tf_export("signal.fft")(_complex_fft(1, False))
ifft = tf_export("signal.ifft")(_complex_fft(1, True))
fft2d = tf_export("signal.fft2d")(_complex_fft(2, False))
ifft2d = tf_export("signal.ifft2d")(_complex_fft(2, True))
fft3d = tf_export("signal.fft3d")(_complex_fft(3, False))
ifft3d = tf_export("signal.ifft3d")(_complex_fft(3, True))


def _fft_lengths(fft_length, t, rank, op, inverse):
    """TF's fft_length: inferred from the innermost `rank` dims (2*(n-1) for an inverse), else a list of `rank` ints."""
    if fft_length is None:
        n = list(t.shape[t.ndim - rank:])
        if inverse:
            n[-1] = max(0, 2 * (n[-1] - 1))
        return n
    if isinstance(fft_length, (int, np.integer)) or np.ndim(storage_of(fft_length)) == 0:
        raise TypeError("'numpy.int32' object is not iterable")
    n = [int(v) for v in np.asarray(storage_of(fft_length)).reshape(-1)]
    for v in n:
        if v < 0:
            raise ValueError(f"Dimension {v} must be >= 0")
    if len(n) != rank:
        raise kernel_error(errors.InvalidArgumentError, f"fft_length must have shape [{rank}]", op, t)
    return n


def _check_empty(t, n, op, inverse):
    """TF's kernel check, which bites on empty inputs (TF's wrapper pads the others): each transformed input dim is
    0 or at least fft_length (fft_length//2+1 innermost for an inverse). TF leaves the empty-input output
    uninitialised; tfcompat gives zeros (and empty output for a zero fft_length, where TF's kernel aborts)."""
    if t.numel():
        return
    for i, length in enumerate(n):
        index = t.ndim - len(n) + i
        need = length // 2 + 1 if inverse and i == len(n) - 1 else length
        if t.shape[index] and t.shape[index] < need:
            raise kernel_error(errors.InvalidArgumentError, f"Input dimension {index} must have length of at least "
                               f"{need} but got: {t.shape[index]}", op, t)


def _real_fft(rank):
    op = "RFFT" + _SUFFIX[rank]
    dims = _DIMS[rank]
    kernel = {1: torch.fft.rfft, 2: torch.fft.rfft2}.get(rank) or functools.partial(torch.fft.rfftn, dim=dims)

    eager, read, fast, result = EagerTensor, storage, _FAST_REAL, wrap      # closure cells: cheaper than globals
    if rank == 3:
        def result(out):
            return wrap(_no_gradient_3d(out, rank, op))

    def transform(input_tensor, fft_length=None, name=None):
        if type(input_tensor) is eager and fft_length is None:      # the common call, kept lean
            t = read(input_tensor)
            if t.dtype in fast and not t.requires_grad:
                try:       # torch refuses what TF's checks below refuse (rank too low, empty transformed axes)
                    out = kernel(t)
                except (RuntimeError, IndexError):
                    pass   # the checked path below raises TF's error
                else:
                    return result(out)
        t = storage_of(input_tensor, dtypes.float32)
        if t.dtype not in FLOAT_REAL:
            raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {str(wrap(t))}")
        rank_at_least(t, rank)
        n = _fft_lengths(fft_length, t, rank, op, False)
        if t.numel() == 0 or 0 in n:
            _check_empty(t, n, op, False)
            shape = list(t.shape[:t.ndim - rank]) + n[:-1] + [n[-1] // 2 + 1 if n[-1] else 0]
            return wrap(torch.zeros(shape, dtype=COMPLEX_OF[t.dtype], device=t.device))
        if rank == 1:      # torch pads or crops only when n differs
            return wrap(torch.fft.rfft(t) if n[0] == t.shape[-1] else torch.fft.rfft(t, n=n[0]))
        return wrap(_no_gradient_3d(torch.fft.rfftn(t, s=n, dim=dims), rank, op))

    transform.__name__ = op.lower()
    transform.__doc__ = (f"{rank}-D FFT of a real float32/float64 tensor over its {rank} innermost axes (complex64/"
                         f"complex128, innermost fft_length//2+1 bins); fft_length crops or zero-pads each axis.")
    return transform


def _inverse_real_fft(rank):
    op = "IRFFT" + _SUFFIX[rank]
    dims = _DIMS[rank]

    def transform(input_tensor, fft_length=None, name=None):
        t = storage_of(input_tensor, dtypes.complex64)
        rank_at_least(t, rank)
        if t.dtype not in COMPLEX:
            raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {str(wrap(t))}")
        n = _fft_lengths(fft_length, t, rank, op, True)
        if t.numel() == 0 or 0 in n:
            _check_empty(t, n, op, True)
            return wrap(torch.zeros(list(t.shape[:t.ndim - rank]) + n, dtype=REAL_OF[t.dtype], device=t.device))
        if rank == 1:
            return wrap(torch.fft.irfft(t, n=n[0]))
        return wrap(_no_gradient_3d(torch.fft.irfftn(t, s=n, dim=dims), rank, op))

    transform.__name__ = op.lower()
    transform.__doc__ = (f"Inverse of rfft{_SUFFIX[rank].lower()}: a real signal of fft_length (default 2*(n-1) "
                         f"innermost) from the non-negative frequency bins of its {rank} innermost axes.")
    return transform


rfft = tf_export("signal.rfft")(_real_fft(1))
rfft2d = tf_export("signal.rfft2d")(_real_fft(2))
rfft3d = tf_export("signal.rfft3d")(_real_fft(3))
irfft = tf_export("signal.irfft")(_inverse_real_fft(1))
irfft2d = tf_export("signal.irfft2d")(_inverse_real_fft(2))
irfft3d = tf_export("signal.irfft3d")(_inverse_real_fft(3))


def _shift(x, axes, sign):
    t = storage_of(x)
    if axes is None:
        if t.ndim == 0:        # TF rolls over axes=() converted to a float tensor
            raise errors.op_error(
                errors.InvalidArgumentError,
                "Value for attr 'Taxis' of float is not in the list of allowed values: int32, int64\n\t; NodeDef: "
                "{{node Roll}}; Op<name=Roll; signature=input:T, shift:Tshift, axis:Taxis -> output:T; attr=T:type; "
                "attr=Tshift:type,allowed=[DT_INT32, DT_INT64]; attr=Taxis:type,allowed=[DT_INT32, DT_INT64]>",
                "Roll", name=None)
        axes = list(range(t.ndim))
    elif isinstance(axes, (int, np.integer)):
        if not -t.ndim <= axes < t.ndim:
            raise errors.kernel_error(errors.InvalidArgumentError, f"slice index {axes} of dimension 0 out of "
                                      "bounds.", "StridedSlice", name="strided_slice/")
        axes = [int(axes)]
    else:
        axes = [int(a) for a in np.asarray(storage_of(axes)).reshape(-1)]
        for i, a in enumerate(axes):
            if not -t.ndim <= a < t.ndim:
                a = a + t.ndim if a < 0 else a
                raise kernel_error(errors.InvalidArgumentError, f"indices[{i}] = {a} is not in [0, {t.ndim})",
                                   "GatherV2")
    shifts = [sign * (t.shape[a] // 2) for a in axes]
    if isinstance(t, np.ndarray):
        return wrap(np.roll(t, shifts, axes))
    return wrap(torch.roll(t, shifts, axes))


@tf_export("signal.fftshift")
def fftshift(x, axes=None, name=None):
    """Rolls each of `axes` (default all) by half its length: the zero frequency moves to the centre."""
    return _shift(x, axes, 1)


@tf_export("signal.ifftshift")
def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift (differs from it by one sample on odd lengths)."""
    return _shift(x, axes, -1)


_ND_ATTRS = {torch.complex64: "Tcomplex=DT_COMPLEX64", torch.complex128: "Tcomplex=DT_COMPLEX128",
             torch.float32: "Tcomplex=DT_COMPLEX64, Treal=DT_FLOAT", torch.float64: "Tcomplex=DT_COMPLEX128, Treal=DT_DOUBLE"}


def _fft_nd(op, preferred, check):
    """TF 2.21's fftnd family: TF's wrapper checks, then its kernel lookup, which finds no CPU kernel."""

    def transform(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        if not hasattr(input_tensor, "shape"):
            raise AttributeError(f"'{type(input_tensor).__name__}' object has no attribute 'shape'")
        rank = np.ndim(input_tensor) if axes is None else len(np.atleast_1d(np.asarray(axes)))
        t = storage_of(input_tensor, preferred)
        check(t, rank)
        if t.dtype not in _ND_ATTRS or (op in ("FFTND", "IFFTND") and t.dtype not in COMPLEX):
            _complex_input(wrap(t), op, "input:Tcomplex, fft_length:int32, axes:int32 -> output:Tcomplex")
        if t.device.type != "cpu":
            raise NotImplementedError(f"tf.signal.{op.lower()} on {t.device.type} is not supported by tfcompat")
        attrs = _ND_ATTRS[t.dtype] if op != "IRFFTND" else _ND_ATTRS[REAL_OF[t.dtype]]
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node {op}}}}} = {op}[{attrs}]"
                              f"\nAll kernels registered for op {op}:\n  <no registered kernels>\n", op)

    transform.__name__ = op.lower()
    transform.__doc__ = (f"TF 2.21's {op.lower()}: TF registers no CPU kernel for it, so on CPU it raises TF's "
                         "NotFoundError (after TF's argument checks).")
    return transform


def _complex_rank(t, rank):
    rank_at_least(t, rank)


def _real_rank(t, rank):
    if t.dtype not in FLOAT_REAL:
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {str(wrap(t))}")
    rank_at_least(t, rank)


def _inverse_real_rank(t, rank):
    rank_at_least(t, rank)
    if t.dtype not in COMPLEX:
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {str(wrap(t))}")


_GPU = "no CPU kernel in TF 2.21 (raises TF's NotFoundError); GPU not supported"
fftnd = tf_export("signal.fftnd", partial=_GPU)(_fft_nd("FFTND", dtypes.complex64, _complex_rank))
ifftnd = tf_export("signal.ifftnd", partial=_GPU)(_fft_nd("IFFTND", dtypes.complex64, _complex_rank))
rfftnd = tf_export("signal.rfftnd", partial=_GPU)(_fft_nd("RFFTND", dtypes.float32, _real_rank))
irfftnd = tf_export("signal.irfftnd", partial=_GPU)(_fft_nd("IRFFTND", dtypes.complex64, _inverse_real_rank))
