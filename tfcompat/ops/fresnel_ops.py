"""`tf.math.special.fresnel_cos` / `fresnel_sin`: the Fresnel integrals C(x), S(x) of cos/sin(pi t^2 / 2) on [0, x].

Computed in float64: the power series for |x| <= 2.5 and, beyond, C + iS = (1 + i)/2 erf(sqrt(pi)(1 - i) x / 2) with
erfc's continued fraction (its exp(-z^2) factor has modulus one on that ray); gradients are TF's registered ones,
grad * cos(pi/2 x^2) and grad * sin(pi/2 x^2) in the input's dtype.
"""
import math

import torch

from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import wrap
from tfcompat.ops.special_math_ops import _special_input

_SERIES_LIMIT = 2.5
_SERIES_TERMS = 60
_FRACTION_DEPTH = 160


def _series(x):
    """(C, S) by their Maclaurin series; exact to float64 rounding for |x| <= 2.5 (largest term ~ e^9.8)."""
    z = (math.pi / 2) * x * x
    c_term = x.clone()                     # (-1)^n z^(2n) x / (2n)!
    s_term = x * z                         # (-1)^n z^(2n+1) x / (2n+1)!
    c_sum = c_term.clone()
    s_sum = s_term / 3
    for n in range(1, _SERIES_TERMS):
        c_term = -c_term * z * z / ((2 * n - 1) * (2 * n))
        s_term = -s_term * z * z / ((2 * n) * (2 * n + 1))
        c_sum = c_sum + c_term / (4 * n + 1)
        s_sum = s_sum + s_term / (4 * n + 3)
    return c_sum, s_sum


def _fraction(x):
    """(C, S) for x > 0 through erfc's continued fraction at z = sqrt(pi)(1 - i) x / 2."""
    z = (math.sqrt(math.pi) / 2) * torch.complex(x, -x)
    t = z
    for k in range(_FRACTION_DEPTH, 0, -1):
        t = z + (k / 2) / t
    phase = torch.polar(torch.ones_like(x), (math.pi / 2) * x * x)     # exp(-z^2), computed without rounding
    erfc = phase / (math.sqrt(math.pi) * t)
    value = complex(0.5, 0.5) * (1 - erfc)
    return value.real, value.imag


def _fresnel(v):
    a = v.abs()
    small = a <= _SERIES_LIMIT
    cs, ss = _series(torch.where(small, a, torch.zeros_like(a)))
    cf, sf = _fraction(torch.where(small | ~torch.isfinite(a), torch.full_like(a, 2 * _SERIES_LIMIT), a))
    c = torch.where(small, cs, cf)
    s = torch.where(small, ss, sf)
    c = torch.where(torch.isinf(a), torch.full_like(a, 0.5), c)
    s = torch.where(torch.isinf(a), torch.full_like(a, 0.5), s)
    sign = torch.where(v < 0, -1.0, 1.0).to(v.dtype)
    return torch.where(torch.isnan(v), v, c * sign), torch.where(torch.isnan(v), v, s * sign)


class _Fresnel(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, which):
        ctx.save_for_backward(x)
        ctx.which = which
        c, s = _fresnel(x.detach().double())
        return (c if which == 0 else s).to(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        phase = (math.pi / 2) * (x * x)
        return grad * (torch.cos(phase) if ctx.which == 0 else torch.sin(phase)), None


def _apply(x, op, which):
    t, _ = _special_input(x, op)
    if t.requires_grad:
        return wrap(_Fresnel.apply(t, which))
    c, s = _fresnel(t.double())
    return wrap((c if which == 0 else s).to(t.dtype))


@tf_export("math.special.fresnel_cos")
def fresnel_cos(x, name=None):
    """The Fresnel cosine integral: the integral of cos(pi t^2 / 2) from 0 to x (float and double, as TF)."""
    return _apply(x, "FresnelCos", 0)


@tf_export("math.special.fresnel_sin")
def fresnel_sin(x, name=None):
    """The Fresnel sine integral: the integral of sin(pi t^2 / 2) from 0 to x (float and double, as TF)."""
    return _apply(x, "FresnelSin", 1)
