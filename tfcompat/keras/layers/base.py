"""`keras.layers.Layer`: Keras 3's layer: lazy build, weight tracking, `training` propagation, names.

Tracking follows Keras 3: attributes holding Keras variables, layers, or
lists/dicts of them are tracked; plain `tf.Variable` attributes are not Keras
weights (Keras 3 on TF behaves the same: `model.variables` stays empty), but
tapes and `tf.train.Checkpoint` still see them.
"""
import functools
import inspect
import warnings
import weakref
import sys

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.ragged.tensor import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import EagerTensor, Tensor, storage
from tfcompat.framework.variables import Variable as _TFVariable
from tfcompat.keras import variables as kvars
from tfcompat.keras.dtype_policy import _COMPUTE, DTypePolicy, get_policy  # noqa: F401 (DTypePolicy: its old home)
from tfcompat.keras.engine import call_context, naming
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.layers import auto_config
from tfcompat.keras.layers.call_errors import symbolic_call_info, with_call_info
from tfcompat.keras.layers.input_spec import InputSpec, assert_input_compatibility
from tfcompat.keras.saving_utils import layer_from_config
from tfcompat.util import nest

_FLOAT_POLICIES = ("float16", "float32", "float64", "bfloat16")


def _children_added(obj):
    """Lets pending checkpoint restores give `obj`'s new children their saved values (TF's deferred restoration)."""
    checkpoint = sys.modules.get("tfcompat.train.checkpoint")
    if checkpoint is not None:
        checkpoint.notify_new_children(obj)


def _json_shape(shape):
    """A shape from a JSON build config (lists) as a tuple; a list of shapes stays a list of tuples."""
    if isinstance(shape, (list, tuple)) and all(d is None or isinstance(d, int) for d in shape):
        return tuple(shape)
    return [_json_shape(s) for s in shape] if isinstance(shape, (list, tuple)) else shape


def _bound_shapes(build, layer, args, kwargs):
    bound = inspect.signature(build).bind(layer, *args, **kwargs).arguments
    return {k: v for k, v in list(bound.items())[1:]}


def _build_arity(cls):
    """How many shapes `cls.build` takes (Keras maps several to the call's arguments by name)."""
    return len(inspect.signature(cls.build).parameters) - 1


def build_for_call(layer, args, shapes):
    """`layer.build` for a first call on `args` as Keras 3 calls it: `build(shapes)` of the first argument, or
    `build(a_shape=..., b_shape=...)` when `build` takes a shape per positional argument of `call`."""
    if len(args) > 1 and _build_arity(type(layer)) > 1:
        layer.build(**_call_shapes(layer, args))
    else:
        layer.build(shapes)


def _call_shapes(layer, args):
    """`{"<arg>_shape": shape}` for the positional tensor arguments of `call`, as Keras 3 passes to `build`."""
    names = [n for n in inspect.signature(type(layer).call).parameters][1:]
    return {f"{n}_shape": nest.map_structure(_shape_of, a) for n, a in zip(names, args)}


def _signature_flags(cls):
    flags = _SIG_CACHE.get(cls)
    if flags is None:
        params = inspect.signature(cls.call).parameters
        flags = ("training" in params, "mask" in params,
                 params["training"].default if "training" in params else None)
        _SIG_CACHE[cls] = flags
    return flags


_SIG_CACHE = {}


class Layer:
    """Base class of Keras layers (`tf.keras.layers.Layer`)."""

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        d = obj.__dict__
        d["_trainable_variables"] = []
        d["_non_trainable_variables"] = []
        d["_layers"] = []
        d["_losses"] = []
        d["_tracking"] = True
        d["built"] = False
        d["_trainable"] = True
        if auto_config.uses_auto_config(cls):
            d["_auto_config"] = auto_config.record(cls, args, kwargs)
        return obj

    def __init_subclass__(cls, **kwargs):
        # Like Keras 3, every `build` records its input shape (for `get_build_config`) and marks the layer built.
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_records_shape", False):
            multi = len(inspect.signature(build).parameters) > 2      # `build(self, a_shape, b_shape)`

            @functools.wraps(build)
            def recording_build(self, *args, **kw):
                if multi:
                    self.__dict__.setdefault("_build_shapes_dict", _bound_shapes(build, self, args, kw))
                shape = args[0] if args else kw.get("input_shape")
                self.__dict__.setdefault("_build_input_shape", shape)
                out = build(self, *args, **kw)
                self.__dict__["built"] = True
                _children_added(self)
                return out
            recording_build._records_shape = True
            cls.build = recording_build

    def __init__(self, *, activity_regularizer=None, trainable=True, dtype=None, autocast=True, name=None,
                 **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        batch_size = kwargs.pop("batch_size", None)
        kwargs.pop("input_length", None) if type(self).__name__ == "Embedding" else None
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        if input_dim is not None or input_shape is not None:
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential "
                          "models, prefer using an `Input(shape)` object as the first layer in the model instead.",
                          stacklevel=2)
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if batch_input_shape is not None:
            self._input_shape_arg = tuple(batch_input_shape)
        elif input_shape is not None:
            self._input_shape_arg = (batch_size,) + tuple(input_shape)
        if name is None:
            name = naming.unique_name(naming.to_snake_case(type(self).__name__))
        elif not isinstance(name, str) or "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name} (of type {type(name)})")
        self.name = name
        self._trainable = trainable
        self._dtype_policy = get_policy(dtype)
        self.autocast = autocast
        from tfcompat.keras import regularizers
        self.activity_regularizer = regularizers.get(activity_regularizer) if activity_regularizer else None
        self.supports_masking = type(self).compute_mask is not Layer.compute_mask   # Keras: an own compute_mask
        self.input_spec = None

    # -- attribute tracking ------------------------------------------------------------
    def __setattr__(self, name, value):
        if name != "_tracking" and self.__dict__.get("_tracking", True):
            value = self._track(value)
        object.__setattr__(self, name, value)
        _children_added(self)

    def __delattr__(self, name):
        value = self.__dict__.get(name)
        object.__delattr__(self, name)
        for v in nest.flatten(value) if isinstance(value, (list, tuple, dict)) else [value]:
            if isinstance(v, Layer) and v in self._layers:
                self._layers.remove(v)
            elif isinstance(v, kvars.Variable):
                for lst in (self._trainable_variables, self._non_trainable_variables):
                    if any(x is v for x in lst):
                        lst[:] = [x for x in lst if x is not v]

    def _track(self, value):
        if isinstance(value, Layer):
            if value is not self and not any(v is value for v in self._layers):
                self._layers.append(value)
        elif isinstance(value, kvars.Variable):
            self._track_variable(value)
        elif isinstance(value, list) and not isinstance(value, TrackedList):
            if any(isinstance(v, (Layer, kvars.Variable, list, dict)) for v in value):
                value = TrackedList(self, value)
        elif isinstance(value, dict) and not isinstance(value, TrackedDict) and type(value) is dict:
            if any(isinstance(v, (Layer, kvars.Variable, list, dict)) for v in value.values()):
                value = TrackedDict(self, value)
        elif isinstance(value, tuple) and not hasattr(value, "_fields"):
            for v in value:
                self._track(v)
        return value

    def _track_variable(self, v):
        lst = self._trainable_variables if v.trainable else self._non_trainable_variables
        if not any(x is v for x in lst):
            lst.append(v)
        if not self._trainable:     # Keras 3: a frozen layer's new variables are frozen too
            v.trainable = False

    # -- weights ------------------------------------------------------------------------
    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable=True, autocast=True,
                   regularizer=None, constraint=None, aggregation="none", overwrite_with_gradient=False,
                   name=None, **kwargs):
        """Creates a Keras variable tracked by this layer (`glorot_uniform` for floats, zeros otherwise)."""
        if args:
            if isinstance(args[0], str):
                raise ValueError(f"`name` must be passed as a keyword argument. Received: add_weight("
                                 f"'{args[0]}', ...). Use: add_weight(shape=..., name='{args[0]}').")
            names = ("shape", "initializer", "dtype", "trainable", "autocast", "regularizer", "constraint",
                     "aggregation", "overwrite_with_gradient", "name")
            if len(args) > len(names):
                raise TypeError(f"add_weight() takes at most {len(names)} positional arguments")
            given = dict(zip(names, args))
            shape = given.get("shape", shape)
            initializer = given.get("initializer", initializer)
            dtype = given.get("dtype", dtype)
            trainable = given.get("trainable", trainable)
            regularizer = given.get("regularizer", regularizer)
            constraint = given.get("constraint", constraint)
            name = given.get("name", name)
        from tfcompat.keras import constraints, initializers, regularizers
        if kwargs.pop("use_resource", None) is not None or kwargs.pop("synchronization", None) is not None:
            pass
        if kwargs:
            raise TypeError(f"add_weight() got unexpected keyword arguments: {sorted(kwargs)}")
        shape = () if shape is None else tuple(None if d is None else int(d) for d in shape)
        if None in shape:
            with kvars.name_scope(self.name) if not _in_own_scope(self) else _null():
                path = kvars.current_path(name or "variable")
            raise ValueError(f"Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
                             f"Received: shape={shape} for variable path='{path}'")
        dtype = dtypes.as_dtype(dtype).name if dtype is not None else self._dtype_policy.variable_dtype
        if initializer is None:
            initializer = "glorot_uniform" if dtypes.as_dtype(dtype).is_floating else "zeros"
        initializer = initializers.get(initializer)
        with kvars.name_scope(self.name) if not _in_own_scope(self) else _null():
            v = kvars.Variable(initializer, shape=shape, dtype=dtype, trainable=trainable, autocast=autocast,
                               name=name, regularizer=regularizers.get(regularizer) if regularizer else None,
                               constraint=constraints.get(constraint) if constraint else None)
        v.overwrite_with_gradient = overwrite_with_gradient
        self._track_variable(v)
        return v

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        """Keras 3: (un)freezes the layer, the variables it created trainable and its sublayers, recursively."""
        value = bool(value)
        self.__dict__["_trainable"] = value
        for v in self._trainable_variables:
            v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    @property
    def weights(self):
        """Own variables (trainable first), then each sublayer's, each variable once at its first place."""
        out = self._trainable_variables + self._non_trainable_variables
        for layer in self._layers:
            out += layer.weights
        if len(set(map(id, out))) == len(out):      # the common case: no variable shared, nothing to drop
            return out
        seen = set()
        return [w for w in out if id(w) not in seen and not seen.add(id(w))]

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for w in self.weights if w.trainable]

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return self.weights
        return [w for w in self.weights if not w.trainable]

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def get_weights(self):
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(mine)} weights.")
        for v, w in zip(mine, weights):
            w = np.asarray(w)
            if tuple(w.shape) != tuple(v.shape):
                raise ValueError(f"Layer {self.name} weight shape {tuple(v.shape)} is not compatible with "
                                 f"provided weight shape {tuple(w.shape)}.")
            v.assign(w)

    @property
    def losses(self):
        """Losses added during the last outermost call (add_loss, activity regularizers), then weight penalties."""
        out = []
        for layer in self._flatten_layers():
            out.extend(layer._losses)
        for w in self.weights:
            reg = getattr(w, "regularizer", None)
            if reg is not None:
                out.append(reg(w))
        return out

    def add_loss(self, loss):
        _CALL_LOSSES[0] = True
        self._losses.append(loss if isinstance(loss, Tensor) else convert_to_tensor(loss))

    def _clear_losses(self):
        for layer in self._flatten_layers():
            layer._losses.clear()

    def _flatten_layers(self, include_self=True, recursive=True):
        if include_self:
            yield self
        for layer in self._layers:
            yield layer
            if recursive:
                yield from layer._flatten_layers(include_self=False)

    # -- dtypes ---------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @property
    def input_dtype(self):
        return self._dtype_policy.compute_dtype

    # -- building and calling ---------------------------------------------------------------
    def build(self, input_shape=None):
        """Marks the layer built (Keras 3 warns when it is called explicitly with unbuilt sublayers)."""
        if not call_context.building() and any(not layer.built for layer in self._layers):
            warnings.warn(f"`build()` was called on layer '{self.name}', however the layer does not have a `build()` "
                          f"method implemented and it looks like it has unbuilt state. This will cause the layer to "
                          f"be marked as built, despite not being actually built, which may cause failures down the "
                          f"line. Make sure to implement a proper `build()` method.", UserWarning, stacklevel=2)
        if input_shape is not None:     # Keras records every build's shapes (get_build_config)
            self.__dict__.setdefault("_build_input_shape", input_shape)
        self.built = True

    def _maybe_build(self, args):
        if self.built:
            return
        shapes = nest.map_structure(_shape_of, args[0]) if args else None
        self.__dict__["_build_input_shape"] = shapes
        with kvars.name_scope(self.name) if not _in_own_scope(self) else _null():
            call_context.enter_build()
            try:
                build_for_call(self, args, shapes)
            finally:
                call_context.exit_build()
        self.built = True

    def __call__(self, *args, **kwargs):
        spec = self.__dict__.get("input_spec")
        raw_args = None         # a data layer's Python list, which Keras's call information shows as given
        if args and type(args[0]) is not EagerTensor and _contains_keras_tensor(args, kwargs):
            if spec is not None:
                assert_input_compatibility(spec, args[0], self.name)
            from tfcompat.keras.engine.functional import symbolic_call
            try:
                if self._check_keras_shapes is not None:
                    self._check_keras_shapes(args)
                return symbolic_call(self, args, kwargs)
            except Exception as e:  # noqa: BLE001 - re-raised with Keras's symbolic call information
                raise symbolic_call_info(e, self, args, kwargs) from None
        if not (len(args) == 1 and type(args[0]) is EagerTensor and
                storage(args[0]).dtype is self._dtype_policy._compute_storage):
            if self._allow_non_tensor_positional_args and args and isinstance(args[0], _PYTHON_DATA):
                raw_args = args
                args = (convert_to_tensor(args[0]),) + args[1:]   # Keras's data layers take Python lists
            args = tuple(nest.map_structure(self._convert_inputs, a) for a in args)
            kwargs = {k: (nest.map_structure(self._convert_inputs, v) if isinstance(v, (np.ndarray, list, tuple,
                                                                                          dict)) else v)
                      for k, v in kwargs.items()}
            _check_positional(args)
            if self._promotes_int_inputs and args and type(args[0]) is EagerTensor:
                args = (self._promote_int_input(args[0]),) + args[1:]
        if spec is not None and args:        # Keras checks the converted (autocast) first input
            x = args[0]
            if type(x) is not EagerTensor or type(spec) is not InputSpec or \
                    ((t := storage(x)).shape, t.dtype) not in spec._passed:
                assert_input_compatibility(spec, x, self.name)
        try:
            has_training, has_mask, training_default = _SIG_CACHE[type(self)]
        except KeyError:
            has_training, has_mask, training_default = _signature_flags(type(self))
        previous_mask = _masks_of(args[0]) if (_MASKS and args) else None
        if "mask" in kwargs and kwargs["mask"] is not None:
            previous_mask = kwargs["mask"]
        elif previous_mask is not None and has_mask:
            kwargs["mask"] = previous_mask        # Keras passes the input's mask to `call(mask=...)`
        state = call_context.state
        stack = state.stack         # `training` of the enclosing calls
        training = kwargs["training"] if has_training and "training" in kwargs else None
        if has_training:
            if training is None:
                training = stack[-1] if stack else None
                if training is None:
                    training = training_default
                kwargs["training"] = training
        elif "training" in kwargs:
            training = kwargs.pop("training")
        if not self.built:
            if type(self).build is Layer.build and any(not layer.built for layer in self._layers):
                from tfcompat.keras.engine.functional import trace_to_build
                trace_to_build(self, args, kwargs)
            self._maybe_build(args)
            spec = self.__dict__.get("input_spec")
            if spec is not None and args:        # as Keras: build may have set the spec (Dense's last axis)
                assert_input_compatibility(spec, args[0], self.name)
        if _CALL_LOSSES[0] and not stack:
            self._clear_losses()     # as Keras: a new outermost call starts with no added losses
        scopes = state.scopes
        name = self.name
        scoped = not scopes or scopes[-1] != name
        if scoped:
            scopes.append(name)
        stack.append(training)
        try:
            outputs = self.call(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - re-raised with Keras's call information
            raise with_call_info(e, self, args if raw_args is None else raw_args, kwargs) from None
        finally:
            stack.pop()
            if scoped:
                scopes.pop()
        if self.activity_regularizer is not None:
            _CALL_LOSSES[0] = True
            for o in nest.flatten(outputs):
                loss = self.activity_regularizer(o)
                self._losses.append(loss / storage(o).shape[0] if o.shape.rank else loss)   # the batch's size
        if self.supports_masking and (previous_mask is not None or type(self).compute_mask is not
                                      Layer.compute_mask):
            _set_output_masks(self, args[0] if args else None, outputs, previous_mask)
        elif previous_mask is not None:
            warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an input with a mask "
                          f"attached to it. However, this layer does not support masking and will therefore "
                          f"destroy the mask information. Downstream layers will not see the mask.")
        return outputs

    def compute_mask(self, inputs, previous_mask=None):
        """The mask of this layer's output (Keras 3: the input's mask, passed through)."""
        return previous_mask

    # Layers whose float weights meet the input (Dense, EinsumDense, normalization, RNNs): Keras computes them
    # in the float dtype, so an integer or bool first input is cast to the compute dtype (uint8 images train).
    _promotes_int_inputs = False
    # Keras's data (preprocessing) layers also take Python lists and scalars as their input.
    _allow_non_tensor_positional_args = False
    # A layer whose Keras `compute_output_shape` rejects some KerasTensor shapes checks them here
    # (`_check_keras_shapes(args)`, raising `call_errors.call_error`), as Keras does in its symbolic call.
    _check_keras_shapes = None

    def _promote_int_input(self, x):
        t = storage(x)
        if type(t) is not torch.Tensor or t.is_floating_point() or t.is_complex():
            return x
        from tfcompat.ops.math_ops import cast
        y = cast(x, self._dtype_policy.compute_dtype)
        mask = _mask_of(x) if _MASKS else None
        if mask is not None:
            _set_mask(y, mask)
        return y

    def _convert_inputs(self, x):
        """Keras 3's input conversion: arrays become tensors; floating inputs cast to the compute dtype."""
        if type(x) is EagerTensor:
            t = storage(x)
            if self.autocast and type(t) is torch.Tensor and t.dtype.is_floating_point and \
                    t.dtype is not _COMPUTE.get(self._dtype_policy.compute_dtype):
                from tfcompat.ops.math_ops import cast
                y = cast(x, self._dtype_policy.compute_dtype)
                mask = _mask_of(x) if _MASKS else None
                if mask is not None:           # as Keras: the converted input keeps its mask
                    _set_mask(y, mask)
                return y
            return x
        if isinstance(x, (np.ndarray, np.generic, torch.Tensor)) or (
                hasattr(x, "__array__") and not isinstance(x, (Tensor, _TFVariable, KerasTensor))):
            return self._convert_inputs(convert_to_tensor(x))     # as Keras: any `__array__` object (pandas)
        return x

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method implemented.")

    def compute_output_shape(self, input_shape):
        """The output shape for `input_shape`: Keras 3's base class raises for a custom layer (or subclassed model)
        that does not implement it; tfcompat's own layers infer theirs from a symbolic call."""
        if not _infers_output_shape(type(self)):
            raise NotImplementedError(f"Layer {type(self).__name__} does not have a `compute_output_shape` method "
                                      "implemented. Should implement `def compute_output_shape(self, input_shape)`.")
        from tfcompat.keras.engine.functional import infer_output_shape
        return infer_output_shape(self, input_shape)

    def compute_output_spec(self, *args, **kwargs):
        """Keras 3: the KerasTensor(s) the layer returns for these KerasTensor arguments, without running it."""
        from tfcompat.keras.engine.functional import infer_output_spec
        return infer_output_spec(self, args, kwargs)

    def count_params(self):
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't "
                             f"built. You can build it manually via: `layer.build(input_shape)`.")
        return int(sum(np.prod(w.shape.as_list()) if w.shape.rank else 1 for w in self.weights))

    # -- config --------------------------------------------------------------------------------
    def get_build_config(self):
        """Keras 3's build config: the input shape the layer was built with (None if it never was), or the
        `shapes_dict` of a `build` taking several shapes."""
        shapes = self.__dict__.get("_build_shapes_dict")
        if shapes is not None and len(shapes) == 1:     # Keras: one shape given is the input shape
            return {"input_shape": next(iter(shapes.values()))}
        if shapes is not None:
            return {"shapes_dict": shapes}
        shape = self.__dict__.get("_build_input_shape")
        if shape is None and self.built and getattr(self, "_nodes", None) is not None:
            return {"input_shape": None}        # a functional model (Keras records its build without a shape)
        return {"input_shape": shape} if shape is not None else None

    def save_own_variables(self, store):
        """Keras 3: writes the layer's own variables into the dict-like `store` as "0", "1", ... (override it to
        save other state; loading then calls `load_own_variables`)."""
        for i, v in enumerate(self._trainable_variables + self._non_trainable_variables):
            store[str(i)] = v.numpy()

    def load_own_variables(self, store):
        """Keras 3: assigns the layer's own variables from `store` ("0", "1", ...)."""
        all_vars = self._trainable_variables + self._non_trainable_variables
        if len(store.keys()) != len(all_vars):
            raise ValueError(f"Layer '{self.name}' expected {len(all_vars)} variables, but received "
                             f"{len(store.keys())} variables during loading. Expected: {[v.name for v in all_vars]}")
        for i, v in enumerate(all_vars):
            v.assign(store[str(i)])

    def build_from_config(self, config):
        """Keras 3: creates the layer's state from `get_build_config()`: `build(input_shape)` or
        `build(**shapes_dict)`."""
        if not config:
            return
        with kvars.name_scope(self.name):
            if "input_shape" in config:
                self.build(_json_shape(config["input_shape"]))
            elif "shapes_dict" in config:
                self.build(**{k: _json_shape(v) for k, v in config["shapes_dict"].items()})
        self.built = True

    def get_config(self):
        """Keras 3's layer config; a subclass without its own `get_config` adds its constructor's arguments."""
        config = auto_config.base_config(self) if auto_config.uses_auto_config(type(self)) else {"name": self.name}
        config.update(trainable=self.trainable, dtype=self._dtype_policy.serialize())
        if self.activity_regularizer is not None:               # Keras 3 writes it only when set
            from tfcompat.keras.saving_utils import serialize_keras_object
            config["activity_regularizer"] = serialize_keras_object(self.activity_regularizer)
        if hasattr(self, "_input_shape_arg"):
            config["batch_input_shape"] = self._input_shape_arg
        return config

    get_config._keras_auto_config = True

    @classmethod
    def from_config(cls, config):
        return layer_from_config(cls, config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    # -- functional-API introspection ---------------------------------------------------------------
    @property
    def input(self):
        """The input KerasTensor(s) of the layer's first symbolic call (Keras 3: node 0, even when shared)."""
        return self._first_node("input").unpacked_inputs()

    @property
    def output(self):
        """The output KerasTensor(s) of the layer's first symbolic call."""
        return self._first_node("output").unpacked_outputs()

    def _first_node(self, what):
        nodes = self.__dict__.get("_inbound_nodes") or []
        if not nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined {what}.")
        return nodes[0]


# Keras's `_keras_mask`: the mask a layer attached to a tensor it returned (tensors take no attributes, so
# it is kept here by id, with a weak reference that removes it when the tensor goes away)
_MASKS = {}


def _mask_of(x):
    entry = _MASKS.get(id(x))
    return entry[1] if entry is not None and entry[0]() is x else None


def _masks_of(x):
    """The mask of `x`, or of each tensor of a list/tuple `x` (None when nothing carries one)."""
    if isinstance(x, (list, tuple)):
        masks = [_mask_of(v) for v in x]
        return masks if any(m is not None for m in masks) else None
    return _mask_of(x)


def _set_output_masks(layer, inputs, outputs, previous_mask):
    """Keras 3's `_set_mask_metadata`: outputs without a mask get `compute_mask(inputs, previous_mask)`."""
    flat = nest.flatten(outputs)
    if all(isinstance(o, Tensor) and _mask_of(o) is not None for o in flat):
        return
    masks = layer.compute_mask(inputs, previous_mask)
    if masks is None:
        return
    for o, m in zip(flat, nest.flatten(masks)):
        if m is not None and isinstance(o, Tensor) and _mask_of(o) is None:
            _set_mask(o, m)


def _keras_mask(x):
    mask = _mask_of(x)
    if mask is None:
        raise AttributeError(f"'{type(x).__name__}' object has no attribute '_keras_mask'")
    return mask


Tensor._keras_mask = property(_keras_mask, lambda x, mask: _set_mask(x, mask),
                              doc="Keras's mask of a layer output (kept in `_MASKS` by the tensor's id).")


def _set_mask(x, mask):
    key = id(x)

    def forget(ref, key=key):
        entry = _MASKS.get(key)
        if entry is not None and entry[0] is ref:
            del _MASKS[key]
    _MASKS[key] = (weakref.ref(x, forget), mask)


# Set once any layer of the process adds a call-time loss; until then calls skip clearing them. Process-wide on
# purpose: it only ever turns on, and a layer may add losses in one thread and be called in another.
_CALL_LOSSES = [False]
_PYTHON_DATA = (list, tuple, int, float, str, bytes, np.generic)


# tfcompat's own layers and Sequential/functional models infer their output shapes (Keras's implement theirs)
_SHAPE_INFERRING_MODULES = ("tfcompat.keras.layers.", "tfcompat.keras.models.sequential",
                            "tfcompat.keras.models.functional")


def _infers_output_shape(cls):
    """Whether a `cls` layer has an output shape without a call: a class below `Layer` in its MRO implements
    `compute_output_shape` or is one of tfcompat's layers (a user's layer or subclassed `Model` does not)."""
    for c in cls.__mro__:
        if c is Layer:
            return False
        if "compute_output_shape" in c.__dict__ or c.__module__.startswith(_SHAPE_INFERRING_MODULES):
            return True
    return False


def _in_own_scope(layer):
    scopes = call_context.state.scopes
    return bool(scopes) and scopes[-1] == layer.name


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _shape_of(x):
    if isinstance(x, (Tensor, KerasTensor, SparseTensor)):
        return tuple(x.shape)
    if isinstance(x, _TFVariable):
        return tuple(x.shape)
    if isinstance(x, (np.ndarray, torch.Tensor)):
        return tuple(x.shape)
    if isinstance(x, (int, float)):
        return ()
    return x


def _contains_keras_tensor(args, kwargs):
    first = args[0]
    if isinstance(first, KerasTensor):
        return True
    if isinstance(first, (list, tuple, dict)):
        return any(isinstance(x, KerasTensor) for x in nest.flatten(first))
    return False


def _check_positional(args):
    """Keras 3 accepts only tensors (or None) as positional call arguments."""
    for leaf in nest.flatten(args):
        if leaf is not None and not isinstance(leaf, (Tensor, _TFVariable, KerasTensor, SparseTensor, RaggedTensor)):
            raise ValueError(f"Only input tensors may be passed as positional arguments. The following argument "
                             f"value should be passed as a keyword argument: {leaf} (of type {type(leaf)})")


class TrackedList(list):
    """A list attribute of a layer whose layers/variables stay tracked as it changes (Keras's TrackedList)."""

    def __init__(self, owner, values):
        super().__init__(owner._track(v) for v in values)
        self._owner = owner

    def append(self, value):
        super().append(self._owner._track(value))

    def extend(self, values):
        for v in values:
            self.append(v)

    def insert(self, index, value):
        super().insert(index, self._owner._track(value))

    def __setitem__(self, key, value):
        super().__setitem__(key, self._owner._track(value) if not isinstance(key, slice) else
                            [self._owner._track(v) for v in value])


class TrackedDict(dict):
    """A dict attribute of a layer whose layers/variables stay tracked."""

    def __init__(self, owner, values):
        super().__init__((k, owner._track(v)) for k, v in values.items())
        self._owner = owner

    def __setitem__(self, key, value):
        super().__setitem__(key, self._owner._track(value))

    def update(self, *args, **kwargs):
        for k, v in dict(*args, **kwargs).items():
            self[k] = v
