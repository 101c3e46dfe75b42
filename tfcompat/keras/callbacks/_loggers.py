"""Callbacks that log metrics outside the console: `CSVLogger`, `TensorBoard` (event files), `RemoteMonitor`."""
import collections
import csv
import os
import time
import warnings

import numpy as np

from tfcompat.framework.export import unsupported_args
from tfcompat.keras._config import config
from tfcompat.keras.callbacks._base import Callback, lr_value


class CSVLogger(Callback):
    """Streams each epoch's logs to a CSV file (`epoch` first, then the keys sorted)."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        mode = "w"
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        self.csv_file = open(self.filename, mode)
        self.writer = None
        self.keys = None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}

        def handle_value(k):
            is_zero_dim = isinstance(k, np.ndarray) and k.ndim == 0
            if isinstance(k, str):
                return k
            if isinstance(k, collections.abc.Iterable) and not is_zero_dim:
                return f"\"[{', '.join(map(str, k))}]\""
            return k

        if self.keys is None:
            self.keys = sorted(logs.keys())
            if self.keys and not any(k.startswith("val_") for k in self.keys):
                # Keras adds the `val_` columns up front (validation may start later: `validation_freq`)
                self.keys.extend([f"val_{k}" for k in self.keys])
        if not self.writer:
            class CustomDialect(csv.excel):
                delimiter = self.sep
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys, dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((k, handle_value(logs.get(k, "NA"))) for k in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None:
            self.csv_file.close()
        self.writer = None


@unsupported_args("profile_batch", "embeddings_freq")
class TensorBoard(Callback):
    """Writes TensorBoard logs as Keras 3 does: the model's config (tag `keras`, TensorBoard's graphs page) when
    given the model, epoch (and with `update_freq`, batch) scalars under `log_dir/train` and `log_dir/validation`
    (`epoch_loss`, `epoch_learning_rate`, ...), and `evaluation_<metric>_vs_iterations` after each evaluation;
    every `histogram_freq` epochs, a histogram (and with `write_images`, an image) of each layer's weights."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        super().__init__()
        self.log_dir = os.fspath(log_dir)
        self.write_graph = write_graph
        self.histogram_freq = histogram_freq
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._writers = {}
        self._train_step = 0
        if write_steps_per_second:           # only then does the loop call a batch-begin hook
            self.on_train_batch_begin = self._start_batch_timer

    def set_model(self, model):
        super().set_model(model)
        self._close_writers()                # a new model (or fit) starts new writers, as in Keras
        if self.write_graph and type(model).__name__ in ("Functional", "Sequential"):
            self._write_model_config(model)

    def _write_model_config(self, model):
        """The `keras` summary TensorBoard's graphs page draws: the model's `to_json()` (plugin graph_keras_model)."""
        from tfcompat import summary
        from tfcompat.summary._proto import plugin_metadata
        try:
            config = model.to_json()
        except Exception as e:  # noqa: BLE001 - Keras writes nothing for a model it cannot serialize, and warns
            warnings.warn(f"Model failed to serialize as JSON. Ignoring... {e}", stacklevel=2)
            return
        with self._writer("train").as_default():
            summary.write("keras", config, step=0, metadata=plugin_metadata("graph_keras_model", b"1"))

    def _writer(self, name):
        w = self._writers.get(name)
        if w is None:
            from tfcompat import summary
            w = self._writers[name] = summary.create_file_writer(os.path.join(self.log_dir, name))
        return w

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        iterations = getattr(optimizer, "iterations", None)
        return None if iterations is None else int(iterations.numpy())

    def on_train_begin(self, logs=None):
        self._train_step = 0

    def on_epoch_begin(self, epoch, logs=None):
        if self.write_steps_per_second:
            self._epoch_start, self._epoch_iterations = time.time(), self._iterations() or 0

    def _start_batch_timer(self, batch, logs=None):
        self._batch_start = time.time()

    def on_train_batch_end(self, batch, logs=None):
        self._train_step += 1
        if isinstance(self.update_freq, int) and self._train_step % self.update_freq == 0:
            logs = dict(logs or {})
            if self.write_steps_per_second:
                self._write("train", "batch_", {"steps_per_second": 1.0 / (time.time() - self._batch_start)},
                            self._train_step)
            self._write("train", "batch_", logs, self._train_step)

    def on_epoch_end(self, epoch, logs=None):
        logs = dict(logs or {})
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None:
            logs["learning_rate"] = lr_value(optimizer)
        if self.write_steps_per_second:
            logs["steps_per_second"] = ((self._iterations() or 0) - self._epoch_iterations) / \
                (time.time() - self._epoch_start)
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        self._write("train", "epoch_", train, epoch)
        if val:
            self._write("validation", "epoch_", val, epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    def _log_weights(self, epoch):
        """Keras's weight summaries: `<path>/histogram` per weight of each layer (`:` as `_`), `<path>/image`."""
        from tfcompat import summary
        with self._writer("train").as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    name = weight.path.replace(":", "_")
                    summary.histogram(f"{name}/histogram", weight, step=epoch)
                    if self.write_images:
                        image = _weight_image(weight.numpy())
                        if image is not None:
                            summary.image(f"{name}/image", image, step=epoch)
            self._writer("train").flush()

    def on_test_end(self, logs=None):
        step = self._iterations()
        if step is not None:
            self._write("validation", "evaluation_", {f"{k}_vs_iterations": v for k, v in (logs or {}).items()},
                        step)
        for w in self._writers.values():
            w.flush()

    def _write(self, name, prefix, logs, step):
        from tfcompat import summary
        with self._writer(name).as_default(step=step):
            for k, v in (logs or {}).items():
                summary.scalar(prefix + k, v, step=step)

    def on_train_end(self, logs=None):
        self._close_writers()

    def _close_writers(self):
        for w in self._writers.values():
            w.close()
        self._writers = {}


def _weight_image(w):
    """A weight as Keras draws it (a bias as one row, a kernel wide side across, a conv kernel one image per
    input channel): a `(n, h, w, 1)` array, or None for shapes Keras does not draw."""
    w = np.squeeze(w)
    if w.ndim == 1:
        w = w.reshape(1, w.shape[0], 1, 1)
    elif w.ndim == 2:
        if w.shape[0] > w.shape[1]:
            w = w.T
        w = w.reshape(1, w.shape[0], w.shape[1], 1)
    elif w.ndim == 3:
        if config.image_data_format == "channels_last":
            w = np.transpose(w, (2, 0, 1))
        w = w[..., None]
    return w if w.ndim == 4 and w.shape[-1] in (1, 3, 4) else None


class RemoteMonitor(Callback):
    """Streams events to a server: tfcompat does not implement it (no network access by design)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tf.keras.callbacks.RemoteMonitor is not implemented in tfcompat")
