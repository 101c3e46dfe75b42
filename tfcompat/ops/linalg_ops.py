"""`tf.linalg`: decompositions, solvers, norms and diagonal ops over the last two axes (batched).

`tf.linalg.matmul` lives in math_ops; einsum/tensordot/eye/l2_normalize in their own modules.
"""
import collections
import math

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    FLOAT_COMPLEX, NUMERIC, REAL, ALL, binary_inputs, check_dtype, input_storage, int_value, kernel_dtypes, kernel_error,
    shapes_text, wrap)
from tfcompat.framework.tensor import storage
from tfcompat.ops.reduction_ops import _euclidean
from tfcompat.ops._array_util import _fast_name

_LINALG = frozenset([torch.float16, torch.float32, torch.float64, torch.complex64, torch.complex128])
_HALF_KERNELS = frozenset([torch.float16, torch.bfloat16])      # some linalg ops have none for them in TF

Qr = collections.namedtuple("Qr", ["q", "r"])
Lu = collections.namedtuple("Lu", ["lu", "p"])
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def _error(message, op, *inputs):
    """TF's eager error text for linear-algebra kernels: `{{function_node __wrapped__<Op>_device_<d>}} <message>
    [Op:<Op>] name: `, without the name part when an input is a list (TF's fallback path)."""
    return errors.kernel_error(errors.InvalidArgumentError, message, op, name=_fast_name(*inputs))


def _compute(t):
    """float16 runs in float32 (torch's linalg kernels have no half); other types run as they are."""
    return t.float() if t.dtype is torch.float16 else t


def _shape_text(t):
    return "[" + ",".join(str(d) for d in t.shape) + "]"


def _back(out, t):
    return out.to(t.dtype) if out.dtype is not t.dtype and not out.is_complex() else out


def _matrix(x, op, square=True, allowed=_LINALG, not_square="Input matrix must be square."):
    t = input_storage(x)
    if t.dtype not in allowed or t.dtype in _HALF_KERNELS:
        check_dtype(t, op, kernel_dtypes(op, allowed))     # TF's registration, or its NotFoundError (no kernel)
    if t.ndim < 2:
        raise _error(f"Input tensor 0 must have rank >= 2, got {t.ndim}", op, x)
    if square and t.shape[-1] != t.shape[-2]:
        raise _error(not_square, op, x)
    return t


@tf_export("linalg.inv")
def inv(input, adjoint=False, name=None):  # noqa: A002
    """Inverse of each square matrix; singular input raises InvalidArgumentError as TF's CPU kernel."""
    t = _matrix(input, "MatrixInverse")
    a = _compute(t.mH if adjoint else t)
    out, info = torch.linalg.inv_ex(a)
    if bool((info != 0).any()):
        raise _error("Input is not invertible.", "MatrixInverse", input)
    return wrap(_back(out, t))


@tf_export("linalg.det")
def det(input, name=None):  # noqa: A002
    t = _matrix(input, "MatrixDeterminant")
    return wrap(_back(torch.linalg.det(_compute(t)), t))


@tf_export("linalg.slogdet")
def slogdet(input, name=None):  # noqa: A002
    """(sign, log|det|) of each square matrix."""
    t = _matrix(input, "LogMatrixDeterminant")
    sign, logabs = torch.linalg.slogdet(_compute(t))
    return LogMatrixDeterminant(wrap(_back(sign, t)), wrap(_back(logabs, t) if not t.is_complex()
                                                            else logabs.to(t.dtype)))


@tf_export("linalg.logdet")
def logdet(matrix, name=None):
    """log(det(matrix)) of Hermitian positive definite matrices, via Cholesky."""
    t = _matrix(matrix, "Cholesky")
    chol, info = torch.linalg.cholesky_ex(_compute(t))
    d = torch.diagonal(chol, dim1=-2, dim2=-1)
    out = 2.0 * torch.sum(torch.log(d.real if d.is_complex() else d), dim=-1)
    out = torch.where(info == 0, out, torch.full_like(out, math.nan))     # not positive definite: TF's NaN
    return wrap(_back(out, t))


def _rhs(rhs, t, op, matrix):
    b = input_storage(rhs)
    if b.dtype is not t.dtype:
        from tfcompat.framework.op_def import type_name
        raise errors.op_error(
            errors.InvalidArgumentError,
            f"cannot compute {op} as input #1(zero-based) was expected to be a {type_name(t.dtype)} tensor "
            f"but is a {type_name(b.dtype)} tensor", op)
    if b.ndim < 2 or b.shape[-2] != t.shape[-1]:
        raise _error("Input matrix and rhs are incompatible.", op, matrix, rhs)
    return b


@tf_export("linalg.solve")
def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (adjoint: matrix^H @ X = rhs)."""
    t = _matrix(matrix, "MatrixSolve", not_square="First input (lhs) must be a square matrix.")
    b = _rhs(rhs, t, "MatrixSolve", matrix)
    a = _compute(t.mH if adjoint else t)
    out, info = torch.linalg.solve_ex(a, _compute(b))
    if bool((info != 0).any()):
        raise _error("Input matrix is not invertible.", "MatrixSolve", matrix, rhs)
    return wrap(_back(out, t))


@tf_export("linalg.triangular_solve")
def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves with the lower (or upper) triangle of `matrix`; the other triangle is ignored."""
    t = _matrix(matrix, "MatrixTriangularSolve")
    b = input_storage(rhs)
    if b.ndim >= 2 and b.dtype is t.dtype and b.shape[-2] != t.shape[-1]:
        raise _error(f"In[0] mismatch In[1] shape: {t.shape[-2 if adjoint else -1]} vs. {b.shape[-2]}: "
                     f"{_shape_text(t)} {_shape_text(b)} {int(bool(lower))} {int(bool(adjoint))}",
                     "MatrixTriangularSolve", matrix, rhs)
    b = _rhs(rhs, t, "MatrixTriangularSolve", matrix)
    a = _compute(t)
    upper = not lower
    if adjoint:
        a, upper = a.mH, lower
    out = torch.linalg.solve_triangular(a, _compute(b), upper=upper)
    return wrap(_back(out, t))


@tf_export("linalg.cholesky")
def cholesky(input, name=None):  # noqa: A002
    """Lower Cholesky factor; a matrix that is not positive definite gives TF's CPU result and no error: NaN in
    its lower triangle, 0 above."""
    t = _matrix(input, "Cholesky")
    out, info = torch.linalg.cholesky_ex(_compute(t))
    if bool((info != 0).any()):
        bad = (info != 0).reshape(*info.shape, 1, 1)
        out = torch.where(bad, torch.full_like(out, float("nan")).tril(), out)
    return wrap(_back(out, t))


@tf_export("linalg.cholesky_solve")
def cholesky_solve(chol, rhs, name=None):
    """X with (chol @ chol^H) @ X = rhs, for a lower Cholesky factor `chol`."""
    t = _matrix(chol, "MatrixTriangularSolve")
    b = _rhs(rhs, t, "MatrixTriangularSolve", chol)
    return wrap(_back(torch.cholesky_solve(_compute(b), _compute(t), upper=False), t))


@tf_export("linalg.qr")
def qr(input, full_matrices=False, name=None):  # noqa: A002
    """Qr(q, r) with input = q @ r; reduced unless `full_matrices`."""
    t = _matrix(input, "Qr", square=False)
    q, r = torch.linalg.qr(_compute(t), mode="complete" if full_matrices else "reduced")
    return Qr(wrap(_back(q, t)), wrap(_back(r, t)))


@tf_export("linalg.svd")
def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """(s, u, v) with tensor = u @ diag(s) @ v^H (TF's order; `v` is not transposed); s alone if not compute_uv."""
    t = _matrix(tensor, "Svd", square=False)
    a = _compute(t)
    if not compute_uv:
        return wrap(_back(torch.linalg.svdvals(a), t))
    u, s, vh = torch.linalg.svd(a, full_matrices=bool(full_matrices))
    return wrap(_back(s, t)), wrap(_back(u, t)), wrap(_back(vh.mH, t))


@tf_export("linalg.eigh")
def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors as columns) of self-adjoint matrices (lower triangle used)."""
    t = _matrix(tensor, "SelfAdjointEigV2")
    e, v = torch.linalg.eigh(_compute(t))
    return wrap(_back(e, t) if not t.is_complex() else e), wrap(_back(v, t))


@tf_export("linalg.eigvalsh")
def eigvalsh(tensor, name=None):
    t = _matrix(tensor, "SelfAdjointEigV2")
    e = torch.linalg.eigvalsh(_compute(t))
    return wrap(_back(e, t) if not t.is_complex() else e)


_COMPLEX_OF = {torch.float16: torch.complex64, torch.float32: torch.complex64, torch.float64: torch.complex128,
               torch.complex64: torch.complex64, torch.complex128: torch.complex128}


@tf_export("linalg.eig")
def eig(tensor, name=None):
    """(eigenvalues, eigenvectors) of general square matrices, complex-valued."""
    t = _matrix(tensor, "Eig")
    e, v = torch.linalg.eig(_compute(t))
    c = _COMPLEX_OF[t.dtype]
    return wrap(e.to(c)), wrap(v.to(c))


@tf_export("linalg.eigvals")
def eigvals(tensor, name=None):
    t = _matrix(tensor, "Eig")
    return wrap(torch.linalg.eigvals(_compute(t)).to(_COMPLEX_OF[t.dtype]))


# -- norms ----------------------------------------------------------------------------------------------

_MATRIX_ORDS = ("euclidean", "fro", 1, 2, np.inf)
_VECTOR_ORDS = ("euclidean", 1, 2, np.inf)


def _norm_axes(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)) and len(axis) == 2:
        a, b = (int(v) for v in axis)
        if a % max(ndim, 1) == b % max(ndim, 1):
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        return _reduction_axis(a, ndim), _reduction_axis(b, ndim)
    if isinstance(axis, (list, tuple)):
        if len(axis) != 1:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        axis = axis[0]
    return (_reduction_axis(int(axis), ndim),)


def _reduction_axis(a, ndim):
    """`a` in [-ndim, ndim) as a non-negative axis, else the error of the Sum TF's norm reduces with."""
    if not -ndim <= a < ndim:
        raise errors.kernel_error(errors.InvalidArgumentError, f"Invalid reduction dimension ({a} for input with "
                                  f"{ndim} dimension(s)", "Sum")
    return a % ndim


@tf_export("norm", "linalg.norm")
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """Vector norm (axis None or an int) or matrix norm (axis a pair) as TF's `tf.norm`."""
    t = input_storage(tensor)
    check_dtype(t, "Norm", FLOAT_COMPLEX)
    axes = _norm_axes(axis, t.ndim)
    is_matrix = axes is not None and len(axes) == 2
    if is_matrix:
        if not any(ord == o and type(ord) is not bool for o in _MATRIX_ORDS):
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, 2, inf], got {ord}")
    elif isinstance(ord, str):
        if ord != "euclidean":
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    elif not ord > 0:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    a = _compute(t)
    keep = bool(keepdims)
    if is_matrix:
        out = _matrix_norm(a, ord, axes, keep, t.dtype)
    else:
        p = 2 if ord == "euclidean" else float(ord)
        dims = axes if axes is not None else None
        if p == 2:          # TF's sqrt(sum(x * conj(x))): no rescaling against overflow, NaN imaginary part for inf
            out = _euclidean(t if axes is not None else t.reshape(-1), dims if dims is not None else (0,), False)
        else:
            out = torch.linalg.vector_norm(a if axes is not None else a.reshape(-1), ord=p, dim=dims)
        if keep:
            out = out.reshape([1] * t.ndim) if axes is None else out.unsqueeze(axes[0])
    if out.is_complex() or out.dtype is not t.dtype:
        out = out.to(t.dtype) if not t.is_complex() else out.to(t.dtype)
    return wrap(out)


def _matrix_norm(a, ord, axes, keep, dtype):
    r, c = axes
    if ord in ("euclidean", "fro"):         # TF's sqrt(sum(x * conj(x))) in the input's dtype
        out = _euclidean(a.to(dtype), (r, c), keep)
    elif ord == 1:
        out = torch.amax(torch.sum(a.abs(), dim=r, keepdim=True), dim=c, keepdim=True)
    elif ord == np.inf:
        out = torch.amax(torch.sum(a.abs(), dim=c, keepdim=True), dim=r, keepdim=True)
    else:   # spectral norm
        m = torch.movedim(a, (r, c), (-2, -1))
        s = torch.linalg.matrix_norm(m, ord=2, keepdim=True)
        out = torch.movedim(s, (-2, -1), (r, c)) if keep else s
    if not keep and ord != "euclidean" and ord != "fro":
        out = out.reshape([d for i, d in enumerate(out.shape) if i not in (r, c)]) if ord != 2 else \
            out.reshape(out.shape[:-2])
    return out


@tf_export("linalg.normalize")
def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """(tensor / norm, norm) with the norm kept to broadcast."""
    n = norm(tensor, ord=ord, axis=axis, keepdims=True)
    t = input_storage(tensor)
    return wrap(t / storage(n)), n


@tf_export("linalg.global_norm")
def global_norm(t_list, name=None):
    """sqrt(sum of squares of every tensor in `t_list`) (None entries are skipped)."""
    if not isinstance(t_list, (list, tuple)):
        raise TypeError(f"t_list should be a sequence of tensors. Received {type(t_list)}.")
    ts = [input_storage(v) for v in t_list if v is not None]
    if not ts:
        return wrap(torch.tensor(0.0))
    total = sum(torch.sum(t.float() * t.float() if t.dtype is not torch.float64 else t * t) for t in ts)
    dtype = ts[0].dtype
    return wrap(torch.sqrt(total).to(dtype))


# -- diagonals, bands, transposes ----------------------------------------------------------------------

def _k_range(k):
    if isinstance(k, (list, tuple)) or (hasattr(k, "shape") and len(k.shape) == 1):
        ks = [int(v) for v in (k.numpy() if hasattr(k, "numpy") else k)]
        return (ks[0], ks[-1]) if ks else (0, 0)
    k = int_value(k)
    return k, k


@tf_export("linalg.band_part")
def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
    """Keeps `num_lower` subdiagonals and `num_upper` superdiagonals (negative: all), zeroes the rest."""
    t = input_storage(input)
    lo, hi = int_value(num_lower), int_value(num_upper)
    if t.ndim < 2:
        raise _band_error(f"input must be at least 2-dim, received shape: [{','.join(map(str, t.shape))}]")
    m, n = t.shape[-2], t.shape[-1]
    if lo > m:
        raise _band_error(f"num_lower must be negative or less or equal to number of rows ({m}) got: {lo}")
    if hi > n:
        raise _band_error(f"num_upper must be negative or less or equal to number of columns ({n}) got: {hi}")
    i = torch.arange(m, device=t.device).unsqueeze(1)
    j = torch.arange(n, device=t.device).unsqueeze(0)
    keep = torch.ones((m, n), dtype=torch.bool, device=t.device)
    if lo >= 0:
        keep &= (i - j) <= lo
    if hi >= 0:
        keep &= (j - i) <= hi
    return wrap(torch.where(keep, t, torch.zeros((), dtype=t.dtype, device=t.device)))


def _band_error(msg):
    return errors.kernel_error(errors.InvalidArgumentError, msg, "MatrixBandPart")


_DIAG_TYPES = frozenset([torch.bfloat16, torch.float16, torch.float32, torch.float64, torch.int32, torch.int64,
                         torch.complex64, torch.complex128])     # TF's Diag registration


@tf_export("linalg.diag", partial="a range of diagonals `k`")
def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """A batch of matrices with `diagonal` on diagonal `k` (TF's MatrixDiagV3, one diagonal)."""
    t = input_storage(diagonal)
    if t.ndim == 0:
        raise errors.kernel_error(errors.InvalidArgumentError, "diagonal must be at least 1-dim, received shape: []",
                                  "MatrixDiagV3")
    lo, hi = _k_range(k)
    if lo != hi:
        raise NotImplementedError("tfcompat: tf.linalg.diag with a range of diagonals `k` is not supported")
    n = t.shape[-1]
    rows, cols = int_value(num_rows), int_value(num_cols)
    min_rows, min_cols = n + max(-lo, 0), n + max(lo, 0)
    if rows < 0 and cols < 0:         # TF assumes square matrices then
        rows = cols = n + abs(lo)
    rows = min_rows if rows < 0 else rows
    cols = min_cols if cols < 0 else cols
    if rows < min_rows or cols < min_cols or (rows != min_rows and cols != min_cols):
        raise _error("The number of rows or columns is not consistent with the specified d_lower, d_upper, "
                     "and diagonal.", "MatrixDiagV3")
    out = torch.full((*t.shape[:-1], rows, cols), padding_value, dtype=t.dtype, device=t.device)
    torch.diagonal(out, offset=lo, dim1=-2, dim2=-1).copy_(t)
    return wrap(out)


@tf_export("linalg.diag_part")
def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """Diagonal `k` of each matrix, or diagonals k[0]..k[1] stacked (top one first), padded per `align`."""
    t = input_storage(input)
    if t.ndim < 2:
        raise errors.kernel_error(errors.InvalidArgumentError, "input must be at least 2-dim, received shape: "
                                  f"{_shape_text(t)}", "MatrixDiagPartV3", name=name)
    lo, hi = _k_range(k)
    if lo == hi:
        return wrap(torch.diagonal(t, offset=lo, dim1=-2, dim2=-1).clone())
    m, n = t.shape[-2], t.shape[-1]
    width = max(min(m + min(d, 0), n - max(d, 0)) for d in range(lo, hi + 1))
    sup_align, sub_align = align.split("_")
    rows = []
    for d in range(hi, lo - 1, -1):
        v = torch.diagonal(t, offset=d, dim1=-2, dim2=-1)
        pad = width - v.shape[-1]
        if pad:
            right_aligned = (sup_align if d >= 0 else sub_align) == "RIGHT"
            fill = torch.full((*v.shape[:-1], pad), padding_value, dtype=t.dtype, device=t.device)
            v = torch.cat([fill, v] if right_aligned else [v, fill], dim=-1)
        rows.append(v)
    return wrap(torch.stack(rows, dim=-2))


@tf_export("linalg.set_diag", partial="a range of diagonals `k`")
def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """`input` with diagonal `k` replaced by `diagonal`."""
    t, d = binary_inputs(input, diagonal, "MatrixSetDiagV3", ALL)
    lo, hi = _k_range(k)
    if lo != hi:
        raise NotImplementedError("tfcompat: tf.linalg.set_diag with a range of diagonals `k` is not supported")
    out = t.clone()
    torch.diagonal(out, offset=lo, dim1=-2, dim2=-1).copy_(d)
    return wrap(out)


@tf_export("linalg.trace")
def trace(x, name=None):
    """Sum of the main diagonal of each matrix."""
    t = input_storage(x)
    check_dtype(t, "Sum", NUMERIC)
    if t.ndim < 2:      # TF sums matrix_diag_part(x)
        diag_part(x)
    out = torch.diagonal(t, dim1=-2, dim2=-1).sum(-1)
    return wrap(out.to(t.dtype) if out.dtype is not t.dtype else out)


@tf_export("linalg.tensor_diag")
def tensor_diag(diagonal, name=None):
    """A tensor of shape D + D with `diagonal` (shape D) on its diagonal."""
    t = input_storage(diagonal)
    check_dtype(t, "Diag", kernel_dtypes("Diag", _DIAG_TYPES))
    if t.ndim == 0:
        raise errors.kernel_error(errors.InvalidArgumentError, "Input must be at least rank 1, got 0", "Diag")
    flat = t.reshape(-1)
    return wrap(torch.diag(flat).reshape(*t.shape, *t.shape))


@tf_export("linalg.tensor_diag_part")
def tensor_diag_part(input, name=None):  # noqa: A002
    """The diagonal of a tensor of shape D + D, shape D."""
    t = input_storage(input)
    half = t.ndim // 2
    shape = t.shape[:half]
    n = math.prod(shape)
    return wrap(torch.diagonal(t.reshape(n, n)).reshape(shape).clone())


@tf_export("linalg.matrix_transpose", "linalg.transpose")
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Transposes the last two axes (conjugating if `conjugate`)."""
    t = input_storage(a)
    if t.ndim < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {a} with "
                         f"shape: {tuple(t.shape)}")
    if type(t) is np.ndarray:                                 # strings
        return wrap(np.ascontiguousarray(np.swapaxes(t, -1, -2)))
    out = t.transpose(-1, -2)
    if conjugate and t.is_complex():
        out = out.conj()
    return wrap(out.contiguous() if not t.is_complex() else out.resolve_conj().contiguous())


@tf_export("linalg.adjoint")
def adjoint(matrix, name=None):
    """Conjugate transpose of the last two axes."""
    return matrix_transpose(matrix, conjugate=True)


@tf_export("linalg.cross")
def cross(a, b, name=None):
    """Cross product of 3-vectors along the last axis."""
    x, y = binary_inputs(a, b, "Cross", REAL)
    if x.shape != y.shape:
        raise kernel_error(errors.InvalidArgumentError, f"Both inputs must be of same shape: {shapes_text(x, y)}",
                           "Cross", x)
    if x.ndim == 0 or x.shape[-1] != 3:
        raise kernel_error(errors.FailedPreconditionError, "Cross-products are only defined for 3-element vectors.",
                           "Cross", x)
    if x.dtype in (torch.uint16, torch.uint32, torch.uint64):    # no torch kernel: modular arithmetic in int64
        return wrap(torch.linalg.cross(x.to(torch.int64), y.to(torch.int64), dim=-1).to(x.dtype))
    return wrap(torch.linalg.cross(x, y, dim=-1))


@tf_export("linalg.matvec")
def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b for matrices `a` [..., M, N] and vectors `b` [..., N]."""
    from tfcompat.ops.math_ops import matmul
    x, y = binary_inputs(a, b, "MatMul", NUMERIC)
    out = matmul(wrap(x), wrap(y.unsqueeze(-1)), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return wrap(storage(out).squeeze(-1))


# -- least squares, pseudo-inverse, functions of matrices, LU -------------------------------------------

@tf_export("linalg.lstsq")
def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Least-squares X minimising ||matrix @ X - rhs||^2 + l2_regularizer * ||X||^2."""
    t = _matrix(matrix, "MatrixSolveLs", square=False)
    b = input_storage(rhs)
    if b.dtype is t.dtype and b.ndim >= 2 and b.shape[-2] != t.shape[-2] and fast:
        # TF's fast path starts with matmul(matrix, rhs, adjoint_a=True)
        raise _error(f"Matrix size-incompatible: In[0]: {_shape_text(t)}, In[1]: {_shape_text(b)}", "MatMul", matrix,
                     rhs)
    if b.dtype is not t.dtype or b.ndim < 2 or b.shape[-2] != t.shape[-2]:
        raise _error("Input matrix and rhs are incompatible.", "MatrixSolveLs", matrix, rhs)
    b = _compute(b)
    a = _compute(t)
    lam = float(l2_regularizer)
    bad = ~(torch.isfinite(a).all(-1).all(-1) & torch.isfinite(b).all(-1).all(-1))   # TF: NaN; torch's LAPACK asserts
    if bool(bad.any()):
        a = torch.where(bad[..., None, None], torch.eye(a.shape[-2], a.shape[-1], dtype=a.dtype, device=a.device), a)
        b = torch.where(bad[..., None, None], torch.zeros_like(b), b)
    if lam == 0.0:
        out = torch.linalg.lstsq(a, b, driver="gelsd" if a.device.type == "cpu" else None).solution
    else:
        n = a.shape[-1]
        gram = a.mH @ a + lam * torch.eye(n, dtype=a.dtype, device=a.device)
        out = torch.linalg.solve(gram, a.mH @ b)
    if bool(bad.any()):
        out = torch.where(bad[..., None, None], torch.full_like(out, float("nan")), out)
    return wrap(_back(out, t))


@tf_export("linalg.pinv")
def pinv(a, rcond=None, validate_args=False, name=None):
    """Moore-Penrose pseudo-inverse; singular values below rcond * max(s) are dropped
    (default rcond = 10 * max(rows, cols) * eps)."""
    t = _matrix(a, "Pinv", square=False, allowed=frozenset([torch.float32, torch.float64, torch.float16]))
    x = _compute(t)
    if rcond is None:
        rcond = 10.0 * max(t.shape[-2], t.shape[-1]) * torch.finfo(t.dtype).eps
    return wrap(_back(torch.linalg.pinv(x, rtol=float(rcond)), t))


@tf_export("linalg.matrix_rank")
def matrix_rank(a, tol=None, validate_args=False, name=None):
    """Number of singular values above `tol` (default eps * max(rows, cols) * max(s))."""
    t = _matrix(a, "MatrixRank", square=False)
    s = torch.linalg.svdvals(_compute(t))
    if tol is None:
        tol = torch.amax(s, dim=-1, keepdim=True) * max(t.shape[-2:]) * torch.finfo(t.dtype).eps
    return wrap(torch.sum(s > tol, dim=-1).to(torch.int32))


@tf_export("linalg.expm")
def expm(input, name=None):  # noqa: A002
    """Matrix exponential of each square matrix; TF's wrapper returns [..., 0, 0] input as it is, then refuses
    other than float/complex dtypes (ValueError); float16 fails in its MatrixSolve (no half kernel)."""
    t = input_storage(input)
    if t.ndim >= 2 and t.shape[-2:] == (0, 0):
        return wrap(t)
    if type(t) is np.ndarray or t.dtype is torch.bool:          # fails in the wrapper's first op, Abs
        check_dtype(t, "Abs", _LINALG)
    if t.dtype not in _LINALG:
        raise ValueError(f"tf.linalg.expm does not support matrices of type {dtypes.FROM_STORAGE[t.dtype]}")
    if t.dtype is torch.float16:
        raise errors.op_error(errors.NotFoundError, "Could not find device for node: {{node MatrixSolve}} = "
                              "MatrixSolve[T=DT_HALF, adjoint=false]\nAll kernels registered for op MatrixSolve:\n"
                              "  device='CPU'; T in [DT_COMPLEX128]\n  device='CPU'; T in [DT_COMPLEX64]\n"
                              "  device='CPU'; T in [DT_DOUBLE]\n  device='CPU'; T in [DT_FLOAT]\n", "MatrixSolve")
    t = _matrix(wrap(t), "MatrixExponential")
    return wrap(_back(torch.linalg.matrix_exp(_compute(t)), t))


@tf_export("linalg.logm")
def logm(input, name=None):  # noqa: A002
    """Principal matrix logarithm of complex matrices (computed by eigendecomposition: the matrices
    must be diagonalizable)."""
    t = _matrix(input, "MatrixLogarithm", allowed=frozenset([torch.complex64, torch.complex128]))
    w, v = torch.linalg.eig(t)
    return wrap((v @ torch.diag_embed(torch.log(w)) @ torch.linalg.inv(v)).to(t.dtype))


@tf_export("linalg.sqrtm")
def sqrtm(input, name=None):  # noqa: A002
    """Principal square root of each square matrix (by eigendecomposition: diagonalizable matrices with
    no negative real eigenvalues)."""
    t = _matrix(input, "MatrixSquareRoot")
    c = _compute(t)
    bad = ~torch.isfinite(c).all(-1).all(-1)      # a matrix with Inf/NaN has a NaN root in TF (torch's eig raises)
    if bool(bad.any()):
        c = torch.where(bad[..., None, None], torch.zeros_like(c), c)
    w, v = torch.linalg.eig(c)
    out = v @ torch.diag_embed(torch.sqrt(w)) @ torch.linalg.inv(v)
    if not t.is_complex():       # a real root needs no negative real eigenvalue: TF's real Schur method gives NaN
        bad = bad | ((w.imag == 0) & (w.real < 0)).any(-1)
    out = out.real.to(t.dtype) if not t.is_complex() else out.to(t.dtype)
    return wrap(torch.where(bad[..., None, None], torch.full_like(out, float("nan")), out))


@tf_export("linalg.lu")
def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002
    """Lu(lu, p): L (unit lower, implied diagonal) and U packed in `lu`, and `p` with input[p] = L @ U."""
    t = _matrix(input, "Lu")
    P, L, U = torch.linalg.lu(_compute(t))
    packed = L + U - torch.eye(t.shape[-1], dtype=L.dtype, device=L.device)
    perm = torch.argmax(P.real if P.is_complex() else P, dim=-2)
    return Lu(wrap(_back(packed, t)), wrap(perm.to(dtypes.as_dtype(output_idx_type).torch_dtype)))


def _lu_parts(lower_upper, perm):
    t = input_storage(lower_upper)
    p = input_storage(perm).long()
    n = t.shape[-1]
    eye = torch.eye(n, dtype=t.dtype, device=t.device)
    lower = torch.tril(t, -1) + eye
    upper = torch.triu(t)
    return t, p, lower, upper


@tf_export("linalg.lu_reconstruct")
def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix whose `tf.linalg.lu` is (lower_upper, perm)."""
    t, p, lower, upper = _lu_parts(lower_upper, perm)
    prod = _compute(lower) @ _compute(upper)
    inv_p = torch.argsort(p, dim=-1)
    out = torch.gather(prod, -2, inv_p.unsqueeze(-1).expand_as(prod))
    return wrap(_back(out, t))


@tf_export("linalg.lu_solve")
def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with A @ X = rhs, for A given by its `tf.linalg.lu` factors."""
    t, p, lower, upper = _lu_parts(lower_upper, perm)
    b = _compute(input_storage(rhs))
    pb = torch.gather(b, -2, p.unsqueeze(-1).expand(*p.shape, b.shape[-1]))
    y = torch.linalg.solve_triangular(_compute(lower), pb, upper=False, unitriangular=True)
    return wrap(_back(torch.linalg.solve_triangular(_compute(upper), y, upper=True), t))


@tf_export("linalg.lu_matrix_inverse")
def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of A given by its `tf.linalg.lu` factors."""
    t = input_storage(lower_upper)
    eye = torch.eye(t.shape[-1], dtype=t.dtype, device=t.device).expand(t.shape)
    return lu_solve(lower_upper, perm, wrap(eye))
