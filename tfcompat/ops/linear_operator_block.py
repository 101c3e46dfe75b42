"""Operators made of operators' blocks: `tf.linalg.LinearOperatorBlockDiag` (a direct sum) and
`tf.linalg.LinearOperatorKronecker` (a Kronecker product).

Their hints follow from their parts as in TF; determinants, traces, diagonals and derived operators (adjoint,
inverse, cholesky, products of block-diagonal operators) are computed block by block, products and solves with
tensors by the blocks (BlockDiag, which also takes and returns lists of per-block tensors as TF does) or on the dense
Kronecker product.
"""
from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops import array_ops, linalg_ops, math_ops
from tfcompat.ops.linear_operator import LinearOperator, combined_non_singular_hint, convert_nonref, operator_list


def _operator_ndims(operators):
    return [_operator_ndims(o) if isinstance(o, (list, tuple)) else 0 for o in operators]


def _check_dtypes(operators, message):
    dtype = operators[0].dtype
    for operator in operators:
        if operator.dtype != dtype:
            raise TypeError(message(operators))
    return dtype


def _all_hint(operators, attr, given, message):
    if all(getattr(o, attr) for o in operators):
        if given is False:
            raise ValueError(message)
        return True
    return given


def _batch_shape(operators):
    batch = operators[0].batch_shape
    for operator in operators[1:]:
        batch = array_ops.broadcast_static_shape(batch, operator.batch_shape)
    return batch


def _broadcast_batch(tensors):
    """TF's `broadcast_matrix_batch_dims`: the tensors with their batch dimensions broadcast to one shape."""
    tensors = [convert_to_tensor(t) for t in tensors]
    batch = TensorShape([])
    for t in tensors:
        batch = array_ops.broadcast_static_shape(batch, t.shape[:-2])
    out = []
    for t in tensors:
        if t.shape[:-2] != batch:
            t = array_ops.broadcast_to(t, batch.as_list() + t.shape.as_list()[-2:])
        out.append(t)
    return out


@tf_export("linalg.LinearOperatorBlockDiag")
class LinearOperatorBlockDiag(LinearOperator):
    """The block-diagonal operator `diag(A1, ..., AJ)` (the blocks may be non-square)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        self._operators = operators
        dtype = _check_dtypes(operators, lambda ops: "Expected all operators to have the same dtype.  Found "
                              + "   ".join(str((o.name, o.dtype)) for o in ops))
        is_non_singular = _all_hint(operators, "is_non_singular", is_non_singular,
                                    "The direct sum of non-singular operators is always non-singular.")
        is_self_adjoint = _all_hint(operators, "is_self_adjoint", is_self_adjoint,
                                    "The direct sum of self-adjoint operators is always self-adjoint.")
        is_positive_definite = _all_hint(operators, "is_positive_definite", is_positive_definite,
                                         "The direct sum of positive definite operators is always positive definite.")
        if name is None:
            name = "_ds_".join(operator.name for operator in operators)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operators(self):
        return self._operators

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"operators": _operator_ndims(self._operators)}

    def _assert_non_singular(self):
        for operator in self._operators:
            operator.assert_non_singular()

    def _assert_self_adjoint(self):
        for operator in self._operators:
            operator.assert_self_adjoint()

    def _assert_positive_definite(self):
        for operator in self._operators:
            operator.assert_positive_definite()

    def _block_dims(self, domain):
        return [(o.domain_dimension if domain else o.range_dimension).value for o in self._operators]

    def _shape(self):
        return _batch_shape(self._operators).concatenate([sum(self._block_dims(False)), sum(self._block_dims(True))])

    def _derived(self, operators, **hints):
        return LinearOperatorBlockDiag(operators=operators, is_square=True, **hints)

    def _linop_adjoint(self):
        return self._derived([o.adjoint() for o in self._operators], is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return self._derived([o.cholesky() for o in self._operators], is_non_singular=True, is_self_adjoint=None)

    def _linop_inverse(self):
        return self._derived([o.inverse() for o in self._operators], is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _pairwise(self, left, right, what, fn):
        if isinstance(right, LinearOperatorBlockDiag):
            if len(left.operators) != len(right.operators):
                raise ValueError(f"Can not efficiently {what} when number of blocks differ.")
            for o1, o2 in zip(left.operators, right.operators):
                r, d = o2.range_dimension.value, o1.domain_dimension.value
                if r is not None and d is not None and r != d:
                    raise ValueError(f"Blocks are incompatible. Expected `x` to have dimension {d} but got {r}.")
            return self._derived([fn(o1, o2) for o1, o2 in zip(left.operators, right.operators)],
                                 is_non_singular=combined_non_singular_hint(left, right), is_self_adjoint=None,
                                 is_positive_definite=None)
        return None

    def _linop_matmul(self, left, right):
        out = self._pairwise(left, right, "multiply two `LinearOperatorBlockDiag`s together",
                             lambda a, b: a.matmul(b))
        return out if out is not None else super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        out = self._pairwise(left, right, "solve `LinearOperatorBlockDiag`", lambda a, b: a.solve(b))
        return out if out is not None else super()._linop_solve(left, right)

    def _blockwise(self, dims, arg, axis):
        """TF's `arg_is_blockwise`: a list with one tensor per block, or one tensor to split."""
        if not (isinstance(arg, (tuple, list)) and len(arg) == len(dims)):
            return False
        if not any(isinstance(x, (tuple, list)) for x in arg):
            return True
        arg_dims = [convert_to_tensor(x).shape[axis] for x in arg]
        if all(d == a for d, a in zip(dims, arg_dims)):
            return True
        if all(a == arg_dims[0] for a in arg_dims) and arg_dims[0] >= sum(dims):
            return False
        raise ValueError("Input dimension does not match operator dimension.")

    def _split(self, dims, x, axis):
        return array_ops.split(x, dims, axis=axis)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        dims = self._block_dims(not adjoint)
        axis = -1 if adjoint_arg else -2
        if self._blockwise(dims, x, axis):
            blocks = [b if isinstance(b, LinearOperator) else convert_to_tensor(b) for b in x]
            for b in blocks:
                if not isinstance(b, LinearOperator):
                    self._check_input_dtype(b)
            return [o.matmul(b, adjoint=adjoint, adjoint_arg=adjoint_arg) for o, b in zip(self._operators, blocks)]
        return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        parts = self._split(self._block_dims(not adjoint), x, -1 if adjoint_arg else -2)
        outs = [o.matmul(p, adjoint=adjoint, adjoint_arg=adjoint_arg) for o, p in zip(self._operators, parts)]
        return array_ops.concat(_broadcast_batch(outs), axis=-2)

    def matvec(self, x, adjoint=False, name="matvec"):
        dims = self._block_dims(not adjoint)
        if self._blockwise(dims, x, -1):
            ys = self.matmul([array_ops.expand_dims(convert_to_tensor(b), -1) for b in x], adjoint=adjoint)
            return [array_ops.squeeze(y, axis=-1) for y in ys]
        return super().matvec(x, adjoint=adjoint)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if isinstance(rhs, LinearOperator):
            return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        self._solve_checks()
        dims = self._block_dims(adjoint)
        if self._blockwise(dims, rhs, -1 if adjoint_arg else -2):
            blocks = [convert_to_tensor(b) for b in rhs]
            for b in blocks:
                self._check_input_dtype(b)
            return [o.solve(b, adjoint=adjoint, adjoint_arg=adjoint_arg) for o, b in zip(self._operators, blocks)]
        return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        parts = self._split(self._block_dims(True), rhs, -1 if adjoint_arg else -2)
        outs = [o.solve(p, adjoint=adjoint, adjoint_arg=adjoint_arg) for o, p in zip(self._operators, parts)]
        return array_ops.concat(_broadcast_batch(outs), axis=-2)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        dims = self._block_dims(adjoint)
        if self._blockwise(dims, rhs, -1):
            xs = self.solve([array_ops.expand_dims(convert_to_tensor(b), -1) for b in rhs], adjoint=adjoint)
            return [array_ops.squeeze(x, axis=-1) for x in xs]
        return super().solvevec(rhs, adjoint=adjoint)

    def _determinant(self):
        result = self._operators[0].determinant()
        for operator in self._operators[1:]:
            result = result * operator.determinant()
        return result

    def _log_abs_determinant(self):
        result = self._operators[0].log_abs_determinant()
        for operator in self._operators[1:]:
            result = result + operator.log_abs_determinant()
        return result

    def _square_blocks(self, what):
        if not all(o.is_square for o in self._operators):
            raise NotImplementedError(f"`{what}` not implemented for an operator whose blocks are not square.")

    def _diag_part(self):
        self._square_blocks("diag_part")
        parts = _broadcast_batch([array_ops.expand_dims(o.diag_part(), -1) for o in self._operators])
        return array_ops.squeeze(array_ops.concat(parts, axis=-2), axis=-1)

    def _trace(self):
        self._square_blocks("trace")
        result = self._operators[0].trace()
        for operator in self._operators[1:]:
            result = result + operator.trace()
        return result

    def _to_dense(self):
        blocks = _broadcast_batch([o.to_dense() for o in self._operators])
        total = sum(b.shape[-1] for b in blocks)
        rows, before = [], 0
        for b in blocks:
            n = b.shape[-1]
            pad = [[0, 0]] * (b.shape.rank - 1) + [[before, total - before - n]]
            rows.append(array_ops.pad(b, pad))
            before += n
        return array_ops.concat(rows, axis=-2)

    def _eigvals(self):
        self._square_blocks("eigvals")
        parts = _broadcast_batch([array_ops.expand_dims(o.eigvals(), -1) for o in self._operators])
        return array_ops.squeeze(array_ops.concat(parts, axis=-2), axis=-1)


@tf_export("linalg.LinearOperatorKronecker")
class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product `A1 x A2 x ... x AJ` of [batch] operators."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = operator_list(operators, "Argument `operators` must be a list of >=1 operators. Received: {}.")
        self._operators = operators
        dtype = _check_dtypes(operators, lambda ops: "Expected every operation in argument `operators` to have the "
                              f"same dtype. Received {[str((o.name, o.dtype)) for o in ops]}.")
        is_non_singular = _all_hint(
            operators, "is_non_singular", is_non_singular,
            f"The Kronecker product of non-singular operators is always non-singular. Expected argument "
            f"`is_non_singular` to be True. Received: {is_non_singular}.")
        is_self_adjoint = _all_hint(
            operators, "is_self_adjoint", is_self_adjoint,
            f"The Kronecker product of self-adjoint operators is always self-adjoint. Expected argument "
            f"`is_self_adjoint` to be True. Received: {is_self_adjoint}.")
        is_positive_definite = _all_hint(
            operators, "is_positive_definite", is_positive_definite,
            f"The Kronecker product of positive-definite operators is always positive-definite. Expected argument "
            f"`is_positive_definite` to be True. Received: {is_positive_definite}.")
        if name is None:
            name = "_x_".join(operator.name for operator in operators)
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters,
                         name=name)

    @property
    def operators(self):
        return self._operators

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"operators": _operator_ndims(self._operators)}

    def _each_square_factor(self, check):
        if not all(operator.is_square for operator in self._operators):
            raise errors.InvalidArgumentError(None, None, "All Kronecker factors must be square for the product to be "
                                              "invertible. Expected hint `is_square` to be True for every operator "
                                              "in argument `operators`.")
        for operator in self._operators:
            getattr(operator, check)()

    def _assert_non_singular(self):
        self._each_square_factor("assert_non_singular")

    def _assert_self_adjoint(self):
        self._each_square_factor("assert_self_adjoint")

    def _shape(self):
        rows = cols = 1
        for o in self._operators:
            r, c = o.range_dimension.value, o.domain_dimension.value
            rows = None if rows is None or r is None else rows * r
            cols = None if cols is None or c is None else cols * c
        return _batch_shape(self._operators).concatenate([rows, cols])

    def _derived(self, operators, **hints):
        return LinearOperatorKronecker(operators=operators, is_square=True, **hints)

    def _linop_adjoint(self):
        return self._derived([o.adjoint() for o in self._operators], is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _linop_cholesky(self):
        return self._derived([o.cholesky() for o in self._operators], is_non_singular=True, is_self_adjoint=None)

    def _linop_inverse(self):
        return self._derived([o.inverse() for o in self._operators], is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return math_ops.matmul(self.to_dense(), convert_nonref(x), adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.inverse().matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg) if self.is_non_singular and \
            all(o.is_non_singular for o in self._operators) else self._dense_solve(rhs, adjoint, adjoint_arg)

    def _determinant(self):
        total = self.domain_dimension.value
        det = 1.
        for o in self._operators:
            det = det * math_ops.pow(o.determinant(), math_ops.cast(total / o.domain_dimension.value, o.dtype))
        return det

    def _log_abs_determinant(self):
        total = self.domain_dimension.value
        out = 0.
        for o in self._operators:
            out = out + o.log_abs_determinant() * math_ops.cast(total / o.domain_dimension.value, o.dtype)
        return out

    def _trace(self):
        out = 1.
        for o in self._operators:
            out = out * o.trace()
        return out

    def _diag_part(self):
        diag = self._operators[0].diag_part()
        for o in self._operators[1:]:
            diag = array_ops.expand_dims(diag, -1) * array_ops.expand_dims(o.diag_part(), -2)
            diag = array_ops.reshape(diag, diag.shape.as_list()[:-2] + [-1])
        return diag

    def _to_dense(self):
        product = self._operators[0].to_dense()
        for o in self._operators[1:]:
            other = o.to_dense()
            product = array_ops.expand_dims(array_ops.expand_dims(product, -1), -3) * \
                array_ops.expand_dims(array_ops.expand_dims(other, -2), -4)
            s = product.shape.as_list()
            product = array_ops.reshape(product, s[:-4] + [s[-4] * s[-3], s[-2] * s[-1]])
        return product

    def _eigvals(self):
        product = self._operators[0].eigvals()
        for o in self._operators[1:]:
            product = array_ops.expand_dims(product, -1) * array_ops.expand_dims(o.eigvals(), -2)
            product = array_ops.reshape(product, product.shape.as_list()[:-2] + [-1])
        return product



@tf_export("linalg.LinearOperatorBlockLowerTriangular")
class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A square block lower-triangular operator: row i of `operators` holds the blocks A[i][0..i], the last one on
    the diagonal (square)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        parameters = dict(operators=operators, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError(f"Argument `operators` must be a list of >=1 operators. Received: {operators}.")
        self._operators = operators
        self._diagonal_operators = [row[-1] for row in operators]
        dtype = operators[0][0].dtype
        for i, row in enumerate(operators):
            for operator in row:
                if operator.dtype != dtype:
                    found = (str((o.name, o.dtype)) for o in row)
                    raise TypeError(f"Expected all operators to have the same dtype.  Found {found} in row {i} and "
                                    f"{str(dtype)} in row 0.")
        if all(op.is_non_singular for op in self._diagonal_operators):
            if is_non_singular is False:
                raise ValueError(f"A blockwise lower-triangular operator with non-singular operators on the main "
                                 f"diagonal is always non-singular. Expected argument `is_non_singular` to be True. "
                                 f"Received: {is_non_singular}.")
            is_non_singular = True
        elif any(op.is_non_singular is False for op in self._diagonal_operators):
            if is_non_singular is True:
                raise ValueError(f"A blockwise lower-triangular operator with a singular operator on the main "
                                 f"diagonal is always singular. Expected argument `is_non_singular` to be True. "
                                 f"Received: {is_non_singular}.")
            is_non_singular = False
        else:
            is_non_singular = None
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain `{i + 1}` blocks. Received: {len(row)} "
                                 f"blocks.")
        for i in range(1, len(operators)):
            for j in range(i):
                op, above, right = operators[i][j], operators[i - 1][j], operators[i][j + 1]
                if op.domain_dimension.value is not None and above.domain_dimension.value is not None and \
                        op.domain_dimension != above.domain_dimension:
                    raise ValueError(f"Argument `operators[{i}][{j}].domain_dimension` ({op.domain_dimension}) must "
                                     f"be the same as `operators[{i - 1}][{j}].domain_dimension` "
                                     f"({above.domain_dimension}).")
                if op.range_dimension.value is not None and right.range_dimension.value is not None and \
                        op.range_dimension != right.range_dimension:
                    raise ValueError(f"Argument `operators[{i}][{j}].range_dimension` ({op.range_dimension}) must be "
                                     f"the same as `operators[{i}][{j + 1}].range_dimension` "
                                     f"({right.range_dimension}).")
        if is_square is False:
            raise ValueError(f"`LinearOperatorBlockLowerTriangular` must be square. Expected argument `is_square` to "
                             f"be True. Received: {is_square}.")
        for i, op in enumerate(self._diagonal_operators):
            if op.is_square is False:
                raise ValueError(f"Matrices on the diagonal (the final elements of each row-partition in the "
                                 f"`operators` list) must be square. Expected argument `operators[{i}][-1].is_square` "
                                 f"to be True. Received: {op.is_square}.")
        super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, parameters=parameters, name=name)

    @property
    def operators(self):
        return self._operators

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"operators": _operator_ndims(self._operators)}

    def _block_dims(self):
        return [o.domain_dimension.value for o in self._diagonal_operators]

    def _assert_non_singular(self):
        for operator in self._diagonal_operators:
            operator.assert_non_singular()

    def _shape(self):
        n = sum(self._block_dims())
        return _batch_shape([op for row in self._operators for op in row]).concatenate([n, n])

    _blockwise = LinearOperatorBlockDiag._blockwise

    def _linop_inverse(self):
        """Block forward substitution: the inverse is block lower-triangular too (its off-diagonal blocks dense)."""
        from tfcompat.ops.linear_operator_basic import LinearOperatorFullMatrix, LinearOperatorScaledIdentity
        n = len(self._operators)
        inv = [[None] * (i + 1) for i in range(n)]
        for i in range(n):
            inv[i][i] = self._diagonal_operators[i].inverse()
            for j in range(i):
                acc = None
                for k in range(j, i):
                    term = self._operators[i][k].matmul(inv[k][j]).to_dense()
                    acc = term if acc is None else acc + term
                block = inv[i][i].matmul(LinearOperatorFullMatrix(acc))      # -C^-1 (sum B A^-1), as TF composes it
                minus = LinearOperatorScaledIdentity(inv[i][i].domain_dimension.value, math_ops.cast(-1, block.dtype))
                inv[i][j] = minus.matmul(block)
        return LinearOperatorBlockLowerTriangular(inv, is_non_singular=self.is_non_singular,
                                                  is_self_adjoint=self.is_self_adjoint,
                                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _split_arg(self, x, axis):
        if self._blockwise(self._block_dims(), x, axis):
            blocks = [convert_to_tensor(b) for b in x]
            for b in blocks:
                self._check_input_dtype(b)
            return blocks, True
        return None, False

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if isinstance(x, LinearOperator):
            return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        blocks, blockwise = self._split_arg(x, -1 if adjoint_arg else -2)
        if blockwise:
            return self._block_matmul(blocks, adjoint, adjoint_arg)
        return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _block_matmul(self, blocks, adjoint, adjoint_arg):
        blocks = [linalg_ops.adjoint(b) for b in blocks] if adjoint_arg else blocks
        n = len(self._operators)
        out = []
        for i in range(n):
            pairs = ([(self._operators[j][i], blocks[j]) for j in range(i, n)] if adjoint
                     else [(self._operators[i][j], blocks[j]) for j in range(i + 1)])
            acc = None
            for op, b in pairs:
                term = op.matmul(b, adjoint=adjoint)
                acc = term if acc is None else acc + term
            out.append(acc)
        return out

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = linalg_ops.adjoint(x) if adjoint_arg else convert_to_tensor(x)
        out = self._block_matmul(array_ops.split(x, self._block_dims(), axis=-2), adjoint, False)
        return array_ops.concat(_broadcast_batch(out), axis=-2)

    def matvec(self, x, adjoint=False, name="matvec"):
        if self._blockwise(self._block_dims(), x, -1):
            ys = self.matmul([array_ops.expand_dims(convert_to_tensor(b), -1) for b in x], adjoint=adjoint)
            return [array_ops.squeeze(y, axis=-1) for y in ys]
        return super().matvec(x, adjoint=adjoint)

    def _block_solve(self, blocks, adjoint):
        n = len(self._operators)
        sol = [None] * n
        order = range(n - 1, -1, -1) if adjoint else range(n)
        for i in order:
            y = blocks[i]
            others = range(i + 1, n) if adjoint else range(i)
            for j in others:
                op = self._operators[j][i] if adjoint else self._operators[i][j]
                y = y - op.matmul(sol[j], adjoint=adjoint)
            sol[i] = self._diagonal_operators[i].solve(y, adjoint=adjoint)
        return sol

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if isinstance(rhs, LinearOperator):
            return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        self._solve_checks()
        blocks, blockwise = self._split_arg(rhs, -1 if adjoint_arg else -2)
        if blockwise:
            blocks = [linalg_ops.adjoint(b) for b in blocks] if adjoint_arg else blocks
            return self._block_solve(blocks, adjoint)
        return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else convert_to_tensor(rhs)
        out = self._block_solve(array_ops.split(rhs, self._block_dims(), axis=-2), adjoint)
        return array_ops.concat(_broadcast_batch(out), axis=-2)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        if self._blockwise(self._block_dims(), rhs, -1):
            xs = self.solve([array_ops.expand_dims(convert_to_tensor(b), -1) for b in rhs], adjoint=adjoint)
            return [array_ops.squeeze(x, axis=-1) for x in xs]
        return super().solvevec(rhs, adjoint=adjoint)

    def _determinant(self):
        if all(op.is_positive_definite for op in self._diagonal_operators):
            return math_ops.exp(self._log_abs_determinant())
        result = self._diagonal_operators[0].determinant()
        for op in self._diagonal_operators[1:]:
            result = result * op.determinant()
        return result

    def _log_abs_determinant(self):
        result = self._diagonal_operators[0].log_abs_determinant()
        for op in self._diagonal_operators[1:]:
            result = result + op.log_abs_determinant()
        return result

    def _concat_diagonals(self, fn):
        parts = _broadcast_batch([array_ops.expand_dims(fn(o), -1) for o in self._diagonal_operators])
        return array_ops.squeeze(array_ops.concat(parts, axis=-2), axis=-1)

    def _diag_part(self):
        return self._concat_diagonals(lambda o: o.diag_part())

    def _eigvals(self):
        return self._concat_diagonals(lambda o: o.eigvals())

    def _trace(self):
        result = self._diagonal_operators[0].trace()
        for op in self._diagonal_operators[1:]:
            result = result + op.trace()
        return result

    def _to_dense(self):
        flat = _broadcast_batch([op.to_dense() for row in self._operators for op in row])
        total = sum(self._block_dims())
        rows, start = [], 0
        for i in range(len(self._operators)):
            row = flat[start:start + i + 1]
            start += i + 1
            width = sum(b.shape[-1] for b in row)
            dense = array_ops.concat(row, axis=-1)
            rows.append(array_ops.pad(dense, [[0, 0]] * (dense.shape.rank - 1) + [[0, total - width]]))
        return array_ops.concat(rows, axis=-2)
