"""The elementary `tf.linalg.LinearOperator`s: FullMatrix, Diag, Identity, ScaledIdentity, LowerTriangular.

Each checks its arguments and hints as TF does and computes with the structure it has (a diagonal multiplies
elementwise, a triangle solves by substitution); `_linop_*` give TF's structured results (Diag @ Diag is a Diag).
"""
import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops import array_ops, complex_ops, creation_ops, debugging_ops, gather_ops, linalg_ops, math_ops, reduction_ops
from tfcompat.ops.linear_operator import (
    _LOWER_TRIANGULAR, LinearOperator, adjoint_tensor, assert_no_entries_with_modulus_zero, assert_zero_imag_part, combined_commuting_positive_definite_hint,
    combined_commuting_self_adjoint_hint, combined_non_singular_hint, conj_if_complex, convert_nonref)

_MATRIX_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)


def _structured_hints(left, right):
    return (combined_non_singular_hint(left, right), combined_commuting_self_adjoint_hint(left, right),
            combined_commuting_positive_definite_hint(left, right))


@tf_export("linalg.LinearOperatorFullMatrix")
class LinearOperatorFullMatrix(LinearOperator):
    """`LinearOperator` that wraps a [batch] matrix."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        parameters = dict(matrix=matrix, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._matrix = convert_nonref(matrix, name="matrix")
        dtype = self._matrix.dtype.base_dtype
        if dtype not in _MATRIX_DTYPES:
            raise TypeError(f"Argument `matrix` must have dtype in [{', '.join(map(repr, _MATRIX_DTYPES))}]. "
                            f"Received: {str(dtype)}.")
        if self._matrix.shape.rank is not None and self._matrix.shape.rank < 2:
            raise ValueError(f"Argument `matrix` must have at least 2 dimensions. Received: {self._matrix}.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def matrix(self):
        return self._matrix

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"matrix": 2}

    def _shape(self):
        return self._matrix.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return convert_to_tensor(self._matrix)


@tf_export("linalg.LinearOperatorDiag")
class LinearOperatorDiag(LinearOperator):
    """`LinearOperator` acting like a [batch] square diagonal matrix."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorDiag"):
        parameters = dict(diag=diag, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._diag = convert_nonref(diag, name="diag")
        self._check_diag(self._diag)
        if not self._diag.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(dtype=self._diag.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, parameters=parameters,
                         name=name)

    def _check_diag(self, diag):
        if diag.shape.rank is not None and diag.shape.rank < 1:
            raise ValueError(f"Argument diag must have at least 1 dimension.  Found: {str(diag)}")

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"diag": 1}

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        shape = self._diag.shape
        return shape.concatenate(shape[-1:])

    def _linop_inverse(self):
        return LinearOperatorDiag(1. / convert_to_tensor(self.diag), is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_matmul(self, left, right):
        ns, sa, pd = _structured_hints(left, right)
        d = convert_to_tensor(left.diag)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(d * right.diag, is_non_singular=ns, is_self_adjoint=sa,
                                      is_positive_definite=pd, is_square=True)
        if hasattr(right, "_ones_diag") and hasattr(right, "multiplier"):
            return LinearOperatorDiag(d * right.multiplier, is_non_singular=ns, is_self_adjoint=sa,
                                      is_positive_definite=pd, is_square=True)
        if isinstance(right, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(d[..., None] * right.to_dense(), is_non_singular=ns,
                                                 is_self_adjoint=sa, is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        ns, sa, pd = _structured_hints(left, right)
        d = convert_to_tensor(left.diag)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag / d, is_non_singular=ns, is_self_adjoint=sa,
                                      is_positive_definite=pd, is_square=True)
        if hasattr(right, "_ones_diag") and hasattr(right, "multiplier"):
            return LinearOperatorDiag(right.multiplier / d, is_non_singular=ns, is_self_adjoint=sa,
                                      is_positive_definite=pd, is_square=True)
        if isinstance(right, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(right.to_dense() / d[..., None], is_non_singular=ns,
                                                 is_self_adjoint=sa, is_positive_definite=None, is_square=True)
        return super()._linop_solve(left, right)

    def _linop_adjoint(self):
        return LinearOperatorDiag(conj_if_complex(convert_to_tensor(self.diag)),
                                  is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorDiag(math_ops.sqrt(self.diag), is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=True, is_square=True)

    def _assert_non_singular(self):
        return assert_no_entries_with_modulus_zero(self._diag,
                                                   "Singular operator:  Diagonal contained zero values.")

    def _assert_positive_definite(self):
        message = ("Diagonal operator had diagonal entries with non-positive real part, thus was not positive "
                   "definite." if self.dtype.is_complex else
                   "Real diagonal operator had non-positive diagonal entries, thus was not positive definite.")
        return debugging_ops.assert_positive(complex_ops.real(self._diag), message=message)

    def _assert_self_adjoint(self):
        return assert_zero_imag_part(self._diag, "This diagonal operator contained non-zero imaginary values.   Thus "
                                                 "it was not self-adjoint.")

    def _term(self, adjoint):
        return complex_ops.conj(self._diag) if adjoint else convert_to_tensor(self._diag)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_tensor(x) if adjoint_arg else x
        return array_ops.expand_dims(self._term(adjoint), -1) * x

    def _matvec(self, x, adjoint=False):
        return self._term(adjoint) * x

    def _determinant(self):
        return reduction_ops.reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        log_det = reduction_ops.reduce_sum(math_ops.log(math_ops.abs(self._diag)), axis=[-1])
        return math_ops.cast(log_det, self.dtype) if self.dtype.is_complex else log_det

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_tensor(rhs) if adjoint_arg else rhs
        return rhs * array_ops.expand_dims(1. / self._term(adjoint), -1)

    def _to_dense(self):
        return linalg_ops.diag(self._diag)

    def _diag_part(self):
        return convert_to_tensor(self._diag)

    def _add_to_tensor(self, x):
        return linalg_ops.set_diag(x, self._diag + linalg_ops.diag_part(x))

    def _eigvals(self):
        return convert_to_tensor(self._diag)

    def _cond(self):
        a = math_ops.abs(self._diag)
        return reduction_ops.reduce_max(a, axis=-1) / reduction_ops.reduce_min(a, axis=-1)


def _shape_arg(value, name):
    """TF's `linear_operator_util.shape_tensor`: an integer tensor (a TensorShape becomes its list)."""
    if isinstance(value, TensorShape):
        value = value.as_list()
    if isinstance(value, (Tensor, Variable)):
        return convert_to_tensor(value)
    if isinstance(value, (list, tuple)) and not value:
        return convert_to_tensor(value, dtype=dtypes.int32)
    return convert_to_tensor(value, dtype_hint=dtypes.int32)


class BaseLinearOperatorIdentity(LinearOperator):
    """What Identity and ScaledIdentity share: the `num_rows` checks and a diagonal of ones."""

    def _check_num_rows(self, num_rows):
        self._num_rows = _shape_arg(num_rows, "num_rows")
        if not self._num_rows.dtype.is_integer:
            raise TypeError(f"Argument num_rows must be integer type.  Found: {str(self._num_rows)}")
        static = self._num_rows.numpy()
        self._num_rows_static = static
        if static.ndim != 0:
            raise ValueError(f"Argument num_rows must be a 0-D Tensor.  Found: {static}")
        if static < 0:
            raise ValueError(f"Argument num_rows must be non-negative.  Found: {static}")

    def _min_matrix_dim(self):
        d, r = self.domain_dimension.value, self.range_dimension.value
        return None if d is None or r is None else min(d, r)

    def _ones_diag(self):
        return creation_ops.ones(self.batch_shape.as_list() + [self._min_matrix_dim()], dtype=self.dtype)


@tf_export("linalg.LinearOperatorIdentity", unsupported=("assert_proper_shapes",))
class LinearOperatorIdentity(BaseLinearOperatorIdentity):
    """`LinearOperator` acting like a [batch] square identity matrix."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        parameters = dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        if not is_self_adjoint:
            raise ValueError("An identity operator is always self adjoint.")
        if not is_non_singular:
            raise ValueError("An identity operator is always non-singular.")
        if not is_positive_definite:
            raise ValueError("An identity operator is always positive-definite.")
        if not is_square:
            raise ValueError("An identity operator is always square.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)
        self._check_num_rows(num_rows)
        self._batch_shape_arg = None
        if batch_shape is not None:
            self._batch_shape_arg = _shape_arg(batch_shape, "batch_shape")
            if not self._batch_shape_arg.dtype.is_integer:
                raise TypeError(f"Argument batch_shape must be integer type.  Found: {str(self._batch_shape_arg)}")
            static = self._batch_shape_arg.numpy()
            if static.ndim != 1:
                raise ValueError(f"Argument batch_shape must be a 1-D Tensor.  Found: {static}")
            if np.any(static < 0):
                raise ValueError(f"Argument batch_shape must be non-negative.  Found:{static}")
            self._batch_shape_static = static

    def _shape(self):
        n = int(self._num_rows_static)
        if self._batch_shape_arg is None:
            return TensorShape([n, n])
        return TensorShape([int(b) for b in self._batch_shape_static] + [n, n])

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _linop_cholesky(self):
        return LinearOperatorIdentity(num_rows=self._num_rows, batch_shape=self.batch_shape, dtype=self.dtype)

    def _linop_matmul(self, left, right):
        return right

    def _linop_solve(self, left, right):
        return right

    def _assert_non_singular(self):
        return None

    _assert_positive_definite = _assert_self_adjoint = _assert_non_singular

    def __getitem__(self, slices):
        batch = creation_ops.ones(self.batch_shape.as_list())[slices].shape.as_list()
        return type(self)(**dict(self.parameters, batch_shape=batch))

    def _broadcast_batch(self, x):
        if self._batch_shape_arg is None:
            return x
        special = self.batch_shape.concatenate([1, 1])
        if array_ops.broadcast_static_shape(x.shape, special) == x.shape:
            return x
        return x + creation_ops.zeros(special.as_list(), dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_tensor(x) if adjoint_arg else convert_to_tensor(x)
        return self._broadcast_batch(x)

    def _determinant(self):
        return creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return creation_ops.zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _trace(self):
        return self._min_matrix_dim() * creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _diag_part(self):
        return self._ones_diag()

    def add_to_tensor(self, mat, name="add_to_tensor"):
        mat = convert_to_tensor(mat)
        return linalg_ops.set_diag(mat, 1 + linalg_ops.diag_part(mat))

    def _eigvals(self):
        return self._ones_diag()

    def _cond(self):
        return creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)


@tf_export("linalg.LinearOperatorScaledIdentity", unsupported=("assert_proper_shapes",))
class LinearOperatorScaledIdentity(BaseLinearOperatorIdentity):
    """`LinearOperator` acting like a scaled [batch] identity matrix `A = c I`."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorScaledIdentity"):
        parameters = dict(num_rows=num_rows, multiplier=multiplier, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        self._multiplier = convert_nonref(multiplier, name="multiplier")
        if not self._multiplier.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if not is_square:
            raise ValueError("A ScaledIdentity operator is always square.")
        super().__init__(dtype=self._multiplier.dtype.base_dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                         is_square=is_square, parameters=parameters, name=name)
        self._check_num_rows(num_rows)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"multiplier": 0}

    @property
    def multiplier(self):
        return self._multiplier

    def _shape(self):
        n = int(self._num_rows_static)
        return self._multiplier.shape.concatenate([n, n])

    def _assert_non_singular(self):
        return debugging_ops.assert_positive(math_ops.abs(self._multiplier), message="LinearOperator was singular")

    def _assert_positive_definite(self):
        return debugging_ops.assert_positive(complex_ops.real(self._multiplier),
                                             message="LinearOperator was not positive definite.")

    def _assert_self_adjoint(self):
        imag = complex_ops.imag(self._multiplier)
        return debugging_ops.assert_equal(creation_ops.zeros_like(imag), imag,
                                          message="LinearOperator was not self-adjoint")

    def _multiplier_matrix(self, conjugate=False):
        m = array_ops.expand_dims(array_ops.expand_dims(self._multiplier, -1), -1)
        return complex_ops.conj(m) if conjugate else m

    def _linop_adjoint(self):
        return LinearOperatorScaledIdentity(self._num_rows, conj_if_complex(convert_to_tensor(self._multiplier)),
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorScaledIdentity(self._num_rows, math_ops.sqrt(self._multiplier), is_non_singular=True,
                                            is_self_adjoint=True, is_positive_definite=True, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorScaledIdentity(self._num_rows, 1. / convert_to_tensor(self._multiplier),
                                            is_non_singular=self.is_non_singular, is_self_adjoint=True,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_matmul(self, left, right):
        ns, sa, pd = _structured_hints(left, right)
        m = convert_to_tensor(left.multiplier)
        if isinstance(right, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(left.domain_dimension_tensor(), m * right.multiplier,
                                                is_non_singular=ns, is_self_adjoint=sa, is_positive_definite=pd,
                                                is_square=True)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(convert_to_tensor(right.diag) * m, is_non_singular=ns, is_self_adjoint=sa,
                                      is_positive_definite=pd, is_square=True)
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        ns, sa, pd = _structured_hints(left, right)
        m = convert_to_tensor(left.multiplier)
        if isinstance(right, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(left.domain_dimension_tensor(), right.multiplier / m,
                                                is_non_singular=ns, is_self_adjoint=sa, is_positive_definite=pd,
                                                is_square=True)
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(convert_to_tensor(right.diag) / m, is_non_singular=ns, is_self_adjoint=sa,
                                      is_positive_definite=pd, is_square=True)
        return super()._linop_solve(left, right)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_tensor(x) if adjoint_arg else x
        return x * self._multiplier_matrix(conjugate=adjoint)

    def _determinant(self):
        return math_ops.pow(self._multiplier, math_ops.cast(self._num_rows, self.dtype))

    def _log_abs_determinant(self):
        return math_ops.cast(self._num_rows, self.dtype.real_dtype) * math_ops.log(math_ops.abs(self._multiplier))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_tensor(rhs) if adjoint_arg else rhs
        return rhs / self._multiplier_matrix(conjugate=adjoint)

    def _trace(self):
        ones = creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)
        return self._multiplier * self._min_matrix_dim() * ones

    def _diag_part(self):
        return self._ones_diag() * convert_to_tensor(self._multiplier)[..., None]

    def add_to_tensor(self, mat, name="add_to_tensor"):
        mat = convert_to_tensor(mat)
        return linalg_ops.set_diag(mat, array_ops.expand_dims(self._multiplier, -1) + linalg_ops.diag_part(mat))

    def _eigvals(self):
        return self._diag_part()

    def _cond(self):
        m = convert_to_tensor(self._multiplier)
        nan = math_ops.cast(np.nan, self.dtype)
        return gather_ops.where(math_ops.equal(m, math_ops.cast(0., self.dtype)), nan, math_ops.cast(1., self.dtype))


@tf_export("linalg.LinearOperatorLowerTriangular")
class LinearOperatorLowerTriangular(LinearOperator):
    """`LinearOperator` acting like a [batch] square lower triangular matrix (only the lower triangle is read)."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        parameters = dict(tril=tril, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril = convert_nonref(tril, name="tril")
        if self._tril.shape.rank is not None and self._tril.shape.rank < 2:
            raise ValueError(f"Argument tril must have at least 2 dimensions.  Found: {str(self._tril)}")
        super().__init__(dtype=self._tril.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, parameters=parameters,
                         name=name)

    @property
    def tril(self):
        return self._tril

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"tril": 2}

    def _get_tril(self):
        return linalg_ops.band_part(self._tril, -1, 0)

    def _get_diag(self):
        return linalg_ops.diag_part(self._tril)

    def _assert_non_singular(self):
        return assert_no_entries_with_modulus_zero(self._get_diag(),
                                                   "Singular operator:  Diagonal contained zero values.")

    def _shape(self):
        return self._tril.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self._get_tril(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _linop_matmul(self, left, right):
        if hasattr(right, "_check_diag"):
            return LinearOperatorLowerTriangular(
                left.to_dense() * right.diag, is_non_singular=combined_non_singular_hint(right, left),
                is_self_adjoint=combined_commuting_self_adjoint_hint(right, left), is_positive_definite=None,
                is_square=True)
        return super()._linop_matmul(left, right)

    def _determinant(self):
        return reduction_ops.reduce_prod(self._get_diag(), axis=[-1])

    def _log_abs_determinant(self):
        return reduction_ops.reduce_sum(math_ops.log(math_ops.abs(self._get_diag())), axis=[-1])

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = adjoint_tensor(rhs) if adjoint_arg else rhs
        return linalg_ops.triangular_solve(self._get_tril(), rhs, lower=True, adjoint=adjoint)

    def _to_dense(self):
        return self._get_tril()

    def _eigvals(self):
        return self._get_diag()


_LOWER_TRIANGULAR["class"] = LinearOperatorLowerTriangular
