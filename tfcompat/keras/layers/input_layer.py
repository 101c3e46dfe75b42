"""`keras.Input` and `InputLayer`: the entry points of a functional graph."""
import warnings

from tfcompat.keras.backend import standardize_dtype
from tfcompat.keras.engine.functional import Node
from tfcompat.keras.engine.keras_tensor import KerasTensor, standardize_shape
from tfcompat.keras.layers.base import Layer


class InputLayer(Layer):
    """The layer behind `keras.Input`: holds the graph's input KerasTensor."""

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, input_tensor=None,
                 optional=False, name=None, ragged=None, **kwargs):
        if "input_shape" in kwargs:
            warnings.warn("Argument `input_shape` is deprecated. Use `shape` instead.", stacklevel=2)
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        given_name = name
        if input_tensor is not None:        # Keras 3: the graph starts at this KerasTensor, whose spec it takes
            batch_shape, dtype, sparse = _input_tensor_spec(input_tensor, shape, batch_size, batch_shape, dtype,
                                                            sparse)
        super().__init__(name=name, dtype=standardize_dtype(dtype), **kwargs)
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        if input_tensor is None and batch_shape is not None:
            if shape is not None:
                raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
            if batch_size is not None:
                raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the same time.")
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            batch_shape = (batch_size,) + standardize_shape(shape)
        self._batch_shape = standardize_shape(batch_shape)
        self.optional = optional
        if input_tensor is None:
            # as Keras 3: the tensor takes the Input's name when one is given, else the next keras_tensor_N
            input_tensor = KerasTensor(self._batch_shape, dtype=self.dtype, sparse=self.sparse, ragged=self.ragged,
                                       name=given_name)
        self._input_tensor = input_tensor
        node = Node(self, (), {}, input_tensor)
        input_tensor._history = (node, 0)
        self.built = True

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def output(self):
        return self._input_tensor

    def call(self, inputs):
        return inputs

    def get_config(self):
        return {"batch_shape": self._batch_shape, "dtype": self.dtype, "sparse": self.sparse, "ragged": self.ragged,
                "name": self.name, "optional": self.optional}


def _input_tensor_spec(tensor, shape, batch_size, batch_shape, dtype, sparse):
    """(batch_shape, dtype, sparse) of an InputLayer's `input_tensor`, with Keras's checks of the other arguments."""
    if not isinstance(tensor, KerasTensor):
        raise ValueError(f"Argument `input_tensor` must be a KerasTensor. Received invalid type: "
                         f"input_tensor={tensor} (of type {type(tensor)})")
    conflicts = [("batch_size", batch_size is not None and (not tensor.shape or tensor.shape[0] != batch_size)),
                 ("shape", shape is not None and tuple(standardize_shape(shape)) != tuple(tensor.shape[1:])),
                 ("batch_shape", batch_shape is not None and tuple(standardize_shape(batch_shape)) != tensor.shape),
                 ("dtype", dtype is not None and standardize_dtype(dtype) != tensor.dtype),
                 ("sparse", bool(sparse) and not tensor.sparse)]
    for argument, conflict in conflicts:
        if conflict:
            raise ValueError(f"When providing the `input_tensor` argument, you cannot provide an incompatible "
                             f"`{argument}` argument.")
    return tensor.shape, tensor.dtype, tensor.sparse


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None, tensor=None,
          optional=False, ragged=None):
    """A symbolic input of a functional model: `keras.Input(shape=(28, 28, 1))` -> KerasTensor (None, 28, 28, 1).
    `ragged=True` marks it ragged (its layers see a dense placeholder while the model is built, RaggedTensors when
    called on them, as Keras 3 on TF)."""
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, batch_shape=batch_shape,
                       name=name, input_tensor=tensor, optional=optional, ragged=ragged)
    return layer.output
