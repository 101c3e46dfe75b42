"""Compares tfcompat's outcome of a case with TF's and names the failure class when they differ.

Agreement: both raise the same exception class (TF's `tf.errors` classes by name; ValueError/TypeError as TF),
or both return the same structure with the same dtypes, shapes and values: exact for integers, bool and
strings; for floats NaN matches NaN, infinities must sit in the same places, finite values agree within the
dtype's tolerance (relative, plus an absolute one scaled by the largest finite expected magnitude, up to
1e6).
"""
import math

# dtype -> (rtol, atol relative to max(1, largest finite |expected|))
TOLERANCE = {"float16": (2e-3, 1e-3), "bfloat16": (1.6e-2, 8e-3), "float32": (2e-5, 2e-6), "float64": (1e-9, 1e-12),
             "complex64": (2e-5, 2e-6), "complex128": (1e-9, 1e-12)}

# failure classes, in the order reports list them
INTERNAL = "internal exception escapes"
SILENT = "silent acceptance (TF raises)"
RAISES = "raises where TF returns"
NOT_IMPLEMENTED = "not implemented"
OTHER_CLASS = "different exception class"
DTYPE = "dtype differs"
SHAPE = "shape/structure differs"
VALUES = "values differ"
BUILD = "inputs not buildable"
CLASSES = (INTERNAL, SILENT, RAISES, NOT_IMPLEMENTED, OTHER_CLASS, DTYPE, SHAPE, VALUES, BUILD)

_MAX_SCALE = 1e6   # an extreme value in a tensor scales the absolute tolerance of its neighbours only this far
_PUBLIC_BUILTINS = frozenset(["ValueError", "TypeError"])


def is_internal(outcome):
    """Whether a raised exception is a torch/NumPy/Python-internal class rather than one TF's API raises."""
    mod, cls = outcome.get("mod", ""), outcome["c"]
    if mod in ("torch", "numpy"):
        return True
    return mod == "builtins" and cls not in _PUBLIC_BUILTINS and not cls.startswith("NotImplemented")


def _not_implemented(outcome):
    return outcome["c"] in ("NotImplementedError", "NotImplementedYet")


def classify(tf_out, tc_out):
    """None when the outcomes agree (or TF's is not comparable), else the failure class."""
    if tf_out["k"] not in ("ok", "err"):
        return None
    if tc_out["k"] == "build":
        return BUILD
    if tf_out["k"] == "err":
        if tc_out["k"] == "ok":
            return SILENT
        if tc_out["c"] == tf_out["c"]:
            return None
        if _not_implemented(tc_out):
            return NOT_IMPLEMENTED
        return INTERNAL if is_internal(tc_out) else OTHER_CLASS
    if tc_out["k"] == "err":
        if _not_implemented(tc_out):
            return NOT_IMPLEMENTED
        return INTERNAL if is_internal(tc_out) else RAISES
    return _result(tf_out["r"], tc_out["r"])


def _result(a, b):
    if set(a) != set(b):
        return SHAPE
    if "L" in a:
        if len(a["L"]) != len(b["L"]):
            return SHAPE
        for x, y in zip(a["L"], b["L"]):
            r = _result(x, y)
            if r:
                return r
        return None
    if "R" in a:
        return None if _nested_equal(a["R"], b["R"]) else VALUES
    if "P" in a:
        return None if a["P"] == b["P"] else VALUES
    if a["d"] != b["d"]:
        return DTYPE
    if a["s"] != b["s"]:
        return SHAPE
    return None if values_equal(a["d"], a["v"], b["v"]) else VALUES


def _nested_equal(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_nested_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return _floats_equal([a], [b], "float32")
    return a == b


def values_equal(dtype, a, b):
    """Whether two flat value lists of `dtype` agree within its tolerance."""
    if dtype not in TOLERANCE:
        return a == b
    if dtype.startswith("complex"):
        return (_floats_equal([v[0] for v in a], [v[0] for v in b], dtype)
                and _floats_equal([v[1] for v in a], [v[1] for v in b], dtype))
    return _floats_equal(a, b, dtype)


def _floats_equal(a, b, dtype):
    if len(a) != len(b):
        return False
    rtol, atol = TOLERANCE[dtype]
    atol *= min(max([1.0] + [abs(x) for x in a if math.isfinite(x)]), _MAX_SCALE)
    for x, y in zip(a, b):
        if math.isnan(x) or math.isnan(y):
            if math.isnan(x) != math.isnan(y):
                return False
        elif math.isinf(x) or math.isinf(y):
            if x != y:
                return False
        elif abs(x - y) > atol + rtol * abs(x):
            return False
    return True
