"""`tf.linalg.LinearOperatorLowRankUpdate`: `A = L + U D V^H` over a base operator L, solved by Woodbury's identity
and with determinants from the capacitance matrix `D^-1 + V^H L^-1 U`, as TF does (Cholesky when L is self-adjoint
positive definite, D positive and V = U)."""
from tfcompat.framework.export import tf_export
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.ops import array_ops, complex_ops, linalg_ops, math_ops, reduction_ops
from tfcompat.ops.linear_operator import LinearOperator, convert_nonref, solve_with_broadcast
from tfcompat.ops.linear_operator_basic import LinearOperatorDiag, LinearOperatorIdentity


@tf_export("linalg.LinearOperatorLowRankUpdate")
class LinearOperatorLowRankUpdate(LinearOperator):
    """Perturb a `LinearOperator` with a rank `K` update: `L + U diag(d) V^H` (V = U and d = 1 by default)."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        parameters = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                          is_diag_update_positive=is_diag_update_positive, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        dtype = base_operator.dtype
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  However, user set "
                                 "'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        self._use_cholesky = bool(base_operator.is_positive_definite and base_operator.is_self_adjoint
                                  and is_diag_update_positive and v is None)
        if base_operator.is_self_adjoint and v is None and not dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is "
                                 "self-adjoint, this must be a self-adjoint operator.")
            is_self_adjoint = True
        if self._use_cholesky:
            if is_positive_definite is False or is_self_adjoint is False or is_non_singular is False:
                raise ValueError("Arguments imply this is self-adjoint positive-definite operator.")
            is_positive_definite = True
        self._u = convert_nonref(u, name="u")
        self._v = self._u if v is None else convert_nonref(v, name="v")
        self._diag_update = None if diag_update is None else convert_nonref(diag_update, name="diag_update")
        self._base_operator = base_operator
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)
        if self._diag_update is not None:
            self._diag_operator = LinearOperatorDiag(self._diag_update, is_positive_definite=is_diag_update_positive)
        else:
            self._diag_operator = LinearOperatorIdentity(num_rows=self._u.shape[-1], dtype=self.dtype)
        self._is_diag_update_positive = is_diag_update_positive
        uv = array_ops.broadcast_static_shape(self._u.shape, self._v.shape)
        batch = array_ops.broadcast_static_shape(base_operator.batch_shape, uv[:-2])
        base_operator.domain_dimension.assert_is_compatible_with(uv[-2])
        if self._diag_update is not None:
            uv.dims[-1].assert_is_compatible_with(self._diag_update.shape[-1])
            array_ops.broadcast_static_shape(batch, self._diag_update.shape[:-1])

    u = property(lambda self: self._u)
    v = property(lambda self: self._v)
    is_diag_update_positive = property(lambda self: self._is_diag_update_positive)
    diag_update = property(lambda self: self._diag_update)
    diag_operator = property(lambda self: self._diag_operator)
    base_operator = property(lambda self: self._base_operator)

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"base_operator": 0, "u": 2, "diag_update": 1, "v": 2}

    def _assert_self_adjoint(self):
        if self._u is self._v and self._diag_update is None:
            return self._base_operator.assert_self_adjoint()
        return super()._assert_self_adjoint()

    def _shape(self):
        batch = array_ops.broadcast_static_shape(self._base_operator.batch_shape, self._diag_operator.batch_shape)
        batch = array_ops.broadcast_static_shape(batch, self._u.shape[:-2])
        batch = array_ops.broadcast_static_shape(batch, self._v.shape[:-2])
        return batch.concatenate(self._base_operator.shape[-2:])

    def _uv(self):
        u = convert_to_tensor(self._u)
        return u, (u if self._v is self._u else convert_to_tensor(self._v))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        u, v = self._uv()
        lead = self._base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        first, second = (u, v) if adjoint else (v, u)
        inner = self._diag_operator.matmul(math_ops.matmul(first, x, adjoint_a=True, adjoint_b=adjoint_arg),
                                           adjoint=adjoint)
        return lead + math_ops.matmul(second, inner)

    def _capacitance(self, u, v):
        vh_linv_u = math_ops.matmul(v, self._base_operator.solve(u), adjoint_a=True)
        return self._diag_operator.inverse().add_to_tensor(vh_linv_u)

    def _determinant(self):
        if self.is_positive_definite:
            return math_ops.exp(self.log_abs_determinant())
        u, v = self._uv()
        return (linalg_ops.det(self._capacitance(u, v)) * self._diag_operator.determinant()
                * self._base_operator.determinant())

    def _diag_part(self):
        u, v = self._uv()
        product = u * complex_ops.conj(v)
        if self._diag_update is not None:
            product = product * array_ops.expand_dims(self._diag_update, axis=-2)
        return reduction_ops.reduce_sum(product, axis=-1) + self._base_operator.diag_part()

    def _log_abs_determinant(self):
        u, v = self._uv()
        lad_d = self._diag_operator.log_abs_determinant()
        lad_l = self._base_operator.log_abs_determinant()
        if self._use_cholesky:
            chol = linalg_ops.diag_part(linalg_ops.cholesky(self._capacitance(u, v)))
            lad_c = 2 * reduction_ops.reduce_sum(math_ops.log(chol), axis=[-1])
        else:
            lad_c = math_ops.log(math_ops.abs(linalg_ops.det(self._capacitance(u, v))))
            if self.dtype.is_complex:
                lad_c = math_ops.cast(lad_c, self.dtype)
        return lad_c + lad_d + lad_l

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self._base_operator.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a non-singular "
                             "LinearOperator.")
        base = self._base_operator
        u, v = self._uv()
        capacitance = self._capacitance(u, v)      # solved adjoint below when `adjoint`, as TF does
        if adjoint:
            u, v = v, u
        linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = math_ops.matmul(v, linv_rhs, adjoint_a=True)
        if self._use_cholesky:
            cap_solved = linalg_ops.cholesky_solve(linalg_ops.cholesky(capacitance), vh_linv_rhs)
        else:
            cap_solved = solve_with_broadcast(capacitance, vh_linv_rhs, adjoint=adjoint)
        return linv_rhs - base.solve(math_ops.matmul(u, cap_solved), adjoint=adjoint)
