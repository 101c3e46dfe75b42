"""fit() cases from the Keras guides corpus (sequential_model, custom_train_step, writing_your_own_callbacks...).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


class _Recorder(keras.layers.Layer):
    """Notes the first feature of every sample the model sees (fit runs eagerly)."""

    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def call(self, x):
        self.seen.extend(np.asarray(x)[:, 0].astype(int).tolist())
        return x


def _fit_order(n, bs, seed, epochs, shuffle):
    if seed is not None:
        keras.utils.set_random_seed(seed)
    seen = []
    m = keras.Sequential([keras.Input((1,)), _Recorder(seen), keras.layers.Dense(1)])
    m.compile("sgd", "mse", run_eagerly=True)
    del seen[:]         # what building the model saw
    m.fit(np.arange(n, dtype="float32")[:, None], np.zeros((n, 1), "float32"), batch_size=bs, epochs=epochs,
          shuffle=shuffle, verbose=0)
    return [seen[i * n:(i + 1) * n] for i in range(epochs)]


@pytest.mark.parametrize("n, bs, seed, epochs, shuffle, expected", [
    # TF 2.21: tf.random.shuffle in Keras's tf.data pipeline, op seed 0, a fresh kernel each epoch
    (10, 4, 1, 2, True, [[2, 4, 0, 8, 9, 1, 5, 6, 3, 7]] * 2),
    (10, 4, 1, 2, "batch", [[0, 1, 2, 3, 7, 6, 4, 5, 8, 9]] * 2),
    (23, 5, 0, 1, True, [[18, 11, 10, 13, 1, 3, 2, 20, 8, 16, 12, 6, 5, 9, 22, 7, 14, 21, 17, 0, 4, 15, 19]]),
    (23, 5, 0, 1, "batch", [[2, 3, 4, 1, 0, 6, 8, 7, 9, 5, 10, 12, 13, 14, 11, 17, 19, 16, 15, 18, 22, 21, 20]]),
    (13, 4, 7, 1, True, [[11, 5, 6, 3, 10, 8, 4, 7, 1, 9, 2, 12, 0]]),
])
def test_fit_shuffle_order_under_a_seed(n, bs, seed, epochs, shuffle, expected):
    assert _fit_order(n, bs, seed, epochs, shuffle) == expected


def test_fit_batch_shuffle_keeps_batches_in_order_unseeded():
    order = _fit_order(10, 4, None, 2, "batch")
    for epoch in order:
        assert [sorted(epoch[:4]), sorted(epoch[4:8]), sorted(epoch[8:])] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_seeded_shuffled_fit_losses():
    keras.utils.set_random_seed(1)
    x = np.random.RandomState(0).rand(64, 4).astype("float32")
    y = x.sum(1, keepdims=True)
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"), keras.layers.Dense(1)])
    m.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    h = m.fit(x, y, epochs=2, batch_size=16, verbose=0)
    # TF 2.21
    np.testing.assert_allclose(h.history["loss"], [3.486117362976074, 2.839547634124756], rtol=1e-5)


def test_data_cardinality_message_lists_each_part():
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    m.compile("adam", "mse")
    with pytest.raises(ValueError) as e:
        m.fit(np.ones((4, 4)), np.ones((3, 2)), verbose=0)
    # TF 2.21
    assert str(e.value) == ("Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                            "samples.'x' sizes: 4\n'y' sizes: 3\n")
    with pytest.raises(ValueError) as e:
        m.fit(np.ones((4, 4)), np.ones((4, 2)), sample_weight=np.ones(5), verbose=0)
    assert str(e.value).endswith("samples.'x' sizes: 4\n'y' sizes: 4\n'sample_weight' sizes: 5\n")


def test_unknown_optimizer_name_message():
    with pytest.raises(ValueError, match="^Could not interpret optimizer identifier: nope$"):
        keras.optimizers.get("nope")
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="^Could not interpret optimizer identifier: nope$"):
        m.compile(optimizer="nope", loss="mse")


def test_sequential_pop_as_keras_layer_list():
    # TF 2.21: Keras pops from its layer list (the InputLayer first in it) and rebuilding an empty list raises
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    assert m.pop().name.startswith("dense")
    assert m.layers == []
    with pytest.raises(IndexError, match="list index out of range"):
        m.pop()
    with pytest.raises(IndexError, match="list index out of range"):
        m.pop()
    with pytest.raises(IndexError, match="list index out of range"):
        keras.Sequential().pop()
    s = keras.Sequential([keras.layers.Dense(2)])
    with pytest.raises(IndexError, match="list index out of range"):
        s.pop()
    assert s.layers == []
    assert isinstance(keras.Sequential([keras.layers.Dense(2)]).pop(rebuild=False), keras.layers.Dense)
    two = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    assert two.pop().units == 1 and two.built and [la.units for la in two.layers] == [2]


def _two_output_model(eager):
    keras.utils.set_random_seed(3)
    i = keras.Input((4,), name="a")
    o1 = keras.layers.Dense(1, name="o1")(i)
    o2 = keras.layers.Dense(2, name="o2")(i)
    mm = keras.Model(i, {"o1": o1, "o2": o2})
    mm.compile("sgd", loss={"o1": "mse", "o2": "mse"}, metrics={"o1": ["mae"]}, run_eagerly=eager)
    return mm


@pytest.mark.parametrize("eager, fit_logs, evaluated", [
    # TF 2.21: in a traced step each output's loss tracker averages over batches (the batch dim is unknown there);
    # run eagerly it weighs each batch by its size, as the total `loss` always does
    (False, {"loss": 12.29247, "o1_loss": 7.51565, "o1_mae": 2.57579, "o2_loss": 4.72684},
     [11.06569, 6.66862, 4.44887, 2.39874]),
    (True, {"loss": 12.29247, "o1_loss": 7.49881, "o1_mae": 2.57579, "o2_loss": 4.79365},
     [11.06569, 6.57773, 4.48797, 2.39874]),
])
def test_per_output_loss_trackers(eager, fit_logs, evaluated):
    x = np.random.RandomState(0).rand(50, 4).astype("float32")
    y = x.sum(1, keepdims=True)
    ys = {"o1": y, "o2": np.hstack([y, y])}
    mm = _two_output_model(eager)
    h = mm.fit(x, ys, epochs=1, verbose=0, shuffle=False)
    assert sorted(h.history) == sorted(fit_logs)
    for k, v in fit_logs.items():
        np.testing.assert_allclose(h.history[k][0], v, rtol=2e-5)
    np.testing.assert_allclose(mm.evaluate(x, ys, verbose=0), evaluated, rtol=2e-5)
    np.testing.assert_allclose(mm.evaluate(x[:48], {k: v[:48] for k, v in ys.items()}, batch_size=16, verbose=0),
                               [11.15709, 6.61511, 4.54197, 2.40526], rtol=2e-5)


class _EpochSamples(keras.callbacks.Callback):
    def __init__(self, seen, out):
        super().__init__()
        self.seen, self.out = seen, out

    def on_epoch_end(self, epoch, logs=None):
        self.out.append(list(self.seen))
        del self.seen[:]


@pytest.mark.parametrize("n, bs, spe, epochs, shuffle, expected", [
    # TF 2.21: epochs go on through one pass of the data; a pass running out ends the epoch early (a warning)
    (20, 8, 2, 3, False, [list(range(16)), [16, 17, 18, 19], list(range(16))]),
    (20, 8, 2, 3, True, [[12, 11, 4, 7, 15, 9, 13, 0, 8, 5, 3, 16, 6, 19, 17, 2], [1, 10, 14, 18],
                         [12, 11, 4, 7, 15, 9, 13, 0, 8, 5, 3, 16, 6, 19, 17, 2]]),
    (12, 4, 5, 2, False, [list(range(12))] * 2),
])
def test_fit_steps_per_epoch_continues_the_pass(n, bs, spe, epochs, shuffle, expected):
    keras.utils.set_random_seed(1)
    seen, out = [], []
    m = keras.Sequential([keras.Input((1,)), _Recorder(seen), keras.layers.Dense(1)])
    m.compile("sgd", "mse", run_eagerly=True)
    del seen[:]
    with pytest.warns(UserWarning, match="Your input ran out of data; interrupting training"):
        m.fit(np.arange(n, dtype="float32")[:, None], np.zeros((n, 1), "float32"), batch_size=bs, epochs=epochs,
              steps_per_epoch=spe, shuffle=shuffle, verbose=0, callbacks=[_EpochSamples(seen, out)])
    assert out == expected


def test_single_output_loss_weights_list():
    x = np.random.RandomState(0).rand(40, 3).astype("float32")
    y = (x.sum(1) > 1.5).astype("int32")
    keras.utils.set_random_seed(5)
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="softmax")])
    m.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy", metrics=["accuracy"], loss_weights=[2.0])
    h = m.fit(x, y, epochs=1, verbose=0)
    # TF 2.21 (tfcompat raised TypeError: a one-item list was taken as the weight itself)
    np.testing.assert_allclose(h.history["loss"], [1.27883], rtol=1e-4)
    np.testing.assert_allclose(h.history["accuracy"], [0.675])
