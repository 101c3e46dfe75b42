"""Summaries of a tensor's values: fixed-width histograms, zero fraction, monotonicity, inverse permutations."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import binary_inputs, input_storage, wrap
from tfcompat.framework.tensor import device_name
from tfcompat.ops import array_ops, clip_ops, math_ops, reduction_ops

_HIST_T = frozenset([torch.int32, torch.int64, torch.float32, torch.float64])
_HIST_SIG = ("Op<name=HistogramFixedWidth; signature=values:T, value_range:T, nbins:int32 -> out:dtype; "
             "attr=T:type,allowed=[DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE]; "
             "attr=dtype:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>")


def _attr_error(attr, got, allowed, op, sig, name=""):
    return errors.op_error(errors.InvalidArgumentError,
                           f"Value for attr '{attr}' of {got} is not in the list of allowed values: {allowed}\n"
                           f"\t; NodeDef: {{{{node {op}}}}}; {sig}", op, name)


def _hist_error(message, t):
    return errors.kernel_error(errors.InvalidArgumentError, message, "HistogramFixedWidth",
                               device_name(t.device), name=None)


def _dtype_of(t):
    return dtypes.string if type(t) is np.ndarray else dtypes.FROM_STORAGE[t.dtype]


def _c_name(dtype):
    """The C++ type name TF's attr messages use."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _number_text(v):
    return "%g" % v if isinstance(v, float) else str(v)


@tf_export("histogram_fixed_width")
def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of `values` in `nbins` equal bins spanning `value_range`; outliers go to the end bins."""
    out_dt = dtypes.as_dtype(dtype)
    if out_dt not in (dtypes.int32, dtypes.int64):
        raise _attr_error("dtype", _c_name(out_dt), "int32, int64", "HistogramFixedWidth", _HIST_SIG, None)
    x = input_storage(values)
    if x.dtype not in _HIST_T:
        raise _attr_error("T", _c_name(_dtype_of(x)), "int32, int64, float, double",
                          "HistogramFixedWidth", _HIST_SIG)
    x, vr = binary_inputs(wrap(x), value_range, "HistogramFixedWidth", _HIST_T)
    if vr.ndim != 1:
        raise _hist_error("value_range should be a vector.", x)
    if vr.shape[0] != 2:
        raise _hist_error("value_range should be a vector of 2 elements.", x)
    n = input_storage(nbins, dtypes.int32)
    if n.ndim != 0:
        raise _hist_error("nbins should be a scalar.", x)
    n = int(n)
    if n <= 0:
        raise _hist_error(f"nbins should be a positive number, but got '{n}'", x)
    lo, hi = vr.tolist()
    if not lo < hi:
        raise _hist_error(f"value_range should satisfy value_range[0] < value_range[1], but got "
                          f"'[{_number_text(lo)}, {_number_text(hi)}]'", x)
    if x.is_floating_point() and bool(torch.isnan(x).any()):
        raise _hist_error("Histogram values must not contain NaN", x)
    # TF's kernel: (max(x, lo) - lo) in the input dtype, then / step in double, capped at the last bin
    step = float(hi - lo) / n
    shifted = (torch.clamp(x.reshape(-1), min=lo) - lo).double()
    index = torch.clamp(shifted / step, max=n - 1).long()
    return wrap(torch.bincount(index, minlength=n).to(out_dt.torch_dtype))


@tf_export("histogram_fixed_width_bins")
def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The int32 bin index of each value (same shape), as TF composes it; `dtype` is ignored, as in TF."""
    values = convert_to_tensor(values)
    shape = values.shape
    flat = array_ops.reshape(values, [-1])
    value_range = convert_to_tensor(value_range)
    nbins = convert_to_tensor(nbins, dtype=dtypes.int32)
    if not int(nbins.numpy()) > 0:
        raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                          f"true. Summarized data: b'nbins {nbins!s} must > 0'")
    nbins_float = math_ops.cast(nbins, values.dtype)
    scaled = math_ops.truediv(flat - value_range[0], value_range[1] - value_range[0])
    indices = math_ops.floor(nbins_float * scaled)
    indices = math_ops.cast(clip_ops.clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
    return array_ops.reshape(indices, shape)


@tf_export("math.zero_fraction", "nn.zero_fraction")
def zero_fraction(value, name=None):
    """The fraction of elements equal to zero (of their dtype), as float32; NaN for an empty tensor."""
    t = input_storage(value)
    if type(t) is np.ndarray:
        zeros = int(np.count_nonzero(t == b""))
    else:
        if t.dtype in (torch.uint16, torch.uint32, torch.uint64):     # torch has no count for these
            t = t.view(torch.int64) if t.dtype is torch.uint64 else t.to(torch.int64)
        zeros = t.numel() - int(torch.count_nonzero(t))
    with np.errstate(invalid="ignore"):
        fraction = np.float32(zeros) / np.float32(t.size if type(t) is np.ndarray else t.numel())
    return wrap(torch.tensor(fraction))


def _monotonic(x, compare):
    """TF's check: `compare(x[1:], x[:-1])` over the flattened numeric tensor, all True (True when < 2 items)."""
    x = array_ops.reshape(convert_to_tensor(x), [-1])
    d = x.dtype
    if not (d.is_integer or d.is_floating or d.is_complex):
        raise TypeError(f"Expected x to be numeric, instead found: {x!s}")
    if x.shape[0] < 2:
        return wrap(torch.tensor(True))
    return reduction_ops.reduce_all(compare(x[1:], x[:-1]))


@tf_export("math.is_non_decreasing")
def is_non_decreasing(x, name=None):
    """Whether each element (row-major) is >= the one before it."""
    return _monotonic(x, math_ops.greater_equal)


@tf_export("math.is_strictly_increasing")
def is_strictly_increasing(x, name=None):
    """Whether each element (row-major) is > the one before it."""
    return _monotonic(x, math_ops.greater)


_INVPERM_SIG = ("Op<name=InvertPermutation; signature=x:T -> y:T; "
                "attr=T:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]>")


@tf_export("math.invert_permutation")
def invert_permutation(x, name=None):
    """y with y[x[i]] = i, for a 1-D permutation x of 0..n-1."""
    t = input_storage(x)
    if t.dtype not in (torch.int32, torch.int64):
        raise _attr_error("T", _c_name(_dtype_of(t)), "int32, int64", "InvertPermutation", _INVPERM_SIG, None)

    def fail(message):
        return errors.kernel_error(errors.InvalidArgumentError, message, "InvertPermutation",
                                   device_name(t.device), name=None)
    if t.ndim != 1:
        raise fail("invert_permutation expects a 1D vector.")
    n = t.shape[0]
    v = t.cpu().numpy()
    bad = (v < 0) | (v >= n)
    first = np.zeros(n, dtype=bool)
    first[np.unique(np.where(bad, 0, v), return_index=True)[1]] = True
    problem = bad | ~first
    if problem.any():
        i = int(np.argmax(problem))
        raise fail(f"{v[i]} is not between 0 and {n}" if bad[i] else f"{v[i]} is duplicated in the input.")
    out = torch.empty_like(t)
    out[t.long()] = torch.arange(n, dtype=t.dtype, device=t.device)
    return wrap(out)
