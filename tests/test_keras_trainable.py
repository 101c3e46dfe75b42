"""`layer.trainable`: frozen layers, nested models and BatchNormalization as Keras 3.15 (values recorded from TF 2.21)."""
import numpy as np

import tfcompat as tf
from tfcompat import keras
from tfcompat.keras import layers


def _data():
    rng = np.random.default_rng(0)
    return rng.random((8, 3)).astype("float32"), rng.random((8, 1)).astype("float32")


def _model(**compile_kwargs):
    model = keras.Sequential([keras.Input((3,)), layers.Dense(3), layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse", **compile_kwargs)
    return model


def _changes(model, step):
    before = model.layers[0].get_weights()[0].copy()
    step()
    return not np.allclose(before, model.layers[0].get_weights()[0])


def test_freezing_sets_the_variables_trainable_flag_and_back():
    dense = layers.Dense(3)
    dense.build((None, 4))
    dense.trainable = False
    assert [v.trainable for v in dense.weights] == [False, False]
    assert (len(dense.weights), len(dense.trainable_weights), len(dense.non_trainable_weights)) == (2, 0, 2)
    dense.trainable = True
    assert [v.trainable for v in dense.weights] == [True, True]


def test_variables_created_by_a_frozen_layer_are_frozen():
    dense = layers.Dense(3, trainable=False)
    dense.build((None, 2))
    assert [v.trainable for v in dense.weights] == [False, False]
    dense.trainable = True
    assert [v.trainable for v in dense.weights] == [True, True]


def test_batch_normalization_moving_statistics_stay_non_trainable():
    bn = layers.BatchNormalization()
    bn.build((None, 4))
    bn.trainable = False
    assert [(v.name, v.trainable) for v in bn.weights] == [
        ("gamma", False), ("beta", False), ("moving_mean", False), ("moving_variance", False)]
    bn.trainable = True
    assert [(v.name, v.trainable) for v in bn.weights] == [
        ("gamma", True), ("beta", True), ("moving_mean", False), ("moving_variance", False)]


def test_nested_model_freezing_and_unfreezing_one_inner_layer():
    inner = keras.Sequential([keras.Input((3,)), layers.Dense(2, name="a"), layers.BatchNormalization(name="bn")],
                             name="inner")
    outer = keras.Sequential([keras.Input((3,)), inner, layers.Dense(1, name="b")], name="outer")
    inner.trainable = False
    assert (len(outer.trainable_weights), len(outer.non_trainable_weights)) == (2, 6)
    assert [w.path for w in outer.trainable_weights] == ["outer/b/kernel", "outer/b/bias"]
    inner.layers[0].trainable = True      # Keras: the outer model trains it, the frozen inner model reports nothing
    assert inner.trainable is False and inner.trainable_weights == []
    assert [w.path for w in outer.trainable_weights] == ["inner/a/kernel", "inner/a/bias", "outer/b/kernel",
                                                         "outer/b/bias"]


def test_fit_leaves_a_frozen_layer_unchanged():
    # keras.io transfer learning guide: freeze, compile, fit
    x, y = _data()
    layer1 = layers.Dense(3, activation="relu")
    model = keras.Sequential([keras.Input(shape=(3,)), layer1, layers.Dense(3, activation="sigmoid")])
    layer1.trainable = False
    initial = layer1.get_weights()
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, np.repeat(y, 3, axis=1), verbose=0)
    for a, b in zip(initial, layer1.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_frozen_batch_normalization_runs_in_inference_mode_in_fit():
    x, y = _data()
    model = keras.Sequential([keras.Input((3,)), layers.BatchNormalization(), layers.Dense(1)])
    model.layers[0].trainable = False
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x * 5, y, verbose=0)
    np.testing.assert_array_equal(np.stack(model.layers[0].get_weights()),
                                  [[1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 1, 1]])


def test_trainable_changed_after_compile_takes_effect_as_in_keras():
    x, y = _data()
    model = _model()                              # frozen after compile, before the first fit: honoured
    model.layers[0].trainable = False
    assert not _changes(model, lambda: model.fit(x, y, verbose=0))
    model = _model()                              # after the first fit: fit's traced step keeps its variables
    model.fit(x, y, verbose=0)
    model.layers[0].trainable = False
    assert _changes(model, lambda: model.fit(x, y, verbose=0))
    model.make_train_function(force=True)         # ... until the train function is remade
    assert not _changes(model, lambda: model.fit(x, y, verbose=0))
    model = _model()
    model.fit(x, y, verbose=0)
    model.layers[0].trainable = False
    model.compile(optimizer="sgd", loss="mse")    # ... or the model recompiled
    assert not _changes(model, lambda: model.fit(x, y, verbose=0))
    model = _model(run_eagerly=True)              # an eager step reads `trainable_variables` every time
    model.fit(x, y, verbose=0)
    model.layers[0].trainable = False
    assert not _changes(model, lambda: model.fit(x, y, verbose=0))


def test_train_on_batch_traces_its_own_step():
    x, y = _data()
    model = _model()
    model.fit(x, y, verbose=0)
    model.layers[0].trainable = False
    assert not _changes(model, lambda: model.train_on_batch(x, y))
    model = _model()
    model.train_on_batch(x, y)
    model.layers[0].trainable = False
    assert _changes(model, lambda: model.train_on_batch(x, y))


def test_unfreezing_without_a_new_optimizer_is_keras_error():
    x, y = _data()
    optimizer = keras.optimizers.Adam()
    model = keras.Sequential([keras.Input((3,)), layers.Dense(3), layers.Dense(1)])
    model.layers[0].trainable = False
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(x, y, verbose=0)
    model.layers[0].trainable = True
    model.compile(optimizer=optimizer, loss="mse")
    try:
        model.fit(x, y, verbose=0)
    except ValueError as e:
        assert str(e).startswith("Unknown variable: <Variable path=sequential/dense/kernel, shape=(3, 3), "
                                 "dtype=float32")
        assert str(e).endswith("This optimizer can only be called for the variables it was originally built with. "
                               "When working with a new set of variables, you should recreate a new optimizer "
                               "instance.")
    else:
        raise AssertionError("fit did not raise")


def test_gradient_tape_still_watches_a_frozen_layers_variables():
    # On the TF backend the tf.Variable under a Keras variable keeps the trainable flag it was created with.
    dense = layers.Dense(2)
    dense.build((None, 3))
    dense.trainable = False
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(dense(tf.ones((1, 3))))
    assert len(tape.watched_variables()) == 2
    assert tape.gradient(y, dense.kernel) is not None
    v = keras.Variable(1.0, trainable=False)
    with tf.GradientTape() as tape:
        y = v * 2
    assert tape.gradient(y, v) is None


def test_summary_counts_a_frozen_variable_as_non_trainable():
    model = keras.Sequential([keras.Input((3,)), layers.Dense(3), layers.Dense(1)])
    model.layers[0].kernel.trainable = False
    lines = []
    model.summary(print_fn=lines.append)
    text = "\n".join(lines)
    assert " Trainable params: 7 (28.00 B)" in text and " Non-trainable params: 9 (36.00 B)" in text
    assert model.layers[0].trainable is True
