"""Keras 3's `HashedCrossing`: the hashed feature cross of two or more categorical inputs (TF's
`tf.sparse.cross_hashed`, FarmHash fingerprints combined as TF's FingerprintCat64), as bin ids or one-hot."""
from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import unsupported_args
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.keras.engine.keras_tensor import KerasTensor
from tfcompat.keras.layers.base import Layer
from tfcompat.ops.gather_ops import one_hot_rows


def _shown(inputs):
    return "[" + ", ".join(repr(x) for x in inputs) + "]"


@unsupported_args("sparse")
class HashedCrossing(Layer):
    """Crosses scalar categorical features (int or string, shapes `()`, `(batch,)` or `(batch, 1)`) into
    `num_bins` hashed bins; `output_mode="one_hot"` encodes the bin."""

    def __call__(self, inputs, *args, **kwargs):
        # Keras converts no input of this layer: each feature of the list becomes a tensor of its own
        if isinstance(inputs, (list, tuple)):
            inputs = type(inputs)(x if x is None or isinstance(x, (Tensor, SparseTensor, RaggedTensor, KerasTensor))
                                  else convert_to_tensor(x) for x in inputs)
        return super().__call__(inputs, *args, **kwargs)

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, autocast=False)       # Keras: inputs are not converted
        if output_mode not in ("int", "one_hot"):
            raise ValueError(f"Unknown value for `output_mode` argument of HashedCrossing. Allowed values are: "
                             f"('int', 'one_hot'). Received: output_mode={output_mode}")
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse
        self.built = True

    def call(self, inputs):
        from tfcompat.ops import feature_cross_ops
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                             f"inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. Received: inputs={inputs}")
        inputs = [x if isinstance(x, (Tensor, SparseTensor, RaggedTensor)) else convert_to_tensor(x) for x in inputs]
        first = tuple(inputs[0].shape)
        rank = len(first)
        if rank > 2 or (rank == 2 and first[-1] != 1):
            raise ValueError(f"All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or "
                             f"`(batch_size, 1)`. Received: inputs={_shown(inputs)}")
        if not all(tuple(x.shape) == first for x in inputs[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={_shown(inputs)}")
        if any(isinstance(x, (SparseTensor, RaggedTensor)) for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should be dense tensors. Received: inputs={_shown(inputs)}")
        if not all(x.dtype.is_integer or x.dtype == dtypes.string for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should have an integer or string dtype. Received: "
                             f"inputs={_shown(inputs)}")
        if rank < 2:
            from tfcompat.ops.array_ops import reshape
            inputs = [reshape(x, (-1, 1)) for x in inputs]
        crossed = feature_cross_ops.cross_hashed(inputs, self.num_bins)
        ids = storage(crossed.flat_values).reshape(-1)        # one cross per row
        if rank == 2:
            ids = ids.reshape(first)
        elif rank == 0:
            ids = ids.reshape(())
        if self.output_mode == "int":
            return _wrap(ids.to(dtypes.as_dtype(self._dtype_policy.compute_dtype).torch_dtype))
        if ids.ndim and ids.shape[-1] == 1:
            ids = ids.squeeze(-1)
        out = one_hot_rows(ids, self.num_bins)
        return _wrap(out.to(dtypes.as_dtype(self._dtype_policy.compute_dtype).torch_dtype))

    def compute_output_shape(self, input_shape):
        if len(input_shape) != 2 or not isinstance(input_shape[0], tuple) or not isinstance(input_shape[1], tuple):
            raise ValueError(f"Expected as input a list/tuple of 2 tensors. Received input_shape={input_shape}")
        if input_shape[0][-1] != input_shape[1][-1]:
            raise ValueError(f"Expected the two input tensors to have identical shapes. Received "
                             f"input_shape={input_shape}")
        if self.output_mode == "int":
            return tuple(input_shape[0])
        if input_shape[0][-1] != 1:
            return tuple(input_shape[0]) + (self.num_bins,)
        return tuple(input_shape[0])[:-1] + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": self._dtype_policy.name}
