"""Input signatures: the trace key of a call, TensorSpec matching and generalization, binding calls to signatures."""
import functools
import inspect

import numpy as np
import torch

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.ops.extension_type import ExtensionTypeSpec
from tfcompat.ops.misc_ops import SparseTensorSpec, TensorSpec
from tfcompat.ops.ragged_spec import RaggedTensorSpec
from tfcompat.util import nest


@tf_export("types.experimental.TraceType")
class TraceType:
    """TF's tracing protocol: an object's `__tf_tracing_type__(context)` returns a TraceType; calls whose
    arguments have equal (hashable) TraceTypes share a trace."""

    def is_subtype_of(self, other):
        raise NotImplementedError("TraceType.is_subtype_of must be implemented by subclasses")

    def most_specific_common_supertype(self, others):
        raise NotImplementedError("TraceType.most_specific_common_supertype must be implemented by subclasses")

    def placeholder_value(self, placeholder_context=None):
        raise NotImplementedError("TraceType.placeholder_value must be implemented by subclasses")

    def __eq__(self, other):
        raise NotImplementedError("TraceType.__eq__ must be implemented by subclasses")

    def __hash__(self):
        raise NotImplementedError("TraceType.__hash__ must be implemented by subclasses")


# -- trace keys -------------------------------------------------------------------------------------------------------
def leaf_key(x):
    """The trace type of one argument leaf: a tensor's (dtype, shape), else the Python value."""
    if isinstance(x, Tensor):
        t = storage(x)
        return ("T", t.dtype, tuple(t.shape))
    if isinstance(x, Variable):
        t = storage(x)
        return ("V", t.dtype, tuple(t.shape))
    if isinstance(x, np.ndarray):
        return ("T", x.dtype, x.shape)
    if type(x) is RaggedTensor:        # TF's trace type of a composite: its spec
        return ("R", x.dtype, tuple(x.shape.as_list()), x.ragged_rank, x.row_splits_dtype)
    if type(x) is SparseTensor:
        return ("S", x.dtype, tuple(x.shape.as_list()))
    tracing_type = getattr(x, "__tf_tracing_type__", None)
    if tracing_type is not None:
        return tracing_type(None)
    try:
        hash(x)
        return x
    except TypeError:
        return ("id", id(x))


def exact_key(flat):
    """The key of a recorded program: the dtypes and shapes of a call's tensor arguments."""
    key = []
    for x in flat:
        if isinstance(x, Tensor):
            t = storage(x)
            key.append((t.dtype, tuple(t.shape)))
    return tuple(key)


def structure_key(structure):
    """The nesting of `structure` (not its leaves), as a hashable value."""
    if isinstance(structure, (list, tuple)):
        return (type(structure), tuple(structure_key(x) for x in structure))
    if isinstance(structure, dict):
        return (dict, tuple((k, structure_key(structure[k])) for k in sorted(structure)))
    return None


@functools.lru_cache(maxsize=64)
def positional_structure(n):
    """`structure_key((args, {}))` of a call with `n` positional leaves (the common call's, computed once)."""
    return structure_key(((None,) * n, {}))


# -- specs ------------------------------------------------------------------------------------------------------------
def spec_of(x, name=None):
    """The TensorSpec of a tensor or variable argument (a Python value stands for itself)."""
    if isinstance(x, (Tensor, np.ndarray)):
        x = convert_to_tensor(x)
        return TensorSpec(x.shape, x.dtype, name)
    if isinstance(x, Variable):
        return TensorSpec(x.shape, x.dtype, name)
    if type(x) is RaggedTensor:
        return RaggedTensorSpec(x.shape, x.dtype, x.ragged_rank, x.row_splits_dtype)
    if type(x) is SparseTensor:
        return SparseTensorSpec(x.shape, x.dtype)
    if hasattr(x, "__tf_tracing_type__"):
        return x.__tf_tracing_type__(None)
    return x


def is_spec(x):
    return isinstance(x, TensorSpec)


def plain(spec):
    """`spec` without its name."""
    return TensorSpec(spec.shape, spec.dtype) if is_spec(spec) else spec


COMPOSITE_SPECS = (ExtensionTypeSpec, RaggedTensorSpec, SparseTensorSpec)    # specs of composite values


def compatible(spec, x):
    """Whether argument leaf `x` matches `spec` (a TensorSpec, a composite's spec, a TraceType or a Python
    value)."""
    if isinstance(spec, COMPOSITE_SPECS):
        return spec.is_compatible_with(x)
    if isinstance(spec, TraceType):
        return _eq(spec, leaf_key(x))
    if not is_spec(spec):
        return not isinstance(x, (Tensor, Variable)) and _eq(spec, x)
    if not isinstance(x, (Tensor, Variable)):
        return False
    return spec.dtype == x.dtype and spec.shape.is_compatible_with(x.shape)


def _eq(a, b):
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values whose == raises compare by identity
        return a is b


def generalize(spec, x):
    """The most specific spec covering `spec` and value `x`, or None if they differ in kind or dtype."""
    if not is_spec(spec):
        return spec if compatible(spec, x) else None
    if not isinstance(x, (Tensor, Variable)) or spec.dtype != x.dtype:
        return None
    return TensorSpec(spec.shape.most_specific_compatible_shape(x.shape), spec.dtype, spec.name)


def dummy(spec):
    """A zero tensor matching `spec` (`None` dims as 1): what `get_concrete_function(spec)` traces with (for an
    ExtensionType's Spec, a value of such tensors)."""
    if isinstance(spec, ExtensionTypeSpec):
        return spec._placeholder_value(dummy)
    if isinstance(spec, RaggedTensorSpec):          # one row per unknown dim, each of one value
        dims = spec.shape.as_list() if spec.shape.rank is not None else [None, None]
        values = dummy(TensorSpec([1] + dims[spec.ragged_rank + 1:], spec.dtype))
        splits = [torch.tensor([0, 1], dtype=spec.row_splits_dtype._torch)] * spec.ragged_rank
        return RaggedTensor.from_nested_row_splits(values, [_wrap(t) for t in splits], validate=False)
    if isinstance(spec, SparseTensorSpec):          # no values
        dims = [1 if d is None else d for d in (spec.shape.as_list() if spec.shape.rank is not None else [1])]
        return SparseTensor(torch.zeros([0, len(dims)], dtype=torch.int64), torch.zeros([0], dtype=spec.dtype._torch),
                            dims)
    shape = [1 if d is None else d for d in (spec.shape.as_list() if spec.shape.rank is not None else [])]
    t = torch.zeros(shape, dtype=spec.dtype._torch) if spec.dtype._torch is not None else None
    if t is None:
        raise NotImplementedError(f"tf.function.get_concrete_function with a {spec.dtype.name} TensorSpec")
    return _wrap(t)


def type_text(x):
    """TF's FunctionType text of one input or output type."""
    if is_spec(x):
        return repr(plain(x))
    if isinstance(x, (TraceType, RaggedTensorSpec, SparseTensorSpec)):
        return repr(x)
    if isinstance(x, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(v)}]" for k, v in x.items()) + "]"
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return ("Tuple[" if isinstance(x, tuple) else "List[") + ", ".join(type_text(v) for v in x) + "]"
    return f"Literal[{x!r}]"


# -- parameters -------------------------------------------------------------------------------------------------------
def param_kinds(fn):
    """{parameter name: kind name} of Python function `fn` (TF's: before a `*args`, parameters are POSITIONAL_ONLY)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return {}
    varargs = any(p.kind == p.VAR_POSITIONAL for p in params)
    return {p.name: "POSITIONAL_ONLY" if varargs and p.kind == p.POSITIONAL_OR_KEYWORD else p.kind.name
            for p in params}


def param_defaults(fn):
    """{parameter name: default value} of Python function `fn`."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in params if p.default is not p.empty}


class Canonical:
    """TF's canonical form of a call (`inspect` binding with defaults): positional-or-keyword parameters given by
    keyword or left to their defaults become positional, keyword-only ones keywords with their defaults, so that
    `f(x)`, `f(x, 1)` and `f(x=x, y=1)` share a trace. A call Python would refuse is left as it is (the body
    raises Python's error)."""

    __slots__ = ("positional", "keyword", "varkw")

    def __init__(self, fn):
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            params = []
        self.positional = [(p.name, p.default) for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.keyword = [(p.name, p.default) for p in params if p.kind == p.KEYWORD_ONLY]
        self.varkw = any(p.kind == p.VAR_KEYWORD for p in params)

    def needed(self, args, kwargs):
        """Whether the call may differ from its canonical form (a cheap test for the common all-positional call)."""
        return bool(kwargs) or bool(self.keyword) or len(args) < len(self.positional)

    def __call__(self, args, kwargs):
        kwargs = dict(kwargs)
        out = list(args[:len(self.positional)])
        for name, default in self.positional[len(out):]:
            if name in kwargs:
                out.append(kwargs.pop(name))
            elif default is not inspect.Parameter.empty:
                out.append(default)
            else:
                return args, kwargs
        if any(name in kwargs for name, _ in self.positional[:len(args)]):
            return args, kwargs
        kw = {}
        for name, default in self.keyword:
            if name in kwargs:
                kw[name] = kwargs.pop(name)
            elif default is not inspect.Parameter.empty:
                kw[name] = default
            else:
                return args, kwargs
        if kwargs and not self.varkw:
            return args, kwargs
        kw.update(kwargs)
        return tuple(out) + tuple(args[len(self.positional):]), kw


def positional_name(names, kinds, i):
    """TF's name of positional argument `i`: its parameter's, or `args_<j>` for the j-th value of `*args`."""
    positional = [n for n in names if kinds.get(n, "POSITIONAL_OR_KEYWORD") in ("POSITIONAL_ONLY",
                                                                                  "POSITIONAL_OR_KEYWORD")]
    return positional[i] if i < len(positional) else f"args_{i - len(positional)}"


def value_paths(x, prefix):
    """TF's spec name of each leaf of argument value `x` named `prefix`: `prefix`, or `prefix_<key or index>...`."""
    if not nest.is_nested(x):
        return [prefix]
    if isinstance(x, dict):
        return [p for k in sorted(x) for p in value_paths(x[k], f"{prefix}_{k}")]
    if isinstance(x, (list, tuple)):
        return [p for i, v in enumerate(x) for p in value_paths(v, f"{prefix}_{i}")]
    return [f"{prefix}_{i}" for i in range(len(nest.flatten(x)))]


def leaf_labels(names, kinds, args, kwargs):
    """[(parameter name, TF's spec name)] of each flat argument leaf (the spec name adds the leaf's path in a
    nested value: `p_0`, `q_k`, `q_a_0`; `*args` values are `args_<i>`)."""
    out = []
    for i, a in enumerate(args):
        param = positional_name(names, kinds, i)
        out += [(param, p) for p in value_paths(a, param)]
    for k in sorted(kwargs):
        out += [(k, p) for p in value_paths(kwargs[k], k)]
    return out


def arg_names(fn):
    """The names of `fn`'s named parameters, in order (no `*args`/`**kwargs`)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def bind_signature(sig, names, args, kwargs, kinds=None):
    """Binds a call to `input_signature` `sig` (parameter `names` of `kinds`), with TF's TypeError texts."""
    kinds = kinds or {}

    def fail(reason):
        params = ", ".join(f"{positional_name(names, kinds, i)}: "
                           f"{type_text(s) if is_spec(s) or nest.is_nested(s) else repr(s)}" for i, s in enumerate(sig))
        if "VAR_POSITIONAL" in kinds.values():
            params += ", /"
        raise TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {args!r} and "
                        f"kwargs: {kwargs!r} for signature: ({params}).")

    values = list(args)
    for k, v in kwargs.items():
        if k not in names[:len(sig)]:
            fail(f"got an unexpected keyword argument '{k}'")
        i = names.index(k)
        if i < len(values):
            fail(f"multiple values for argument '{k}'")
        values += [None] * (i + 1 - len(values))
        values[i] = v
    if len(values) > len(sig):
        fail("too many positional arguments")
    if len(values) < len(sig):
        fail(f"missing a required argument: '{positional_name(names, kinds, len(values))}'")
    out = []
    for spec, value in zip(sig, values):
        if nest.is_nested(spec):
            try:
                leaves = nest.flatten_up_to(spec, value, check_types=False)
            except (TypeError, ValueError):
                fail(f"Can not cast {value!r} to {spec!r}")
        else:
            leaves = [value]
        flat_v = []
        for s, x in zip(nest.flatten(spec), leaves):
            if isinstance(s, COMPOSITE_SPECS):
                if not s.is_compatible_with(x):
                    fail(f"Can not cast {x!r} to {s!r}")
                flat_v.append(x)
                continue
            if not isinstance(x, (Tensor, Variable)):
                try:
                    x = convert_to_tensor(x, s.dtype)
                except (TypeError, ValueError):
                    fail(f"Can not cast {x!r} to {s!r}")
            if not compatible(s, x):
                fail(f"Can not cast {spec_of(x)!r} to {s!r}")
            flat_v.append(x)
        out.append(nest.pack_sequence_as(spec, flat_v) if nest.is_nested(spec) else flat_v[0])
    return tuple(out)
