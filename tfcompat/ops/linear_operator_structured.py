"""Structured `tf.linalg.LinearOperator`s: Permutation, Householder, Toeplitz, Zeros, Tridiag.

Each checks its arguments and hints as TF does and applies its structure (a permutation gathers rows, a reflection
is a rank-one update, a tridiagonal operator uses `tridiagonal_matmul`/`tridiagonal_solve`); what TF computes
densely (Toeplitz solves, determinants) goes through the base class's dense fallbacks.
"""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops import array_ops, complex_ops, creation_ops, debugging_ops, linalg_ops, linalg_tridiagonal_ops, math_ops, nn_ops
from tfcompat.ops.linear_operator import LinearOperator, adjoint_tensor, assert_zero_imag_part, convert_nonref
from tfcompat.ops.linear_operator_basic import _shape_arg


def _vector_shape(t):
    shape = t.shape
    return shape.concatenate(shape[-1:])


@tf_export("linalg.LinearOperatorPermutation")
class LinearOperatorPermutation(LinearOperator):
    """`LinearOperator` acting like a [batch] permutation matrix: row i of `A x` is row perm[i] of x."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        parameters = dict(perm=perm, dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._perm = convert_nonref(perm, name="perm")
        if self._perm.shape.rank is not None and self._perm.shape.rank < 1:
            raise ValueError(f"Argument `perm` must have at least 1 dimension. Received: {self._perm}.")
        if not self._perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: {self._perm}.")
        static = np.asarray(self._perm.numpy())
        if np.any(np.sort(static, axis=-1) != np.arange(0, static.shape[-1])):
            raise ValueError(f"Argument `perm` must be a vector of unique integers from 0 to "
                             f"{static.shape[-1] - 1}.")
        if is_non_singular is False:
            raise ValueError(f"A Permutation operator is always non-singular. Expected argument `is_non_singular` to "
                             f"be True. Received: {is_non_singular}.")
        if is_square is False:
            raise ValueError(f"A Permutation operator is always square. Expected argument `is_square` to be True. "
                             f"Received: {is_square}.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, parameters=parameters, name=name)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"perm": 1}

    @property
    def perm(self):
        return self._perm

    def _shape(self):
        return _vector_shape(self._perm)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        perm = input_storage(self._perm).long()
        if adjoint and not self.is_self_adjoint:
            perm = torch.argsort(perm, dim=-1)
        x = adjoint_tensor(x) if adjoint_arg else convert_to_tensor(x)
        t = input_storage(x)
        batch = torch.broadcast_shapes(t.shape[:-2], perm.shape[:-1])
        t = t.expand(batch + t.shape[-2:])
        index = perm.expand(batch + perm.shape[-1:])[..., None].expand(batch + (perm.shape[-1], t.shape[-1]))
        return wrap(torch.gather(t, -2, index))

    def _log_abs_determinant(self):
        return creation_ops.zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _assert_non_singular(self):
        return None

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        perm = input_storage(self._perm).long()
        n = perm.shape[-1]
        return wrap((torch.arange(n, device=perm.device) == perm[..., None]).to(dtypes.as_dtype(self.dtype).torch_dtype))

    def _diag_part(self):
        perm = input_storage(self._perm).long()
        return wrap((torch.arange(perm.shape[-1], device=perm.device) == perm).to(dtypes.as_dtype(self.dtype).torch_dtype))

    def _cond(self):
        return creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)


@tf_export("linalg.LinearOperatorHouseholder")
class LinearOperatorHouseholder(LinearOperator):
    """The reflection `I - 2 v v^H / |v|^2` through the hyperplane orthogonal to `reflection_axis` v."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        parameters = dict(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        self._reflection_axis = convert_nonref(reflection_axis, name="reflection_axis")
        if self._reflection_axis.shape.rank is not None and self._reflection_axis.shape.rank < 1:
            raise ValueError(f"Argument reflection_axis must have at least 1 dimension.  Found: "
                             f"{str(self._reflection_axis)}")
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        super().__init__(dtype=self._reflection_axis.dtype, is_non_singular=is_non_singular, is_self_adjoint=True,
                         is_positive_definite=False, is_square=True, parameters=parameters, name=name)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"reflection_axis": 1}

    @property
    def reflection_axis(self):
        return self._reflection_axis

    def _shape(self):
        return _vector_shape(self._reflection_axis)

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _assert_non_singular(self):
        return None

    _assert_self_adjoint = _assert_non_singular

    def _assert_positive_definite(self):
        raise errors.InvalidArgumentError(None, None, "Householder operators are always non-positive definite.")

    def _unit(self):
        return array_ops.expand_dims(nn_ops.l2_normalize(self._reflection_axis, axis=-1), -1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_tensor(x) if adjoint_arg else convert_to_tensor(x)
        mat = self._unit()
        return x - 2 * mat * math_ops.matmul(mat, x, adjoint_a=True)

    def _trace(self):
        n = self.domain_dimension.value
        return math_ops.cast(n - 2, self.dtype) * creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _determinant(self):
        return -creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return creation_ops.zeros(self.batch_shape.as_list(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        mat = self._unit()
        matrix = -2 * math_ops.matmul(mat, mat, adjoint_b=True)
        return linalg_ops.set_diag(matrix, 1. + linalg_ops.diag_part(matrix))

    def _diag_part(self):
        unit = nn_ops.l2_normalize(self._reflection_axis, axis=-1)
        return 1. - 2 * unit * complex_ops.conj(unit)

    def _eigvals(self):
        shape = self._reflection_axis.shape.as_list()
        return array_ops.concat([-creation_ops.ones(shape[:-1] + [1], dtype=self.dtype),
                                 creation_ops.ones(shape[:-1] + [shape[-1] - 1], dtype=self.dtype)], axis=-1)

    def _cond(self):
        return creation_ops.ones(self.batch_shape.as_list(), dtype=self.dtype)


@tf_export("linalg.LinearOperatorToeplitz")
class LinearOperatorToeplitz(LinearOperator):
    """The square Toeplitz matrix with first column `col` and first row `row` (row[0] is ignored for col[0])."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        parameters = dict(col=col, row=row, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._row = convert_nonref(row, name="row")
        self._col = convert_nonref(col, name="col")
        for label, t in (("row", self._row), ("col", self._col)):
            if t.shape.rank is not None and t.shape.rank < 1:
                raise ValueError(f"Argument {label} must have at least 1 dimension.  Found: {t}")
        if self._row.shape[-1] is not None and self._col.shape[-1] is not None and \
                self._row.shape[-1] != self._col.shape[-1]:
            raise ValueError("Expected square matrix, got row and col with mismatched dimensions.")
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(dtype=self._row.dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, parameters=parameters,
                         name=name)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"col": 1, "row": 1}

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        v = array_ops.broadcast_static_shape(self._row.shape, self._col.shape)
        return v.concatenate(v[-1:])

    def _assert_self_adjoint(self):
        return debugging_ops.assert_equal(self._row, self._col, message="row and col are not the same, and so this "
                                                                        "operator is not self-adjoint.")

    def _to_dense(self):
        row, col = input_storage(self._row), input_storage(self._col)
        batch = torch.broadcast_shapes(row.shape, col.shape)
        row, col = row.expand(batch), col.expand(batch)
        n = row.shape[-1]
        elements = torch.cat([col.flip(-1), row[..., 1:]], dim=-1)          # [..., 2n - 1]
        index = (torch.arange(n)[None, :] + torch.arange(n - 1, -1, -1)[:, None]) % (2 * n - 1)
        return wrap(elements[..., index.to(row.device)])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _trace(self):
        return math_ops.cast(self.domain_dimension.value, self.dtype) * convert_to_tensor(self._col)[..., 0]

    def _diag_part(self):
        return convert_to_tensor(self._col)[..., 0:1] * creation_ops.ones([self.domain_dimension.value], self.dtype)


@tf_export("linalg.LinearOperatorZeros", unsupported=("assert_proper_shapes",))
class LinearOperatorZeros(LinearOperator):
    """`LinearOperator` acting like a [batch] zero matrix."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        parameters = dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        if not is_self_adjoint and is_square:
            raise ValueError("A zero operator is always self adjoint.")
        if is_non_singular:
            raise ValueError("A zero operator is always singular.")
        if is_positive_definite:
            raise ValueError("A zero operator is always not positive-definite.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)
        self._num_rows = self._dimension(num_rows, "num_rows")
        self._num_columns = self._dimension(num_rows if num_columns is None else num_columns, "num_columns")
        if is_square and self._num_rows != self._num_columns:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got "
                             f"num_rows({self._num_rows}) != num_columns({self._num_columns})")
        self._batch = None
        if batch_shape is not None:
            arg = _shape_arg(batch_shape, "batch_shape")
            if not arg.dtype.is_integer:
                raise TypeError(f"Argument batch_shape must be integer type.  Found: {str(arg)}")
            static = arg.numpy()
            if static.ndim != 1:
                raise ValueError(f"Argument batch_shape must be a 1-D Tensor.  Found: {static}")
            if np.any(static < 0):
                raise ValueError(f"Argument batch_shape must be non-negative.  Found:{static}")
            self._batch = [int(b) for b in static]

    @staticmethod
    def _dimension(value, label):
        t = _shape_arg(value, label)
        if not t.dtype.is_integer:
            raise TypeError(f"Argument {label} must be integer type.  Found: {str(t)}")
        static = t.numpy()
        if static.ndim != 0:
            raise ValueError(f"Argument {label} must be a 0-D Tensor.  Found: {static}")
        if static < 0:
            raise ValueError(f"Argument {label} must be non-negative.  Found: {static}")
        return int(static)

    def _shape(self):
        return TensorShape((self._batch or []) + [self._num_rows, self._num_columns])

    def __getitem__(self, slices):
        batch = creation_ops.ones(self.batch_shape.as_list())[slices].shape.as_list()
        return type(self)(**dict(self.parameters, batch_shape=batch))

    def _broadcast_batch(self, x):
        if self._batch is None:
            return x
        special = TensorShape(self._batch + [1, 1])
        if array_ops.broadcast_static_shape(x.shape, special) == x.shape:
            return x
        return x + creation_ops.zeros(special.as_list(), dtype=self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = convert_to_tensor(x)
        shape = x.shape.as_list()
        if self.is_square:
            out = shape[:-2] + [shape[-1], shape[-2]] if adjoint_arg else shape
        else:
            out = shape[:-2] + [self._num_columns if adjoint else self._num_rows,
                                shape[-2] if adjoint_arg else shape[-1]]
        return self._broadcast_batch(creation_ops.zeros(out, dtype=x.dtype))

    def _linop_matmul(self, left, right):
        if not left.is_square or not right.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` not "
                             "supported at this time.")
        return left

    def _assert_non_singular(self):
        raise errors.InvalidArgumentError(None, None, "Zero operators are always non-invertible.")

    def _assert_positive_definite(self):
        raise errors.InvalidArgumentError(None, None, "Zero operators are always non-positive definite.")

    def _assert_self_adjoint(self):
        return None

    def _zeros_diag(self):
        return creation_ops.zeros((self._batch or []) + [min(self._num_rows, self._num_columns)], dtype=self.dtype)

    def _determinant(self):
        return creation_ops.zeros(self._batch or [], dtype=self.dtype)

    def _log_abs_determinant(self):
        return math_ops.log(self._determinant())

    def _trace(self):
        return creation_ops.zeros(self._batch or [], dtype=self.dtype)

    def _diag_part(self):
        return self._zeros_diag()

    def add_to_tensor(self, mat, name="add_to_tensor"):
        return self._broadcast_batch(convert_to_tensor(mat))

    def _eigvals(self):
        return self._zeros_diag()


_FORMATS = ("compact", "matrix", "sequence")


@tf_export("linalg.LinearOperatorTridiag")
class LinearOperatorTridiag(LinearOperator):
    """`LinearOperator` acting like a [batch] square tridiagonal matrix, in `tridiagonal_solve`'s formats."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        parameters = dict(diagonals=diagonals, diagonals_format=diagonals_format, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        if diagonals_format not in _FORMATS:
            raise ValueError(f"Argument `diagonals_format` must be one of compact, matrix, or sequence. Received : "
                             f"{diagonals_format}.")
        if diagonals_format == "sequence":
            self._diagonals = [convert_nonref(d, name=f"diag_{i}") for i, d in enumerate(diagonals)]
            dtype = self._diagonals[0].dtype
        else:
            self._diagonals = convert_nonref(diagonals, name="diagonals")
            dtype = self._diagonals.dtype
        self._diagonals_format = diagonals_format
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"diagonals": [1, 1, 1] if self._diagonals_format == "sequence" else 2}

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._diagonals_format

    def _shape(self):
        if self._diagonals_format == "matrix":
            return self._diagonals.shape
        if self._diagonals_format == "compact":
            d_shape = self._diagonals.shape[:-2].concatenate(self._diagonals.shape[-1:])
        else:
            b = array_ops.broadcast_static_shape(self._diagonals[0].shape[:-1], self._diagonals[1].shape[:-1])
            b = array_ops.broadcast_static_shape(b, self._diagonals[2].shape[:-1])
            d_shape = b.concatenate(self._diagonals[1].shape[-1:])
        return d_shape.concatenate(d_shape[-1:])

    def _assert_self_adjoint(self):
        if self._diagonals_format == "matrix":
            return super()._assert_self_adjoint()
        c = self._compact()
        assert_zero_imag_part(wrap(c[..., 1, :]), "This tridiagonal operator contained non-zero imaginary values on "
                                                  "the diagonal.")
        return debugging_ops.assert_equal(wrap(c[..., 2, :].roll(-1, -1)[..., :-1].conj()), wrap(c[..., 0, :-1]),
                                          message="This tridiagonal operator has non-conjugate subdiagonal and "
                                                  "superdiagonal.")

    def _compact(self, adjoint=False):
        """[..., 3, M] storages (super, main, sub) of this operator, or of its adjoint."""
        if self._diagonals_format == "matrix":
            t = input_storage(self._diagonals)
            sup = torch.nn.functional.pad(torch.diagonal(t, 1, -2, -1), (0, 1))
            sub = torch.nn.functional.pad(torch.diagonal(t, -1, -2, -1), (1, 0))
            main = torch.diagonal(t, 0, -2, -1)
        elif self._diagonals_format == "compact":
            t = input_storage(self._diagonals)
            sup, main, sub = t[..., 0, :], t[..., 1, :], t[..., 2, :]
        else:
            sup, main, sub = (input_storage(d) for d in self._diagonals)
            shape = torch.broadcast_shapes(sup.shape, main.shape, sub.shape)
            sup, main, sub = sup.expand(shape), main.expand(shape), sub.expand(shape)
        if adjoint:
            sup, main, sub = sub.conj().roll(-1, -1), main.conj(), sup.conj().roll(1, -1)
        return torch.stack([sup, main, sub], dim=-2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = adjoint_tensor(x) if adjoint_arg else x
        return linalg_tridiagonal_ops.tridiagonal_matmul(wrap(self._compact(adjoint)), x)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        compact = self._compact(adjoint)
        r = input_storage(rhs)
        batch = torch.broadcast_shapes(compact.shape[:-2], r.shape[:-2])
        compact = compact.expand(batch + compact.shape[-2:])
        r = r.expand(batch + r.shape[-2:])
        return linalg_tridiagonal_ops.tridiagonal_solve(wrap(compact), wrap(r), transpose_rhs=adjoint_arg,
                                                        conjugate_rhs=adjoint_arg)

    def _diag_part(self):
        return wrap(self._compact()[..., 1, :])

    def _to_dense(self):
        if self._diagonals_format == "matrix":
            return convert_to_tensor(self._diagonals)
        c = self._compact()
        dense = torch.diag_embed(c[..., 1, :])
        if c.shape[-1] > 1:
            dense = dense + torch.diag_embed(c[..., 0, :-1], 1) + torch.diag_embed(c[..., 2, 1:], -1)
        return wrap(dense)
