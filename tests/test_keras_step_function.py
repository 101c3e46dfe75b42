"""fit/evaluate/predict run their step as a tf.function by default (Keras's `run_eagerly=False`): Python side effects
at trace time only (counts recorded from TF 2.21 + Keras 3.15), values equal to the eager step's."""
import warnings

import numpy as np
import pytest

import tfcompat as tf
from tfcompat import keras
from tfcompat.keras.engine.step_function import StepFunction

layers = keras.layers
RNG = np.random.RandomState(0)
X = RNG.rand(100, 3).astype("float32")
Y = RNG.rand(100, 1).astype("float32")


class Printing(layers.Layer):
    def call(self, x, training=None):
        print("P", training)
        return x


def _printing_model(**compile_kwargs):
    m = keras.Sequential([keras.Input((3,)), Printing(), layers.Dense(1)])
    m.compile(optimizer="adam", loss="mse", **compile_kwargs)
    return m


def _prints(capsys):
    return capsys.readouterr().out.splitlines()


# -- side effects at trace time: TF 2.21 prints these lines (its shapes aside: a trace there sees `(None, 3)`) ------
def test_prints_happen_while_tracing_only(capsys):
    m = _printing_model(metrics=["mae"])
    _prints(capsys)
    m.fit(X, Y, batch_size=32, epochs=2, validation_data=(X[:50], Y[:50]), verbose=0)
    # the train step traced twice (its first trace creates the optimizer's variables), the test step once; the
    # last partial batch (4 samples) replays the same trace, as TF's trace on the data's spec covers it
    assert _prints(capsys) == ["P True", "P True", "P False"]
    m.evaluate(X, Y, batch_size=32, verbose=0)
    m.evaluate(X, Y, batch_size=10, verbose=0)
    assert _prints(capsys) == []
    m.predict(X, batch_size=32, verbose=0)          # batches of 32, then a retrace for the partial batch
    assert _prints(capsys) == ["P False", "P False"]
    m.predict(X, batch_size=32, verbose=0)
    m.predict(X[:64], batch_size=32, verbose=0)
    m.fit(X, Y, batch_size=10, epochs=1, verbose=0)
    m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
    assert _prints(capsys) == []
    m.train_on_batch(X[:32], Y[:32])                # Keras's inner step function: traced on the batch
    m.train_on_batch(X[:32], Y[:32])
    m.test_on_batch(X[:32], Y[:32])
    m.test_on_batch(X[:32], Y[:32])
    m.predict_on_batch(X[:32])
    m.predict_on_batch(X[:32])
    assert _prints(capsys) == ["P True", "P False", "P False"]
    m.compile(optimizer="adam", loss="mse")         # new step functions, a new optimizer
    m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
    assert _prints(capsys) == ["P True", "P True"]


def test_prints_with_steps_per_execution(capsys):
    m = _printing_model(steps_per_execution=2)
    _prints(capsys)
    m.fit(X, Y, batch_size=32, epochs=2, validation_data=(X[:50], Y[:50]), verbose=0)
    assert _prints(capsys) == ["P True", "P True", "P False"]
    m.evaluate(X, Y, batch_size=32, verbose=0)
    assert _prints(capsys) == []
    # Keras unrolls an execution's predict steps in one trace: [32, 32] traces both, [32, 4] retraces
    m.predict(X, batch_size=32, verbose=0)
    assert _prints(capsys) == ["P False"] * 4
    m.predict(X, batch_size=32, verbose=0)
    assert _prints(capsys) == []


def test_run_eagerly_and_run_functions_eagerly(capsys):
    m = _printing_model(run_eagerly=True)
    _prints(capsys)
    m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
    m.predict(X, batch_size=50, verbose=0)
    assert _prints(capsys) == ["P True"] * 2 + ["P False"] * 2
    tf.config.run_functions_eagerly(True)
    try:
        m = _printing_model()
        assert m.run_eagerly is False
        _prints(capsys)
        m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
        assert _prints(capsys) == ["P True"] * 2
    finally:
        tf.config.run_functions_eagerly(False)
    m = _printing_model()
    _prints(capsys)
    m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
    assert _prints(capsys) == ["P True"] * 2
    m.run_eagerly = True            # as in Keras: the train function made by the first fit stays
    m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
    assert _prints(capsys) == []
    m.make_train_function(force=True)
    m.fit(X, Y, batch_size=50, epochs=1, verbose=0)
    assert _prints(capsys) == ["P True"] * 2


# -- values equal the eager step's -------------------------------------------------------------------------------
def _fit_both(make, x, y, fit_kwargs=None, evaluate=True, epochs=3, batch_size=16, rtol=1e-5):
    """(traced, eager) results of the same seeded model: history, weights, evaluate, predict (equal to `rtol`)."""
    out = []
    for run_eagerly in (False, True):
        keras.utils.set_random_seed(3)
        m = make()
        m.compile(**m._test_compile, run_eagerly=run_eagerly)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            h = m.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0, shuffle=False, **(fit_kwargs or {}))
            ev = m.evaluate(x, y, batch_size=batch_size, verbose=0) if evaluate else None
            pred = m.predict(x, batch_size=batch_size, verbose=0)
        out.append((m, h.history, [v.numpy() for v in m.weights], ev, pred))
    (m1, h1, w1, e1, p1), (_, h2, w2, e2, p2) = out
    assert isinstance(m1.train_function, StepFunction) and not m1.train_function._eager
    assert isinstance(m1.test_function, StepFunction) and not m1.test_function._eager
    assert sorted(h1) == sorted(h2)
    for k in h2:
        np.testing.assert_allclose(h1[k], h2[k], rtol=rtol, atol=1e-6, err_msg=k)
    for a, b in zip(w1, w2):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-6)
    if evaluate:
        np.testing.assert_allclose(e1, e2, rtol=rtol, atol=1e-6)
    for a, b in zip(tf.nest.flatten(p1), tf.nest.flatten(p2)):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-6)
    return m1, h1


def _with_compile(model, **kwargs):
    model._test_compile = kwargs
    return model


XI = (np.arange(50 * 8 * 8, dtype="float32").reshape(50, 8, 8, 1) % 13) / 13.0
YI = np.arange(50) % 3


def test_convnet_with_batch_norm_and_partial_batch():
    def make():
        return _with_compile(keras.Sequential([
            keras.Input((8, 8, 1)), layers.Conv2D(4, 3, activation="relu"), layers.BatchNormalization(),
            layers.Conv2D(4, 3, activation="relu"), layers.GlobalAveragePooling2D(), layers.Dense(3)]),
            optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["accuracy"])
    m, _ = _fit_both(make, XI, YI)
    assert int(m.optimizer.iterations.numpy()) == 12        # 4 steps a epoch (the last of 2 samples), 3 epochs
    bn = m.layers[1]
    assert not np.allclose(bn.moving_mean.numpy(), 0)       # the replay updated the moving statistics


def test_mlp_with_regularizer_add_loss_and_sample_weight():
    class AddsLoss(layers.Layer):
        def call(self, x):
            self.add_loss(0.01 * tf.reduce_mean(tf.square(x)))
            return x

    def make():
        return _with_compile(keras.Sequential([
            keras.Input((3,)), layers.Dense(8, activation="relu", kernel_regularizer="l2"), layers.Dropout(0.0),
            AddsLoss(), layers.Dense(1)]), optimizer="rmsprop", loss="mse", metrics=["mae"])
    _fit_both(make, X, Y)
    _fit_both(make, X, Y, {"sample_weight": RNG.rand(100).astype("float32")})


def test_dropout_draws_new_masks_on_every_replay():
    # the replay of a random op draws again (the eager step draws other numbers: a trace consumes some), so the
    # fraction of dropped units per batch varies around the rate; a frozen mask would repeat one value
    fractions = {}

    class Reader(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_train_batch_end(self, batch, logs=None):
            self.seen.append(logs["dropped"] * (batch + 1))      # the running mean times the batches so far

    for run_eagerly in (False, True):

        def dropped(y_true, y_pred):
            return tf.reduce_mean(tf.cast(tf.equal(y_pred, 0.0), "float32"))
        keras.utils.set_random_seed(11)
        m = keras.Sequential([keras.Input((200,)), layers.Dropout(0.5),
                              layers.Dense(200, kernel_initializer="identity")])
        m.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", metrics=[dropped], run_eagerly=run_eagerly)
        reader = Reader()
        m.fit(np.ones((320, 200), "float32"), np.ones((320, 200), "float32"), batch_size=32, verbose=0,
              callbacks=[reader])
        per_batch = np.diff([0.0] + reader.seen)
        assert len(set(np.round(per_batch, 6))) >= 7 and np.all(np.abs(per_batch - 0.5) < 0.04)
        fractions[run_eagerly] = per_batch.mean()
    assert abs(fractions[False] - fractions[True]) < 0.02


def test_class_weight_auc_and_callbacks_reading_logs():
    seen = []

    class Reader(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(logs["loss"])

    yc = (X[:, 0] > 0.5).astype("float32")

    def make():
        return _with_compile(keras.Sequential([keras.Input((3,)), layers.Dense(4, activation="relu"),
                                               layers.Dense(1, activation="sigmoid")]),
                             optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss="binary_crossentropy",
                             metrics=[keras.metrics.AUC(name="auc"), "accuracy"])
    _fit_both(make, X, yc, {"class_weight": {0: 1.0, 1: 3.0}, "callbacks": [Reader()]})
    assert len(seen) == 2 * 3 * 7 and len(set(seen[:21])) == 21   # per batch, traced run then eager run


def test_masking_embedding_lstm_and_steps_per_execution():
    tokens = (np.arange(40 * 6).reshape(40, 6) * 7 % 9).astype("int64")
    tokens[:, 4:] = 0
    labels = (tokens.sum(1) % 2).astype("float32")

    def make():
        return _with_compile(keras.Sequential([keras.Input((6,), dtype="int64"), layers.Embedding(9, 4, mask_zero=True),
                                               layers.LSTM(5), layers.Dense(1)]),
                             optimizer="adam", loss=keras.losses.BinaryCrossentropy(from_logits=True),
                             steps_per_execution=3)
    _fit_both(make, tokens, labels, epochs=2, batch_size=6)


def test_gan_style_train_step_with_two_optimizers_is_traced(capsys):
    class GAN(keras.Model):
        def __init__(self):
            super().__init__()
            self.generator = keras.Sequential([keras.Input((2,)), layers.Dense(3)])
            self.discriminator = keras.Sequential([keras.Input((3,)), layers.Dense(1)])
            self.d_loss = keras.metrics.Mean(name="d_loss")
            self.g_loss = keras.metrics.Mean(name="g_loss")
            self.seed_generator = keras.random.SeedGenerator(1337)

        def compile(self, run_eagerly=False):
            super().compile(run_eagerly=run_eagerly)
            self.d_opt = keras.optimizers.Adam(0.01)
            self.g_opt = keras.optimizers.SGD(0.05)

        def train_step(self, data):
            print("traced")
            real = data[0]
            # a SeedGenerator's draw is a host callback in the trace: each replay draws the eager step's numbers
            noise = keras.random.normal((tf.shape(real)[0], 2), seed=self.seed_generator)
            bce = keras.losses.BinaryCrossentropy(from_logits=True)
            with tf.GradientTape() as tape:
                fake = self.generator(noise)
                d_loss = bce(tf.ones_like(real[:, :1]), self.discriminator(real)) + \
                    bce(tf.zeros_like(real[:, :1]), self.discriminator(fake))
            grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
            self.d_opt.apply_gradients(zip(grads, self.discriminator.trainable_weights))
            with tf.GradientTape() as tape:
                g_loss = bce(tf.ones_like(real[:, :1]), self.discriminator(self.generator(noise)))
            grads = tape.gradient(g_loss, self.generator.trainable_weights)
            self.g_opt.apply_gradients(zip(grads, self.generator.trainable_weights))
            self.d_loss.update_state(d_loss)
            self.g_loss.update_state(g_loss)
            return {"d_loss": self.d_loss.result(), "g_loss": self.g_loss.result()}

    data = X[:48]
    results = []
    for run_eagerly in (False, True):
        keras.utils.set_random_seed(5)
        gan = GAN()
        gan.compile(run_eagerly=run_eagerly)
        _prints(capsys)
        h = gan.fit(data, batch_size=16, epochs=3, verbose=0, shuffle=False)
        results.append((h.history, [v.numpy() for v in gan.weights], _prints(capsys)))
    (h1, w1, p1), (h2, w2, p2) = results
    assert p1 == ["traced"] * 2 and p2 == ["traced"] * 9     # traced twice (optimizer variables), eager 9 steps
    for k in ("d_loss", "g_loss"):
        np.testing.assert_allclose(h1[k], h2[k], rtol=1e-5)
    for a, b in zip(w1, w2):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# -- steps that cannot be replayed: one warning, then the eager step --------------------------------------------------
class _Untraceable(layers.Layer):
    def call(self, x):
        from tfcompat.eager.function import current_recorder
        if current_recorder() is not None:
            raise RuntimeError("no tracing here")
        return x


class _ReadsValues(layers.Layer):
    def call(self, x):
        if float(tf.reduce_sum(x).numpy()) > 1e9:      # a Python branch on the batch's values
            return x * 2.0
        return x


@pytest.mark.parametrize("layer,cause", [
    (_Untraceable, r"tracing it failed \(RuntimeError: .*no tracing here"),
    (_ReadsValues, r"its Python code ran again on a replay: it reads tensor values that changed since the trace"),
])
def test_untraceable_step_falls_back_to_eager_once(layer, cause):
    def make(run_eagerly):
        keras.utils.set_random_seed(7)
        m = keras.Sequential([keras.Input((3,)), layer(), layers.Dense(1)])
        m.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
        return m
    traced, eager = make(False), make(True)
    with pytest.warns(UserWarning) as record:
        h1 = traced.fit(X, Y, batch_size=16, epochs=2, verbose=0, shuffle=False)
        traced.fit(X, Y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    messages = [str(w.message) for w in record]
    assert len(messages) == 1
    assert messages[0].startswith("`fit` cannot run its step as a tf.function: ")
    assert messages[0].endswith("; it runs the step eagerly from now on.")
    import re
    assert re.search(cause, messages[0], re.S)
    h2 = eager.fit(X, Y, batch_size=16, epochs=2, verbose=0, shuffle=False)
    eager.fit(X, Y, batch_size=16, epochs=1, verbose=0, shuffle=False)
    np.testing.assert_allclose(h1.history["loss"], h2.history["loss"], rtol=1e-5)
    for a, b in zip(traced.weights, eager.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_error_of_the_step_itself_is_raised_without_warning():
    errors = []
    for run_eagerly in (True, False):
        m = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
        m.compile(optimizer="adam", loss="mse", run_eagerly=run_eagerly)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(Exception) as info:
                m.fit(X, Y.repeat(3, 1), batch_size=16, epochs=1, verbose=0)
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1] and not issubclass(errors[0][0], Warning)


def test_mixed_float16_loss_scaling_with_overflowing_steps():
    from tfcompat.keras import mixed_precision
    mixed_precision.set_global_policy("mixed_float16")
    try:
        def make():
            return _with_compile(keras.Sequential([keras.Input((3,)), layers.Dense(4), layers.Dense(1, dtype="float32")]),
                                 optimizer="adam", loss="mse")
        # the first steps' scaled gradients overflow float16; TF's traced step adds a half-precision Dense's bias in
        # the matmul's rounding, its eager step after it (7d5fa55): the two fits agree to float16 rounding only, a few
        # float16 ulps after two epochs
        m, h = _fit_both(make, X * 10.0, Y, epochs=2, rtol=1e-2)
    finally:
        mixed_precision.set_global_policy("float32")
    assert float(m.optimizer.dynamic_scale.numpy()) < 32768.0 and int(m.optimizer.iterations.numpy()) > 0


def test_fit_without_batch_logs_replays_the_same_trace_without_computing_them():
    class Batches(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            self.last = logs

    def fit(callbacks):
        tf.keras.utils.set_random_seed(1)
        m = keras.Sequential([keras.Input((3,)), layers.Dense(4, activation="relu"), layers.Dense(1)])
        m.compile(optimizer="adam", loss="mse", metrics=["mae"])
        history = m.fit(X, Y, batch_size=32, epochs=2, verbose=0, callbacks=callbacks, shuffle=False)
        return m, history.history
    quiet, quiet_history = fit([])
    batches = Batches()
    logged, logged_history = fit([batches])
    assert quiet_history == logged_history and sorted(batches.last) == ["loss", "mae"]
    assert all(np.array_equal(a.numpy(), b.numpy()) for a, b in zip(quiet.weights, logged.weights))
    assert [fn.experimental_get_tracing_count() for fn in quiet.train_function.functions] == [2]   # as with logs
    assert quiet.make_train_function(logs=False)((tf.constant(X[:32]), tf.constant(Y[:32]))) is None
