"""tf.keras.initializers (Keras 3): limits/stddevs from fans, seeding, config round trips."""
import math

import numpy as np
import pytest

import tfcompat as tf

I = tf.keras.initializers


@pytest.mark.parametrize("cls, shape, limit", [
    (I.GlorotUniform, (200, 100), math.sqrt(6 / 300)),
    (I.GlorotUniform, (3, 3, 16, 32), math.sqrt(6 / (9 * 16 + 9 * 32))),
    (I.HeUniform, (200, 100), math.sqrt(6 / 200)),
    (I.LecunUniform, (200, 100), math.sqrt(3 / 200)),
])
def test_uniform_limits(cls, shape, limit):
    v = cls(seed=1)(shape).numpy()
    assert v.dtype == np.float32 and v.shape == shape
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.97 * limit
    assert abs(v.std() - limit / math.sqrt(3)) < 0.03 * limit


@pytest.mark.parametrize("cls, shape, std", [
    (I.GlorotNormal, (200, 100), math.sqrt(2 / 300)),
    (I.HeNormal, (3, 3, 16, 32), math.sqrt(2 / 144)),
    (I.LecunNormal, (200, 100), math.sqrt(1 / 200)),
])
def test_truncated_normal_stddev(cls, shape, std):
    v = cls(seed=2)(shape).numpy()
    assert abs(v.std() - std) < 0.04 * std            # Keras' 0.8796... correction restores the stddev
    assert np.abs(v).max() <= 2 * std / 0.87962566103423978 + 1e-6


def test_variance_scaling_and_basic_random():
    v = I.VarianceScaling(scale=2.0, mode="fan_out", distribution="untruncated_normal", seed=1)((100, 400)).numpy()
    assert abs(v.std() - math.sqrt(2 / 400)) < 0.003
    v = I.RandomNormal(mean=1.0, stddev=0.5, seed=1)((10000,)).numpy()
    assert abs(v.mean() - 1) < 0.02 and abs(v.std() - 0.5) < 0.02
    v = I.RandomUniform(-2, 2, seed=1)((10000,)).numpy()
    assert v.min() >= -2 and v.max() < 2
    v = I.TruncatedNormal(stddev=1.0, seed=1)((10000,)).numpy()
    assert np.abs(v).max() <= 2
    assert I.RandomNormal(seed=1)((2,), dtype="float64").dtype == tf.float64
    with pytest.raises(ValueError, match="Argument `scale` must be positive float. Received: scale=0"):
        I.VarianceScaling(scale=0)
    with pytest.raises(ValueError, match="Invalid `mode` argument: bad"):
        I.VarianceScaling(mode="bad")


def test_seeding_rules():
    g = I.GlorotUniform(seed=3)
    np.testing.assert_array_equal(g((4, 5)).numpy(), g((4, 5)).numpy())
    np.testing.assert_array_equal(g((4, 5)).numpy(), I.GlorotUniform(seed=3)((4, 5)).numpy())
    u = I.GlorotUniform()
    np.testing.assert_array_equal(u((4, 5)).numpy(), u((4, 5)).numpy())   # Keras 3: same values per instance
    tf.keras.utils.set_random_seed(11)   # Keras 3 seeds unseeded initializers from Python's random (TF 2.21)
    a = [I.GlorotUniform()((4, 5)).numpy(), I.HeNormal()((3, 3)).numpy()]
    tf.keras.utils.set_random_seed(11)
    b = [I.GlorotUniform()((4, 5)).numpy(), I.HeNormal()((3, 3)).numpy()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(I.GlorotUniform()((4, 5)).numpy(), a[0])


def test_constant_identity_orthogonal():
    assert I.Zeros()((2, 3)).numpy().tolist() == [[0.] * 3] * 2
    assert I.Ones()((2,), dtype="int32").numpy().tolist() == [1, 1]
    assert I.Constant(3.)((2,)).numpy().tolist() == [3., 3.]
    assert I.Identity(gain=2.)((2, 3)).numpy().tolist() == [[2., 0., 0.], [0., 2., 0.]]
    with pytest.raises(ValueError, match="Identity matrix initializer can only be used for 2D matrices"):
        I.Identity()((2, 2, 2))
    q = I.Orthogonal(seed=1)((4, 6)).numpy()
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)
    q = I.Orthogonal(gain=2., seed=1)((3, 2, 5)).numpy().reshape(6, 5)
    np.testing.assert_allclose(q.T @ q, 4 * np.eye(5), atol=1e-4)
    with pytest.raises(ValueError, match=r"The tensor to initialize must be at least two-dimensional. "
                                         r"Received: shape=\(3,\) of rank 1."):
        I.Orthogonal()((3,))


def test_get_serialize_deserialize():
    assert type(I.get("glorot_uniform")) is I.GlorotUniform
    assert type(I.get("GlorotUniform")) is I.GlorotUniform
    assert type(I.get("zeros")) is I.Zeros and type(I.get("uniform")) is I.RandomUniform
    assert I.get(None) is None
    fn = I.get(np.ones((2, 2), np.float32))
    assert fn((2, 2)).numpy().tolist() == [[1., 1.], [1., 1.]]
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: foo"):
        I.get("foo")
    assert I.serialize(I.GlorotUniform(seed=1)) == {
        "module": "keras.initializers", "class_name": "GlorotUniform",
        "config": {"seed": 1, "input_axes": None, "output_axes": None}, "registered_name": None}
    assert I.serialize(I.RandomNormal(seed=3))["config"] == {"seed": 3, "mean": 0.0, "stddev": 0.05}
    assert I.serialize(I.Constant(2.0))["config"] == {"value": 2.0}
    r = I.deserialize(I.serialize(I.VarianceScaling(2.0, "fan_avg", "uniform", seed=4)))
    assert r.get_config() == {"seed": 4, "scale": 2.0, "mode": "fan_avg", "distribution": "uniform",
                              "input_axes": None, "output_axes": None}
    assert I.GlorotUniform.from_config(I.GlorotUniform(seed=5).get_config()).seed == 5
    assert I.glorot_uniform is I.GlorotUniform and I.OrthogonalInitializer is I.Orthogonal
    assert isinstance(I.HeNormal(), I.VarianceScaling) and isinstance(I.Zeros(), I.Initializer)


def test_constant_takes_arrays_as_keras():
    """Keras 3's Constant is `cast(value, dtype) * ones(shape)`: arrays, lists and tensors broadcast (TF 2.21)."""
    np.testing.assert_allclose(I.Constant(np.log([0.02]))(shape=(1,)).numpy(), [-3.912023])
    assert I.Constant(np.array([1., 2., 3.]))(shape=(2, 3)).numpy().tolist() == [[1., 2., 3.]] * 2
    assert I.Constant([1., 2.])(shape=(2,)).dtype == tf.float32
    assert I.Constant(tf.constant([1., 2.]))(shape=(2,)).numpy().tolist() == [1., 2.]
    ints = I.Constant(np.array([1, 2]))(shape=(2,), dtype="int32")
    assert ints.dtype == tf.int32 and ints.numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs\. \[2\] \[Op:Mul\]"):
        I.Constant(np.array([1., 2., 3.]))(shape=(2,))
    with pytest.raises(tf.errors.UnimplementedError, match=r"Cast string to float is not supported \[Op:Cast\]"):
        I.Constant("a")(shape=(2,))
    dense = tf.keras.layers.Dense(1, bias_initializer=I.Constant(np.log([0.5])))
    dense.build((None, 2))
    np.testing.assert_allclose(dense.bias.numpy(), [-0.6931472])


def test_constant_config_of_an_array():
    config = I.Constant(np.log([0.02])).get_config()
    assert config == {"value": {"class_name": "__numpy__",
                                "config": {"value": [-3.912023005428146], "dtype": "float64"}}}
    again = I.Constant.from_config(config)
    assert isinstance(again.value, np.ndarray) and again.value.dtype == np.float64
    assert I.Constant(3).get_config() == {"value": 3}
