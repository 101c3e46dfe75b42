"""`keras.InputSpec` and the check every layer call makes of its first input against `layer.input_spec`."""
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.tensor import EagerTensor, storage
from tfcompat.util import nest


class InputSpec:
    """The rank, dtype, shape and fixed axes a layer accepts (Keras 3's `InputSpec`).

    `_passed` holds the (torch shape, torch dtype) signatures of eager inputs that met the spec, so a layer's next
    call on the same signature skips the check; setting any attribute forgets them (Keras's layers replace a spec
    or its attributes, they do not edit `axes` in place)."""

    def __setattr__(self, name, value):
        d = self.__dict__
        d[name] = value
        d["_passed"] = set()

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtypes.as_dtype(dtype).name if dtype is not None else None
        if shape is not None:
            self.shape = tuple(None if d is None else int(d) for d in shape)
            self.ndim = len(self.shape)
        else:
            self.shape, self.ndim = None, ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.name, self.optional = name, optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            self.axes = {int(k): v for k, v in (axes or {}).items()}
        except (ValueError, TypeError, AttributeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: axes={axes}") from None
        top = self.ndim if self.ndim else self.max_ndim
        if self.axes and top is not None and max(self.axes) > top - 1:
            raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed value: {top - 1}")

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape), ("ndim", self.ndim),
                                          ("max_ndim", self.max_ndim), ("min_ndim", self.min_ndim),
                                          ("axes", self.axes)) if v]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _shape(x):
    """`x`'s shape as a tuple (None for unknown dims); an eager tensor's torch.Size (a tuple) as it is."""
    if type(x) is EagerTensor:
        s = storage(x)
        return s.shape if isinstance(s, torch.Tensor) else tuple(s.shape)
    shape = x.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") and shape.rank is not None else tuple(shape)


def _incompatible(index, spec, layer_name, what):
    return ValueError(f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible with the "
                      f"layer: {what}")


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raises Keras 3's ValueError when `inputs` (a layer's first argument) does not meet `input_spec`."""
    if type(input_spec) is InputSpec and type(inputs) is EagerTensor:      # the common case, without nest
        _check(0, inputs, input_spec, layer_name)
        return
    specs = nest.flatten(input_spec)
    if isinstance(inputs, dict) and all(s is not None and s.name for s in specs):
        names = [s.name for s in specs]
        for n in names:
            if n not in inputs:
                raise ValueError(f'Missing data for input "{n}". You passed a data dictionary with keys '
                                 f"{list(inputs)}. Expected the following keys: {names}")
        inputs = [inputs[n] for n in names]
    flat = nest.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received {len(flat)} input '
                         f"tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if spec is None or (x is None and spec.optional):
            continue
        _check(index, x, spec, layer_name)


def _check(index, x, spec, layer_name):
    """Checks input number `index` against its spec."""
    if type(x) is not EagerTensor and not hasattr(x, "shape"):     # (an eager tensor's shape is never built)
        raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) as input for "
                         f"layer '{layer_name}'.")
    shape = _shape(x)
    ndim = len(shape)
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise _incompatible(index, spec, layer_name, f"expected ndim={spec.ndim}, found ndim={ndim}. "
                                                     f"Full shape received: {tuple(shape)}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise _incompatible(index, spec, layer_name, f"expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise _incompatible(index, spec, layer_name, f"expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                                                     f"Full shape received: {tuple(shape)}")
    if spec.dtype is not None:
        found = dtypes.as_dtype(x.dtype).name
        if found != spec.dtype:
            raise _incompatible(index, spec, layer_name, f"expected dtype={spec.dtype}, found dtype={found}")
    for axis, value in spec.axes.items():
        if value is not None and -ndim <= axis < ndim and shape[axis] != value and shape[axis] is not None:
            raise _incompatible(index, spec, layer_name, f"expected axis {axis} of input shape to have value "
                                                         f"{value}, but received input with shape {tuple(shape)}")
    if spec.shape is not None:
        want, got = spec.shape, tuple(shape)
        if spec.allow_last_axis_squeeze:
            got = got[:-1] if got and got[-1] == 1 else got
            want = want[:-1] if want and want[-1] == 1 else want
        if any(w is not None and g is not None and w != g for w, g in zip(want, got)):
            raise _incompatible(index, spec, layer_name, f"expected shape={spec.shape}, found shape={tuple(shape)}")
    if type(shape) is torch.Size:           # an eager tensor's torch storage: remember its signature passed
        passed = spec._passed
        if len(passed) >= 64:
            passed.clear()
        passed.add((shape, storage(x).dtype))
