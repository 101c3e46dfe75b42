"""`EagerWeakTensor`: a weakly typed tensor (TF's WeakTensor), what Python scalars become under auto dtype conversion;
its dtype defers to the other operand's in the promotion lattice, and it prints with `weak=True`."""
from tfcompat.framework.tensor import EagerTensor, storage, wrap
from tfcompat.numpy_api._lattice import WEAK_DTYPES


class EagerWeakTensor(EagerTensor):
    """A weakly typed eager tensor. Unlike TF's (a composite beside `tf.Tensor`), it is a `tf.Tensor` subclass, so
    `isinstance(x, tf.Tensor)` is True here where TF says False; ops outside the lattice treat it as a plain tensor,
    as TF converts it."""

    __slots__ = ()

    def __repr__(self):
        return _weak_text(EagerTensor.__repr__(self))

    def __str__(self):
        return _weak_text(EagerTensor.__str__(self))

    def __format__(self, format_spec):
        return f"{EagerTensor.__format__(self, format_spec)} weakly typed"

    def __iter__(self):
        return (weak(row) for row in EagerTensor.__iter__(self))

    def to_tensor(self):
        """This value as a plain (strong) tensor."""
        return strong(self)


def _weak_text(text):
    return text[:-1] + ", weak=True" + text[-1]


def weak(x):
    """Tensor `x` as a weak tensor (a new object over the same storage); TypeError for dtypes that cannot be weak."""
    if x.dtype not in WEAK_DTYPES:
        raise TypeError(f"{x.dtype} not allowed as a weak type. The allowed types are {WEAK_DTYPES}.")
    out = wrap(storage(x))
    out.__class__ = EagerWeakTensor
    return out


def strong(x):
    """Weak tensor `x` as a plain tensor over the same storage."""
    return wrap(storage(x))
