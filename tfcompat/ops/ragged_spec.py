"""`tf.RaggedTensorSpec`: the type of a RaggedTensor (shape, dtype, ragged_rank, row_splits_dtype)."""
from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.misc_ops import TypeSpec


@tf_export("RaggedTensorSpec", unsupported=("flat_values_spec",))
class RaggedTensorSpec(TypeSpec):
    """Describes a RaggedTensor; ragged_rank 0 describes the variable-length rows of one (tf.data elements)."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None):
        self._shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank ({rank}).")
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: None)
    value_type = property(lambda self: RaggedTensor)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if not isinstance(other, (RaggedTensorSpec, RaggedTensor)):
            return False
        return (self._dtype == other.dtype and self._ragged_rank == other.ragged_rank
                and self._row_splits_dtype == other.row_splits_dtype and self._shape.is_compatible_with(other.shape))

    def most_specific_common_supertype(self, others):
        """The most specific RaggedTensorSpec this spec and every one of `others` are subtypes of: shapes
        generalized dim by dim (None when a dtype, ragged_rank or row_splits_dtype differs)."""
        shape = self._shape
        for other in others:
            if type(other) is not RaggedTensorSpec or other._key()[1:] != self._key()[1:]:
                return None
            shape = shape.most_specific_compatible_shape(other.shape)
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def is_subtype_of(self, other):
        """Whether every value of this spec is a value of `other` (same dtypes and ragged_rank, each of `other`'s
        dims unknown or equal)."""
        return self.most_specific_common_supertype([other]) == other

    def with_shape(self, shape, ragged_rank=None):
        """This spec with another shape (and ragged_rank)."""
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank if ragged_rank is None else ragged_rank,
                                self._row_splits_dtype)

    def _key(self):
        return (self._shape.as_list() if self._shape.rank is not None else None, self._dtype, self._ragged_rank,
                self._row_splits_dtype)

    def __eq__(self, other):
        return type(other) is RaggedTensorSpec and self._key() == other._key()

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, {self._row_splits_dtype!r})"
