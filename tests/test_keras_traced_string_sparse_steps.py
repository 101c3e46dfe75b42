"""fit/evaluate/predict on batches of strings (TextVectorization in the model) or SparseTensors: the step is a
tf.function traced as in TF 2.21 + Keras 3.15.1 (a print in `call()` at trace time only, no warning), with
TF's losses and predictions (recorded from TF)."""
import warnings

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import keras


class Shout(keras.layers.Layer):
    def call(self, x):
        print("call")
        return x


def text_model():
    texts = ["the cat sat", "a dog ran far", "cats and dogs", "the end", "x y z w", "hello there", "the dog", "a cat"]
    labels = np.array([0, 1, 0, 1, 0, 1, 1, 0], dtype="float32")
    tv = keras.layers.TextVectorization(max_tokens=20, output_mode="count")
    tv.adapt(texts)
    inp = keras.Input(shape=(), dtype="string")
    dense = keras.layers.Dense(1)
    model = keras.Model(inp, dense(Shout()(tv(inp))))
    dense.set_weights([np.linspace(-0.5, 0.5, tv.vocabulary_size(), dtype="float32").reshape(-1, 1),
                       np.zeros(1, "float32")])
    return model, tf.data.Dataset.from_tensor_slices((texts, labels)).batch(3)


def sparse_model():
    rng = np.random.default_rng(0)
    dense_x = ((rng.random((10, 5)) > 0.6) * rng.random((10, 5))).astype("float32")
    y = np.arange(10, dtype="float32") / 10
    inp = keras.Input(shape=(5,), sparse=True)
    dense = keras.layers.Dense(1)
    model = keras.Model(inp, dense(Shout()(inp)))
    dense.set_weights([np.linspace(-0.5, 0.5, 5, dtype="float32").reshape(5, 1), np.zeros(1, "float32")])
    return model, tf.data.Dataset.from_tensor_slices((tf.sparse.from_dense(dense_x), y)).batch(4)


# TF 2.21: fit's losses (2 epochs), evaluate's loss, predict's outputs (rounded to 5 places); `call` printed once by
# the functional construction, once by fit's trace, once by evaluate's, twice by predict's (its last, smaller batch
# retraces on a generalized shape)
TF = {
    "text": ([0.958834, 0.429817], 0.259278,
             [0.26476, 0.909, 1.22113, 0.81268, 0.109, 0.82869, 0.34908, 0.06836]),
    "sparse": ([0.226449, 0.110026], 0.101221,
               [0.2875, 0.34005, 0.40635, 0.30328, 0.96448, 0.86909, 0.30902, 0.52118, 0.35243, 0.66018]),
}


@pytest.mark.parametrize("kind, make", [("text", text_model), ("sparse", sparse_model)])
def test_steps_trace_once_without_warning_and_match_tf(kind, make, capsys):
    model, ds = make()
    assert capsys.readouterr().out == "call\n"
    model.compile(keras.optimizers.SGD(0.1), "mse")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        history = model.fit(ds, epochs=2, verbose=0, shuffle=False)
        assert capsys.readouterr().out == "call\n"
        loss = model.evaluate(ds, verbose=0)
        assert capsys.readouterr().out == "call\n"
        pred = model.predict(ds, verbose=0)
        assert capsys.readouterr().out == "call\ncall\n"
    losses, eval_loss, outputs = TF[kind]
    np.testing.assert_allclose(history.history["loss"], losses, atol=2e-6)
    np.testing.assert_allclose(loss, eval_loss, atol=2e-6)
    np.testing.assert_allclose(pred[:, 0], outputs, atol=2e-5)


def test_a_step_reading_changing_values_still_falls_back():
    class ReadsValues(keras.layers.Layer):
        def call(self, x):
            return x * float(tf.reduce_sum(x).numpy())

    model = keras.Sequential([keras.Input((2,)), ReadsValues(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x = np.arange(16, dtype="float32").reshape(8, 2)
    with pytest.warns(UserWarning, match="its Python code ran again on a replay"):
        model.fit(x, np.ones(8), batch_size=2, epochs=1, verbose=0, shuffle=False)
