"""tf.train.ExponentialMovingAverage (values and texts recorded from TF 2.21)."""
import pytest

import tfcompat as tf
from tfcompat.train import moving_averages


@pytest.fixture(autouse=True)
def fresh_scope_names():
    saved = set(moving_averages._USED_SCOPES)
    moving_averages._USED_SCOPES.clear()
    yield
    moving_averages._USED_SCOPES.clear()
    moving_averages._USED_SCOPES.update(saved)


def test_ema_updates_and_names():
    v = tf.Variable(1.0, name="w")
    ema = tf.train.ExponentialMovingAverage(decay=0.9)
    assert ema.apply([v]) is None
    assert repr(ema.average(v)) == "<tf.Variable 'w/ExponentialMovingAverage:0' shape=() dtype=float32, numpy=1.0>"
    v.assign(2.0)
    ema.apply([v])
    assert ema.average(v).numpy() == pytest.approx(1.1)
    assert ema.average_name(v) == "w/ExponentialMovingAverage"
    assert ema.average(v).trainable is False
    step = tf.Variable(0)
    ema2 = tf.train.ExponentialMovingAverage(0.99, num_updates=step)       # decay min(0.99, 1/10)
    ema2.apply([v])
    assert ema2.average(v).numpy() == 2.0
    assert ema2.average(v).name == "w/ExponentialMovingAverage_1:0"       # unique, as TF's variable scopes
    assert ema.average(tf.Variable(1.0)) is None
    assert ema.apply() is None and ema.apply([]) is None
    assert ema.name == "ExponentialMovingAverage"


def test_ema_decay_variable_half_precision_and_restore_map():
    w = tf.Variable(0.0)
    ema3 = tf.train.ExponentialMovingAverage(tf.Variable(0.5), name="my_ema")
    ema3.apply([w])
    w.assign(10.0)
    ema3.apply([w])
    assert ema3.average(w).numpy() == 5.0 and ema3.average_name(w) == "Variable/my_ema" and ema3.name == "my_ema"
    h = tf.Variable(1.0, dtype=tf.float16)
    ema = tf.train.ExponentialMovingAverage(0.3)
    ema.apply([h])
    h.assign(2.0)
    ema.apply([h])
    assert ema.average(h).dtype == tf.float16 and float(ema.average(h).numpy()) == pytest.approx(1.7, abs=1e-3)
    assert list(ema.variables_to_restore()) == ["Variable/ExponentialMovingAverage"]


def test_ema_errors():
    ema = tf.train.ExponentialMovingAverage(0.9)
    with pytest.raises(TypeError, match="^tf.train.ExponentialMovingAverage does not support non-Variable tensors "
                                        "when eager execution is enabled.$"):
        ema.apply([tf.constant(1.0)])
    with pytest.raises(TypeError, match="^The variables must be half, float, or double: Variable:0$"):
        ema.apply([tf.Variable(1)])
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype float"):
        tf.train.ExponentialMovingAverage("x").apply([tf.Variable(1.0)])

    @tf.function
    def step(v):
        ema.apply([v])

    with pytest.raises(NotImplementedError, match="inside a tf.function"):
        step(tf.Variable(1.0))
