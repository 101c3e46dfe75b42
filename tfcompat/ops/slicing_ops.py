"""TF's strided slicing: `tf.strided_slice`, and `tensor[key]`/`variable[key]` (`.assign`) installed on the classes."""
import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.context import state
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, type_name, wrap
from tfcompat.framework.tensor import Tensor, device_name, storage
from tfcompat.framework.variables import Variable, _UnreadVariable
from tfcompat.ops._array_util import (
    _IAE, _broadcast_dims, _dims, _fail, _fast_name, _flat_ints, _int32, _int64, _is_str, _kfail, _pyrange,
    _pyslice)
from tfcompat.ops.gather_ops import boolean_mask

_SAME_WIDTH = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}


@tf_export("strided_slice", unsupported=("var",))
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """Python-style strided slicing `input_[begin:end:strides]`, with TF's bit masks per index entry."""
    b = _flat_ints(begin)
    e = _flat_ints(end)
    s = _flat_ints(strides) if strides is not None else [1] * len(b)
    if ellipsis_mask & (ellipsis_mask - 1):
        raise _slice_error("Multiple ellipses in slice spec not allowed")
    key = []
    for i in _pyrange(len(b)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            if s[i] != 1:
                raise _slice_error("only stride 1 allowed on non-range indexing.")
            key.append(b[i])
        else:
            key.append(_pyslice(None if begin_mask & bit else b[i], None if end_mask & bit else e[i], s[i]))
    try:
        return _getitem_storage(input_storage(input_), tuple(key))
    except _IAE as err:       # called directly, the op reports its own name (none when TF's fallback path ran)
        text = str(err)
        if not text.endswith(" name: strided_slice/"):
            raise
        tail = _fast_name(input_, begin, end, strides)
        tail = "" if tail is None else f" name: {name or ''}"
        raise _IAE(None, None, text[:-len(" name: strided_slice/")] + tail) from None


_INDEX_TYPES = "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 " \
               "tensors are valid indices, got "


def _slice_error(msg):
    """StridedSlice's kernel error as indexing raises it (TF's eager prefix; the `strided_slice/` name scope)."""
    return _kfail(msg, "StridedSlice", "strided_slice/")


def _as_index(v, key):
    """An int from an index entry (int, NumPy int, scalar int32/int64 tensor); TypeError otherwise."""
    tv = type(v)
    if tv is int or tv is bool:
        return int(v)
    if isinstance(v, np.integer) or (isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu"):
        return int(v)
    if isinstance(v, (Tensor, Variable)):
        t = storage(v)
        if not _is_str(t) and t.dtype in (_int32, _int64) and t.ndim == 0:
            return int(t)
    raise TypeError(_INDEX_TYPES + repr(v))


def _bound(v, key):
    return None if v is None else _as_index(v, key)


def _getitem_storage(t, key):
    """`t[key]` with TF's indexing rules on a storage `t` (torch tensor or string array)."""
    if type(key) is tuple:
        keys = key
    elif type(key) is list:
        keys = tuple(key)
    else:
        keys = (key,)
    n = t.ndim
    consumed = 0
    ellipses = 0
    for k in keys:
        if k is Ellipsis:
            ellipses += 1
        elif k is not None:
            consumed += 1
            if type(k) is not int and type(k) is not _pyslice:
                _as_index(k, key)     # TF's TypeError for a bad entry comes before any shape check
    if ellipses > 1:
        raise _slice_error("Multiple ellipses in slice spec not allowed")
    if consumed > n:
        if n == 0:
            raise _slice_error("Attempting to slice scalar input.")
        raise _slice_error(f"Index out of range using input dim {n}; input has only {n} dims")
    idx = []
    flips = []
    d = 0
    o = 0
    for pos, k in enumerate(keys):
        if k is Ellipsis:
            fill_ = n - consumed
            idx.extend([_pyslice(None)] * fill_)
            d += fill_
            o += fill_
        elif k is None:
            idx.append(None)
            o += 1
        elif type(k) is _pyslice:
            step = 1 if k.step is None else _as_index(k.step, k)
            start = _bound(k.start, k)
            stop = _bound(k.stop, k)
            if step == 0:
                raise _slice_error(f"strides[{pos}] must be non-zero")
            if step > 0 or _is_str(t):
                idx.append(_pyslice(start, stop, step))
            else:
                r = _pyrange(*_pyslice(start, stop, step).indices(t.shape[d]))
                if len(r):
                    idx.append(_pyslice(r[-1], r[0] + 1, -step))
                    flips.append(o)
                else:
                    idx.append(_pyslice(0, 0))
            d += 1
            o += 1
        else:
            i = _as_index(k, key)
            dim = t.shape[d]
            if not -dim <= i < dim:
                raise _slice_error(f"slice index {i + dim if i < 0 else i} of dimension {d} out of bounds.")
            idx.append(i)
            d += 1
    out = t[tuple(idx)]
    if type(out) is not np.ndarray and _is_str(t):
        out = np.asarray(out, dtype=object)
    if flips:
        signed = _SAME_WIDTH.get(out.dtype)        # torch has no flip kernel for uint16/32/64: flip their bits
        out = out.view(signed).flip(flips).view(out.dtype) if signed is not None else out.flip(flips)
    return wrap(out)


def _is_mask(key):
    if type(key) is bool:
        return True
    if isinstance(key, (Tensor, Variable)):
        return key.dtype is dtypes.bool
    return isinstance(key, np.ndarray) and key.dtype == np.bool_


def _getitem(self, key):
    """TF's `tensor[key]`: ints, slices (any step), `...`, `tf.newaxis`, scalar int tensors, bool masks."""
    t = storage(self)
    if type(t) is torch.Tensor and t.requires_grad and not state.recording:
        t = t.detach()
    tk = type(key)
    if tk is int and type(t) is torch.Tensor:
        if t.ndim:
            dim = t.shape[0]
            if -dim <= key < dim:
                return wrap(t[key])
    elif tk is _pyslice and type(t) is torch.Tensor and t.ndim and (key.step is None or (
            type(key.step) is int and key.step > 0)) and type(key.start) in _PLAIN and type(key.stop) in _PLAIN:
        return wrap(t[key])
    elif _is_mask(key):
        return boolean_mask(wrap(t), key)
    return _getitem_storage(t, key)


_PLAIN = (int, type(None))


class _SlicedVariable(Tensor):
    """`variable[key]`: a tensor whose `assign` writes the slice back into the variable (TF's sliced l-value)."""

    __slots__ = ("_var", "_key")

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Rebinds the variable to a copy with this slice replaced by `value` (broadcast to the slice shape)."""
        var = self._var
        base = storage(var)
        if _is_str(base):
            raise NotImplementedError("sliced assignment to a tf.string variable")
        pos = storage(_getitem_storage(torch.arange(base.numel(), device=base.device).reshape(base.shape),
                                       self._key))
        v = input_storage(value, var.dtype) if not isinstance(value, (Tensor, Variable)) else input_storage(value)
        if v.dtype != base.dtype:
            raise _fail(f"cannot compute ResourceStridedSliceAssign as input #4(zero-based) was expected to be a "
                        f"{type_name(base.dtype)} tensor but is a {type_name(v.dtype)} tensor",
                        "ResourceStridedSliceAssign", "strided_slice/_assign")
        if tuple(v.shape) != tuple(pos.shape) and _broadcast_dims(pos.shape, v.shape) != list(pos.shape):
            raise _fail("{{function_node __wrapped__ResourceStridedSliceAssign_device_"
                        f"{device_name(base.device)}}}}} "      # TF runs the kernel as a wrapped function
                        f"Cannot broadcast input shape {_dims(v.shape)} into final shape {_dims(pos.shape)}",
                        "ResourceStridedSliceAssign",
                        "strided_slice/_assign")
        new = base.clone()
        new.view(-1)[pos.reshape(-1)] = v.detach().to(base.device).expand(pos.shape).reshape(-1)
        var._set_storage(new)
        return _UnreadVariable(var) if read_value else None


def _variable_getitem(self, key):
    """`variable[key]`: the slice of its value, with `.assign` writing back into the variable."""
    r = _getitem(self.read_value(), key)
    out = object.__new__(_SlicedVariable)
    out._set_storage(storage(r))
    out._var = self
    out._key = key
    return out


Tensor.__getitem__ = _getitem
Variable.__getitem__ = _variable_getitem
