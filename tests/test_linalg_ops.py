"""tf.linalg: values and errors against TF 2.21 golden outputs."""
import numpy as np
import pytest

import tfcompat as tf

A = [[4., 2.], [1., 3.]]
M32 = [[1., 2.], [3., 4.], [5., 6.]]


def close(x, y, tol=1e-5):
    np.testing.assert_allclose(np.asarray(x), y, rtol=tol, atol=tol)


def test_inverse_det_solve():
    close(tf.linalg.inv(A), np.linalg.inv(A))
    close(tf.linalg.det(A), 10.0)
    sign, logabs = tf.linalg.slogdet(A)
    assert float(sign) == 1.0
    close(logabs, 2.3025851249694824)
    close(tf.linalg.logdet([[4., 1.], [1., 3.]]), 2.397895336151123)
    close(tf.linalg.solve(A, [[1.], [2.]]), [[-0.09999999], [0.7]])
    close(tf.linalg.solve(A, [[1.], [2.]], adjoint=True), np.linalg.solve(np.array(A).T, [[1.], [2.]]))
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.linalg.inv([[1., 2.], [2., 4.]])
    assert str(e.value) == ("{{function_node __wrapped__MatrixInverse_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
                            " Input is not invertible. [Op:MatrixInverse]")  # TF 2.21 (a list: no name part)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input matrix is not invertible. \[Op:MatrixSolve\]"):
        tf.linalg.solve([[1., 2.], [2., 4.]], [[1.], [2.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input matrix and rhs are incompatible."):
        tf.linalg.solve([[1., 2.], [2., 4.]], [[1., 2.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"}} Input matrix must be square. \[Op:MatrixInverse\]$"):
        tf.linalg.inv([[1., 2., 3.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input tensor 0 must have rank >= 2, got 1"):
        tf.linalg.det([1., 2.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list"):
        tf.linalg.inv([[1, 2], [2, 4]])
    assert tf.linalg.inv(tf.constant(A, tf.float64)).dtype == tf.float64


def test_triangular_and_cholesky():
    close(tf.linalg.triangular_solve([[2., 0.], [1., 3.]], [[1.], [2.]]), [[0.5], [0.5]])
    close(tf.linalg.triangular_solve([[2., 1.], [0., 3.]], [[1.], [2.]], lower=False, adjoint=True), [[0.5], [0.5]])
    chol = tf.linalg.cholesky([[4., 1.], [1., 3.]])
    close(chol, [[2., 0.], [0.5, 1.6583124]])
    close(tf.linalg.cholesky_solve(chol, [[1.], [2.]]), [[0.09090908], [0.6363637]])
    assert np.isnan(tf.linalg.cholesky([[1., 2.], [2., 1.]]).numpy()).any()   # TF gives garbage, no error


def test_qr_svd_eig():
    q, r = tf.linalg.qr(M32)
    close(q, [[-0.16903079, 0.897085], [-0.5070925, 0.2760267], [-0.8451542, -0.34503305]])
    close(r, [[-5.91608, -7.437357], [0., 0.82807845]])
    q, r = tf.linalg.qr(M32, full_matrices=True)
    assert q.shape == (3, 3) and r.shape == (3, 2)
    close(q.numpy() @ r.numpy(), M32)
    s, u, v = tf.linalg.svd(M32)
    close(s, [9.525518, 0.51429987])
    assert u.shape == (3, 2) and v.shape == (2, 2)
    close(u.numpy() @ np.diag(s.numpy()) @ v.numpy().T, M32)
    close(np.abs(v.numpy()), np.abs([[0.61962956, 0.78489447], [0.78489447, -0.61962956]]))
    close(tf.linalg.svd(M32, compute_uv=False), [9.525518, 0.51429987])
    assert tf.linalg.svd(M32, full_matrices=True)[1].shape == (3, 3)
    e, v = tf.linalg.eigh([[2., 1.], [1., 2.]])
    close(e, [1., 3.])
    close(np.abs(v.numpy()), np.full((2, 2), 0.70710677))
    close(tf.linalg.eigvalsh([[2., 1.], [1., 2.]]), [1., 3.])
    w = tf.linalg.eigvals(tf.constant([[2., 1.], [1., 2.]]))
    assert w.dtype == tf.complex64
    close(np.sort(w.numpy().real), [1., 3.])


X = [[3., -4.], [1., 2.]]


@pytest.mark.parametrize("ord_, vec, rows, mat", [
    ("euclidean", 5.4772257804870605, [5., 2.236068], 5.4772257804870605),
    (1, 10.0, [7., 3.], 6.0),
    (2, 5.4772257804870605, [5., 2.236068], 5.116673469543457),
    (np.inf, 4.0, [4., 2.], 7.0),
])
def test_norm(ord_, vec, rows, mat):
    close(tf.norm(X, ord=ord_), vec)
    close(tf.norm(X, ord=ord_, axis=1), rows)
    close(tf.linalg.norm(X, ord=ord_, axis=[-2, -1]), mat)


def test_norm_options_and_errors():
    close(tf.norm(X, ord="fro", axis=[0, 1]), 5.4772257804870605)
    close(tf.norm(X, ord=3), 4.641589164733887)
    assert tf.norm(X, keepdims=True).shape == (1, 1)
    assert tf.norm(X, axis=1, keepdims=True).shape == (2, 1)
    assert tf.norm(X, ord=1, axis=[0, 1], keepdims=True).shape == (1, 1)
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm, got fro"):
        tf.norm(X, ord="fro")
    with pytest.raises(ValueError, match="'ord' must be a supported vector norm, got 0"):
        tf.norm(X, ord=0)
    with pytest.raises(ValueError, match=r"'ord' must be a supported matrix norm in \['euclidean', 'fro', 1, 2, inf\], got 3"):
        tf.norm(X, ord=3, axis=[0, 1])
    close(tf.linalg.global_norm([tf.constant([3., 4.]), tf.constant([12.])]), 13.0)
    n, norm = tf.linalg.normalize([3., 4.])
    close(n, [0.6, 0.8])
    close(norm, [5.])


def test_band_and_diagonals():
    m = tf.reshape(tf.range(16.), [4, 4])
    assert tf.linalg.band_part(m, 1, 0).numpy().tolist() == [[0, 0, 0, 0], [4, 5, 0, 0], [0, 9, 10, 0], [0, 0, 14, 15]]
    assert tf.linalg.band_part(tf.reshape(tf.range(16), [4, 4]), -1, 1).numpy().tolist() == \
        [[0, 1, 0, 0], [4, 5, 6, 0], [8, 9, 10, 11], [12, 13, 14, 15]]
    assert tf.linalg.diag([1, 2]).numpy().tolist() == [[1, 0], [0, 2]]
    assert tf.linalg.diag([1, 2], k=1).numpy().tolist() == [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="The number of rows or columns is not consistent"):
        tf.linalg.diag([1, 2], num_rows=3, num_cols=4, padding_value=9)
    assert tf.linalg.diag([1, 2], num_rows=3, padding_value=9).numpy().tolist() == [[1, 9], [9, 2], [9, 9]]
    x = [[1, 2, 3], [4, 5, 6]]
    assert tf.linalg.diag_part(x).numpy().tolist() == [1, 5]
    assert tf.linalg.diag_part(x, k=1).numpy().tolist() == [2, 6]
    assert tf.linalg.diag_part(x, k=(-1, 1)).numpy().tolist() == [[2, 6], [1, 5], [4, 0]]
    assert tf.linalg.set_diag(x, [7, 8]).numpy().tolist() == [[7, 2, 3], [4, 8, 6]]
    assert tf.linalg.set_diag(x, [7, 8], k=1).numpy().tolist() == [[1, 7, 3], [4, 5, 8]]
    assert int(tf.linalg.trace([[1, 2], [3, 4]])) == 5
    assert tf.linalg.tensor_diag([1, 2]).numpy().tolist() == [[1, 0], [0, 2]]
    assert tf.linalg.tensor_diag(tf.ones([2, 2])).shape == (2, 2, 2, 2)
    assert tf.linalg.tensor_diag_part([[1, 2], [3, 4]]).numpy().tolist() == [1, 4]
    assert tf.linalg.matrix_transpose([[[1, 2, 3]]]).shape == (1, 3, 1)
    adj = tf.linalg.adjoint([[1 + 2j, 3]])
    assert adj.dtype == tf.complex128 and adj.numpy().tolist() == [[1 - 2j], [3 + 0j]]


def test_misc_linalg():
    close(tf.linalg.cross([1., 2., 3.], [4., 5., 6.]), [-3., 6., -3.])
    close(tf.linalg.lstsq([[1., 2.], [3., 4.], [5., 7.]], [[1.], [2.], [3.]]), [[-0.07143538], [0.5000048]], 1e-4)
    close(tf.linalg.pinv([[1., 2.], [3., 4.], [5., 7.]]),
          [[-2.0714295, 0.78571308, 0.14285785], [1.5000006, -0.49999917, 0.]], 1e-4)
    close(tf.linalg.expm([[0., 1.], [-1., 0.]]), [[0.5403023, 0.84147096], [-0.8414711, 0.54030234]])
    lu, p = tf.linalg.lu([[4., 3.], [6., 3.]])
    close(lu, [[6., 3.], [0.6666667, 1.]])
    assert p.dtype == tf.int32 and p.numpy().tolist() == [1, 0]
    close(tf.linalg.lu_reconstruct(lu, p), [[4., 3.], [6., 3.]])
    close(tf.linalg.lu_solve(lu, p, [[1.], [2.]]), [[0.5], [-0.33333337]])
    close(tf.linalg.lu_matrix_inverse(lu, p), np.linalg.inv([[4., 3.], [6., 3.]]))
    assert tf.linalg.matvec([[1, 2], [3, 4]], [1, 1]).numpy().tolist() == [3, 7]
    assert int(tf.linalg.matrix_rank([[1., 2.], [2., 4.]])) == 1
    logm = tf.linalg.logm(tf.constant([[1., 0.], [0., 2.]], tf.complex64))
    close(logm.numpy(), [[0, 0], [0, 0.6931472]])
    close(tf.linalg.sqrtm([[4., 0.], [0., 9.]]), [[2., 0.], [0., 3.]])
    batch = tf.constant(np.stack([np.eye(2) * 2, np.eye(2) * 4]).astype(np.float32))
    close(tf.linalg.det(batch), [4., 16.])
