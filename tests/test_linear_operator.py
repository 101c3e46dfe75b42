"""tf.linalg.LinearOperator and its elementary and algebraic families; golden values recorded from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

A = [[2., 1.], [1., 3.]]
X = [[1., 2.], [3., 4.]]


def _close(t, expected, atol=1e-5):
    np.testing.assert_allclose(np.asarray(t), np.asarray(expected), rtol=1e-5, atol=atol)


def test_full_matrix_properties_and_methods():
    op = tf.linalg.LinearOperatorFullMatrix(tf.constant(A), is_positive_definite=True, is_self_adjoint=True)
    # TF 2.21
    assert op.shape == (2, 2) and op.batch_shape == () and op.domain_dimension == 2 and op.range_dimension == 2
    assert op.tensor_rank == 2 and op.name == "LinearOperatorFullMatrix" and op.dtype == tf.float32
    assert (op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square) == (True, True, True, True)
    assert op.shape_tensor().numpy().tolist() == [2, 2] and op.shape_tensor().dtype == tf.int32
    assert op.batch_shape_tensor().numpy().tolist() == [] and int(op.domain_dimension_tensor()) == 2
    assert set(op.parameters) == {"matrix", "is_non_singular", "is_self_adjoint", "is_positive_definite",
                                  "is_square", "name"}
    x = tf.constant([[1.], [2.]])
    _close(op.matmul(x), [[4.], [7.]])
    _close(op @ x, [[4.], [7.]])
    _close(tf.linalg.matmul(op, x), [[4.], [7.]])
    _close(op.matvec([1., 2.]), [4., 7.])
    _close(op.solve(x), [[0.2], [0.6]])
    _close(op.solvevec([1., 2.]), [0.2, 0.6])
    _close(op.determinant(), 5.0)
    _close(op.log_abs_determinant(), 1.609438)
    _close(op.trace(), 5.0)
    _close(op.diag_part(), [2., 3.])
    _close(op.eigvals(), [1.3819659, 3.6180334])
    _close(op.cond(), 2.618034)
    _close(op.add_to_tensor(tf.constant(X)), [[3., 3.], [4., 7.]])
    assert op.adjoint() is op and op.H is op
    ch = op.cholesky()
    assert type(ch).__name__ == "LinearOperatorLowerTriangular"
    assert (ch.is_non_singular, ch.is_self_adjoint, ch.is_positive_definite) == (True, False, None)
    _close(ch.to_dense(), [[1.4142135, 0.], [0.70710677, 1.5811388]])


def test_full_matrix_batch():
    b = tf.linalg.LinearOperatorFullMatrix(tf.constant([[[1., 2.], [0.5, 3.]], [[4., 1.], [2., 2.]]]))
    x = tf.constant(X)
    # TF 2.21
    _close(b.matmul(x, adjoint=True, adjoint_arg=True), [[[2., 5.], [8., 18.]], [[8., 20.], [5., 11.]]])
    _close(b.solve(x, adjoint=True), [[[0.75, 2.], [0.5, 0.]], [[-0.6666667, -0.6666667], [1.8333334, 2.3333335]]])
    _close(b.determinant(), [2., 6.])
    _close(b.log_abs_determinant(), [0.6931472, 1.7917595])
    _close(b.solvevec([1., 2.]), [[-0.5, 0.75], [0., 1.]])
    _close(b.matvec([1., 2.], adjoint=True), [[2., 8.], [8., 5.]])
    _close(b.trace(), [4., 6.])
    assert b.is_square is True and b.is_self_adjoint is None


def test_input_checks_and_hint_errors():
    op = tf.linalg.LinearOperatorFullMatrix(tf.constant(A))
    # TF 2.21 messages
    with pytest.raises(ValueError, match="Dimensions 2 and 1 are not compatible"):
        op.matmul(tf.constant([[1., 2., 3.]]))
    with pytest.raises(TypeError, match=r"Expected argument to have dtype <dtype: 'float32'>.  Found: "
                                        r"<dtype: 'float64'> in tensor tf.Tensor"):
        op.matmul(tf.constant(X, dtype=tf.float64))
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        op.matvec([1., 2., 3.])
    with pytest.raises(TypeError, match=r"Argument `matrix` must have dtype in \[tf.float16, tf.float32, tf.float64, "
                                        r"tf.complex64, tf.complex128\]. Received: <dtype: 'int32'>."):
        tf.linalg.LinearOperatorFullMatrix([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="A positive definite matrix is always non-singular."):
        tf.linalg.LinearOperatorFullMatrix(tf.constant(A), is_positive_definite=True, is_non_singular=False)
    with pytest.raises(ValueError, match="User set is_square hint to False, but the operator was square."):
        _ = tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 2]), is_square=False).is_square
    rect = tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3]))
    with pytest.raises(NotImplementedError, match="Determinant not implemented for an operator that is expected to "
                                                  "not be square."):
        rect.determinant()
    with pytest.raises(ValueError, match="Cannot take the Inverse: This operator represents a non square matrix."):
        rect.inverse()
    with pytest.raises(NotImplementedError, match="Exact solve not implemented for an operator that is expected to "
                                                  "not be square."):
        rect.solve(tf.ones([2, 1]))
    with pytest.raises(NotImplementedError, match="Only self-adjoint matrices are supported."):
        op.eigvals()
    with pytest.raises(ValueError, match="Operators are incompatible. Expected `x` to have dimension 2 but got 3."):
        op.matmul(tf.linalg.LinearOperatorIdentity(3))
    with pytest.raises(ValueError, match="Cannot take the Cholesky decomposition: Not a positive definite self "
                                         "adjoint matrix."):
        tf.linalg.LinearOperatorDiag([1., 2.]).cholesky()
    bad = [
        (lambda: tf.linalg.LinearOperatorIdentity(-1), ValueError, "Argument num_rows must be non-negative.  Found: -1"),
        (lambda: tf.linalg.LinearOperatorIdentity(2.), TypeError, "Argument num_rows must be integer type.  Found: "
                                                                  "tf.Tensor(2.0, shape=(), dtype=float32)"),
        (lambda: tf.linalg.LinearOperatorIdentity([2]), ValueError, "Argument num_rows must be a 0-D Tensor.  Found: [2]"),
        (lambda: tf.linalg.LinearOperatorIdentity(2, is_self_adjoint=False), ValueError,
         "An identity operator is always self adjoint."),
        (lambda: tf.linalg.LinearOperatorIdentity(2, batch_shape=[-1]), ValueError,
         "Argument batch_shape must be non-negative.  Found:[-1]"),
        (lambda: tf.linalg.LinearOperatorIdentity(2, batch_shape=2), ValueError,
         "Argument batch_shape must be a 1-D Tensor.  Found: 2"),
        (lambda: tf.linalg.LinearOperatorScaledIdentity(2, 1., is_square=False), ValueError,
         "A ScaledIdentity operator is always square."),
        (lambda: tf.linalg.LinearOperatorDiag(1.), ValueError,
         "Argument diag must have at least 1 dimension.  Found: tf.Tensor(1.0, shape=(), dtype=float32)"),
        (lambda: tf.linalg.LinearOperatorDiag([1.], is_square=False), ValueError,
         "Only square diagonal operators currently supported."),
        (lambda: tf.linalg.LinearOperatorLowerTriangular([1.]), ValueError,
         "Argument tril must have at least 2 dimensions.  Found: tf.Tensor([1.], shape=(1,), dtype=float32)"),
        (lambda: tf.linalg.LinearOperatorLowerTriangular([[1.]], is_square=False), ValueError,
         "Only square lower triangular operators supported at this time."),
        (lambda: tf.linalg.LinearOperatorComposition([]), ValueError, "Expected a non-empty list of operators. Found: []"),
        (lambda: tf.linalg.LinearOperatorComposition([op, tf.linalg.LinearOperatorDiag(tf.constant([1., 2.], tf.float64))]),
         TypeError, "Expected all operators to have the same dtype.  Found ('LinearOperatorFullMatrix', tf.float32)   "
                    "('LinearOperatorDiag', tf.float64)"),
        (lambda: tf.linalg.LinearOperatorInversion(tf.linalg.LinearOperatorFullMatrix(A, is_non_singular=False)),
         ValueError, "Argument `is_non_singular` or argument `operator` must have supplied hint `is_non_singular` equal "
                     "to `True` or `None`. Found `operator.is_non_singular`: False, `is_non_singular`: None."),
        (lambda: tf.linalg.LinearOperatorAdjoint(tf.linalg.LinearOperatorDiag([1., 2.]), is_self_adjoint=False),
         ValueError, "An operator is self-adjoint if and only if its adjoint is self-adjoint."),
    ]
    for make, cls, message in bad:
        with pytest.raises(cls) as info:
            make()
        assert str(info.value) == message


def test_diag_identity_scaled_identity():
    d = tf.linalg.LinearOperatorDiag([1., 2.])
    x = tf.constant(X)
    # TF 2.21
    assert (d.is_non_singular, d.is_self_adjoint, d.is_positive_definite, d.is_square) == (None, True, None, True)
    _close(d.add_to_tensor(x), [[2., 2.], [3., 6.]])
    assert type(d @ d).__name__ == "LinearOperatorDiag" and type(d.solve(d)).__name__ == "LinearOperatorDiag"
    c = tf.complex(tf.constant([1., 2.]), tf.constant([0.5, -1.]))
    dc = tf.linalg.LinearOperatorDiag(c)
    assert dc.is_self_adjoint is None
    _close(dc.log_abs_determinant(), 0.91629076 + 0j)
    _close(dc.determinant(), 2.5 + 0j)
    _close(dc.adjoint().diag, [1. - 0.5j, 2. + 1.j])
    _close(dc.matvec(tf.cast([1., 1.], tf.complex64), adjoint=True), [1. - 0.5j, 2. + 1.j])

    eye = tf.linalg.LinearOperatorIdentity(2)
    _close(eye.to_dense(), [[1., 0.], [0., 1.]])
    _close(eye.matmul(x), X)
    _close(eye.trace(), 2.)
    _close(eye.add_to_tensor(x), [[2., 2.], [3., 5.]])
    op = tf.linalg.LinearOperatorFullMatrix(A)
    assert (op @ eye) is op and (eye @ op) is op
    ib = tf.linalg.LinearOperatorIdentity(2, batch_shape=[3], dtype=tf.float64)
    assert ib.shape == (3, 2, 2) and ib.shape_tensor().numpy().tolist() == [3, 2, 2]
    _close(ib.matvec(tf.constant([1., 2.], tf.float64)), [[1., 2.]] * 3)
    _close(ib.determinant(), [1., 1., 1.])
    _close(ib.trace(), [2., 2., 2.])
    assert ib.inverse() is ib and type(op.solve(ib)).__name__ == "LinearOperatorInversion"

    s = tf.linalg.LinearOperatorScaledIdentity(2, [2., 3.])
    assert s.shape == (2, 2, 2)
    _close(s.determinant(), [4., 9.])
    _close(s.log_abs_determinant(), [1.3862944, 2.1972246])
    _close(s.trace(), [4., 6.])
    _close(s.diag_part(), [[2., 2.], [3., 3.]])
    _close(s.solve(x), [[[0.5, 1.], [1.5, 2.]], [[0.33333334, 0.6666667], [1., 1.3333334]]])
    _close(s.add_to_tensor(tf.ones([2, 2, 2])), [[[3., 1.], [1., 3.]], [[4., 1.], [1., 4.]]])
    assert type(s @ s).__name__ == "LinearOperatorScaledIdentity"
    _close((s @ s).multiplier, [4., 9.])
    _close((s @ d).diag, [2., 6.])
    s64 = tf.linalg.LinearOperatorScaledIdentity(3, tf.constant(2., tf.float64))
    _close(s64.determinant(), 8.)
    _close(s64.inverse().multiplier, 0.5)
    _close(s64.cond(), 1.)


def test_lower_triangular_composition_adjoint_inversion():
    x = tf.constant(X)
    tril = tf.linalg.LinearOperatorLowerTriangular([[2., 5.], [1., 3.]])
    # TF 2.21
    _close(tril.to_dense(), [[2., 0.], [1., 3.]])
    _close(tril.determinant(), 6.)
    _close(tril.log_abs_determinant(), 1.7917595)
    _close(tril.solve(x), [[0.5, 1.], [0.8333334, 1.]])
    _close(tril.matmul(x, adjoint=True), [[5., 8.], [9., 12.]])
    _close(tril.solvevec([1., 2.], adjoint=True), [0.16666666, 0.6666667])
    d = tf.linalg.LinearOperatorDiag([1., 2.])
    assert type(tril @ d).__name__ == "LinearOperatorLowerTriangular"
    _close((tril @ d).to_dense(), [[2., 0.], [1., 6.]])

    op = tf.linalg.LinearOperatorFullMatrix(tf.constant(A))
    comp = op @ d
    assert type(comp).__name__ == "LinearOperatorComposition"
    assert comp.name == "LinearOperatorFullMatrix_o_LinearOperatorDiag"
    assert (comp.is_square, comp.is_non_singular, comp.shape) == (True, None, (2, 2))
    _close(comp.to_dense(), [[2., 2.], [1., 6.]])
    _close(comp.determinant(), 10.)
    _close(comp.solve(x), [[0., 0.4], [0.5, 0.6]])
    assert op.solve(d).name == "LinearOperatorFullMatrix_inv_o_LinearOperatorDiag"
    assert comp.H.name == "LinearOperatorFullMatrix_o_LinearOperatorDiag_adjoint"

    adj = op.adjoint()
    assert type(adj).__name__ == "LinearOperatorAdjoint" and adj.name == "LinearOperatorFullMatrix_adjoint"
    assert adj.adjoint() is op
    inv = op.inverse()
    assert type(inv).__name__ == "LinearOperatorInversion" and inv.name == "LinearOperatorFullMatrix_inv"
    _close(inv.to_dense(), [[0.6, -0.2], [-0.2, 0.4]])
    _close(inv.determinant(), 0.2)
    _close(inv.log_abs_determinant(), -1.609438)
    assert inv.inverse() is op

    aat = tf.linalg.LinearOperatorComposition([tril, tril.adjoint()])
    assert (aat.is_self_adjoint, aat.is_square, aat.is_positive_definite) == (True, True, None)
    _close(aat.to_dense(), [[4., 2.], [2., 10.]])
    ns = tf.linalg.LinearOperatorLowerTriangular([[2., 5.], [1., 3.]], is_non_singular=True)
    aat2 = tf.linalg.LinearOperatorComposition([ns, ns.H])
    assert aat2.name == "LinearOperatorLowerTriangular_o_LinearOperatorLowerTriangular_adjoint"
    assert aat2.is_positive_definite is True
    assert type(aat2.cholesky()).__name__ == "LinearOperatorLowerTriangular"
    _close(aat2.cholesky().to_dense(), [[2., 0.], [1., 3.]])


def test_linalg_functions_dispatch_operators():
    op = tf.linalg.LinearOperatorFullMatrix(tf.constant(A))
    x = tf.constant(X)
    # TF 2.21
    _close(tf.matmul(x, op), [[4., 7.], [10., 15.]])
    _close(x @ op, [[4., 7.], [10., 15.]])
    _close(tf.linalg.matmul(op, x, adjoint_a=True), [[5., 8.], [10., 14.]])
    with pytest.raises(ValueError, match="Transposing not supported at this time."):
        tf.matmul(op, x, transpose_a=True)
    _close(tf.linalg.trace(op), 5.)
    _close(tf.linalg.det(op), 5.)
    assert type(tf.linalg.adjoint(op)).__name__ == "LinearOperatorAdjoint"
    assert type(tf.linalg.inv(op)).__name__ == "LinearOperatorInversion"
    with pytest.raises(ValueError, match="Expected matrix to be self-adjoint positive definite."):
        tf.linalg.logdet(op)
    _close(tf.linalg.solve(op, x), [[0., 0.4], [1., 1.2]])
    _close(tf.linalg.diag_part(op), [2., 3.])
    _close(tf.linalg.matmul(x, x), [[7., 10.], [15., 22.]])      # dense calls unchanged


def test_gradients_variables_and_tf_function():
    a = tf.Variable(A)
    dv = tf.Variable([1., 2.])
    op = tf.linalg.LinearOperatorFullMatrix(a, is_self_adjoint=True, is_positive_definite=True)
    dg = tf.linalg.LinearOperatorDiag(dv)
    assert len(op.trainable_variables) == 1 and len((op @ dg).trainable_variables) == 2
    x = tf.constant(X)
    with tf.GradientTape(persistent=True) as tape:
        comp = op @ dg
        y = tf.reduce_sum(comp.matmul(x)) + comp.log_abs_determinant() + tf.reduce_sum(comp.solve(x))
        z = tf.reduce_sum(op.cholesky().to_dense()) + op.inverse().trace()
    # TF 2.21
    _close(y, 68.80258, atol=1e-4)
    ga, gd = tape.gradient(y, [a, dv])
    _close(ga, [[3.4, 13.25], [2.25, 14.4]], atol=1e-4)
    _close(gd, [9.6, 27.95], atol=1e-4)
    _close(z, 4.7024593)
    _close(tape.gradient(z, a), [[-0.14416632, 0.39543948], [0.39543948, 0.11622776]])

    @tf.function
    def f(x):
        tril = tf.linalg.LinearOperatorLowerTriangular(a)
        s = tf.linalg.LinearOperatorScaledIdentity(2, 3.)
        return ((tril @ s).solve(x), tf.linalg.matmul(tril, x), tril.determinant(),
                tf.linalg.LinearOperatorIdentity(2, batch_shape=[2]).matvec(x))
    out = f(x)
    _close(out[0], [[0.16666667, 0.33333334], [0.2777778, 0.33333334]])
    _close(out[1], [[2., 4.], [10., 14.]])
    _close(out[2], 6.)
    _close(out[3], X)
    out = f(x + 1)
    _close(out[0], [[0.33333334, 0.5], [0.33333334, 0.38888893]])
    _close(out[1], [[4., 6.], [14., 18.]])


def test_permutation_householder_toeplitz():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    p = tf.linalg.LinearOperatorPermutation([2, 0, 1])
    # TF 2.21
    assert p.shape == (3, 3) and p.is_square is True and p.is_self_adjoint is None
    _close(p.to_dense(), [[0., 0., 1.], [1., 0., 0.], [0., 1., 0.]])
    _close(p.matmul(x), [[5., 6.], [1., 2.], [3., 4.]])
    _close(p.matmul(x, adjoint=True), [[3., 4.], [5., 6.], [1., 2.]])
    _close(p.solve(x), [[3., 4.], [5., 6.], [1., 2.]])
    _close(p.determinant(), 1.)
    _close(p.log_abs_determinant(), 0.)
    _close(p.diag_part(), [0., 0., 0.])
    pb = tf.linalg.LinearOperatorPermutation([[1, 0, 2], [2, 1, 0]], dtype=tf.float64)
    assert pb.shape == (2, 3, 3)
    _close(pb.matvec(tf.constant([1., 2., 3.], tf.float64)), [[2., 1., 3.], [3., 2., 1.]])
    for make, cls, message in [
            (lambda: tf.linalg.LinearOperatorPermutation([0, 0, 1]), ValueError,
             "Argument `perm` must be a vector of unique integers from 0 to 2."),
            (lambda: tf.linalg.LinearOperatorPermutation([0., 1.]), TypeError,
             "Argument `perm` must be integer dtype. Received: [0. 1.]."),
            (lambda: tf.linalg.LinearOperatorPermutation([1, 0], is_square=False), ValueError,
             "A Permutation operator is always square. Expected argument `is_square` to be True. Received: False."),
            (lambda: tf.linalg.LinearOperatorHouseholder([1.], is_positive_definite=True), ValueError,
             "A Householder operator is always non-positive definite."),
            (lambda: tf.linalg.LinearOperatorToeplitz([1., 2.], [1., 2., 3.]), ValueError,
             "Expected square matrix, got row and col with mismatched dimensions."),
            (lambda: tf.linalg.LinearOperatorToeplitz(1., [1.]), ValueError,
             "Argument col must have at least 1 dimension.  Found: 1.0")]:
        with pytest.raises(cls) as info:
            make()
        assert str(info.value) == message

    h = tf.linalg.LinearOperatorHouseholder([1., 2., 2.])
    assert (h.is_self_adjoint, h.is_positive_definite, h.is_non_singular) == (True, False, None)
    assert h.inverse() is h and h.adjoint() is h
    _close(h.to_dense(), [[0.7777778, -0.44444448, -0.44444448], [-0.44444448, 0.11111104, -0.88888896],
                          [-0.44444448, -0.88888896, 0.11111104]])
    _close(h.matmul(x), [[-2.7777781, -2.8888893], [-4.5555563, -5.7777786], [-2.5555563, -3.7777786]])
    _close(h.solve(x), [[-2.7777781, -2.8888893], [-4.5555563, -5.7777786], [-2.5555563, -3.7777786]])
    _close(h.determinant(), -1.)
    _close(h.trace(), 1.)
    _close(h.eigvals(), [-1., 1., 1.])

    t = tf.linalg.LinearOperatorToeplitz(col=[1., 2., 3.], row=[1., 4., 5.])
    _close(t.to_dense(), [[1., 4., 5.], [2., 1., 4.], [3., 2., 1.]])
    _close(t.matmul(x), [[38., 48.], [25., 32.], [14., 20.]])
    _close(t.solve(x), [[1.7368422, 2.], [-0.05263153, 0.], [-0.10526321, 0.]])
    _close(t.determinant(), 38.)
    _close(t.trace(), 3.)
    tb = tf.linalg.LinearOperatorToeplitz(col=[[1., 2.], [3., 1.]], row=[1., 5.])
    assert tb.shape == (2, 2, 2)
    _close(tb.to_dense(), [[[1., 5.], [2., 1.]], [[3., 5.], [1., 3.]]])


def test_zeros_and_tridiag():
    x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    z = tf.linalg.LinearOperatorZeros(3)
    zr = tf.linalg.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False)
    zb = tf.linalg.LinearOperatorZeros(2, batch_shape=[2])
    # TF 2.21
    _close(z.matmul(x), np.zeros([3, 2]))
    assert zr.shape == (2, 3) and zr.matmul(x).shape == (2, 2)
    assert zr.matmul(tf.ones([2, 4]), adjoint=True).shape == (3, 4) and zb.matmul(tf.ones([2, 1])).shape == (2, 2, 1)
    assert (z.is_non_singular, z.is_self_adjoint) == (False, True)
    _close(z.determinant(), 0.)
    assert float(z.log_abs_determinant()) == -np.inf
    assert type(z @ z).__name__ == "LinearOperatorZeros"
    assert type(tf.linalg.LinearOperatorFullMatrix(tf.eye(3)) @ z).__name__ == "LinearOperatorZeros"
    _close(z.add_to_tensor(tf.ones([3, 3])), np.ones([3, 3]))
    for make, cls, message in [
            (lambda: tf.linalg.LinearOperatorZeros(2, 3), ValueError,
             "LinearOperatorZeros initialized as is_square=True, but got num_rows(2) != num_columns(3)"),
            (lambda: tf.linalg.LinearOperatorZeros(2, is_non_singular=True), ValueError,
             "A zero operator is always singular."),
            (lambda: z.solve(x), NotImplementedError,
             "Exact solve not implemented for an operator that is expected to be singular."),
            (lambda: z.inverse(), ValueError, "Cannot take the Inverse: This operator represents a singular matrix."),
            (lambda: zr @ tf.linalg.LinearOperatorZeros(3), ValueError,
             "Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` not supported at this "
             "time."),
            (lambda: tf.linalg.LinearOperatorTridiag([[1.]], diagonals_format="foo"), ValueError,
             "Argument `diagonals_format` must be one of compact, matrix, or sequence. Received : foo.")]:
        with pytest.raises(cls) as info:
            make()
        assert str(info.value) == message

    d = tf.constant([[2., 1., 4., 0.], [1., 3., 2., 2.], [0., 1., -1., 1.]])
    v = tf.constant([[1.], [2.], [3.], [4.]])
    dense = [[1., 2., 0., 0.], [1., 3., 1., 0.], [0., -1., 2., 4.], [0., 0., 1., 2.]]
    for op in (tf.linalg.LinearOperatorTridiag(d),
               tf.linalg.LinearOperatorTridiag([d[0], d[1], d[2]], diagonals_format="sequence"),
               tf.linalg.LinearOperatorTridiag(tf.constant(dense), diagonals_format="matrix")):
        assert op.shape == (4, 4)
        _close(op.to_dense(), dense)
        _close(op.matmul(v), [[5.], [10.], [20.], [11.]])
        _close(op.matmul(v, adjoint=True), [[3.], [5.], [12.], [20.]])
        _close(op.solve(v), [[-9.], [5.], [-4.], [4.]])
        _close(op.solve(v, adjoint=True), [[0.], [1.], [1.], [0.]])
        _close(op.solvevec([1., 2., 3., 4.]), [-9., 5., -4., 4.])
        _close(op.diag_part(), [1., 3., 2., 2.])
        _close(op.determinant(), 2.)


def test_block_diag_and_kronecker():
    a = tf.linalg.LinearOperatorFullMatrix([[2., 1.], [1., 3.]], is_self_adjoint=True, is_positive_definite=True)
    d = tf.linalg.LinearOperatorDiag([4., 5., 6.], is_positive_definite=True)
    bd = tf.linalg.LinearOperatorBlockDiag([a, d])
    x = tf.reshape(tf.range(10.), [5, 2])
    # TF 2.21
    assert bd.name == "LinearOperatorFullMatrix_ds_LinearOperatorDiag" and bd.shape == (5, 5)
    assert (bd.is_self_adjoint, bd.is_positive_definite, bd.is_non_singular) == (True, True, True)
    _close(bd.matmul(x), [[2., 5.], [6., 10.], [16., 20.], [30., 35.], [48., 54.]])
    _close(bd.solve(x), [[-0.4, 0.], [0.8, 1.], [1., 1.25], [1.2, 1.4], [1.3333334, 1.5]])
    _close(bd.determinant(), 600.)
    _close(bd.log_abs_determinant(), 6.3969297)
    _close(bd.trace(), 20.)
    _close(bd.eigvals(), [1.381966, 3.6180334, 4., 5., 6.])
    blocks = bd.matmul([x[:2], x[2:]])
    _close(blocks[0], [[2., 5.], [6., 10.]])
    _close(blocks[1], [[16., 20.], [30., 35.], [48., 54.]])
    vecs = bd.matvec([tf.constant([1., 2.]), tf.constant([1., 1., 1.])])
    _close(vecs[0], [4., 7.])
    _close(vecs[1], [4., 5., 6.])
    assert type(bd.inverse()).__name__ == "LinearOperatorBlockDiag"
    _close(bd.inverse().to_dense()[:2, :2], [[0.6, -0.2], [-0.2, 0.4]])
    _close(bd.cholesky().to_dense()[1], [0.70711, 1.58114, 0., 0., 0.], atol=1e-5)
    _close((bd @ bd).to_dense()[:3, :3], [[5., 5., 0.], [5., 10., 0.], [0., 0., 16.]])
    _close(bd.solvevec(tf.ones([5])), [0.4, 0.2, 0.25, 0.2, 0.16666667])
    _close(bd.matmul(tf.ones([2, 5]), adjoint_arg=True), [[3., 3.], [4., 4.], [4., 4.], [5., 5.], [6., 6.]])
    bdr = tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(tf.ones([2, 3])), d], is_square=False)
    assert bdr.shape == (5, 6)
    _close(bdr.matmul(tf.ones([6, 1])), [[3.], [3.], [4.], [5.], [6.]])
    for make, cls, message in [
            (lambda: tf.linalg.LinearOperatorBlockDiag([a, d], is_non_singular=False), ValueError,
             "The direct sum of non-singular operators is always non-singular."),
            (lambda: bdr.trace(), NotImplementedError,
             "`trace` not implemented for an operator whose blocks are not square."),
            (lambda: bd @ tf.linalg.LinearOperatorBlockDiag([d, a]), ValueError,
             "Blocks are incompatible. Expected `x` to have dimension 2 but got 3."),
            (lambda: tf.linalg.LinearOperatorKronecker([]), ValueError,
             "Argument `operators` must be a list of >=1 operators. Received: []."),
            (lambda: tf.linalg.LinearOperatorKronecker([a, a], is_self_adjoint=False), ValueError,
             "The Kronecker product of self-adjoint operators is always self-adjoint. Expected argument "
             "`is_self_adjoint` to be True. Received: False.")]:
        with pytest.raises(cls) as info:
            make()
        assert str(info.value) == message

    b = tf.linalg.LinearOperatorFullMatrix([[1., 2.], [3., 4.]])
    k = tf.linalg.LinearOperatorKronecker([a, b])
    y = tf.reshape(tf.range(8.), [4, 2])
    assert k.name == "LinearOperatorFullMatrix_x_LinearOperatorFullMatrix" and k.shape == (4, 4)
    assert (k.is_self_adjoint, k.is_non_singular) == (None, None)
    _close(k.to_dense(), [[2., 4., 1., 2.], [6., 8., 3., 4.], [1., 2., 3., 6.], [3., 4., 9., 12.]])
    _close(k.matmul(y), [[24., 33.], [52., 73.], [52., 64.], [116., 144.]])
    _close(k.matmul(y, adjoint=True), [[34., 46.], [48., 66.], [72., 88.], [104., 128.]])
    _close(k.solve(y), [[1.6, 1.2], [-1.2, -0.8], [-1.2, -1.4], [1.4, 1.6]], atol=1e-4)
    _close(k.determinant(), 100.)
    _close(k.log_abs_determinant(), 4.6051702)
    _close(k.trace(), 25.)
    _close(k.diag_part(), [2., 8., 3., 12.])
    k3 = tf.linalg.LinearOperatorKronecker([a, a])
    assert (k3.is_self_adjoint, k3.is_positive_definite) == (True, True)
    _close(k3.eigvals(), [1.90983, 5., 5., 13.09017], atol=1e-4)
    assert type(k3.inverse()).__name__ == "LinearOperatorKronecker"
    _close(k3.cholesky().to_dense()[3], [0.5, 1.11803, 1.11803, 2.5], atol=1e-5)

    v = tf.Variable([4., 5., 6.])
    with tf.GradientTape() as tape:
        op = tf.linalg.LinearOperatorBlockDiag([a, tf.linalg.LinearOperatorDiag(v)])
        kk = tf.linalg.LinearOperatorKronecker([a, tf.linalg.LinearOperatorDiag(v)])
        loss = tf.reduce_sum(op.solve(x)) + kk.log_abs_determinant() + tf.reduce_sum(kk.matvec(tf.ones([6])))
    _close(tape.gradient(loss, v), [6.9375, 6.88, 6.861111])


def test_low_rank_update():
    base = tf.linalg.LinearOperatorDiag([1., 2., 3.], is_positive_definite=True)
    u = tf.constant([[1., 0.], [1., 1.], [0., 2.]])
    x = tf.reshape(tf.range(6.), [3, 2])
    lr = tf.linalg.LinearOperatorLowRankUpdate(base, u)
    # TF 2.21
    assert (lr.shape, lr.is_self_adjoint, lr.is_positive_definite) == ((3, 3), True, True)
    assert type(lr.diag_operator).__name__ == "LinearOperatorIdentity"
    _close(lr.to_dense(), [[2., 1., 0.], [1., 4., 2.], [0., 2., 7.]])
    _close(lr.matmul(x), [[2., 5.], [16., 23.], [32., 41.]])
    _close(lr.solve(x), [[-0.14634, 0.31707], [0.29268, 0.36585], [0.4878, 0.60976]], atol=1e-5)
    _close(lr.determinant(), 41.)
    _close(lr.log_abs_determinant(), 3.7135723)
    _close(lr.diag_part(), [2., 4., 7.])
    lr2 = tf.linalg.LinearOperatorLowRankUpdate(
        tf.linalg.LinearOperatorFullMatrix([[2., 1., 0.], [0., 3., 1.], [1., 0., 4.]]), u, diag_update=[2., -1.],
        v=tf.constant([[0., 1.], [1., 0.], [1., 1.]]))
    assert (lr2.is_self_adjoint, lr2.is_positive_definite) == (None, None)
    _close(lr2.to_dense(), [[2., 3., 2.], [-1., 5., 2.], [-1., 0., 2.]])
    _close(lr2.matmul(x, adjoint=True), [[-6., -6.], [10., 18.], [12., 18.]])
    _close(lr2.solve(x), [[-0.93333, -0.93333], [-0.4, -0.4], [1.53333, 2.03333]], atol=1e-5)
    _close(lr2.solve(x, adjoint=True), [[0.66667, 1.16667], [0., -0.1], [1.33333, 1.43333]], atol=1e-5)
    _close(lr2.determinant(), 30.)
    _close(lr2.log_abs_determinant(), 3.4011974)
    for make, message in [
            (lambda: tf.linalg.LinearOperatorLowRankUpdate(base, u, is_diag_update_positive=False),
             "Default diagonal is the identity, which is positive.  However, user set 'is_diag_update_positive' to "
             "False."),
            (lambda: tf.linalg.LinearOperatorLowRankUpdate(base, u, is_self_adjoint=False),
             "A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is self-adjoint, this must be a "
             "self-adjoint operator."),
            (lambda: tf.linalg.LinearOperatorLowRankUpdate(base, u, is_positive_definite=False),
             "Arguments imply this is self-adjoint positive-definite operator."),
            (lambda: tf.linalg.LinearOperatorLowRankUpdate(base, tf.ones([4, 2])), "Dimensions 3 and 4 are not compatible")]:
        with pytest.raises(ValueError) as info:
            make()
        assert str(info.value) == message
    uv = tf.Variable(u)
    with tf.GradientTape() as tape:
        op = tf.linalg.LinearOperatorLowRankUpdate(base, uv)
        loss = tf.reduce_sum(op.solve(x)) + op.log_abs_determinant()
    _close(tape.gradient(loss, uv), [[0.35336, -1.5229], [-0.07258, -0.12493], [-0.78763, -0.20821]], atol=1e-4)


def test_circulant_family():
    c = tf.linalg.LinearOperatorCirculant(tf.constant([6., 1., 1., 1.]), input_output_dtype=tf.float32)
    y = tf.reshape(tf.range(8.), [4, 2])
    # TF 2.21
    assert (c.shape, c.dtype, c.is_self_adjoint) == ((4, 4), tf.float32, True)
    _close(c.to_dense(), [[2.25, 1.25, 1.25, 1.25], [1.25, 2.25, 1.25, 1.25], [1.25, 1.25, 2.25, 1.25],
                          [1.25, 1.25, 1.25, 2.25]])
    _close(c.matmul(y), [[15., 21.], [17., 23.], [19., 25.], [21., 27.]])
    _close(c.solve(y), [[-2.5, -2.33333], [-0.5, -0.33333], [1.5, 1.66667], [3.5, 3.66667]], atol=1e-5)
    _close(c.determinant(), 6.)
    _close(c.log_abs_determinant(), 1.7917595)
    _close(c.trace(), 9.)
    _close(c.diag_part(), [2.25] * 4)
    _close(c.eigvals(), [6., 1., 1., 1.])
    _close(c.convolution_kernel(), [2.25, 1.25, 1.25, 1.25])
    assert type(c.inverse()).__name__ == "LinearOperatorCirculant" and c.inverse().dtype == tf.float32
    assert type(c @ c).__name__ == "LinearOperatorCirculant" and (c @ c).dtype == tf.complex64
    cc = tf.linalg.LinearOperatorCirculant(tf.complex(tf.constant([4., 1., 2., 1.]), tf.constant([0., 1., 0., -1.])))
    assert cc.dtype == tf.complex64 and cc.is_self_adjoint is None
    _close(cc.to_dense()[0], [2., 1., 1., 0.])
    _close(cc.matvec(tf.cast([1., 2., 3., 4.], tf.complex64)), [7., 11., 11., 11.])
    c2 = tf.linalg.LinearOperatorCirculant2D(tf.constant([[4., 1.], [2., 3.]]), input_output_dtype=tf.float32)
    assert c2.shape == (4, 4) and c2.name == "LinearOperatorCirculant2D" and c2.block_shape == (2, 2)
    _close(c2.to_dense(), [[2.5, 0.5, 0., 1.], [0.5, 2.5, 1., 0.], [0., 1., 2.5, 0.5], [1., 0., 0.5, 2.5]])
    _close(c2.solvevec([1., 2., 3., 4.]), [-0.375, 0.625, 0.625, 1.625])
    _close(c2.determinant(), 24.)
    c3 = tf.linalg.LinearOperatorCirculant3D(tf.ones([2, 2, 2]) * 2., input_output_dtype=tf.float32)
    assert c3.shape == (8, 8)
    _close(c3.matvec(tf.range(8.)), np.arange(8.) * 2)
    cb = tf.linalg.LinearOperatorCirculant(tf.constant([[6., 1., 1., 1.], [2., 1., 1., 1.]]),
                                           input_output_dtype=tf.float32)
    _close(cb.matmul(y)[1], [[3., 5.], [5., 7.], [7., 9.], [9., 11.]], atol=1e-5)
    with pytest.raises(ValueError, match=r"Argument `spectrum` must have at least 2 dimensions. Received: \[1. 2.\]."):
        tf.linalg.LinearOperatorCirculant2D([1., 2.])
    with pytest.raises(ValueError, match="A real spectrum always corresponds to a self-adjoint operator."):
        tf.linalg.LinearOperatorCirculant([1., 2.], is_self_adjoint=False)
    sp = tf.Variable([6., 1., 1., 1.])
    with tf.GradientTape() as tape:
        op = tf.linalg.LinearOperatorCirculant(sp, input_output_dtype=tf.float32)
        loss = tf.reduce_sum(op.solve(y)) + tf.reduce_sum(op.matmul(y)) + op.log_abs_determinant()
    _close(tape.gradient(loss, sp), [27.388889, 1., 1., 1.], atol=1e-4)


def test_block_lower_triangular():
    a = tf.linalg.LinearOperatorFullMatrix([[2., 1.], [0., 3.]], is_non_singular=True)
    b = tf.linalg.LinearOperatorFullMatrix([[1., 2.], [3., 4.], [5., 6.]])
    c = tf.linalg.LinearOperatorDiag([4., 5., 6.])
    op = tf.linalg.LinearOperatorBlockLowerTriangular([[a], [b, c]])
    x = tf.reshape(tf.range(10.), [5, 2])
    # TF 2.21
    assert (op.shape, op.is_non_singular, op.is_square, op.is_self_adjoint) == ((5, 5), None, True, None)
    _close(op.to_dense(), [[2., 1., 0., 0., 0.], [0., 3., 0., 0., 0.], [1., 2., 4., 0., 0.], [3., 4., 0., 5., 0.],
                           [5., 6., 0., 0., 6.]])
    _close(op.matmul(x), [[2., 5.], [6., 9.], [20., 27.], [38., 50.], [60., 77.]])
    _close(op.matmul(x, adjoint=True), [[62., 73.], [86., 102.], [16., 20.], [30., 35.], [48., 54.]])
    _close(op.solve(x), [[-0.33333, 0.], [0.66667, 1.], [0.75, 0.75], [0.86667, 0.6], [0.94444, 0.5]], atol=1e-5)
    _close(op.solve(x, adjoint=True)[:2], [[-5.63333, -5.975], [-2.38889, -2.70833]], atol=1e-4)
    _close(op.determinant(), 720.)
    _close(op.log_abs_determinant(), 6.5792513)
    _close(op.trace(), 20.)
    _close(op.diag_part(), [2., 3., 4., 5., 6.])
    blocks = op.matmul([x[:2], x[2:]])
    _close(blocks[1], [[20., 27.], [38., 50.], [60., 77.]])
    _close(op.matvec(tf.ones([5])), [3., 3., 7., 12., 17.])
    _close(op.solvevec(tf.ones([5])), [0.33333, 0.33333, 0., -0.26667, -0.44444], atol=1e-5)
    inv = op.inverse()
    assert type(inv).__name__ == "LinearOperatorBlockLowerTriangular"
    assert [[type(o).__name__ for o in r] for r in inv.operators] == [["LinearOperatorInversion"],
                                                                       ["LinearOperatorComposition",
                                                                        "LinearOperatorDiag"]]
    _close(inv.to_dense()[2:, :2], [[-0.125, -0.125], [-0.3, -0.16667], [-0.41667, -0.19444]], atol=1e-5)
    op3 = tf.linalg.LinearOperatorBlockLowerTriangular(
        [[a], [b, c], [tf.linalg.LinearOperatorFullMatrix([[1., 1.], [0., 1.]]),
                       tf.linalg.LinearOperatorFullMatrix([[1., 0., 0.], [1., 1., 0.]]),
                       tf.linalg.LinearOperatorDiag([2., 2.])]])
    _close(op3.inverse().to_dense()[5:], [[-0.1875, -0.0208, -0.125, 0., 0., 0.5, 0.],
                                          [0.2125, -0.0208, -0.125, -0.1, 0., 0., 0.5]], atol=1e-4)
    for make, message in [
            (lambda: tf.linalg.LinearOperatorBlockLowerTriangular([[a], [b]]),
             "Argument `operators[1]` must contain `2` blocks. Received: 1 blocks."),
            (lambda: tf.linalg.LinearOperatorBlockLowerTriangular(
                [[a], [tf.linalg.LinearOperatorFullMatrix(tf.ones([3, 3])), c]]),
             "Argument `operators[1][0].domain_dimension` (3) must be the same as `operators[0][0].domain_dimension` "
             "(2)."),
            (lambda: tf.linalg.LinearOperatorBlockLowerTriangular([[a], [b, c]], is_square=False),
             "`LinearOperatorBlockLowerTriangular` must be square. Expected argument `is_square` to be True. "
             "Received: False."),
            (lambda: tf.linalg.LinearOperatorBlockLowerTriangular([[b]]),
             "Matrices on the diagonal (the final elements of each row-partition in the `operators` list) must be "
             "square. Expected argument `operators[0][-1].is_square` to be True. Received: False.")]:
        with pytest.raises(ValueError) as info:
            make()
        assert str(info.value) == message
    v = tf.Variable([4., 5., 6.])
    with tf.GradientTape() as tape:
        o = tf.linalg.LinearOperatorBlockLowerTriangular([[a], [b, tf.linalg.LinearOperatorDiag(v)]])
        loss = tf.reduce_sum(o.solve(x)) + o.log_abs_determinant()
    _close(tape.gradient(loss, v), [-0.125, -0.09333, -0.07407], atol=1e-5)


def test_runtime_asserts():
    a = tf.linalg.LinearOperatorFullMatrix([[2., 1.], [1., 3.]], is_self_adjoint=True, is_positive_definite=True)
    d = tf.linalg.LinearOperatorDiag([1., 0., -2.])
    # TF 2.21: None when the property holds, else InvalidArgumentError with these messages
    assert a.assert_non_singular() is None and a.assert_positive_definite() is None
    assert a.assert_self_adjoint() is None
    assert tf.linalg.LinearOperatorIdentity(2).assert_non_singular() is None
    assert tf.linalg.LinearOperatorPermutation([1, 0]).assert_non_singular() is None
    assert tf.linalg.LinearOperatorInversion(a).assert_positive_definite() is None
    assert tf.linalg.LinearOperatorScaledIdentity(2, [0., -1.]).assert_self_adjoint() is None
    tridiag = tf.constant([[1., 2., 0.], [1., 1., 1.], [0., 1., 2.]])
    assert tf.linalg.LinearOperatorTridiag(tridiag).assert_self_adjoint() is None
    cases = [
        (tf.linalg.LinearOperatorFullMatrix([[1., 2.], [2., 4.]]).assert_non_singular,
         "Singular matrix up to precision epsilon."),
        (tf.linalg.LinearOperatorFullMatrix([[1., 2.], [3., 4.]]).assert_self_adjoint,
         "Matrix was not equal to its adjoint."),
        (d.assert_non_singular, "Singular operator:  Diagonal contained zero values."),
        (d.assert_positive_definite, "Real diagonal operator had non-positive diagonal entries, thus was not positive "
                                     "definite."),
        (tf.linalg.LinearOperatorDiag(tf.complex([1., 2.], [0., 1.])).assert_self_adjoint,
         "This diagonal operator contained non-zero imaginary values.   Thus it was not self-adjoint."),
        (tf.linalg.LinearOperatorScaledIdentity(2, [0., -1.]).assert_non_singular, "LinearOperator was singular"),
        (tf.linalg.LinearOperatorLowerTriangular([[1., 0.], [2., 0.]]).assert_non_singular,
         "Singular operator:  Diagonal contained zero values."),
        (tf.linalg.LinearOperatorAdjoint(d).assert_non_singular, "Singular operator:  Diagonal contained zero values."),
        (tf.linalg.LinearOperatorComposition([a, tf.linalg.LinearOperatorDiag([1., 0.])]).assert_non_singular,
         "Singular operator:  Diagonal contained zero values."),
        (tf.linalg.LinearOperatorHouseholder([1., 2.]).assert_positive_definite,
         "Householder operators are always non-positive definite."),
        (tf.linalg.LinearOperatorZeros(2).assert_non_singular, "Zero operators are always non-invertible."),
        (tf.linalg.LinearOperatorToeplitz([1., 2.], [1., 3.]).assert_self_adjoint,
         "row and col are not the same, and so this operator is not self-adjoint."),
        (tf.linalg.LinearOperatorCirculant(tf.constant([1., 0., 1.]), input_output_dtype=tf.float32).assert_non_singular,
         "Singular operator:  Spectrum contained zero values."),
        (tf.linalg.LinearOperatorCirculant(tf.constant([1., -1., 1.]),
                                           input_output_dtype=tf.float32).assert_positive_definite,
         "Not positive definite:  Real part of spectrum was not all positive."),
        (tf.linalg.LinearOperatorBlockDiag([a, d]).assert_non_singular,
         "Singular operator:  Diagonal contained zero values."),
        (tf.linalg.LinearOperatorTridiag(tridiag + [[0.], [0.], [0.]] + [[0., 0., 0.], [0., 0., 0.], [0., 0., 1.]]
                                         ).assert_self_adjoint,
         "This tridiagonal operator has non-conjugate subdiagonal and superdiagonal."),
    ]
    for check, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            check()
        assert str(info.value).startswith(message), (message, str(info.value))


def test_batch_slicing():
    m = tf.reshape(tf.range(2 * 3 * 2 * 2, dtype=tf.float32), [2, 3, 2, 2])
    op = tf.linalg.LinearOperatorFullMatrix(m)
    # TF 2.21
    assert op[1].shape == (3, 2, 2) and op[:, 1:].shape == (2, 2, 2, 2) and op[..., 0].shape == (2, 2, 2)
    assert op[0, tf.newaxis].shape == (1, 3, 2, 2)
    _close(op[1].to_dense()[0], [[12., 13.], [14., 15.]])
    d = tf.linalg.LinearOperatorDiag(tf.reshape(tf.range(1., 7.), [3, 2]))
    _close(d[1:].diag, [[3., 4.], [5., 6.]])
    _close(d[-1].diag, [5., 6.])
    s = tf.linalg.LinearOperatorScaledIdentity(2, [1., 2., 3.])
    _close(s[::2].multiplier, [1., 3.])
    eye = tf.linalg.LinearOperatorIdentity(2, batch_shape=[4, 3])
    assert eye[1:3].shape == (2, 3, 2, 2) and eye[0, 1].shape == (2, 2)
    comp = tf.linalg.LinearOperatorComposition([op, tf.linalg.LinearOperatorDiag([1., 2.])])
    _close(comp[1].to_dense()[2], [[20., 42.], [22., 46.]])
    bd = tf.linalg.LinearOperatorBlockDiag([op, tf.linalg.LinearOperatorDiag(tf.ones([3, 1]))])
    assert bd[0, 1:].shape == (2, 3, 3)
    _close(bd[0, 1:].to_dense()[1], [[8., 9., 0.], [10., 11., 0.], [0., 0., 1.]])
    lr = tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag(tf.ones([3, 2])), tf.ones([3, 2, 1]))
    _close(lr[1].to_dense(), [[2., 1.], [1., 2.]])
    adj = op.adjoint()[1]
    assert type(adj).__name__ == "LinearOperatorAdjoint"
    _close(adj.to_dense()[0], [[12., 14.], [13., 15.]])


def test_user_subclass_abstract_base_and_graph_parents():
    # TF 2.21: the base is abstract; a subclass defining _shape and _matmul gets every other method
    with pytest.raises(TypeError, match="Can't instantiate abstract class LinearOperator with abstract methods "
                                        "_matmul, _shape"):
        tf.linalg.LinearOperator(tf.float32)

    class Scale(tf.linalg.LinearOperator):
        def __init__(self, d):
            self._d = tf.convert_to_tensor(d)
            super().__init__(dtype=self._d.dtype, is_self_adjoint=True, is_square=True, name="Scale",
                             parameters={"d": d})

        def _shape(self):
            return tf.TensorShape([self._d.shape[0], self._d.shape[0]])

        def _matmul(self, x, adjoint=False, adjoint_arg=False):
            if adjoint_arg:
                x = tf.linalg.adjoint(x)
            return self._d[:, None] * x

    m = Scale([1., 2., 3.])
    _close(m.to_dense(), np.diag([1., 2., 3.]))
    _close(m.determinant(), 6.)
    _close(m.trace(), 6.)
    _close(m.solve(tf.ones([3, 1])), [[1.], [0.5], [0.33333334]])
    _close(m.eigvals(), [1., 2., 3.])
    _close((m @ m).to_dense(), np.diag([1., 4., 9.]))
    _close(m.inverse().to_dense(), np.diag([1., 0.5, 0.33333334]))
    op = tf.linalg.LinearOperatorFullMatrix(tf.constant([[1.]]))
    assert op.graph_parents == []
    with pytest.raises(ValueError, match="Graph parent item 0 is not a Tensor; 1."):
        tf.linalg.LinearOperator.__init__(op, tf.float32, graph_parents=[1])
