"""`tf.distribute.ReduceOp`: how values of several replicas combine (SUM or MEAN)."""
import enum

from tfcompat.framework.export import tf_export
from tfcompat.framework.variables import VariableAggregation


@tf_export("distribute.ReduceOp")
class ReduceOp(enum.Enum):
    """Indicates how a set of values should be reduced."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        """The ReduceOp of a `tf.VariableAggregation` (SUM or MEAN)."""
        mapping = {VariableAggregation.SUM: ReduceOp.SUM, VariableAggregation.MEAN: ReduceOp.MEAN}
        op = mapping.get(aggregation)
        if op is None:
            raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to "
                             "`tf.distribute.ReduceOp` type")
        return op


def as_reduce_op(reduce_op):
    """`reduce_op` as a ReduceOp ("SUM"/"sum" as TF accepts; other strings raise TF's ValueError)."""
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str):
        return ReduceOp(reduce_op.upper())
    return ReduceOp(reduce_op)
