"""`tf.experimental.ExtensionType`: user-defined immutable composite tensors with typed fields, and their Specs."""
import functools
import inspect
import typing

import numpy as np
import torch

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.framework.variables import Variable
from tfcompat.ops import extension_fields as _fields
from tfcompat.ops.misc_ops import SparseTensorSpec, TensorSpec, TypeSpec
from tfcompat.ops.ragged_spec import RaggedTensorSpec
from tfcompat.util import nest

ImmutableDict = _fields.ImmutableDict
_BUILDING = "_tf_building"


def _mutation_error(name):
    return AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of ExtensionType.")


def _own_fields(cls):
    """(name, annotation, default) of the fields `cls` declares itself; defaults leave the class dict."""
    out = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if name.startswith("__") or typing_classvar(annotation):
            continue
        _fields.check_annotation(name, annotation)
        default = cls.__dict__.get(name, inspect.Parameter.empty)
        if default is not inspect.Parameter.empty:
            delattr(cls, name)
        out.append((name, annotation, default))
    return out


def typing_classvar(annotation):
    return annotation is typing.ClassVar or typing.get_origin(annotation) is typing.ClassVar


def _signature(fields):
    return inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d)
                              for n, _, d in fields])


def _finish(obj, spec):
    """Converts every field of a just-constructed value (or spec) as TF does, then runs `__validate__`."""
    cls = type(obj).value_type if spec else type(obj)
    d = obj.__dict__
    for name, annotation, _ in cls._tf_fields:
        if name not in d:
            raise ValueError(f"{cls.__name__}.__init__() did not set field {name!r}")
        d[name] = _fields.convert(name, annotation, d[name], cls, spec)
    d.pop(_BUILDING, None)
    if not spec:
        validate = getattr(obj, "__validate__", None)
        if validate is not None:
            validate()


def _construct(init, spec):
    """`init` run with the fields writable, followed by their conversion and `__validate__`."""
    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        if self.__dict__.get(_BUILDING):      # a custom constructor calling super().__init__
            return init(self, *args, **kwargs)
        self.__dict__[_BUILDING] = True
        try:
            init(self, *args, **kwargs)
            _finish(self, spec)
        finally:
            self.__dict__.pop(_BUILDING, None)
    return __init__


def _default_init(self, *args, **kwargs):
    cls = type(self).value_type if isinstance(self, ExtensionTypeSpec) else type(self)
    bound = cls._tf_signature.bind(*args, **kwargs)
    bound.apply_defaults()
    self.__dict__.update(bound.arguments)


# -- values -----------------------------------------------------------------------------------------------------------
@tf_export("experimental.ExtensionType")
class ExtensionType:
    """Base of user-defined composite tensors: annotated fields become typed, immutable constructor arguments."""

    _tf_fields = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__ == __name__:       # BatchableExtensionType: a base, not a value type
            return
        inherited = {n: (n, a, d) for base in reversed(cls.__mro__[1:]) for n, a, d in base.__dict__.get(
            "_tf_own_fields", ())}
        own = _own_fields(cls)
        cls._tf_own_fields = tuple(own)
        merged = dict(inherited)
        merged.update((f[0], f) for f in own)
        cls._tf_fields = tuple(merged.values())
        cls._tf_signature = _signature(cls._tf_fields)
        cls.__init__ = _construct(cls.__dict__.get("__init__", _default_init), spec=False)
        cls.Spec = _spec_class(cls)
        nest.register_composite(cls)

    def __setattr__(self, name, value):
        if not self.__dict__.get(_BUILDING):
            raise _mutation_error(name)
        self.__dict__[name] = value

    def __delattr__(self, name):
        if not self.__dict__.get(_BUILDING):
            raise _mutation_error(name)
        del self.__dict__[name]

    def __repr__(self):
        fields = ", ".join(f"{n}={self.__dict__[n]!r}" for n, _, _ in type(self)._tf_fields)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other):
        """TF: a boolean Tensor, True when `other` has this value's type, spec and component values."""
        if type(other) is not type(self) or other._type_spec != self._type_spec:
            return False
        mine, theirs = nest.flatten(self, True), nest.flatten(other, True)
        equal = all(_same_values(a, b) for a, b in zip(mine, theirs))
        return wrap(torch.tensor(equal))

    def __ne__(self, other):
        equal = self == other
        return wrap(torch.tensor(not bool(equal))) if isinstance(equal, Tensor) else not equal

    __hash__ = None

    @property
    def _type_spec(self):
        d = self.__dict__
        spec = type(self).Spec.__new__(type(self).Spec)
        spec.__dict__.update((n, _fields.spec_of(d[n])) for n, _, _ in type(self)._tf_fields)
        return spec

    def __tf_tracing_type__(self, context):
        return self._type_spec

    # `tf.nest` with expand_composites=True (and tf.data, tf.function) see the tensor-holding fields
    def _tf_children(self):
        return [self.__dict__[n] for n in self._tf_tensor_fields()]

    def _tf_tensor_fields(self):
        return [n for n, _, _ in type(self)._tf_fields if _fields.has_tensors(self.__dict__[n])]

    def _tf_rebuild(self, children):
        """A value of this type with its tensor-holding fields replaced by `children` (not validated, as in TF)."""
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.__dict__.update(zip(self._tf_tensor_fields(), children))
        return out


def _same_values(a, b):
    ta, tb = storage(a), storage(b)
    if isinstance(ta, np.ndarray) or isinstance(tb, np.ndarray):
        return bool(np.array_equal(np.asarray(ta), np.asarray(tb)))
    return ta.shape == tb.shape and bool(torch.equal(ta, tb))


@tf_export("experimental.BatchableExtensionType")
class BatchableExtensionType(ExtensionType):
    """An ExtensionType whose values can be batched and unbatched (tf.data, `tf.map_fn`): each tensor field gains or
    loses a leading dimension, and so does a `tf.TensorShape` field."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__batch_encoder__" in cls.__dict__:
            raise NotImplementedError(f"{cls.__name__}.__batch_encoder__: custom ExtensionTypeBatchEncoders are not "
                                      "supported by tfcompat")


# -- specs ------------------------------------------------------------------------------------------------------------
@tf_export("experimental.ExtensionTypeSpec")
class ExtensionTypeSpec(TypeSpec):
    """The TypeSpec of an ExtensionType: its fields with tensors replaced by TensorSpecs (`<Type>.Spec`)."""

    value_type = None

    def __eq__(self, other):
        return type(other) is type(self) and self._fields() == other._fields()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), tuple(_hashable(v) for v in self._fields())))

    def _fields(self):
        d = self.__dict__
        return tuple(d.get(n) for n, _, _ in self.value_type._tf_fields)

    def __repr__(self):
        d = self.__dict__
        fields = ", ".join(f"{n}={d.get(n)!r}" for n, _, _ in self.value_type._tf_fields)
        return f"{self.value_type.__name__}.Spec({fields})"

    def is_compatible_with(self, spec_or_value):
        """True when `spec_or_value` has this spec's type and fields compatible with its TensorSpecs."""
        other = spec_or_value
        if isinstance(other, ExtensionType):
            other = other._type_spec
        if type(other) is not type(self):
            return False
        return all(_compatible(a, b) for a, b in zip(self._fields(), other._fields()))

    def most_specific_common_supertype(self, others):
        """This spec with each TensorSpec relaxed to cover `others` (None if a field differs otherwise)."""
        fields = list(self._fields())
        for o in others:
            if type(o) is not type(self):
                return None
            fields = [_supertype(a, b) for a, b in zip(fields, o._fields())]
            if any(f is _NO_SUPERTYPE for f in fields):
                return None
        return _spec_from_fields(type(self), fields)

    def is_subtype_of(self, other):
        """Whether every value of this spec is a value of `other` (its TensorSpecs as or more specific)."""
        return self.most_specific_common_supertype([other]) == other

    def __tf_tracing_type__(self, context):
        return self

    def _placeholder_value(self, leaf_value):
        """A value of this spec whose tensors are `leaf_value(TensorSpec)` (what a trace from a spec runs on)."""
        value = self.value_type.__new__(self.value_type)
        value.__dict__.update((n, _map_spec(f, lambda s: s._placeholder_value(leaf_value) if isinstance(
            s, ExtensionTypeSpec) else leaf_value(s) if isinstance(s, TensorSpec) else s))
            for (n, _, _), f in zip(self.value_type._tf_fields, self._fields()))
        return value



_NO_SUPERTYPE = object()


def _spec_from_fields(spec_cls, fields):
    spec = spec_cls.__new__(spec_cls)
    spec.__dict__.update(zip((n for n, _, _ in spec_cls.value_type._tf_fields), fields))
    return spec


def _hashable(v):
    try:
        hash(v)
        return v
    except TypeError:
        return repr(v)


def _compatible(a, b):
    if isinstance(a, TypeSpec) and isinstance(b, TypeSpec):
        return type(a) is type(b) and a.is_compatible_with(b)
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.is_compatible_with(b)
    if isinstance(a, ImmutableDict) and isinstance(b, ImmutableDict):
        return set(a) == set(b) and all(_compatible(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_compatible(x, y) for x, y in zip(a, b))
    return a == b


def _supertype(a, b):
    if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
        s = a.most_specific_common_supertype([b])
        return _NO_SUPERTYPE if s is None else s
    if isinstance(a, ExtensionTypeSpec):
        s = a.most_specific_common_supertype([b])
        return _NO_SUPERTYPE if s is None else s
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.most_specific_compatible_shape(b)
    if isinstance(a, ImmutableDict) and isinstance(b, ImmutableDict) and set(a) == set(b):
        out = ImmutableDict((k, _supertype(a[k], b[k])) for k in a)
        return _NO_SUPERTYPE if any(v is _NO_SUPERTYPE for v in out.values()) else out
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        out = tuple(_supertype(x, y) for x, y in zip(a, b))
        return _NO_SUPERTYPE if _NO_SUPERTYPE in out else out
    return a if a == b else _NO_SUPERTYPE


def _map_spec(field, fn):
    if isinstance(field, (TypeSpec, TensorShape)):
        return fn(field)
    if isinstance(field, ImmutableDict):
        return ImmutableDict((k, _map_spec(v, fn)) for k, v in field.items())
    if isinstance(field, tuple):
        return tuple(_map_spec(v, fn) for v in field)
    return field


def _batched(spec, n):
    if isinstance(spec, ExtensionTypeSpec):
        return spec._batch(n)
    if isinstance(spec, TensorShape):
        return TensorShape([n]).concatenate(spec)
    if isinstance(spec, TensorSpec):
        return TensorSpec(TensorShape([n]).concatenate(spec.shape), spec.dtype)
    raise NotImplementedError(f"batching an ExtensionType field of {type(spec).__name__} is not supported by tfcompat")


def _unbatched(spec):
    if isinstance(spec, ExtensionTypeSpec):
        return spec._unbatch()
    if isinstance(spec, TensorShape):
        return spec[1:] if spec.rank is not None else spec
    if isinstance(spec, TensorSpec):
        return TensorSpec(spec.shape[1:] if spec.shape.rank is not None else spec.shape, spec.dtype)
    raise NotImplementedError(f"unbatching an ExtensionType field of {type(spec).__name__} is not supported by "
                              "tfcompat")


@tf_export("experimental.BatchableExtensionTypeSpec")
class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The TypeSpec of a BatchableExtensionType."""

    # tensor fields and TensorShape fields gain or lose a leading dimension (TF's default batch encoder)
    def _batch(self, batch_size):
        return _spec_from_fields(type(self), [_map_spec(f, lambda s: _batched(s, batch_size)) for f in self._fields()])

    def _unbatch(self):
        return _spec_from_fields(type(self), [_map_spec(f, _unbatched) for f in self._fields()])


def _spec_class(cls):
    """`cls.Spec`: the user's nested `Spec` (if any) over the parent's Spec class."""
    parent = next((b.Spec for b in cls.__mro__[1:] if "Spec" in b.__dict__ and hasattr(b, "_tf_fields")),
                  BatchableExtensionTypeSpec if issubclass(cls, BatchableExtensionType) else ExtensionTypeSpec)
    user = cls.__dict__.get("Spec")
    bases = (user, parent) if isinstance(user, type) and not issubclass(user, TypeSpec) else (parent,)
    init = user.__dict__.get("__init__", _default_init) if user is not None and bases[0] is user else _default_init
    namespace = {"__qualname__": f"{cls.__qualname__}.Spec", "__module__": cls.__module__, "value_type": cls,
                 "__init__": _construct(init, spec=True)}
    return type(f"{cls.__name__}.Spec", bases, namespace)


# -- tf.type_spec_from_value ------------------------------------------------------------------------------------------
@tf_export("type_spec_from_value")
def type_spec_from_value(value):
    """The TypeSpec of `value`: a TensorSpec for tensors (and what converts to one), a composite's own spec."""
    if isinstance(value, ExtensionType):
        return value._type_spec
    if isinstance(value, (Tensor, Variable)):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(value.shape, value.dtype)
    try:
        t = convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type {type(value)}.") from None
    return TensorSpec(t.shape, t.dtype)


# -- rows of a batched value (tf.map_fn) ------------------------------------------------------------------------------
def _with_spec_fields(value, spec):
    """`value` with its non-tensor fields (a TensorShape batch shape, ...) taken from `spec`."""
    tensor_fields = set(value._tf_tensor_fields())
    value.__dict__.update((n, spec.__dict__[n]) for n, _, _ in type(value)._tf_fields if n not in tensor_fields)
    return value


def unstack_rows(value):
    """The rows (slices along dimension 0) of a BatchableExtensionType value."""
    if not isinstance(value, BatchableExtensionType):
        raise TypeError(f"{type(value).__name__} is not a BatchableExtensionType: its values cannot be unbatched")
    spec = value._type_spec._unbatch()
    first = nest.flatten(value, expand_composites=True)[0]
    return [_with_spec_fields(nest.map_structure(lambda t, i=i: t[i], value, expand_composites=True), spec)
            for i in range(first.shape[0])]


def stack_values(values):
    """BatchableExtensionType values of one spec stacked along a new dimension 0."""
    spec = values[0]._type_spec._batch(len(values))
    out = nest.map_structure(lambda *ts: wrap(torch.stack([storage(t) for t in ts])), *values, expand_composites=True)
    return _with_spec_fields(out, spec)


# -- ExtensionTypes as nested structures of their components (tf.data elements and element specs) ------------------
def is_extension(x):
    """Whether `x` is an ExtensionType value or an ExtensionTypeSpec."""
    return isinstance(x, (ExtensionType, ExtensionTypeSpec))


def _spec_fields(spec):
    return [n for n, _, _ in spec.value_type._tf_fields if _fields.has_specs(spec.__dict__.get(n))]


def children(x):
    """The tensor-holding fields of a value (or the TypeSpec-holding fields of a spec), in declaration order."""
    if isinstance(x, ExtensionType):
        return x._tf_children()
    return [x.__dict__[n] for n in _spec_fields(x)]


def _first_shape(x):
    if isinstance(x, (Tensor, TypeSpec, RaggedTensor, SparseTensor)) and not isinstance(x, ExtensionTypeSpec):
        return x.shape
    if isinstance(x, ImmutableDict):
        x = [x[k] for k in sorted(x)]
    elif is_extension(x):
        x = children(x)
    for c in x:
        shape = _first_shape(c)
        if shape is not None:
            return shape
    return None


def rebuild_like(template, parts):
    """A value (from tensor `parts`) or a spec (from TypeSpec `parts`) of `template`'s type: its other fields from
    `template`'s spec, batched or unbatched when the parts gained or lost a leading dimension (TF's batch encoder)."""
    spec = template if isinstance(template, ExtensionTypeSpec) else template._type_spec
    old, new = _first_shape(spec), _first_shape(parts)
    if old is not None and new is not None and old.rank is not None and new.rank is not None:
        if new.rank == old.rank + 1:
            spec = spec._batch(new[0])
        elif new.rank == old.rank - 1:
            spec = spec._unbatch()
    names = _spec_fields(spec)
    as_spec = all(isinstance(p, TypeSpec) or (isinstance(p, (ImmutableDict, tuple)) and _fields.has_specs(p))
                  for p in parts) and bool(parts)
    out = (type(spec) if as_spec else spec.value_type).__new__(type(spec) if as_spec else spec.value_type)
    out.__dict__.update(spec.__dict__)
    out.__dict__.update(zip(names, parts))
    return out
