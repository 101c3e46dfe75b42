"""The eager layer-call fast paths (issue 15): remembered input-spec checks, Sequential's input plan, name scopes and
`training` read from the call state keep Keras's behaviour, and a small MLP call stays within its Python call budget.
Golden values from TF 2.21 + Keras 3.15.1."""
import cProfile
import pstats

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


def _message(fn):
    with pytest.raises(ValueError) as info:
        fn()
    return str(info.value)


def test_input_spec_checked_again_for_a_new_signature():
    layer = keras.layers.Dense(3)
    layer(tf.ones((2, 4)))
    layer(tf.ones((2, 4)))          # remembered: the same signature passed
    assert _message(lambda: layer(tf.ones((2, 5)))) == (
        "Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected axis -1 of input shape "
        "to have value 4, but received input with shape (2, 5)")
    assert layer(tf.ones((2, 4), tf.float64)).dtype == tf.float32
    assert layer(tf.ones((3, 4))).shape == (3, 3)


def test_input_spec_changed_after_a_call_is_checked():
    layer = keras.layers.Dense(3)
    x = tf.ones((2, 4))
    layer(x)
    layer.input_spec.axes = {-1: 5}
    assert _message(lambda: layer(x)) == (
        "Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected axis -1 of input shape "
        "to have value 5, but received input with shape (2, 4)")
    layer.input_spec = keras.InputSpec(ndim=3)
    assert _message(lambda: layer(x)) == (
        "Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected ndim=3, found ndim=2. "
        "Full shape received: (2, 4)")


def test_sequential_converts_inputs_unlike_its_input():
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2, kernel_initializer="ones")])
    assert m(tf.ones((2, 4))).numpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    assert m(tf.ones((2, 4), tf.int32)).numpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    assert m(tf.ones((2, 4), tf.float64)).dtype == tf.float32
    assert m(np.ones((2, 4), "float32")).numpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    m2 = keras.Sequential([keras.Input((4, 1)), keras.layers.Flatten()])
    assert m2(tf.ones((2, 4))).shape == (2, 4)
    assert m2(tf.ones((2, 4, 1))).shape == (2, 4)
    assert "Expected shape (None, 4), but input has incompatible shape (2, 4, 3)" in _message(
        lambda: m(tf.ones((2, 4, 3))))


def test_sequential_plan_follows_add_and_pop():
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2, kernel_initializer="ones")])
    m(tf.ones((2, 4)))
    m.add(keras.layers.Dense(1, kernel_initializer="ones"))
    assert m(tf.ones((2, 4))).numpy().tolist() == [[8.0], [8.0]]
    m.pop()
    assert m(tf.ones((2, 4))).numpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]


SEEN = []      # the `training` each Probe call received (a module list: Keras copies a list held by a layer)


class Probe(keras.layers.Layer):
    def call(self, x, training=None):
        SEEN.append(training)
        return x


class Outer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.d = keras.layers.Dense(2)
        self.p = Probe()

    def call(self, x, training=None):
        return self.p(self.d(x))


def test_training_and_name_scopes_of_nested_calls():
    SEEN.clear()
    o = Outer()
    o(tf.ones((1, 3)), training=True)
    o(tf.ones((1, 3)))
    assert SEEN == [None, True, None]       # the build's trace, then the two calls
    assert [v.path for v in o.weights] == ["outer/dense/kernel", "outer/dense/bias"]
    m = keras.Sequential([keras.Input((3,)), Outer()])
    m(tf.ones((1, 3)), training=True)
    assert SEEN[-1] is True
    assert [v.path for v in m.weights] == ["sequential/outer_1/dense_1/kernel",
                                           "sequential/outer_1/dense_1/bias"]


def test_functional_converts_and_checks_inputs_unlike_its_input():
    inp = keras.Input((4,))
    m = keras.Model(inp, keras.layers.Dense(2, kernel_initializer="ones")(inp))
    assert m(tf.ones((2, 4))).numpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    assert m(tf.ones((2, 4), tf.int32)).numpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    assert m(tf.ones((2, 4), tf.float64)).dtype == tf.float32
    assert _message(lambda: m(tf.ones((2, 5)))).splitlines()[0] == (
        "Input 0 with name 'input_layer' of layer 'functional' is incompatible with the layer: expected "
        "shape=(None, 4), found shape=(2, 5)")
    assert m(tf.ones((3, 4))).shape == (3, 2)
    inp2 = keras.Input((4, 1))
    m2 = keras.Model(inp2, keras.layers.Flatten()(inp2))
    assert m2(tf.ones((2, 4))).shape == (2, 4)
    assert m2(tf.ones((2, 4, 1))).shape == (2, 4)


def test_functional_passes_training_to_its_layers():
    i = keras.Input((3,))
    m = keras.Model(i, Probe()(keras.layers.Dense(2)(i)))
    SEEN.clear()
    m(tf.ones((1, 3)), training=True)
    m(tf.ones((1, 3)))
    m(tf.ones((1, 3)), training=False)
    assert SEEN == [True, None, False]


class Shared(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.d = keras.layers.Dense(2)
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale")

    def build(self, shape):
        self.d.build(shape)
        self.k = self.d.kernel          # the sublayer's kernel tracked again as an own variable

    def call(self, x):
        return self.d(x) * self.scale


def test_weights_list_a_shared_variable_once():
    s = Shared()
    s(tf.ones((1, 3)))
    assert [v.path for v in s.weights] == ["shared/scale", "shared/dense/kernel", "shared/dense/bias"]
    assert len(s.trainable_weights) == 3
    m = keras.Sequential([keras.Input((3,)), s, keras.layers.Dense(1)])
    assert [v.path for v in m.weights] == ["shared/scale", "shared/dense/kernel", "shared/dense/bias",
                                           "sequential/dense_1/kernel", "sequential/dense_1/bias"]


@pytest.fixture
def no_added_losses():
    """The budgets are those of a process where no layer has added a loss yet: once one has (an earlier test), each
    outermost call clears every layer's added losses first, as Keras does (`Layer.__call__`)."""
    from tfcompat.keras.layers import base
    saved, base._CALL_LOSSES[0] = base._CALL_LOSSES[0], False
    yield
    base._CALL_LOSSES[0] = saved


def test_eager_mlp_call_stays_within_its_python_call_budget(no_added_losses):
    """bench_function's eager MLP as a Keras model: the forward call made 103 Python calls at the architecture
    step's base (5103853), 142 before issue 15's fast paths, 45 after."""
    model = keras.Sequential([keras.Input((32,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(10)])
    x = tf.constant(np.random.default_rng(1).normal(size=(64, 32)).astype("float32"))
    model(x)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(10):
        model(x)
    profile.disable()
    assert pstats.Stats(profile).total_calls / 10 <= 60


def test_eager_functional_call_stays_within_its_python_call_budget(no_added_losses):
    """The same MLP as a functional model: 467 Python calls per forward at the base, 348 before issue 15's fast
    paths, 52 after."""
    inp = keras.Input((32,))
    model = keras.Model(inp, keras.layers.Dense(10)(keras.layers.Dense(64, activation="relu")(inp)))
    x = tf.constant(np.random.default_rng(1).normal(size=(64, 32)).astype("float32"))
    model(x)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(10):
        model(x)
    profile.disable()
    assert pstats.Stats(profile).total_calls / 10 <= 70
