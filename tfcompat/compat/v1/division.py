"""`tf.compat.v1.div`: TF1's division with Python 2 semantics (floor division of integers, true division otherwise)."""
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import EXPORTS
from tfcompat.ops.deprecation import warn_deprecated


def div(x, y, name=None):
    """`x / y` for floating and complex dtypes, `x // y` for integers (`y` converted to `x`'s dtype); deprecated."""
    warn_deprecated("div", "tensorflow.python.ops.math_ops", "Deprecated in favor of operator or tf.math.divide.")
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    if x.dtype.is_floating or x.dtype.is_complex:
        return EXPORTS["math.truediv"](x, y)
    return EXPORTS["math.floordiv"](x, y)
