"""TF's special functions: `tf.math.special` Bessel functions on torch.special, series-based `expint`, `spence`,
`dawsn`, then `betainc`, `lbeta`, `erfcinv`, `polyval`."""
import math

import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import FLOAT, same_dtype_inputs, unary_input, wrap
from tfcompat.framework.tensor import Tensor, device_name
from tfcompat.framework.variables import Variable
from tfcompat.ops import creation_ops, math_ops, reduction_ops

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


_EULER = 0.57721566490153286061
_PI2_6 = math.pi ** 2 / 6


def _special_input(x, op):
    """A float input of a Cephes-style special function and its float64 working copy."""
    t = unary_input(x, op, FLOAT)
    if t.dtype in (torch.float16, torch.bfloat16):     # TF registers float and double kernels only
        raise errors.op_error(
            errors.NotFoundError,
            f"Could not find device for node: {{{{node {op}}}}} = {op}[T=DT_"
            f"{'HALF' if t.dtype is torch.float16 else 'BFLOAT16'}]\nAll kernels registered for op {op}:\n  "
            f"device='CPU'; T in [DT_DOUBLE]\n  device='CPU'; T in [DT_FLOAT]\n", op)
    return t, t.double()


def _ei(x):
    """Ei(x) for x > 0: the power series up to 40, the asymptotic series beyond."""
    xs = torch.clamp(x, max=40.0)
    term = torch.ones_like(x)
    total = torch.zeros_like(x)
    for k in range(1, 251):
        term = term * xs / k
        total = total + term / k
    series = _EULER + torch.log(xs) + total
    xl = torch.clamp(x, min=40.0)
    term = torch.ones_like(x)
    tail = torch.ones_like(x)
    for k in range(1, 31):
        term = term * k / xl
        tail = tail + term
    return torch.where(x <= 40, series, torch.exp(xl) / xl * tail)


@tf_export("math.special.expint")
def expint(x, name=None):
    """The exponential integral Ei(x) (NaN for x < 0, -inf at 0, as TF)."""
    t, v = _special_input(x, "Expint")
    pos = v > 0
    out = _ei(torch.where(pos, v, torch.ones_like(v)))
    out = torch.where(pos, out, torch.where(v == 0, torch.full_like(v, -math.inf), torch.full_like(v, math.nan)))
    return wrap(out.to(t.dtype))


def _dawson(v):
    """Dawson's integral F(x) = exp(-x^2) * integral of exp(t^2) from 0 to x, in float64: exp(-x^2) times the
    positive power series sum x^(2n+1) / (n! (2n+1)) for |x| <= 6, the asymptotic series 1/(2x) sum (2n-1)!!/(2x^2)^n
    beyond (both below 1e-15 relative error); odd in x."""
    a = v.abs()
    xs = torch.clamp(a, max=6.0)
    x2 = xs * xs
    term = xs.clone()
    total = xs.clone()
    for n in range(1, 121):
        term = term * x2 / n
        total = total + term / (2 * n + 1)
    series = torch.exp(-x2) * total
    xl = torch.clamp(a, min=6.0)
    inv = 1 / (2 * xl * xl)
    term = torch.ones_like(a)
    tail = torch.ones_like(a)
    for n in range(1, 37):
        term = term * (2 * n - 1) * inv
        tail = tail + term
    out = torch.where(a <= 6, series, tail / (2 * xl))
    return torch.where(v < 0, -out, out) + 0.0           # TF: +0 at -0 and -inf


@tf_export("math.special.dawsn")
def dawsn(x, name=None):
    """Dawson's integral exp(-x^2) * integral of exp(t^2) from 0 to x (float and double kernels, as TF)."""
    t, v = _special_input(x, "Dawsn")
    return wrap(_dawson(v).to(t.dtype))


def _li2_series(z):
    """Li2(z) = sum z^k / k^2 for |z| <= 1/2."""
    term = torch.ones_like(z)
    total = torch.zeros_like(z)
    for k in range(1, 61):
        term = term * z
        total = total + term / (k * k)
    return total


def _li2_low(z):
    """Li2(z) for -1 <= z <= 1/2 (Landen's identity below -1/2)."""
    w = z / (z - 1)
    return torch.where(z >= -0.5, _li2_series(torch.clamp(z, -0.5, 0.5)),
                       -_li2_series(torch.clamp(w, -0.5, 0.5)) - 0.5 * torch.log1p(-z) ** 2)


@tf_export("math.special.spence")
def spence(x, name=None):
    """Spence's function: the integral of log(t) / (1 - t) from 1 to x, i.e. Li2(1 - x) (NaN for x < 0)."""
    t, v = _special_input(x, "Spence")
    z = 1 - v
    zc = torch.clamp(z, -1e300, -1.0)
    inv = 1 / zc
    out = torch.where(z > 0.5, _PI2_6 - torch.log(torch.clamp(z, min=1e-300)) * torch.log1p(-torch.clamp(z, max=1 - 1e-16))
                      - _li2_series(torch.clamp(1 - z, -0.5, 0.5)), _li2_low(torch.clamp(z, -1.0, 0.5)))
    out = torch.where(z < -1, -_PI2_6 - 0.5 * torch.log(-zc) ** 2 - _li2_low(torch.clamp(inv, -1.0, 0.5)), out)
    out = torch.where(v == 0, torch.full_like(v, _PI2_6), out)
    out = torch.where((v < 0) | torch.isinf(v), torch.full_like(v, math.nan), torch.where(torch.isnan(v), v, out))
    return wrap(out.to(t.dtype))


_BETAINC_SIG = "Op<name=Betainc; signature=a:T, b:T, x:T -> z:T; attr=T:type,allowed=[DT_FLOAT, DT_DOUBLE]>"


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (modified Lentz), in float64, run until every element converges."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c = torch.ones_like(x)
    d = 1 - qab * x / qap
    d = 1 / torch.where(d.abs() < tiny, torch.full_like(d, tiny), d)
    h = d.clone()
    for m in range(1, 3001):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + num * d
            d = 1 / torch.where(d.abs() < tiny, torch.full_like(d, tiny), d)
            c = 1 + num / c
            c = torch.where(c.abs() < tiny, torch.full_like(c, tiny), c)
            step = d * c
            h = h * step
        if bool(((step - 1).abs() < 4e-16).logical_or(~torch.isfinite(step)).all()):
            break
    return h


def _betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b): NaN outside a, b > 0 and 0 <= x <= 1, as Eigen's betainc."""
    a, b, x = (t.double() for t in torch.broadcast_tensors(a, b, x))
    ok = (a > 0) & (b > 0) & (x >= 0) & (x <= 1) & torch.isfinite(a) & torch.isfinite(b)
    one = torch.ones_like(x)
    a, b, xs = torch.where(ok, a, one), torch.where(ok, b, one), torch.where(ok, x, 0.5 * one)
    flip = xs > (a + 1) / (a + b + 2)                     # the fraction converges fast below the mean
    pa, pb, px = torch.where(flip, b, a), torch.where(flip, a, b), torch.where(flip, 1 - xs, xs)
    inner = (px > 0) & (px < 1)
    safe_x = torch.where(inner, px, 0.5 * one)
    front = torch.exp(torch.lgamma(pa + pb) - torch.lgamma(pa) - torch.lgamma(pb) + pa * torch.log(safe_x)
                      + pb * torch.log1p(-safe_x)) / pa
    value = torch.where(inner, front * _beta_fraction(pa, pb, safe_x), torch.where(px >= 1, one, 0 * one))
    value = torch.where(flip, 1 - value, value)
    return torch.where(ok, value, torch.full_like(value, float("nan")))


@tf_export("math.betainc")
def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b); non-scalar arguments must share one shape."""
    op = "Betainc"
    ta, tb, tx = same_dtype_inputs([a, b, x], op)
    if ta.dtype not in (torch.float32, torch.float64):
        got = {torch.float16: "half", torch.bfloat16: "bfloat16"}.get(ta.dtype, str(ta.dtype).replace("torch.", ""))
        raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'T' of {got} is not in the list of "
                              f"allowed values: float, double\n\t; NodeDef: {{{{node {op}}}}}; {_BETAINC_SIG}", op,
                              "" if isinstance(a, (Tensor, Variable)) else None)
    for (n1, t1), (n2, t2) in (((("a", ta), ("b", tb))), (("a", ta), ("x", tx)), (("b", tb), ("x", tx))):
        if t1.ndim and t2.ndim and t1.shape != t2.shape:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Shapes of {n1} and {n2} are inconsistent: "
                                      f"[{','.join(map(str, t1.shape))}] vs. [{','.join(map(str, t2.shape))}]", op,
                                      device_name(t1.device))
    return wrap(_betainc(ta, tb, tx).to(ta.dtype))


@tf_export("math.lbeta")
def lbeta(x, name=None):
    """log(|Beta(x)|) over the last axis: sum(lgamma(x)) - lgamma(sum(x)), as TF composes it."""
    x = convert_to_tensor(x)
    log_prod_gamma = reduction_ops.reduce_sum(math_ops.lgamma(x), axis=[-1])
    return log_prod_gamma - math_ops.lgamma(reduction_ops.reduce_sum(x, axis=[-1]))


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
