"""Keras training API (compile/fit/evaluate/predict, callbacks, progress bar, summary); golden values from
TF 2.21 + Keras 3.15 (recorded by running the same code there, COLUMNS=80, stdout not a terminal)."""
import contextlib
import csv
import os
import re
import warnings

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras
layers = keras.layers

X = (np.arange(40, dtype="float32").reshape(10, 4) % 7) / 7.0
Y = np.arange(10) % 3
KERNEL = np.array([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [-0.7, 0.8, 0.9], [0.05, 0.1, -0.1]], "float32")


@pytest.fixture(autouse=True)
def _columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def make_model(loss=None, metrics=("accuracy",), lr=0.1):
    m = keras.Sequential([keras.Input((4,)), layers.Dense(3, bias_initializer="zeros")])
    m.layers[0].kernel.assign(KERNEL)
    m.compile(optimizer=keras.optimizers.SGD(lr), metrics=list(metrics) if metrics else None,
              loss=loss or keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return m


def test_evaluate_and_on_batch_values():
    m = make_model()
    np.testing.assert_allclose(m.evaluate(X, Y, verbose=0, batch_size=4), [1.0778310298919678, 0.5], rtol=1e-6)
    d = m.evaluate(X, Y, verbose=0, return_dict=True)
    assert list(d) == ["accuracy", "loss"]
    np.testing.assert_allclose(d["loss"], 1.0778312683105469, rtol=1e-6)
    np.testing.assert_allclose(m.test_on_batch(X, Y), [1.0778312683105469, 0.5], rtol=1e-6)
    np.testing.assert_allclose(m.train_on_batch(X, Y), [1.0778312683105469, 0.5], rtol=1e-6)
    p = m.predict_on_batch(X[:1])
    assert isinstance(p, np.ndarray)


def test_fit_history_keys_and_values():
    m = make_model()
    h = m.fit(X, Y, epochs=3, batch_size=4, shuffle=False, verbose=0, validation_data=(X[:5], Y[:5]))
    assert list(h.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    np.testing.assert_allclose(h.history["loss"], [1.0753986835479736, 1.049551248550415, 1.0314271450042725],
                               rtol=1e-5)
    np.testing.assert_allclose(h.history["val_loss"], [0.9456616640090942, 0.945854663848877, 0.9490772485733032],
                               rtol=1e-5)
    assert h.params == {"verbose": 0, "epochs": 3, "steps": 3} and h.epoch == [0, 1, 2]
    assert m.history is h


def test_fit_validation_split_mse_mae():
    m = make_model(loss="mse", metrics=["mae"])
    h = m.fit(X, np.ones((10, 3), "float32"), epochs=2, batch_size=4, shuffle=False, verbose=0,
              validation_split=0.2)
    np.testing.assert_allclose(h.history["loss"], [0.6724961996078491, 0.44961076974868774], rtol=1e-5)
    np.testing.assert_allclose(h.history["val_mae"], [0.5513715744018555, 0.44728919863700867], rtol=1e-5)


def test_weighted_metrics_and_names():
    m = make_model(metrics=["accuracy", "sparse_top_k_categorical_accuracy"])
    m.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy", "sparse_top_k_categorical_accuracy"], weighted_metrics=["accuracy"])
    h = m.fit(X, Y, epochs=1, batch_size=4, shuffle=False, verbose=0, sample_weight=np.linspace(0, 1, 10))
    assert list(h.history) == ["accuracy", "loss", "sparse_top_k_categorical_accuracy", "weighted_accuracy"]
    np.testing.assert_allclose(h.history["loss"], [0.5689782500267029], rtol=1e-5)
    np.testing.assert_allclose(h.history["weighted_accuracy"], [0.444444477558136], rtol=1e-6)
    assert m.metrics_names == ["loss", "compile_metrics"]


def test_accuracy_resolution():
    m = make_model(loss="categorical_crossentropy", metrics=["accuracy", "acc"])
    m.fit(X, np.eye(3)[Y], verbose=0)
    assert [(x.name, type(x).__name__) for x in m._compile_metrics.metrics] == [
        ("accuracy", "CategoricalAccuracy"), ("acc", "CategoricalAccuracy")]
    m = make_model(loss="sparse_categorical_crossentropy")
    m.fit(X, Y, verbose=0)
    assert [(x.name, type(x).__name__) for x in m._compile_metrics.metrics] == [
        ("accuracy", "SparseCategoricalAccuracy")]


def test_multi_output_losses_and_metrics():
    a = keras.Input((4,), name="inp")
    o1 = layers.Dense(1, name="o1", kernel_initializer="ones")(a)
    o2 = layers.Dense(3, name="o2", kernel_initializer="ones")(a)
    mm = keras.Model(a, [o1, o2])
    mm.compile(optimizer="sgd", loss=["mse", keras.losses.SparseCategoricalCrossentropy(from_logits=True)],
               loss_weights=[0.5, 2.0], metrics=[["mae"], ["accuracy"]])
    d = mm.evaluate(X, [np.ones((10, 1)), Y], verbose=0, return_dict=True)
    assert list(d) == ["loss", "o1_loss", "o1_mae", "o2_accuracy", "o2_loss"]
    np.testing.assert_allclose(list(d.values()), [2.5513062477111816, 0.708163321018219, 0.7000000476837158,
                                                  0.4000000059604645, 1.0986123085021973], rtol=1e-6)
    np.testing.assert_allclose(mm.evaluate(X, [np.ones((10, 1)), Y], verbose=0),
                               [2.5513062477111816, 0.708163321018219, 1.0986123085021973, 0.7000000476837158,
                                0.4000000059604645], rtol=1e-6)
    assert mm.metrics_names == ["loss", "compile_metrics", "o1_loss", "o2_loss"]
    md = keras.Model(a, {"p": o1, "q": o2})
    md.compile(optimizer="sgd", loss={"p": "mse", "q": keras.losses.SparseCategoricalCrossentropy(from_logits=True)},
               metrics={"q": "accuracy"})
    d = md.evaluate(X, {"p": np.ones((10, 1)), "q": Y}, verbose=0, return_dict=True)
    assert list(d) == ["loss", "p_loss", "q_accuracy", "q_loss"]
    np.testing.assert_allclose(d["loss"], 1.806775689125061, rtol=1e-6)


def test_predict_numpy_and_dataset_and_generator():
    m = make_model()
    p = m.predict(X, batch_size=4, verbose=0)
    assert p.dtype == np.float32 and p.shape == (10, 3)
    np.testing.assert_allclose(p, X @ KERNEL, rtol=1e-5, atol=1e-6)
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    np.testing.assert_allclose(m.evaluate(ds, verbose=0), [1.0778310298919678, 0.5], rtol=1e-6)
    np.testing.assert_allclose(m.predict(tf.data.Dataset.from_tensor_slices(X).batch(3), verbose=0), p, rtol=1e-6)

    def gen():
        while True:
            yield X[:5], Y[:5]
    with pytest.warns(UserWarning, match="provided as a generator"):     # TF 2.21 warns: shuffle=True by default
        h = m.fit(gen(), steps_per_epoch=2, epochs=2, verbose=0)
    assert len(h.history["loss"]) == 2


def test_loss_decreases_with_adam_and_class_weight():
    rng = np.random.RandomState(0)
    x = rng.rand(64, 4).astype("float32")
    y = (x.sum(1) > 2).astype("int64")
    m = keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="relu"), layers.Dense(2)])
    m.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    h = m.fit(x, y, epochs=5, batch_size=16, verbose=0, class_weight={0: 1.0, 1: 2.0})
    assert h.history["loss"][-1] < h.history["loss"][0]


def test_custom_train_step_and_regularization_loss():
    class Custom(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = layers.Dense(3, kernel_regularizer=keras.regularizers.L2(0.1))

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(grads, self.trainable_variables)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    c = Custom()
    c.compile(optimizer=keras.optimizers.SGD(0.1), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    c(X)
    c.d.kernel.assign(KERNEL)
    reg = 0.1 * float((KERNEL ** 2).sum())
    np.testing.assert_allclose(c.evaluate(X, Y, verbose=0, batch_size=10)[0], 1.0778312683105469 + reg, rtol=1e-5)
    h = c.fit(X, Y, epochs=2, batch_size=5, verbose=0)
    assert list(h.history) == ["accuracy", "loss"]


HOOKS = ["on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
         "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
         "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end"]


def _recording_hook(name):
    def hook(self, *args, **kwargs):
        self.calls.append(name)
    return hook


class Recorder(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []


for _name in HOOKS:
    setattr(Recorder, _name, _recording_hook(_name))


def test_callback_hook_order():
    m = make_model()
    r = Recorder()
    m.fit(X, Y, epochs=1, batch_size=5, verbose=0, validation_data=(X, Y), callbacks=[r])
    assert r.calls == ["on_train_begin", "on_epoch_begin", "on_train_batch_begin", "on_train_batch_end",
                       "on_train_batch_begin", "on_train_batch_end", "on_test_begin", "on_test_batch_begin",
                       "on_test_batch_end", "on_test_batch_begin", "on_test_batch_end", "on_test_end", "on_epoch_end", "on_train_end"]


def test_early_stopping_restore_best_weights():
    m = make_model(lr=5.0)
    es = keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    h = m.fit(X, Y, epochs=30, batch_size=10, verbose=0, shuffle=False, callbacks=[es])
    losses = h.history["loss"]
    assert len(losses) < 30 and es.stopped_epoch == len(losses) - 1
    best = int(np.argmin(losses))
    assert es.best_epoch == best and es.best == losses[best]


def test_reduce_lr_and_scheduler_and_nan():
    m = make_model(lr=0.0)
    rl = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=0.0)
    m.optimizer.learning_rate = 0.1
    h = m.fit(X, Y, epochs=3, batch_size=10, verbose=0, callbacks=[keras.callbacks.LearningRateScheduler(
        lambda e, lr: 0.0), rl])
    np.testing.assert_allclose(h.history["learning_rate"], [0.0, 0.0, 0.0])
    m = make_model(lr=0.1)
    h = m.fit(X, Y, epochs=3, batch_size=10, verbose=0,
              callbacks=[keras.callbacks.LearningRateScheduler(lambda e, lr: lr * 0.5)])
    np.testing.assert_allclose(h.history["learning_rate"], [0.05, 0.025, 0.0125], rtol=1e-6)
    m = make_model()
    x_nan = X.copy()
    x_nan[0, 0] = np.nan
    h = m.fit(x_nan, Y, epochs=3, batch_size=10, verbose=0, callbacks=[keras.callbacks.TerminateOnNaN()])
    assert len(h.history["loss"]) == 1


def test_csv_logger_and_checkpoint_paths(tmp_path):
    m = make_model()
    path = tmp_path / "log.csv"
    m.fit(X, Y, epochs=2, batch_size=5, verbose=0, validation_data=(X, Y), callbacks=[keras.callbacks.CSVLogger(path)])
    rows = list(csv.reader(open(path)))
    assert rows[0] == ["epoch", "accuracy", "loss", "val_accuracy", "val_loss"] and len(rows) == 3
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        keras.callbacks.ModelCheckpoint("w.h5", save_weights_only=True)
    saved = []

    class Fake(keras.callbacks.ModelCheckpoint):
        pass
    ck = Fake(str(tmp_path / "w.{epoch:02d}-{val_loss:.2f}.weights.h5"), save_weights_only=True, save_best_only=True)
    m.save_weights = lambda fp, overwrite=True: saved.append(os.path.basename(fp))
    m.fit(X, Y, epochs=2, batch_size=5, verbose=0, validation_data=(X, Y), callbacks=[ck])
    assert saved and all(re.fullmatch(r"w\.0[12]-\d\.\d\d\.weights\.h5", s) for s in saved)


def test_lambda_callback_and_remote_monitor():
    seen = []
    m = make_model()
    m.fit(X, Y, epochs=2, verbose=0, callbacks=[keras.callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))))])
    assert seen == [(0, ["accuracy", "loss"]), (1, ["accuracy", "loss"])]
    with pytest.raises(NotImplementedError):
        keras.callbacks.RemoteMonitor()


def _mask(text):
    return re.sub(r"\d+(ms|us|s)/step", "T/step", re.sub(r"\x1b\[1m\d+s\x1b\[0m", "\x1b[1mTs\x1b[0m", text))


def test_progress_bar_final_lines(capsys):
    m = make_model()
    m.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=2, validation_data=(X, Y))
    out = capsys.readouterr().out
    # Keras 3: "Epoch 1/2\n3/3 - 0s - 21ms/step - accuracy: 0.5000 - loss: 1.0314 - ..." (values of this model)
    assert re.sub(r"- \d+s - \d+(ms|us)/step", "- Ts - T/step", out) == (
        "Epoch 1/2\n3/3 - Ts - T/step - accuracy: 0.5000 - loss: 1.0754 - val_accuracy: 0.5000 - val_loss: 1.0497\n"
        "Epoch 2/2\n3/3 - Ts - T/step - accuracy: 0.5000 - loss: 1.0496 - val_accuracy: 0.5000 - val_loss: 1.0300\n")
    m = make_model()
    m.fit(X, Y, epochs=2, batch_size=4, shuffle=False, verbose=1, validation_data=(X, Y))
    out = capsys.readouterr().out
    final = out.split("\r")[-1]
    assert out.startswith("Epoch 1/2\n\r\x1b[1m1/3\x1b[0m \x1b[32m━━━━━━\x1b[0m\x1b[37m━━━━━━━━━━━━━━\x1b[0m ")
    assert _mask(final) == ("\x1b[1m3/3\x1b[0m \x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m \x1b[1mTs\x1b[0m "
                            "T/step - accuracy: 0.5000 - loss: 1.0496 - val_accuracy: 0.5000 - val_loss: 1.0300\n")
    m.evaluate(X, Y, batch_size=4)
    final = capsys.readouterr().out.split("\r")[-1]
    assert _mask(final).startswith("\x1b[1m3/3\x1b[0m \x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m "
                                   "\x1b[1mTs\x1b[0m T/step - accuracy: 0.")
    m.predict(X, batch_size=4, verbose=2)
    assert _mask(capsys.readouterr().out) == "3/3 - 0s - T/step\n"


def test_progbar_formatting():
    from tfcompat.keras.utils_progbar import format_time
    assert format_time(0.0123, "step") == " 12ms/step" and format_time(2e-5, "step") == " 20us/step"
    assert format_time(3.2, "step") == " 3s/step"


SUMMARIES = {
 "seq_post": "Model: \"seq\"\n┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n│ d1 (Dense)                      │ (None, 8)              │            40 │\n├─────────────────────────────────┼────────────────────────┼───────────────┤\n│ d2 (Dense)                      │ (None, 3)              │            27 │\n└─────────────────────────────────┴────────────────────────┴───────────────┘\n Total params: 203 (816.00 B)\n Trainable params: 67 (268.00 B)\n Non-trainable params: 0 (0.00 B)\n Optimizer params: 136 (548.00 B)\n",
 "unbuilt": "Model: \"sequential\"\n┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n│ dense (Dense)                   │ ?                      │   0 (unbuilt) │\n├─────────────────────────────────┼────────────────────────┼───────────────┤\n│ dense_1 (Dense)                 │ ?                      │   0 (unbuilt) │\n└─────────────────────────────────┴────────────────────────┴───────────────┘\n Total params: 0 (0.00 B)\n Trainable params: 0 (0.00 B)\n Non-trainable params: 0 (0.00 B)\n",
 "func": "Model: \"func\"\n┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓\n┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃\n┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩\n│ img (InputLayer)                │ (None, 28, 28, 1)      │             0 │\n├─────────────────────────────────┼────────────────────────┼───────────────┤\n│ conv2d (Conv2D)                 │ (None, 26, 26, 16)     │           160 │\n├─────────────────────────────────┼────────────────────────┼───────────────┤\n│ global_average_pooling2d        │ (None, 16)             │             0 │\n│ (GlobalAveragePooling2D)        │                        │               │\n├─────────────────────────────────┼────────────────────────┼───────────────┤\n│ dense_2 (Dense)                 │ (None, 10)             │           170 │\n└─────────────────────────────────┴────────────────────────┴───────────────┘\n Total params: 330 (1.29 KB)\n Trainable params: 330 (1.29 KB)\n Non-trainable params: 0 (0.00 B)\n",
 "multi": "Model: \"functional_1\"\n┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓\n┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃\n┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩\n│ a (InputLayer)      │ (None, 3)         │          0 │ -                 │\n├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n│ b (InputLayer)      │ (None, 3)         │          0 │ -                 │\n├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n│ concatenate         │ (None, 6)         │          0 │ a[0][0], b[0][0]  │\n│ (Concatenate)       │                   │            │                   │\n├─────────────────────┼───────────────────┼────────────┼───────────────────┤\n│ dense_3 (Dense)     │ (None, 1)         │          7 │ concatenate[0][0] │\n└─────────────────────┴───────────────────┴────────────┴───────────────────┘\n Total params: 7 (28.00 B)\n Trainable params: 7 (28.00 B)\n Non-trainable params: 0 (0.00 B)\n"
}


def test_summary_tables(capsys):
    m = keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="relu", name="d1"),
                          layers.Dense(3, name="d2")], name="seq")
    m.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    m.fit(X, Y, epochs=1, verbose=0, batch_size=5)
    m.summary()
    assert capsys.readouterr().out == SUMMARIES["seq_post"]
    keras.Sequential([layers.Dense(8, name="dense"), layers.Dense(2, name="dense_1")], name="sequential").summary()
    assert capsys.readouterr().out == SUMMARIES["unbuilt"]
    inp = keras.Input((28, 28, 1), name="img")
    h = layers.Conv2D(16, 3, activation="relu", name="conv2d")(inp)
    h = layers.GlobalAveragePooling2D(name="global_average_pooling2d")(h)
    keras.Model(inp, layers.Dense(10, name="dense_2")(h), name="func").summary()
    assert capsys.readouterr().out == SUMMARIES["func"]
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    c = layers.Concatenate(name="concatenate")([a, b])
    keras.Model([a, b], layers.Dense(1, name="dense_3")(c), name="functional_1").summary()
    assert capsys.readouterr().out == SUMMARIES["multi"]


@contextlib.contextmanager
def _no_jit_fallback():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        yield
    assert not [str(w.message) for w in record if "jit_compile" in str(w.message)]


# -- jit_compile -------------------------------------------------------------------------------------------------------
XJ = (np.arange(200, dtype="float32").reshape(50, 4) % 11) / 11.0 - 0.4
YJ = np.arange(50) % 3


def _jit_model(jit_compile, train_step=None):
    keras.utils.set_random_seed(7)
    cls = keras.Sequential if train_step is None else type("Custom", (keras.Sequential,), {"train_step": train_step})
    m = cls([keras.Input((4,)), layers.Dense(8, activation="relu"), layers.BatchNormalization(), layers.Dense(3)])
    m.compile(optimizer=keras.optimizers.Adam(0.01), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"], jit_compile=jit_compile)
    return m


def _assert_same_training(jit, eager, history_jit, history_eager):
    for key, values in history_eager.history.items():
        np.testing.assert_allclose(history_jit.history[key], values, rtol=1e-5, atol=1e-6)
    for a, b in zip(jit.weights, eager.weights):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_jit_compile_resolution():
    from tfcompat.keras.engine.step_function import StepFunction
    m = _jit_model("auto")      # Keras 3 on TF: XLA only on GPU machines; tfcompat: a tf.function, not compiled
    assert m.jit_compile is False and m.run_eagerly is False
    assert isinstance(m.make_train_function(), StepFunction)
    with pytest.warns(UserWarning, match="If `run_eagerly` is True, then `jit_compile` cannot also be True. "
                                         "Disabling `jit_compile`."):
        m.compile(optimizer="sgd", loss="mse", jit_compile=True, run_eagerly=True)
    assert m.jit_compile is False and m.make_train_function() == m.train_step
    m.compile(optimizer="sgd", loss="mse", jit_compile=True)
    assert m.jit_compile is True and m.make_train_function() is m.make_train_function()


def test_jit_compile_replay_equals_eager(monkeypatch):
    # the recorded train step replayed without torch.compile (which takes tens of seconds on 2 cores): the
    # trainer's jit path (eager first step, traced core, a retrace for the last partial batch, eager optimizer)
    import torch
    monkeypatch.setattr(torch, "compile", lambda fn, **kwargs: fn)
    jit, eager = _jit_model(True), _jit_model(False)
    with _no_jit_fallback():
        h_jit = jit.fit(XJ, YJ, batch_size=16, epochs=3, verbose=0, shuffle=False)
    h_eager = eager.fit(XJ, YJ, batch_size=16, epochs=3, verbose=0, shuffle=False)
    assert jit.train_function._function.experimental_get_tracing_count() == 2     # batches of 16, then of 2
    _assert_same_training(jit, eager, h_jit, h_eager)
    assert int(jit.optimizer.iterations.numpy()) == 12
    np.testing.assert_allclose(jit.evaluate(XJ, YJ, verbose=0), eager.evaluate(XJ, YJ, verbose=0), rtol=1e-5)


@pytest.mark.skipif(not os.environ.get("TFCOMPAT_TEST_TORCH_COMPILE"),
                    reason="torch.compile takes ~15 s per trace on 2 cores; set TFCOMPAT_TEST_TORCH_COMPILE=1")
def test_jit_compile_torch_compile_equals_eager():
    jit, eager = _jit_model(True), _jit_model(False)
    with _no_jit_fallback():
        h_jit = jit.fit(XJ[:48], YJ[:48], batch_size=16, epochs=2, verbose=0, shuffle=False)
    h_eager = eager.fit(XJ[:48], YJ[:48], batch_size=16, epochs=2, verbose=0, shuffle=False)
    _assert_same_training(jit, eager, h_jit, h_eager)


class _Untraceable(layers.Layer):
    def call(self, x):
        from tfcompat.eager.function import current_recorder
        if current_recorder() is not None:
            raise RuntimeError("no tracing here")
        return x


def test_jit_compile_falls_back_to_eager_once():
    def make(jit_compile):
        keras.utils.set_random_seed(7)
        m = keras.Sequential([keras.Input((4,)), _Untraceable(), layers.Dense(3)])
        m.compile(optimizer=keras.optimizers.Adam(0.01), metrics=["accuracy"], jit_compile=jit_compile,
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), run_eagerly=not jit_compile)
        return m
    jit, eager = make(True), make(False)
    with pytest.warns(UserWarning) as record:
        h_jit = jit.fit(XJ, YJ, batch_size=16, epochs=2, verbose=0, shuffle=False)
    messages = [str(w.message) for w in record if "jit_compile" in str(w.message)]
    assert len(messages) == 1 and "no tracing here" in messages[0]
    assert messages[0].startswith("`jit_compile=True`: tracing or compiling the train step failed (RuntimeError: ")
    assert messages[0].endswith("); `fit` runs the train step eagerly.")
    h_eager = eager.fit(XJ, YJ, batch_size=16, epochs=2, verbose=0, shuffle=False)
    _assert_same_training(jit, eager, h_jit, h_eager)


def test_jit_compile_failure_after_trace_leaves_no_trace_effects(monkeypatch):
    # torch.compile fails after the trace ran the body (metrics, BatchNorm statistics): the eager step that follows
    # starts from the variables as they were
    import torch

    def fail(fn, **kwargs):
        raise RuntimeError("no compiler")
    monkeypatch.setattr(torch, "compile", fail)
    jit, eager = _jit_model(True), _jit_model(False)
    with pytest.warns(UserWarning, match=r"^`jit_compile=True`: tracing or compiling the train step failed "
                                         r"\(RuntimeError: no compiler\); `fit` runs the train step eagerly\.$"):
        h_jit = jit.fit(XJ, YJ, batch_size=16, epochs=2, verbose=0, shuffle=False)
    h_eager = eager.fit(XJ, YJ, batch_size=16, epochs=2, verbose=0, shuffle=False)
    _assert_same_training(jit, eager, h_jit, h_eager)


def test_jit_compile_custom_train_step_runs_as_tf_function():
    def train_step(self, data):
        return keras.Sequential.train_step(self, data)
    jit, eager = _jit_model(True, train_step), _jit_model(False)
    with pytest.warns(UserWarning, match=r"`jit_compile=True`: `train_step` is overridden .*; `fit` traces it as "
                                         r"a tf.function without compiling\.$") as record:
        h_jit = jit.fit(XJ, YJ, batch_size=16, epochs=2, verbose=0, shuffle=False)
        jit.fit(XJ, YJ, batch_size=16, epochs=1, verbose=0, shuffle=False)
    assert sum("jit_compile" in str(w.message) for w in record) == 1
    h_eager = eager.fit(XJ, YJ, batch_size=16, epochs=2, verbose=0, shuffle=False)
    eager.fit(XJ, YJ, batch_size=16, epochs=1, verbose=0, shuffle=False)
    _assert_same_training(jit, eager, h_jit, h_eager)


def test_functional_subclass_with_custom_train_step_and_string_inputs():
    """`CustomModel(inputs, outputs)` (the "customize fit" guide) and fit on string arrays."""
    import numpy as np
    keras = tf.keras

    class CustomModel(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            for m in self.metrics:
                m.update_state(loss) if m.name == "loss" else m.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    inp = keras.Input((3,))
    model = CustomModel(inp, keras.layers.Dense(1)(inp))
    assert model.name.startswith("custom_model") and isinstance(model, CustomModel)
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    x = np.random.default_rng(0).random((32, 3)).astype("float32")
    history = model.fit(x, x.sum(1, keepdims=True), epochs=2, verbose=0)
    assert sorted(history.history) == ["loss", "mae"] and len(history.history["loss"]) == 2

    texts = np.array(["good movie", "bad movie"] * 8)
    vec = keras.layers.TextVectorization(max_tokens=10, output_sequence_length=2)
    vec.adapt(texts)
    text_model = keras.Sequential([vec, keras.layers.Embedding(10, 4), keras.layers.GlobalAveragePooling1D(),
                                   keras.layers.Dense(1)])
    text_model.compile("sgd", "mse")
    with warnings.catch_warnings():     # string batches are traced, as in TF: no warning
        warnings.simplefilter("error")
        text_model.fit(texts.astype(object), np.ones(16), batch_size=4, epochs=1, verbose=0)  # shuffled strings
    with pytest.raises(ValueError, match="Invalid dtype: str320"):     # as Keras: text in object arrays only
        text_model.fit(texts, np.ones(16), verbose=0)
