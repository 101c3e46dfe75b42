"""Operators built from operators: `tf.linalg.LinearOperatorComposition`, `...Adjoint`, `...Inversion`.

Their hints follow from their parts as TF derives them (a composition of non-singular operators is non-singular,
`A @ A.H` is self-adjoint and square, ...); their methods call their parts' methods.
"""
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops import array_ops, complex_ops, math_ops, linalg_ops
from tfcompat.ops.linear_operator import (
    _COMPOSITION, LinearOperator, hint_unless_contradicting, is_aat_form, operator_list)
from tfcompat.ops.linear_operator_basic import LinearOperatorLowerTriangular


def _composition_must_be_self_adjoint(operators):
    if len(operators) == 1 and operators[0].is_self_adjoint:
        return True
    return is_aat_form(operators)


@tf_export("linalg.LinearOperatorComposition")
class LinearOperatorComposition(LinearOperator):
    """The product `A1 A2 ... AJ` of [batch] operators, applied right to left."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = operator_list(operators, "Expected a non-empty list of operators. Found: {}")
        self._operators = operators
        dtype = operators[0].dtype
        for operator in operators:
            if operator.dtype != dtype:
                found = "   ".join(str((o.name, o.dtype)) for o in operators)
                raise TypeError(f"Expected all operators to have the same dtype.  Found {found}")
        if all(operator.is_non_singular for operator in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always non-singular.")
            is_non_singular = True
        if _composition_must_be_self_adjoint(operators):
            if is_self_adjoint is False:
                raise ValueError("The composition was determined to be self-adjoint but user provided incorrect "
                                 "`False` hint.")
            is_self_adjoint = True
        aat = is_aat_form(operators)
        if aat:
            if is_square is False:
                raise ValueError("The composition was determined have the form A @ A.H, hence it must be square. "
                                 "The user provided an incorrect `False` hint.")
            is_square = True
        if aat and is_non_singular:
            if is_positive_definite is False:
                raise ValueError("The composition was determined to be non-singular and have the form A @ A.H, "
                                 "hence it must be positive-definite. The user provided an incorrect `False` hint.")
            is_positive_definite = True
        if name is None:
            name = "_o_".join(operator.name for operator in operators)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"operators": [0] * len(self._operators)}

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        domain = self.operators[0].domain_dimension
        for operator in self.operators[1:]:
            domain.assert_is_compatible_with(operator.range_dimension)
            domain = operator.domain_dimension
        batch = self.operators[0].batch_shape
        for operator in self.operators[1:]:
            batch = array_ops.broadcast_static_shape(batch, operator.batch_shape)
        return batch.concatenate(TensorShape([self.operators[0].range_dimension,
                                              self.operators[-1].domain_dimension]))

    def _linop_cholesky(self):
        ops = self.operators
        if not (len(ops) == 2 and is_aat_form(ops) and isinstance(ops[0], LinearOperatorLowerTriangular)):
            return super()._linop_cholesky()
        left = ops[0]
        if left.is_positive_definite:
            return left
        sign = array_ops.expand_dims(math_ops.sign(left.diag_part()), axis=-2)
        return LinearOperatorLowerTriangular(left.tril / sign, is_non_singular=left.is_non_singular,
                                             is_self_adjoint=left.is_self_adjoint,
                                             is_positive_definite=True if left.is_positive_definite else None,
                                             is_square=True)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        order = self.operators if adjoint else list(reversed(self.operators))
        result = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in order[1:]:
            result = operator.matmul(result, adjoint=adjoint)
        return result

    def _assert_non_singular(self):
        if all(operator.is_square for operator in self.operators):
            for operator in self.operators:
                operator.assert_non_singular()
            return None
        return super()._assert_non_singular()

    def _determinant(self):
        result = self.operators[0].determinant()
        for operator in self.operators[1:]:
            result = result * operator.determinant()
        return result

    def _log_abs_determinant(self):
        result = self.operators[0].log_abs_determinant()
        for operator in self.operators[1:]:
            result = result + operator.log_abs_determinant()
        return result

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        order = list(reversed(self.operators)) if adjoint else self.operators
        solution = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for operator in order[1:]:
            solution = operator.solve(solution, adjoint=adjoint)
        return solution


class _OfOneOperator(LinearOperator):
    """An operator made from one `operator` (its adjoint, its inverse): the hints it shares with it, its `operator`,
    its assertions (the wrapped operator's)."""

    _relation = None        # "adjoint" / "inverse": TF's hint messages name it

    def _init_from(self, operator, hints, parameters, name):
        self._operator = operator
        shared = {key: hint_unless_contradicting(
            operator, key, hints[key], f"An operator is {text} if and only if its {self._relation} is {text}.")
            for key, text in (("is_square", "square"), ("is_non_singular", "non-singular"),
                              ("is_self_adjoint", "self-adjoint"), ("is_positive_definite", "positive-definite"))}
        super().__init__(dtype=operator.dtype, parameters=parameters, name=name, **shared)

    @property
    def operator(self):
        return self._operator

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"operator": 0}

    def _assert_non_singular(self):
        return self.operator.assert_non_singular()

    def _assert_positive_definite(self):
        return self.operator.assert_positive_definite()

    def _assert_self_adjoint(self):
        return self.operator.assert_self_adjoint()


@tf_export("linalg.LinearOperatorAdjoint")
class LinearOperatorAdjoint(_OfOneOperator):
    """The adjoint (conjugate transpose) `A^H` of an operator `A`."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        hints = dict(is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                     is_positive_definite=is_positive_definite, is_square=is_square)
        self._init_from(operator, hints, dict(operator=operator, **hints, name=name),
                        operator.name + "_adjoint" if name is None else name)

    _relation = "adjoint"

    def _linop_adjoint(self):
        return self.operator

    def _shape(self):
        shape = self.operator.shape
        return shape[:-2].concatenate([shape[-1], shape[-2]])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self.operator.matvec(x, adjoint=not adjoint)

    def _determinant(self):
        if self.is_self_adjoint:
            return self.operator.determinant()
        return complex_ops.conj(self.operator.determinant())

    def _log_abs_determinant(self):
        return self.operator.log_abs_determinant()

    def _trace(self):
        if self.is_self_adjoint:
            return self.operator.trace()
        return complex_ops.conj(self.operator.trace())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self.operator.solvevec(rhs, adjoint=not adjoint)

    def _to_dense(self):
        if self.is_self_adjoint:
            return self.operator.to_dense()
        return linalg_ops.adjoint(self.operator.to_dense())

    def _eigvals(self):
        eigvals = self.operator.eigvals()
        return eigvals if self.operator.is_self_adjoint else complex_ops.conj(eigvals)

    def _cond(self):
        return self.operator.cond()


@tf_export("linalg.LinearOperatorInversion")
class LinearOperatorInversion(_OfOneOperator):
    """The inverse `A^{-1}` of a non-singular operator `A`: its matmul is `A`'s solve and its solve `A`'s matmul."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(
                f"Argument `is_non_singular` or argument `operator` must have supplied hint `is_non_singular` equal "
                f"to `True` or `None`. Found `operator.is_non_singular`: {operator.is_non_singular}, "
                f"`is_non_singular`: {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError(
                f"Argument `is_square` or argument `operator` must have supplied hint `is_square` equal to `True` or "
                f"`None`. Found `operator.is_square`: {operator.is_square}, `is_square`: {is_square}.")
        self._init_from(operator, dict(is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                                       is_positive_definite=is_positive_definite, is_square=is_square),
                        parameters, operator.name + "_inv" if name is None else name)

    _relation = "inverse"

    def _linop_inverse(self):
        return self.operator

    def _linop_solve(self, left, right):
        return left.operator.matmul(right)

    def _shape(self):
        return self.operator.shape

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1. / self.operator.determinant()

    def _log_abs_determinant(self):
        return -1. * self.operator.log_abs_determinant()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _eigvals(self):
        return 1. / self.operator.eigvals()

    def _cond(self):
        return self.operator.cond()


_COMPOSITION.update(composition=LinearOperatorComposition, adjoint=LinearOperatorAdjoint,
                    inversion=LinearOperatorInversion)
