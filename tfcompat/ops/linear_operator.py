"""`tf.linalg.LinearOperator`: the base class of TF's matrix-free operators, and its dispatch from `tf.linalg`.

An operator holds its defining tensors (variables stay variables, so tapes see them) and computes through the public
ops, so results carry gradients and trace inside `tf.function` as any op does. Subclasses define `_shape`, `_matmul`
and, where they know better than the dense fallbacks here, `_solve`, `_determinant`, ...; `_linop_*` say what an
operator-valued result (`A @ B`, `A.solve(B)`, `adjoint`, `inverse`, `cholesky`) becomes, with TF's hint algebra.
The families: `linear_operator_basic` (FullMatrix, Diag, Identity, ScaledIdentity, LowerTriangular) and
`linear_operator_algebra` (Composition, Adjoint, Inversion).
"""
import abc

import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import EXPORTS, tf_export
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops import array_ops, complex_ops, math_ops, creation_ops, debugging_ops, linalg_ops, reduction_ops

_COMPOSITION = {}        # filled by linear_operator_algebra: "composition", "adjoint", "inversion" -> class
_LOWER_TRIANGULAR = {}   # filled by linear_operator_basic: "class" -> LinearOperatorLowerTriangular


def convert_nonref(value, name=None, dtype=None):
    """TF's `convert_nonref_to_tensor`: variables (and tensors) are kept as they are, other values converted."""
    if isinstance(value, (Variable, Tensor)):
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def adjoint_tensor(x):
    return linalg_ops.adjoint(x)


def hint_unless_contradicting(operator, attr, provided, message):
    """TF's `use_operator_or_provided_hint_unless_contradicting`."""
    op_hint = getattr(operator, attr)
    if (op_hint is False and provided) or (op_hint and provided is False):
        raise ValueError(message)
    if op_hint or provided:
        return True
    if op_hint is False or provided is False:
        return False
    return None


def is_adjoint_pair(x, y):
    if x is y:
        if x.is_self_adjoint is False:
            return False
        if x.is_self_adjoint:
            return True
    return x.H is y or y.H is x


def is_aat_form(operators):
    operators = list(operators)
    if not operators:
        raise ValueError("AAT form is undefined for empty operators")
    if len(operators) % 2:
        return False
    return all(is_adjoint_pair(operators[i], operators[-1 - i]) for i in range(len(operators) // 2))


# -- TF's property_hint_util ------------------------------------------------------------------------------------------
def combined_commuting_self_adjoint_hint(a, b):
    if a.is_self_adjoint and b.is_self_adjoint:
        return True
    if (a.is_self_adjoint is True and b.is_self_adjoint is False) or (
            a.is_self_adjoint is False and b.is_self_adjoint is True):
        return False
    return None


def combined_square_hint(a, b):
    if a.is_square and b.is_square:
        return True
    if a.is_square is False and b.is_square is False:
        m, k = a.range_dimension.value, b.domain_dimension.value
        if m is not None and k is not None:
            return m == k
    if a.is_square != b.is_square and a.is_square is not None and b.is_square is not None:
        return False
    return None


def combined_commuting_positive_definite_hint(a, b):
    if (a.is_positive_definite is True and a.is_self_adjoint is True and b.is_positive_definite is True
            and b.is_self_adjoint is True):
        return True
    return None


def combined_non_singular_hint(a, b):
    if a.is_non_singular is False or b.is_non_singular is False:
        return False
    return a.is_non_singular and b.is_non_singular


def operator_list(operators, empty_message):
    """`operators` (an iterable of operators: the Composition/Kronecker argument) as a list, with TF's errors for a
    single element and (`empty_message`) for none."""
    if isinstance(operators, (str, bytes)) or not hasattr(operators, "__iter__"):
        raise TypeError(f"Expected argument 'values' to be iterable, not a single element. Found: {operators}")
    operators = list(operators)
    if not operators:
        raise ValueError(empty_message.format(operators))
    return operators


def _product_hints(left, right):
    """(is_non_singular, is_self_adjoint, is_positive_definite, is_square) of a generic product, as TF infers them."""
    is_square = combined_square_hint(left, right)
    if is_square:
        return combined_non_singular_hint(left, right), None, None, is_square
    if is_square is False:
        return False, False, False, False
    return None, None, None, None


def _dimension_check(shape, index, other_dim):
    """TF's `dimension_at_index(shape, index).assert_is_compatible_with(other)`: ValueError on a mismatch."""
    mine = shape.dims[index].value if shape.rank is not None else None
    if mine is not None and other_dim is not None and mine != other_dim:
        raise ValueError(f"Dimensions {mine} and {other_dim} are not compatible")


def _static_dim(x, index):
    shape = x.shape
    return None if shape.rank is None or shape.rank < abs(index) else shape[index]


@tf_export("linalg.LinearOperator", partial="not a tf.Module or CompositeTensor (no TypeSpec)")
class LinearOperator(metaclass=abc.ABCMeta):
    """Base class defining a [batch of] linear operator[s]: subclasses define `_shape` and `_matmul`."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        self._graph_parents = []
        if graph_parents is not None:          # deprecated in TF: kept, checked, otherwise unused
            for i, t in enumerate(graph_parents):
                if t is None or not isinstance(t, (Tensor, Variable)):
                    raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
            self._graph_parents = list(graph_parents)
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square
        self._dtype = dtypes.as_dtype(dtype).base_dtype if dtype else dtype
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = dict(parameters) if parameters is not None else {}
        self._name = name or type(self).__name__

    # -- properties ---------------------------------------------------------------------------------------------------
    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def graph_parents(self):
        """Deprecated in TF: the `graph_parents` given to the constructor."""
        return self._graph_parents

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        auto = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and auto:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is None:
            return auto
        return self._is_square_set_or_implied_by_hints

    # -- shapes -------------------------------------------------------------------------------------------------------
    @abc.abstractmethod
    def _shape(self):
        raise NotImplementedError("_shape is not implemented.")

    @abc.abstractmethod
    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        raise NotImplementedError("_matmul is not implemented.")

    @property
    def shape(self):
        return TensorShape(self._shape())

    def shape_tensor(self, name="shape_tensor"):
        shape = self.shape
        if shape.is_fully_defined():
            return convert_to_tensor(shape.as_list(), dtype=dtypes.int32)
        return self._shape_tensor()

    def _shape_tensor(self):
        raise NotImplementedError("_shape_tensor is not implemented.")

    @property
    def batch_shape(self):
        return self.shape[:-2]

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return self.shape_tensor()[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return convert_to_tensor(self.shape.rank, dtype=dtypes.int32)

    @property
    def domain_dimension(self):
        shape = self.shape
        return shape.dims[-1] if shape.rank is not None else TensorShape([None]).dims[0]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return self.shape_tensor()[-1]

    @property
    def range_dimension(self):
        shape = self.shape
        return shape.dims[-2] if shape.rank is not None else TensorShape([None]).dims[0]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return self.shape_tensor()[-2]

    # -- products -----------------------------------------------------------------------------------------------------
    def _check_input_dtype(self, arg):
        if arg.dtype.base_dtype != self.dtype:
            raise TypeError(f"Expected argument to have dtype {str(self.dtype)}.  Found: {str(arg.dtype)} in tensor "
                            f"{str(arg)}")

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            r, d = right.range_dimension.value, left.domain_dimension.value
            if r is not None and d is not None and r != d:
                raise ValueError(f"Operators are incompatible. Expected `x` to have dimension {d} but got {r}.")
            return self._linop_matmul(left, right)
        x = convert_nonref(x, name="x")
        self._check_input_dtype(x)
        _dimension_check(self.shape, -2 if adjoint else -1, _static_dim(x, -1 if adjoint_arg else -2))
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def __rmatmul__(self, other):
        """`tensor @ operator`: TF's Tensor operator dispatches `tf.matmul` to the operator, as here."""
        return _matmul(other, self)

    def _linop_matmul(self, left, right):
        if hasattr(right, "_ones_diag") and not hasattr(right, "multiplier"):
            return left
        if hasattr(right, "_zeros_diag"):
            if not right.is_square or not left.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` "
                                 "not supported at this time.")
            return right
        ns, sa, pd, sq = _product_hints(left, right)
        return _COMPOSITION["composition"](operators=[left, right], is_non_singular=ns, is_self_adjoint=sa,
                                           is_positive_definite=pd, is_square=sq)

    def _matvec(self, x, adjoint=False):
        return array_ops.squeeze(self.matmul(array_ops.expand_dims(x, -1), adjoint=adjoint), axis=-1)

    def matvec(self, x, adjoint=False, name="matvec"):
        x = convert_nonref(x, name="x")
        self._check_input_dtype(x)
        _dimension_check(self.shape, -2 if adjoint else -1, _static_dim(x, -1))
        return self._matvec(x, adjoint=adjoint)

    # -- determinants -------------------------------------------------------------------------------------------------
    def _not_square_error(self):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected to not be "
                                      "square.")

    def _determinant(self):
        if self._can_use_cholesky():
            return math_ops_exp(self.log_abs_determinant())
        return linalg_ops.det(self.to_dense())

    def determinant(self, name="det"):
        self._not_square_error()
        return self._determinant()

    def _log_abs_determinant(self):
        if self._can_use_cholesky():
            diag = linalg_ops.diag_part(linalg_ops.cholesky(self.to_dense()))
            return 2 * reduction_ops.reduce_sum(math_ops.log(diag), axis=[-1])
        return linalg_ops.slogdet(self.to_dense())[1]

    def log_abs_determinant(self, name="log_abs_det"):
        self._not_square_error()
        return self._log_abs_determinant()

    # -- solves -------------------------------------------------------------------------------------------------------
    def _dense_solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self.is_square is False:
            raise NotImplementedError("Solve is not yet implemented for non-square operators.")
        rhs = adjoint_tensor(rhs) if adjoint_arg else rhs
        if self._can_use_cholesky():
            return linalg_ops.cholesky_solve(linalg_ops.cholesky(self.to_dense()), rhs)
        return solve_with_broadcast(self.to_dense(), rhs, adjoint=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve_checks(self):
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected to not be "
                                      "square.")

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        self._solve_checks()
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            r, d = right.range_dimension.value, left.domain_dimension.value
            if r is not None and d is not None and r != d:
                raise ValueError(f"Operators are incompatible. Expected `rhs` to have dimension {d} but got {r}.")
            return self._linop_solve(left, right)
        rhs = convert_nonref(rhs, name="rhs")
        self._check_input_dtype(rhs)
        _dimension_check(self.shape, -1 if adjoint else -2, _static_dim(rhs, -1 if adjoint_arg else -2))
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_solve(self, left, right):
        if hasattr(right, "_ones_diag") and not hasattr(right, "multiplier"):
            return left.inverse()
        ns, sa, pd, sq = _product_hints(left, right)
        return _COMPOSITION["composition"](
            operators=[_COMPOSITION["inversion"](left), right], is_non_singular=ns, is_self_adjoint=sa,
            is_positive_definite=pd, is_square=sq)

    def _solvevec(self, rhs, adjoint=False):
        return array_ops.squeeze(self.solve(array_ops.expand_dims(rhs, -1), adjoint=adjoint), axis=-1)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        rhs = convert_nonref(rhs, name="rhs")
        self._check_input_dtype(rhs)
        _dimension_check(self.shape, -1 if adjoint else -2, _static_dim(rhs, -1))
        return self._solvevec(rhs, adjoint=adjoint)

    # -- derived operators --------------------------------------------------------------------------------------------
    def adjoint(self, name="adjoint"):
        if self.is_self_adjoint is True:
            return self
        return self._linop_adjoint()

    H = property(adjoint, None)

    def _linop_adjoint(self):
        return _COMPOSITION["adjoint"](self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def inverse(self, name="inverse"):
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        return self._linop_inverse()

    def _linop_inverse(self):
        return _COMPOSITION["inversion"](self, is_non_singular=self.is_non_singular,
                                         is_self_adjoint=self.is_self_adjoint,
                                         is_positive_definite=self.is_positive_definite, is_square=self.is_square)

    def cholesky(self, name="cholesky"):
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self adjoint matrix.")
        return self._linop_cholesky()

    def _linop_cholesky(self):
        return _LOWER_TRIANGULAR["class"](linalg_ops.cholesky(self.to_dense()), is_non_singular=True,
                                          is_self_adjoint=False, is_square=True)

    # -- dense views --------------------------------------------------------------------------------------------------
    def _to_dense(self):
        batch = self.batch_shape
        batch = batch.as_list() if batch.is_fully_defined() else self.batch_shape_tensor()
        n = self.domain_dimension.value
        if n is None:
            n = self.domain_dimension_tensor()
        return self.matmul(creation_ops.eye(n, batch_shape=batch, dtype=self.dtype))

    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def _diag_part(self):
        return linalg_ops.diag_part(self.to_dense())

    def diag_part(self, name="diag_part"):
        return self._diag_part()

    def _trace(self):
        return reduction_ops.reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name="trace"):
        return self._trace()

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def add_to_tensor(self, x, name="add_to_tensor"):
        x = convert_nonref(x, name="x")
        self._check_input_dtype(x)
        return self._add_to_tensor(x)

    def _eigvals(self):
        return linalg_ops.eigvalsh(self.to_dense())

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._eigvals()

    def _cond(self):
        if not self.is_self_adjoint:
            vals = linalg_ops.svd(self.to_dense(), compute_uv=False)
        else:
            vals = math_ops.abs(self._eigvals())
        return reduction_ops.reduce_max(vals, axis=-1) / reduction_ops.reduce_min(vals, axis=-1)

    def cond(self, name="cond"):
        return self._cond()

    def _can_use_cholesky(self):
        return self.is_self_adjoint and self.is_positive_definite

    # -- runtime checks (eagerly: None, or TF's InvalidArgumentError) --------------------------------------------------
    def _max_condition_number_to_be_non_singular(self):
        eps = np.finfo(self.dtype.as_numpy_dtype).eps
        bound = max(100., float(self.range_dimension.value or 0), float(self.domain_dimension.value or 0))
        return 1. / math_ops.cast(bound * eps, self.dtype)

    def _assert_non_singular(self):
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        singular_values = linalg_ops.svd(self.to_dense(), compute_uv=False)
        cond = reduction_ops.reduce_max(singular_values, axis=-1) / reduction_ops.reduce_min(singular_values, axis=-1)
        return debugging_ops.assert_less(cond, self._max_condition_number_to_be_non_singular(),
                                         message="Singular matrix up to precision epsilon.")

    def assert_non_singular(self, name="assert_non_singular"):
        return self._assert_non_singular()

    def _assert_positive_definite(self):
        if self.is_self_adjoint:
            return debugging_ops.assert_positive(linalg_ops.diag_part(linalg_ops.cholesky(self.to_dense())),
                                                 message="Matrix was not positive definite.")
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        return self._assert_positive_definite()

    def _assert_self_adjoint(self):
        dense = self.to_dense()
        return debugging_ops.assert_equal(dense, linalg_ops.adjoint(dense),
                                          message="Matrix was not equal to its adjoint.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        return self._assert_self_adjoint()

    # -- batch slicing (TF's slicing.batch_slice) ----------------------------------------------------------------------
    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        """Each parameter's number of trailing (non-batch) dimensions; subclasses that can be sliced define it."""
        raise NotImplementedError(f"{type(self).__name__} does not support batch slicing")

    def __getitem__(self, slices):
        if not isinstance(slices, tuple):
            slices = (slices,)
        if len(slices) == 1 and slices[0] is Ellipsis:
            return type(self)(**self.parameters)
        batch = self.batch_shape.as_list()
        overrides = {}
        for name, ndims in self._experimental_parameter_ndims_to_matrix_ndims.items():
            param = getattr(self, name)
            if param is not None:
                overrides[name] = _map_params(param, ndims, lambda p, nd: _slice_param(p, nd, slices, batch))
        return type(self)(**dict(self.parameters, **overrides))

    # -- variables (TF's tf.Module walk over the operator's parameters) ---------------------------------------------
    def _walk_variables(self):
        found, seen = [], set()

        def visit(value):
            if isinstance(value, Variable):
                if id(value) not in seen:
                    seen.add(id(value))
                    found.append(value)
            elif isinstance(value, LinearOperator):
                for key in sorted(value._parameters):
                    visit(value._parameters[key])
            elif isinstance(value, (list, tuple)):
                for item in value:
                    visit(item)
        visit(self)
        return found

    @property
    def variables(self):
        return tuple(self._walk_variables())

    @property
    def trainable_variables(self):
        return tuple(v for v in self._walk_variables() if v.trainable)

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object at {hex(id(self))}>"


def math_ops_exp(x):
    return math_ops.exp(x)


def solve_with_broadcast(matrix, rhs, adjoint=False):
    """TF's `matrix_solve_with_broadcast`: the batch dimensions of `matrix` and `rhs` broadcast against each other."""
    m_shape, r_shape = matrix.shape.as_list(), rhs.shape.as_list()
    batch = np.broadcast_shapes(tuple(m_shape[:-2]), tuple(r_shape[:-2]))
    if tuple(m_shape[:-2]) != batch:
        matrix = array_ops.broadcast_to(matrix, list(batch) + m_shape[-2:])
    if tuple(r_shape[:-2]) != batch:
        rhs = array_ops.broadcast_to(rhs, list(batch) + r_shape[-2:])
    return linalg_ops.solve(matrix, rhs, adjoint=adjoint)


def _map_params(param, ndims, fn):
    """`fn(param, ndims)` over a parameter structure (an operator list, nested lists for BlockLowerTriangular)."""
    if isinstance(ndims, (list, tuple)):
        return [_map_params(p, n, fn) for p, n in zip(param, ndims)]
    return fn(param, ndims)


def _padded(param, ndims, batch_rank):
    """`param` with leading size-1 batch dimensions up to `batch_rank` (operators rebuilt from padded parameters)."""
    if isinstance(param, LinearOperator):
        sub = {name: _map_params(getattr(param, name), nd, lambda p, n: _padded(p, n, batch_rank))
               for name, nd in param._experimental_parameter_ndims_to_matrix_ndims.items()
               if getattr(param, name) is not None}
        return type(param)(**dict(param.parameters, **sub))
    param = convert_to_tensor(param)
    missing = batch_rank + ndims - param.shape.rank
    return array_ops.reshape(param, [1] * missing + param.shape.as_list()) if missing > 0 else param


def _slice_param(param, ndims, slices, batch):
    """One parameter sliced as its operator's batch: dimensions it broadcasts (size 1) keep index 0."""
    param = _padded(param, ndims, len(batch))
    shape = param.batch_shape.as_list() if isinstance(param, LinearOperator) else param.shape.as_list()[
        :param.shape.rank - ndims]
    if batch and not shape:
        return param
    out, index = [], 0
    for item in slices:
        if item is Ellipsis:
            index = -sum(s is not None for s in slices[slices.index(Ellipsis) + 1:])
        elif item is not None:
            broadcast = batch[index] > shape[index]
            if isinstance(item, slice):
                item = slice(None if item.start is None else (0 if broadcast else item.start),
                             None if item.stop is None else (1 if broadcast else item.stop),
                             None if item.step is None else (1 if broadcast else item.step))
            elif broadcast:
                item = 0
            index += 1
        out.append(item)
    if ndims > 0:
        if Ellipsis not in out:
            out.append(Ellipsis)
        out += [slice(None)] * ndims
    return param[tuple(out)]


def assert_no_entries_with_modulus_zero(x, message):
    """TF's linear_operator_util check: every |x| > 0."""
    magnitude = math_ops.abs(x)
    return debugging_ops.assert_less(math_ops.cast(0, magnitude.dtype), magnitude, message=message)


def assert_zero_imag_part(x, message):
    """TF's linear_operator_util check: no imaginary part (nothing to check for a real dtype)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_complex:
        return None
    imag = complex_ops.imag(x)
    return debugging_ops.assert_equal(math_ops.cast(0, imag.dtype), imag, message=message)


def conj_if_complex(x):
    return complex_ops.conj(x) if x.dtype.is_complex else x


# -- tf.linalg functions on operators (TF's dispatch_for_types) -------------------------------------------------------
def _has_operator(args, kwargs):
    return any(isinstance(a, LinearOperator) for a in args) or any(
        isinstance(v, LinearOperator) for v in kwargs.values())


def _dispatching(name, handler):
    """Public `tf.<name>` (and aliases) runs `handler` when an argument is a LinearOperator (TF's dispatch);
    a dense call pays one isinstance check per argument on its error path only."""
    dense = EXPORTS[name]

    def op(*args, **kwargs):
        try:
            return dense(*args, **kwargs)
        except (TypeError, ValueError, NotImplementedError):
            if not _has_operator(args, kwargs):
                raise
        return handler(*args, **kwargs)

    op.__name__, op.__qualname__, op.__doc__, op.__wrapped__ = dense.__name__, dense.__qualname__, dense.__doc__, dense
    for alias, obj in list(EXPORTS.items()):
        if obj is dense:
            EXPORTS[alias] = op


def _matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
            b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    if transpose_a or transpose_b:
        raise ValueError("Transposing not supported at this time.")
    if a_is_sparse or b_is_sparse:
        raise ValueError("Sparse methods not supported at this time.")
    if not isinstance(a, LinearOperator):
        return linalg_ops.adjoint(b.matmul(a, adjoint=not adjoint_b, adjoint_arg=not adjoint_a))
    return a.matmul(b, adjoint=adjoint_a, adjoint_arg=adjoint_b)


def _solve(matrix, rhs, adjoint=False, name=None):
    if not isinstance(matrix, LinearOperator):
        raise ValueError("Passing in `matrix` as a Tensor and `rhs` as a LinearOperator is not supported.")
    return matrix.solve(rhs, adjoint=adjoint)


def _inverse(input, adjoint=False, name=None):  # noqa: A002
    inv = input.inverse()
    return inv.adjoint() if adjoint else inv


def _logdet(matrix, name=None):
    if matrix.is_positive_definite and matrix.is_self_adjoint:
        return matrix.log_abs_determinant()
    raise ValueError("Expected matrix to be self-adjoint positive definite.")


def _matmul_hook(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse):
    if not (isinstance(a, LinearOperator) or isinstance(b, LinearOperator)):
        return NotImplemented
    return _matmul(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse)


math_ops.MATMUL_DISPATCH.append(_matmul_hook)    # tf.matmul's error path: no cost to dense calls
_dispatching("linalg.solve", _solve)
_dispatching("linalg.inv", _inverse)
_dispatching("linalg.logdet", _logdet)
_dispatching("linalg.adjoint", lambda matrix, name=None: matrix.adjoint())
_dispatching("linalg.cholesky", lambda input, name=None: input.cholesky())  # noqa: A002
_dispatching("linalg.det", lambda input, name=None: input.determinant())  # noqa: A002
_dispatching("linalg.trace", lambda x, name=None: x.trace())
_dispatching("linalg.diag_part", lambda input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT":  # noqa: A002
             input.diag_part())
