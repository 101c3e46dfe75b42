"""Complex numbers: `tf.complex` and the parts `tf.math.real/imag/conj/angle` with TF's rules for real inputs."""
import math

import torch

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import COMPOSITE_ELEMENTWISE, check_broadcast, input_storage, unary_op, wrap
from tfcompat.framework.tensor import storage

_COMPLEX = frozenset([torch.complex64, torch.complex128])
_real = unary_op(op="Real", fn=lambda t: t.real.clone(), dtypes=_COMPLEX)
_imag = unary_op(op="Imag", fn=lambda t: t.imag.clone(), dtypes=_COMPLEX)
_conj = unary_op(op="Conj", fn=torch.conj_physical, dtypes=_COMPLEX)
_angle = unary_op(op="Angle", fn=torch.angle, dtypes=_COMPLEX)
_PART = {torch.float32: torch.complex64, torch.float64: torch.complex128}


def _tensor(x):
    """`x` as TF's wrappers see it: a composite (ragged/sparse) stays as it is, anything else is converted."""
    return x if type(x) in COMPOSITE_ELEMENTWISE else convert_to_tensor(x)


def _numeric(dtype):
    return dtype.is_floating or dtype.is_integer


@tf_export("math.real")
def real(input, name=None):  # noqa: A002 - TF's name
    """The real part of a complex tensor; a real numeric tensor is returned as it is (TypeError otherwise)."""
    x = _tensor(input)
    if x.dtype.is_complex:
        return _real(x)
    if not _numeric(x.dtype):
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype {x.dtype}")
    return x


@tf_export("math.imag")
def imag(input, name=None):  # noqa: A002
    """The imaginary part of a complex tensor; zeros of the input's dtype for any other tensor."""
    x = _tensor(input)
    if x.dtype.is_complex:
        return _imag(x)
    from tfcompat.ops.creation_ops import zeros_like
    return zeros_like(x)


@tf_export("math.conj")
def conj(x, name=None):
    """The complex conjugate; a real numeric tensor is returned as it is (TypeError for bool and string)."""
    x = _tensor(x)
    if x.dtype.is_complex:
        return _conj(x)
    if not _numeric(x.dtype):
        raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")
    return x


@tf_export("math.angle")
def angle(input, name=None):  # noqa: A002
    """The argument of a complex tensor; for real floats pi where x < 0 else 0 (NaN gives 0), as TF's
    `where(x < 0, pi * ones_like(x), zeros_like(x))`, which fails to convert pi (or 0) for other dtypes."""
    x = _tensor(input)
    if x.dtype.is_complex:
        return _angle(x)
    if x.dtype.is_floating:
        t = input_storage(x)
        return wrap(torch.where(t < 0, torch.full_like(t, math.pi), torch.zeros_like(t)))
    bad = 3.141592653589793 if x.dtype.is_integer else 0
    raise TypeError(f"Cannot convert {bad} to EagerTensor of dtype {x.dtype.name}")


@tf_export("complex")
def complex(real, imag, name=None):  # noqa: A001
    """real + imag * 1j: both float32 (complex64) or both float64 (complex128), broadcast together."""
    re, im = convert_to_tensor(real), convert_to_tensor(imag)
    a, b = storage(re), storage(im)
    if a.dtype is not b.dtype or a.dtype not in _PART:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {re.dtype.name} {im.dtype.name}. "
                        f"They must be consistent, and one of [tf.float32, tf.float64]")
    if a.shape != b.shape:
        check_broadcast("Complex", a, b)
    return wrap(torch.complex(a, b))
