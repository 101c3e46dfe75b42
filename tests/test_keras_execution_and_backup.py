"""`compile(steps_per_execution=N)` and `BackupAndRestore(save_freq=...)` as Keras 3.15 (events recorded from TF 2.21)."""
import json
import os

import numpy as np
import pytest

from tfcompat import keras


def _data():
    rng = np.random.default_rng(0)
    return rng.random((20, 3)).astype("float32"), rng.random((20, 1)).astype("float32")


def _model(**compile_kwargs):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse", **compile_kwargs)
    return model


class _Events(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.events = []

    def on_train_batch_begin(self, batch, logs=None):
        self.events.append(("train_begin", batch))

    def on_train_batch_end(self, batch, logs=None):
        self.events.append(("train_end", batch, sorted(logs)))

    def on_test_batch_begin(self, batch, logs=None):
        self.events.append(("test_begin", batch))

    def on_test_batch_end(self, batch, logs=None):
        self.events.append(("test_end", batch))

    def on_predict_batch_begin(self, batch, logs=None):
        self.events.append(("predict_begin", batch))

    def on_predict_batch_end(self, batch, logs=None):
        self.events.append(("predict_end", batch, tuple(logs["outputs"].shape)))


class _StopAt(keras.callbacks.Callback):
    def __init__(self, calls):
        super().__init__()
        self.calls, self.seen = calls, 0

    def on_train_batch_end(self, batch, logs=None):
        self.seen += 1
        if self.seen == self.calls:
            raise RuntimeError("interrupted")


def test_batch_hooks_run_once_per_execution():
    x, y = _data()
    x, y = x[:10], y[:10]
    model = _model(steps_per_execution=3)
    events = _Events()
    model.fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[events])
    # 5 batches in executions of 3: Keras reports the second one as steps 3..5
    assert events.events == [("train_begin", 0), ("train_end", 2, ["loss"]), ("train_begin", 3),
                             ("train_end", 5, ["loss"])]
    events = _Events()
    model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[events])
    assert events.events == [("test_begin", 0), ("test_end", 2), ("test_begin", 3), ("test_end", 5)]
    events = _Events()
    assert model.predict(x, batch_size=2, verbose=0, callbacks=[events]).shape == (10, 1)
    assert events.events == [("predict_begin", 0), ("predict_end", 2, (6, 1)), ("predict_begin", 3),
                             ("predict_end", 5, (4, 1))]
    assert model.steps_per_execution == 3


def test_steps_per_execution_gives_the_same_training():
    x, y = _data()
    histories = []
    for n in (4, 1):
        keras.utils.set_random_seed(1)
        histories.append(_model(steps_per_execution=n).fit(x, y, batch_size=2, epochs=2, shuffle=False,
                                                           verbose=0).history["loss"])
    np.testing.assert_allclose(histories[0], histories[1], rtol=1e-6)


def test_backup_every_n_batches_resumes_at_the_saved_epoch(tmp_path):
    x, y = _data()
    backup_dir = str(tmp_path / "backup")
    with pytest.raises(RuntimeError):
        _model().fit(x, y, batch_size=4, epochs=4, verbose=0,
                     callbacks=[keras.callbacks.BackupAndRestore(backup_dir, save_freq=3), _StopAt(8)])
    assert sorted(os.listdir(backup_dir)) == ["latest.weights.h5", "training_metadata.json"]
    with open(os.path.join(backup_dir, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 1, "batch": 0}
    model = _model()
    history = model.fit(x, y, batch_size=4, epochs=4, verbose=0,
                        callbacks=[keras.callbacks.BackupAndRestore(backup_dir, save_freq=3)])
    assert history.epoch == [1, 2, 3]
    assert not os.path.exists(backup_dir)
    assert int(model.optimizer.iterations) == 21         # 6 restored with the weights, then 3 epochs of 5


def test_double_checkpoint_keeps_the_previous_backup(tmp_path):
    x, y = _data()
    backup_dir = str(tmp_path / "backup")
    callback = keras.callbacks.BackupAndRestore(backup_dir, double_checkpoint=True, delete_checkpoint=False)
    _model().fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[callback])
    assert sorted(os.listdir(backup_dir)) == ["latest.weights.h5", "latest.weights.h5.bkp", "training_metadata.json",
                                              "training_metadata.json.bkp"]
    for name, expected in (("training_metadata.json", {"epoch": 2, "batch": 0}),
                           ("training_metadata.json.bkp", {"epoch": 1, "batch": 0})):
        with open(os.path.join(backup_dir, name)) as f:
            assert json.load(f) == expected
    model = _model()
    history = model.fit(x, y, batch_size=4, epochs=3, verbose=0, callbacks=[keras.callbacks.BackupAndRestore(backup_dir)])
    assert history.epoch == [2] and int(model.optimizer.iterations) == 15


def test_save_freq_counts_steps_of_executions(tmp_path):
    x, y = _data()
    backup_dir = str(tmp_path / "backup")
    with pytest.raises(RuntimeError):
        _model(steps_per_execution=3).fit(
            x, y, batch_size=4, epochs=3, verbose=0,
            callbacks=[keras.callbacks.BackupAndRestore(backup_dir, save_freq=4), _StopAt(4)])
    with open(os.path.join(backup_dir, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 1, "batch": 5}


def test_backup_and_restore_errors(tmp_path):
    with pytest.raises(ValueError, match="^Invalid value for argument `save_freq`. Received: save_freq=batch. "
                                         "Expected either 'epoch' or an integer value.$"):
        keras.callbacks.BackupAndRestore(str(tmp_path), save_freq="batch")
    x, y = _data()
    model = keras.Sequential([keras.layers.Dense(1)], name="unbuilt")
    model.compile(optimizer="adam", loss="mse")
    with pytest.raises(ValueError) as e:
        model.fit(x, y, verbose=0, callbacks=[keras.callbacks.BackupAndRestore(str(tmp_path))])
    assert str(e.value) == ("To use the BackupAndRestore callback, you model must be built before you call `fit()`. "
                            "Model <Sequential name=unbuilt, built=False> is unbuilt. You can build it beforehand by "
                            "calling it on a batch of data.")
