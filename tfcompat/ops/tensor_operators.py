"""TF's Tensor and Variable operators (`+`, `*`, `==`, `&`, ...), installed on the classes at import: each runs its
`tf.math` op with TF's operator rules (reflected operands converted strictly, `*` of bools through int32, `&`/`|`/`^`
logical for bools, `==` of incompatible shapes False)."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors, ragged as _ragged
from tfcompat.framework.op_def import _like, ALL, binary_inputs, broadcastable, input_storage, wrap
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops.math_ops import (
    abs, add, bitwise_and, bitwise_or, bitwise_xor, cast, equal, floordiv, floormod, greater, greater_equal, invert,
    less, less_equal, logical_and, logical_not, logical_or, logical_xor, matmul, multiply, negative, not_equal, pow,
    subtract, truediv)


def _reflect(fn, bool_fn=None):
    """`other <op> tensor`: `other` is converted to the tensor's dtype strictly, as TF's reflected operators (with
    `bool_fn`, a bool tensor's operator is `bool_fn`)."""
    def r(self, other):
        if not isinstance(other, (Tensor, Variable)):
            other = wrap(_like(other, input_storage(self), True))
        if bool_fn is not None and self.dtype is dtypes.bool:
            return bool_fn(other, self)
        return fn(other, self)
    return r


def _eq_method(self, other):
    if other is None and not isinstance(self, Variable):
        return False
    if other is None:
        return equal(self, other)
    if isinstance(other, (Tensor, Variable)) or isinstance(other, (int, float, bool, complex, list, tuple,
                                                                    np.ndarray, np.generic, str, bytes)):
        a, b = binary_inputs(self, other, "Equal", ALL)
        if a.shape != b.shape and not broadcastable(a.shape, b.shape):
            return wrap(torch.tensor(False))  # TF's `incompatible_shape_error=False`
        return wrap(equal.torch_fn(a, b))
    return NotImplemented


def _ne_method(self, other):
    if other is None and not isinstance(self, Variable):
        return True
    if other is None:
        return not_equal(self, other)
    if isinstance(other, (Tensor, Variable)) or isinstance(other, (int, float, bool, complex, list, tuple,
                                                                    np.ndarray, np.generic, str, bytes)):
        a, b = binary_inputs(self, other, "NotEqual", ALL)
        if a.shape != b.shape and not broadcastable(a.shape, b.shape):
            return wrap(torch.tensor(True))  # TF's `incompatible_shape_error=False`
        return wrap(not_equal.torch_fn(a, b))
    return NotImplemented


def _and(x, y):
    return logical_and(x, y) if _is_bool(x, y) else bitwise_and(x, y)


def _or(x, y):
    return logical_or(x, y) if _is_bool(x, y) else bitwise_or(x, y)


def _xor(x, y):
    return logical_xor(x, y) if _is_bool(x, y) else bitwise_xor(x, y)


def _is_bool(x, y):
    for v in (x, y):
        if isinstance(v, (Tensor, Variable)):
            return storage(v).dtype is torch.bool
    return isinstance(x, bool)


def _invert(x):
    return logical_not(x) if storage(x).dtype is torch.bool else invert(x)


def _neg(x):
    return negative(x)


def _abs(x):
    return abs(x)


def _bool_product(x, y):
    """TF's `*` when an operand is a bool tensor (`tf.multiply` has no bool kernel): both cast to int32, multiplied,
    the product cast to bool."""
    return cast(multiply(cast(x, dtypes.int32), cast(y, dtypes.int32)), dtypes.bool)


def _bool_operands(x, y):
    """Whether TF's `x * y` is `_bool_product`: `x` (the operator's tensor or variable) or a tensor `y` is bool (a
    variable on the right is not, as in TF)."""
    return x.dtype is dtypes.bool or (isinstance(y, Tensor) and y.dtype is dtypes.bool)


def _operator(fn, name, bool_fn=None):
    """`tensor <op> other`; when `other` cannot be converted, its reflected operator gets a try (TF's rule). With
    `bool_fn` (`*`), bool operands take `bool_fn`; it is tried after `fn` refused them, so other dtypes pay
    nothing for it."""
    rname = "__r" + name[2:]

    def method(self, other):
        try:
            return fn(self, other)
        except errors.InvalidArgumentError:
            if bool_fn is None or not _bool_operands(self, other):
                raise
            return bool_fn(self, other)
        except (TypeError, ValueError) as e:
            if bool_fn is not None and _bool_operands(self, other):
                return bool_fn(self, other)
            r = getattr(type(other), rname, None)
            if r is None:
                raise
            try:
                out = r(other, self)
            except (TypeError, ValueError):
                raise e from None
            if out is NotImplemented:
                raise
            return out
    method.__name__ = name
    return method


def _attach(cls):
    ops = {
        "__add__": add, "__sub__": subtract, "__mul__": multiply, "__truediv__": truediv,
        "__floordiv__": floordiv, "__mod__": floormod, "__pow__": pow, "__matmul__": matmul,
        "__lt__": less, "__le__": less_equal, "__gt__": greater, "__ge__": greater_equal,
        "__and__": _and, "__or__": _or, "__xor__": _xor,
    }
    for name, fn in ops.items():
        bool_fn = _bool_product if name == "__mul__" else None
        setattr(cls, name, _operator(fn, name, bool_fn))
        if name not in ("__lt__", "__le__", "__gt__", "__ge__"):
            setattr(cls, "__r" + name[2:], _reflect(fn, bool_fn))
    cls.__eq__ = _eq_method
    cls.__ne__ = _ne_method
    cls.__neg__ = _neg
    cls.__abs__ = _abs
    cls.__invert__ = _invert


_attach(Tensor)
_attach(Variable)
_ragged.register_ops(add=add, subtract=subtract, multiply=multiply, truediv=truediv)
Tensor.__hash__ = Tensor.__dict__["__hash__"]
