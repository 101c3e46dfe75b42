"""`tf.Variable`: mutable state with TF's value semantics.

A variable holds its value in `_t`, a torch tensor that never requires grad.
Assignments rebind `_t` to a new tensor instead of writing in place, so every
tensor read from a variable earlier (`read_value()`, `tf.reshape(v, ...)`,
values a tape saved for the backward pass) keeps the value it had, exactly as
TF's copy-on-write variables behave. Tapes see reads through `_read()`.
Outside `framework/`, code reads the stored value with `tensor.storage(v)` and
replaces it with `v._set_storage(t)`, never through `_t`.
"""
import enum

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.context import state
from tfcompat.framework.graph_state import state as _graph_state
from tfcompat.framework.convert import to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Reference, Tensor, _value_text, _wrap, device_name
from tfcompat.framework.tensor_shape import TensorShape


@tf_export("VariableSynchronization")
class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class _AggregationEq:
    """TF's two aggregation enums compare equal member for member (and hash alike)."""

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        if self is other:
            return True
        if isinstance(other, (VariableAggregation, VariableAggregationV2)):
            return int(self.value) == int(other.value)
        return False


@tf_export("VariableAggregation")
class VariableAggregationV2(_AggregationEq, enum.Enum):
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


class VariableAggregation(_AggregationEq, enum.Enum):
    """TF1's enum: the default `aggregation` of `tf.Variable` (a variable made without one prints
    `VariableAggregation.NONE`)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3

_tape_read = None      # set by tfcompat.eager.tape: (variable) -> storage seen by the recording tapes


def _storage(value, dtype):
    if callable(value) and not isinstance(value, (Tensor, np.ndarray, torch.Tensor)):
        value = value()
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, Tensor):
        t = value._t
        if dtype is not None and value.dtype is not dtype:
            raise ValueError(f"initial_value: Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
    else:
        t = to_storage(value, dtype, strict=True, copy_numpy=True)
        if isinstance(value, torch.Tensor) and t is value:
            t = t.clone()
    if isinstance(t, torch.Tensor) and t.requires_grad:
        t = t.detach()
    return t


@tf_export("Variable", unsupported=("variable_def",))
class Variable:
    """A mutable tensor-valued state (`tf.Variable`)."""

    def __new__(cls, *args, **kwargs):
        # tf.Variable(...) makes a ResourceVariable, as in TF (type(v).__name__ == "ResourceVariable"); inside a
        # TF1 graph, a graph variable
        if cls is Variable and _graph_state.graphs:
            from tfcompat.framework.graph_variable import GraphVariable
            return object.__new__(GraphVariable)
        return object.__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None,
                 name=None, variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE,
                 shape=None, experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except when you are not "
                             "providing a `variable_def`. You provided neither.")
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
        t = _storage(initial_value, dtype)
        if isinstance(t, torch.Tensor) and state.device is not None and t.device != state.device:
            t = t.to(state.device)
        self._t = t
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        self._trainable = bool(trainable)
        self._shape = TensorShape(shape) if shape is not None else TensorShape._from_tuple(tuple(t.shape))
        if shape is not None and not self._shape.is_compatible_with(tuple(t.shape)):
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({tuple(t.shape)}) is not "
                             f"compatible with the explicitly supplied `shape` argument ({list(self._shape)}).")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Argument `constraint` must be None or a callable. a callable. Got a "
                             f"{type(constraint)}:  {constraint}")
        self._constraint = constraint
        self._synchronization = synchronization
        self._aggregation = aggregation
        base = name if name is not None else "Variable"
        scope = "/".join(s for s in state.name_scope if s)
        self._name = (scope + "/" + base if scope else base) + ":0"
        self._unique_id = next(_ids)
        for hook in _creation_hooks:
            hook(self)

    # -- value ------------------------------------------------------------------
    def _read(self):
        """The storage ops see: the current value, or the tape-watched handle of it while tapes record."""
        if state.tapes:
            return _tape_read(self)
        return self._t

    def read_value(self):
        return _wrap(self._read())

    value = read_value

    def read_value_no_copy(self):
        return _wrap(self._read())

    def numpy(self):
        return self.read_value().numpy()

    def _array(self):
        return _wrap(self._t)._array()

    def __array__(self, dtype=None, copy=None):
        a = np.array(self._array(), copy=True)
        return a if dtype is None else a.astype(dtype)

    # -- assignment ---------------------------------------------------------------
    def _new_value(self, value):
        """The storage of an assigned value: converted to the variable's dtype as TF's `convert_to_tensor`."""
        t = to_storage(value, dtypes.FROM_STORAGE[self._t.dtype], strict=True)
        if isinstance(t, torch.Tensor):
            if t.requires_grad:
                t = t.detach()
            if t.device != self._t.device:
                t = t.to(self._t.device)
        return t

    def _check_shape(self, t, op):
        if tuple(t.shape) != tuple(self._t.shape):
            from tfcompat.framework import errors
            raise errors.kernel_error(
                errors.InvalidArgumentError, f"Cannot update variable with shape {list(self._t.shape)} using a "
                f"Tensor with shape {list(t.shape)}, shapes must be equal.", op, self.device)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        t = self._new_value(value)
        if not self._shape.is_compatible_with(tuple(t.shape)):
            raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape mismatch.The variable shape "
                             f"{self._shape}, and the assigned value shape "
                             f"{TensorShape(tuple(t.shape))} are incompatible.")
        self._t = t.clone() if t is self._t or _aliases_user(t, value) else t
        return _UnreadVariable(self) if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        t = self._new_value(delta)
        self._check_shape(t, "AssignAddVariableOp")
        self._t = torch.add(self._t, t) if isinstance(self._t, torch.Tensor) else self._t + t
        return _UnreadVariable(self) if read_value else None

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        t = self._new_value(delta)
        self._check_shape(t, "AssignSubVariableOp")
        self._t = torch.sub(self._t, t)
        return _UnreadVariable(self) if read_value else None

    def _set_storage(self, t):
        """Replaces the value by torch tensor `t` (the variable's dtype, shape and device; not requiring grad).

        The one way code outside `Variable` writes a value (optimizers, metrics, restores, sliced assignment).
        TF's variables are copy-on-write: `t` is a new tensor, never the current storage changed in place, and
        the old storage is not written to afterwards, so tensors read earlier (`read_value()`, views such as
        `tf.reshape(v, ...)`, values a tape saved for the backward pass) keep their values. Tapes, tf.function
        traces and optimizers notice the write by the storage's identity (`storage(v)` is a new object).
        The one exception: an optimizer updates its own slot variables' storages in place once it has rebound
        them to copies nobody else has read (`keras/optimizers/base.py`).
        """
        self._t = t

    # -- metadata -----------------------------------------------------------------
    @property
    def dtype(self):
        return dtypes.FROM_STORAGE[self._t.dtype]

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self.shape

    @property
    def ndim(self):
        return self._t.ndim

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @property
    def constraint(self):
        return self._constraint

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def device(self):
        t = self._t
        return device_name(t.device) if isinstance(t, torch.Tensor) else device_name(torch.device("cpu"))

    @property
    def initial_value(self):
        # TF's eager variables keep no initial value either
        raise RuntimeError("This property is not supported when eager execution is enabled.")

    @property
    def handle(self):
        return self

    def ref(self):
        return Reference(self)

    experimental_ref = ref

    def _shape_as_list(self):
        return list(self._t.shape)

    def _shape_tuple(self):
        return tuple(self._t.shape)

    def __iter__(self):
        return iter(self.read_value())

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key. "
                        f"(Variable: {self!r})")

    def __bool__(self):
        return bool(self.read_value())

    def __int__(self):
        return int(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __index__(self):
        return self.read_value().__index__()

    def __repr__(self):
        return (f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_value_text(self._array(), True)}>")

    def __deepcopy__(self, memo):
        v = Variable(self.read_value(), trainable=self._trainable, name=self._name[:-2],
                     constraint=self._constraint, synchronization=self._synchronization,
                     aggregation=self._aggregation)
        memo[id(self)] = v
        return v

    def __reduce__(self):
        return _rebuild_variable, (self.numpy(), self._trainable, self._name[:-2])

    def eval(self, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what you're looking for?")


def _no_inplace(op, method, out):
    def refuse(self, unused_other):
        raise RuntimeError(f"`{op}` with `tf.Variable`s is not supported. Use `{method}` to modify the variable, or "
                           f"`out = {out}` if you need to get a new output Tensor.")
    return refuse


class _ResourceVariableOps:
    """TF's resource variables refuse augmented assignment (`v += 1` would rebind `v` to a tensor); TF's texts,
    `-=`'s suggested `variable * value` included."""

    __iadd__ = _no_inplace("variable += value", "variable.assign_add(value)", "variable + value")
    __isub__ = _no_inplace("variable -= value", "variable.assign_sub(value)", "variable * value")
    __imul__ = _no_inplace("var *= value", "var.assign(var * value)", "var * value")
    __itruediv__ = _no_inplace("var /= value", "var.assign(var / value)", "var / value")
    __ipow__ = _no_inplace("var **= value", "var.assign(var ** value)", "var ** value")


class ResourceVariable(_ResourceVariableOps, Variable):
    """The concrete class of `tf.Variable(...)` objects, as TF names it."""


def _rebuild_variable(value, trainable, name):
    return Variable(value, trainable=trainable, name=name)


def _aliases_user(t, value):
    return isinstance(value, torch.Tensor) and t is value


class _UnreadVariable(_ResourceVariableOps, Variable):
    """What `assign*` returns: reads the assigned variable, shown as 'UnreadVariable' (TF's repr)."""

    def __init__(self, parent):
        object.__setattr__(self, "_parent", parent)

    def __getattr__(self, item):
        return getattr(object.__getattribute__(self, "_parent"), item)

    def __setattr__(self, key, value):
        setattr(self._parent, key, value)

    @property
    def _t(self):
        return self._parent._t

    def _read(self):
        return self._parent._read()

    @property
    def name(self):
        return "UnreadVariable"

    @property
    def _shape(self):
        return self._parent._shape

    @property
    def _trainable(self):
        return self._parent._trainable


import contextlib  # noqa: E402
import itertools  # noqa: E402
_ids = itertools.count(1)
_creation_hooks = []       # callables run on each new variable (tf.Module / Keras tracking, checkpoints)
_init_scope = [contextlib.nullcontext]   # `tf.init_scope`'s context factory (set by eager.function): checkpoint restores
                                         # run under it, so a restore during a tf.function trace is not replayed

# TF's class paths in `type(v)`'s text (instances pickle through `__reduce__`, by tfcompat's functions)
Variable.__module__ = "tensorflow.python.ops.variables"
ResourceVariable.__module__ = _UnreadVariable.__module__ = "tensorflow.python.ops.resource_variable_ops"
