"""`tf.compat.v1.enable/disable_tensor_equality`: TF2's elementwise `==` on tensors and variables, or TF1's identity."""
import tfcompat.ops  # noqa: F401  (attaches the TF2 operators recorded below)
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable

_ELEMENTWISE = {cls: (cls.__eq__, cls.__ne__, cls.__hash__) for cls in (Tensor, Variable)}


def _is(self, other):
    return self is other


def _is_not(self, other):
    return self is not other


def enable_tensor_equality():
    """TF2's `==`/`!=`: elementwise ops; tensors and variables unhashable (the default)."""
    for cls, (eq, ne, hash_) in _ELEMENTWISE.items():
        cls.__eq__, cls.__ne__, cls.__hash__ = eq, ne, hash_


def disable_tensor_equality():
    """TF1's `==`/`!=`: object identity; variables hash by identity (eager tensors stay unhashable, as in TF)."""
    for cls in _ELEMENTWISE:
        cls.__eq__, cls.__ne__ = _is, _is_not
    Variable.__hash__ = object.__hash__
