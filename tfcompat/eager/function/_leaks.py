"""Tensors a trace leaks: a value made inside a `tf.function` body and kept outside it (TF's out-of-scope tensors).

In TF the tensors of a trace are symbolic graph tensors, so one assigned to a global or stored in a container outside
the function is unusable after the trace: `.numpy()` raises AttributeError and any op given it raises TypeError
("... is out of scope and cannot be used here"). tfcompat's trace runs on values, so after each trace it looks for
the leaks TF's guide shows (a global or a closure variable of the body, or an item of a list, tuple or dict held
there) and turns each into a `LeakedTensor`: same storage, no longer usable. Leaks kept elsewhere (an attribute of
an object, a module other than the body's) keep their values."""
import weakref

from tfcompat.framework.tensor import EagerTensor, Tensor, _wrap, storage

_STORAGE = Tensor.__dict__["_t"]      # the storage slot itself, under LeakedTensor's `_t` property
_CONTAINER_ITEMS = 1000                # containers larger than this are not searched (a trace stays cheap)
_GUIDE = "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values"


class LeakedTensor(Tensor):
    """A traced value kept outside its `tf.function` (TF's `SymbolicTensor` outside its graph): its name, shape and
    dtype remain; reading its value raises TF's errors."""

    __slots__ = ()

    @property
    def _t(self):
        raise TypeError(f"{self!r} is out of scope and cannot be used here. Use return values, explicit Python locals "
                        f"or TensorFlow collections to access it.\nPlease see {_GUIDE} for more information.")

    @property
    def dtype(self):
        from tfcompat.framework.dtypes import FROM_STORAGE
        return FROM_STORAGE[_STORAGE.__get__(self).dtype]

    @property
    def shape(self):
        from tfcompat.framework.tensor_shape import TensorShape
        return TensorShape(_names[id(self)][1] or tuple(_STORAGE.__get__(self).shape))

    @property
    def name(self):
        return _names[id(self)][0]

    @property
    def device(self):
        return ""

    @property
    def numpy(self):
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error may "
                                  "indicate that you're trying to pass a Tensor to a NumPy call, which is not "
                                  "supported.")

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please call `x.shape` rather "
                        "than `len(x)` for shape information.")

    def __bool__(self):
        from tfcompat.framework import errors
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the following "
            "resolutions to the problem: If you are running in Graph mode, use Eager execution mode or decorate this "
            "function with @tf.function. If you are using AutoGraph, you can try decorating this function with "
            "@tf.function. If that does not work, then you may be using an unsupported feature or your source code "
            "may not be visible to AutoGraph. See "
            "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
            "limitations.md#access-to-source-code for more information.")

    def __int__(self):
        raise TypeError("int() argument must be a string, a bytes-like object or a real number, not 'SymbolicTensor'")

    def __float__(self):
        raise TypeError("float() argument must be a string or a real number, not 'SymbolicTensor'")

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    def __str__(self):
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    def __format__(self, format_spec):
        return format(str(self), format_spec)


LeakedTensor.__name__ = LeakedTensor.__qualname__ = "SymbolicTensor"     # TF's class name, as `type(x)` shows it

_names = {}     # id(LeakedTensor) -> (graph name, static shape), dropped with the tensor


def _forget(key):
    _names.pop(key, None)


def _values(fn):
    """The values a body's leaks are looked for in: its module's globals and its closure's cells, and the items of
    the lists, tuples and dicts among them (up to `_CONTAINER_ITEMS` items each)."""
    fn = getattr(fn, "__func__", fn)
    values = list(getattr(fn, "__globals__", {}).values())
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            values.append(cell.cell_contents)
        except ValueError:      # an empty cell
            pass
    items = []
    for v in values:
        kind = type(v)
        if (kind is list or kind is tuple or kind is dict) and len(v) <= _CONTAINER_ITEMS:
            items.extend(v.values() if kind is dict else v)
    return values + items


def eager_tensors(fn):
    """{id: tensor} of the EagerTensors where `fn`'s leaks would be, before its trace (those are not leaks)."""
    return {id(v): v for v in _values(fn) if type(v) is EagerTensor}


def mark_leaks(fn, before, symbol, results):
    """Turns the EagerTensors the trace of body `fn` left in its globals or closure (not in `before`, and made by
    the trace: `symbol(t)` gives their (graph name, static shape), None for other values) into LeakedTensors.
    Returns the flat outputs `results`, a fresh tensor standing for each one also leaked (TF returns a new
    EagerTensor)."""
    leaked = {}
    for v in _values(fn):
        if type(v) is EagerTensor and id(v) not in before and id(v) not in leaked:
            found = symbol(v)
            if found is not None:
                leaked[id(v)] = (v, found)
    if not leaked:
        return results
    results = [_wrap(storage(r)) if id(r) in leaked else r for r in results]
    for key, (t, found) in leaked.items():
        t.__class__ = LeakedTensor
        _names[key] = found
        weakref.finalize(t, _forget, key)
    return results
