"""`keras.optimizers.Optimizer`: Keras 3's optimizer base, updates applied with torch `_foreach` kernels.

Each family implements `_update(params, grads, lr, step)`: `params` and `grads` are lists of torch
storages, `lr` the learning rate and `step` the 1-based step as float32 NumPy scalars (TF computes
these scalars in float32); it updates its slot storages in place (slots are the optimizer's own)
and returns the new parameter storages, which `apply` rebinds (`Variable._set_storage`), so values
read from a variable earlier keep theirs (TF's value semantics). Updating slot storages in place is
the one documented exception to copy-on-write (`_slot_storages`: each slot is first rebound to a copy
that only this optimizer holds).
"""
import functools
import re
import sys
import warnings

import numpy as np
import torch

from tfcompat.eager.function import current_recorder
from tfcompat.framework import errors
from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import EagerTensor, Tensor, _wrap, storage
from tfcompat.keras.engine import naming
from tfcompat.keras.engine.distribute_step import reduce_gradients, replica_context
from tfcompat.keras.variables import Variable, name_scope
from tfcompat.keras.optimizers import schedules

f32 = np.float32


def _tracing():
    """True while a tf.function trace records this thread's ops (cached Python values must not be baked in)."""
    return current_recorder() is not None


def _children_added(obj):
    """Lets pending checkpoint restores give `obj`'s new children their saved values (TF's deferred restoration)."""
    checkpoint = sys.modules.get("tfcompat.train.checkpoint")
    if checkpoint is not None:
        checkpoint.notify_new_children(obj)


def auto_name(class_name):
    """Keras's unique default name: `adam`, then `adam_1`, ... (Keras's snake case of the class name)."""
    return naming.unique_name(naming.to_snake_case(class_name))


def sqrt(tensors):
    """Elementwise square roots of a tensor list (torch's CPU `_foreach_sqrt` is pathologically slow)."""
    if tensors and tensors[0].is_cuda:
        return torch._foreach_sqrt(tensors)
    return [torch.sqrt(t) for t in tensors]


def _grad_storage(g, dtype):
    if type(g) is EagerTensor:
        t = storage(g)
    elif hasattr(g, "_dense"):
        t = g._dense()
        t = storage(t) if isinstance(t, Tensor) else t
    else:
        t = input_storage(g)
    if t.requires_grad:
        t = t.detach()
    return t if t.dtype == dtype else t.to(dtype)


def base_kwargs(weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum,
                 ema_overwrite_frequency, loss_scale_factor, gradient_accumulation_steps, name):
    return dict(weight_decay=weight_decay, clipnorm=clipnorm, clipvalue=clipvalue, global_clipnorm=global_clipnorm,
                use_ema=use_ema, ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                loss_scale_factor=loss_scale_factor, gradient_accumulation_steps=gradient_accumulation_steps,
                name=name)


class Optimizer:
    """Keras 3's optimizer base class (`tf.keras.optimizers.Optimizer`)."""

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        self.name = name if name is not None else auto_name(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.global_clipnorm = global_clipnorm
        self.clipvalue = clipvalue
        self.use_ema = use_ema
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        if gradient_accumulation_steps and not gradient_accumulation_steps >= 2:
            raise ValueError(f"`gradient_accumulation_steps` must be an integer >= 2. Received: "
                             f"gradient_accumulation_steps={gradient_accumulation_steps}")
        if use_ema:
            if ema_momentum > 1 or ema_momentum < 0:
                raise ValueError(f"`ema_momentum` must be in the range [0, 1]. Received: ema_momentum={ema_momentum}")
            if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                            or ema_overwrite_frequency < 1):
                raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. Received: "
                                 f"ema_overwrite_frequency={ema_overwrite_frequency}")
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index = {}
        self._slots = {}             # slot name -> list of Variables (None for absent), by variable index
        self._owned = {}             # id(slot Variable) -> the storage this optimizer last gave it
        with name_scope(self.name):
            self._iterations = Variable(0, name="iteration", dtype="int64", trainable=False)
        self._variables.append(self._iterations)
        self._iter_t = storage(self._iterations)
        self._step = 0
        if isinstance(learning_rate, schedules.LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if not isinstance(learning_rate, float):
                raise ValueError(
                    "Argument `learning_rate` should be float, or an instance of LearningRateSchedule, or a "
                    "callable (that takes in the current iteration value and returns the corresponding learning "
                    f"rate value). Received instead: learning_rate={learning_rate}")
            with name_scope(self.name):
                self._learning_rate = Variable(learning_rate, name="learning_rate", dtype="float32",
                                               trainable=False)
            self._variables.append(self._learning_rate)
        self._lr_t = None
        self._lr_value = None

    # -- state ----------------------------------------------------------------------
    @property
    def iterations(self):
        """The step count; with gradient accumulation, the number of updates (the raw count floor-divided by
        `gradient_accumulation_steps`, as a tensor), as Keras 3."""
        if self.gradient_accumulation_steps:
            return _wrap(torch.div(storage(self._iterations), self.gradient_accumulation_steps, rounding_mode="floor"))
        return self._iterations

    @property
    def variables(self):
        return self._variables[:]

    # `_update` accepts the learning rate and step as 0-d float32 tensors (used while tracing a tf.function)
    _tensor_update = False

    def _current_step(self):
        """The iteration count as a Python int, read from the variable only when someone assigned it.

        Inside a tf.function trace it is always read from the variable, so the recorded program checks
        it (a replay with another step runs the Python body again instead of reusing a stale value).
        """
        t = storage(self._iterations)
        if t is not self._iter_t or _tracing():
            self._step = int(t)
            self._iter_t = t
        return self._step

    def add_variable(self, shape, initializer="zeros", dtype=None, aggregation="none", layout=None, name=None):
        """Creates and tracks an optimizer variable (`<optimizer name>/<name>`)."""
        from tfcompat.keras import initializers
        with name_scope(self.name):
            v = Variable(initializers.get(initializer), shape=shape, dtype=dtype, trainable=False, name=name)
        self._variables.append(v)
        _children_added(self)
        return v

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot shaped like `reference_variable`, named `<its path with _>_<name>`."""
        name = name or "var"
        path = getattr(reference_variable, "path", None)
        if path is not None:
            name = f"{path.replace('/', '_')}_{name}"
        else:
            name = f"{str(reference_variable.name).replace('/', '_').replace(':', '_')}_{name}"
        t = storage(reference_variable)
        value = torch.zeros_like(t) if initializer == "zeros" else torch.full_like(t, initializer)
        with name_scope(self.name):
            v = Variable(_wrap(value), name=name, trainable=False)
        self._variables.append(v)
        self._owned[id(v)] = storage(v)
        _children_added(self)
        return v

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """Slots for each variable, interleaved per variable when `name` is a list (Keras's order)."""
        names = [name] if isinstance(name, str) else list(name)
        inits = initializer if isinstance(initializer, (list, tuple)) else [initializer] * len(names)
        out = tuple([] for _ in names)
        for v in trainable_variables:
            for i, (n, init) in enumerate(zip(names, inits)):
                out[i].append(self.add_variable_from_reference(v, name=n, initializer=init))
        for n, slots in zip(names, out):
            self._slots[n] = slots
        return out[0] if isinstance(name, str) else out

    def build(self, variables):
        """Creates the optimizer's slots for `variables` (once)."""
        if self.built:
            return
        variables = list(variables)
        if self.use_ema:
            self._model_variables_moving_average = self.add_optimizer_variables(variables, "average")
        if self.gradient_accumulation_steps:
            self.add_optimizer_variables(variables, "gradient_accumulator")
        for i, v in enumerate(variables):
            self._index[id(v)] = i
        self._trainable_variables = variables[:]
        self._build_slots(variables)
        self.built = True
        _children_added(self)

    def _build_slots(self, variables):
        pass

    def _slot_storages(self, name, indices):
        """The storages of slot `name` for `indices`, safe to update in place."""
        out = []
        owned = self._owned
        recorder = current_recorder()
        for i in indices:
            v = self._slots[name][i]
            t = storage(v)
            if recorder is not None:
                # a tf.function trace must not mutate the storages it may restore: it updates a copy, which its
                # replays (without tapes) skip when the slot still holds this optimizer's storage (`_claim`)
                t = recorder.private_copy(t, functools.partial(self._claim, v))
                v._set_storage(t)
                owned[id(v)] = t
            elif owned.get(id(v)) is not t:
                t = self._claim(v, t)
                v._set_storage(t)
            out.append(t)
        return out

    def _claim(self, slot, t):
        """Storage `t` of `slot` when this optimizer gave it (it updates it in place), else a copy it now owns (a
        value assigned from outside is copied once)."""
        if self._owned.get(id(slot)) is not t:
            t = t.clone()
            self._owned[id(slot)] = t
        return t

    # -- learning rate --------------------------------------------------------------------
    @property
    def learning_rate(self):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            return lr(self._iterations)         # (the raw count, also with gradient accumulation, as Keras)
        if isinstance(lr, Variable):
            return lr
        return lr()

    @learning_rate.setter
    def learning_rate(self, learning_rate):
        prev = self._learning_rate if isinstance(self._learning_rate, Variable) else None
        if isinstance(learning_rate, schedules.LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
        else:
            if isinstance(self._learning_rate, schedules.LearningRateSchedule):
                raise TypeError(
                    "This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` "
                    "constructor argument, hence its learning rate is not settable. If you need the learning rate "
                    "to be settable, you should instantiate the optimizer with a float `learning_rate` argument.")
            self._learning_rate.assign(learning_rate)
        if prev is not None and not isinstance(self._learning_rate, Variable):
            self._variables = [v for v in self._variables if v is not prev]

    def _lr_scalar(self, step):
        """The learning rate of this step as a float32 NumPy scalar (no device sync for a float rate)."""
        lr = self._learning_rate
        if isinstance(lr, Variable):
            t = storage(lr)
            if t is not self._lr_t or _tracing():
                self._lr_value = f32(t.item())
                self._lr_t = t
            return self._lr_value
        if isinstance(lr, schedules.LearningRateSchedule):
            fast = getattr(lr, "_value", None)
            value = fast(step) if fast is not None else lr(self._iterations)
        else:
            value = lr()
        return f32(value.numpy() if isinstance(value, (Tensor, Variable)) else value)

    def _lr_tensor(self):
        """The learning rate of a traced step as a 0-d float32 tensor: the variable's storage, or the schedule
        computed from the `iterations` variable, so that the recorded program follows the count."""
        lr = self._learning_rate
        if isinstance(lr, Variable):
            return storage(lr)
        value = lr(self._iterations) if isinstance(lr, schedules.LearningRateSchedule) else lr()
        return input_storage(value).to(torch.float32)

    # -- applying gradients ------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, global_step=None):
        """Applies `(gradient, variable)` pairs; returns `iterations`.

        `global_step` is TF 1.x's argument (TF1-era eager code passes
        `tf.train.get_or_create_global_step()`): that variable is incremented by one, as TF 1 did.
        """
        grads, variables = zip(*grads_and_vars)
        self.apply(grads, variables)
        if global_step is not None:
            global_step.assign_add(1)
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Updates `trainable_variables` (or the variables built with) from `grads`.

        In a replica of a tf.distribute strategy, the replicas' gradients are summed first and applied once."""
        if len(grads) == 0:
            return
        ctx = replica_context()
        if ctx is not None:
            variables = self._trainable_variables if trainable_variables is None else list(trainable_variables)
            return reduce_gradients(self, ctx, grads, variables)
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first. ")
            if len(grads) != len(self._index):
                raise ValueError(
                    "When passing `grads` as a list of gradient tensors, the gradients must match "
                    f"`optimizer.variables` one-to-on. Received a list of {len(grads)} gradients, but the "
                    f"optimizer is tracking {len(self._trainable_variables)} trainable variables.")
            trainable_variables = self._trainable_variables
        else:
            trainable_variables = list(trainable_variables)
            if not self.built:
                self.build(trainable_variables)
        index = self._index
        try:
            indices = [index[id(v)] for v in trainable_variables]
        except KeyError:
            for v in trainable_variables:
                if id(v) not in index:
                    raise ValueError(
                        f"Unknown variable: {v}. This optimizer can only be called for the variables it was "
                        "originally built with. When working with a new set of variables, you should recreate a "
                        "new optimizer instance.") from None
        if any(g is None for g in grads):
            grads, trainable_variables, indices = self._filter_empty_gradients(grads, trainable_variables, indices)
        params = list(map(storage, trainable_variables))
        gs = [_grad_storage(g, p.dtype) for g, p in zip(grads, params)]
        if [g.shape for g in gs] != [p.shape for p in params]:
            self._check_gradient_shapes(gs, params, indices)
        if self.loss_scale_factor is not None:
            gs = torch._foreach_div(gs, self.loss_scale_factor)
        accumulate = self.gradient_accumulation_steps
        if self._traced_step():
            # one recording serves every step: step and learning rate are read as tensors, not Python values
            it = storage(self._iterations)
            step_t = torch.div(it, accumulate, rounding_mode="floor") if accumulate else it
            lr, update_step = self._lr_tensor(), torch.add(step_t, 1).to(torch.float32)
            if accumulate:
                self._accumulate_traced(trainable_variables, params, gs, lr, update_step, indices, it)
            else:
                self._update_variables(trainable_variables, params, gs, lr, update_step, indices)
        else:
            raw = self._current_step()
            step = raw // accumulate if accumulate else raw
            lr, update_step = self._lr_scalar(raw), f32(step + 1)
            if not accumulate:
                self._update_variables(trainable_variables, params, gs, lr, update_step, indices)
            elif (raw + 1) % accumulate:
                torch._foreach_add_(self._slot_storages("gradient_accumulator", indices), gs)
            else:                   # the mean of this step's and the accumulated gradients; accumulators reset
                acc = self._slot_storages("gradient_accumulator", indices)
                gs = [(g + a) / accumulate for g, a in zip(gs, acc)]
                torch._foreach_zero_(acc)
                self._update_variables(trainable_variables, params, gs, lr, update_step, indices)
        for v in trainable_variables:
            c = v.constraint
            if c is not None:
                v.assign(c(v))
        if isinstance(update_step, torch.Tensor):
            if self.use_ema:
                self._update_ema_traced(step_t)
            self._iterations._set_storage(torch.add(it, 1))
            self._iter_t = None         # the next eager step reads the count from the variable
            return
        if self.use_ema:
            self._update_ema(step)
        self._iter_t = torch.add(self._iter_t, 1)
        self._iterations._set_storage(self._iter_t)
        self._step = raw + 1

    def _update_variables(self, trainable_variables, params, gs, lr, update_step, indices):
        """Clipping, weight decay and the optimizer's update of `params` from the gradients `gs`."""
        if self.clipnorm or self.global_clipnorm or self.clipvalue:
            gs = self._clip_gradients(gs)
        if self.weight_decay is not None:
            params = self._apply_weight_decay(trainable_variables, params, lr)
        new = self._update(params, gs, lr, update_step, indices)
        for v, t in zip(trainable_variables, new):
            v._set_storage(t)

    def _accumulate_traced(self, trainable_variables, params, gs, lr, update_step, indices, it):
        """A traced step with gradient accumulation, branch-free so that one recording serves every step: the
        update runs on the mean gradient, and its results (variables, slots) are kept only on every
        `gradient_accumulation_steps`-th step; on the others the accumulators keep the sum."""
        n = self.gradient_accumulation_steps
        updates = torch.eq(torch.remainder(torch.add(it, 1), n), 0)
        acc = self._slot_storages("gradient_accumulator", indices)
        summed = torch._foreach_add(acc, gs)
        # every other optimizer variable (slots, and scalars such as Nadam's u_product) keeps its value
        skipped = {id(v) for name in ("gradient_accumulator", "average") for v in self._slots.get(name, ())}
        skipped.add(id(self._iterations))
        slots = [(v, storage(v).clone()) for v in self._variables if id(v) not in skipped]
        self._update_variables(trainable_variables, params, [t / n for t in summed], lr, update_step, indices)
        for v, before in slots:
            v._set_storage(torch.where(updates, storage(v), before))
        for v, p in zip(trainable_variables, params):
            v._set_storage(torch.where(updates, storage(v), p))
        for a, t in zip(acc, summed):
            a.copy_(torch.where(updates, torch.zeros_like(t), t))

    # How a gradient whose shape differs from its variable's fails, as the first TF op of the optimizer's Keras update
    # that sees it: `_equal_shape_op`, the resource update that takes only an equal shape (plain SGD's assign_sub,
    # Adagrad's assign_add), else `_incompatible_op` (op, whether the gradient is its first operand, TF's name tail)
    # for shapes that do not broadcast, and for a gradient that broadcasts to more than the variable's shape the
    # assignment of `_too_big_slot` (a Keras ValueError), or else the variable's assign_add. A gradient that
    # broadcasts to the variable's shape updates it.
    _equal_shape_op = None
    _incompatible_op = ("Sub", True, None)
    _too_big_slot = None

    def _check_gradient_shapes(self, grads, params, indices=None):
        """Raises TF's error for a gradient whose shape cannot update its variable's."""
        def text(shape):
            return "[" + ",".join(map(str, shape)) + "]"

        def node(op, message, name=""):
            return errors.op_error(errors.InvalidArgumentError, "{{function_node __wrapped__%s_device_/job:localhost/"
                                   "replica:0/task:0/device:CPU:0}} %s" % (op, message), op, name=name)
        for k, (g, p) in enumerate(zip(grads, params)):
            if g.shape == p.shape:
                continue
            if self._equal_shape_op is not None:
                raise node(self._equal_shape_op, f"Cannot update variable with shape {text(p.shape)} using a Tensor "
                           f"with shape {text(g.shape)}, shapes must be equal.")
            try:
                joint = torch.broadcast_shapes(g.shape, p.shape)
            except RuntimeError:
                op, grad_first, name = self._incompatible_op
                a, b = (g, p) if grad_first else (p, g)
                raise node(op, f"Incompatible shapes: {text(a.shape)} vs. {text(b.shape)}", name) from None
            if joint == p.shape:
                continue
            if self._too_big_slot is not None and indices is not None:
                slot = self._slots[self._too_big_slot][indices[k]]
                raise ValueError(f"Cannot assign value to variable ' {slot.path}:0': Shape mismatch.The variable "
                                 f"shape {tuple(p.shape)}, and the assigned value shape {tuple(joint)} are "
                                 "incompatible.")
            raise node("AssignAddVariableOp", f"Cannot update variable with shape {text(p.shape)} using a Tensor "
                       f"with shape {text(joint)}, shapes must be equal.")

    def _traced_step(self):
        """Whether this step runs in a tf.function trace with a tensor form of `_update` (see `_tensor_update`)."""
        return self._tensor_update and _tracing()

    def _filter_empty_gradients(self, grads, variables, indices):
        kept = [(g, v, i) for g, v, i in zip(grads, variables, indices) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        missing = [getattr(v, "path", None) or v.name for g, v in zip(grads, variables) if g is None]
        warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the loss. If using "
                      "`model.compile()`, did you forget to provide a `loss` argument?")
        grads, variables, indices = zip(*kept)
        return list(grads), list(variables), list(indices)

    def _clip_gradients(self, gs):
        if self.clipnorm and self.clipnorm > 0:
            c = self.clipnorm
            out = []
            for g in gs:
                norm = torch.sqrt(torch.sum(g * g))
                out.append(g * c / torch.clamp_min(norm, c))
            return out
        if self.global_clipnorm and self.global_clipnorm > 0:
            c = self.global_clipnorm
            norm = torch.sqrt(torch.sum(torch.stack([torch.sum(g * g) for g in gs])))
            scale = c * torch.minimum(1.0 / norm, torch.tensor(1.0 / c, dtype=norm.dtype, device=norm.device)) \
                + (norm - norm)
            return [g * scale.to(g.dtype) for g in gs]
        if self.clipvalue and self.clipvalue > 0:
            return [torch.clamp(g, -self.clipvalue, self.clipvalue) for g in gs]
        return gs

    # -- weight decay ------------------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Excludes variables (or variables whose name contains one of `var_names`) from weight decay."""
        if self.built:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before the optimizer is built.")
        self._exclude_from_weight_decay = {id(v) for v in var_list} if var_list else set()
        self._exclude_from_weight_decay_pattern = re.compile("|".join(set(var_names))) if var_names else None
        self._exclude_from_weight_decay_cache = {}

    def _use_weight_decay(self, variable):
        cache = self.__dict__.setdefault("_exclude_from_weight_decay_cache", {})
        key = id(variable)
        if key not in cache:
            pattern = getattr(self, "_exclude_from_weight_decay_pattern", None)
            cache[key] = not (key in getattr(self, "_exclude_from_weight_decay", ())
                              or (pattern is not None and re.search(pattern, variable.name) is not None))
        return cache[key]

    def _apply_weight_decay(self, variables, params, lr):
        """TF's `variable.assign_sub(variable * wd * lr)` for the variables not excluded."""
        wd = f32(self.weight_decay)
        out = list(params)
        for i, v in enumerate(variables):
            if self._use_weight_decay(v):
                p = params[i]
                out[i] = p - p * float(wd) * (lr if isinstance(lr, torch.Tensor) else float(lr))
        return out

    # -- EMA ---------------------------------------------------------------------------------------
    def _update_ema(self, step):
        momentum = float(f32(self.ema_momentum)) if step != 0 else 0.0
        for var, avg in zip(self._trainable_variables, self._model_variables_moving_average):
            t = momentum * storage(avg) + (1 - momentum) * storage(var)
            avg._set_storage(t)
            self._owned[id(avg)] = t
        if self.ema_overwrite_frequency and (step + 1) % self.ema_overwrite_frequency == 0:
            self._overwrite_model_variables_with_average_value(self._trainable_variables)

    def _update_ema_traced(self, it):
        """`_update_ema` in a traced step, from `it`, the `iterations` count before this step (a tensor)."""
        momentum = torch.ne(it, 0).to(torch.float32) * float(f32(self.ema_momentum))
        for var, avg in zip(self._trainable_variables, self._model_variables_moving_average):
            avg._set_storage(momentum * storage(avg) + (1 - momentum) * storage(var))
        if self.ema_overwrite_frequency:
            overwrite = torch.eq(torch.remainder(torch.add(it, 1), self.ema_overwrite_frequency), 0)
            for var, avg in zip(self._trainable_variables, self._model_variables_moving_average):
                var._set_storage(torch.where(overwrite, storage(avg), storage(var)))

    def _overwrite_model_variables_with_average_value(self, trainable_variables):
        if len(trainable_variables) != len(self._model_variables_moving_average):
            raise ValueError(
                f"The length of model variables ({len(trainable_variables)}) to override does not match the length "
                f"of model variables stored in the optimizer ({len(self._model_variables_moving_average)}). Please "
                "check if the optimizer was called on your model.")
        for var, avg in zip(trainable_variables, self._model_variables_moving_average):
            var.assign(avg)

    def finalize_variable_values(self, var_list):
        """With EMA, overwrites the model variables by their moving averages."""
        if self.use_ema:
            self._overwrite_model_variables_with_average_value(var_list)

    # -- misc ---------------------------------------------------------------------------------------
    def scale_loss(self, loss):
        return loss * self.loss_scale_factor if self.loss_scale_factor is not None else loss

    def set_weights(self, weights):
        if not self.built:
            raise ValueError("You are calling `set_weights()` on an optimizer that has not yet been built. Please "
                             "call `optimizer.build(trainable_variables)` to create the optimizer weights before "
                             "calling `set_weights()`.")
        for variable, weight in zip(self._variables, weights):
            if tuple(variable.shape) != tuple(np.shape(weight)):
                raise ValueError(f"Optimizer variable {id(variable)} has shape {variable.shape} not compatible with "
                                 f"provided weight shape {tuple(np.shape(weight))}.")
            variable.assign(weight)

    def stateless_apply(self, optimizer_variables, grads, trainable_variables):
        raise ValueError("stateless_apply is not supported with the TensorFlow backend (as it is incompatible "
                         "with tf.distribute).")

    def get_config(self):
        lr = self._learning_rate
        if isinstance(lr, schedules.LearningRateSchedule):
            lr = schedules.serialize(lr)
        elif isinstance(lr, Variable):
            lr = float(lr.numpy())
        elif isinstance(lr, Tensor):
            lr = float(lr)
        elif callable(lr):      # Keras serializes it as any object (a lambda as its marshalled code)
            from tfcompat.keras.saving_utils import serialize_keras_object
            lr = serialize_keras_object(lr)
        else:
            lr = 0.5
        return {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(config["learning_rate"], custom_objects=custom_objects)
        return cls(**config)

    def _update(self, params, grads, lr, step, indices):
        raise NotImplementedError(f"{type(self).__name__} must implement the update step")
