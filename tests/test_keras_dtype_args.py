"""Keras `Input`/layer `dtype=` arguments given a `tf.DType` (or a NumPy dtype), and `DTypePolicy`'s checks, as
Keras 3.15 on TF 2.21 takes them (texts recorded there)."""
import numpy as np
import pytest

import tfcompat as tf


def test_input_takes_a_tf_dtype():
    x = tf.keras.Input(shape=(), dtype=tf.float32)
    assert repr(x) == "<KerasTensor shape=(None,), dtype=float32, sparse=False, ragged=False, name=keras_tensor>"
    assert x.dtype == "float32" and x.dtype == tf.float32
    s = tf.keras.Input(shape=(1,), dtype=tf.string, name="s")
    assert repr(s) == "<KerasTensor shape=(None, 1), dtype=string, sparse=False, ragged=False, name=s>"
    assert s.dtype == tf.string and s.dtype != tf.float32
    assert tf.keras.Input(shape=(1,), dtype=tf.int64).dtype == "int64"
    assert tf.keras.Input(shape=(1,), dtype=np.float64).dtype == "float64"
    assert tf.keras.Input(shape=(1,), dtype="string").dtype == "string"
    calc = tf.keras.Model(inputs=x, outputs=2 * x + 1)
    np.testing.assert_array_equal(calc(np.array([1])).numpy(), np.array([3.0], np.float32))


def test_input_rejects_a_dtype_keras_lacks():
    with pytest.raises(ValueError, match=r"^Invalid dtype: resource$"):
        tf.keras.Input(shape=(1,), dtype=tf.resource)


def test_layer_dtype_given_a_tf_dtype():
    dense = tf.keras.layers.Dense(2, dtype=tf.float64)
    assert repr(dense.dtype_policy) == '<DTypePolicy "float64">'
    assert dense.compute_dtype == "float64"
    assert tf.keras.layers.Lambda(lambda v: v, dtype=tf.int32).dtype == "int32"
    with pytest.raises(ValueError, match=r"^Cannot interpret `dtype` argument\. Expected a string or an instance "
                                         r"of DTypePolicy\. Received: dtype=<dtype: 'resource'>$"):
        tf.keras.layers.Dense(2, dtype=tf.resource)


def test_dtype_policy_takes_only_names():
    with pytest.raises(TypeError, match=r"^'name' must be a string, such as 'mixed_float16'\. Received: "
                                        r"name=<dtype: 'float16'> \(of type <class '.*DType'>\)$"):
        tf.keras.DTypePolicy(tf.float16)
    with pytest.raises(ValueError, match=r"^Cannot convert 'float' to a mixed precision DTypePolicy\. Valid "
                                         r"policies include 'mixed_float16', 'mixed_bfloat16', and the name of any "
                                         r"float dtype such as 'float32'\.$"):
        tf.keras.DTypePolicy("float")
    assert tf.keras.DTypePolicy("int32").compute_dtype == "int32"


def test_set_floatx_takes_only_names():
    with pytest.raises(ValueError, match=r"^Unknown `floatx` value: <dtype: 'float64'>\. Expected one of "):
        tf.keras.backend.set_floatx(tf.float64)


def test_keras_top_level_initializer_regularizer_and_device():
    # Keras 3.15: keras.Initializer / keras.Regularizer are the base classes; keras.device is tf.device on TF
    import tfcompat as tf
    keras = tf.keras
    assert keras.Initializer is keras.initializers.Initializer
    assert keras.Regularizer is keras.regularizers.Regularizer

    class Twos(keras.Initializer):
        def __call__(self, shape, dtype=None):
            return keras.ops.full(shape, 2.0)
    out = keras.layers.Dense(2, kernel_initializer=Twos())(keras.ops.ones((1, 2)))
    assert out.numpy().tolist() == [[4.0, 4.0]]
    with keras.device("cpu:0"):
        assert keras.ops.ones((1,)).device == "/job:localhost/replica:0/task:0/device:CPU:0"
    with pytest.raises(ValueError, match=r"Expecting a string device name. Got <class 'int'>\(3\)"):
        with keras.device(3):
            pass


def test_float_dtype_policy_is_keras_alias():
    # Keras 3.15: FloatDTypePolicy subclasses DTypePolicy; its repr says DTypePolicy, its serialization its own name
    import tfcompat as tf
    p = tf.keras.FloatDTypePolicy("mixed_float16")
    assert isinstance(p, tf.keras.DTypePolicy)
    assert (repr(p), p.compute_dtype, p.variable_dtype) == ('<DTypePolicy "mixed_float16">', "float16", "float32")
    assert p.serialize() == {"module": "keras", "class_name": "FloatDTypePolicy", "config": {"name": "mixed_float16"},
                             "registered_name": None}
    from tfcompat.keras.saving_utils import deserialize_keras_object
    again = deserialize_keras_object(p.serialize())
    assert type(again) is tf.keras.FloatDTypePolicy and again.name == "mixed_float16"
