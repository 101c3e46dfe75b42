"""Model structure cases from the Keras guides corpus (sequential_model, transfer_learning, subclassing).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np

import tfcompat as tf

keras = tf.keras


def test_sequential_config_build_input_shape():
    s = keras.Sequential([keras.layers.Dense(2)])
    assert "build_input_shape" not in s.get_config()
    s(np.ones((3, 5), "float32"))
    c = s.get_config()
    # TF 2.21
    assert c["build_input_shape"] == (3, 5)
    assert [la["class_name"] for la in c["layers"]] == ["InputLayer", "Dense"]
    s2 = keras.Sequential([keras.layers.Dense(2)])
    s2.build((None, 7))
    assert s2.get_config()["build_input_shape"] == (None, 7)
    s3 = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    assert sorted(k for k in s3.get_config() if k != "layers") == ["build_input_shape", "dtype", "name", "trainable"]
    assert s3.get_config()["build_input_shape"] == (None, 4)
    assert "build_input_shape" not in keras.Sequential([keras.Input((4,))]).get_config()
    assert keras.models.clone_model(s3).get_config()["build_input_shape"] == (None, 4)
    r = keras.Sequential.from_config(s3.get_config())
    assert r.built and tuple(r.layers[0].kernel.shape) == (4, 2)


def test_keras_variable_dtype_from_initializer():
    # TF 2.21: Keras's convert_to_tensor (arrays and tensors keep their dtype; Python floats floatx, ints int32)
    cases = [(np.ones((2,)), "float64"), (np.ones((2,), "int64"), "int64"), (np.ones((2,), "float16"), "float16"),
             ([1, 2], "int32"), ([1.0, 2.0], "float32"), ([1, 2.5], "float32"), (3, "int32"), (3.0, "float32"),
             (True, "bool"), (np.float64(2.0), "float64"), (tf.constant([1.0], tf.float64), "float64"),
             (tf.constant([1, 2]), "int32"), (np.array([True]), "bool")]
    for init, dtype in cases:
        assert keras.Variable(init).dtype == dtype, init
    assert keras.Variable(np.ones((2,)), dtype="float32").dtype == "float32"
    v = keras.Variable("ones", shape=(2,))
    assert v.dtype == "float32" and v.numpy().tolist() == [1.0, 1.0]
    assert keras.Variable(keras.initializers.Ones(), shape=(2,), dtype="int32").numpy().tolist() == [1, 1]


class _Lin(keras.layers.Layer):
    def __init__(self, units=3, **kw):
        super().__init__(**kw)
        self.units = units


def test_layer_from_config_error_is_keras_type_error():
    # TF 2.21
    try:
        _Lin.from_config({"units": 2, "bogus": 1})
    except TypeError as e:
        assert str(e) == ("Error when deserializing class '_Lin' using config={'units': 2, 'bogus': 1}.\n\n"
                          "Exception encountered: Unrecognized keyword arguments passed to _Lin: {'bogus': 1}")
    else:
        raise AssertionError("no error")
    policy = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}
    try:
        _Lin.from_config({"units": 2, "dtype": policy, "foo": 1})
    except TypeError as e:
        assert str(e).startswith("Error when deserializing class '_Lin' using config={'units': 2, 'dtype': "
                                 "'float32', 'foo': 1}.")
    else:
        raise AssertionError("no error")


class _Blk(keras.layers.Layer):
    def __init__(self, seen, **kw):
        super().__init__(**kw)
        self.seen = seen

    def call(self, x, training=None):
        self.seen.append(training)
        return x


def test_symbolic_call_of_user_layer_sees_training_none():
    # TF 2.21: building a functional graph calls a user layer with training=None (the context's, then its default)
    # (tfcompat may call it more than once: the values are what is compared)
    a, b, c, d = [], [], [], []
    keras.Sequential([keras.Input((3,)), _Blk(a)])
    i = keras.Input((3,))
    keras.Model(i, _Blk(b)(i))
    _Blk(c)(i, training=True)
    keras.Sequential([_Blk(d)])(i)
    assert set(a) == set(b) == set(d) == {None} and set(c) == {True}


def test_functional_construction_errors():
    import pytest
    i = keras.Input((3,))
    # TF 2.21
    with pytest.raises(ValueError, match="^All `outputs` values must be KerasTensors. Received: outputs=None "
                                         "including invalid value None of type <class 'NoneType'>$"):
        keras.Model(inputs=i, outputs=None)
    with pytest.raises(ValueError, match=r"^Inputs have incompatible shapes. Received shapes \(3,\) and \(4,\)$"):
        keras.layers.Add()([i, keras.Input((4,))])
    with pytest.raises(ValueError, match=r"^Cannot merge tensors with different batch sizes. Received tensors with "
                                         r"shapes \[\(2, 3\), \(3, 3\)\]$"):
        keras.layers.Multiply()([np.ones((2, 3), "float32"), np.ones((3, 3), "float32")])
    assert tuple(keras.layers.Add()([i, keras.Input((1,))]).shape) == (None, 3)
    assert tuple(keras.layers.Concatenate()([i, keras.Input((4,))]).shape) == (None, 7)


def test_input_shape_argument_warns():
    import pytest
    # TF 2.21: Keras's Layer warns and keeps the shape
    with pytest.warns(UserWarning, match=r"^Do not pass an `input_shape`/`input_dim` argument to a layer. When using "
                                         r"Sequential models, prefer using an `Input\(shape\)` object as the first "
                                         r"layer in the model instead.$"):
        s = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    assert s.built and tuple(s.layers[0].kernel.shape) == (3, 2)
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`/`input_dim`"):
        keras.layers.Dense(2, input_dim=4)


def test_functional_config_nodes_and_names():
    import pytest
    i = keras.Input((3,), name="x")
    h = keras.layers.Dense(3, name="h")(i)
    a = keras.layers.Add(name="addl")([i, h])
    m = keras.Model(i, [a + h, a], name="f")
    c = m.get_config()
    kt = {"class_name": "__keras_tensor__", "config": {"shape": (None, 3), "dtype": "float32",
                                                       "keras_history": ["x", 0, 0]}}
    # TF 2.21: a node's args are a tuple (a list argument stays a list), shapes are tuples
    assert c["layers"][1]["inbound_nodes"] == [{"args": (kt,), "kwargs": {}}]
    assert isinstance(c["layers"][2]["inbound_nodes"][0]["args"], tuple)
    assert isinstance(c["layers"][2]["inbound_nodes"][0]["args"][0], list)
    m2 = keras.Model.from_config(c)
    assert [la.name for la in m2.layers] == ["x", "h", "addl"] and m2.output_shape == [(None, 3), (None, 3)]
    assert m.get_build_config() == {"input_shape": None}
    assert m.layers[1].get_build_config() == {"input_shape": (None, 3)}
    with pytest.raises(ValueError, match='^The name "add" is used 2 times in the model. All operation names should '
                                         'be unique.$'):
        keras.Model(i, keras.layers.Dense(1, name="add")(keras.layers.Dense(3, name="add")(i)))
