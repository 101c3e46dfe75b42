"""Python lists holding tensors or variables convert as TF's autopacking does: a `Pack` in the first tensor's dtype.

TF 2.21 packs `[t, 2]`, `tf.reduce_sum([loss1, loss2])`, `tf.matmul([[x, c]], ...)` with `Pack`: the dtype is the first
tensor's (Python and NumPy leaves are converted to it; another tensor dtype is Pack's InvalidArgumentError unless a
dtype is requested, then tensors are cast), and gradients flow through the list to the tensors and variables.
Golden values: TF 2.21.
"""
import numpy as np
import pytest

import tfcompat as tf


def test_dtype_is_the_first_tensors():
    f, v = tf.constant(1.5), tf.Variable(3.0)
    # TF 2.21
    r = tf.convert_to_tensor([f, 2])
    assert r.dtype == tf.float32 and r.numpy().tolist() == [1.5, 2.0]
    assert tf.convert_to_tensor([v, 1]).dtype == tf.float32
    assert tf.convert_to_tensor((f, 3)).dtype == tf.float32
    assert tf.convert_to_tensor([f, np.float64(2)]).dtype == tf.float32
    r = tf.convert_to_tensor([tf.constant([1., 2.]), np.array([3., 4.])])
    assert r.dtype == tf.float32 and r.shape == (2, 2)
    r = tf.convert_to_tensor([tf.constant([1, 2]), [3, 4]])
    assert r.dtype == tf.int32 and r.numpy().tolist() == [[1, 2], [3, 4]]
    r = tf.convert_to_tensor([[f, 1.], [2., v]])
    assert r.dtype == tf.float32 and r.numpy().tolist() == [[1.5, 1.0], [2.0, 3.0]]
    assert tf.convert_to_tensor([tf.constant(True), False]).numpy().tolist() == [True, False]
    r = tf.add([f, 1.0], 1)
    assert r.dtype == tf.float32 and r.numpy().tolist() == [2.5, 2.0]


def test_requested_dtype_casts_tensors():
    f, d, i = tf.constant(1.5), tf.constant(2.0, tf.float64), tf.constant(2)
    # TF 2.21
    r = tf.convert_to_tensor([f, d], dtype=tf.float64)
    assert r.dtype == tf.float64 and r.numpy().tolist() == [1.5, 2.0]
    r = tf.convert_to_tensor([i, 1], dtype=tf.float32)
    assert r.dtype == tf.float32 and r.numpy().tolist() == [2.0, 1.0]


def test_errors():
    f, i, d = tf.constant(1.5), tf.constant(2), tf.constant(2.0, tf.float64)
    # TF 2.21
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.convert_to_tensor([i, 2.5])
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.convert_to_tensor([2.5, i])
    with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
        tf.reduce_sum([i, 1.0])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.convert_to_tensor([f, d])
    assert str(e.value) == ("cannot compute Pack as input #1(zero-based) was expected to be a float tensor but is a "
                            "double tensor [Op:Pack] name: packed")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.convert_to_tensor([d, f])
    assert "expected to be a double tensor but is a float tensor" in str(e.value)
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.convert_to_tensor([tf.constant([1, 2]), [3]])
    assert "Shapes of all inputs must match: values[0].shape = [2] != values[1].shape = [1] [Op:Pack]" in str(e.value)
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\) with an unsupported type"):
        tf.convert_to_tensor([f, None])


def test_gradients_flow_through_lists():
    x, c = tf.Variable(3.0), tf.constant(2.0)

    def grad(fn, sources):
        with tf.GradientTape() as t:
            t.watch(c)
            y = fn()
        g = t.gradient(y, sources)
        return [None if v is None else float(v) for v in g] if isinstance(g, list) else float(g)

    # TF 2.21
    assert grad(lambda: tf.reduce_sum([x, x]), x) == 2.0
    assert grad(lambda: tf.reduce_sum([c, c * 2]), c) == 3.0
    assert grad(lambda: tf.math.reduce_logsumexp([x, x]), x) == 1.0
    assert grad(lambda: tf.convert_to_tensor([x, 2 * x]) * 3, x) == 9.0
    assert grad(lambda: tf.reduce_sum(tf.constant([1.0, 2.0]) * [x, c]), [x, c]) == [1.0, 2.0]
    assert grad(lambda: tf.matmul([[x, c]], [[1.0], [2.0]]), [x, c]) == [1.0, 2.0]
    assert grad(lambda: tf.reduce_mean([x, c]), [x, c]) == [0.5, 0.5]
    assert grad(lambda: tf.concat([[x], [c]], 0), [x, c]) == [1.0, 1.0]
    assert grad(lambda: tf.reduce_sum([[x, c], [c, x]]), [x, c]) == [2.0, 2.0]
    assert grad(lambda: tf.square([x, c]), [x, c]) == [6.0, 4.0]
    assert grad(lambda: tf.maximum([x, c], 0.), [x, c]) == [1.0, 1.0]


def test_traced_list_of_tensors():
    @tf.function
    def f(a, b):
        return tf.reduce_sum([a, b * 2])

    # TF 2.21: 1 + 4, then 3 + 8
    assert float(f(tf.constant(1.0), tf.constant(2.0))) == 5.0
    assert float(f(tf.constant(3.0), tf.constant(4.0))) == 11.0
