"""What the array op modules share: TF's eager error text, axis and dtype-matching checks, static broadcast."""
import builtins

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.context import current_device
from tfcompat.framework.op_def import input_storage, int_value, type_name
from tfcompat.framework.tensor import Tensor, device_name
from tfcompat.framework.variables import Variable


_IAE = errors.InvalidArgumentError
_pyslice = builtins.slice
_pyrange = builtins.range
_int32 = torch.int32
_int64 = torch.int64


def _fail(msg, op, name=None):
    """TF's eager error text; ops called through Python wrappers that pass a name add `name: <name>`."""
    if name is None:
        return _IAE(None, None, f"{msg} [Op:{op}]")
    return _IAE(None, None, f"{msg} [Op:{op}] name: {name}")


def _kfail(msg, op, name=None, wrapped=None, like=None):
    """`_fail` for a check TF's kernel makes: its eager text starts `{{function_node __wrapped__<wrapped>_device_<d>}}`,
    `wrapped` being the op with its list-length attrs (`ConcatV2_N_2`, `Split_num_split_3`), `<d>` the device of
    storage `like` (else the current device)."""
    device = like.device if isinstance(like, torch.Tensor) else current_device()
    return _fail(f"{{{{function_node __wrapped__{wrapped or op}_device_{device_name(device)}}}}} {msg}", op, name)


def _fast_name(*inputs):
    """The `name` part of an eager op's error: TF's fast path (every input a tensor, a NumPy array or a Python/NumPy
    scalar) reports ` name: `; an input it must convert from a Python list runs the op through the fallback, which
    does not."""
    for v in inputs:
        if not isinstance(v, (Tensor, Variable, int, float, bool, np.generic, np.ndarray)) and v is not None:
            return None
    return ""


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _is_str(t):
    return type(t) is np.ndarray


def _tdtype(dtype):
    return dtypes.as_dtype(dtype).torch_dtype


def _axis(axis, ndim, op=None, name=None, extra=0):
    """One axis argument in [-ndim-extra, ndim+extra) as a non-negative int."""
    a = int_value(axis)
    n = ndim + extra
    if not -n <= a < n:
        raise _fail(f"Expected axis in the range [{-n}, {n}), but got {a}", op, name) if op else \
            ValueError(f"Argument `axis` = {a} not in range [{-n}, {n})")
    return a % n if n else 0


def _is_tensor_like(v):
    return isinstance(v, (Tensor, Variable))


def _matching(values, op, name=None, numbers=None):
    """Storages of inputs sharing one dtype attr, converted as TF's eager ops do.

    The first tensor fixes the dtype; other Python/NumPy values convert to it strictly (TypeError as TF);
    a tensor of another dtype is InvalidArgumentError. `numbers` are the op input numbers of `values`.
    """
    ref = None
    for v in values:
        if _is_tensor_like(v):
            ref = input_storage(v).dtype
            break
    out = []
    for i, v in enumerate(values):
        if _is_tensor_like(v) or ref is None:
            t = input_storage(v)
            ref = t.dtype if ref is None else ref
        else:
            t = input_storage(v, dtypes.FROM_STORAGE[ref])
        if t.dtype != ref:
            raise _fail(f"cannot compute {op} as input #{numbers[i] if numbers else i}(zero-based) was expected to be a "
                        f"{type_name(ref)} tensor but is a {type_name(t.dtype)} tensor", op, name)
        out.append(t)
    return out


def _flat_ints(value):
    """A (nested) int argument such as `paddings` as a flat list of Python ints."""
    if isinstance(value, (Tensor, Variable)):
        value = value._array()
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _broadcast_dims(a, b):
    """TF's broadcast of two shapes (lists of ints, None unknown), or None if incompatible."""
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a = [1] * (n - len(a)) + a
    b = [1] * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif x is None or y is None:
            out.append(x if y is None else y)
        else:
            return None
    return out
