"""Keras models against Keras 3.15: Sequential, functional API, subclassed models, tracking, names."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers


@pytest.fixture(autouse=True)
def fresh_names():
    tf.keras.backend.clear_session()


def test_sequential_from_list_with_input():
    m = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3), L.Dense(2)])
    assert m.built and m.output_shape == (None, 2)
    assert [w.path for w in m.weights] == ['sequential/dense/kernel', 'sequential/dense/bias',
                                           'sequential/dense_1/kernel', 'sequential/dense_1/bias']
    assert [layer.name for layer in m.layers] == ['dense', 'dense_1']
    assert m(np.ones((5, 4), "float32")).shape == (5, 2)


def test_sequential_add_pop_and_build_on_first_call():
    tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3)])
    m = tf.keras.Sequential()
    m.add(L.Dense(3))
    assert not m.built
    out = m(np.ones((2, 5), "float32"))
    assert isinstance(out, tf.Tensor) and out.shape == (2, 3)
    assert [w.path for w in m.weights] == ['sequential_1/dense_1/kernel', 'sequential_1/dense_1/bias']
    assert m.name == "sequential_1"
    m.pop()
    assert len(m.layers) == 0


def test_sequential_get_config_layers():
    m = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3), L.Dense(2)])
    config = m.get_config()
    assert config["name"] == "sequential"
    assert [c["class_name"] for c in config["layers"]] == ["InputLayer", "Dense", "Dense"]
    assert config["layers"][1]["config"]["units"] == 3


def test_sequential_get_config_keeps_tuples():
    m = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3)])
    assert m.get_config()["layers"][0]["config"] == {'batch_shape': (None, 4), 'dtype': 'float32', 'sparse': False,
                                                     'ragged': False, 'name': 'input_layer', 'optional': False}


def test_functional_several_inputs_outputs_shared_layer():
    a = tf.keras.Input((3,), name="a")
    b = tf.keras.Input((2,), name="b")
    shared = L.Dense(4, name="shared")
    x = L.Concatenate()([shared(L.Dense(3)(a)), shared(L.Dense(3)(b))])
    o1 = L.Dense(1, name="o1")(x)
    o2 = L.Dense(2, name="o2")(x)
    assert tuple(x.shape) == (None, 8)
    f = tf.keras.Model([a, b], [o1, o2])
    assert sorted(layer.name for layer in f.layers) == ['a', 'b', 'concatenate', 'dense', 'dense_1', 'o1', 'o2',
                                                        'shared']
    assert len(f.weights) == 10 and f.weights[-1].path == "o2/bias"
    r = f([np.ones((2, 3), "float32"), np.ones((2, 2), "float32")])
    assert [tuple(t.shape) for t in r] == [(2, 1), (2, 2)]
    assert f.get_layer("shared") is shared


def test_functional_layer_order():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    shared = L.Dense(4, name="shared")
    x = L.Concatenate()([shared(L.Dense(3)(a)), shared(L.Dense(3)(b))])
    f = tf.keras.Model([a, b], x)
    assert [layer.name for layer in f.layers] == ['a', 'b', 'dense', 'dense_1', 'shared', 'concatenate']


def test_functional_values_match_layers():
    inp = tf.keras.Input((3,))
    d1, d2 = L.Dense(4, activation="relu"), L.Dense(2)
    model = tf.keras.Model(inp, d2(d1(inp)))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(model(x).numpy(), d2(d1(x)).numpy(), rtol=1e-6)


class Linear(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def call(self, x):
        return self.w * x + self.b


def test_subclassed_model_with_tf_variables():
    lm = Linear()
    assert lm.variables == [] and lm.name == "linear"
    assert float(lm(tf.constant(2.0))) == 10.0
    with tf.GradientTape() as tape:
        y = lm(tf.constant(2.0))
    gw, gb = tape.gradient(y, [lm.w, lm.b])
    assert float(gw) == 2.0 and float(gb) == 1.0


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d = L.Dense(2)
        self.blocks = [L.Dense(3), L.Dense(4)]
        self.heads = {"a": L.Dense(1)}

    def call(self, x):
        return self.heads["a"](self.blocks[1](self.blocks[0](self.d(x))))


def test_subclassed_model_tracks_attributes_lists_dicts():
    n = Net()
    n(np.ones((1, 2), "float32"))
    assert n.name == "net"
    assert [w.path for w in n.weights] == ['net/dense/kernel', 'net/dense/bias', 'net/dense_1/kernel',
                                           'net/dense_1/bias', 'net/dense_2/kernel', 'net/dense_2/bias',
                                           'net/dense_3/kernel', 'net/dense_3/bias']
    assert len(n.trainable_variables) == 8
    n.trainable = False
    assert n.trainable_variables == [] and len(n.non_trainable_variables) == 8


def test_unique_names():
    assert [L.Dense(1).name for _ in range(3)] == ['dense', 'dense_1', 'dense_2']
    assert L.Conv2D(1, 1).name == "conv2d" and L.BatchNormalization().name == "batch_normalization"
    tf.keras.backend.clear_session()
    assert L.Dense(1).name == "dense"


class Block(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.drop = L.Dropout(0.99)
        self.seen = []

    def call(self, x, training=None):
        self.seen.append(training)
        return self.drop(x)


def test_training_propagates_into_nested_layers():
    block = Block()
    model = tf.keras.Sequential([block])
    x = np.ones((4, 50), "float32")
    assert (model(x, training=True).numpy() == 0).mean() > 0.8
    assert (model(x).numpy() == 1).all()
    assert True in block.seen


def test_regularizer_losses_on_model():
    m = tf.keras.Sequential([tf.keras.Input((2,)), L.Dense(3, kernel_regularizer=tf.keras.regularizers.L2(0.5))])
    m.layers[0].kernel.assign(np.ones((2, 3), "float32"))
    np.testing.assert_allclose([float(v) for v in m.losses], [3.0])


def test_dict_inputs_map_to_named_inputs_of_a_list_model():
    """`model({"title": ..., "body": ...})` feeds the Input layers by name (the functional API guide)."""
    title, body = tf.keras.Input((5,), name="title"), tf.keras.Input((7,), name="body")
    x = L.concatenate([L.Dense(4)(title), L.Dense(4)(body)])
    model = tf.keras.Model([title, body], {"priority": L.Dense(1, name="priority")(x)})
    t, b = np.ones((2, 5), "float32"), np.ones((2, 7), "float32")
    np.testing.assert_array_equal(model({"title": t, "body": b})["priority"].numpy(),
                                  model([t, b])["priority"].numpy())
    with pytest.raises(ValueError, match="Missing data for input 'body'"):
        model({"title": t})
