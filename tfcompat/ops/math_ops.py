"""`tf.math`: elementwise arithmetic, comparisons, `add_n`, `matmul` and casts (reductions, arg-reductions and scans
are in `reduction_ops`; the Tensor operators built on these ops in `tensor_operators`)."""
import math

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import state
from tfcompat.framework.convert import convert_to_tensor, scalar as _scalar, to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import (
    ALL, BOOL, FLOAT, FLOAT_COMPLEX, INT, NUMERIC, NUMERIC_STRING, REAL, SIGNED_NUMERIC,
    binary_inputs, binary_op, broadcastable, check_broadcast, division_by_zero, input_storage,
    kernel_dtypes, kernel_error, translate, type_name, unary_input, unary_op, wrap)
from tfcompat.framework.tensor import EagerTensor, Tensor, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops.deprecation import warn_deprecated


def complex_parts(fn, a, b):
    """`fn` (add or subtract) of complex tensors part by part, as TF's kernels: torch's complex add/sub multiply
    the second operand by 1+0j, which makes an infinite part's partner NaN (0 * inf)."""
    out = fn(torch.view_as_real(a.resolve_conj()), torch.view_as_real(b.resolve_conj()))
    return torch.view_as_complex(out)


_COMPLEX_STORAGE = frozenset([torch.complex64, torch.complex128])     # a set test: ~20 ns less than is_complex()


def _add(a, b):
    if type(a) is np.ndarray:
        return np.asarray(a + b, dtype=object)      # strings concatenate (0-d stays an array)
    if a.dtype in _COMPLEX_STORAGE:
        return complex_parts(torch.add, a, b)
    return torch.add(a, b)


def _sub(a, b):
    if a.dtype in _COMPLEX_STORAGE:
        return complex_parts(torch.sub, a, b)
    return torch.sub(a, b)


add = binary_op("math.add", "add", op="AddV2", fn=_add, dtypes=NUMERIC_STRING)
subtract = binary_op("math.subtract", "subtract", op="Sub", fn=_sub)
multiply = binary_op("math.multiply", "multiply", op="Mul", fn=torch.mul)
def _tie_to_first(torch_fn, keeps_first):
    """TF's Maximum/Minimum gradient: on ties the whole gradient goes to `x` (torch's kernels split it), and where `x`
    is NaN to `y`; the value stays the kernel's (NaN propagates). Only a tape-recorded call pays for the routing."""
    def run(a, b):
        if not (a.requires_grad or b.requires_grad):
            return torch_fn(a, b)
        routed = torch.where(keeps_first(a, b), a, b)
        if a.is_floating_point():
            a_nan = torch.isnan(a.detach())
            routed = routed + torch.where(a_nan, a.detach(), torch.zeros((), dtype=a.dtype, device=a.device))
        return routed
    return run


maximum = binary_op("math.maximum", "maximum", op="Maximum", fn=_tie_to_first(torch.maximum, torch.ge),
                    dtypes=REAL)
minimum = binary_op("math.minimum", "minimum", op="Minimum", fn=_tie_to_first(torch.minimum, torch.le),
                    dtypes=REAL)


def _squared_difference(a, b):
    """(x - y) * conj(x - y), for complex values multiplied term by term as Eigen does (no fused multiply-add:
    the imaginary part is exactly 0 for finite values)."""
    d = a - b
    if not d.is_complex():
        return torch.square(d)
    r, i = d.real, d.imag
    return torch.complex(r * r - i * -i, r * -i + i * r)


squared_difference = binary_op("math.squared_difference", op="SquaredDifference", fn=_squared_difference)
atan2 = binary_op("math.atan2", "atan2", op="Atan2", fn=torch.atan2, dtypes=FLOAT)
def _x_times(combine, neutral):
    """combine(x, y) (x * log(y), x / y...), 0 wherever x == 0 whatever y is (NaN included), with TF's gradients
    there: 0 for both inputs (y is replaced by `neutral` where x == 0, so no 0 * inf reaches the backward pass)."""
    def run(a, b):
        zero = a == 0
        safe = torch.where(zero, torch.full((), neutral, dtype=b.dtype, device=b.device), b)
        return torch.where(zero, torch.zeros((), dtype=a.dtype, device=a.device), combine(a, safe))
    return run


xdivy = binary_op("math.xdivy", op="Xdivy", fn=_x_times(lambda a, b: a / b, 1.0), dtypes=FLOAT_COMPLEX)
xlogy = binary_op("math.xlogy", op="Xlogy", fn=_x_times(lambda a, b: a * torch.log(b), 1.0), dtypes=FLOAT_COMPLEX)
xlog1py = binary_op("math.xlog1py", op="Xlog1py", fn=_x_times(lambda a, b: a * torch.log1p(b), 0.0),
                    dtypes=FLOAT_COMPLEX)
_div_no_nan = binary_op(op="DivNoNan",
                        fn=lambda a, b: torch.where(b == 0, torch.zeros_like(a), a / torch.where(b == 0, torch.ones_like(b), b)),
                        dtypes=FLOAT_COMPLEX)


@tf_export("math.divide_no_nan")
def divide_no_nan(x, y, name=None):
    """x / y, 0 where y == 0; integer inputs are divided as floats (int32 -> float64), as TF's `div_no_nan`."""
    a, b = _div_inputs(_python_x_as_y(x, y), y, "div_no_nan")
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        target = dtypes.division_result(dtypes.FROM_STORAGE[a.dtype]).torch_dtype
        a, b = a.to(target), b.to(target)
    return _div_no_nan(wrap(a), wrap(b))


@tf_export("math.reciprocal_no_nan")
def reciprocal_no_nan(x, name=None):
    """1 / x, 0 where x == 0 (float and complex inputs)."""
    t = input_storage(x)
    if isinstance(t, np.ndarray) or t.dtype is torch.bool:     # TF builds its 1 in x's dtype first
        raise TypeError(f"Cannot convert 1 to EagerTensor of dtype {'string' if isinstance(t, np.ndarray) else 'bool'}")
    return _div_no_nan(wrap(torch.ones((), dtype=t.dtype, device=t.device)), wrap(t))


_mul_no_nan = binary_op(op="MulNoNan", fn=lambda a, b: torch.where(b == 0, torch.zeros_like(a), a * b),
                        dtypes=FLOAT_COMPLEX)


@tf_export("math.multiply_no_nan")
def multiply_no_nan(x, y, name=None):
    """x * y, 0 where y == 0 even if x is NaN or inf; `y` is converted to `x`'s dtype as TF's wrapper does."""
    x = convert_to_tensor(x)
    try:
        y = convert_to_tensor(y, dtype=x.dtype)
    except ValueError as e:
        raise ValueError(f"y: {e}") from None
    return _mul_no_nan(x, y)


def _python_x_as_y(x, y):
    """TF's `divide`/`div_no_nan`: a non-tensor `x` is converted with the dtype of a tensor `y`."""
    if not isinstance(x, (Tensor, Variable)) and isinstance(y, (Tensor, Variable)):
        return convert_to_tensor(x, dtype=y.dtype)
    return x
def _incomplete_gamma(fn, zero_at_x0):
    """TF's (Eigen's) regularized incomplete gamma edges over torch's: NaN where x < 0, a <= 0 or either is NaN,
    0 for a = x = inf, and for igamma 0 wherever x == 0 (even for such an a)."""

    def kernel(a, x):
        r = fn(a, x)
        bad = (x < 0) | (a <= 0) | a.isnan() | x.isnan()
        r = torch.where(bad, math.nan, torch.where(a.isinf() & x.isinf(), 0.0, r))
        return torch.where(x == 0, 0.0, r) if zero_at_x0 else r

    return kernel


igamma = binary_op("math.igamma", op="Igamma", fn=_incomplete_gamma(torch.special.gammainc, True), dtypes=FLOAT)
igammac = binary_op("math.igammac", op="Igammac", fn=_incomplete_gamma(torch.special.gammaincc, False), dtypes=FLOAT)


def _zeta(x, q):
    """Hurwitz zeta with Eigen's domain values: at a non-positive integer q (or -inf) inf for an even integer x,
    NaN for other x > 1; 0 at q = +inf for x > 1; NaN for a NaN x."""
    out = torch.special.zeta(x, q)
    pole = (q <= 0) & (q == torch.floor(q)) & (x > 1)
    even = (x == torch.floor(x)) & (x / 2 == torch.floor(x / 2))
    out = torch.where(pole, torch.where(even, torch.full_like(out, math.inf), torch.full_like(out, math.nan)), out)
    out = torch.where((q == math.inf) & (x > 1), torch.zeros_like(out), out)
    return torch.where(torch.isnan(x), x, out)


zeta = binary_op("math.zeta", op="Zeta", fn=_zeta, dtypes=FLOAT)
def _polygamma(a, x):
    """TF's polygamma: broadcast, NaN where the order `a` is not a non-negative integer."""
    a, x = torch.broadcast_tensors(a, x)
    valid = (a == torch.floor(a)) & (a >= 0)
    huge = valid & (a > 1000)                # Eigen's formula (-1)^(n+1) n! zeta(n+1, x): inf or NaN there
    n1 = torch.where(huge, a, torch.zeros_like(a)) + 1
    out = torch.where(huge, torch.pow(-torch.ones_like(x), n1) * torch.exp(torch.lgamma(n1)) *
                      torch.special.zeta(n1, x), torch.full_like(x, float("nan")))
    for n in torch.unique(a[valid & ~huge]).tolist():
        out = torch.where(valid & (a == n), torch.special.polygamma(int(n), x), out)
    return out


polygamma = binary_op("math.polygamma", op="Polygamma", fn=_polygamma, dtypes=FLOAT)
nextafter = binary_op("math.nextafter", op="NextAfter", fn=torch.nextafter, dtypes=FLOAT)


def _int_div_checked(op, fn):
    """`fn` with TF's check of integer divisors (a zero is an InvalidArgumentError, checked before the kernel)."""
    def run(a, b):
        if not (a.dtype.is_floating_point or a.dtype.is_complex) and bool((b == 0).any()):
            if a.shape != b.shape:
                check_broadcast(op, a, b)      # TF reports incompatible shapes first
            raise division_by_zero(op, a, b)
        return fn(a, b)
    return run


def _no_gradient(fn):
    """A kernel whose result is a constant to every tape: TF registers no gradient (None) for the op."""
    def run(*args):
        out = fn(*args)
        return out.detach() if out.requires_grad else out
    return run


def _floordiv(a, b):
    if a.dtype.is_floating_point:
        return torch.floor(a / b)
    return torch.floor_divide(a, b)


floordiv = binary_op("math.floordiv", "floordiv", op="FloorDiv",
                     fn=_no_gradient(_int_div_checked("FloorDiv", _floordiv)), dtypes=REAL)
floormod = binary_op("math.floormod", "math.mod", "floormod", op="FloorMod",
                     fn=_int_div_checked("FloorMod", torch.remainder), dtypes=REAL)
truncatediv = binary_op("truncatediv", op="TruncateDiv",
                        fn=_no_gradient(_int_div_checked("TruncateDiv",
                                                           lambda a, b: torch.div(a, b, rounding_mode="trunc"))),
                        dtypes=REAL)
truncatemod = binary_op("truncatemod", op="TruncateMod", fn=_int_div_checked("TruncateMod", torch.fmod),
                        dtypes=REAL)


divide_ = binary_op(op="RealDiv", fn=torch.div, dtypes=FLOAT_COMPLEX)
realdiv = binary_op("realdiv", op="RealDiv", fn=torch.div, dtypes=FLOAT_COMPLEX)


def _int_pow(a, b):
    if not (a.dtype.is_floating_point or a.dtype.is_complex) and bool((b < 0).any()):
        raise _NegativePower()
    return torch.pow(a, b)


class _NegativePower(RuntimeError):
    pass


_POW = kernel_dtypes("Pow", NUMERIC)


@tf_export("math.pow", "pow")
def pow(x, y, name=None):  # noqa: A001 - TF's name
    """x ** y elementwise (integers to negative powers are an error, as in TF)."""
    a, b = binary_inputs(x, y, "Pow", _POW)
    if a.shape != b.shape:
        check_broadcast("Pow", a, b)
        if 0 in torch.broadcast_shapes(a.shape, b.shape):          # no element: no negative-power check
            return wrap(torch.empty(torch.broadcast_shapes(a.shape, b.shape), dtype=a.dtype, device=a.device))
    try:
        return wrap(_int_pow(a, b))
    except _NegativePower:
        raise kernel_error(errors.InvalidArgumentError, "Integers to negative integer powers are not allowed",
                           "Pow", a) from None
    except RuntimeError as e:
        raise translate(e, "Pow", a, b) from None


_TRUEDIV_TYPES = "tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, " \
    "tf.bfloat16, tf.float16, tf.float32, tf.float64, tf.complex64, tf.complex128"


def _div_inputs(x, y, where):
    """Operands of TF's Python `truediv`/`div_no_nan`: `y` converted with `x`'s dtype as a hint, dtypes checked."""
    if type(x) is EagerTensor and type(y) is EagerTensor:
        dt = storage(x).dtype
        if dt is storage(y).dtype and dt in NUMERIC:
            return binary_inputs(x, y, "RealDiv", NUMERIC)
    a = input_storage(x)
    ty = type(y)
    if (ty is float or ty is int) and (a.dtype is torch.float32 or a.dtype is torch.float64):
        b = _scalar(y, a.dtype)     # `x / 255.`: the cached scalar, the value `to_storage` would give
    else:
        b = input_storage(y) if isinstance(y, (Tensor, Variable)) else to_storage(y, dtypes.FROM_STORAGE[a.dtype],
                                                                                   strict=False)
    da, db = dtypes.FROM_STORAGE[a.dtype], dtypes.FROM_STORAGE[b.dtype]
    if da is not db:
        raise TypeError(f"`x` and `y` must have the same dtype, got {da!r} != {db!r}.")
    if a.dtype not in NUMERIC:
        raise TypeError(f"Invalid dtype {da!r} in {where}. Expected one of {{{_TRUEDIV_TYPES}}}.")
    return binary_inputs(wrap(a), wrap(b), "RealDiv", NUMERIC)


@tf_export("math.truediv", "truediv")
def truediv(x, y, name=None):
    """x / y; integer inputs are cast to float first (int8/16 -> float32, int32/64 -> float64), as in TF."""
    a, b = _div_inputs(x, y, "__truediv__")
    if not (a.dtype.is_floating_point or a.dtype.is_complex):
        target = dtypes.division_result(dtypes.FROM_STORAGE[a.dtype]).torch_dtype
        a = a.to(target)
        b = b.to(target)
    if a.shape != b.shape:
        check_broadcast("RealDiv", a, b)
    try:
        return wrap(torch.div(a, b))
    except RuntimeError as e:
        raise translate(e, "RealDiv", a, b) from None


@tf_export("math.divide", "divide")
def divide(x, y, name=None):
    """`x / y` with Python's division semantics (`truediv`); a non-tensor `x` takes a tensor `y`'s dtype."""
    return truediv(_python_x_as_y(x, y), y)


def _cmp(name, op, fn, dtypes_=REAL):
    return binary_op("math." + name, name, op=op, fn=fn, dtypes=dtypes_)


less = _cmp("less", "Less", torch.lt)
less_equal = _cmp("less_equal", "LessEqual", torch.le)
greater = _cmp("greater", "Greater", torch.gt)
greater_equal = _cmp("greater_equal", "GreaterEqual", torch.ge)


def _eq(a, b):
    if type(a) is np.ndarray:
        return np.asarray(a == b)
    return torch.eq(a, b)


def _ne(a, b):
    if type(a) is np.ndarray:
        return np.asarray(a != b)
    return torch.ne(a, b)


equal = binary_op("math.equal", "equal", op="Equal", fn=lambda a, b: _as_storage_bool(_eq(a, b)), dtypes=ALL)
not_equal = binary_op("math.not_equal", "not_equal", op="NotEqual", fn=lambda a, b: _as_storage_bool(_ne(a, b)),
                      dtypes=ALL)


def _as_storage_bool(r):
    if type(r) is np.ndarray:
        return torch.from_numpy(r.astype(np.bool_))
    return r


logical_and = binary_op("math.logical_and", "logical_and", op="LogicalAnd", fn=torch.logical_and, dtypes=BOOL)
logical_or = binary_op("math.logical_or", "logical_or", op="LogicalOr", fn=torch.logical_or, dtypes=BOOL)
logical_xor = binary_op("math.logical_xor", op="LogicalXor", fn=torch.logical_xor, dtypes=BOOL)


@tf_export("math.logical_not", "logical_not")
def logical_not(x, name=None):
    return wrap(torch.logical_not(unary_input(x, "LogicalNot", BOOL)))


bitwise_and = binary_op("bitwise.bitwise_and", op="BitwiseAnd", fn=torch.bitwise_and, dtypes=INT)
bitwise_or = binary_op("bitwise.bitwise_or", op="BitwiseOr", fn=torch.bitwise_or, dtypes=INT)
bitwise_xor = binary_op("bitwise.bitwise_xor", op="BitwiseXor", fn=torch.bitwise_xor, dtypes=INT)


def _clamped_shift(fn):
    """TF's shift kernels clamp the shift amount to [0, bits - 1] (a negative or too large shift is no UB);
    uint16/32 shift in int64 (torch has no kernels), uint64 on its int64 bits with a logical right shift."""
    def run(a, b):
        bits = a.element_size() * 8
        if a.dtype is torch.uint64:
            x, y = a.view(torch.int64), b.view(torch.int64)
            y = torch.where(y < 0, 63, torch.clamp(y, 0, 63))
            out = fn(x, y)
            if fn is torch.bitwise_right_shift:          # clear the copies of the sign bit
                out = torch.where((x < 0) & (y > 0), out & ~(-1 << (64 - y)), out)
            return out.view(torch.uint64)
        if a.dtype in (torch.uint16, torch.uint32):
            return fn(a.to(torch.int64), torch.clamp(b.to(torch.int64), 0, bits - 1)).to(a.dtype)
        return fn(a, torch.clamp(b, 0, bits - 1))
    return run


left_shift = binary_op("bitwise.left_shift", op="LeftShift", fn=_clamped_shift(torch.bitwise_left_shift), dtypes=INT)
right_shift = binary_op("bitwise.right_shift", op="RightShift", fn=_clamped_shift(torch.bitwise_right_shift),
                        dtypes=INT)
invert = unary_op("bitwise.invert", op="Invert", fn=torch.bitwise_not, dtypes=INT)


# -- unary -------------------------------------------------------------------------

def _output_grad(forward, grad_from_output):
    """A kernel whose gradient is TF's `<Op>Grad(y, dy)` kernel of the output: zero wherever `dy` is zero (TF's
    SqrtGrad, RsqrtGrad, ReciprocalGrad), so a branch `tf.where` discarded (sqrt(0) = 0) sends back 0, not
    torch's 0 * inf = NaN. Only a tape-recorded call pays for the autograd Function."""
    class _Op(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = forward(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            y, = ctx.saved_tensors
            return torch.where(dy == 0, torch.zeros((), dtype=dy.dtype, device=dy.device),
                               grad_from_output(y.conj() if y.is_complex() else y, dy))

    def run(x):
        return _Op.apply(x) if x.requires_grad else forward(x)
    return run


def _u(name, op, fn, dts=FLOAT_COMPLEX, *aliases):
    return unary_op("math." + name, *aliases, op=op, fn=fn, dtypes=dts)


negative = _u("negative", "Neg", torch.neg, SIGNED_NUMERIC, "negative")
abs = _u("abs", "Abs", torch.abs, SIGNED_NUMERIC, "abs")  # noqa: A001
square = _u("square", "Square", torch.square, NUMERIC, "square")
sqrt = _u("sqrt", "Sqrt", _output_grad(torch.sqrt, lambda y, dy: dy * 0.5 / y), FLOAT_COMPLEX, "sqrt")
rsqrt = _u("rsqrt", "Rsqrt", _output_grad(torch.rsqrt, lambda y, dy: dy * -0.5 * y * y * y))
exp = _u("exp", "Exp", torch.exp, FLOAT_COMPLEX, "exp")
expm1 = _u("expm1", "Expm1", torch.expm1)
log = _u("log", "Log", torch.log)
log1p = _u("log1p", "Log1p", torch.log1p)
sin = _u("sin", "Sin", torch.sin)
cos = _u("cos", "Cos", torch.cos)
tan = _u("tan", "Tan", torch.tan)
asin = _u("asin", "Asin", torch.asin)
acos = _u("acos", "Acos", torch.acos)
atan = _u("atan", "Atan", torch.atan)
sinh = _u("sinh", "Sinh", torch.sinh)
cosh = _u("cosh", "Cosh", torch.cosh)
tanh = _u("tanh", "Tanh", torch.tanh, FLOAT_COMPLEX, "nn.tanh")
asinh = _u("asinh", "Asinh", torch.asinh)
acosh = _u("acosh", "Acosh", torch.acosh)
atanh = _u("atanh", "Atanh", torch.atanh)
sigmoid = _u("sigmoid", "Sigmoid", torch.sigmoid, FLOAT_COMPLEX, "nn.sigmoid", "sigmoid")
log_sigmoid = _u("log_sigmoid", "Softplus", torch.nn.functional.logsigmoid, FLOAT)    # TF: -softplus(-x)
floor = _u("floor", "Floor", _no_gradient(torch.floor), FLOAT, "floor")
ceil = _u("ceil", "Ceil", _no_gradient(torch.ceil), FLOAT)
rint = _u("rint", "Rint", _no_gradient(torch.round), FLOAT)
reciprocal = _u("reciprocal", "Reciprocal", _output_grad(torch.reciprocal, lambda y, dy: -dy * y * y), FLOAT_COMPLEX)
sign = _u("sign", "Sign", lambda t: torch.sgn(t) if t.is_complex() else (
    torch.where(torch.isnan(t), t, torch.sign(t)) if t.is_floating_point() else torch.sign(t)), NUMERIC)
erf = _u("erf", "Erf", torch.erf, FLOAT)
erfc = _u("erfc", "Erfc", torch.erfc, FLOAT)
erfinv = _u("erfinv", "Erfinv", torch.erfinv, FLOAT)
ndtri = _u("ndtri", "Ndtri", torch.special.ndtri, FLOAT)
lgamma = _u("lgamma", "Lgamma", torch.lgamma, FLOAT)
digamma = _u("digamma", "Digamma", lambda t: torch.where((t <= 0) & (t == torch.floor(t)),
                                                         torch.full_like(t, math.nan), torch.digamma(t)), FLOAT)
bessel_i0 = _u("bessel_i0", "BesselI0", torch.special.i0, FLOAT)
bessel_i0e = _u("bessel_i0e", "BesselI0e", torch.special.i0e, FLOAT)
bessel_i1 = _u("bessel_i1", "BesselI1", torch.special.i1, FLOAT)
bessel_i1e = _u("bessel_i1e", "BesselI1e", torch.special.i1e, FLOAT)
softplus = _u("softplus", "Softplus", torch.nn.functional.softplus, FLOAT, "nn.softplus")
is_nan = _u("is_nan", "IsNan", torch.isnan, FLOAT)
is_inf = _u("is_inf", "IsInf", torch.isinf, FLOAT)
is_finite = _u("is_finite", "IsFinite", torch.isfinite, FLOAT)
softsign = _u("softsign", "Softsign", torch.nn.functional.softsign, FLOAT, "nn.softsign")


@tf_export("math.round", "round")
def round(x, name=None):  # noqa: A001
    """Rounds half to even, as TF."""
    t = unary_input(x, "Round", NUMERIC)         # TF's wrapper returns integer tensors (unsigned too) as they are
    if t.dtype.is_complex:
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node Round}}}} = "
                                   f"Round[T=DT_{type_name(t.dtype).upper()}] [Op:Round] name: ")
    if t.dtype.is_floating_point:
        return wrap(torch.round(t).detach())       # TF's Round has no gradient (None)
    return wrap(t)


@tf_export("math.exp2")
def _exp2(x, name=None):
    return wrap(torch.exp2(unary_input(x, "Exp2", FLOAT)))


# -- n-ary --------------------------------------------------------------------------------

@tf_export("math.add_n", "add_n")
def add_n(inputs, name=None):
    """Sum of a list of same-shape, same-dtype tensors."""
    from tfcompat.framework.op_def import same_dtype_inputs
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape.")
    ts = same_dtype_inputs(inputs, "AddN", None if len(inputs) == 1 else NUMERIC)
    for i, t in enumerate(ts[1:], 1):
        if t.shape != ts[0].shape:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"{{{{function_node __wrapped__AddN_N_{len(ts)}_device_{EagerTensor.device.fget(wrap(t))}}}}} "
                f"Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: "
                f"[{','.join(map(str, ts[0].shape))}] != input {i}: [{','.join(map(str, t.shape))}]", "AddN")
    if ts[0].dtype in (torch.uint16, torch.uint32):            # no torch add kernel: modular sum in int64
        return wrap(sum(t.to(torch.int64) for t in ts).to(ts[0].dtype))
    if ts[0].dtype is torch.uint64:
        return wrap(sum(t.view(torch.int64) for t in ts).view(torch.uint64))
    out = ts[0]
    for t in ts[1:]:
        out = out + t
    return wrap(out if len(ts) > 1 else out.clone())


# -- matmul -----------------------------------------------------------------------------

_MATMUL_TYPES = frozenset([torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int32, torch.int64,
                           torch.complex64, torch.complex128, torch.uint8])


MATMUL_DISPATCH = []      # handlers for operands the conversion rejects: (a, b, transposes, adjoints, sparse flags)


@tf_export("linalg.matmul", "matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """Matrix product of the last two axes (batched, broadcasting leading axes), as TF's `tf.linalg.matmul`."""
    if type(a) is EagerTensor and type(b) is EagerTensor and not (
            transpose_a or transpose_b or adjoint_a or adjoint_b or output_type is not None):
        x, y = a._t, b._t       # a documented fast path (tests/test_architecture_storage.py): the hottest op
        if x.dtype is y.dtype and x.dtype in _MATMUL_TYPES and x.ndim > 1 and y.ndim > 1 and not (
                x.requires_grad or y.requires_grad):
            try:
                return wrap(torch.matmul(x, y))
            except RuntimeError:
                pass       # shape mismatch: the checked path below raises TF's error
    try:
        x, y = binary_inputs(a, b, "MatMul", _MATMUL_TYPES)
    except (TypeError, ValueError):
        for handler in MATMUL_DISPATCH:       # e.g. tf.linalg.LinearOperator operands (ops/linear_operator.py)
            out = handler(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, a_is_sparse, b_is_sparse)
            if out is not NotImplemented:
                return out
        raise
    x0, y0 = x, y
    # TF runs MatMul on two inputs of rank <= 2, BatchMatMulV2 otherwise; their kernels report the inputs' shapes
    # before any transpose
    op = "BatchMatMulV2" if x.ndim > 2 or y.ndim > 2 else "MatMul"
    if op == "MatMul" and (x.ndim != 2 or y.ndim != 2):
        raise kernel_error(errors.InvalidArgumentError, f"In[0] and In[1] has different ndims: {_dims(x)} vs. "
                           f"{_dims(y)}" if x.ndim != y.ndim else f"In[0] and In[1] ndims must be == 2: {x.ndim}",
                           op, x, y)
    for i, t in enumerate((x, y)):
        if t.ndim < 2:
            raise kernel_error(errors.InvalidArgumentError, f"In[{i}] ndims must be >= 2: {t.ndim}", op, x, y)
    if not broadcastable(x.shape[:-2], y.shape[:-2]):
        raise kernel_error(errors.InvalidArgumentError, "In[0] and In[1] must have compatible batch dimensions: "
                           f"{_dims(x)} vs. {_dims(y)}", op, x, y)
    if transpose_a or adjoint_a:
        x = x.transpose(-1, -2)
        if adjoint_a:
            x = x.conj()
    if transpose_b or adjoint_b:
        y = y.transpose(-1, -2)
        if adjoint_b:
            y = y.conj()
    if x.shape[-1] != y.shape[-2]:
        eager = kernel_error(errors.InvalidArgumentError,
                             f"Matrix size-incompatible: In[0]: {_dims(x0)}, In[1]: {_dims(y0)}", op, x0, y0)
        t = f"T=DT_{type_name(x.dtype).upper()}"
        if op == "MatMul":
            attrs = (f"{t}, grad_a=false, grad_b=false, transpose_a={str(transpose_a or adjoint_a).lower()}"
                     f", transpose_b={str(transpose_b or adjoint_b).lower()}")
        else:
            attrs = (f"{t}, adj_x={str(adjoint_a).lower()}, adj_y={str(adjoint_b).lower()}, "
                     "grad_x=false, grad_y=false")
        raise errors.static_shape_error(eager, f"Dimensions must be equal, but are {x.shape[-1]} and {y.shape[-2]}",
                                        name or "MatMul", op, attrs, [x0, y0])
    out = torch.matmul(x, y)
    if output_type is not None:
        out = out.to(dtypes.as_dtype(output_type).torch_dtype)
    return wrap(out)


def _dims(t):
    """A shape as TF's TensorShape::DebugString writes it: `[2,3]`."""
    return "[" + ",".join(str(d) for d in t.shape) + "]"


@tf_export("math.scalar_mul", "scalar_mul")
def scalar_mul(scalar, x, name=None):
    return multiply(scalar, x)


# -- casting --------------------------------------------------------------------------

@tf_export("cast", "dtypes.cast")
def cast(x, dtype, name=None):
    """Casts to `dtype`; floats to ints truncate toward zero, complex to real drops the imaginary part."""
    dtype = dtypes.as_dtype(dtype)
    if isinstance(x, Tensor):
        t = storage(x)
        if type(t) is torch.Tensor and t.requires_grad and not state.recording:
            t = t.detach()
    elif isinstance(x, Variable):
        t = x._read()
    else:
        t = to_storage(x)
        if not isinstance(t, np.ndarray) and dtypes.FROM_STORAGE[t.dtype] is dtype:
            return wrap(t)
    if isinstance(t, np.ndarray):
        if dtype is dtypes.string:
            return wrap(t)
        raise _cast_error("string", type_name(dtype.torch_dtype) if dtype.torch_dtype is not None else dtype.name)
    if dtype is dtypes.string:
        raise _cast_error(type_name(t.dtype), "string")
    target = dtype.torch_dtype
    if t.dtype is target:
        return x if isinstance(x, Tensor) else wrap(t)
    if t.is_complex() and not target.is_complex:
        t = t.real
    if t.dtype.is_floating_point and not target.is_floating_point and not target.is_complex and target is not torch.bool:
        t = torch.trunc(t)
    return wrap(t.to(target))


def _saturate_limits(src, out):
    """TF 2.21's saturate_cast clamp limits as its Python wrapper computes them: the tighter of the two ranges cast
    to the input's dtype (NumPy's casts, so int64's max rounds through float64 and wraps, as in TF), nudged one
    step toward 0 where the cast limit lies outside the output range (compared in their promoted type)."""
    if src is dtypes.bfloat16:
        def as_src(v):
            return float(torch.tensor(float(v), dtype=torch.bfloat16))
        promoted = float
    else:
        as_src = src.as_numpy_dtype
        promoted = float if out is dtypes.bfloat16 else np.promote_types(as_src, out.as_numpy_dtype).type
    with np.errstate(all="ignore"):          # the overflowing casts are TF's too
        lo = as_src(np.maximum(src.min, out.min))
        hi = as_src(np.minimum(float(src.max), float(out.max)))
        nudge_lo, nudge_hi = promoted(lo) < promoted(out.min), promoted(hi) > promoted(out.max)
    if nudge_lo or nudge_hi:
        one_step = torch.nextafter(torch.tensor([lo, hi], dtype=src.torch_dtype), torch.zeros(2, dtype=src.torch_dtype))
        lo, hi = (one_step[0].item() if nudge_lo else lo), (one_step[1].item() if nudge_hi else hi)
    return (int(lo), int(hi)) if src.is_integer else (float(lo), float(hi))


_BITCAST_TYPES = ("bfloat16, half, float, double, int64, int32, uint8, uint16, uint32, uint64, int8, int16, "
                  "complex64, complex128, qint8, quint8, qint16, quint16, qint32")
_BITCAST_ALLOWED = "[" + ", ".join("DT_" + n.upper() for n in _BITCAST_TYPES.split(", ")) + "]"


@tf_export("bitcast")
def bitcast(input, type, name=None):  # noqa: A002  (TF's argument names)
    """The same bytes read as `type`: a wider type takes the last dimension's elements (it must be the width ratio),
    a narrower one adds a dimension of that ratio."""
    x = input if isinstance(input, Tensor) else convert_to_tensor(input)
    out = dtypes.as_dtype(type)
    for attr, dt in (("T", x.dtype), ("type", out)):
        if dt in (dtypes.string, dtypes.bool):
            got = dt.name
            raise errors.op_error(
                errors.InvalidArgumentError, f"Value for attr '{attr}' of {got} is not in the list of allowed values: "
                f"{_BITCAST_TYPES}\n\t; NodeDef: {{{{node Bitcast}}}}; Op<name=Bitcast; signature=input:T -> "
                f"output:type; attr=T:type,allowed={_BITCAST_ALLOWED}; attr=type:type,allowed={_BITCAST_ALLOWED}>",
                "Bitcast")
    t = storage(x)
    n_in, n_out = x.dtype.size, out.size
    shape = list(t.shape)
    if n_in < n_out and (not shape or shape[-1] * n_in != n_out):
        raise errors.kernel_error(errors.InvalidArgumentError, f"Cannot bitcast from {x.dtype.as_datatype_enum} "
                                                               f"to {out.as_datatype_enum}", "Bitcast")
    flat = t.detach().contiguous().reshape(-1).view(out.torch_dtype)
    if n_in > n_out:
        shape.append(n_in // n_out)
    elif n_in < n_out:
        shape.pop()
    return wrap(flat.reshape(shape))


def _cast_error(src, dst):
    return errors.kernel_error(errors.UnimplementedError, f"Cast {src} to {dst} is not supported", "Cast")


@tf_export("dtypes.saturate_cast", "saturate_cast")
def saturate_cast(value, dtype, name=None):
    """`value` cast to `dtype` with values clamped to its range (complex to real: the real part)."""
    dtype = dtypes.as_dtype(dtype)
    t = input_storage(value)
    src = dtypes.string if isinstance(t, np.ndarray) else dtypes.FROM_STORAGE[t.dtype]
    for d in (src, dtype):
        if d is dtypes.bool or d is dtypes.string:    # TF asks the dtype for its minimum
            raise TypeError(f"Cannot find minimum value of {d} with type {d}.")
    if src.is_complex and not dtype.is_complex:
        t = t.real
    if src in (dtypes.uint32, dtypes.uint64):     # TF always clamps, with ClipByValue: no kernel for these
        raise errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node ClipByValue}}}} = "
                              f"ClipByValue[T=DT_{src.name.upper()}]\nAll kernels registered for op ClipByValue:\n",
                              "ClipByValue")
    if src.is_complex and dtype.is_complex:
        return cast(wrap(t), dtype)
    lo, hi = _saturate_limits(dtypes.FROM_STORAGE[t.dtype], dtype.real_dtype if dtype.is_complex else dtype)
    if t.dtype is torch.uint16:       # no torch min/max kernel: clamped in int64 (the limits fit)
        t = t.to(torch.int64)
    limit = dict(dtype=t.dtype, device=t.device)
    t = torch.maximum(torch.minimum(t, torch.tensor(hi, **limit)), torch.tensor(lo, **limit))   # ClipByValue's order
    return cast(wrap(t), dtype)


@tf_export("math.accumulate_n")
def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """`add_n` (deprecated in TF, which logs so on the first call)."""
    warn_deprecated("accumulate_n", "tensorflow.python.ops.math_ops", "Use `tf.math.add_n` Instead")
    return add_n(inputs)
