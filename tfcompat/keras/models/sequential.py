"""`keras.Sequential`: a linear stack of layers, built from the first input shape it sees."""
import numpy as np

from tfcompat.framework.tensor import EagerTensor, storage
from tfcompat.keras import variables as kvars
from tfcompat.keras.engine import naming
from tfcompat.keras.engine.functional import symbolic_call
from tfcompat.keras.layers.input_spec import assert_input_compatibility
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.layers.base import Layer, _in_own_scope, _null
from tfcompat.keras.layers.call_errors import symbolic_call_info
from tfcompat.keras.layers.input_layer import InputLayer
from tfcompat.keras.models.model import Model


class Sequential(Model):
    """Layers applied one after another (`tf.keras.Sequential([...])`, `add`, `pop`)."""

    def __init__(self, layers=None, trainable=True, name=None):
        if name is None:
            name = naming.unique_name("sequential")
        Layer.__init__(self, trainable=trainable, name=name)
        self._input_layer = None
        self._stack = []
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    def add(self, layer, rebuild=True):
        """Appends a layer (a `keras.Input` tensor or InputLayer sets the input shape)."""
        if isinstance(layer, KerasTensor):
            layer = layer._history[0].layer
        if isinstance(layer, InputLayer):
            if self._stack or self._input_layer is not None:
                raise ValueError("Sequential model: an InputLayer can only be the first layer.")
            self._input_layer = layer
            self.__dict__["_plan"] = None
            return
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer} (of type {type(layer)})")
        if any(l is layer for l in self._stack):
            raise ValueError(f"Cannot add layer {layer.name} to Sequential: it is already in it.")
        if not self._stack and self._input_layer is None and hasattr(layer, "_input_shape_arg"):
            self._input_layer = InputLayer(batch_shape=layer._input_shape_arg)
        self._stack.append(layer)
        self._track(layer)
        self.built = False
        self.__dict__["_plan"] = None
        if rebuild:
            self._maybe_rebuild()

    def pop(self, rebuild=True):
        # Keras pops from its layer list, the InputLayer first in it; a rebuild indexes that list's first item
        if not self._stack:
            if self._input_layer is None:
                raise IndexError("list index out of range")
            layer, self._input_layer = self._input_layer, None
            self.built = False
            self.__dict__["_plan"] = None
            if rebuild:
                raise IndexError("list index out of range")
            return layer
        layer = self._stack.pop()
        self._layers.remove(layer)
        if rebuild and not self._stack and self._input_layer is None:
            self.built = False
            self.__dict__["_plan"] = None
            raise IndexError("list index out of range")
        self.built = False
        self.__dict__["_plan"] = None
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self):
        """Keras 3 builds as soon as the input shape is known: from the Input, or from a first layer that has one
        (a built model used as the first layer)."""
        if self._input_layer is not None and self._stack:
            self.build(self._input_layer.batch_shape)
        elif len(self._stack) > 1:
            try:
                shape = self._stack[0].input_shape
            except AttributeError:
                return
            self.build(shape)

    @property
    def layers(self):
        return list(self._stack)

    @layers.setter
    def layers(self, _):
        raise AttributeError("`Sequential.layers` attribute is reserved and should not be used. Use `add()` and "
                             "`pop()` to change the layers in this model.")

    def build(self, input_shape=None):
        """Builds every layer for `input_shape` (batch dim included) by calling the stack on the input's
        KerasTensor, as Keras 3 does: each build adds a node to every layer, so `layer.input`/`layer.output`
        (their first node) exist and feature-extraction models can be cut from the stack."""
        if hasattr(input_shape, "as_list"):     # a TensorShape (Keras's standardize_shape on TF)
            input_shape = input_shape.as_list() if input_shape.rank is not None else None
        if not isinstance(input_shape, (tuple, list)) or \
                not all(d is None or isinstance(d, (int, np.integer)) and d >= 0 for d in input_shape):
            return      # Keras builds only from one input shape (None, or a nest of shapes: nothing to do)
        input_shape = tuple(None if d is None else int(d) for d in input_shape)
        if not self._stack and self._input_layer is None:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no layers. Call "
                             f"`model.add(layer)`.")
        if self._input_layer is not None and tuple(self._input_layer.batch_shape) != input_shape:
            raise ValueError(f"Sequential model '{self.name}' has already been configured to use input shape "
                             f"{tuple(self._input_layer.batch_shape)}. You cannot build it with input_shape "
                             f"{input_shape}")
        self.__dict__["_plan"] = None
        if self._input_layer is None:
            self._input_layer = InputLayer(batch_shape=tuple(input_shape), dtype=self._stack[0].compute_dtype)
        naming.get_uid("functional")   # Keras 3 builds a Sequential through a Functional, using up that name
        x = self._input_layer.output
        # a Sequential built while called inside a Functional already has its own scope: one level, as Keras
        with kvars.name_scope(self.name) if not _in_own_scope(self) else _null():
            for layer in self._stack:
                spec = layer.__dict__.get("input_spec")
                if spec is not None:       # Keras builds by calling each layer, which checks its InputSpec
                    assert_input_compatibility(spec, x, layer.name)
                try:
                    if layer._check_keras_shapes is not None:
                        layer._check_keras_shapes((x,))
                    x = symbolic_call(layer, (x,), {})
                except Exception as e:  # noqa: BLE001 - re-raised with Keras's symbolic call information
                    raise symbolic_call_info(e, layer, (x,), {}) from None
        self._output_spec = x
        self.built = True

    def _build_on_spec(self, iterator):
        """fit/evaluate: build with the batch dimension of the data's spec, as Keras's traced step does
        (`predict` and calls build on the first batch itself)."""
        if not self.built:
            self.__dict__["_spec_batch_size"] = iterator.spec_batch_size

    def _maybe_build(self, args):
        if not self.built:
            shape = tuple(args[0].shape)
            if "_spec_batch_size" in self.__dict__:     # set by _build_on_spec
                shape = (self.__dict__.pop("_spec_batch_size"),) + shape[1:]
            self.build(shape)

    def call(self, inputs, training=None, mask=None, **kwargs):
        if kwargs:
            raise NotImplementedError(f"tfcompat: {type(self).__name__}.call() with context arguments "
                                      f"{sorted(kwargs)} is not supported")
        x = inputs
        in_dtype, in_rank, accepts_training = self._plan or self._make_plan()
        # an eager input of the Input's dtype and rank needs no conversion
        if in_rank is not None and not (type(x) is EagerTensor and (t := storage(x)).dtype is in_dtype and
                                        t.ndim == in_rank):
            from tfcompat.keras.models.functional import adjust_input_ranks, cast_inputs
            kts = [self._input_layer.output]
            x = adjust_input_ranks(kts, cast_inputs(kts, [x]), x)[0]
        for layer, takes_training in zip(self._stack, accepts_training):
            x = layer(x, training=training) if takes_training else layer(x)
        return x

    _plan = None

    def _make_plan(self):
        """What `call` needs, computed again after each change of the model: the Input's torch dtype and rank
        (None without an Input) and whether each layer's `call` takes `training`."""
        from tfcompat.keras.layers.base import _signature_flags
        in_dtype = in_rank = None
        if self._input_layer is not None:
            kt = self._input_layer.output
            in_rank = len(kt._shape)
            try:
                in_dtype = kt._dtype.torch_dtype
            except NotImplementedError:         # tf.string inputs: never the fast path
                pass
        plan = (in_dtype, in_rank, tuple(_signature_flags(type(layer))[0] for layer in self._stack))
        self.__dict__["_plan"] = plan
        return plan

    def _built_attribute(self, what):
        if not self.built or self.__dict__.get("_output_spec") is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined {what} yet.")

    @property
    def input_shape(self):
        self._built_attribute("input shape")
        return self._input_layer.batch_shape

    @property
    def output_shape(self):
        self._built_attribute("output shape")
        return self._output_spec._shape

    @property
    def inputs(self):
        self._built_attribute("inputs")
        return [self._input_layer.output]

    @property
    def outputs(self):
        self._built_attribute("outputs")
        return [self._output_spec]

    def get_config(self):
        from tfcompat.keras.saving_utils import serialize_keras_object
        layers = []
        if self._input_layer is not None:
            layers.append(serialize_keras_object(self._input_layer))
        layers.extend(serialize_keras_object(l) for l in self._stack)
        config = {"name": self.name, "trainable": self.trainable, "dtype": self._dtype_policy.serialize(),
                  "layers": layers}
        if self.built and self._input_layer is not None and self._stack:      # Keras: once its graph is made
            config["build_input_shape"] = tuple(self._input_layer.batch_shape)
        return config
