"""tf.einsum / tf.matmul as tutorial code calls them, and the errors of typical mistakes (recorded from TF 2.21)."""
import pytest

import tfcompat as tf

_DEV = "/job:localhost/replica:0/task:0/device:CPU:0"


def _kernel(n, message):
    return f"{{{{function_node __wrapped__Einsum_N_{n}_device_{_DEV}}}}} {message} [Op:Einsum] name: "


def test_einsum_values():
    a = tf.constant([[2., 1.], [1., 3.]])
    b = tf.constant([[1., 2., 3.], [4., 5., 6.]])
    # TF 2.21
    assert tf.einsum("ij,jk->ik", a, b).numpy().tolist() == [[6., 9., 12.], [13., 17., 21.]]
    assert float(tf.einsum("ii", a)) == 5.0
    assert tf.einsum("ij", b).shape == (2, 3)
    assert tf.einsum("ba,ab", tf.ones([2, 3]), tf.ones([3, 2])).numpy().tolist() == 6.0
    # implicit output: labels appearing once in ASCII order (upper case first)
    assert tf.einsum("Ab,bc", tf.ones([2, 3]), tf.ones([3, 2])).shape == (2, 2)
    # an ellipsis in one input only is kept, in front
    assert tf.einsum("...ij,jk", tf.zeros([2, 2, 3]), tf.zeros([3, 2])).shape == (2, 2, 2)
    # no broadcasting dims: fine without an output ellipsis
    assert tf.einsum("...ij,...jk", tf.zeros([2, 3]), tf.zeros([3, 2])).shape == (2, 2)
    assert tf.einsum("...i,...i->...", tf.zeros([2, 1, 3]), tf.zeros([4, 3])).shape == (2, 4)
    assert tf.einsum("ij,jk->...ik", tf.zeros([2, 3]), tf.zeros([3, 2])).shape == (2, 2)
    assert tf.einsum("bhqd,bhkd->bhqk", tf.zeros([2, 4, 5, 8]), tf.zeros([2, 4, 6, 8])).shape == (2, 4, 5, 6)
    assert tf.einsum("ij,jk,kl->il", tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([4, 5])).numpy()[0, 0] == 12.0


@pytest.mark.parametrize("eq, shapes, n, message", [
    ("ij,jk->ik", ([2, 3], [4, 5]), 2,
     "Expected dimension 3 at axis 0 of the input shaped [4,5] but got dimension 4"),
    ("ij,jk->ik", ([2, 3], [3]), 2, "Expected input 1 to have rank 2 but got: 1"),
    ("ij,jk->ik", ([2, 3, 1], [3, 3]), 2, "Expected input 0 to have rank 2 but got: 3"),
    ("...ij,jk->...ik", ([3], [3, 3]), 2, "Expected input 0 to have rank at least 2 but got: 1"),
    ("...ij,...jk", ([2, 2, 3], [3, 2]), 2,
     "Output contains 1 broadcasting dimension(s) but no ellipsis (...) was found in the output subscripts."),
    ("...i,...i->...", ([2, 3], [4, 3]), 2, "Invalid broadcasting dimensions: [2,3,1] vs. [4,3,1]"),
    ("ij", ([2, 3, 4],), 1, "Expected input 0 to have rank 2 but got: 3"),
    # TF does not broadcast a named label of size 1
    ("ij,jk->ik", ([2, 1], [3, 4]), 2,
     "Expected dimension 1 at axis 0 of the input shaped [3,4] but got dimension 3"),
])
def test_einsum_kernel_errors(eq, shapes, n, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.einsum(eq, *[tf.zeros(s) for s in shapes])
    assert str(e.value) == _kernel(n, message)  # TF 2.21


@pytest.mark.parametrize("eq, n, message", [
    ("ij,jk", 1, 'Got 1 inputs for equation "ij,jk", expecting 2'),
    ("ij,jk->il", 2, "Output subscripts contain the label l not present in the input subscripts."),
    ("ij,jk->iik", 2, "Output subscripts contain a label appearing more than once: ij,jk->iik"),
    ("ij;jk->ik", 2, "Subscripts have incorrect format: ij;jk->ik"),
])
def test_einsum_equation_errors(eq, n, message):
    with pytest.raises(ValueError) as e:
        tf.einsum(eq, *[tf.zeros([2, 2])] * n)
    assert str(e.value) == message  # TF 2.21


@pytest.mark.parametrize("sa, sb, kw, op, message", [
    ([2, 3], [2, 3], {}, "MatMul", "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]"),
    # the kernel reports the shapes before its transpose
    ([2, 3], [4, 3], {"transpose_a": True}, "MatMul", "Matrix size-incompatible: In[0]: [2,3], In[1]: [4,3]"),
    ([3], [3], {}, "MatMul", "In[0] and In[1] ndims must be == 2: 1"),
    ([3], [3], {"transpose_a": True}, "MatMul", "In[0] and In[1] ndims must be == 2: 1"),
    ([2, 3], [3], {}, "MatMul", "In[0] and In[1] has different ndims: [2,3] vs. [3]"),
    ([3], [3, 2], {}, "MatMul", "In[0] and In[1] has different ndims: [3] vs. [3,2]"),
    ([2, 2, 3], [3], {}, "BatchMatMulV2", "In[1] ndims must be >= 2: 1"),
    ([2, 2, 3], [3, 3, 2], {}, "BatchMatMulV2",
     "In[0] and In[1] must have compatible batch dimensions: [2,2,3] vs. [3,3,2]"),
    ([5, 2, 3], [4, 3, 2], {}, "BatchMatMulV2",
     "In[0] and In[1] must have compatible batch dimensions: [5,2,3] vs. [4,3,2]"),
    ([2, 2, 3], [2, 4, 2], {}, "BatchMatMulV2", "Matrix size-incompatible: In[0]: [2,2,3], In[1]: [2,4,2]"),
    ([2, 2, 3], [4, 2], {"adjoint_b": True}, "BatchMatMulV2",
     "Matrix size-incompatible: In[0]: [2,2,3], In[1]: [4,2]"),
])
def test_matmul_errors(sa, sb, kw, op, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.matmul(tf.zeros(sa), tf.zeros(sb), **kw)
    # TF 2.21
    assert str(e.value) == f"{{{{function_node __wrapped__{op}_device_{_DEV}}}}} {message} [Op:{op}] name: "


def test_matmul_operator_and_broadcast():
    with pytest.raises(tf.errors.InvalidArgumentError, match="compatible batch dimensions"):
        tf.zeros([2, 2, 3]) @ tf.zeros([3, 3, 2])
    # TF 2.21: a batch of 1 broadcasts; transpose_b on a rank-2 operand of a batched product
    assert tf.matmul(tf.zeros([1, 2, 3]), tf.zeros([4, 3, 2])).shape == (4, 2, 2)
    assert tf.matmul(tf.ones([2, 2, 3]), tf.ones([4, 3]), transpose_b=True).shape == (2, 2, 4)


def _lin(op, message, name=""):
    tail = f" [Op:{op}]" if name is None else f" [Op:{op}] name: {name}"
    return f"{{{{function_node __wrapped__{op}_device_{_DEV}}}}} {message}{tail}"


@pytest.mark.parametrize("call, message", [
    (lambda: tf.linalg.inv(tf.zeros([2, 2])), _lin("MatrixInverse", "Input is not invertible.")),
    (lambda: tf.linalg.inv(tf.zeros([2, 3])), _lin("MatrixInverse", "Input matrix must be square.")),
    (lambda: tf.linalg.inv(tf.zeros([3])), _lin("MatrixInverse", "Input tensor 0 must have rank >= 2, got 1")),
    (lambda: tf.linalg.slogdet(tf.zeros([2, 3])), _lin("LogMatrixDeterminant", "Input matrix must be square.")),
    (lambda: tf.linalg.solve(tf.zeros([2, 2]), tf.zeros([3, 1])),
     _lin("MatrixSolve", "Input matrix and rhs are incompatible.")),
    (lambda: tf.linalg.solve(tf.zeros([2, 2]), tf.zeros([2, 1])), _lin("MatrixSolve", "Input matrix is not invertible.")),
    (lambda: tf.linalg.solve(tf.zeros([2, 3]), tf.zeros([2, 1])),
     _lin("MatrixSolve", "First input (lhs) must be a square matrix.")),
    (lambda: tf.linalg.eigh(tf.zeros([2, 3])), _lin("SelfAdjointEigV2", "Input matrix must be square.")),
    (lambda: tf.linalg.svd(tf.zeros([3])), _lin("Svd", "Input tensor 0 must have rank >= 2, got 1")),
    (lambda: tf.linalg.lstsq(tf.zeros([3, 2]), tf.zeros([2, 1])),
     _lin("MatMul", "Matrix size-incompatible: In[0]: [3,2], In[1]: [2,1]")),
    (lambda: tf.linalg.triangular_solve(tf.zeros([2, 2]), tf.zeros([3, 1])),
     _lin("MatrixTriangularSolve", "In[0] mismatch In[1] shape: 2 vs. 3: [2,2] [3,1] 1 0")),
    (lambda: tf.linalg.trace(tf.zeros([3])),
     _lin("MatrixDiagPartV3", "input must be at least 2-dim, received shape: [3]", "diag_part")),
    (lambda: tf.linalg.diag_part(tf.zeros([3])),
     _lin("MatrixDiagPartV3", "input must be at least 2-dim, received shape: [3]", "diag_part")),
    # list inputs run TF's fallback path: no name part
    (lambda: tf.linalg.inv([[1., 2.], [2., 4.]]), _lin("MatrixInverse", "Input is not invertible.", None)),
    (lambda: tf.linalg.det([[1., 2.]]), _lin("MatrixDeterminant", "Input matrix must be square.", None)),
])
def test_linalg_kernel_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == message  # TF 2.21


def test_matrix_transpose_rank_error():
    with pytest.raises(ValueError) as e:
        tf.linalg.matrix_transpose(tf.zeros([3]))
    assert str(e.value) == ("Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = [0. 0. 0.] with "
                            "shape: (3,)")  # TF 2.21
