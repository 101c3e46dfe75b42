"""`keras.Variable`: Keras 3's variable, here a `tf.Variable` with Keras's name, path and repr.

Keras 3 on TF keeps a tf.Variable inside its own Variable class; tfcompat makes
the Keras variable *be* a tf.Variable, so tapes, ops and checkpoints see one
object. Divergence (documented): `isinstance(v, tf.Variable)` is True here.
"""
import contextlib

import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable as _TFVariable
from tfcompat.keras.engine import call_context, naming


@contextlib.contextmanager
def name_scope(name):
    """Keras's name scope: variables created inside get `<scope>/<name>` paths."""
    stack = call_context.name_scopes()
    stack.append(name)
    try:
        yield
    finally:
        stack.pop()


def current_path(name):
    stack = call_context.name_scopes()
    return "/".join(stack + [name]) if stack else name


class Variable(_TFVariable):
    """A Keras 3 variable (`keras.Variable`): `name`, `path`, string `dtype`, Keras's repr."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True, aggregation="none",
                 synchronization="auto", name=None, regularizer=None, constraint=None, **kwargs):
        name = name or naming.unique_name("variable")       # Keras's auto-name: variable, variable_1, ...
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        if isinstance(initializer, str):
            from tfcompat.keras import initializers
            initializer = initializers.get(initializer)
        if callable(initializer) and not hasattr(initializer, "shape"):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` argument should be "
                                 f"specified. Received: initializer={initializer} and shape={shape}")
            from tfcompat.keras.backend import floatx
            value = initializer(tuple(shape), dtype=dtype or floatx())
        else:
            value = initializer
        if dtype is not None:
            from tfcompat.ops.math_ops import cast
            from tfcompat.framework.convert import convert_to_tensor
            value = cast(convert_to_tensor(value if not isinstance(value, np.ndarray) else value), dtype) \
                if not isinstance(value, (float, int)) else convert_to_tensor(value, dtype=dtype)
        elif isinstance(value, (float, int, list, tuple)) and not isinstance(value, np.generic):
            # Keras's convert_to_tensor: Python floats take floatx, Python ints int32; arrays and tensors keep theirs
            from tfcompat.framework.convert import convert_to_tensor
            from tfcompat.keras.backend import floatx
            kind = np.asarray(value).dtype.kind
            value = convert_to_tensor(value, dtype=floatx() if kind == "f" else "int32" if kind in "iu" else None)
        super().__init__(value, trainable=trainable, name=name)
        self._keras_name = name
        self._path = current_path(name)
        self.regularizer = regularizer
        self._constraint = constraint
        self._autocast = autocast
        self.overwrite_with_gradient = False

    @property
    def name(self):
        return self._keras_name

    @property
    def path(self):
        return self._path

    @property
    def dtype(self):
        return dtypes.FROM_STORAGE[storage(self).dtype].name

    @property
    def shape(self):
        return TensorShape._from_tuple(tuple(storage(self).shape))

    @property
    def value(self):
        return _wrap(self._read())

    _keras_trainable = None       # set once `trainable` is assigned

    @property
    def trainable(self):
        """Whether Keras trains it. Setting it (as freezing a layer does) leaves `GradientTape` watching the
        variable as created, like the `tf.Variable` under a Keras 3 variable on the TF backend."""
        trainable = self._keras_trainable
        return self._trainable if trainable is None else trainable

    @trainable.setter
    def trainable(self, value):
        self._keras_trainable = bool(value)

    def assign(self, value):
        super().assign(value, read_value=False)
        return _wrap(storage(self))

    def assign_add(self, value):
        super().assign_add(value, read_value=False)
        return _wrap(storage(self))

    def assign_sub(self, value):
        super().assign_sub(value, read_value=False)
        return _wrap(storage(self))

    def __repr__(self):
        a = self._array()
        value = repr(a.item()) if a.ndim == 0 else str(a)     # scalars as Python numbers, as Keras prints
        return f"<Variable path={self.path}, shape={self.shape}, dtype={self.dtype}, value={value}>"

    __str__ = __repr__
