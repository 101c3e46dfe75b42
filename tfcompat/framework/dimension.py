"""`tf.compat.v1.Dimension`: one possibly unknown dimension of a shape (`TensorShape.dims`); unknowns stay unknown."""


def _dim(d):
    """`d` (an int, a Dimension, anything with `__index__`, or None) as an int >= 0 or None."""
    if d is None:
        return None
    value = getattr(d, "value", d)       # tf.compat.v1.Dimension
    if value is None:
        return None
    try:
        value = int(value.__index__())
    except AttributeError:
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, "
                        f"got value '{d!r}' with type '{type(d)}'") from None
    if value < 0:
        raise ValueError(f"Dimension {value} must be >= 0")
    return value


class Dimension:
    """A dimension: an int >= 0 or None (unknown); arithmetic with an unknown is unknown, comparisons are None."""

    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = _dim(value)

    value = property(lambda self: self._value)

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        return self._value.__index__()

    def is_compatible_with(self, other):
        """True when either is unknown or both are equal."""
        other = as_dimension(other)
        return self._value is None or other.value is None or self._value == other.value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {as_dimension(other)} are not compatible")

    def merge_with(self, other):
        """The known one of two compatible dimensions (ValueError when they differ)."""
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(self._value if self._value is not None else other.value)

    def _binary(self, other, fn):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other.value))

    def __add__(self, other):
        return self._binary(other, lambda a, b: a + b)

    def __sub__(self, other):
        return self._binary(other, lambda a, b: a - b)

    def __mul__(self, other):
        return self._binary(other, lambda a, b: a * b)

    def __floordiv__(self, other):
        return self._binary(other, lambda a, b: a // b)

    def __mod__(self, other):
        return self._binary(other, lambda a, b: a % b)

    __radd__, __rmul__ = __add__, __mul__

    def _compare(self, other, fn):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other.value is None:
            return None
        return fn(self._value, other.value)

    def __eq__(self, other):
        return self._compare(other, lambda a, b: a == b)

    def __ne__(self, other):
        return self._compare(other, lambda a, b: a != b)

    def __lt__(self, other):
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other):
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._compare(other, lambda a, b: a >= b)

    __hash__ = None


def as_dimension(value):
    """`value` as a Dimension."""
    return value if isinstance(value, Dimension) else Dimension(value)
