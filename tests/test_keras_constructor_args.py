"""Keras 3.15's checks of constructor arguments: `keras.Input` shapes and `Model.__init__` arguments (golden text)."""
import numpy as np
import pytest

import tfcompat as tf


@pytest.mark.parametrize("call, error", [
    (lambda: tf.keras.Input(shape=(20)), "Cannot convert '20' to a shape."),
    (lambda: tf.keras.Input(shape=20.0), "Cannot convert '20.0' to a shape."),
    (lambda: tf.keras.Input(shape="ab"),
     "Cannot convert 'ab' to a shape. Found invalid dimension 'a' of type '<class 'str'>'. "),
    (lambda: tf.keras.Input(shape=[3.0]),
     "Cannot convert '[3.0]' to a shape. Found invalid dimension '3.0' of type '<class 'float'>'. "),
    (lambda: tf.keras.Input(shape=(-1,)), "Cannot convert '(-1,)' to a shape. Negative dimensions are not allowed."),
    (lambda: tf.keras.Input(shape=(3,), batch_size=2.0),
     "Cannot convert '(2.0, 3)' to a shape. Found invalid dimension '2.0' of type '<class 'float'>'. "),
    (lambda: tf.keras.Input(batch_shape=5), "Cannot convert '5' to a shape."),
    (lambda: tf.keras.Input(shape=None), "You must pass a `shape` argument."),
])
def test_input_shape_errors(call, error):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == error


def test_input_shapes_accepted():
    shapes = [tf.keras.Input(shape=s).shape for s in
              ([None, 3], (True,), tf.TensorShape([3]), (tf.constant(3),), (np.int64(3),))]
    assert shapes == [(None, None, 3), (None, 1), (None, 3), (None, 3), (None, 3)]
    assert all(type(d) is int for d in shapes[-1][1:])


def test_model_init_arguments():
    class PassesSelf(tf.keras.Model):
        def __init__(self):
            super().__init__(self)        # effective_tf2's DynamicRNN: Keras 3 hands `self` on to Layer.__init__

    with pytest.raises(TypeError, match=r"^Layer\.__init__\(\) takes 1 positional argument but 2 were given$"):
        PassesSelf()
    with pytest.raises(TypeError, match=r"^Layer\.__init__\(\) takes 1 positional argument but 2 were given$"):
        tf.keras.Model(1)
    with pytest.raises(ValueError, match=r"^Unrecognized keyword arguments passed to Model: \{'foo': 1\}$"):
        tf.keras.Model(foo=1)


def test_functional_output_names():
    # Keras 3.15: the output layers' names (guide/saved_model indexes a signature's outputs with them)
    i = tf.keras.Input((3,), name="inp")
    o = tf.keras.layers.Dense(2, name="d")(i)
    o2 = tf.keras.layers.Dense(1)(o)
    assert tf.keras.Model(i, o).output_names == ["d"]
    assert tf.keras.Model(i, [o, o2]).output_names == ["d", "dense"]
    assert tf.keras.Model(i, {"a": o, "b": o2}).output_names == ["d", "dense"]
    assert not hasattr(tf.keras.Sequential([tf.keras.layers.Dense(1)]), "output_names")
