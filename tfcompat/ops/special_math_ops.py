"""TF's special functions: `tf.math.special` Bessel functions on torch.special, `lbeta`, `erfcinv`, `polyval`."""
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, unary_input, wrap
from tfcompat.ops import creation_ops, math_ops

_INF = float("inf")


def _no_bfloat16(t, op):
    """TF registers these kernels for half, float and double only."""
    if t.dtype is torch.bfloat16:
        raise errors.op_error(
            errors.NotFoundError,
            f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_BFLOAT16]\nAll kernels registered for op "
            f"{op}:\n  device='CPU'; T in [DT_DOUBLE]\n  device='CPU'; T in [DT_FLOAT]\n  device='CPU'; T in "
            f"[DT_HALF]\n", op)


class _WithDerivative(torch.autograd.Function):
    """`fn(x)` differentiated by TF's formula `derivative(x, y)` (torch has no autograd for these kernels)."""

    @staticmethod
    def forward(ctx, x, fn, derivative):
        y = fn(x)
        ctx.save_for_backward(x, y)
        ctx.derivative = derivative
        return y

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * ctx.derivative(x, y), None, None


_SP = torch.special
# TF's math_grad formulas: d/dx of each function in terms of its companion
_DERIVATIVES = {
    "bessel_j0": lambda x, y: -_SP.bessel_j1(x),
    "bessel_j1": lambda x, y: _SP.bessel_j0(x) - y / x,
    "bessel_y0": lambda x, y: -_SP.bessel_y1(x),
    "bessel_y1": lambda x, y: _SP.bessel_y0(x) - y / x,
    "bessel_k0": lambda x, y: -_SP.modified_bessel_k1(x),
    "bessel_k1": lambda x, y: -_SP.modified_bessel_k0(x) - y / x,
    "bessel_k0e": lambda x, y: y - _SP.scaled_modified_bessel_k1(x),
    "bessel_k1e": lambda x, y: y * (1 - 1 / x) - _SP.scaled_modified_bessel_k0(x),
}


def _bessel(name, op, fn, negative, at_zero=None):
    """A `tf.math.special` Bessel function: `negative` where x < 0 (Cephes' domain value), `at_zero` at +-0."""
    derivative = _DERIVATIVES[name]

    def f(x, name=None):
        t = unary_input(x, op, FLOAT)
        _no_bfloat16(t, op)
        v = t.float() if t.dtype is torch.float16 else t
        y = _WithDerivative.apply(v, fn, derivative) if v.requires_grad else fn(v)
        if negative is not None:
            y = torch.where(v < 0, torch.full_like(y, negative), y)
        if at_zero is not None:
            y = torch.where(v == 0, torch.full_like(y, at_zero), y)
        return wrap(y.to(t.dtype))
    f.__name__ = name
    f.__doc__ = f"TF's `tf.math.special.{name}` (elementwise, float inputs)."
    return tf_export("math.special." + name)(f)


bessel_j0 = _bessel("bessel_j0", "BesselJ0", torch.special.bessel_j0, None)
bessel_j1 = _bessel("bessel_j1", "BesselJ1", torch.special.bessel_j1, None)
bessel_y0 = _bessel("bessel_y0", "BesselY0", torch.special.bessel_y0, -_INF)
bessel_y1 = _bessel("bessel_y1", "BesselY1", torch.special.bessel_y1, -_INF, float("nan"))
bessel_k0 = _bessel("bessel_k0", "BesselK0", torch.special.modified_bessel_k0, _INF)
bessel_k1 = _bessel("bessel_k1", "BesselK1", torch.special.modified_bessel_k1, _INF)
bessel_k0e = _bessel("bessel_k0e", "BesselK0e", torch.special.scaled_modified_bessel_k0, _INF)
bessel_k1e = _bessel("bessel_k1e", "BesselK1e", torch.special.scaled_modified_bessel_k1, _INF)


@tf_export("math.lbeta")
def lbeta(x, name=None):
    """log(|Beta(x)|) over the last axis: sum(lgamma(x)) - lgamma(sum(x)), as TF composes it."""
    x = convert_to_tensor(x)
    log_prod_gamma = math_ops.reduce_sum(math_ops.lgamma(x), axis=[-1])
    return log_prod_gamma - math_ops.lgamma(math_ops.reduce_sum(x, axis=[-1]))


@tf_export("math.erfcinv")
def erfcinv(x, name=None):
    """Inverse of erfc: -ndtri(x / 2) * sqrt(1/2), as TF composes it."""
    x = convert_to_tensor(x)
    return -math_ops.ndtri(0.5 * x) * 0.5 ** 0.5


@tf_export("math.polyval")
def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1] by Horner's rule; `coeffs` is a Python list."""
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = convert_to_tensor(x)
    if not coeffs:
        return creation_ops.zeros_like(x)
    p = convert_to_tensor(coeffs[0])
    for c in coeffs[1:]:
        p = convert_to_tensor(c) + p * x
    return p
