"""tf.linalg.tridiagonal_solve / tridiagonal_matmul / banded_triangular_solve / eigh_tridiagonal; golden values from
TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf

D = [[2., 1., 4., 0.], [1., 3., 2., 2.], [0., 1., -1., 1.]]
RHS = [[1., 2.], [3., 4.], [5., 6.], [7., 8.]]
SOLUTION = [[-17., -18.], [9., 10.], [-7., -8.], [7., 8.]]      # TF 2.21


def test_tridiagonal_solve_formats():
    d, rhs = tf.constant(D), tf.constant(RHS)
    # TF 2.21
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, rhs).numpy(), SOLUTION, rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, rhs, partial_pivoting=False).numpy(), SOLUTION,
                               rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, tf.constant([1., 2., 3., 4.])).numpy(),
                               [-9., 5., -4., 4.], rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, tf.transpose(rhs), transpose_rhs=True).numpy(),
                               SOLUTION, rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve((d[0, :3], d[1], d[2, 1:]), rhs,
                                                           diagonals_format="sequence").numpy(), SOLUTION, rtol=1e-5)
    m = tf.constant([[1., 2., 0.], [3., 4., 5.], [0., 6., 7.]])
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(m, tf.constant([[1.], [2.], [3.]]),
                                                           diagonals_format="matrix").numpy(), [[0.], [0.5], [0.]],
                               atol=1e-6)
    pivot = tf.constant([[1., 1., 0.], [1., 1., 1.], [0., 1., 1.]])       # needs a row interchange
    b = tf.constant([[1.], [2.], [3.]])
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(pivot, b).numpy(), [[-1.], [2.], [1.]], rtol=1e-6)
    assert np.isnan(tf.linalg.tridiagonal_solve(pivot, b, partial_pivoting=False).numpy()).all()
    zero = tf.zeros([3, 3], tf.float64)
    assert np.isnan(tf.linalg.tridiagonal_solve(zero, tf.cast(b, tf.float64)).numpy()).all()
    batch = tf.linalg.tridiagonal_solve(tf.stack([d, d * 2]), tf.stack([rhs, rhs]))
    np.testing.assert_allclose(batch.numpy()[1], np.asarray(SOLUTION) / 2, rtol=1e-5)
    assert tf.linalg.tridiagonal_solve(tf.zeros([3, 0]), tf.zeros([0, 2])).shape == (0, 2)


def test_tridiagonal_errors_and_gradients():
    d, rhs = tf.constant(D), tf.constant(RHS)
    cases = [
        (lambda: tf.linalg.tridiagonal_solve(d, rhs, perturb_singular=True, partial_pivoting=False), ValueError,
         "partial_pivoting must be True if perturb_singular is."),
        (lambda: tf.linalg.tridiagonal_solve(d, rhs, diagonals_format="foo"), ValueError,
         "Unrecognized diagonals_format: foo"),
        (lambda: tf.linalg.tridiagonal_solve(d[:2], rhs), ValueError, "Expected 3 diagonals got 2"),
        (lambda: tf.linalg.tridiagonal_solve(d, rhs[:3]), ValueError,
         "Expected number of left-hand sided and right-hand sides to be equal, got 4 and 3"),
        (lambda: tf.linalg.tridiagonal_solve([d[0]], rhs, diagonals_format="sequence"), ValueError,
         "Expected diagonals to be a sequence of length 3."),
        (lambda: tf.linalg.tridiagonal_solve(d, tf.ones([2, 4, 1])), ValueError,
         "Expected the rank of rhs to be 1 or 2, got 3"),
    ]
    for make, cls, message in cases:   # TF 2.21 messages
        with pytest.raises(cls) as info:
            make()
        assert str(info.value) == message
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of "
                                                             "allowed values: double, float, complex64, complex128"):
        tf.linalg.tridiagonal_solve(tf.cast(d, tf.int32), tf.cast(rhs, tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute TridiagonalSolve as input #1\(zero-based"
                                                             r"\) was expected to be a float tensor but is a double"):
        tf.linalg.tridiagonal_solve(d, tf.cast(rhs, tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid superdiagonal shape."):
        tf.linalg.tridiagonal_matmul(d, rhs[:3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="All input tensors must have the same rank."):
        tf.linalg.tridiagonal_matmul(d, tf.constant([1., 2., 3., 4.]))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([d, rhs])
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(d, rhs) ** 2)
        w = tf.reduce_sum(tf.linalg.tridiagonal_matmul(d, rhs) ** 2)
    # TF 2.21 (the ignored corner entries get zero gradient)
    gd, gr = tape.gradient(y, [d, rhs])
    np.testing.assert_allclose(gd.numpy(), [[237., -339., 1677., 0.], [-437., 429., -1677., -3467.],
                                            [0., -789., 2123., 3467.]], rtol=1e-4)
    np.testing.assert_allclose(gr.numpy(), [[-13., -12.], [-21., -24.], [-107., -116.], [221., 240.]], rtol=1e-4)
    gd, gr = tape.gradient(w, [d, rhs])
    np.testing.assert_allclose(gd.numpy(), [[122., 390., 1130., 0.], [54., 250., 830., 618.], [0., 110., 530., 454.]])
    np.testing.assert_allclose(gr.numpy(), [[44., 60.], [48., 80.], [208., 244.], [356., 408.]])

    @tf.function
    def f(rhs):
        return tf.linalg.tridiagonal_solve(d, rhs)
    np.testing.assert_allclose(f(rhs).numpy(), SOLUTION, rtol=1e-5)
    np.testing.assert_allclose(f(rhs * 2).numpy(), np.asarray(SOLUTION) * 2, rtol=1e-5)


def test_tridiagonal_matmul():
    d, rhs = tf.constant(D), tf.constant(RHS)
    # TF 2.21
    expected = [[7., 10.], [15., 20.], [35., 40.], [19., 22.]]
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul(d, rhs).numpy(), expected)
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul((d[0], d[1], d[2]), rhs,
                                                            diagonals_format="sequence").numpy(), expected)
    m = tf.constant([[1., 2., 0.], [3., 4., 5.], [0., 6., 7.]])
    np.testing.assert_allclose(tf.linalg.tridiagonal_matmul(m, tf.constant([[1.], [2.], [3.]]),
                                                            diagonals_format="matrix").numpy(), [[5.], [26.], [33.]])


def test_banded_triangular_solve():
    bands = tf.constant([[1., 2., 3., 4.], [5., 6., 7., 8.]])
    rhs = tf.constant([[1.], [2.], [3.], [4.]])
    solve = tf.linalg.banded_triangular_solve
    # TF 2.21
    np.testing.assert_allclose(solve(bands, rhs).numpy().ravel(), [1., -2., 5.6666665, -10.333333], rtol=1e-5)
    np.testing.assert_allclose(solve(bands, rhs, lower=False).numpy().ravel(),
                               [0.14761905, 0.26190475, 0.21428572, 0.5], rtol=1e-5)
    np.testing.assert_allclose(solve(bands, rhs, adjoint=True).numpy().ravel(), [-40., 6.833333, -1.6666666, 1.],
                               rtol=1e-5)
    np.testing.assert_allclose(solve(bands, rhs, lower=False, adjoint=True).numpy().ravel(),
                               [0.2, 0.3, 0.34285715, 0.37142855], rtol=1e-5)
    b3 = tf.constant([[1., 2., 3., 4.], [5., 6., 7., 8.], [1., 1., 1., 1.]], tf.float64)
    np.testing.assert_allclose(solve(b3, tf.cast(rhs, tf.float64)).numpy().ravel(),
                               [1., -2., 5.333333333333333, -9.166666666666666], rtol=1e-12)
    np.testing.assert_allclose(solve(b3, tf.cast(rhs, tf.float64), lower=False).numpy().ravel(),
                               [-694., 144., -25., 4.], rtol=1e-12)
    assert solve(tf.stack([bands, bands * 2]), rhs).shape == (2, 4, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] mismatch In\[1\] shape: 4 vs. 3: \[2,4\] "
                                                             r"\[3,1\] 1 0"):
        solve(bands, rhs[:3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] ndims must be >= 2: 1"):
        solve(bands[0], rhs)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible."):
        solve(tf.constant([[0., 1., 1., 1.]]), rhs)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of "
                                                             "allowed values: double, float, half, complex64"):
        solve(tf.cast(bands, tf.int32), tf.cast(rhs, tf.int32))
    with tf.GradientTape() as tape:
        tape.watch(bands)
        y = tf.reduce_sum(solve(bands, rhs) ** 2)
    np.testing.assert_allclose(tape.gradient(y, bands).numpy(),
                               [[-382.66666, -126.888885, -99.481476, -53.388885], [0., 63.444443, 35.11111, 29.277777]],
                               rtol=1e-4)


def test_eigh_tridiagonal():
    a = tf.constant([1., 2., 3., 4.], tf.float64)
    b = tf.constant([0.5, 1., 1.5], tf.float64)
    eig = tf.linalg.eigh_tridiagonal
    # TF 2.21
    np.testing.assert_allclose(eig(a, b).numpy(), [0.6612738448096964, 1.3728805505791728, 2.768310148460564,
                                                   5.1975354561505664], rtol=1e-12)
    w32 = eig(tf.cast(a, tf.float32), tf.cast(b, tf.float32))
    assert w32.dtype == tf.float32
    np.testing.assert_allclose(w32.numpy(), [0.66127384, 1.3728807, 2.7683100, 5.1975355], rtol=2e-7)
    np.testing.assert_allclose(eig(a, b, select="i", select_range=[1, 2]).numpy(),
                               [1.3728805505791728, 2.768310148460564], rtol=1e-12)
    np.testing.assert_allclose(eig(a, b, select="v", select_range=[1.5, 3.9]).numpy(), [2.768310148460564],
                               rtol=1e-12)
    wc = eig(tf.constant([1., 2.], tf.complex128), tf.constant([1 + 1j], tf.complex128))
    assert wc.dtype == tf.float64
    np.testing.assert_allclose(wc.numpy(), [0., 3.], atol=1e-12)
    np.testing.assert_allclose(eig(a[:1], b[:0]).numpy(), [1.])
    with pytest.raises(ValueError, match="'select must have a value in {'a', 'i', 'v'}."):
        eig(a, b, select="x")
    with pytest.raises(ValueError, match="'alpha' and 'beta' must have the same type."):
        eig(a, tf.cast(b, tf.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[4\] vs. \[3\]"):
        eig(a, b[:2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Got empty index range in select_range."):
        eig(a, b, select="i", select_range=[2, 1])
    with pytest.raises(NotImplementedError, match="eigvals_only"):
        eig(a, b, eigvals_only=False)
