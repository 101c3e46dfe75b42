"""Every built-in optimizer and learning-rate schedule runs inside `fit`'s tf.function (no eager fallback):
the traced step computes the rate from the `iterations` variable and the step factors as tensors, so `fit`
gives TF 2.21's losses and weights (recorded from TF 2.21 + Keras 3.15 with fixed initial weights)."""
import warnings

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras
S = keras.optimizers.schedules

GOLDEN = {   # losses of 3 epochs, then the output layer's kernel after them
    "nadam_exp": ([0.715813, 0.5784842, 0.5081795], [0.248959, -0.495912, -0.707499]),
    "adamax": ([0.6307467, 0.3361648, 0.1981191], [0.373124, -0.406284, -0.658323]),
    "ftrl": ([0.4393331, 0.2391725, 0.1913437], [0.125332, -0.253676, -0.120602]),
    "lion_piece": ([0.7696736, 0.697506, 0.6680926], [0.218003, -0.526531, -0.725629]),
    "adam_ema": ([0.7298784, 0.6499071, 0.629732], [0.209925, -0.534486, -0.733868]),
    "sgd_inv": ([0.435973, 0.1525566, 0.3265783], [0.194824, 0.009013, -0.613498]),
}
OPTIMIZERS = {
    "nadam_exp": lambda: keras.optimizers.Nadam(S.ExponentialDecay(0.01, 2, 0.8)),
    "adamax": lambda: keras.optimizers.Adamax(0.02),
    "ftrl": lambda: keras.optimizers.Ftrl(0.05, l1_regularization_strength=0.001, beta=0.1),
    "lion_piece": lambda: keras.optimizers.Lion(S.PiecewiseConstantDecay([3], [0.003, 0.001])),
    "adam_ema": lambda: keras.optimizers.Adam(0.01, use_ema=True, ema_overwrite_frequency=3),
    "sgd_inv": lambda: keras.optimizers.SGD(S.InverseTimeDecay(0.05, 3, 0.5, staircase=True), momentum=0.9),
}


def _data():
    rng = np.random.RandomState(0)
    x, y = rng.rand(32, 4).astype("float32"), rng.rand(32, 1).astype("float32")
    weights = [rng.randn(4, 3).astype("float32") * 0.5, np.zeros(3, "float32"),
               rng.randn(3, 1).astype("float32") * 0.5, np.zeros(1, "float32")]
    return x, y, weights


def _fit(make, run_eagerly):
    x, y, weights = _data()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)])
    model.set_weights(weights)
    model.compile(make(), "mse", run_eagerly=run_eagerly)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # the step function warns when it falls back to eager steps
        history = model.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
    return history.history["loss"], model


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_fit_traces_the_step_and_gives_tf_numbers(name):
    losses, model = _fit(OPTIMIZERS[name], run_eagerly=False)
    np.testing.assert_allclose(losses, GOLDEN[name][0], rtol=1e-6)
    np.testing.assert_allclose(model.layers[1].kernel.numpy().ravel(), GOLDEN[name][1], rtol=1e-5, atol=1e-6)
    eager_losses, eager = _fit(OPTIMIZERS[name], run_eagerly=True)
    assert eager_losses == losses                                           # the replay equals the eager step
    for a, b in zip(model.weights + model.optimizer.variables, eager.weights + eager.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


SCHEDULES = [S.ExponentialDecay(0.1, 10, 0.9), S.ExponentialDecay(0.1, 10, 0.9, staircase=True),
             S.InverseTimeDecay(0.01, 7, 0.5), S.PiecewiseConstantDecay([5, 20], [0.1, 0.01, 0.001]),
             S.PolynomialDecay(0.1, 30, 0.001, power=0.5), S.PolynomialDecay(0.1, 30, 0.001, power=2, cycle=True),
             S.CosineDecay(0.1, 40, alpha=0.1), S.CosineDecay(0.0, 40, warmup_target=0.1, warmup_steps=10),
             S.CosineDecayRestarts(0.1, 10), S.CosineDecayRestarts(0.1, 10, t_mul=1.0, m_mul=0.5)]


@pytest.mark.parametrize("schedule", SCHEDULES, ids=lambda s: type(s).__name__)
def test_a_schedule_of_a_step_tensor_or_array_equals_its_python_steps(schedule):
    steps = np.arange(0, 80)
    python = np.array([float(schedule(int(i))) for i in steps], np.float32)
    rates = schedule(steps)
    assert rates.dtype == tf.float32 and rates.shape == (80,)
    # NumPy's and torch's float32 cosines differ in the last bit; every other formula is the same bit for bit
    np.testing.assert_allclose(rates.numpy(), python, rtol=2e-7, atol=1e-8)
    np.testing.assert_allclose(schedule(tf.Variable(17, dtype=tf.int64)).numpy(), python[17], rtol=2e-7, atol=1e-8)


def test_a_schedule_of_an_array_as_tf():
    rates = S.InverseTimeDecay(0.01, 7, 0.5)(np.arange(3))
    assert repr(rates) == ("<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.01      , 0.00933333, 0.00875   ],"
                           " dtype=float32)>")
