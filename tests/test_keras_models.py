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
    with pytest.raises(ValueError, match='Missing data for input "body"'):  # TF 2.21's quotes
        model({"title": t})


# -- summary() against Keras 3.15 (text recorded from TF 2.21 on an 80-column non-terminal) --------------------------
def _two_inputs():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    c = L.Concatenate(name="concat")([L.Dense(4, name="dense")(a), b])
    return tf.keras.Model([a, b], L.Dense(1, name="out")(c), name="two_inputs")


def _deep_inputs():
    a, b = tf.keras.Input((3,), name="a"), tf.keras.Input((2,), name="b")
    h = L.Dense(4, name="d2")(L.Dense(4, name="d1")(a))
    c = L.Concatenate(name="concat")([h, L.Dense(2, name="d3")(b)])
    return tf.keras.Model([b, a], L.Dense(1, name="out")(c), name="deep_inputs")


def _multi_output():
    inp = tf.keras.Input((5,), name="x")
    h = L.Dense(8, activation="relu", name="trunk")(inp)
    return tf.keras.Model(inp, [L.Dense(1, name="reg")(h), L.Dense(3, activation="softmax", name="cls")(h)],
                          name="multi_output")


def _shared():
    a, b = tf.keras.Input((4,), name="left"), tf.keras.Input((4,), name="right")
    shared = L.Dense(3, name="shared")
    return tf.keras.Model([a, b], L.Add(name="add")([shared(a), shared(b)]), name="shared_model")


def _nested():
    inner_in = tf.keras.Input((4,), name="inner_in")
    inner = tf.keras.Model(inner_in, L.Dense(3, name="inner_dense")(inner_in), name="inner")
    outer_in = tf.keras.Input((4,), name="outer_in")
    return tf.keras.Model(outer_in, L.Dense(2, name="head")(inner(outer_in)), name="outer")


def _nested_seq():
    seq_inner = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3, name="sd")], name="seq_inner")
    oi = tf.keras.Input((4,), name="oi")
    return tf.keras.Model(oi, L.Dense(2, name="head2")(seq_inner(oi)), name="outer_seq")


def _by_fit(name, optimizer, **fit_kwargs):
    x = (np.arange(40, dtype="float32").reshape(10, 4) % 7) / 7.0
    m = tf.keras.Sequential([L.Dense(8, activation="relu", name="f1"), L.Dense(3, name="f2")], name=name)
    m.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")
    m.fit(x, np.arange(10) % 3, epochs=1, verbose=0, **fit_kwargs)
    return m


def _by_build(name, shape):
    m = tf.keras.Sequential([L.Dense(8, name="b1"), L.Dense(2, name="b2")], name=name)
    m.build(shape)
    return m


def _by_call():
    m = tf.keras.Sequential([L.Dense(8, name="c1"), L.Dense(2, name="c2")], name="by_call")
    m(np.zeros((6, 4), "float32"))
    return m


def _func_input_batch():
    fi = tf.keras.Input((4,), batch_size=8, name="fi")
    return tf.keras.Model(fi, L.Dense(2, name="fo")(fi), name="func_batch")


SUMMARY_MODELS = {
    "two_inputs": _two_inputs, "deep_inputs": _deep_inputs, "multi_output": _multi_output, "shared": _shared,
    "nested": _nested, "nested_seq": _nested_seq,
    "seq_fit": lambda: _by_fit("by_fit", "sgd", batch_size=5),       # every batch has 5 rows: a static batch
    "seq_fit_default_batch": lambda: _by_fit("by_fit_default", "adam"),  # one partial batch: None
    "seq_build": lambda: _by_build("by_build", (32, 4)),
    "seq_build_none": lambda: _by_build("by_build_none", (None, 4)),
    "seq_input_batch": lambda: tf.keras.Sequential([tf.keras.Input((4,), batch_size=8), L.Dense(2, name="i1")],
                                                  name="input_batch"),
    "seq_call": _by_call, "func_input_batch": _func_input_batch,
}

SUMMARY_TEXT = {
    'two_inputs': (
        "Model: \"two_inputs\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩\n"
        "│ a (InputLayer)      │ (None, 3)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ dense (Dense)       │ (None, 4)         │         16 │ a[0][0]           │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ b (InputLayer)      │ (None, 2)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ concat              │ (None, 6)         │          0 │ dense[0][0],      │\n"
        "│ (Concatenate)       │                   │            │ b[0][0]           │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ out (Dense)         │ (None, 1)         │          7 │ concat[0][0]      │\n"
        "└─────────────────────┴───────────────────┴────────────┴───────────────────┘\n"
        " Total params: 23 (92.00 B)\n"
        " Trainable params: 23 (92.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'deep_inputs': (
        "Model: \"deep_inputs\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩\n"
        "│ a (InputLayer)      │ (None, 3)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ d1 (Dense)          │ (None, 4)         │         16 │ a[0][0]           │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ b (InputLayer)      │ (None, 2)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ d2 (Dense)          │ (None, 4)         │         20 │ d1[0][0]          │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ d3 (Dense)          │ (None, 2)         │          6 │ b[0][0]           │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ concat              │ (None, 6)         │          0 │ d2[0][0],         │\n"
        "│ (Concatenate)       │                   │            │ d3[0][0]          │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ out (Dense)         │ (None, 1)         │          7 │ concat[0][0]      │\n"
        "└─────────────────────┴───────────────────┴────────────┴───────────────────┘\n"
        " Total params: 49 (196.00 B)\n"
        " Trainable params: 49 (196.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'multi_output': (
        "Model: \"multi_output\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩\n"
        "│ x (InputLayer)      │ (None, 5)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ trunk (Dense)       │ (None, 8)         │         48 │ x[0][0]           │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ reg (Dense)         │ (None, 1)         │          9 │ trunk[0][0]       │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ cls (Dense)         │ (None, 3)         │         27 │ trunk[0][0]       │\n"
        "└─────────────────────┴───────────────────┴────────────┴───────────────────┘\n"
        " Total params: 84 (336.00 B)\n"
        " Trainable params: 84 (336.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'shared': (
        "Model: \"shared_model\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩\n"
        "│ left (InputLayer)   │ (None, 4)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ right (InputLayer)  │ (None, 4)         │          0 │ -                 │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ shared (Dense)      │ (None, 3)         │         15 │ left[0][0],       │\n"
        "│                     │                   │            │ right[0][0]       │\n"
        "├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n"
        "│ add (Add)           │ (None, 3)         │          0 │ shared[0][0],     │\n"
        "│                     │                   │            │ shared[1][0]      │\n"
        "└─────────────────────┴───────────────────┴────────────┴───────────────────┘\n"
        " Total params: 15 (60.00 B)\n"
        " Trainable params: 15 (60.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'nested': (
        "Model: \"outer\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ outer_in (InputLayer)           │ (None, 4)              │             0 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ inner (Functional)              │ (None, 3)              │            15 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ head (Dense)                    │ (None, 2)              │             8 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 23 (92.00 B)\n"
        " Trainable params: 23 (92.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'nested_seq': (
        "Model: \"outer_seq\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ oi (InputLayer)                 │ (None, 4)              │             0 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ seq_inner (Sequential)          │ (None, 3)              │            15 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ head2 (Dense)                   │ (None, 2)              │             8 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 23 (92.00 B)\n"
        " Trainable params: 23 (92.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'seq_fit': (
        "Model: \"by_fit\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ f1 (Dense)                      │ (5, 8)                 │            40 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ f2 (Dense)                      │ (5, 3)                 │            27 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 69 (280.00 B)\n"
        " Trainable params: 67 (268.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
        " Optimizer params: 2 (12.00 B)\n"
    ),
    'seq_fit_default_batch': (
        "Model: \"by_fit_default\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ f1 (Dense)                      │ (None, 8)              │            40 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ f2 (Dense)                      │ (None, 3)              │            27 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 203 (816.00 B)\n"
        " Trainable params: 67 (268.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
        " Optimizer params: 136 (548.00 B)\n"
    ),
    'seq_build': (
        "Model: \"by_build\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ b1 (Dense)                      │ (32, 8)                │            40 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ b2 (Dense)                      │ (32, 2)                │            18 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 58 (232.00 B)\n"
        " Trainable params: 58 (232.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'seq_build_none': (
        "Model: \"by_build_none\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ b1 (Dense)                      │ (None, 8)              │            40 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ b2 (Dense)                      │ (None, 2)              │            18 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 58 (232.00 B)\n"
        " Trainable params: 58 (232.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'seq_input_batch': (
        "Model: \"input_batch\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ i1 (Dense)                      │ (8, 2)                 │            10 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 10 (40.00 B)\n"
        " Trainable params: 10 (40.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'seq_call': (
        "Model: \"by_call\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ c1 (Dense)                      │ (6, 8)                 │            40 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ c2 (Dense)                      │ (6, 2)                 │            18 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 58 (232.00 B)\n"
        " Trainable params: 58 (232.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
    'func_input_batch': (
        "Model: \"func_batch\"\n"
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n"
        "┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n"
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n"
        "│ fi (InputLayer)                 │ (8, 4)                 │             0 │\n"
        "├─────────────────────────────────┼────────────────────────┼───────────────┤\n"
        "│ fo (Dense)                      │ (8, 2)                 │            10 │\n"
        "└─────────────────────────────────┴────────────────────────┴───────────────┘\n"
        " Total params: 10 (40.00 B)\n"
        " Trainable params: 10 (40.00 B)\n"
        " Non-trainable params: 0 (0.00 B)\n"
    ),
}
SUMMARY_LAYERS = {
    'two_inputs': ['a', 'dense', 'b', 'concat', 'out'],
    'deep_inputs': ['a', 'd1', 'b', 'd2', 'd3', 'concat', 'out'],
    'multi_output': ['x', 'trunk', 'reg', 'cls'],
    'shared': ['left', 'right', 'shared', 'add'],
    'nested': ['outer_in', 'inner', 'head'],
    'nested_seq': ['oi', 'seq_inner', 'head2'],
    'seq_fit': ['f1', 'f2'],
    'seq_fit_default_batch': ['f1', 'f2'],
    'seq_build': ['b1', 'b2'],
    'seq_build_none': ['b1', 'b2'],
    'seq_input_batch': ['i1'],
    'seq_call': ['c1', 'c2'],
    'func_input_batch': ['fi', 'fo'],
}


@pytest.mark.parametrize("case", list(SUMMARY_MODELS))
def test_summary_matches_keras(case, capsys, monkeypatch):
    # functional layers in Keras 3's depth order (two inputs list `a, dense, b`); a Sequential built by fit,
    # build() or a call shows the batch size it was built with where Keras does
    monkeypatch.setenv("COLUMNS", "80")
    model = SUMMARY_MODELS[case]()
    assert [layer.name for layer in model.layers] == SUMMARY_LAYERS[case]
    model.summary()
    assert capsys.readouterr().out == SUMMARY_TEXT[case]
