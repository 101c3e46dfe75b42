"""The ops TF 2.21 gives auto dtype conversion (`weak_tensor_ops`): their public names rebound, once that mode is first
enabled, to wrappers that promote operands by the lattice and return weak tensors for weak results (nothing is
rebound before, so default mode pays nothing)."""
import functools
import inspect
import sys

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import EXPORTS
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.numpy_api import _lattice
from tfcompat.numpy_api._weak import EagerWeakTensor, strong, weak
from tfcompat.ops.math_ops import cast
from tfcompat.ops.misc_ops import get_logger

_state = {"mode": _lattice.PromoMode.OFF, "installed": False}

# TF's public names whose ops it wraps (weak_tensor_ops.py; not tf.nn.relu/elu/selu/softsign, tf.bitwise.invert or
# tf.image's, which TF exports from modules it does not patch); names tfcompat lacks are skipped
UNARY = """math.abs math.softplus math.sign math.real math.imag math.angle math.round math.sigmoid math.log_sigmoid
math.conj math.reciprocal_no_nan math.erfinv math.ndtri math.erfcinv math.ceil math.sqrt math.exp math.rsqrt math.acos
math.floor math.acosh math.asin math.asinh math.atan math.atanh math.cos math.cosh math.digamma math.erf
math.erfc math.expm1 math.lgamma math.log math.log1p math.negative math.reciprocal math.rint math.sin math.sinh
math.square math.tan math.tanh zeros_like ones_like debugging.check_numerics nn.relu6 nn.leaky_relu nn.gelu
nn.log_softmax nn.swish nn.silu clip_by_value math.special.dawsn
math.special.expint math.special.fresnel_cos math.special.fresnel_sin math.special.spence math.bessel_i0
math.bessel_i0e math.bessel_i1 math.bessel_i1e math.special.bessel_i0 math.special.bessel_i0e math.special.bessel_i1
math.special.bessel_i1e math.special.bessel_k0 math.special.bessel_k0e math.special.bessel_k1 math.special.bessel_k1e
math.special.bessel_j0 math.special.bessel_j1 math.special.bessel_y0 math.special.bessel_y1
math.reduce_euclidean_norm math.reduce_logsumexp math.reduce_max math.reduce_mean math.reduce_min math.reduce_prod
math.reduce_std math.reduce_sum math.reduce_variance linalg.trace reshape nn.depth_to_space expand_dims
image.extract_patches identity linalg.diag linalg.diag_part linalg.matrix_transpose nn.space_to_depth squeeze
stop_gradient linalg.tensor_diag_part transpose""".split()
BINARY = """math.add math.subtract math.multiply math.multiply_no_nan linalg.matmul math.divide math.divide_no_nan
math.truediv realdiv truncatediv math.floordiv truncatemod math.floormod math.pow""".split()
COMPARISON = ["math.maximum", "math.minimum", "math.equal"]
TNP_UNARY = """abs absolute angle arccos arcsin arcsinh arctan arctanh bitwise_not cbrt ceil conj conjugate cos cosh
deg2rad exp exp2 expm1 fabs fix floor log negative rad2deg reciprocal sin sinh sqrt tan tanh nanmean log2 log10 log1p
positive sinc square diff sort average trace amax amin around arange array asanyarray asarray ascontiguousarray copy
cumprod cumsum diag diagflat diagonal empty_like expand_dims flatten flip fliplr flipud full_like imag max mean min
moveaxis ones_like prod ravel real reshape repeat rot90 round squeeze std sum swapaxes transpose triu vander var
zeros_like""".split()
VARIABLE_METHODS = ("assign", "assign_add", "assign_sub")


def auto():
    return _state["mode"] in (_lattice.PromoMode.SAFE, _lattice.PromoMode.ALL)


def result_type(*values):
    """`(DType, is_weak)` of `values` under the current mode."""
    return _lattice.result_type(_state["mode"], EagerWeakTensor, *values)


def _convert_or_cast(x, dtype):
    if isinstance(x, (Tensor, Variable)):
        return cast(strong(x) if type(x) is EagerWeakTensor else x, dtype)
    return convert_to_tensor(x, dtype)


def _result(out, is_weak):
    if is_weak:
        return weak(out) if isinstance(out, Tensor) else out
    return strong(out) if type(out) is EagerWeakTensor else out


def _unsupported(op, *values):
    get_logger().warning(
        f"The new dtype semantics do not support {op.__module__}.{op.__name__}"
        f"({', '.join(str(type(v)) for v in values)}). Falling back to old semantics.")


def unary(op, x_arg=None):
    """`op` promoting its first argument (or `x_arg`) alone: a weak or Python input gives a weak result."""
    sig = inspect.signature(op)
    x_arg = x_arg or next(iter(sig.parameters))

    @functools.wraps(op)
    def wrapper(*args, **kwargs):
        if not auto():
            return op(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        x = bound.arguments.get(x_arg)
        if (isinstance(x, Tensor) and type(x) is not EagerWeakTensor) or bound.arguments.get("dtype") is not None:
            return op(*args, **kwargs)
        try:
            dtype, is_weak = result_type(x)
        except NotImplementedError:
            _unsupported(op, x)
            return op(*args, **kwargs)
        bound.arguments[x_arg] = _convert_or_cast(x, dtype)
        return _result(op(*bound.args, **bound.kwargs), is_weak)
    return wrapper


def binary(op, comparison=False):
    """`op` with both operands promoted to their lattice result (comparisons never return weak tensors)."""
    sig = inspect.signature(op)
    x_arg, y_arg = list(sig.parameters)[:2]

    @functools.wraps(op)
    def wrapper(*args, **kwargs):
        if not auto():
            return op(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        x, y = bound.arguments.get(x_arg), bound.arguments.get(y_arg)
        try:
            dtype, is_weak = result_type(x, y)
        except NotImplementedError:
            _unsupported(op, x, y)
            return op(*args, **kwargs)
        bound.arguments[x_arg] = _convert_or_cast(x, dtype)
        bound.arguments[y_arg] = _convert_or_cast(y, dtype)
        return _result(op(*bound.args, **bound.kwargs), is_weak and not comparison)
    return wrapper


def constant(op):
    """`tf.constant`: weak for Python values without `dtype`; a tensor converts to `dtype` where the lattice allows."""
    sig = inspect.signature(op)

    @functools.wraps(op)
    def wrapper(*args, **kwargs):
        if not auto():
            return op(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        value, dtype = bound.arguments.get("value"), bound.arguments.get("dtype")
        try:
            target, is_weak = result_type(value, dtype)
        except NotImplementedError:
            _unsupported(op, value, dtype)
            return op(*args, **kwargs)
        if type(value) is EagerWeakTensor:
            bound.arguments["value"] = value = strong(value)
        if dtype is not None:
            if target != dtypes.as_dtype(dtype):
                return op(*bound.args, **bound.kwargs)
            if isinstance(value, (Tensor, Variable)):
                bound.arguments["value"] = _convert_or_cast(value, target)
            return op(*bound.args, **bound.kwargs)
        bound.arguments["dtype"] = target
        return _result(op(*bound.args, **bound.kwargs), is_weak)
    return wrapper


def variable_method(op):
    """`Variable.assign*`: the value converts to the variable's dtype where the lattice allows; else TypeError."""
    sig = inspect.signature(op)
    y_arg = list(sig.parameters)[1]

    @functools.wraps(op)
    def wrapper(self, *args, **kwargs):
        if not auto():
            return op(self, *args, **kwargs)
        bound = sig.bind(self, *args, **kwargs)
        y = bound.arguments.get(y_arg)
        try:
            target, _ = result_type(self, y)
        except NotImplementedError:
            _unsupported(op, self, y)
            return op(self, *args, **kwargs)
        if target != self.dtype:
            raise TypeError(f"Variable dtype is immutable. Calling {op.__name__} of Variable (with dtype {self.dtype}) "
                            f"on {y} requires converting {y} to {self.dtype}. This is disabled in the current "
                            f"promotion semantics. Please convert {y} manually before calling {op.__name__}.")
        bound.arguments[y_arg] = _convert_or_cast(y, target)
        return op(*bound.args, **bound.kwargs)
    return wrapper


def _rebind(names, make):
    """Rebinds every public name of each op in `names` (its aliases included) to `make(op)`; {name: wrapper}."""
    done, out = {}, {}
    for name in names:
        op = EXPORTS.get(name)
        if op is None or not callable(op):
            continue
        if id(op) not in done:
            done[id(op)] = wrapped = make(op)
            for full, obj in list(EXPORTS.items()):
                if obj is op:
                    EXPORTS[full] = wrapped
                    path, _, attr = full.rpartition(".")
                    module = sys.modules.get("tfcompat" + ("." + path if path else ""))
                    if module is not None and getattr(module, attr, None) is op:
                        setattr(module, attr, wrapped)
        out[name] = done[id(op)]
    return out


def operators():
    """The binary operators of tensors in the auto modes, {"add": fn(x, y), ...}: TF's wrapped ops."""
    ops = install()
    return {"add": ops["math.add"], "sub": ops["math.subtract"], "mul": multiply_operator(ops["math.multiply"]),
            "truediv": ops["math.truediv"], "floordiv": ops["math.floordiv"], "mod": ops["math.floormod"],
            "pow": ops["math.pow"], "matmul": ops["linalg.matmul"]}


def multiply_operator(mul):
    """TF's `*` over `mul`: with a bool tensor operand, the int32 product cast back to bool."""
    def multiply(x, y):
        if _is_bool(x) or _is_bool(y):
            return cast(mul(cast(x, dtypes.int32), cast(y, dtypes.int32)), dtypes.bool)
        return mul(x, y)
    return multiply


def _is_bool(x):
    return isinstance(x, Tensor) and x.dtype == dtypes.bool


def install():
    """Wraps TF's list of ops once; returns {public name: wrapper} of the ops wrapped."""
    if _state["installed"]:
        return _state["installed"]
    from tfcompat import numpy_api as tnp
    ops = _rebind(UNARY, unary)
    ops.update(_rebind(["math.scalar_mul"], lambda op: unary(op, "x")))
    ops.update(_rebind(BINARY, binary))
    ops.update(_rebind(COMPARISON, lambda op: binary(op, comparison=True)))
    _rebind(["constant"], constant)
    for name in TNP_UNARY:
        setattr(tnp, name, unary(getattr(tnp, name)))
    tnp.matmul = binary(tnp.matmul)
    for name in VARIABLE_METHODS:
        setattr(Variable, name, variable_method(getattr(Variable, name)))
    EagerWeakTensor.__neg__ = lambda self: ops["math.negative"](self)
    EagerWeakTensor.__abs__ = lambda self: ops["math.abs"](self)
    invert = unary(EXPORTS["bitwise.invert"])          # `~` only: TF wraps the operator, not tf.bitwise.invert
    EagerWeakTensor.__invert__ = lambda self: invert(self)
    _state["installed"] = ops
    return ops
