"""Callbacks that write files: TensorBoard (read back with TensorBoard's reader) and BackupAndRestore."""
import os

import numpy as np

import tfcompat as tf


def small_model():
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    return model


def data():
    x = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
    return x, x.sum(axis=1, keepdims=True)


def test_tensorboard_callback_writes_epoch_scalars(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    x, y = data()
    model = small_model()
    history = model.fit(x, y, epochs=3, batch_size=4, verbose=0, validation_data=(x, y),
                        callbacks=[tf.keras.callbacks.TensorBoard(log_dir=tmp_path)])
    for run, key in (("train", "loss"), ("validation", "val_loss")):
        acc = EventAccumulator(str(tmp_path / run), size_guidance={"tensors": 0})
        acc.Reload()
        events = acc.Tensors("epoch_loss")
        assert [e.step for e in events] == [0, 1, 2]
        values = [float(np.frombuffer(e.tensor_proto.tensor_content, np.float32)[0])
                  if e.tensor_proto.tensor_content else e.tensor_proto.float_val[0] for e in events]
        np.testing.assert_allclose(values, history.history[key], rtol=1e-5)


def test_backup_and_restore_resumes_after_interruption(tmp_path):
    x, y = data()

    class Interrupt(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise RuntimeError("interrupted")

    model = small_model()
    backup = tf.keras.callbacks.BackupAndRestore(backup_dir=str(tmp_path / "backup"))
    try:
        model.fit(x, y, epochs=4, batch_size=4, verbose=0, callbacks=[backup, Interrupt()])
    except RuntimeError:
        pass
    assert os.path.exists(tmp_path / "backup")
    saved = [w.numpy() for w in model.weights]
    resumed = small_model()
    history = resumed.fit(x, y, epochs=4, batch_size=4, verbose=0, callbacks=[backup])
    assert history.epoch == [2, 3]                    # resumes after the last completed epoch
    assert not os.path.exists(tmp_path / "backup")    # deleted when training completes
    assert all(w.shape == s.shape for w, s in zip(resumed.weights, saved))
