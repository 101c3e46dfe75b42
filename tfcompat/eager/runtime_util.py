"""Top-level names that need tf.function or tapes: `tf.timestamp` (a host op run on every call of a function) and
`tf.grad_pass_through`; and what `tf.get_static_value` (ops/runtime_ops.py) asks of a trace."""
import functools
import time

import torch

from tfcompat.eager.custom_gradient import custom_gradient
from tfcompat.eager.function._guards import _symbolic
from tfcompat.eager.function._host import host_call
from tfcompat.eager.function._state import tls
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import _wrap
from tfcompat.framework.variables import Variable
from tfcompat.ops import runtime_ops
from tfcompat.util import nest


def _traced(tensor):
    """Whether `tensor` is a symbolic value of the trace (or symbolic Keras call) running in this thread."""
    if tls.recorder is None and tls.symbols is None:
        return False
    return _symbolic(tensor) is not None


runtime_ops.register_traced_check(_traced)


def _now(_):
    return [torch.tensor(time.time(), dtype=torch.float64)]


@tf_export("timestamp")
def timestamp(name=None):
    """Seconds since the Unix epoch as a float64 scalar; inside a tf.function read on every call."""
    return _wrap(host_call(_now, [])[0])


@tf_export("grad_pass_through")
def grad_pass_through(f):
    """`f` whose gradient is the identity: upstream gradients pass to its arguments unchanged (a straight-through
    estimator), also through ops without a gradient such as `Variable.assign`."""
    @custom_gradient
    def _pass_through(*args, **kwargs):
        def grad(*dys, **grad_kwargs):
            variables = grad_kwargs.get("variables")
            if variables is not None:
                return dys, [None] * len(variables)
            return dys
        out = nest.map_structure(lambda v: v.read_value() if isinstance(v, Variable) else v, f(*args, **kwargs))
        return out, grad

    return functools.wraps(f)(_pass_through)
