"""Keras 3's training API (`compile`, `fit`, `evaluate`, `predict`, `*_on_batch`, `summary`), mixed into `Model`.

Steps run as a `tf.function` by default, as in Keras (`run_eagerly=False`; `step_function.StepFunction`):
`train_step`/`test_step`/`predict_step` (overridden ones too) are traced once per `compile` on the data's spec
and replayed, so Python side effects in `call()` or a step happen while tracing only, as in TF (`fit`: two
traces of the train step when its first trace creates the optimizer's variables, one of the test step; the
last partial batch replays the same trace; `predict` retraces once for it). The traced step records the
forward pass, the `GradientTape`'s backward ops, the optimizer update (its step and learning rate read as
tensors), the metric updates and the moving statistics of BatchNormalization; random ops draw again on
every replay. A step that cannot be replayed (Python reading changing tensor values, a failing trace) runs
eagerly after one warning naming the cause. The step functions are made once per
`compile` (`make_train_function(force=True)` remakes them); `run_eagerly=True` at `compile` runs every step's
Python eagerly, as does `tf.config.run_functions_eagerly(True)`. Eager steps run on tfcompat tensors with
metrics accumulated on device; when no callback reads batch logs and `train_step`/`compute_metrics` are
Keras's, the eager `fit` skips each step's logs and the traced one's replays skip the ops computing them (same trace;
the epoch's logs are `get_metrics_result()` at its end).

`jit_compile=True` (`fit` only): the default `train_step`'s forward pass, loss, gradients and metric updates run as
one `tf.function(jit_compile=True)` (recorded once per batch shape, replayed through `torch.compile`); the
optimizer update then runs eagerly. The first step of each model runs eagerly (it builds the optimizer and
metrics). When tracing or compiling fails, `fit` restores the variables the failed step touched, warns once with
the reason and runs the eager step from then on; an overridden `train_step` is traced without compiling (with a
warning). Values equal the eager step's up to float rounding, except random ops (dropout), whose compiled kernels
draw other numbers than eager torch. `jit_compile="auto"` (Keras's default) resolves to False: Keras 3 enables XLA
only on GPU machines with the TF backend (never on CPU, never on torch), and tfcompat compiles only when asked
since `torch.compile` takes 5-15 s per batch shape on 2 cores. `evaluate`/`predict` trace without compiling.
"""
import warnings

import torch

from tfcompat.eager.tape import GradientTape
from tfcompat.framework.ragged.tensor import RaggedTensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.keras._config import config
from tfcompat.keras.engine import compile_utils, data_adapter, distribute_step
from tfcompat.keras.engine.step_function import StepFunction
from tfcompat.util import nest


def _predict_output(parts):
    """One output of `predict` over its batches: a NumPy array; ragged outputs a RaggedTensor, as Keras on TF."""
    if isinstance(parts[0], RaggedTensor):
        from tfcompat.ops.ragged_array_ops import ragged_concat
        return ragged_concat(parts, 0)
    return torch.cat(parts).cpu().numpy()


def _flatten_logs_in_order(model, logs):
    names = []
    for m in model.metrics:
        if isinstance(m, compile_utils.CompileMetrics):
            names += [s.name for s in m.metrics]
        else:
            names.append(m.name)
    results = [logs[n] for n in names if n in logs]
    results += [logs[k] for k in sorted(logs) if k not in names]
    return results[0] if len(results) == 1 else results


def _to_numpy(x):
    return x.numpy() if isinstance(x, Tensor) else x


class Trainer:
    """The training API of `keras.Model` (Keras 3)."""

    compiled = False
    optimizer = None
    _compile_loss = None
    _compile_metrics = None
    _loss_tracker = None
    stop_training = False
    stop_evaluating = False
    stop_predicting = False
    history = None
    loss = None
    _run_eagerly = False
    _jit_compile = None
    train_function = None
    test_function = None
    predict_function = None
    _on_batch_functions = None   # "train"/"test"/"predict" -> the step `*_on_batch` runs (Keras's inner tf.function)
    steps_per_execution = 1
    _initial_epoch = None
    _train_entry = None         # "fit" or "train_on_batch" while one runs: whose traced variable list a step uses
    _traced_variables = None    # entry -> the trainable variables its first step after `compile` updated

    # -- compile -----------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None, weighted_metrics=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", auto_scale_loss=True):
        """Configures the model for training (optimizer, loss, metrics)."""
        from tfcompat.keras import metrics as metrics_module
        from tfcompat.keras import optimizers
        self.optimizer = optimizers.get(optimizer)
        if auto_scale_loss and self.dtype_policy.name == "mixed_float16" and self.optimizer is not None and \
                not isinstance(self.optimizer, optimizers.LossScaleOptimizer):
            self.optimizer = optimizers.LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        output_names = self._output_names()
        if loss is not None:        # as Keras 3: a recompile without loss or metrics keeps the previous ones
            self._compile_loss = compile_utils.CompileLoss(loss, loss_weights, output_names=output_names)
            self.loss = loss
        if metrics is not None or weighted_metrics is not None:
            self._compile_metrics = compile_utils.CompileMetrics(metrics, weighted_metrics, output_names=output_names)
        if jit_compile == "auto":
            jit_compile = False
        if jit_compile and run_eagerly:
            jit_compile = False
            warnings.warn("If `run_eagerly` is True, then `jit_compile` cannot also be True. Disabling "
                          "`jit_compile`.", stacklevel=2)
        self._jit_compile = jit_compile
        self._run_eagerly = run_eagerly
        self._reset_step_functions()
        self._traced_variables = {}
        self.stop_training = False
        self.compiled = True
        distribute_step.remember_strategy(self)
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.steps_per_execution = steps_per_execution
        self._compile_config = dict(optimizer=optimizer, loss=loss, loss_weights=loss_weights, metrics=metrics,
                                    weighted_metrics=weighted_metrics, run_eagerly=run_eagerly,
                                    steps_per_execution=steps_per_execution, jit_compile=jit_compile)

    def _output_names(self):
        outputs = getattr(self, "_outputs_struct", None)
        if outputs is None:
            return None
        if isinstance(outputs, dict):
            return sorted(outputs)
        names = []
        for kt in nest.flatten(outputs):
            history = getattr(kt, "_history", None)
            names.append(history[0].layer.name if history else None)
        return names if all(names) else None

    @property
    def distribute_strategy(self):
        """The tf.distribute strategy whose scope created the model's variables (the default one otherwise)."""
        from tfcompat.distribute import get_strategy
        return distribute_step.strategy_of(self) or get_strategy()

    @property
    def jit_compile(self):
        return bool(self._jit_compile)

    @jit_compile.setter
    def jit_compile(self, value):
        self._jit_compile = value
        self.train_function = None

    @property
    def run_eagerly(self):
        """Whether the step functions made from now on run eagerly (as in Keras, those already made stay)."""
        return self._run_eagerly

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    def _reset_step_functions(self):
        self.train_function = self.test_function = self.predict_function = None
        self._on_batch_functions = {}

    def compiled_loss(self, y, y_pred, sample_weight=None, regularization_losses=None):
        """Keras 2's compiled loss, deprecated in Keras 3: `compute_loss` of `(y, y_pred)` (which adds `self.losses`;
        `regularization_losses` is ignored, as in Keras 3)."""
        # Keras's text and source line (a warning prints the line that raised it)
        warnings.warn(
            "`model.compiled_loss()` is deprecated. Instead, use "
            "`model.compute_loss(x, y, y_pred, sample_weight, training)`.")
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    @property
    def compiled_metrics(self):
        """Keras 2's compiled metrics, deprecated in Keras 3: an object whose `update_state(y, y_pred)` updates every
        metric of `self.metrics` as Keras 3's shim does (a `Mean`, such as the loss tracker, averages `y_pred`)."""
        class DeprecatedCompiledMetric:
            def __init__(self, update):
                self._compiled_metrics_update_state = update

            def update_state(self, y, y_pred, sample_weight=None):
                # the deprecation warning prints this source line: Keras's
                return self._compiled_metrics_update_state(
                    y, y_pred, sample_weight=sample_weight)

        return DeprecatedCompiledMetric(self._compiled_metrics_update_state)

    def _compiled_metrics_update_state(self, y, y_pred, sample_weight=None):
        from tfcompat.keras.metrics import Mean
        warnings.warn("`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n```\nfor metric in self.metrics:\n"
                      "    metric.update_state(y, y_pred)\n```\n", stacklevel=2)
        for metric in self.metrics:
            if isinstance(metric, Mean):
                metric.update_state(y_pred, sample_weight=sample_weight)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)

    # -- metrics -------------------------------------------------------------------------------
    @property
    def metrics(self):
        """Loss tracker, compiled metrics, per-output loss trackers, then metrics of attributes/sublayers."""
        out = []
        if self.compiled:
            if self._loss_tracker is not None:
                out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
            if self._compile_loss is not None:
                out.extend(self._compile_loss.metrics)
        out.extend(self._own_metrics())
        for layer in self._flatten_layers(include_self=False):
            if not isinstance(layer, Trainer):
                out.extend(layer._own_metrics() if hasattr(layer, "_own_metrics") else _attr_metrics(layer))
        return out

    def _own_metrics(self):
        return _attr_metrics(self)

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    @property
    def metrics_variables(self):
        return [v for m in self.metrics for v in m.variables]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    def get_metrics_result(self):
        """The current `result()` of every metric in `self.metrics`, dict results flattened."""
        out = {}
        with distribute_step.synced_metrics(self, self.metrics):
            for m in self.metrics:
                r = m.result()
                if isinstance(r, dict):
                    out.update(r)
                else:
                    out[m.name] = r
        return out

    # -- steps ------------------------------------------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss of `(y, y_pred)` plus the model's added losses (`self.losses`)."""
        losses = []
        if self._compile_loss is not None:
            loss = self._compile_loss(y, y_pred, sample_weight)
            if loss is not None:
                losses.append(loss)
        for extra in self.losses:
            t = storage(extra) if isinstance(extra, Tensor) else torch.as_tensor(extra)
            losses.append(_wrap(t.float().sum() if not t.is_floating_point() else t.sum()))
        if not losses:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        total = losses[0]
        for extra in losses[1:]:
            total = total + extra
        return total

    def _compute_loss(self, x, y, y_pred, sample_weight, training):
        if self._compute_loss_has_training_arg():
            return self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight, training=training)
        return self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)

    def _compute_loss_has_training_arg(self):
        import inspect
        flag = type(self).__dict__.get("_cl_training")
        if flag is None:
            flag = "training" in inspect.signature(self.compute_loss).parameters
            type(self)._cl_training = flag
        return flag

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Updates the compiled metrics and returns `get_metrics_result()`."""
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def _clear_layer_losses(self):
        for layer in self._flatten_layers():
            if layer._losses:
                layer._losses.clear()

    def _loss_and_gradients(self, x, y, sample_weight):
        """The forward pass, loss (tracked by the loss tracker), the trainable variables and their gradients (None
        without trainable variables)."""
        self._clear_layer_losses()
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=True)
            scaled = distribute_step.scale_loss(loss)
            if self.optimizer is not None:
                scaled = self.optimizer.scale_loss(scaled)      # loss_scale_factor, or a LossScaleOptimizer's scale
        self._loss_tracker.update_state(loss, sample_weight=nest.flatten(x)[0].shape[0])
        variables = self._step_variables()
        return y_pred, variables, (tape.gradient(scaled, variables) if variables else None)

    def _step_variables(self):
        """The variables a train step updates. Keras 3 traces `fit`'s and `train_on_batch`'s step once per `compile`,
        so a `trainable` changed after their first step takes effect only after `compile()` or
        `make_train_function(force=True)`; with `run_eagerly=True` every step reads `trainable_variables`."""
        entry = self._train_entry
        if entry is None or self._run_eagerly or self._traced_variables is None:
            return self.trainable_variables
        variables = self._traced_variables.get(entry)
        if variables is None:
            variables = self._traced_variables[entry] = self.trainable_variables
        return variables

    def _optimizer_step(self, x, y, sample_weight):
        """Forward pass, loss, gradients and the optimizer update; returns `y_pred`."""
        y_pred, variables, grads = self._loss_and_gradients(x, y, sample_weight)
        if grads is None:
            warnings.warn("The model does not have any trainable weights.", stacklevel=3)
        else:
            self.optimizer.apply(grads, variables)
        return y_pred

    def train_step(self, data):
        """One optimizer step on a batch: forward, loss, gradients, update; returns the metrics' results."""
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self._optimizer_step(x, y, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def _train_step_without_logs(self, data):
        """`train_step` minus its logs (fit reads `get_metrics_result()` at the epoch's end instead): fit's step when
        `train_step` and `compute_metrics` are Keras's and no callback reads batch logs."""
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self._optimizer_step(x, y, sample_weight)
        if self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)

    def _gradients_and_logs(self, x, y, sample_weight):
        """`train_step` without the optimizer update (what `jit_compile=True` compiles): gradients, logs."""
        y_pred, _, grads = self._loss_and_gradients(x, y, sample_weight)
        return grads, self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def make_train_function(self, force=False, logs=True):
        """The per-batch callable `fit` runs, made once per `compile` (Keras's `train_function`): `train_step` as a
        `tf.function` (`StepFunction`), a `_CompiledTrainStep` under `jit_compile=True`, or the eager `train_step`
        with `run_eagerly=True` (with `logs=False`, a step returning None when that gives the same metrics: the eager
        step without logs, the traced one's `without_outputs`)."""
        if force and self._traced_variables is not None:
            self._traced_variables.clear()
        if self.train_function is None or force:
            self.train_function = self._new_train_function()
        function = self.train_function
        cls = type(self)
        quiet = not logs and cls.train_step is Trainer.train_step and cls.compute_metrics is Trainer.compute_metrics
        if _is_eager(function):
            return distribute_step.wrap(self, self._train_step_without_logs if quiet else self.train_step)
        if quiet and isinstance(function, StepFunction):
            return self._quiet_train_function(function) if distribute_step.across_workers(self) else \
                function.without_outputs
        return function

    def _quiet_train_function(self, function):
        """Across workers, `fit`'s traced step without logs when no callback reads batch logs: the logs cost a
        collective per step (the metrics' sums over workers), and fit reads the metrics at the epoch's end."""
        quiet = self.__dict__.get("_quiet_train")
        if quiet is None or quiet[0] is not function:
            quiet = (function, StepFunction(distribute_step.wrap(self, self._train_step_without_logs), "fit",
                                            on_spec=True))
            object.__setattr__(self, "_quiet_train", quiet)
        return quiet[1]

    def _new_train_function(self):
        if self._run_eagerly:
            return self.train_step
        if self._jit_compile:
            if type(self).train_step is not Trainer.train_step:
                _warn_jit("`train_step` is overridden (a custom step applies the optimizer, whose step-dependent "
                          "scalars a compiled program would freeze)", "traces it as a tf.function without compiling")
            else:
                return distribute_step.wrap(self, _CompiledTrainStep(self))
        return StepFunction(distribute_step.wrap(self, self.train_step), "fit", on_spec=True)

    def make_test_function(self, force=False):
        """The per-batch callable `evaluate` runs, made once per `compile`: `test_step` as a `tf.function`, or
        eager with `run_eagerly=True`."""
        if self.test_function is None or force:
            self.test_function = self.test_step if self._run_eagerly else \
                StepFunction(distribute_step.wrap(self, self.test_step), "evaluate", on_spec=True)
        if _is_eager(self.test_function):
            return distribute_step.wrap(self, self.test_step)
        return self.test_function

    def make_predict_function(self, force=False):
        """The callable `predict` runs on each execution's list of batches (their outputs concatenated), made once
        per `compile`: a `tf.function` traced on the first execution's shapes (`reduce_retracing`), or eager with
        `run_eagerly=True`."""
        if self.predict_function is None or force:
            self.predict_function = self._predict_execution if self._run_eagerly else \
                StepFunction(self._predict_execution, "predict")
        return self.predict_function

    def _predict_execution(self, batches):
        """`predict_step` on each batch of one execution, the outputs concatenated along the batch axis."""
        step = distribute_step.wrap(self, self.predict_step, "predict")
        results = [step(data) for data in batches]
        return results[0] if len(results) == 1 else _concat_outputs(results)

    def _on_batch_function(self, kind, step):
        """The step `train_on_batch`/`test_on_batch`/`predict_on_batch` run (Keras's inner tf.function, traced on
        the batch's shapes; eager with `run_eagerly=True`)."""
        if self._on_batch_functions is None:
            self._on_batch_functions = {}
        function = self._on_batch_functions.get(kind)
        if function is None:
            function = self._on_batch_functions[kind] = step if self._run_eagerly else \
                StepFunction(step, f"{kind}_on_batch")
        return function

    def test_step(self, data):
        """Loss and metrics of a batch, without training."""
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        self._clear_layer_losses()
        y_pred = self(x, training=False)
        loss = self._compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=nest.flatten(x)[0].shape[0])
        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    def predict_step(self, data):
        """The model's output for a batch (`training=False`)."""
        x, _, _ = data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _assert_compile_called(self, method_name):
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    # -- loops -------------------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1):
        """Trains the model for `epochs` epochs; returns the `History` callback."""
        from tfcompat.keras import callbacks as callbacks_module
        self._assert_compile_called("fit")
        if config.max_epochs and config.max_epochs < epochs:     # `keras.config.set_max_epochs`
            warnings.warn(f"Limiting epochs to {config.max_epochs}", stacklevel=2)
            epochs = config.max_epochs
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.train_validation_split(
                (x, y, sample_weight), validation_split)
        val_x = val_y = val_sw = None
        if validation_data is not None:
            val_x, val_y, val_sw = data_adapter.unpack_x_y_sample_weight(validation_data)
        iterator = data_adapter.EpochIterator(distribute_step.distribute_input(self, x), y, sample_weight,
                                              batch_size=batch_size, steps_per_epoch=steps_per_epoch, shuffle=shuffle,
                                              class_weight=class_weight)
        self._build_on_spec(iterator)
        if not isinstance(callbacks, callbacks_module.CallbackList):
            callbacks = callbacks_module.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                                      verbose=verbose, epochs=epochs, steps=iterator.num_batches,
                                                      model=self)
        self.stop_training = False
        batch_begin = callbacks.wants("on_train_batch_begin")
        batch_end = callbacks.wants("on_train_batch_end")
        train_function = self.make_train_function(logs=batch_end)
        step_function = getattr(train_function, "__self__", train_function)       # `StepFunction.without_outputs`
        if isinstance(step_function, StepFunction):
            step_function.spec_batch_size = iterator.spec_batch_size
        self._train_entry = "fit"
        callbacks.on_train_begin()
        training_logs = None
        logs = {}
        initial_epoch = self._initial_epoch or initial_epoch
        self._eval_iterator = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            for begin, end, batches in _executions(iterator, self.steps_per_execution):
                if batch_begin:
                    callbacks.on_train_batch_begin(begin)
                for data in batches:
                    logs = train_function(data)
                if batch_end:
                    callbacks.on_train_batch_end(end, logs)
                if self.stop_training:
                    break
            if iterator.ran_out:
                self._count_exhausted_step(step_function)
            epoch_logs = dict(self._metrics_result_or_logs(logs))
            if validation_data is not None and self._should_eval(epoch, validation_freq):
                if self._eval_iterator is None:
                    self._eval_iterator = data_adapter.EpochIterator(
                        distribute_step.distribute_input(self, val_x), val_y, val_sw,
                        batch_size=validation_batch_size or batch_size, steps_per_epoch=validation_steps, shuffle=False)
                val_logs = self.evaluate(val_x, val_y, sample_weight=val_sw,
                                         batch_size=validation_batch_size or batch_size, steps=validation_steps,
                                         callbacks=callbacks, return_dict=True, _iterator=self._eval_iterator)
                epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
            callbacks.on_epoch_end(epoch, epoch_logs)
            training_logs = epoch_logs
            if self.stop_training:
                break
        if self.optimizer is not None and epochs > 0 and hasattr(self.optimizer, "finalize_variable_values"):
            self.optimizer.finalize_variable_values(self.trainable_weights)
        self._eval_iterator = None
        self._train_entry = None
        callbacks.on_train_end(logs=training_logs)
        return self.history

    def _count_exhausted_step(self, step_function):
        """An epoch that ended on its source running out (a generator, a dataset of unknown length): Keras's traced
        step asked the iterator for the batch inside the `tf.function`, where the optimizer's `iterations.assign_add`,
        which does not wait for the data, ran before the end of data stopped the step; eager steps
        (`run_eagerly`, `tf.config.run_functions_eagerly`) and several steps per execution (which test for data
        first) count no such step."""
        from tfcompat.eager.function._state import functions_run_eagerly
        optimizer = self.optimizer
        if (isinstance(step_function, StepFunction) and self.steps_per_execution == 1
                and not functions_run_eagerly() and getattr(optimizer, "built", False)
                and hasattr(optimizer, "iterations")):
            optimizer.iterations.assign_add(1)

    def _build_on_spec(self, iterator):
        """Keras builds an unbuilt model on the data's spec before its first train/test step (`spec_build`;
        Sequential overrides this to take the spec's batch dimension)."""
        from tfcompat.keras.engine.spec_build import build_on_spec
        build_on_spec(self, iterator)

    @staticmethod
    def _should_eval(epoch, validation_freq):
        epoch += 1
        if isinstance(validation_freq, int):
            return epoch % validation_freq == 0
        if isinstance(validation_freq, list):
            return epoch in validation_freq
        raise ValueError(f"Expected `validation_freq` to be a list or int. Received: validation_freq="
                         f"{validation_freq} of the type {type(validation_freq)}.")

    def _metrics_result_or_logs(self, logs):
        result = self.get_metrics_result()
        if logs is None or isinstance(logs, dict) and set(logs) == set(result):
            return result
        return logs

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False, **kwargs):
        """Loss and metric values of the model on the data (a list, or a dict with `return_dict=True`)."""
        from tfcompat.keras import callbacks as callbacks_module
        self._assert_compile_called("evaluate")
        iterator = kwargs.pop("_iterator", None)
        if kwargs:
            raise ValueError(f"Arguments not recognized: {kwargs}")
        if iterator is None:
            iterator = data_adapter.EpochIterator(distribute_step.distribute_input(self, x), y, sample_weight,
                                                  batch_size=batch_size, steps_per_epoch=steps, shuffle=False)
            self._build_on_spec(iterator)
        else:
            iterator.reset()    # fit's validation: each evaluation starts a new pass over the data (Keras)
        if not isinstance(callbacks, callbacks_module.CallbackList):
            callbacks = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, verbose=verbose, epochs=1,
                                                      steps=iterator.num_batches, model=self)
        batch_begin = callbacks.wants("on_test_batch_begin")
        batch_end = callbacks.wants("on_test_batch_end")
        self.stop_evaluating = False
        callbacks.on_test_begin()
        logs = {}
        self.reset_metrics()
        test_function = self.make_test_function()
        if isinstance(test_function, StepFunction):
            test_function.spec_batch_size = iterator.spec_batch_size
        for begin, end, batches in _executions(iterator, self.steps_per_execution):
            if batch_begin:
                callbacks.on_test_batch_begin(begin)
            for data in batches:
                logs = test_function(data)
            if batch_end:
                callbacks.on_test_batch_end(end, logs)
            if self.stop_evaluating:
                break
        logs = callbacks_module.pythonify_logs(self._metrics_result_or_logs(logs))
        callbacks.on_test_end(logs)
        if return_dict:
            return logs
        return _flatten_logs_in_order(self, logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """The model's outputs on `x`, batch by batch, concatenated into NumPy arrays."""
        from tfcompat.keras import callbacks as callbacks_module
        iterator = data_adapter.EpochIterator(x, batch_size=batch_size, steps_per_epoch=steps, shuffle=False)
        if not isinstance(callbacks, callbacks_module.CallbackList):
            callbacks = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, verbose=verbose, epochs=1,
                                                      steps=iterator.num_batches, model=self)
        batch_end = callbacks.wants("on_predict_batch_end")
        self.stop_predicting = False
        callbacks.on_predict_begin()
        struct, outputs = None, None
        predict_function = self.make_predict_function()
        for begin, end, batches in _executions(iterator, self.steps_per_execution):
            callbacks.on_predict_batch_begin(begin)
            batch = predict_function(list(batches))
            leaves = [storage(t).detach() if isinstance(t, Tensor) else t for t in nest.flatten(batch)]
            if outputs is None:
                struct, outputs = batch, [[t] for t in leaves]
            else:
                for acc, t in zip(outputs, leaves):
                    acc.append(t)
            if batch_end:
                callbacks.on_predict_batch_end(end, {"outputs": batch})
            if self.stop_predicting:
                break
        callbacks.on_predict_end()
        if outputs is None:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). Please use "
                             "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
                             "for more information of where went wrong, or file a issue/bug to `tf.keras`.")
        return nest.pack_sequence_as(struct, [_predict_output(ts) for ts in outputs])

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, return_dict=False):
        """One training step on one batch; returns the metrics (after resetting them)."""
        from tfcompat.keras.callbacks import pythonify_logs
        self._assert_compile_called("train_on_batch")
        x, y = nest.map_structure(data_adapter.to_tensor, x), nest.map_structure(data_adapter.to_tensor, y)
        sample_weight = nest.map_structure(data_adapter.to_tensor, sample_weight)
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("Arguments `sample_weight` and `class_weight` cannot be specified at the same "
                                 f"time. Received: sample_weight={sample_weight}, class_weight={class_weight}")
            sample_weight = _wrap(data_adapter.class_weights_for(
                storage(y), data_adapter._class_weight_tensor(class_weight)))
        self.reset_metrics()
        self._train_entry = "train_on_batch"
        try:
            logs = pythonify_logs(self._on_batch_function("train", self.train_step)((x, y, sample_weight)))
        finally:
            self._train_entry = None
        return logs if return_dict else _flatten_logs_in_order(self, logs)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """Loss and metrics of one batch (metrics reset first)."""
        from tfcompat.keras.callbacks import pythonify_logs
        self._assert_compile_called("test_on_batch")
        data = nest.map_structure(data_adapter.to_tensor, (x, y, sample_weight))
        self.reset_metrics()
        logs = pythonify_logs(self._on_batch_function("test", self.test_step)(data))
        return logs if return_dict else _flatten_logs_in_order(self, logs)

    def predict_on_batch(self, x):
        """The model's output on one batch, as NumPy arrays."""
        out = self._on_batch_function("predict", self.predict_step)((nest.map_structure(data_adapter.to_tensor, x),))
        return nest.map_structure(_to_numpy, out)

    # -- summary ---------------------------------------------------------------------------------
    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        """Prints Keras 3's summary table of the layers and parameter counts."""
        from tfcompat.keras.engine.summary import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable, layer_range=layer_range)


def _executions(iterator, steps_per_execution):
    """`(begin_step, end_step, batches)` per execution of `steps_per_execution` batches (Keras runs that many steps
    per call of its train/test/predict function and calls the batch hooks once per call; its `end_step` is
    `begin_step + steps_per_execution - 1` even when the last call runs fewer batches)."""
    if steps_per_execution == 1:
        for step, data in iterator:
            yield step, step, (data,)
        return
    batches = []
    for step, data in iterator:
        batches.append(data)
        if len(batches) == steps_per_execution:
            yield step + 1 - steps_per_execution, step, batches
            batches = []
    if batches:
        begin = step + 1 - len(batches)
        yield begin, begin + steps_per_execution - 1, batches


def _concat_outputs(results):
    """The predict outputs of one execution's batches, concatenated along the batch axis."""
    flat = [[storage(t) for t in nest.flatten(r)] for r in results]
    return nest.pack_sequence_as(results[0], [_wrap(torch.cat(ts)) for ts in zip(*flat)])


def _is_eager(function):
    """Whether a step function made by `make_*_function` is the eager step (a bound method of the model)."""
    return hasattr(function, "__self__")


def _warn_jit(reason, action="runs the train step eagerly"):
    warnings.warn(f"`jit_compile=True`: {reason}; `fit` {action}.", stacklevel=4)


class _CompiledTrainStep:
    """The default train step with `_gradients_and_logs` run by `tf.function(jit_compile=True)` and the optimizer
    update applied eagerly; the eager `train_step` runs for the first step and, from the step whose trace or compile
    failed on (with the model and metric variables as they were before it), for the rest of training."""

    def __init__(self, model):
        from tfcompat.eager.function import function
        self._model = model
        self._function = function(model._gradients_and_logs, jit_compile=True)
        self._failed = False
        self._state = None      # the variables a step writes besides the optimizer's

    def __call__(self, data):
        model = self._model
        variables = model._step_variables()
        if self._failed or not variables or not model.optimizer.built:
            return model.train_step(data)
        if self._state is None:
            self._state = list({id(v): v for v in model.variables + model.metrics_variables}.values())
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        saved = list(map(storage, self._state))
        try:
            grads, logs = self._function(x, y, sample_weight)
        except Exception as e:      # noqa: BLE001 - any trace or compile failure falls back to the eager step
            for v, t in zip(self._state, saved):
                v._set_storage(t)
            self._failed = True
            _warn_jit(f"tracing or compiling the train step failed ({type(e).__name__}: {e})")
            return model.train_step(data)
        model.optimizer.apply(grads, variables)
        return logs


def _attr_metrics(obj):
    out = []
    for k, v in obj.__dict__.items():
        if isinstance(v, compile_utils.metrics_module.Metric) and k != "_loss_tracker" and not k.startswith("_compile"):
            out.append(v)
    return out
