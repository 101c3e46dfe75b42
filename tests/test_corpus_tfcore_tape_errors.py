"""GradientTape misuse raises TF's errors; integer targets and sources log nothing (TF's vlog(1)). Golden: TF 2.21."""
import logging

import pytest

import tfcompat as tf

_NON_PERSISTENT = "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)"


def test_gradient_on_a_tape_never_entered():
    x = tf.Variable(3.0)
    t = tf.GradientTape()
    with pytest.raises(RuntimeError) as e:
        t.gradient(x * 2, x)
    assert str(e.value) == _NON_PERSISTENT
    with pytest.raises(RuntimeError) as e:
        tf.GradientTape(persistent=True).gradient(x * 2, x)
    assert str(e.value) == _NON_PERSISTENT


def test_stop_recording_errors():
    with pytest.raises(RuntimeError) as e:
        with tf.GradientTape().stop_recording():
            pass
    assert str(e.value) == "Trying to stop recording a tape which is not recording."
    with tf.GradientTape() as t:
        pass
    with pytest.raises(ValueError, match="^Tape is not recording.$"):
        with t.stop_recording():
            pass


def test_targets_and_sources_that_are_not_tensors():
    x = tf.Variable(3.0)

    def tape():
        with tf.GradientTape() as t:
            y = x * x
        return t, y

    t, y = tape()
    with pytest.raises(TypeError) as e:
        t.gradient(None, x)
    assert str(e.value) == ("Argument `target` should be a list or nested structure of Tensors, Variables or "
                            "CompositeTensors to be differentiated, but received None.")
    t, y = tape()
    with pytest.raises(TypeError) as e:
        t.gradient([y, None], x)
    assert str(e.value) == "Cannot convert the argument `type_value`: None to a TensorFlow DType."
    t, y = tape()
    with pytest.raises(TypeError) as e:
        t.gradient("s", x)
    assert str(e.value) == "Cannot convert the argument `type_value`: 's' to a TensorFlow DType."
    t, y = tape()
    with pytest.raises(AttributeError) as e:
        t.gradient(3.0, x)
    assert str(e.value) == "'float' object has no attribute 'dtype'"
    t, y = tape()
    with pytest.raises(TypeError) as e:
        t.gradient(y, [x, "a"])
    assert str(e.value) == "Cannot convert the argument `type_value`: 'a' to a TensorFlow DType."
    t, y = tape()
    with pytest.raises(AttributeError) as e:
        t.gradient(y, 3.0)
    assert str(e.value) == "'float' object has no attribute 'dtype'"


def test_watch_rejects_none_and_strings():
    with tf.GradientTape() as t:
        with pytest.raises(ValueError) as e:
            t.watch("a")
        assert str(e.value) == "Passed in object a of type 'str', not tf.Tensor or tf.Variable or ExtensionType."
        with pytest.raises(ValueError) as e:
            t.watch(None)
        assert str(e.value) == ("Passed in object None of type 'NoneType', not tf.Tensor or tf.Variable or "
                                "ExtensionType.")


def test_integer_target_and_source_log_nothing(caplog):
    v = tf.Variable(2, dtype=tf.int32)
    with caplog.at_level(logging.INFO):
        with tf.GradientTape() as t:
            y = v * 2
        assert t.gradient(y, v) is None     # TF 2.21: None, no warning printed
    assert not [r for r in caplog.records if r.levelno >= logging.INFO]


def test_unconnected_jacobians():
    a = tf.Variable([[1.0], [2.0]])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    c = tf.constant([[1, 2]])
    with tf.GradientTape(persistent=True) as t:
        t.watch(b)
        t.watch(c)
        y = a * a
        y2 = tf.cast(c, tf.float32) * 2.
    # TF 2.21: jacobian follows unconnected_gradients; batch_jacobian gives zeros of the target's dtype either way
    assert t.jacobian(y, b) is None
    assert t.jacobian(y, b, unconnected_gradients="zero").shape == (2, 1, 2, 2)
    for kw in ({}, {"unconnected_gradients": "zero"}, {"experimental_use_pfor": False}):
        z = t.batch_jacobian(y, b, **kw)
        assert z.shape == (2, 1, 2) and z.dtype == tf.float32 and not z.numpy().any()
    z = t.batch_jacobian(y2, c)
    assert z.shape == (1, 2, 2) and z.dtype == tf.float32 and not z.numpy().any()
    z = t.batch_jacobian(tf.reshape(y, [2, 1]), tf.reshape(a, [2, 1]))     # a source computed after the tape
    assert z.shape == (2, 1, 1) and not z.numpy().any()
