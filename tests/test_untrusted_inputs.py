"""Untrusted inputs: bad arguments, corrupt bytes and oversized files raise TF's error classes, bounded.

Expected classes and messages were recorded from TensorFlow 2.21 / Keras 3.15.1.
"""
import numpy as np
import pytest

import tfcompat as tf
from tfcompat import errors

_ATTR = ("Value for attr '{attr}' of float is not in the list of allowed values: int32, int64\n\t; NodeDef: "
         "{{{{node {op}}}}}; Op<name={op}; signature={sig}> [Op:{op}]")


# ------------------------------------------------------------------------------------------ bad arguments

@pytest.mark.parametrize("call, text", [
    (lambda: tf.ones([2.5]), "Cannot convert [2.5] to EagerTensor of dtype int32"),
    (lambda: tf.zeros([2.5], tf.int32), "Cannot convert [2.5] to EagerTensor of dtype int32"),
    (lambda: tf.ones(2.5), "Cannot convert 2.5 to EagerTensor of dtype int32"),
    (lambda: tf.ones((2.0,)), "Cannot convert (2.0,) to EagerTensor of dtype int32"),
    (lambda: tf.ones([2, 2.5]), "Cannot convert [2, 2.5] to EagerTensor of dtype int32"),
    (lambda: tf.ones(["a"]), "Cannot convert ['a'] to EagerTensor of dtype int32"),
])
def test_float_shape_to_ones_is_a_type_error(call, text):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == text


def test_float_shape_to_ops_fails_their_attr_check():
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.reshape([1., 2.], [2.5])
    assert str(e.value) == _ATTR.format(
        attr="Tshape", op="Reshape", sig="tensor:T, shape:Tshape -> output:T; attr=T:type; attr=Tshape:type,"
        "default=DT_INT32,allowed=[DT_INT32, DT_INT64]")
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.fill(tf.constant([2.0]), 1)
    assert str(e.value) == _ATTR.format(
        attr="index_type", op="Fill", sig="dims:index_type, value:T -> output:T; attr=T:type; attr=index_type:type,"
        "default=DT_INT32,allowed=[DT_INT32, DT_INT64]") + " name: "
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'index_type' of float .*\[Op:Fill\] name: $"):
        tf.ones(tf.constant([2.0]))
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'T' of float .*\[Op:RandomUniform\] name: $"):
        tf.random.uniform([2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'T' of float .*\[Op:RandomUniformInt\] name: $"):
        tf.random.uniform([2.5], maxval=3, dtype=tf.int32)
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'T' of float .*\[Op:RandomStandardNormal\]"):
        tf.random.normal([2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'Tmultiples' of float .*\[Op:Tile\]$"):
        tf.tile([1.], [2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'Tidx' of float .*\[Op:BroadcastTo\]$"):
        tf.broadcast_to(1., [2.5])
    with pytest.raises(errors.InvalidArgumentError, match=r"(?s)attr 'Tperm' of float .*\[Op:Transpose\]$"):
        tf.transpose([[1.]], [0.5, 1])


def test_shape_arguments_that_tf_accepts():
    assert tf.ones(np.array([2.0])).shape == (2,)            # NumPy float arrays truncate, as in TF
    assert tf.fill(np.array([2.5]), 1).shape == (2,)
    assert tf.ones([True]).shape == (1,)
    assert tf.ones(tf.TensorShape([2])).shape == (2,)
    assert tf.ones((tf.constant(2), np.int64(3))).shape == (2, 3)
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\)"):
        tf.ones([None])
    with pytest.raises(errors.InvalidArgumentError) as e:
        tf.zeros([-1])
    assert str(e.value) == ("{{function_node __wrapped__Fill_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            "Dimension -1 must be >= 0 [Op:Fill] name: ")


@pytest.mark.parametrize("value, kwargs", [
    ([1, "a"], {}), (["a", 1], {}), ([1.5, "a"], {}), ([[1], ["a"]], {}), ([True, "a"], {}),
    ([np.int32(1), "a"], {}), (["a", ["b"]], {}), ([1, b"a"], {}), ([1, "a"], {"dtype": tf.int32}),
    ([1, "a"], {"dtype": tf.string}),
])
def test_mixed_type_lists_are_refused(value, kwargs):
    with pytest.raises(ValueError) as e:
        tf.constant(value, **kwargs)
    assert str(e.value) == "Can't convert Python sequence with mixed types to Tensor."


def test_mixed_types_elsewhere():
    for call in (lambda: tf.convert_to_tensor([1, "a"]), lambda: tf.add([1, "a"], 1), lambda: tf.ones([2, "a"])):
        with pytest.raises(ValueError, match="^Can't convert Python sequence with mixed types to Tensor.$"):
            call()
    with pytest.raises(ValueError, match="^Can't convert non-rectangular Python sequence to Tensor.$"):
        tf.constant([[1, 2], "a"])
    assert tf.constant(np.array([1, "a"])).numpy().tolist() == [b"1", b"a"]     # NumPy did the conversion


# ------------------------------------------------------------------------------------- Keras input shapes

def _model(shape=(3,), units=2):
    inp = tf.keras.Input(shape)
    return tf.keras.Model(inp, tf.keras.layers.Dense(units)(inp)), inp


def test_rank_one_input_to_a_rank_two_model_is_refused():
    m, inp = _model()
    with pytest.raises(ValueError) as e:
        m(np.ones(3, np.float32))
    msg = str(e.value)
    assert msg.startswith("Exception encountered when calling Functional.call().\n\n\x1b[1mInvalid input shape for "
                          f"input [1. 1. 1.] with name '{inp.name}' and path ''. Expected shape (None, 3), but input "
                          "has incompatible shape (3,)\x1b[0m")
    m.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"Invalid input shape for input .* Expected shape \(None, 3\)"):
        m.fit(np.ones(3, np.float32), np.ones(3), verbose=0)
    s = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"(?s)^Exception encountered when calling Sequential.call\(\).*Invalid input "
                                         r"shape .* but input has incompatible shape \(3,\)"):
        s(np.ones(3, np.float32))


def test_named_inputs_report_their_path_and_dims():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    m = tf.keras.Model([a, b], tf.keras.layers.Concatenate()([a, b]))
    with pytest.raises(ValueError, match=r"Invalid input shape for input \[1. 1. 1.\] with name 'a' and path '0'"):
        m([np.ones(3, np.float32), np.ones((1, 2), np.float32)])
    with pytest.raises(ValueError) as e:
        m([np.ones((1, 3), np.float32), np.ones((1, 5), np.float32)])
    assert str(e.value) == (f"Input 1 with name 'b' of layer '{m.name}' is incompatible with the layer: expected "
                            "shape=(None, 2), found shape=(1, 5)")


def test_trailing_unit_axis_is_squeezed_or_added_as_keras_does():
    i = tf.keras.Input((3, 1))
    assert tf.keras.Model(i, tf.keras.layers.Flatten()(i))(np.ones((2, 3), np.float32)).shape == (2, 3)
    m, _ = _model(units=1)
    assert m(np.ones((2, 3, 1), np.float32)).shape == (2, 1)
    with pytest.raises(ValueError, match=r"incompatible shape \(2, 3, 1, 1\)"):
        m(np.ones((2, 3, 1, 1), np.float32))


def test_dense_input_spec():
    d = tf.keras.layers.Dense(2)
    d(np.ones((1, 3), np.float32))
    with pytest.raises(ValueError) as e:
        d(np.ones((2, 4), np.float32))
    assert str(e.value) == (f"Input 0 with name 'None' of layer '{d.name}' is incompatible with the layer: expected "
                            "axis -1 of input shape to have value 3, but received input with shape (2, 4)")
    with pytest.raises(ValueError) as e:
        d(np.ones(3, np.float32))
    assert str(e.value).endswith("expected min_ndim=2, found ndim=1. Full shape received: (3,)")
    s = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match=r"^Exception encountered when calling Sequential.call\(\).\n\n\x1b\[1mInput "
                                         r"0 with name 'None' of layer 'dense\w*' is incompatible"):
        s(np.ones((2, 4), np.float32))
