"""The one helper every op is written with: convert inputs, check dtypes as TF, wrap results.

An op is a Python function over torch tensors plus a declaration:

    add = binary_op("math.add", "add", op="AddV2", fn=torch.add, dtypes=NUMERIC)

`binary_op`/`unary_op` build the exported `tf.*` function: inputs are converted
with TF's rules (a Python scalar adopts the other operand's dtype, mixed tensor
dtypes raise `InvalidArgumentError` with TF's message), tapes record through
torch autograd, and the torch result is wrapped in a `tf.Tensor`.

Autodiff rule (TF's): only ops run while a tape records are differentiable. An
input that carries a torch graph is detached when no tape of this thread is
recording, so ops outside tapes never build graphs.
"""
import numpy as np
import torch

from tfcompat.framework import dtypes as _d
from tfcompat.framework import errors
from tfcompat.framework.context import state
from tfcompat.framework.convert import scalar, to_storage
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import EagerTensor, Tensor, _wrap, device_name
from tfcompat.framework.variables import Variable

wrap = _wrap
_FROM = _d.FROM_STORAGE
STRING = np.dtype(object)


def _torch_set(*groups):
    out = set()
    for g in groups:
        for d in g:
            if d is _d.string:
                out.add(STRING)
            elif d._torch is not None:
                out.add(d._torch)
    return frozenset(out)


# dtype sets of TF's op registrations, as storage dtypes
FLOAT = _torch_set(_d.FLOATING)
FLOAT_COMPLEX = _torch_set(_d.FLOATING, _d.COMPLEX)
INT = _torch_set(_d.INTEGER)
REAL = _torch_set(_d.REAL)
NUMERIC = _torch_set(_d.NUMERIC)
SIGNED_NUMERIC = _torch_set(_d.FLOATING, _d.COMPLEX, [_d.int8, _d.int16, _d.int32, _d.int64])
INT_BOOL = _torch_set(_d.INTEGER, [_d.bool])
BOOL = _torch_set([_d.bool])
ALL = _torch_set(_d.NUMERIC, [_d.bool, _d.string])
NUMERIC_STRING = _torch_set(_d.NUMERIC, [_d.string])
NUMERIC_BOOL = _torch_set(_d.NUMERIC, [_d.bool])

# C++ type names TF uses in its messages
_CTYPE = {"float32": "float", "float64": "double", "float16": "half"}


def type_name(storage_dtype):
    name = _FROM[storage_dtype].name
    return _CTYPE.get(name, name)


def dtype_of(t):
    return _FROM[t.dtype]


def input_storage(x, dtype=None):
    """The storage of one op input (a tensor, variable or tensor-like value)."""
    if type(x) is EagerTensor:
        t = x._t
        if type(t) is torch.Tensor and t.requires_grad and not state.recording:
            return t.detach()
        return t
    t = to_storage(x, dtype, strict=dtype is not None)
    if type(t) is torch.Tensor and t.requires_grad and not state.recording:
        return t.detach()
    return t


def _is_tensor_like(x):
    return isinstance(x, Tensor) or (hasattr(x, "_read") and hasattr(x, "_t"))


def _like(value, other, strict):
    """Converts a non-tensor operand to the dtype of the tensor operand `other` (TF's dtype hint)."""
    od = other.dtype
    tv = type(value)
    if tv is float:
        if od is not STRING and (od.is_floating_point or od.is_complex):
            return scalar(value, od)
    elif tv is int:
        if od is not torch.bool and od is not STRING and (od.is_floating_point or od.is_complex or
                                                           _int_fits(value, od)):
            return scalar(value, od)
    elif tv is bool:
        if od in _BOOL_CONVERTIBLE:
            return scalar(value, od)
        if od is not STRING:     # TF converts a Python bool only to these dtypes; a raw op sees a bool tensor
            if strict:
                raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {type_name(od)}")
            return scalar(value, torch.bool)
    return to_storage(value, _FROM[od], strict=strict)


# dtypes TF's eager conversion turns a Python bool into (others: "Cannot convert True to EagerTensor of dtype ...")
_BOOL_CONVERTIBLE = frozenset([torch.bool, torch.int32, torch.int64, torch.uint64, torch.float16, torch.float32,
                               torch.float64, torch.complex128])


_INT_RANGE = {}


def _int_fits(value, od):
    r = _INT_RANGE.get(od)
    if r is None:
        info = torch.iinfo(od)
        r = _INT_RANGE[od] = (info.min, info.max)
    return r[0] <= value <= r[1]


def _release(a, b):
    if type(a) is torch.Tensor and type(b) is torch.Tensor and (a.requires_grad or b.requires_grad) \
            and not state.recording:
        return a.detach(), b.detach()
    return a, b


def binary_inputs(x, y, op, allowed):
    """Storages of the two operands of a binary op, TF's conversion and dtype checks applied."""
    tx = type(x)
    a = x._t if tx is EagerTensor else (x._read() if isinstance(x, Variable) else None)
    if a is not None and a.dtype in allowed and type(a) is torch.Tensor:
        ty = type(y)
        if ty is EagerTensor:
            b = y._t
        elif ty is int or ty is float:
            b = _like(y, a, False)
        elif isinstance(y, Variable):
            b = y._read()
        else:
            b = None
        if b is not None and b.dtype is a.dtype:
            if (a.requires_grad or b.requires_grad) and not state.recording:
                return a.detach(), b.detach()
            return a, b
    return _checked_inputs(x, y, op, allowed)


# ops whose Python wrapper hands operands to the kernel unconverted (TF's raw-op conversion: each operand is
# converted on its own, a mismatch is the kernel's InvalidArgumentError); the other ops convert a non-tensor
# operand to the tensor operand's dtype, strictly (TypeError "Cannot convert 2.5 to EagerTensor of dtype int32")
_RAW_OPS = frozenset(["AddV2", "MatMul"])


def _checked_inputs(x, y, op, allowed):
    """The slow path of `binary_inputs`: conversions with TF's errors."""
    raw = op in _RAW_OPS
    if _is_tensor_like(x):
        a = input_storage(x)
        b = input_storage(y) if _is_tensor_like(y) else _like(y, a, not raw)
    elif _is_tensor_like(y):
        b = input_storage(y)
        a = to_storage(x) if raw else _like(x, b, True)
    else:
        a = to_storage(x)
        b = _like(y, a, not raw)
    if a.dtype != b.dtype:
        if op == "AddV2" and type(a) is np.ndarray:      # tf.add runs the Add op on strings
            op = "Add"
        if raw or a.dtype in _NO_KERNEL.get(op, ()):    # the kernel lookup for input #0's dtype comes first
            check_dtype(a, op, allowed)
        raise _mixed_dtypes(op, a.dtype, b.dtype)
    check_dtype(a, op, allowed)
    return _release(a, b)


# predicates registered from above (ops.deprecation): whether this thread builds a graph in TF's terms (a tf.function
# trace, a tf.data function); asked only on error paths
GRAPH_BUILDING = []
# TF's argument names of the binary ops whose mixed-dtype error, while building a graph, is TF's graph TypeError
_BINARY_ARGS = dict.fromkeys(("AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Less",
                              "LessEqual", "Greater", "GreaterEqual", "Pow", "SquaredDifference", "DivNoNan",
                              "TruncateDiv", "TruncateMod", "Atan2", "BatchMatMulV2"), ("x", "y"))
_BINARY_ARGS["MatMul"] = ("a", "b")


def _mixed_dtypes(op, want, got):
    """TF's error for a binary op given two dtypes: eager InvalidArgumentError, or the graph builder's TypeError."""
    names = _BINARY_ARGS.get(op)
    if names is not None and any(check() for check in GRAPH_BUILDING):
        return TypeError(f"Input '{names[1]}' of '{op}' Op has type {_FROM[got].name} that does not match type "
                         f"{_FROM[want].name} of argument '{names[0]}'.")
    return errors.op_error(
        errors.InvalidArgumentError,
        f"cannot compute {op} as input #1(zero-based) was expected to be a {type_name(want)} tensor but is a "
        f"{type_name(got)} tensor", op)


def check_dtype(t, op, allowed):
    if t.dtype not in allowed:
        raise dtype_error(t, op, allowed)


def dtype_error(t, op, allowed, index=0):
    """TF's error for an input whose dtype the op `op` is not registered for."""
    got = type_name(t.dtype)
    if t.dtype in _NO_KERNEL.get(op, ()):
        return _no_kernel_error(t.dtype, op)
    if allowed is BOOL:       # a fixed (non-attr) input type
        return errors.op_error(
            errors.InvalidArgumentError,
            f"cannot compute {op} as input #{index}(zero-based) was expected to be a bool tensor but is a "
            f"{got} tensor", op)
    spec = _OP_DEFS.get(op)
    if spec is None:
        names = ", ".join(sorted(type_name(d) for d in allowed))
        op_def = f"Op<name={op}>"
    else:
        names, sig = spec
        types = ", ".join("DT_" + n.upper() for n in names.split(", "))
        op_def = f"Op<name={op}; signature={sig.format('[' + types + ']')}>"
    return errors.op_error(
        errors.InvalidArgumentError,
        f"Value for attr 'T' of {got} is not in the list of allowed values: {names}\n"
        f"\t; NodeDef: {{{{node {op}}}}}; {op_def}", op)


# TF's op registrations (allowed types in registration order, and the OpDef summary its messages show)
_FLT = "bfloat16, half, float, double"
_FLC = "bfloat16, half, float, double, complex64, complex128"
_INTS = "int8, int16, int32, int64, uint8, uint16, uint32, uint64"
_RED = "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64"
_MUL = "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, complex64, complex128"
_MAX = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"
_SGN = "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128"
_MAXQ = "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8, quint8, qint32, qint16, quint16"
_U = "x:T -> y:T; attr=T:type,allowed={}"
_B = "x:T, y:T -> z:T; attr=T:type,allowed={}"
_BC = "x:T, y:T -> z:T; attr=T:type,allowed={}; is_commutative=true"
_RS = "input:T, reduction_indices:Tidx -> output:T; attr=keep_dims:bool,default=false; attr=T:type,allowed={}; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]"
_OP_DEFS = {
    "Abs": ("bfloat16, half, float, double, int8, int16, int32, int64", _U),
    "Acos": (_FLC, _U),
    "Acosh": (_FLC, _U),
    "Cross": (_MAX, "a:T, b:T -> product:T; attr=T:type,allowed={}"),
    "AddN": ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, variant",
             "inputs:N*T -> sum:T; attr=N:int,min=1; attr=T:type,allowed={}; is_commutative=true; is_aggregate=true"),
    "AddV2": ("bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128",
              "x:T, y:T -> z:T; attr=T:type,allowed={}; is_commutative=true; is_aggregate=true"),
    "Angle": ("complex64, complex128",
              "input:T -> output:Tout; attr=T:type,default=DT_COMPLEX64,allowed={}; attr=Tout:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_DOUBLE]"),
    "ArgMax": ("float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool",
               "input:T, dimension:Tidx -> output:output_type; attr=T:type,allowed={}; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT16, DT_INT32, DT_INT64]; attr=output_type:type,default=DT_INT64,allowed=[DT_INT16, DT_UINT16, DT_INT32, DT_INT64]"),
    "ArgMin": ("float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool",
               "input:T, dimension:Tidx -> output:output_type; attr=T:type,allowed={}; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]; attr=output_type:type,default=DT_INT64,allowed=[DT_INT32, DT_INT64]"),
    "Asin": (_FLC, _U),
    "Asinh": (_FLC, _U),
    "Atan": (_FLC, _U),
    "Atan2": (_FLT, "y:T, x:T -> z:T; attr=T:type,allowed={}"),
    "Atanh": (_FLC, _U),
    "BesselI0": (_FLT, _U),
    "BesselI0e": (_FLT, _U),
    "BesselI1": (_FLT, _U),
    "BesselI1e": (_FLT, _U),
    "BitwiseAnd": (_INTS, _BC),
    "BitwiseOr": (_INTS, _BC),
    "BitwiseXor": (_INTS, _BC),
    "Ceil": (_FLT, _U),
    "Cholesky": ("double, float, half, complex64, complex128", "input:T -> output:T; attr=T:type,allowed={}"),
    "Conj": ("complex64, complex128, variant", "input:T -> output:T; attr=T:type,default=DT_COMPLEX64,allowed={}"),
    "Cos": (_FLC, _U),
    "Cosh": (_FLC, _U),
    "Cumprod": (_RED,
                "x:T, axis:Tidx -> out:T; attr=exclusive:bool,default=false; attr=reverse:bool,default=false; attr=T:type,allowed={}; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]"),
    "Cumsum": (_RED,
               "x:T, axis:Tidx -> out:T; attr=exclusive:bool,default=false; attr=reverse:bool,default=false; attr=T:type,allowed={}; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]"),
    "CumulativeLogsumexp": (_FLT,
                            "x:T, axis:Tidx -> out:T; attr=exclusive:bool,default=false; attr=reverse:bool,default=false; attr=T:type,allowed={}; attr=Tidx:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]"),
    "Diag": ("bfloat16, half, float, double, int32, int64, complex64, complex128",
             "diagonal:T -> output:T; attr=T:type,allowed={}"),
    "Digamma": (_FLT, _U),
    "Dawsn": (_FLT, _U),
    "FresnelCos": (_FLT, _U),
    "FresnelSin": (_FLT, _U),
    "Div": (_MUL, _B),
    "DivNoNan": ("half, float, bfloat16, double, complex64, complex128", _B),
    "Erf": (_FLT, _U),
    "Erfc": (_FLT, _U),
    "Erfinv": (_FLT, _U),
    "EuclideanNorm": (_RED, _RS),
    "Exp": (_FLC, _U),
    "Expm1": (_FLC, _U),
    "Floor": (_FLT, _U),
    "FloorDiv": (_MUL, _B),
    "FloorMod": ("int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, float, double", _B),
    "Greater": (_MAX, "x:T, y:T -> z:bool; attr=T:type,allowed={}"),
    "GreaterEqual": (_MAX, "x:T, y:T -> z:bool; attr=T:type,allowed={}"),
    "Igamma": (_FLT, "a:T, x:T -> z:T; attr=T:type,allowed={}"),
    "Igammac": (_FLT, "a:T, x:T -> z:T; attr=T:type,allowed={}"),
    "Imag": ("complex64, complex128",
             "input:T -> output:Tout; attr=T:type,default=DT_COMPLEX64,allowed={}; attr=Tout:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_DOUBLE]"),
    "Invert": (_INTS, _U),
    "IsFinite": (_FLT, "x:T -> y:bool; attr=T:type,allowed={}"),
    "IsInf": (_FLT, "x:T -> y:bool; attr=T:type,allowed={}"),
    "IsNan": (_FLT, "x:T -> y:bool; attr=T:type,allowed={}"),
    "LeftShift": (_INTS, _B),
    "Less": (_MAX, "x:T, y:T -> z:bool; attr=T:type,allowed={}"),
    "LessEqual": (_MAX, "x:T, y:T -> z:bool; attr=T:type,allowed={}"),
    "Lgamma": (_FLT, _U),
    "Log": (_FLC, _U),
    "Log1p": (_FLC, _U),
    "MatMul": ("bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128",
               "a:T, b:T -> product:T; attr=transpose_a:bool,default=false; attr=transpose_b:bool,default=false; attr=T:type,allowed={}; attr=grad_a:bool,default=false; attr=grad_b:bool,default=false"),
    "MatrixSquareRoot": ("double, float, half, complex64, complex128", "input:T -> output:T; attr=T:type,allowed={}"),
    "MatrixTriangularSolve": ("bfloat16, double, float, half, complex64, complex128",
                              "matrix:T, rhs:T -> output:T; attr=lower:bool,default=true; "
                              "attr=adjoint:bool,default=false; attr=T:type,allowed={}"),
    "Max": (_MAXQ, _RS),
    "Maximum": ("bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64", _B),
    "Mean": (_RED, _RS),
    "Min": (_MAXQ, _RS),
    "Minimum": ("bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64", _B),
    "Mul": (_MUL, _BC),
    "MulNoNan": (_FLC, _B),
    "Ndtri": (_FLT, _U),
    "Neg": (_SGN, _U),
    "NextAfter": ("double, float", "x1:T, x2:T -> output:T; attr=T:type,default=DT_FLOAT,allowed={}"),
    "Polygamma": ("float, double", "a:T, x:T -> z:T; attr=T:type,allowed={}"),
    "Pow": ("bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128", _B),
    "Prod": (_RED, _RS),
    "Real": ("complex64, complex128",
             "input:T -> output:Tout; attr=T:type,default=DT_COMPLEX64,allowed={}; attr=Tout:type,default=DT_FLOAT,allowed=[DT_FLOAT, DT_DOUBLE]"),
    "RealDiv": (_MUL, _B),
    "Reciprocal": (_SGN, _U),
    "RightShift": (_INTS, _B),
    "Rint": (_FLT, _U),
    "Round": (_SGN, _U),
    "Rsqrt": (_FLC, _U),
    "Sigmoid": (_FLC, _U),
    "Sign": (_SGN, _U),
    "Sin": (_FLC, _U),
    "Sinh": (_FLC, _U),
    "Softplus": ("half, bfloat16, float, double", "features:T -> activations:T; attr=T:type,allowed={}"),
    "Softsign": ("half, bfloat16, float, double", "features:T -> activations:T; attr=T:type,allowed={}"),
    "Sqrt": (_FLC, _U),
    "Square": ("bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128",
               _U),
    "SquaredDifference": ("bfloat16, half, float, double, int32, int64, complex64, complex128", _BC),
    "Sub": ("bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, complex64, complex128, uint32, uint64",
            _B),
    "Sum": (_RED, _RS),
    "Tan": (_FLC, _U),
    "Tanh": (_FLC, _U),
    "TruncateDiv": (_MUL, _B),
    "TruncateMod": ("int32, int64, bfloat16, half, float, double", _B),
    "Xdivy": ("half, bfloat16, float, double, complex64, complex128", _B),
    "Xlog1py": ("half, bfloat16, float, double, complex64, complex128", _B),
    "Xlogy": ("half, bfloat16, float, double, complex64, complex128", _B),
    "Zeta": ("float, double", "x:T, q:T -> z:T; attr=T:type,allowed={}"),
}


_C_NAMES = {"half": "float16", "float": "float32", "double": "float64"}


def _registered(names):
    return _torch_set([_d.as_dtype(_C_NAMES.get(n, n)) for n in names.replace(",", " ").split()
                       if n != "variant" and not n.startswith("q")])


# dtypes an op's registration allows but for which TF 2.21 has no CPU kernel (NotFoundError), from the TF venv
_NO_KERNEL = {op: _registered(names) for op, names in {
    "BesselI0": "bfloat16", "BesselI0e": "bfloat16", "BesselI1": "bfloat16", "BesselI1e": "bfloat16",
    "Digamma": "bfloat16", "Lgamma": "bfloat16", "Erfinv": "bfloat16 half", "Ndtri": "bfloat16 half",
    "Igamma": "bfloat16 half", "Igammac": "bfloat16 half", "Rint": "bfloat16 half", "TruncateMod": "bfloat16 half",
    "FloorDiv": "complex64 complex128", "TruncateDiv": "complex64 complex128", "Reciprocal": "int8 int16 int32 int64",
    "MatMul": "uint8 uint16 uint32 uint64", "Cholesky": "half", "MatrixSquareRoot": "half",
    "MatrixTriangularSolve": "bfloat16 half", "Diag": "bfloat16"}.items()}


def _no_kernel_error(storage_dtype, op):
    """TF's NotFoundError for a dtype the op is registered for without a CPU kernel (kernel list abbreviated)."""
    have = [n for n in _OP_DEFS[op][0].split(", ") if not _registered(n) <= _NO_KERNEL[op]]
    kernels = "".join(f"\n  device='CPU'; T in [DT_{n.upper()}]" for n in reversed(have))
    enum = "DT_" + type_name(storage_dtype).upper()
    return errors.op_error(errors.NotFoundError, f"Could not find device for node: {{{{node {op}}}}} = {op}[T={enum}]"
                           f"\nAll kernels registered for op {op}:{kernels}\n", op)


# ops whose public wrapper accepts more dtypes than the op's registration (it converts or dispatches first)
_WRAPPER_DTYPES = frozenset(["Abs", "Round", "RealDiv", "Angle", "Real", "Imag", "Conj", "Neg"])


def kernel_dtypes(op, dtypes):
    """The dtypes an op runs with: `dtypes` within TF's registration of `op` (when `_OP_DEFS` has it), less those
    without a CPU kernel; `check_dtype` rejects the others with TF's error."""
    spec = _OP_DEFS.get(op)
    out = dtypes
    if spec is not None and op not in _WRAPPER_DTYPES:
        out = out & (_registered(spec[0]) | {STRING} if STRING in out else _registered(spec[0]))
    out = out - _NO_KERNEL.get(op, frozenset())
    return dtypes if out == dtypes else frozenset(out)     # the same set object where nothing changes (BOOL)


def unary_input(x, op, allowed):
    t = x._t if type(x) is EagerTensor else (x._read() if isinstance(x, Variable) else None)
    if t is not None and t.dtype in allowed and type(t) is torch.Tensor:
        if t.requires_grad and not state.recording:
            return t.detach()
        return t
    t = input_storage(x)
    check_dtype(t, op, allowed)
    return t


def same_dtype_inputs(values, op, allowed=None, dtype=None):
    """Storages of op inputs that must share one dtype (`tf.concat`, `tf.stack`, ...).

    The first tensor among them (or `dtype`) fixes the dtype; other values adopt it.
    """
    values = list(values)
    ref = None
    for v in values:
        if _is_tensor_like(v):
            ref = input_storage(v, dtype)
            break
    if ref is None:
        ref = to_storage(values[0], dtype) if values else None
    out = [input_storage(v) if _is_tensor_like(v) else _like(v, ref, False) for v in values]
    for i, t in enumerate(out):
        if t.dtype != ref.dtype:
            raise errors.op_error(
                errors.InvalidArgumentError,
                f"cannot compute {op} as input #{i}(zero-based) was expected to be a {type_name(ref.dtype)} "
                f"tensor but is a {type_name(t.dtype)} tensor", op)
    if allowed is not None and ref is not None:
        check_dtype(ref, op, allowed)
    if not state.recording:
        out = [t.detach() if type(t) is torch.Tensor and t.requires_grad else t for t in out]
    return out


def shapes_text(*ts):
    return " vs. ".join("[" + ",".join(str(d) for d in t.shape) + "]" for t in ts)


def kernel_error(cls, message, op, *inputs):
    """An error raised by op `op`'s kernel (TF prefixes the wrapped function and device)."""
    device = "cpu"
    for t in inputs:
        if type(t) is torch.Tensor:
            device = t.device
            break
    return errors.kernel_error(cls, message, op, device_name(torch.device(device)))


def broadcastable(sa, sb):
    """Whether two shapes broadcast together (NumPy's rule, which TF's BCast follows)."""
    for da, db in zip(reversed(sa), reversed(sb)):
        if da != db and da != 1 and db != 1:
            return False
    return True


def check_broadcast(op, a, b):
    """Raises TF's "Incompatible shapes" InvalidArgumentError unless storages `a` and `b` broadcast together.

    Callers skip it when the shapes are equal; elementwise ops call it only once their kernel has refused."""
    if not broadcastable(a.shape, b.shape):
        eager = kernel_error(errors.InvalidArgumentError, f"Incompatible shapes: {shapes_text(a, b)}", op, a, b)
        n = max(a.ndim, b.ndim)
        pa, pb = [1] * (n - a.ndim) + list(a.shape), [1] * (n - b.ndim) + list(b.shape)
        da, db = next((x, y) for x, y in zip(pa, pb) if x != y and x != 1 and y != 1)
        raise errors.static_shape_error(eager, f"Dimensions must be equal, but are {da} and {db}", None, op,
                                        f"T=DT_{type_name(a.dtype).upper()}", [a, b])


def division_by_zero(op, *inputs):
    """TF's error for an integer division whose divisor has a zero (TruncateDiv's kernel reports it as internal)."""
    if op == "TruncateDiv":
        return kernel_error(errors.InternalError, "Unexpected error in binary operator (only integer div and mod "
                            "should have errors)", op, *inputs)
    return kernel_error(errors.InvalidArgumentError, "Integer division by zero", op, *inputs)


# composite tensor type (tf.RaggedTensor) -> handler(op, *operands) of the elementwise ops below, registered by the
# type's module: an operand the dense conversion rejects is tried there (TF's dispatch), at no cost to dense calls
COMPOSITE_ELEMENTWISE = {}


def binary_op(*names, op, fn, dtypes=NUMERIC, doc=None):
    """Defines and exports an elementwise binary op `f(x, y, name=None)` with broadcasting."""

    dtypes = kernel_dtypes(op, dtypes)

    def f(x, y, name=None):
        try:
            a, b = binary_inputs(x, y, op, dtypes)
        except (TypeError, ValueError):
            composite = COMPOSITE_ELEMENTWISE.get(type(x)) or COMPOSITE_ELEMENTWISE.get(type(y))
            if composite is None:
                raise
            return composite(f, x, y)
        try:
            return _wrap(fn(a, b))
        except (RuntimeError, NotImplementedError) as e:
            # torch checks broadcasting before it computes anything, so shapes are checked here, when the kernel
            # refused: the common call pays no shape comparison (~0.2 us of a ~3 us op)
            if a.shape != b.shape:
                check_broadcast(op, a, b)
            if a.dtype in _WIDE_UNSIGNED:
                return _wrap(_unsigned(fn, op, a, b))
            raise translate(e, op, a, b) from None

    f.__name__ = names[0].rsplit(".", 1)[-1] if names else op
    f.__qualname__ = f.__name__
    f.__doc__ = doc or f"TF's `{op}` op, elementwise with broadcasting."
    f.op_name = op
    f.torch_fn = fn
    f.dtypes = dtypes
    return tf_export(*names)(f) if names else f


def unary_op(*names, op, fn, dtypes=NUMERIC, doc=None):
    """Defines and exports an elementwise unary op `f(x, name=None)`."""

    dtypes = kernel_dtypes(op, dtypes)

    def f(x, name=None):
        try:
            t = unary_input(x, op, dtypes)
        except (TypeError, ValueError):
            composite = COMPOSITE_ELEMENTWISE.get(type(x))
            if composite is None:
                raise
            return composite(f, x)
        try:
            return _wrap(fn(t))
        except (RuntimeError, NotImplementedError) as e:
            if t.dtype not in _WIDE_UNSIGNED:
                raise translate(e, op, t) from None
            return _wrap(_unsigned(lambda a, _: fn(a), op, t, t))

    f.__name__ = names[0].rsplit(".", 1)[-1] if names else op
    f.__qualname__ = f.__name__
    f.__doc__ = doc or f"TF's `{op}` op, elementwise."
    f.op_name = op
    f.torch_fn = fn
    return tf_export(*names)(f) if names else f


_WIDE_UNSIGNED = frozenset([torch.uint16, torch.uint32, torch.uint64])
_MODULAR = frozenset(["AddV2", "Sub", "Mul", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "Square", "LeftShift"])
_ORDERED = frozenset(["Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "Maximum", "Minimum"])
_SIGN_BIT = -2 ** 63


def _unsigned(fn, op, a, b):
    """`fn` over uint16/32/64 operands, for which torch has few CPU kernels: computed in int64 (uint64: on the
    same bits where the op is modular, or order-preserving once the sign bit is flipped) and cast back."""
    dt = a.dtype
    if dt is not torch.uint64:
        out = fn(a.to(torch.int64), b.to(torch.int64))
        return out.to(dt) if out.dtype is torch.int64 else out
    x, y = a.view(torch.int64), b.view(torch.int64)
    if op in _MODULAR:
        return fn(x, y).view(dt)
    if op in _ORDERED:
        out = fn(x ^ _SIGN_BIT, y ^ _SIGN_BIT)
        return out if out.dtype is torch.bool else (out ^ _SIGN_BIT).view(dt)
    if bool((x < 0).any()) or bool((y < 0).any()):
        raise NotImplementedError(f"tfcompat: {op} of uint64 values of 2**63 or more")
    out = fn(x, y)
    return out.view(dt) if out.dtype is torch.int64 else out


def translate(e, op, *inputs):
    """A torch error from an op's kernel, once TF's own checks have passed, as TF's error class.

    Shapes, dtypes and divisors are checked before kernels run; what still fails in a kernel is running
    out of memory (ResourceExhaustedError) or an input TF rejects at run time (InvalidArgumentError).
    """
    msg = str(e).split("\n")[0]
    if isinstance(e, torch.OutOfMemoryError):
        return kernel_error(errors.ResourceExhaustedError, msg, op, *inputs)
    return kernel_error(errors.InvalidArgumentError, msg, op, *inputs)


def axis_list(axis, ndim):
    """TF `axis` argument (int, list, tensor or None) as a tuple of non-negative ints, or None for all."""
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        axis = axis.numpy().tolist()
    elif isinstance(axis, np.ndarray):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        out = []
        for a in axis:
            if isinstance(a, (float, np.floating)):
                raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
            a = int(a)
            if not -ndim <= a < ndim:
                raise errors.InvalidArgumentError(
                    None, None, f"Invalid reduction dimension ({a} for input with {ndim} dimension(s)")
            out.append(a % ndim)
        return tuple(out)
    if isinstance(axis, (float, np.floating)):
        raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
    a = int(axis)
    if not -ndim <= a < ndim:
        raise errors.InvalidArgumentError(
            None, None, f"Invalid reduction dimension ({a} for input with {ndim} dimension(s)")
    return (a % ndim,)


_SHAPE_SIG = "attr=seed:int,default=0; attr=seed2:int,default=0; attr=dtype:type,allowed=[DT_HALF, DT_BFLOAT16, " \
    "DT_FLOAT, DT_DOUBLE]; attr=T:type,allowed=[DT_INT32, DT_INT64]; is_stateful=true"
_INDEX_ATTRS = {   # op -> (its int32/int64 index input's attr, OpDef signature, message shows ` name: `)
    "Fill": ("index_type", "dims:index_type, value:T -> output:T; attr=T:type; attr=index_type:type,"
             "default=DT_INT32,allowed=[DT_INT32, DT_INT64]", True),
    "Reshape": ("Tshape", "tensor:T, shape:Tshape -> output:T; attr=T:type; attr=Tshape:type,default=DT_INT32,"
                "allowed=[DT_INT32, DT_INT64]", False),
    "BroadcastTo": ("Tidx", "input:T, shape:Tidx -> output:T; attr=T:type; attr=Tidx:type,default=DT_INT32,"
                    "allowed=[DT_INT32, DT_INT64]", False),
    "Tile": ("Tmultiples", "input:T, multiples:Tmultiples -> output:T; attr=T:type; attr=Tmultiples:type,"
             "default=DT_INT32,allowed=[DT_INT32, DT_INT64]", False),
    "Transpose": ("Tperm", "x:T, perm:Tperm -> y:T; attr=T:type; attr=Tperm:type,default=DT_INT32,"
                  "allowed=[DT_INT32, DT_INT64]", False),
    "RandomUniform": ("T", "shape:T -> output:dtype; " + _SHAPE_SIG, True),
    "RandomStandardNormal": ("T", "shape:T -> output:dtype; " + _SHAPE_SIG, True),
    "TruncatedNormal": ("T", "shape:T -> output:dtype; " + _SHAPE_SIG, True),
    "RandomUniformInt": ("T", "shape:T, minval:Tout, maxval:Tout -> output:Tout; attr=seed:int,default=0; "
                         "attr=seed2:int,default=0; attr=Tout:type,allowed=[DT_INT32, DT_INT64]; "
                         "attr=T:type,allowed=[DT_INT32, DT_INT64]; is_stateful=true", True),
}


def _not_int(value, op):
    """TF's error for a non-integer shape-like argument: the op's attr check when `op` converts it itself
    (`_INDEX_ATTRS`), else the failed int32 conversion of `tf.ones`/`tf.zeros`."""
    spec = _INDEX_ATTRS.get(op)
    if spec is None:
        if isinstance(value, Tensor):
            return ValueError(f"Tensor conversion requested dtype int32 for Tensor with dtype {value.dtype.name}: "
                              f"{value!r}")
        if isinstance(value, (list, tuple)):
            to_storage(value)      # TF's conversion errors (mixed types, ragged lists) come first
        return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int32")
    attr, sig, named = spec
    got = type_name(to_storage(value).dtype)
    return errors.op_error(errors.InvalidArgumentError,
                           f"Value for attr '{attr}' of {got} is not in the list of allowed values: int32, int64\n"
                           f"\t; NodeDef: {{{{node {op}}}}}; Op<name={op}; signature={sig}>", op, "" if named else None)


def _int_leaf(v, value, op):
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, np.ndarray) and v.dtype.kind in "iu" and v.ndim == 0:
        return int(v)
    if isinstance(v, (Tensor, Variable)) and v.dtype.is_integer and v.shape.rank == 0:
        return int(v)
    if v is None:
        raise _none_error()
    raise _not_int(value, op)


def _none_error():
    """TF's error for None where a shape (or any tensor) is expected."""
    return ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")


def int_list(value, op=None):
    """A shape-like argument (list, tuple, tensor, TensorShape) as a list of Python ints.

    Python floats or strings, and float tensors, raise TF's error (`_not_int`); NumPy float arrays truncate as TF.
    """
    if isinstance(value, Tensor):
        if not value.dtype.is_integer:
            raise _not_int(value, op)
        return [int(v) for v in value._array().reshape(-1)]
    if hasattr(value, "as_list"):
        return value.as_list()
    if isinstance(value, np.ndarray):
        return [int(v) for v in value.reshape(-1)]
    if isinstance(value, (int, np.integer)):
        return [int(value)]
    if value is None:
        raise _none_error()
    if isinstance(value, (str, bytes, float, np.floating)) or not hasattr(value, "__iter__"):
        raise _not_int(value, op)
    return [v if type(v) is int else _int_leaf(v, value, op) for v in value]


def int_value(value):
    if isinstance(value, Tensor):
        return int(value._array())
    return int(value)


class _NoGradient(torch.autograd.Function):
    """Identity whose backward raises TF's LookupError: for ops TF registers no gradient for."""

    @staticmethod
    def forward(ctx, op, *inputs):
        ctx.op = op
        return inputs[0].view_as(inputs[0])

    @staticmethod
    def backward(ctx, grad):
        raise LookupError(f"gradient registry has no entry for: {ctx.op}")


def no_gradient(result, op, *inputs):
    """`result` unchanged, but differentiating through it (w.r.t. `inputs`) raises TF's LookupError."""
    if state.recording and any(type(t) is torch.Tensor and t.requires_grad for t in inputs):
        return _NoGradient.apply(op, result.detach(), *inputs)
    return result
