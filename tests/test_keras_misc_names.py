"""Smaller tf.keras names: the sparse activations and threshold, utils.get_source_inputs,
datasets.reuters.get_label_names, random.binomial/beta; golden values recorded from TF 2.21 / Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

A = tf.keras.activations
X = [[-2.0, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5], [0.1, 0.2, -3, 4, 0, 0, 1]]


def test_sparse_activations_values():
    x = tf.constant(X)
    # TF 2.21
    np.testing.assert_allclose(A.sparse_plus(x).numpy(), [[0.0, 0.0, 0.0625, 0.25, 0.4225, 1.0, 2.5],
                                                          [0.3025, 0.36, 0.0, 4.0, 0.25, 0.25, 1.0]], rtol=1e-6)
    assert A.sparse_sigmoid(x).numpy().tolist() == [
        [0.0, 0.0, 0.25, 0.5, 0.6499999761581421, 1.0, 1.0], [0.550000011920929, 0.6000000238418579, 0.0, 1.0, 0.5,
                                                              0.5, 1.0]]
    assert A.sparsemax(x).numpy().tolist() == [[0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0, 0]]
    np.testing.assert_allclose(A.sparsemax(x, axis=0).numpy(), [[0, 0, 1, 0, 0.5, 1, 1], [1, 1, 0, 1, 0.2, 0, 0]],
                               rtol=1e-6)
    assert A.threshold(x, 0.2, -7.0).numpy().tolist() == [
        [-7.0, -7.0, -7.0, -7.0, 0.30000001192092896, 1.0, 2.5], [-7.0, -7.0, -7.0, 4.0, -7.0, -7.0, 1.0]]
    out = A.threshold(tf.constant([1, 5, 3]), 2, 0)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [0, 5, 3]
    assert A.sparse_plus(np.array([0.5, -0.5])).dtype == tf.float64
    assert A.sparsemax(np.array([0.5, -0.5])).numpy().tolist() == [1.0, 0.0]
    # Keras's TF backend sums the cumulative sums in its threshold, so equal logits do not give 1/n
    y = tf.keras.layers.Dense(3, activation="sparsemax", kernel_initializer="ones")(tf.constant([[-2.0, -1.0]]))
    np.testing.assert_allclose(y.numpy(), [[3.3333335, 3.3333335, 3.3333335]], rtol=1e-6)


def test_sparse_activations_registry_and_errors():
    for name in ("sparse_plus", "sparse_sigmoid", "sparsemax", "threshold"):
        fn = getattr(A, name)
        assert A.get(name) is fn and A.serialize(fn) == name and A.deserialize(name) is fn
    with pytest.raises(TypeError, match="Cannot convert 0.25 to EagerTensor of dtype int32"):
        A.sparse_plus(tf.constant([1, -2]))
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int64"):
        A.sparse_sigmoid(tf.constant([1, 2], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Sub as input #1"):
        A.sparsemax(tf.constant([1, -2]))
    with pytest.raises(TypeError, match="Cannot convert -7.5 to EagerTensor of dtype int32"):
        A.threshold(tf.constant([1, 5, 3]), 2, -7.5)
    with pytest.raises(TypeError, match="'>' not supported between instances of 'list' and 'float'"):
        A.threshold([1.0, 3.0], 2.0, 0.0)


def test_sparse_activation_gradients():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = (tf.reduce_sum(A.sparsemax(x) * tf.constant([1.0, 2, 3, 4, 5, 6, 7])) + tf.reduce_sum(A.sparse_plus(x))
             + tf.reduce_sum(A.sparse_sigmoid(x)) + tf.reduce_sum(A.threshold(x, 0.2, -1.0)))
    # TF 2.21 (tf.where's gradients at the tie points -1 and 1)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[0.0, 0.0, 0.75, 1.0, 2.15, 2.0, 2.0],
                                                             [1.05, 1.1, 0.0, 2.0, 1.0, 1.0, 2.0]], rtol=1e-6)


def test_get_source_inputs():
    k = tf.keras
    g = k.utils.get_source_inputs
    a, b = k.Input((3,), name="a"), k.Input((3,), name="b")
    x = k.layers.Dense(2)(a)
    y = k.layers.Concatenate()([x, b])
    z = k.layers.Dense(1)(k.layers.Add()([y, y]))
    # TF 2.21
    assert [t.name for t in g(a)] == ["a"] and [t.name for t in g(x)] == ["a"]
    assert [t.name for t in g(y)] == ["a", "b"] and [t.name for t in g(z)] == ["a", "b"]
    m = k.Model([a, b], z)
    assert [t.name for t in g(m.output)] == ["a", "b"]
    c = k.Input((3,), name="c")
    assert [t.name for t in g(k.Model(a, x)(c))] == ["c"]
    kt = k.KerasTensor((2,))
    assert g(kt) is kt and g(5) == 5
    arr = np.ones(2)
    assert g(arr) is arr


def test_reuters_label_names():
    names = tf.keras.datasets.reuters.get_label_names()
    # TF 2.21
    assert type(names) is tuple and len(names) == 46
    assert names[:5] == ("cocoa", "grain", "veg-oil", "earn", "acq") and names[-3:] == ("wpi", "hog", "lead")
    assert names[19] == "money-fx" and names[27] == "strategic-metal"


def test_random_binomial():
    R = tf.keras.random
    out = R.binomial((2, 3), counts=10, probabilities=0.5, seed=1)
    assert out.dtype == tf.float32 and out.shape == (2, 3)
    assert R.binomial((2, 3), counts=10, probabilities=0.5, seed=1).numpy().tolist() == out.numpy().tolist()
    big = R.binomial((20000,), counts=20, probabilities=0.3, seed=2).numpy()
    assert abs(big.mean() - 6.0) < 0.1 and abs(big.var() - 4.2) < 0.25 and big.min() >= 0 and big.max() <= 20
    assert R.binomial((3,), counts=5, probabilities=0.5, dtype="int32", seed=1).dtype == tf.int32
    assert R.binomial((3,), counts=5, probabilities=0.5, dtype="float64", seed=1).dtype == tf.float64
    arr = R.binomial((2, 3), counts=[1, 5, 10], probabilities=[0.0, 1.0, 0.9], seed=1).numpy()
    assert arr[:, 0].tolist() == [0, 0] and arr[:, 1].tolist() == [5, 5] and (arr[:, 2] <= 10).all()
    # TF 2.21: probabilities above 1 give `counts`, negative counts 0
    assert R.binomial((3,), counts=5, probabilities=1.5, seed=1).numpy().tolist() == [5.0, 5.0, 5.0]
    assert R.binomial((3,), counts=-5, probabilities=0.5, seed=1).numpy().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape passed in must end with broadcasted shape. "
                                                             r"\[Op:StatelessRandomBinomial\]"):
        R.binomial((2, 3), counts=[1, 2], probabilities=0.5, seed=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of bool is not in the list of "
                                                             "allowed values: half, float, double, int32, int64"):
        R.binomial((3,), counts=5, probabilities=0.5, dtype="bool", seed=1)
    with pytest.raises(tf.errors.NotFoundError, match="Could not find device for node: {{node StatelessRandomBinomial}}"):
        R.binomial((3,), counts=tf.constant([5, 5, 5]), probabilities=0.5, seed=1)


def test_random_beta():
    R = tf.keras.random
    out = R.beta((2, 3), alpha=2.0, beta=3.0, seed=1)
    assert out.dtype == tf.float32 and out.shape == (2, 3)
    assert R.beta((2, 3), alpha=2.0, beta=3.0, seed=1).numpy().tolist() == out.numpy().tolist()
    big = R.beta((20000,), alpha=2.0, beta=5.0, seed=1).numpy()
    assert abs(big.mean() - 2 / 7) < 0.01 and abs(big.var() - 10 / 392) < 0.003
    assert R.beta((3,), alpha=2, beta=3, dtype="float64", seed=1).dtype == tf.float64
    assert R.beta((3,), alpha=2., beta=3., dtype="bfloat16", seed=1).dtype == tf.bfloat16
    assert R.beta((2, 3), alpha=[1., 2., 3.], beta=[[1.], [2.]], seed=1).shape == (2, 3)
    # TF 2.21: a zero alpha gives 0, a zero beta 1, a negative or NaN parameter NaN
    assert R.beta((3,), alpha=[0., 1., 2.], beta=[1., 0., float("inf")], seed=1).numpy().tolist() == [0.0, 1.0, 0.0]
    nan = R.beta((3,), alpha=[-1., float("nan"), 2.], beta=[1., 1, 1], seed=1).numpy()
    assert np.isnan(nan[:2]).all() and 0 < nan[2] < 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of int32 is not in the list of "
                                                             "allowed values: half, float, double"):
        R.beta((3,), alpha=2, beta=3, dtype="int32", seed=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[2,3\]"):
        R.beta((2, 3), alpha=[1., 2.], beta=3., seed=1)
    with pytest.raises(ValueError, match="Argument `seed` must be either an integer or an instance of `SeedGenerator`"):
        R.beta((3,), alpha=2., beta=3., seed=1.5)
    # one seed draw per call, as Keras (the second gamma uses the pair + 12)
    g = R.SeedGenerator(3)
    R.beta((3,), alpha=2., beta=3., seed=g)
    R.binomial((3,), counts=5, probabilities=0.5, seed=g)
    assert g.state.numpy().tolist() == [3, 2]
