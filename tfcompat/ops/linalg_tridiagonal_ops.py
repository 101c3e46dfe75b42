"""`tf.linalg`'s banded solvers: `tridiagonal_solve`, `tridiagonal_matmul`, `banded_triangular_solve`,
`eigh_tridiagonal` (eigenvalues).

Tridiagonal systems are eliminated row by row as TF's CPU kernel does (Gaussian elimination with partial pivoting,
or the Thomas algorithm without it, so a zero pivot gives NaN/inf as in TF), vectorised over the batch and the
right-hand sides; every step is a torch op, so gradients follow. The formats are TF's: `compact` ([..., 3, M]:
superdiagonal with its last entry ignored, diagonal, subdiagonal with its first entry ignored), `sequence`
(super, main, sub; the off-diagonals of length M or M - 1) and `matrix` (dense [..., M, M]).
"""
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops import array_ops, complex_ops, linalg_ops, math_ops
from tfcompat.ops.gather_ops import one_hot_rows

_SOLVE_TYPES = (torch.float64, torch.float32, torch.complex64, torch.complex128)


def _attr_error(t, op, allowed, signature):
    return errors.op_error(
        errors.InvalidArgumentError,
        f"Value for attr 'T' of {type_name(t.dtype)} is not in the list of allowed values: {allowed}\n"
        f"\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={signature}", op)


def _same_type(a, b, op, index=1):
    if a.dtype is not b.dtype:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"cannot compute {op} as input #{index}(zero-based) was expected to be a "
                              f"{type_name(a.dtype)} tensor but is a {type_name(b.dtype)} tensor", op)


# -- tridiagonal_solve ------------------------------------------------------------------------------------------------
def _eliminate_pivoting(sup, main, sub, rhs):
    """Solve with row interchanges (LAPACK gtsv's scheme): sup/main/sub [..., M], rhs [..., M, K]."""
    m = main.shape[-1]
    d = [main[..., i] for i in range(m)]          # pivots
    du = [sup[..., i] for i in range(m)]         # first superdiagonal of U
    du2 = [None] * m                             # second superdiagonal of U (after a swap)
    r = [rhs[..., i, :] for i in range(m)]
    for i in range(m - 1):
        low = sub[..., i + 1]
        swap = low.abs() > d[i].abs()
        nxt_d, nxt_du = d[i + 1], du[i + 1] if i + 1 < m - 1 else torch.zeros_like(d[i])
        # no swap: eliminate row i + 1 with row i
        f = low / torch.where(swap, torch.ones_like(d[i]), d[i])
        keep_d1 = nxt_d - f * du[i]
        keep_r1 = r[i + 1] - f[..., None] * r[i]
        # swap: row i + 1 becomes the pivot row
        g = d[i] / torch.where(swap, low, torch.ones_like(low))
        swap_d1 = du[i] - g * nxt_d
        swap_r1 = r[i] - g[..., None] * r[i + 1]
        s = swap[..., None]
        new_di = torch.where(swap, low, d[i])
        new_dui = torch.where(swap, nxt_d, du[i])
        du2[i] = torch.where(swap, nxt_du, torch.zeros_like(nxt_du))
        if i + 1 < m - 1:
            du[i + 1] = torch.where(swap, -g * nxt_du, nxt_du)
        r[i], r[i + 1] = torch.where(s, r[i + 1], r[i]), torch.where(s, swap_r1, keep_r1)
        d[i], du[i], d[i + 1] = new_di, new_dui, torch.where(swap, swap_d1, keep_d1)
    x = [None] * m
    for i in range(m - 1, -1, -1):
        acc = r[i]
        if i + 1 < m:
            acc = acc - du[i][..., None] * x[i + 1]
        if i + 2 < m:
            acc = acc - du2[i][..., None] * x[i + 2]
        x[i] = acc / d[i][..., None]
    return torch.stack(x, dim=-2)


def _eliminate_thomas(sup, main, sub, rhs):
    """The Thomas algorithm (no pivoting): a zero pivot gives inf/NaN, as TF's kernel."""
    m = main.shape[-1]
    c = [None] * m
    r = [None] * m
    c[0] = sup[..., 0] / main[..., 0] if m > 1 else None
    r[0] = rhs[..., 0, :] / main[..., 0][..., None]
    for i in range(1, m):
        denom = main[..., i] - sub[..., i] * c[i - 1]
        if i < m - 1:
            c[i] = sup[..., i] / denom
        r[i] = (rhs[..., i, :] - sub[..., i][..., None] * r[i - 1]) / denom[..., None]
    x = [None] * m
    x[m - 1] = r[m - 1]
    for i in range(m - 2, -1, -1):
        x[i] = r[i] - c[i][..., None] * x[i + 1]
    return torch.stack(x, dim=-2)


def _solve_kernel(diagonals, rhs, partial_pivoting):
    op = "TridiagonalSolve"
    d, b = input_storage(diagonals), input_storage(rhs)
    if d.dtype not in _SOLVE_TYPES:
        raise _attr_error(d, op, "double, float, complex64, complex128",
                          "diagonals:T, rhs:T -> output:T; attr=partial_pivoting:bool,default=true; "
                          "attr=perturb_singular:bool,default=false; attr=T:type,allowed=[DT_DOUBLE, DT_FLOAT, "
                          "DT_COMPLEX64, DT_COMPLEX128]>")
    _same_type(d, b, op)
    m = d.shape[-1]
    batch = torch.broadcast_shapes(d.shape[:-2], b.shape[:-2])
    d = d.expand(batch + d.shape[-2:])
    b = b.expand(batch + b.shape[-2:])
    if m == 0 or b.shape[-1] == 0:
        return wrap(b.clone())
    sup, main, sub = d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if m == 1:
        return wrap(b / main[..., None])
    solve = _eliminate_pivoting if partial_pivoting else _eliminate_thomas
    return wrap(solve(sup, main, sub, b))


def _static_shape(x):
    return x.shape if hasattr(x, "shape") and isinstance(x.shape, TensorShape) else TensorShape(
        convert_to_tensor(x).shape)


def _compact_solve(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting):
    diagonals, rhs = convert_to_tensor(diagonals), convert_to_tensor(rhs)
    d_rank, r_rank = diagonals.shape.rank, rhs.shape.rank
    if d_rank < 2:
        raise ValueError(f"Expected diagonals to have rank at least 2, got {d_rank}")
    if r_rank != d_rank and r_rank != d_rank - 1:
        raise ValueError(f"Expected the rank of rhs to be {d_rank - 1} or {d_rank}, got {r_rank}")
    if not diagonals.shape[:-2].is_compatible_with(rhs.shape[:d_rank - 2]):
        raise ValueError(f"Batch shapes {diagonals.shape[:-2]} and {rhs.shape[:d_rank - 2]} are incompatible")
    if diagonals.shape[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {diagonals.shape[-2]}")

    def check_sides(r):
        if diagonals.shape[-1] and r.shape[-2] and diagonals.shape[-1] != r.shape[-2]:
            raise ValueError(f"Expected number of left-hand sided and right-hand sides to be equal, got "
                             f"{diagonals.shape[-1]} and {r.shape[-2]}")

    if r_rank == d_rank - 1:
        if conjugate_rhs:
            rhs = complex_ops.conj(rhs)
        rhs = array_ops.expand_dims(rhs, -1)
        check_sides(rhs)
        return array_ops.squeeze(_solve_kernel(diagonals, rhs, partial_pivoting), -1)
    if transpose_rhs:
        rhs = linalg_ops.matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = complex_ops.conj(rhs)
    check_sides(rhs)
    return _solve_kernel(diagonals, rhs, partial_pivoting)


def _pad_last(t, before, after):
    t = convert_to_tensor(t)
    return array_ops.pad(t, [[0, 0]] * (t.shape.rank - 1) + [[before, after]])


def _from_sequence(diagonals):
    if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
        raise ValueError("Expected diagonals to be a sequence of length 3.")
    superdiag, maindiag, subdiag = (convert_to_tensor(t) for t in diagonals)
    if (not subdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1])
            or not superdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1])):
        raise ValueError(f"Tensors representing the three diagonals must have the same shape,except for the last "
                         f"dimension, got {subdiag.shape}, {maindiag.shape}, {superdiag.shape}")
    m = maindiag.shape[-1]

    def pad(t, name, before, after):
        n = t.shape[-1]
        if not n or n == m:
            return t
        if n == m - 1:
            return _pad_last(t, before, after)
        raise ValueError(f"Expected {name} to be have length {m} or {m - 1}, got {n}.")
    return array_ops.stack((pad(superdiag, "superdiagonal", 0, 1), maindiag, pad(subdiag, "subdiagonal", 1, 0)),
                           axis=-2)


def _from_matrix(diagonals):
    diagonals = convert_to_tensor(diagonals)
    m1, m2 = diagonals.shape[-1], diagonals.shape[-2]
    if m1 and m2 and m1 != m2:
        raise ValueError(f"Expected last two dimensions of diagonals to be same, got {m1} and {m2}")
    t = input_storage(diagonals)
    sup = torch.nn.functional.pad(torch.diagonal(t, 1, -2, -1), (0, 1))
    sub = torch.nn.functional.pad(torch.diagonal(t, -1, -2, -1), (1, 0))
    return wrap(torch.stack((sup, torch.diagonal(t, 0, -2, -1), sub), dim=-2))


@tf_export("linalg.tridiagonal_solve", partial="perturb_singular=True (TF's perturbation of singular pivots)")
def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False, name=None,
                      partial_pivoting=True, perturb_singular=False):
    """Solves tridiagonal systems `A x = rhs` (batched, several right-hand sides)."""
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if perturb_singular:
        raise NotImplementedError("tf.linalg.tridiagonal_solve(perturb_singular=True) is not supported by tfcompat")
    if diagonals_format == "compact":
        compact = diagonals
    elif diagonals_format == "sequence":
        compact = _from_sequence(diagonals)
    elif diagonals_format == "matrix":
        compact = _from_matrix(diagonals)
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    return _compact_solve(compact, rhs, transpose_rhs, conjugate_rhs, partial_pivoting)


# -- tridiagonal_matmul -----------------------------------------------------------------------------------------------
@tf_export("linalg.tridiagonal_matmul")
def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """The product of tridiagonal matrices (given by their diagonals) with `rhs` [..., M, N]."""
    op = "TridiagonalMatMul"
    if diagonals_format == "compact":
        diagonals = convert_to_tensor(diagonals)
        parts = (diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :])
    elif diagonals_format == "sequence":
        parts = tuple(diagonals)
    elif diagonals_format == "matrix":
        compact = _from_matrix(diagonals)
        parts = (compact[..., 0, :], compact[..., 1, :], compact[..., 2, :])
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    sup, main, sub = (input_storage(p) for p in parts)
    b = input_storage(rhs)
    if main.dtype not in _SOLVE_TYPES:
        raise _attr_error(main, op, "double, float, complex64, complex128",
                          "superdiag:T, maindiag:T, subdiag:T, rhs:T -> output:T; attr=T:type,allowed=[DT_DOUBLE, "
                          "DT_FLOAT, DT_COMPLEX64, DT_COMPLEX128]>")
    for index, t in ((0, sup), (2, sub), (3, b)):
        _same_type(main, t, op, index)
    if not (sup.ndim + 1 == main.ndim + 1 == sub.ndim + 1 == b.ndim):
        raise errors.kernel_error(errors.InvalidArgumentError, "All input tensors must have the same rank.", op)
    m = b.shape[-2]
    for label, t in (("superdiagonal", sup), ("maindiagonal", main), ("subdiagonal", sub)):
        if t.shape[-1] != m:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Invalid {label} shape.", op)
    y = main[..., :, None] * b
    if m > 1:
        upper = sup[..., :-1, None] * b[..., 1:, :]
        lower = sub[..., 1:, None] * b[..., :-1, :]
        y = y + torch.nn.functional.pad(upper, (0, 0, 0, 1)) + torch.nn.functional.pad(lower, (0, 0, 1, 0))
    return wrap(y)


# -- banded_triangular_solve ------------------------------------------------------------------------------------------
@tf_export("linalg.banded_triangular_solve")
def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """Solves triangular systems given by their K + 1 bands [..., K + 1, M]: for `lower`, row k holds the k-th
    subdiagonal (entry i is A[i, i - k]); otherwise row K - k holds the k-th superdiagonal (entry i is A[i, i + k])."""
    op = "BandedTriangularSolve"
    a, b = input_storage(bands), input_storage(rhs)
    if a.dtype not in (torch.float64, torch.float32, torch.float16, torch.complex64, torch.complex128):
        raise _attr_error(a, op, "double, float, half, complex64, complex128",
                          "matrix:T, rhs:T -> output:T; attr=lower:bool,default=true; attr=adjoint:bool,"
                          "default=false; attr=T:type,allowed=[DT_DOUBLE, DT_FLOAT, DT_HALF, DT_COMPLEX64, "
                          "DT_COMPLEX128]>")
    _same_type(a, b, op)
    for index, t in ((0, a), (1, b)):
        if t.ndim < 2:
            raise errors.kernel_error(errors.InvalidArgumentError, f"In[{index}] ndims must be >= 2: {t.ndim}", op)
    k1, m = a.shape[-2], a.shape[-1]
    if m != b.shape[-2]:
        raise errors.kernel_error(
            errors.InvalidArgumentError,
            f"In[0] mismatch In[1] shape: {m} vs. {b.shape[-2]}: [{','.join(map(str, a.shape))}] "
            f"[{','.join(map(str, b.shape))}] {int(bool(lower))} {int(bool(adjoint))}", op)
    dense = a.new_zeros(a.shape[:-2] + (m, m))
    rows = torch.arange(m, device=a.device)
    for k in range(min(k1, m)):
        band = a[..., k, :] if lower else a[..., k1 - 1 - k, :]
        idx = rows[k:] if lower else rows[:m - k]
        cols = idx - k if lower else idx + k
        vals = band[..., k:] if lower else band[..., :m - k]
        dense = dense + _scatter(dense, idx, cols, vals)
    main = a[..., 0, :] if lower else a[..., k1 - 1, :]
    if bool((main == 0).any()):
        raise errors.kernel_error(errors.InvalidArgumentError, "Input matrix is not invertible.", op)
    work = dense.float() if dense.dtype is torch.float16 else dense
    rhs_w = b.float() if b.dtype is torch.float16 else b
    batch = torch.broadcast_shapes(work.shape[:-2], rhs_w.shape[:-2])
    work, rhs_w = work.expand(batch + work.shape[-2:]), rhs_w.expand(batch + rhs_w.shape[-2:])
    if adjoint:
        out = torch.linalg.solve_triangular(work.mH, rhs_w, upper=bool(lower))
    else:
        out = torch.linalg.solve_triangular(work, rhs_w, upper=not lower)
    return wrap(out.to(b.dtype))


def _scatter(dense, rows, cols, vals):
    """A zero matrix shaped as `dense` with `vals` [..., n] at (rows[j], cols[j]) (differentiable)."""
    m = dense.shape[-1]
    onehot_r = one_hot_rows(rows, m).to(vals.dtype)
    onehot_c = one_hot_rows(cols, m).to(vals.dtype)
    return torch.einsum("...j,jr,jc->...rc", vals, onehot_r, onehot_c)


# -- eigh_tridiagonal -------------------------------------------------------------------------------------------------
@tf_export("linalg.eigh_tridiagonal", unsupported=("eigvals_only",))
def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """Eigenvalues of the Hermitian tridiagonal matrix with diagonal `alpha` [n] and off-diagonal `beta` [n - 1],
    ascending; `select` 'i' keeps the indices select_range[0]..[1], 'v' those in (select_range[0], select_range[1]]."""
    alpha, beta = convert_to_tensor(alpha), convert_to_tensor(beta)
    if alpha.dtype != beta.dtype:
        raise ValueError("'alpha' and 'beta' must have the same type.")
    if not (alpha.dtype.is_floating or alpha.dtype.is_complex):
        raise ValueError(f"data type <class 'numpy.{alpha.dtype.as_numpy_dtype.__name__}'> not inexact")
    a, b = input_storage(alpha), input_storage(beta)
    if alpha.shape.rank is not None and alpha.shape[0] == 1 and b.numel() == 0:
        return wrap(a.real if a.is_complex() else a)
    if a.is_complex():
        a = a.real
        b_abs = b.abs()
    else:
        b_abs = b.abs()
    # TF's Gershgorin row sums: alpha + [|b0|, |b0|+|b1|, ..., |b_last|] (its AddV2 error on mismatched lengths)
    row_sum = torch.cat([b_abs[:1], b_abs[:-1] + b_abs[1:], b_abs[-1:]]) if b_abs.ndim else b_abs
    math_ops.add(wrap(a.detach()), wrap(row_sum.detach()))
    if select not in ("a", "i", "v"):
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    n = a.shape[0]
    dense = torch.diag_embed(a.to(b.dtype) if b.is_complex() else a)
    if n > 1:
        dense = dense + torch.diag_embed(b, 1) + torch.diag_embed(b.conj(), -1)
    wide = torch.complex128 if dense.is_complex() else torch.float64     # TF bisects to full precision
    w = torch.linalg.eigvalsh(dense.detach().to(wide))
    if select == "i":
        lo, hi = (int(v) for v in select_range)
        if lo > hi:
            raise errors.InvalidArgumentError(None, None, f"Got empty index range in select_range.\nCondition x <= y "
                                                          f"did not hold.\nFirst 1 elements of x:\n[{lo}]\nFirst 1 "
                                                          f"elements of y:\n[{hi}]")
        w = w[lo:hi + 1]
    elif select == "v":
        lo, hi = (float(v) for v in select_range)
        if not lo < hi:
            raise errors.InvalidArgumentError(None, None, "Got empty interval in select_range.")
        w = w[(w > lo) & (w <= hi)]
    return wrap(w.to(a.dtype))
