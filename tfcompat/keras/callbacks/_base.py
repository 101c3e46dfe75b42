"""The callback protocol (`Callback`, `CallbackList`), the callbacks `fit` adds itself (`History`,
`ProgbarLogger`), `LambdaCallback`, and the log helpers the other callbacks share."""
from tfcompat.keras.utils_progbar import Progbar, print_msg


def pythonify_logs(logs):
    """Logs with nested dicts flattened and values as Python floats, keys sorted (Keras's order)."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        if hasattr(value, "numpy"):     # tensors become NumPy values, as Keras's convert_to_numpy
            value = value.numpy()
        try:
            value = float(value)
        except Exception:   # noqa: BLE001 - Keras keeps values it cannot convert (a per-class array stays NumPy)
            pass
        result[key] = value
    return result


def lr_value(optimizer):
    """The optimizer's current learning rate as a Python float."""
    lr = optimizer.learning_rate
    return float(lr.numpy() if hasattr(lr, "numpy") else lr)


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
