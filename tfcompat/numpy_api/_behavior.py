"""`experimental_enable_numpy_behavior`: NumPy methods (`.T`, `.reshape`, `.astype`, ...) and the promotion mode of
the operators of every tensor and variable (NumPy's, or TF's auto dtype conversion), process-wide, as in TF."""

import numpy as np

from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.numpy_api import _weak_ops
from tfcompat.numpy_api._indexing import wrap_getitem
from tfcompat.numpy_api._lattice import PromoMode
from tfcompat.ops.math_ops import add, multiply
from tfcompat.ops.misc_ops import get_logger

_state = {"enabled": False, "prefer_float32": False}


def enabled():
    return _state["enabled"]


def prefer_float32():
    """Whether Python floats (and complexes) count as float32 (complex64) in NumPy's promotion."""
    return _state["prefer_float32"]


_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul")
_COMPARISONS = ("lt", "le", "gt", "ge")
_MODES = {"off": PromoMode.OFF, "legacy": PromoMode.LEGACY, "safe": PromoMode.SAFE, "all": PromoMode.ALL}
_DEFAULT_OPERATORS = {}


def enable(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Turns on NumPy behavior for all tensors: NumPy's methods and indexing, and the operators' promotion of
    `dtype_conversion_mode`: "legacy" NumPy's, "safe"/"all" TF's auto dtype conversion (weak tensors, the lattice),
    "off" none. Each call sets `prefer_float32` (Python floats inferred as float32, as TF's
    `np_dtypes.set_prefer_float32`) and the mode."""
    mode = _MODES.get(dtype_conversion_mode) if isinstance(dtype_conversion_mode, str) else None
    if mode is None:
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. Make sure the provided "
                         "dtype conversion mode is one of the followings: 'off', 'legacy', 'safe' or 'all'.")
    if mode in (PromoMode.SAFE, PromoMode.ALL):
        get_logger().warning(
            "UserWarning: enabling the new type promotion must happen at the beginning of the program. Please ensure "
            "no TF APIs have been used yet.")
    _state["prefer_float32"] = bool(prefer_float32)
    from tfcompat import numpy_api as tnp
    methods = {
        "T": property(lambda self: tnp.transpose(self)),
        "size": property(lambda self: tnp.size(self)),
        "data": property(lambda self: self),
        "reshape": lambda self, *shape, order="C": tnp.reshape(self, shape[0] if len(shape) == 1 else shape, order),
        "transpose": transpose,
        "astype": lambda self, dtype: tnp.asarray(self, dtype),
        "ravel": lambda self: tnp.ravel(self),
        "flatten": lambda self: tnp.ravel(self),
        "clip": lambda self, a_min, a_max: tnp.clip(self, a_min, a_max),
        "tolist": lambda self: np.asarray(self.numpy()).tolist(),
        "mean": lambda self, axis=None, dtype=None, keepdims=False: tnp.mean(self, axis, dtype, keepdims),
    }
    for cls in (Tensor, Variable):
        if cls not in _DEFAULT_OPERATORS:       # TF's own operators, for "off" and for comparisons in auto modes
            _DEFAULT_OPERATORS[cls] = {name: cls.__dict__[name] for name in _operator_names()}
        for name, member in methods.items():
            setattr(cls, name, member)
    _weak_ops._state["mode"] = mode
    _set_operators(mode, tnp)
    if not _state["enabled"]:                 # tensors index as NumPy (variables keep TF's indexing, as in TF)
        Tensor.__getitem__ = wrap_getitem(Tensor.__getitem__)
    _state["enabled"] = True


def _operator_names():
    return [f"__{p}{n}__" for n in _OPERATORS for p in ("", "r")] + [f"__{n}__" for n in _COMPARISONS]


def _set_operators(mode, tnp):
    """The operators of tensors and variables for `mode`: NumPy's promotion (legacy), the lattice's wrapped ops
    (safe, all; comparisons stay TF's, which TF does not wrap) or TF's own (off)."""
    if mode is PromoMode.LEGACY:
        ops = {"add": _promoting(tnp, add), "sub": tnp.subtract,
               "mul": _promoting(tnp, _weak_ops.multiply_operator(multiply)), "truediv": tnp.true_divide,
               "floordiv": tnp.floor_divide, "mod": tnp.mod, "pow": tnp.power, "matmul": tnp.matmul,
               "lt": tnp.less, "le": tnp.less_equal, "gt": tnp.greater, "ge": tnp.greater_equal}
    elif mode is PromoMode.OFF:
        ops = {}
    else:
        ops = _weak_ops.operators()
    for cls in (Tensor, Variable):
        for name, member in _DEFAULT_OPERATORS[cls].items():
            setattr(cls, name, member)
        for name, fn in ops.items():
            setattr(cls, f"__{name}__", _forward(fn))
            if name in _OPERATORS:
                setattr(cls, f"__r{name}__", _reflected(fn))


def _promoting(tnp, op):
    """`op` after NumPy's promotion of both operands (TF's legacy `+` and `*`: TF's ops, not tnp's)."""
    def promoted(x, y):
        return op(*tnp._promoted(x, y))
    return promoted


def _forward(fn):
    def method(self, other):
        return fn(self, other)
    return method


def _reflected(fn):
    def method(self, other):
        return fn(other, self)
    return method


def transpose(self, axes=None):
    """`x.transpose(axes)`: NumPy's method (one argument, as TF's)."""
    from tfcompat import numpy_api as tnp
    return tnp.transpose(self, axes)
