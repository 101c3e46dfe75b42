"""Runs one case against a `tf` module (TensorFlow or tfcompat) and encodes its outcome as plain data.

Outcome: `{"k": "err", "c": exception class name, "m": message head}` or `{"k": "ok", "r": result}` where a
result is `{"d": dtype, "s": shape, "v": flat values}` for a tensor, `{"L": [...]}` for a list/tuple of
results, `{"R": nested list}` for a RaggedTensor, or `{"P": repr}` for any other Python value. Floats keep
NaN/Inf (Python's JSON), complex values are `[re, im]`, strings latin-1 text.
"""
import operator

import numpy as np

_NP = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "bfloat16": np.float32,
       "complex64": np.complex64, "complex128": np.complex128, "bool": np.bool_, "string": object}


class BuildError(Exception):
    """A case's inputs could not be built with the implementation under test (not the op's outcome)."""


def _tensor(tf, spec):
    dt = spec["T"]
    v = spec["v"]
    if dt in ("complex64", "complex128"):
        v = [complex(re, im) for re, im in v]
    elif dt == "string":
        v = [s.encode("latin-1") for s in v]
    np_type = _NP.get(dt) or getattr(np, dt)
    arr = np.array(v, dtype=np_type).reshape(spec["s"])
    t = tf.constant(arr)
    return tf.cast(t, tf.bfloat16) if dt == "bfloat16" else t


def decode(tf, value):
    """A case argument as the Python value handed to the op, tensors built with `tf`."""
    if isinstance(value, list):
        return [decode(tf, v) for v in value]
    if not isinstance(value, dict):
        return value
    if "T" in value:
        try:
            return _tensor(tf, value)
        except Exception as e:   # noqa: BLE001 - any failure to build an input is reported as such
            raise BuildError(f"{type(e).__name__}: {e}") from None
    if "D" in value:
        return getattr(tf, value["D"])
    if "S" in value:
        return slice(*value["S"])
    if "E" in value:
        return Ellipsis
    if "C" in value:
        return complex(*value["C"])
    if "U" in value:
        return tuple(decode(tf, v) for v in value["U"])
    return {k: decode(tf, v) for k, v in value.items()}


def resolve(tf, name):
    """The callable a case names: `tf.<dotted>`, a Python operator, or indexing."""
    if name == "getitem":
        return operator.getitem
    if name.startswith("operator."):
        return getattr(operator, name.split(".", 1)[1])
    f = tf
    for part in name.split("."):
        f = getattr(f, part)
    return f


def _flat(arr, dtype):
    flat = arr.reshape(-1)
    if dtype == "string":
        return [bytes(b).decode("latin-1") for b in flat]
    if np.iscomplexobj(flat):
        return [[float(c.real), float(c.imag)] for c in flat]
    if flat.dtype.kind == "f" or dtype == "bfloat16":
        return [float(x) for x in flat.astype(np.float64)]
    return flat.tolist()


def encode(tf, result):
    """The outcome data of an op's return value."""
    if isinstance(result, tf.Tensor):
        dtype = result.dtype.name
        arr = np.asarray((tf.cast(result, tf.float32) if dtype == "bfloat16" else result).numpy())
        return {"d": dtype, "s": list(arr.shape), "v": _flat(arr, dtype)}
    if isinstance(result, (list, tuple)):
        return {"L": [encode(tf, r) for r in result]}
    if type(result).__name__ == "RaggedTensor":
        return {"R": _plain(result.to_list())}
    return {"P": repr(result)}


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, (np.generic,)):
        return v.item()
    return v


def run(tf, case):
    """The outcome of one case under `tf` (raises BuildError when its inputs cannot be built)."""
    args = decode(tf, case["a"])
    kwargs = decode(tf, case["k"])
    try:
        f = resolve(tf, case["op"])
        out = f(*args, **kwargs)
        return {"k": "ok", "r": encode(tf, out)}
    except Exception as e:   # noqa: BLE001 - the outcome is the exception's class, whatever it is
        return {"k": "err", "c": type(e).__name__, "mod": type(e).__module__.split(".")[0],
                "m": str(e)[:160]}
