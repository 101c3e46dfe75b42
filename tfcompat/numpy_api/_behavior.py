"""`experimental_enable_numpy_behavior`: NumPy methods (`.T`, `.reshape`, `.astype`, ...) and NumPy type promotion
for the operators of every tensor and variable, process-wide and for good, as in TF."""
import numpy as np

from tfcompat.framework.export import unsupported_args
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable
from tfcompat.numpy_api._indexing import wrap_getitem

_state = {"enabled": False, "prefer_float32": False}


def enabled():
    return _state["enabled"]


def prefer_float32():
    """Whether Python floats (and complexes) count as float32 (complex64) in NumPy's promotion."""
    return _state["prefer_float32"]


@unsupported_args("dtype_conversion_mode", api_name="tf.experimental.numpy.experimental_enable_numpy_behavior")
def enable(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Turns on NumPy behavior for all tensors: NumPy's promotion in operators and NumPy's methods; each call sets
    `prefer_float32` (Python floats inferred as float32, as TF's `np_dtypes.set_prefer_float32`)."""
    _state["prefer_float32"] = bool(prefer_float32)
    from tfcompat import numpy_api as tnp
    operators = {"add": tnp.add, "sub": tnp.subtract, "mul": tnp.multiply, "truediv": tnp.true_divide,
                 "floordiv": tnp.floor_divide, "mod": tnp.mod, "pow": tnp.power}
    comparisons = {"lt": tnp.less, "le": tnp.less_equal, "gt": tnp.greater, "ge": tnp.greater_equal}
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
        for name, fn in operators.items():
            setattr(cls, f"__{name}__", _forward(fn))
            setattr(cls, f"__r{name}__", _reflected(fn))
        for name, fn in comparisons.items():
            setattr(cls, f"__{name}__", _forward(fn))
        for name, member in methods.items():
            setattr(cls, name, member)
    if not _state["enabled"]:                 # tensors index as NumPy (variables keep TF's indexing, as in TF)
        Tensor.__getitem__ = wrap_getitem(Tensor.__getitem__)
    _state["enabled"] = True


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
