"""`tf.RaggedTensor` and `tf.ragged`: tensors whose rows have different lengths (values + row_splits).

`tensor` holds the class, `indexing` its `__getitem__`, `broadcast` elementwise ops with ragged operands (also
reached from every elementwise op of `op_def`), `factory_ops` `tf.ragged.constant` and friends, `dynamic_shape` `tf.shape` of a RaggedTensor.
"""
from tfcompat.framework import op_def as _op_def
from tfcompat.framework.ragged import broadcast as _broadcast
from tfcompat.framework.ragged.tensor import OPS, RaggedTensor, register_ops  # noqa: F401
from tfcompat.framework.ragged.factory_ops import constant, range_, row_splits_to_segment_ids  # noqa: F401
from tfcompat.framework.ragged.factory_ops import segment_ids_to_row_splits  # noqa: F401
from tfcompat.framework.ragged.dynamic_shape import DynamicRaggedShape, RowPartition  # noqa: F401

_op_def.COMPOSITE_ELEMENTWISE[RaggedTensor] = _broadcast.dispatch
