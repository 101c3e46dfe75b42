"""keras.ops against Keras 3.15 on the TF backend: values and Keras's dtype promotion."""
import re

import numpy as np
import pytest

import tfcompat as tf
from tfcompat.keras import ops

i32 = tf.constant([1, 2], dtype=tf.int32)

# (expression, (dtype name, value)) recorded with Keras 3.15; tuples/lists of results are lists
OPS = [('ops.add(i32, 1.5)', ('float32', [2.5, 3.5])),
 ('ops.add(i32, 2)', ('int32', [3, 4])),
 ('ops.divide(i32, i32)', ('float32', [1.0, 1.0])),
 ('ops.mean(i32)', ('float32', 1.5)),
 ('ops.sum(i32)', ('int32', 3)),
 ('ops.sum(tf.constant([True, False]))', ('int32', 1)),
 ('ops.add(i32, tf.constant([1, 2], tf.int64))', ('int64', [2, 4])),
 ('ops.add(tf.constant([1.0], tf.float16), i32[:1])', ('float16', [2.0])),
 ('ops.add(tf.constant([1.0]), tf.constant([1.0], tf.float64))', ('float64', [2.0])),
 ('ops.convert_to_tensor([1, 2])', ('int32', [1, 2])),
 ('ops.convert_to_tensor([1.5])', ('float32', [1.5])),
 ('ops.convert_to_tensor(np.array([1.5]))', ('float64', [1.5])),
 ('ops.arange(3)', ('int32', [0, 1, 2])),
 ('ops.arange(0, 1, 0.5)', ('float32', [0.0, 0.5])),
 ('ops.zeros((2,))', ('float32', [0.0, 0.0])),
 ("ops.ones((1,), 'int32')", ('int32', [1])),
 ('ops.sqrt(i32)', ('float32', [1.0, 1.4142135381698608])),
 ('ops.exp(i32)', ('float32', [2.7182817459106445, 7.389056205749512])),
 ('ops.argmax(tf.constant([1.0, 3.0, 2.0]))', ('int32', 1)),
 ('ops.softmax(tf.constant([1.0, 2.0, 3.0]))',
  ('float32', [0.09003056585788727, 0.2447284758090973, 0.6652408838272095])),
 ('ops.shape(tf.zeros((2, 3)))', [('int', 2), ('int', 3)]),
 ('ops.max(i32)', ('int32', 2)),
 ('ops.one_hot(tf.constant([0, 2]), 3)', ('float32', [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])),
 ('ops.where(tf.constant([True, False]), 1, 2.5)', ('float32', [1.0, 2.5])),
 ('ops.clip(i32, 0, 1)', ('int32', [1, 1])),
 ('ops.matmul(tf.constant([[1, 2]]), tf.constant([[1], [2]]))', ('int32', [[5]])),
 ('ops.norm(tf.constant([3.0, 4.0]))', ('float32', 5.0)),
 ('ops.logsumexp(tf.constant([1.0, 2.0]))', ('float32', 2.3132617473602295)),
 ('ops.erf(tf.constant([0.5]))', ('float32', [0.5204998850822449])),
 ('ops.top_k(tf.constant([1.0, 3.0, 2.0]), 2)', [('float32', [3.0, 2.0]), ('int32', [1, 2])]),
 ('ops.equal(i32, 1)', ('bool', [True, False])),
 ('ops.square(i32)', ('int32', [1, 4])),
 ('ops.divide(3, 2)', ('float32', 1.5)),
 ('ops.multiply(tf.constant([True]), 2)', ('int32', [2])),
 ("ops.cast(tf.constant([1.7]), 'int32')", ('int32', [1])),
 ("ops.einsum('ij,j->i', tf.ones((2, 3)), tf.ones(3))", ('float32', [3.0, 3.0])),
 ('ops.stack([i32, i32])', ('int32', [[1, 2], [1, 2]])),
 ('ops.mean(tf.ones((2, 3)), axis=0, keepdims=True)', ('float32', [[1.0, 1.0, 1.0]])),
 ('ops.std(tf.constant([1.0, 2.0, 3.0]))', ('float32', 0.8164966106414795)),
 ('ops.var(tf.constant([1.0, 2.0, 3.0]))', ('float32', 0.6666666865348816)),
 ('ops.floor_divide(i32, 2)', ('int32', [0, 1])),
 ('ops.power(i32, 2)', ('int32', [1, 4])),
 ('ops.power(i32, 0.5)', ('float32', [1.0, 1.4142135381698608])),
 ('ops.abs(i32)', ('int32', [1, 2])),
 ('ops.relu(tf.constant([-1.0, 2.0]))', ('float32', [0.0, 2.0])),
 ('ops.sigmoid(tf.constant([0.0]))', ('float32', [0.5])),
 ('ops.log_softmax(tf.constant([1.0, 2.0]))', ('float32', [-1.31326162815094, -0.31326165795326233])),
 ('ops.prod(i32)', ('int32', 2)),
 ('ops.cumsum(i32)', ('int32', [1, 3])),
 ('ops.min(tf.constant([1.0, -2.0]), axis=0)', ('float32', -2.0)),
 ('ops.tanh(tf.constant([0.5]))', ('float32', [0.46211713552474976])),
 ('ops.dot(tf.ones((2, 3)), tf.ones((3,)))', ('float32', [3.0, 3.0])),
 ('ops.round(tf.constant([0.5, 1.5, 2.5]))', ('float32', [0.0, 2.0, 2.0])),
 ('ops.argmin(tf.constant([[1.0, 0.0], [0.0, 1.0]]), axis=1)', ('int32', [1, 0])),
 ('ops.linspace(0, 1, 3)', ('float32', [0.0, 0.5, 1.0])),
 ('ops.full((2,), 3)', ('float32', [3.0, 3.0])),
 ('ops.full((2,), 3.5)', ('float32', [3.5, 3.5])),
 ('ops.zeros_like(i32)', ('int32', [0, 0])),
 ('ops.eye(2)', ('float32', [[1.0, 0.0], [0.0, 1.0]])),
 ('ops.tile(i32, 2)', ('int32', [1, 2, 1, 2])),
 ('ops.repeat(i32, 2)', ('int32', [1, 1, 2, 2])),
 ('ops.gelu(tf.constant([1.0]))', ('float32', [0.8411920070648193])),
 ('ops.silu(tf.constant([1.0]))', ('float32', [0.7310585975646973])),
 ('ops.softplus(tf.constant([1.0]))', ('float32', [1.31326162815094])),
 ('ops.leaky_relu(tf.constant([-1.0]))', ('float32', [-0.20000000298023224])),
 ('ops.elu(tf.constant([-1.0]))', ('float32', [-0.6321205496788025])),
 ('ops.any(tf.constant([True, False]))', ('bool', True)),
 ('ops.all(tf.constant([True, False]))', ('bool', False)),
 ('ops.log1p(tf.constant([1.0]))', ('float32', [0.6931471824645996])),
 ('ops.sign(i32)', ('int32', [1, 1])),
 ('ops.mod(i32, 2)', ('int32', [1, 0])),
 ('ops.negative(i32)', ('int32', [-1, -2])),
 ('ops.reciprocal(tf.constant([2.0]))', ('float32', [0.5])),
 ('ops.rsqrt(tf.constant([4.0]))', ('float32', [0.5])),
 ('ops.cond(True, lambda: 1, lambda: 2)', ('int', 1)),
 ('ops.moments(tf.constant([1.0, 2.0, 3.0]), axes=[0])', [('float32', 2.0), ('float32', 0.6666666865348816)]),
 ('ops.size(tf.zeros((2, 3)))', ('int32', 6)),
 ('ops.ndim(tf.zeros((2, 3)))', ('int', 2)),
 ('ops.sort(tf.constant([3, 1, 2]))', ('int32', [1, 2, 3])),
 ('ops.argsort(tf.constant([3, 1, 2]))', ('int32', [1, 2, 0])),
 ('ops.binary_crossentropy(tf.constant([1.0, 0.0]), tf.constant([0.8, 0.3]))',
  ('float32', [0.2231435328722, 0.3566749691963196])),
 ('ops.sparse_categorical_crossentropy(tf.constant([1]), tf.constant([[0.2, 0.8]]))',
  ('float32', [0.2231435477733612])),
 ('ops.categorical_crossentropy(tf.constant([[0.0, 1.0]]), tf.constant([[0.2, 0.8]]))',
  ('float32', [0.2231435328722])),
 ('ops.isnan(tf.constant([1.0]))', ('bool', [False])),
 ("ops.nan_to_num(tf.constant([float('nan'), float('inf')]))", ('float32', [0.0, 3.4028234663852886e+38])),
 ('ops.triu(tf.ones((2, 2)))', ('float32', [[1.0, 1.0], [0.0, 1.0]])),
 ('ops.outer(tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0]))', ('float32', [[1.0, 3.0], [2.0, 6.0]])),
 ('ops.flip(i32)', ('int32', [2, 1])),
 ('ops.take(tf.constant([5, 6, 7]), tf.constant([2, 0]))', ('int32', [7, 5])),
 ('ops.take_along_axis(tf.constant([[5, 6, 7]]), tf.constant([[2, 0]]), axis=1)', ('int32', [[7, 5]])),
 ('ops.split(tf.constant([1, 2, 3, 4]), 2)', [('int32', [1, 2]), ('int32', [3, 4])]),
 ('ops.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 1]))', ('float32', [3.0, 3.0])),
 ('ops.in_top_k(tf.constant([1]), tf.constant([[0.1, 0.9]]), 1)', ('bool', [True]))]


def _check(got, ref):
    if isinstance(ref, list):
        assert isinstance(got, (tuple, list)) and len(got) == len(ref)
        for g, r in zip(got, ref):
            _check(g, r)
        return
    kind, value = ref
    if kind in ("int", "float"):
        assert type(got).__name__ == kind and got == value
        return
    assert isinstance(got, tf.Tensor), type(got)
    assert got.dtype.name == kind
    np.testing.assert_allclose(np.asarray(got.numpy(), dtype=np.float64), np.asarray(value, dtype=np.float64),
                               rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("expr,ref", OPS, ids=[e for e, _ in OPS])
def test_op(expr, ref):
    _check(eval(expr), ref)


def test_reshape_error():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("Input to reshape is a tensor with 6 values, but the requested shape has 8")):
        ops.reshape(tf.zeros((2, 3)), (4, 2))


def test_ops_gradients_flow():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = ops.sum(ops.square(ops.multiply(v, 3.0)))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [18.0, 36.0])


def test_unknown_op_raises():
    with pytest.raises(AttributeError):
        ops.no_such_op_name  # noqa: B018 - the access raises
