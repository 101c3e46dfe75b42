"""Top-level runtime helpers: `tf.get_static_value`, `tf.tuple`, `tf.guarantee_const`, `tf.get_current_name_scope`,
`tf.inside_function` (`tf.timestamp` and `tf.grad_pass_through` need tf.function and tapes: `eager/runtime_util.py`)."""
import sys

from tfcompat.framework import indexed_slices as _indexed_slices
from tfcompat.framework import ragged as _ragged
from tfcompat.framework import sparse as _sparse
from tfcompat.framework.context import state
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, no_gradient
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.variables import Variable
from tfcompat.ops import deprecation

_TRACED = []        # predicates registered from above: whether a tensor is a traced (symbolic) value of a tf.function


def register_traced_check(predicate):
    """Registers `predicate(tensor)`: true for a value a tf.function trace computes from its inputs (TF's symbolic
    tensor, whose value `get_static_value` cannot know)."""
    _TRACED.append(predicate)


@tf_export("get_static_value")
def get_static_value(tensor, partial=False):
    """The NumPy value of an eager tensor; None for variables, composite tensors and traced values; any other
    Python value unchanged."""
    if isinstance(tensor, Tensor):
        if any(check(tensor) for check in _TRACED):
            return None
        return tensor.numpy()
    if isinstance(tensor, (Variable, _sparse.SparseTensor, _ragged.RaggedTensor, _indexed_slices.IndexedSlices)):
        return None
    return tensor


@tf_export("tuple")
def tuple(tensors, control_inputs=None, name=None):  # noqa: A001
    """Groups tensors (a barrier in a graph): in eager mode `tensors` itself, unchanged."""
    return tensors


@tf_export("guarantee_const")
def guarantee_const(input, name=None):  # noqa: A002
    """Identity (TF's GuaranteeConst, deprecated); it has no gradient (differentiating it raises LookupError)."""
    deprecation.warn_deprecated("guarantee_const", "tensorflow.python.ops.array_ops", "Not for public use.")
    t = input_storage(input)
    return wrap(no_gradient(t.detach() if hasattr(t, "detach") else t, "GuaranteeConst", t))


@tf_export("get_current_name_scope")
def get_current_name_scope():
    """The `tf.name_scope` stack joined with "/" ("" at top level)."""
    return "/".join(s for s in state.name_scope if s)


@tf_export("inside_function")
def inside_function():
    """True while a graph is built from a function: a `tf.function` body traced, a tf.data function, a Keras layer
    called symbolically."""
    return deprecation._building_graph(sys._getframe(1))


@tf_export("AggregationMethod")
class AggregationMethod:
    """How gradient contributions to one tensor are summed (`tf.gradients(aggregation_method=...)`): constants only;
    tapes sum them in one way whatever the method, which changes no value beyond float rounding order."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2
