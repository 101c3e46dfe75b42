"""`tf.Tensor`: an immutable eager tensor, a thin wrapper over one `torch.Tensor`.

`_t` holds the value: a `torch.Tensor`, or for `tf.string` a NumPy object array
of `bytes`. Operators (`+`, `@`, `[]`, ...) are attached by `tfcompat.ops` so
that each is the same function as its `tf.*` op.

Code outside `framework/` reads storage with `storage(x)`, never through `_t`.
"""
import operator

import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor_shape import TensorShape

_FROM_STORAGE = dtypes.FROM_STORAGE

# `storage(x)`: the storage of a tensor (a torch tensor; for tf.string a NumPy object array of bytes), or the
# current value of a variable as stored, without the handle a recording tape reads (ops read inputs through
# `op_def.input_storage`, variables through `Variable._read()`). An attrgetter: C speed, for hot paths.
storage = operator.attrgetter("_t")


def device_name(device):
    """TF's full device name for a torch device."""
    if device.type == "cpu":
        return "/job:localhost/replica:0/task:0/device:CPU:0"
    if device.type == "cuda":
        return f"/job:localhost/replica:0/task:0/device:GPU:{device.index or 0}"
    return f"/job:localhost/replica:0/task:0/device:{device.type.upper()}:{device.index or 0}"


@tf_export("Tensor")
class Tensor:
    """A multidimensional array of elements of one `tf.DType`, as in TF eager mode."""

    __slots__ = ("_t", "__weakref__")
    __array_priority__ = 100

    def __new__(cls, value):
        if not isinstance(value, (torch.Tensor, np.ndarray)):
            raise TypeError("tf.Tensor objects are made by ops such as tf.constant, not by tf.Tensor(...)")
        return _wrap(value)

    # -- metadata -------------------------------------------------------------
    @property
    def dtype(self):
        return _FROM_STORAGE[self._t.dtype]

    @property
    def shape(self):
        return TensorShape._from_tuple(tuple(self._t.shape))

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied shape {TensorShape(shape)}.")

    @property
    def ndim(self):
        return self._t.ndim

    @property
    def device(self):
        t = self._t
        return device_name(t.device) if type(t) is not np.ndarray else device_name(torch.device("cpu"))

    @property
    def backing_device(self):
        return self.device

    @property
    def name(self):
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    @property
    def op(self):
        raise AttributeError("Tensor.op is undefined when eager execution is enabled.")

    @property
    def graph(self):
        raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")

    def _shape_tuple(self):
        return tuple(self._t.shape)

    def _rank(self):
        return self._t.ndim

    def _num_elements(self):
        t = self._t
        return t.numel() if type(t) is not np.ndarray else t.size

    def _set_storage(self, t):
        """Rebinds this tensor to storage `t` of the same value (tensors are immutable: only tapes swap a watched
        tensor's storage for its autograd handle or forward-mode dual and back, and subclasses fill new instances)."""
        self._t = t

    # -- values -----------------------------------------------------------------
    def _array(self):
        """The value as a NumPy array, sharing memory with the tensor where possible."""
        t = self._t
        if type(t) is np.ndarray:
            return t
        if t.requires_grad:
            t = t.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        if t.dtype is torch.bfloat16:
            return _bfloat16_array(t)
        if t.is_conj():
            t = t.resolve_conj()
        return t.numpy()

    def numpy(self):
        """A NumPy copy of the value (a NumPy scalar for rank 0), as TF returns."""
        a = self._array()
        if a.ndim == 0:
            return a[()]
        return a.copy()

    def __array__(self, dtype=None, copy=None):
        a = self._array()
        if copy:
            a = a.copy()
        elif a.flags.writeable:
            a = a.view()
            a.flags.writeable = False      # TF's __array__ is a read-only view
        if dtype is not None and a.dtype != dtype:
            a = a.astype(dtype)
        return a

    def cpu(self):
        t = self._t
        return self if type(t) is np.ndarray or t.device.type == "cpu" else _wrap(t.cpu())

    def gpu(self, gpu_index=0):
        """A copy on GPU `gpu_index` (TF's deprecated `Tensor.gpu`)."""
        if not torch.cuda.is_available() or gpu_index >= torch.cuda.device_count():
            raise RuntimeError(f"GPU:{gpu_index} unknown device.")
        return _wrap(self._t.to(torch.device("cuda", gpu_index)))

    def ref(self):
        return Reference(self)

    experimental_ref = ref

    def eval(self, feed_dict=None, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what you're looking for?")

    # -- text -----------------------------------------------------------------
    def __repr__(self):
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={_value_text(self._array(), True)}>"

    def __str__(self):
        return f"tf.Tensor({_value_text(self._array(), False)}, shape={self.shape}, dtype={self.dtype.name})"

    def __format__(self, format_spec):
        return np.asarray(self._array()).__format__(format_spec)

    # -- Python protocol --------------------------------------------------------
    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __len__(self):
        t = self._t
        if t.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return t.shape[0]

    def __iter__(self):
        t = self._t
        if t.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        if type(t) is not np.ndarray and t.requires_grad:
            # keep each row connected to the graph (tf: iteration is strided_slice)
            return (self[i] for i in range(t.shape[0]))
        if type(t) is np.ndarray:
            return (_wrap(np.asarray(row, dtype=object)) for row in t)
        return (_wrap(row) for row in t.unbind(0))

    def __bool__(self):
        return bool(self._array())

    def __int__(self):
        return int(self._array())

    def __float__(self):
        return float(self._array())

    def __complex__(self):
        return complex(self._array())

    def __index__(self):
        a = self._array()
        if a.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return a[()].__index__()

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        from tfcompat.framework.convert import convert_to_tensor
        return convert_to_tensor, (self.numpy(),)


def _bfloat16_array(t):
    try:
        import ml_dtypes
    except ImportError:
        return t.float().numpy()
    return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16)


def _value_text(a, is_repr):
    if a.ndim == 0:
        v = a[()]
        text = repr(v.item() if isinstance(v, np.generic) else v) if is_repr else str(v)
    else:
        text = repr(a) if is_repr else str(a)
    if "\n" in text:
        text = "\n" + text
    return text


class EagerTensor(Tensor):
    """The concrete class of every eager tensor (TF's `EagerTensor`); `tf.Tensor` is its base."""

    __slots__ = ()

    # TF's EagerTensor is a C type: Python names it by its full path in these errors
    def __setitem__(self, key, value):
        raise TypeError("'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment")

    def __delitem__(self, key):
        raise TypeError("'tensorflow.python.framework.ops.EagerTensor' object doesn't support item deletion")


_new = object.__new__


def _wrap(t):
    """Wraps a torch tensor (or string array) as a tfcompat tensor without checks."""
    r = _new(EagerTensor)
    r._t = t
    return r


wrap = _wrap


def wrap_as(cls, t):
    """Wraps storage `t` as an instance of `cls`, an EagerTensor subclass (a tensor marked for one purpose)."""
    r = _new(cls)
    r._t = t
    return r


class Reference:
    """A hashable reference to a tensor or variable (`Tensor.ref()`), compared by identity."""

    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def deref(self):
        return self._obj

    def __hash__(self):
        return id(self._obj)

    def __eq__(self, other):
        return isinstance(other, Reference) and other._obj is self._obj

    def __repr__(self):
        return f"<Reference wrapping {self._obj!r}>"


# `type(t)` prints TF's class paths (`<class 'tensorflow.python.framework.ops.EagerTensor'>`): scripts print the
# types of their values. Only the module name changes (instances pickle through `__reduce__`).
Tensor.__module__ = "tensorflow.python.framework.tensor"
EagerTensor.__module__ = "tensorflow.python.framework.ops"
