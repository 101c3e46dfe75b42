"""Memory under load: resident memory must stay flat over long runs (issue 14's load figures).

    python bench/bench_soak.py [--steps 10000] [--epochs 50] [--calls 1000]

Three soaks, each after a warm-up, each printing its start and end RSS and the growth:
  1. eager training steps of a small Keras model under GradientTape (`--steps`);
  2. `model.fit` for `--epochs` epochs with callbacks (EarlyStopping off, History, a LambdaCallback,
     ReduceLROnPlateau, CSVLogger);
  3. `tf.function` calls with varying Python arguments (`--calls`): each new value retraces, and TF's
     frequent-retracing warning must appear (it is counted here).
Not a timed test: run it by hand; it takes a few minutes on a loaded 2-core machine.
"""
import argparse
import gc
import logging
import os
import resource
import tempfile
import time

import numpy as np

import tfcompat as tf


def rss_mb():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2 ** 20


def _soak(name, run, warmup):
    warmup()
    gc.collect()
    start, t0 = rss_mb(), time.perf_counter()
    detail = run()
    gc.collect()
    end = rss_mb()
    print(f"{name:34s} start {start:8.1f} MB  end {end:8.1f} MB  growth {end - start:+7.1f} MB  "
          f"({time.perf_counter() - t0:6.1f} s){detail or ''}", flush=True)


def _model():
    inp = tf.keras.Input((16,))
    x = tf.keras.layers.Dense(32, activation="relu")(inp)
    return tf.keras.Model(inp, tf.keras.layers.Dense(1)(x))


def tape_steps(steps):
    model = _model()
    opt = tf.keras.optimizers.Adam(1e-3)
    rng = np.random.RandomState(0)
    x = tf.constant(rng.randn(64, 16).astype(np.float32))
    y = tf.constant(rng.randn(64, 1).astype(np.float32))

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def run():
        for _ in range(steps):
            loss = step()
        return f"  final loss {float(loss):.4f}"
    _soak(f"GradientTape steps x{steps}", run, lambda: [step() for _ in range(200)])


def fit_epochs(epochs):
    rng = np.random.RandomState(1)
    x = rng.randn(512, 16).astype(np.float32)
    y = (x[:, :1] * 2 + 1).astype(np.float32)
    tmp = tempfile.mkdtemp()
    seen = []

    def fit(n):
        model = _model()
        model.compile(tf.keras.optimizers.Adam(1e-3), "mse", metrics=["mae"])
        callbacks = [tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(logs["loss"])),
                     tf.keras.callbacks.ReduceLROnPlateau(patience=3),
                     tf.keras.callbacks.CSVLogger(os.path.join(tmp, "log.csv"))]
        return model.fit(x, y, batch_size=32, epochs=n, validation_split=0.25, callbacks=callbacks, verbose=0)

    def run():
        history = fit(epochs)
        return f"  epochs run {len(history.history['loss'])}, final loss {history.history['loss'][-1]:.4f}"
    _soak(f"fit x{epochs} epochs + callbacks", run, lambda: fit(2))


def retracing_calls(calls):
    counter = []

    class Count(logging.Handler):
        def emit(self, record):
            if "triggered tf.function retracing" in record.getMessage():
                counter.append(record.getMessage())

    logger = tf.get_logger()
    handler = Count()
    logger.addHandler(handler)
    previous = logger.propagate
    try:
        @tf.function
        def f(x, k):
            return x * k + k

        x = tf.ones([8])

        def run():
            for i in range(calls):
                f(x, i)                      # a new Python value: a new trace each call
            return f"  traces {f.experimental_get_tracing_count()}, retracing warnings {len(counter)}"
        _soak(f"tf.function varying args x{calls}", run, lambda: [f(x, -1 - i) for i in range(20)])
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=10000)
    p.add_argument("--epochs", type=int, default=50)
    p.add_argument("--calls", type=int, default=1000)
    a = p.parse_args()
    print(f"start of process: {rss_mb():.1f} MB")
    tape_steps(a.steps)
    fit_epochs(a.epochs)
    retracing_calls(a.calls)


if __name__ == "__main__":
    main()
