"""ExtensionType field annotations: TF's checks and conversions of field values (and of their specs)."""
import collections.abc
import typing

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops.misc_ops import SparseTensorSpec, TensorSpec, TypeSpec
from tfcompat.ops.ragged_spec import RaggedTensorSpec

_NoneType = type(None)
_PYTHON = (bool, int, float, str, bytes, _NoneType)
_COMPOSITE_TYPES = (RaggedTensor, SparseTensor)


class ImmutableDict(collections.abc.Mapping):
    """The read-only mapping an ExtensionType holds for a `Mapping[...]` field (TF's `ImmutableDict`)."""

    __slots__ = ("_d",)

    def __init__(self, items=()):
        self._d = dict(items)

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __hash__(self):
        return hash(tuple(sorted(self._d.items(), key=lambda kv: repr(kv[0]))))

    def __eq__(self, other):
        return isinstance(other, collections.abc.Mapping) and dict(self._d) == dict(other)

    def __repr__(self):
        return f"ImmutableDict({self._d!r})"


def check_annotation(name, annotation):
    """TF's class-creation check of one field annotation (string forward references are checked on first use)."""
    if not _supported(annotation):
        text = annotation.__name__ if isinstance(annotation, type) else repr(annotation)
        raise TypeError(f"In field {name!r}: Unsupported type annotation {text!r}")


def _supported(a):
    if isinstance(a, (str, typing.ForwardRef)):
        return True
    if a in _PYTHON or a is None or a in (Tensor, TensorShape, dtypes.DType) or a in _COMPOSITE_TYPES:
        return True
    if isinstance(a, type) and hasattr(a, "_tf_fields"):
        return True
    origin, args = typing.get_origin(a), typing.get_args(a)
    if origin is typing.Union:
        return all(_supported(x) for x in args)
    if origin is tuple:
        return all(_supported(x) for x in args if x is not Ellipsis)
    if origin is collections.abc.Mapping:
        return len(args) == 2 and all(_supported(x) for x in args)
    return False


def resolve(annotation, owner):
    """A string annotation evaluated in the module of ExtensionType class `owner` (its own name included)."""
    if isinstance(annotation, typing.ForwardRef):
        annotation = annotation.__forward_arg__
    if isinstance(annotation, str):
        import sys
        scope = dict(vars(sys.modules.get(owner.__module__, typing)))
        scope[owner.__name__] = owner
        annotation = eval(annotation, scope)  # noqa: S307 - TF evaluates forward references the same way
    return annotation


def convert(path, annotation, value, owner, spec=False):
    """`value` checked against `annotation` and converted as TF does (`spec`: the value of a Spec's field)."""
    a = resolve(annotation, owner)
    if a is Tensor:
        if spec:
            if isinstance(value, TypeSpec):
                return value
            raise TypeError(f"{path}: expected a TensorSpec, got {type(value).__name__!r}")
        if isinstance(value, Tensor):
            return value
        try:
            return convert_to_tensor(value.read_value() if isinstance(value, Variable) else value)
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r}") from None
    if a is TensorShape:
        return value if isinstance(value, TensorShape) else TensorShape(value)
    if a is dtypes.DType:
        return dtypes.as_dtype(value)
    if a is None or a is _NoneType:
        if value is None:
            return None
        raise TypeError(f"{path}: expected None, got {type(value).__name__!r}")
    if isinstance(a, type) and (a in _PYTHON or a in _COMPOSITE_TYPES or hasattr(a, "_tf_fields")):
        want = getattr(a, "Spec", None) if spec and hasattr(a, "_tf_fields") else a
        if spec and a in _COMPOSITE_TYPES:
            want = TypeSpec
        if isinstance(value, want) and not (a is float and isinstance(value, int) and not isinstance(value, float)):
            return value
        raise TypeError(f"{path}: expected {want.__name__!r}, got {type(value).__name__!r}")
    origin, args = typing.get_origin(a), typing.get_args(a)
    if origin is typing.Union:
        for option in args:
            try:
                return convert(path, option, value, owner, spec)
            except (TypeError, ValueError):
                continue
        raise TypeError(f"{path}: expected {a}, got {type(value).__name__!r}")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{path}: expected {a}, got {type(value).__name__!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(convert(f"{path}[{i}]", args[0], v, owner, spec) for i, v in enumerate(value))
        if len(args) != len(value):
            raise TypeError(f"{path}: expected {a}, got {type(value).__name__!r}")
        return tuple(convert(f"{path}[{i}]", t, v, owner, spec) for i, (t, v) in enumerate(zip(args, value)))
    if origin is collections.abc.Mapping:
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{path}: expected {a}, got {type(value).__name__!r}")
        return ImmutableDict((convert(f"{path}", args[0], k, owner, False),
                              convert(f"{path}[{k!r}]", args[1], v, owner, spec)) for k, v in value.items())
    raise TypeError(f"In field {path!r}: Unsupported type annotation {a!r}")


def spec_of(value):
    """The spec-side value of a field value: tensors and composites become their TypeSpecs."""
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    if hasattr(type(value), "_tf_fields"):
        return value._type_spec
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    if isinstance(value, ImmutableDict):
        return ImmutableDict((k, spec_of(v)) for k, v in value.items())
    if isinstance(value, tuple):
        return tuple(spec_of(v) for v in value)
    return value


def has_tensors(value):
    """Whether a field value holds tensors (what `tf.nest` expands with `expand_composites=True`)."""
    if isinstance(value, (Tensor,) + _COMPOSITE_TYPES) or hasattr(type(value), "_tf_fields"):
        return True
    if isinstance(value, ImmutableDict):
        return any(has_tensors(v) for v in value.values())
    if isinstance(value, tuple):
        return any(has_tensors(v) for v in value)
    return False


def has_specs(value):
    """Whether a spec's field value holds TypeSpecs (the spec side of `has_tensors`)."""
    if isinstance(value, TypeSpec):
        return True
    if isinstance(value, ImmutableDict):
        return any(has_specs(v) for v in value.values())
    if isinstance(value, tuple):
        return any(has_specs(v) for v in value)
    return False
