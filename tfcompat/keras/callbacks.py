"""`tf.keras.callbacks` (Keras 3): hooks called by `fit`/`evaluate`/`predict`, with Keras's messages and files."""
import collections
import csv
import json
import os
import time
import warnings

import numpy as np

from tfcompat.framework.export import unsupported_args
from tfcompat.keras.utils_progbar import Progbar, print_msg


def pythonify_logs(logs):
    """Logs with nested dicts flattened and values as Python floats, keys sorted (Keras's order)."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        try:
            value = float(value.numpy() if hasattr(value, "numpy") else value)
        except Exception:   # noqa: BLE001 - Keras keeps values it cannot convert
            pass
        result[key] = value
    return result


class Callback:
    """Base class of callbacks: every hook is a no-op; `self.model` and `self.params` are set by `fit`."""

    def __init__(self):
        self.params = None
        self._model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def on_batch_begin(self, batch, logs=None):
        """A backwards-compatible alias of `on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """A backwards-compatible alias of `on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch (training only)."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch with its metrics (and `val_` metrics)."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Called before each `evaluate` batch."""

    def on_test_batch_end(self, batch, logs=None):
        """Called after each `evaluate` batch."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called before each `predict` batch."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called after each `predict` batch."""

    def on_train_begin(self, logs=None):
        """Called at the start of training."""

    def on_train_end(self, logs=None):
        """Called at the end of training."""

    def on_test_begin(self, logs=None):
        """Called at the start of evaluation."""

    def on_test_end(self, logs=None):
        """Called at the end of evaluation."""

    def on_predict_begin(self, logs=None):
        """Called at the start of prediction."""

    def on_predict_end(self, logs=None):
        """Called at the end of prediction."""


def _overrides(cb, name):
    return name in cb.__dict__ or getattr(type(cb), name, None) is not getattr(Callback, name)


class CallbackList(Callback):
    """Calls a list of callbacks (adding `History` and `ProgbarLogger` as `fit` does)."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        super().__init__()
        from tfcompat.util import nest
        self.callbacks = nest.flatten(callbacks) if callbacks else []
        self._history = next((c for c in self.callbacks if isinstance(c, History)), None)
        self._progbar = next((c for c in self.callbacks if isinstance(c, ProgbarLogger)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)
        self.set_model(model)
        self.set_params(params)

    def set_params(self, params):
        self.params = params
        if params:
            for cb in self.callbacks:
                cb.set_params(params)

    def set_model(self, model):
        if not model:
            return
        super().set_model(model)
        if self._history:
            model.history = self._history
        for cb in self.callbacks:
            cb.set_model(model)

    def wants(self, hook):
        """Whether any callback overrides `hook` (the loop skips building logs for batch hooks nobody reads)."""
        names = {"on_train_batch_end": ("on_train_batch_end", "on_batch_end"),
                 "on_train_batch_begin": ("on_train_batch_begin", "on_batch_begin")}.get(hook, (hook,))
        return any(_overrides(cb, n) for cb in self.callbacks for n in names)

    def _call(self, hook, *args):
        logs = pythonify_logs(args[-1])
        for cb in self.callbacks:
            getattr(cb, hook)(*args[:-1], logs)

    def on_batch_begin(self, batch, logs=None):
        self._call("on_batch_begin", batch, logs)

    def on_batch_end(self, batch, logs=None):
        self._call("on_batch_end", batch, logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            cb.on_epoch_end(epoch, logs)

    def on_train_batch_begin(self, batch, logs=None):
        self._call("on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self._call("on_train_batch_end", batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._call("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._call("on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        self._call("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        for cb in self.callbacks:
            cb.on_predict_batch_end(batch, logs)

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs)


class History(Callback):
    """Records each epoch's logs in `history` (`model.fit` returns it)."""

    def __init__(self):
        super().__init__()
        self.history = {}

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self


class ProgbarLogger(Callback):
    """Prints Keras's progress bar (`verbose=1`) or one line per epoch (`verbose=2`)."""

    def __init__(self):
        super().__init__()
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._called_in_fit = False

    def set_params(self, params):
        verbose = params["verbose"]
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params["epochs"]
        self.target = params["steps"]

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset()

    def on_predict_begin(self, logs=None):
        self._reset()

    def on_epoch_begin(self, epoch, logs=None):
        self._reset()
        if self.verbose and self.epochs > 1:
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._update(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize(logs)

    def on_predict_end(self, logs=None):
        self._finalize(logs)

    def _reset(self):
        self.seen = 0
        self.progbar = Progbar(target=self.target, verbose=self.verbose, unit_name="step", stateless_metrics=set())

    def _update(self, batch, logs):
        if self.progbar is None:
            self._reset()
        self.seen = batch + 1
        if self.verbose == 1:
            self.progbar.update(self.seen, list((logs or {}).items()), finalize=False)

    def _finalize(self, logs):
        if self.progbar is None:
            self._reset()
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.target
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)


_UP = ("accuracy", "auc", "precision", "recall", "truepositives", "truenegatives", "f1", "fbeta", "iou", "r2",
       "cosinesimilarity")


def _metric_direction(metric):
    direction = getattr(metric, "_direction", None)
    if direction is not None:
        return direction
    name = type(metric).__name__.lower()
    return "up" if any(k in name for k in _UP) else "down"


class MonitorCallback(Callback):
    """Base of callbacks that watch one logged quantity (`monitor`) in `mode` min/max/auto."""

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor = monitor
        self.mode = mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = np.less
        elif self.mode == "max":
            self.monitor_op = np.greater
        else:
            name = self.monitor[4:] if self.monitor.startswith("val_") else self.monitor
            if name == "loss":
                self.monitor_op = np.less
            for m in getattr(self.model, "metrics", []) if self.model is not None else []:
                for sub in getattr(m, "metrics", []) if hasattr(m, "_flat_metrics") else []:
                    if sub.name == name:
                        self.monitor_op = np.greater if _metric_direction(sub) == "up" else np.less
            if self.monitor_op is None:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but Keras isn't able to "
                    "automatically determine whether that metric should be maximized or minimized. Pass "
                    "`mode='max'` in order to monitor based on the highest metric value, or pass `mode='min'` in "
                    "order to use the lowest value.")
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        return bool(self.monitor_op(value - self.min_delta, reference))


class EarlyStopping(MonitorCallback):
    """Stops training when `monitor` stopped improving for `patience` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(list(logs.keys()))}", stacklevel=2)
        return value


class ModelCheckpoint(MonitorCallback):
    """Saves the model (`model.save`) or its weights (`model.save_weights`) each epoch or every `save_freq` batches."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = None
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or integer values")
        if save_weights_only:
            if not self.filepath.endswith(".weights.h5"):
                raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided "
                                 "must end in `.weights.h5` (Keras weights format). Received: "
                                 f"filepath={self.filepath}")
        elif not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(f"The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save_on_batch(self, batch):
        if self.save_freq == "epoch":
            return False
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            added = batch + 1
        else:
            added = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _should_save_model(self, epoch, logs, filepath):
        logs = logs or {}
        if not self.save_best_only:
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=2)
            return True
        if self.monitor_op is None:
            self._set_monitor_op()
        best_str = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best_str} to {current:.5f}, "
                          f"saving model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best_str}")
        return False

    def _save_model(self, epoch, batch, logs):
        filepath = self._get_file_path(epoch, batch, logs or {})
        try:
            if self._should_save_model(epoch, logs, filepath):
                dirname = os.path.dirname(filepath)
                if dirname and not os.path.exists(dirname):
                    os.makedirs(dirname)
                if self.save_weights_only:
                    self.model.save_weights(filepath, overwrite=True)
                else:
                    self.model.save(filepath, overwrite=True)
                if self.verbose > 0:
                    print_msg(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")
        except IsADirectoryError:
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an "
                          f"existing directory: {filepath}") from None

    def _get_file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {e}') from None


def _lr_value(optimizer):
    lr = optimizer.learning_rate
    return float(lr.numpy() if hasattr(lr, "numpy") else lr)


class ReduceLROnPlateau(MonitorCallback):
    """Multiplies the learning rate by `factor` when `monitor` stopped improving for `patience` epochs."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self.best = None
        self.cooldown_counter = 0
        self.wait = 0

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _lr_value(self.model.optimizer)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(list(logs.keys()))}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = logs["learning_rate"]
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model.optimizer.learning_rate = new_lr
                    if self.verbose > 0:
                        print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class LearningRateScheduler(Callback):
    """Sets the learning rate at each epoch start to `schedule(epoch, lr)`."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:
            lr = self.schedule(epoch, _lr_value(optimizer))
        except TypeError:
            lr = self.schedule(epoch)
        if hasattr(lr, "numpy"):
            lr = lr.numpy()
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {lr}")
        optimizer.learning_rate = float(lr)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _lr_value(self.model.optimizer)


class TerminateOnNaN(Callback):
    """Stops training when a batch loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class LambdaCallback(Callback):
    """A callback built from plain functions (`on_epoch_end=lambda epoch, logs: ...`)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None, on_train_end=None,
                 on_train_batch_begin=None, on_train_batch_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end),
                         ("on_train_batch_begin", on_train_batch_begin), ("on_train_batch_end", on_train_batch_end)):
            if fn is not None:
                setattr(self, name, fn)


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
            val_keys = [k for k in self.keys if k.startswith("val_")]
            self.keys = [k for k in self.keys if not k.startswith("val_")] + val_keys
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


@unsupported_args("save_freq", "double_checkpoint")
class BackupAndRestore(Callback):
    """Backs up the model weights and epoch each epoch to `backup_dir`; a restarted `fit` resumes from them."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False, delete_checkpoint=True):
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._training_metadata_path = os.path.join(self.backup_dir, "training_metadata.json")

    def on_train_begin(self, logs=None):
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, you model must be built before you call "
                             "`fit()`. Your model has not been built. You can build it by calling it on some data "
                             "or by passing an `input_shape` to the first layer.")
        if os.path.exists(self._weights_path) and os.path.exists(self._training_metadata_path):
            self.model.load_weights(self._weights_path)
            with open(self._training_metadata_path) as f:
                self.model._initial_epoch = json.load(f)["epoch"] + 1

    def on_epoch_end(self, epoch, logs=None):
        os.makedirs(self.backup_dir, exist_ok=True)
        self.model.save_weights(self._weights_path, overwrite=True)
        from tfcompat.util.atomic_file import write_bytes          # a killed save never leaves half the JSON
        write_bytes(self._training_metadata_path, [json.dumps({"epoch": epoch}).encode()])

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            import shutil
            shutil.rmtree(self.backup_dir)


@unsupported_args("histogram_freq", "write_images", "profile_batch", "embeddings_freq")
class TensorBoard(Callback):
    """Writes TensorBoard logs as Keras 3 does: the model's config (tag `keras`, TensorBoard's graphs page) when
    given the model, epoch (and with `update_freq`, batch) scalars under `log_dir/train` and `log_dir/validation`
    (`epoch_loss`, `epoch_learning_rate`, ...), and `evaluation_<metric>_vs_iterations` after each evaluation."""

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False, write_steps_per_second=False,
                 update_freq="epoch", profile_batch=0, embeddings_freq=0, embeddings_metadata=None):
        super().__init__()
        self.log_dir = os.fspath(log_dir)
        self.write_graph = write_graph
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
            logs["learning_rate"] = _lr_value(optimizer)
        if self.write_steps_per_second:
            logs["steps_per_second"] = ((self._iterations() or 0) - self._epoch_iterations) / \
                (time.time() - self._epoch_start)
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        self._write("train", "epoch_", train, epoch)
        if val:
            self._write("validation", "epoch_", val, epoch)

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


class RemoteMonitor(Callback):
    """Streams events to a server: tfcompat does not implement it (no network access by design)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tf.keras.callbacks.RemoteMonitor is not implemented in tfcompat")


class SwapEMAWeights(Callback):
    """Swaps model weights and EMA weights for evaluation: not implemented in tfcompat."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("tf.keras.callbacks.SwapEMAWeights is not implemented in tfcompat")
