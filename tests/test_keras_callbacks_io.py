"""Callbacks that write files: TensorBoard (read back with TensorBoard's reader) and BackupAndRestore."""
import json
import os

import numpy as np
import pytest

import tfcompat as tf
from tfcompat.framework.export import partial_note


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


# the model config Keras 3.15 writes under the `keras` tag (recorded from TF 2.21's TensorBoard callback)
TB_SEQ_JSON = (
    '{"module": "keras", "class_name": "Sequential", "config": {"name": "tb_seq", "trainable": true, "dty'
    'pe": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_nam'
    'e": null}, "layers": [{"module": "keras.layers", "class_name": "InputLayer", "config": {"batch_shape'
    '": [null, 3], "dtype": "float32", "sparse": false, "ragged": false, "name": "x", "optional": false},'
    ' "registered_name": null}, {"module": "keras.layers", "class_name": "Dense", "config": {"name": "h",'
    ' "trainable": true, "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "fl'
    'oat32"}, "registered_name": null}, "units": 4, "activation": "relu", "use_bias": true, "kernel_initi'
    'alizer": {"module": "keras.initializers", "class_name": "GlorotUniform", "config": {"seed": null, "i'
    'nput_axes": null, "output_axes": null}, "registered_name": null}, "bias_initializer": {"module": "ke'
    'ras.initializers", "class_name": "Zeros", "config": {}, "registered_name": null}, "kernel_regularize'
    'r": null, "bias_regularizer": null, "kernel_constraint": null, "bias_constraint": null, "quantizatio'
    'n_config": null}, "registered_name": null, "build_config": {"input_shape": [null, 3]}}, {"module": "'
    'keras.layers", "class_name": "Dense", "config": {"name": "y", "trainable": true, "dtype": {"module":'
    ' "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": null}, "uni'
    'ts": 1, "activation": "linear", "use_bias": true, "kernel_initializer": {"module": "keras.initialize'
    'rs", "class_name": "GlorotUniform", "config": {"seed": null, "input_axes": null, "output_axes": null'
    '}, "registered_name": null}, "bias_initializer": {"module": "keras.initializers", "class_name": "Zer'
    'os", "config": {}, "registered_name": null}, "kernel_regularizer": null, "bias_regularizer": null, "'
    'kernel_constraint": null, "bias_constraint": null, "quantization_config": null}, "registered_name": '
    'null, "build_config": {"input_shape": [null, 4]}}], "build_input_shape": [null, 3]}, "registered_nam'
    'e": null, "build_config": {"input_shape": [null, 3]}, "compile_config": {"optimizer": {"module": "ke'
    'ras.optimizers", "class_name": "SGD", "config": {"name": "sgd", "learning_rate": 0.00999999977648258'
    '2, "weight_decay": null, "clipnorm": null, "global_clipnorm": null, "clipvalue": null, "use_ema": fa'
    'lse, "ema_momentum": 0.99, "ema_overwrite_frequency": null, "loss_scale_factor": null, "gradient_acc'
    'umulation_steps": null, "momentum": 0.0, "nesterov": false}, "registered_name": null}, "loss": "mse"'
    ', "loss_weights": null, "metrics": ["mae"], "weighted_metrics": null, "run_eagerly": false, "steps_p'
    'er_execution": 1, "jit_compile": false}}'
)


def _tb_model():
    model = tf.keras.Sequential([tf.keras.Input((3,), name="x"), tf.keras.layers.Dense(4, activation="relu", name="h"),
                                 tf.keras.layers.Dense(1, name="y")], name="tb_seq")
    model.compile(optimizer=tf.keras.optimizers.SGD(name="sgd"), loss="mse", metrics=["mae"])
    return model


def _tensor_steps(run_dir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(str(run_dir), size_guidance={"tensors": 0})
    acc.Reload()
    return acc, {tag: [e.step for e in acc.Tensors(tag)] for tag in acc.Tags()["tensors"]}


def test_tensorboard_callback_writes_the_keras_graph_and_tf_validation_tags(tmp_path):
    # the same runs, directories, tags and steps as TF 2.21 + Keras 3.15 write for this fit and evaluate
    from tensorboard.plugins.graph import keras_util
    x, y = data()
    model = _tb_model()
    model.fit(x, y, epochs=3, batch_size=4, verbose=0, validation_data=(x, y),
              callbacks=[tf.keras.callbacks.TensorBoard(log_dir=tmp_path)])
    model.evaluate(x, y, batch_size=8, verbose=0,
                   callbacks=[tf.keras.callbacks.TensorBoard(log_dir=tmp_path, write_graph=False)])
    assert sorted(os.listdir(tmp_path)) == ["train", "validation"]
    assert (len(os.listdir(tmp_path / "train")), len(os.listdir(tmp_path / "validation"))) == (1, 2)
    train, train_steps = _tensor_steps(tmp_path / "train")
    assert train_steps == {"keras": [0], "epoch_loss": [0, 1, 2], "epoch_mae": [0, 1, 2],
                           "epoch_learning_rate": [0, 1, 2]}
    _, val_steps = _tensor_steps(tmp_path / "validation")
    assert val_steps == {"evaluation_loss_vs_iterations": [2, 4, 6, 6], "evaluation_mae_vs_iterations": [2, 4, 6, 6],
                         "epoch_loss": [0, 1, 2], "epoch_mae": [0, 1, 2]}
    metadata = train.SummaryMetadata("keras").plugin_data
    assert (metadata.plugin_name, metadata.content) == ("graph_keras_model", b"1")
    config = train.Tensors("keras")[0].tensor_proto.string_val[0].decode()
    assert config == TB_SEQ_JSON
    graph = keras_util.keras_model_to_graph_def(json.loads(config))        # what TensorBoard's graphs page draws
    assert [(n.name, list(n.input), n.attr["keras_class"].s) for n in graph.node] == [
        ("tb_seq/x", [], b"InputLayer"), ("tb_seq/h", ["tb_seq/x"], b"Dense"), ("tb_seq/y", ["tb_seq/h"], b"Dense")]


def test_tensorboard_callback_batch_scalars_and_steps_per_second(tmp_path):
    x, y = data()
    _tb_model().fit(x, y, epochs=2, batch_size=4, verbose=0, callbacks=[
        tf.keras.callbacks.TensorBoard(log_dir=tmp_path, update_freq="batch", write_steps_per_second=True,
                                       write_graph=False)])
    assert os.listdir(tmp_path) == ["train"]
    _, steps = _tensor_steps(tmp_path / "train")
    assert steps == {"batch_steps_per_second": [1, 2, 3, 4], "batch_loss": [1, 2, 3, 4], "batch_mae": [1, 2, 3, 4],
                     "epoch_loss": [0, 1], "epoch_mae": [0, 1], "epoch_learning_rate": [0, 1],
                     "epoch_steps_per_second": [0, 1]}


def test_tensorboard_callback_weight_histograms_and_images(tmp_path):
    # tags, steps, plugins, buckets and image sizes as TF 2.21 + Keras 3.15 write them for this fit
    from tensorboard.util import tensor_util
    x, y = data()
    model = tf.keras.Sequential([tf.keras.Input((3,), name="x"),
                                 tf.keras.layers.Dense(4, activation="relu", name="h", kernel_initializer="ones"),
                                 tf.keras.layers.Dense(1, name="y", kernel_initializer="ones")], name="tb_seq")
    model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    model.fit(x, y, epochs=3, batch_size=4, verbose=0, validation_data=(x, y), shuffle=False, callbacks=[
        tf.keras.callbacks.TensorBoard(log_dir=tmp_path, histogram_freq=2, write_images=True, write_graph=False)])
    train, steps = _tensor_steps(tmp_path / "train")
    weights = [f"tb_seq/{layer}/{w}" for layer in "hy" for w in ("kernel", "bias")]
    assert steps == {"epoch_loss": [0, 1, 2], "epoch_learning_rate": [0, 1, 2],
                     **{f"{w}/histogram": [0, 2] for w in weights},
                     **{f"{w}/image": [0, 2] for w in weights if w != "tb_seq/y/bias"}}   # a scalar draws none
    assert train.SummaryMetadata("tb_seq/h/kernel/histogram").plugin_data.plugin_name == "histograms"
    assert train.SummaryMetadata("tb_seq/h/kernel/image").plugin_data.plugin_name == "images"
    hist = tensor_util.make_ndarray(train.Tensors("tb_seq/h/kernel/histogram")[0].tensor_proto)
    assert hist.shape == (30, 3) and np.flatnonzero(hist[:, 2]).tolist() == [0, 14, 29]
    np.testing.assert_allclose([hist[0, 0], hist[-1, 1]], [0.9279, 0.94413], atol=1e-5)
    bias = tensor_util.make_ndarray(train.Tensors("tb_seq/y/bias/histogram")[1].tensor_proto)
    np.testing.assert_allclose(bias[-1], [-0.27077, -0.27077, 1.0], atol=1e-5)
    sizes = {tag: tensor_util.make_ndarray(train.Tensors(tag)[0].tensor_proto)[:2].tolist()
             for tag in steps if tag.endswith("/image")}
    assert sizes == {"tb_seq/h/kernel/image": [b"4", b"3"], "tb_seq/h/bias/image": [b"1", b"4"],
                     "tb_seq/y/kernel/image": [b"1", b"4"]}


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


def test_declared_unsupported_arguments_name_themselves(tmp_path):
    cb = tf.keras.callbacks
    for kwargs, text in (({"profile_batch": 2}, r"TensorBoard\(profile_batch=2\)"),
                         ({"embeddings_freq": 1}, r"TensorBoard\(embeddings_freq=1\)")):
        with pytest.raises(NotImplementedError, match=f"^{text} is not supported by tfcompat$"):
            cb.TensorBoard(str(tmp_path), **kwargs)
    assert partial_note(cb.TensorBoard) == "constructor arguments profile_batch, embeddings_freq"
    cb.TensorBoard(str(tmp_path), embeddings_freq=0, profile_batch=0)      # defaults are accepted
