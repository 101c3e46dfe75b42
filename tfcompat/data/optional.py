"""A minimal `tf.experimental.Optional` for `Iterator.get_next_as_optional`."""
import torch

from tfcompat.data import structure as st
from tfcompat.framework import errors
from tfcompat.framework.tensor import wrap


class Optional:
    """A value that may be absent: `has_value()`, `get_value()`."""

    def __init__(self, value, has_value, element_spec):
        self._value, self._has, self._spec = value, has_value, element_spec

    @staticmethod
    def from_value(value):
        value = st.normalize(value)
        return Optional(value, True, st.spec_of(value))

    @staticmethod
    def empty(element_spec):
        return Optional(None, False, element_spec)

    @property
    def element_spec(self):
        return self._spec

    def has_value(self, name=None):
        return wrap(torch.tensor(self._has))

    def get_value(self, name=None):
        if not self._has:
            raise errors.op_error(errors.InvalidArgumentError, "optional does not have a value",
                                  "OptionalGetValue")
        return self._value
