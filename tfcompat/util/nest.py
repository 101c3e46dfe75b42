"""`tf.nest`: flatten, pack and compare nested structures as TF 2.21 does.

Nested: lists, tuples, namedtuples, other `collections.abc.Sequence`s (not `str`/`bytes`), mappings (flattened
in sorted-key order), mapping views, `attrs` classes and objects with `__tf_flatten__`/`__tf_unflatten__`.
Everything else (None, tensors, sets, NumPy arrays) is a leaf. With `expand_composites=True`, a
`tf.SparseTensor`, `tf.RaggedTensor`, `tf.IndexedSlices` or `tf.experimental.ExtensionType` is expanded into its
component tensors.
"""
import collections
import collections.abc

from tfcompat.framework.export import tf_export
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor

# How each type nests, cached by type (classification depends only on the type).
_LEAF, _LIST, _TUPLE, _SEQUENCE, _NAMEDTUPLE, _MAPPING, _VIEW, _ATTRS, _CUSTOM, _COMPOSITE = range(10)
_KINDS = {list: _LIST, tuple: _TUPLE, dict: _MAPPING, str: _LEAF, bytes: _LEAF, int: _LEAF, float: _LEAF,
          bool: _LEAF, type(None): _LEAF}


def _classify(t):
    if hasattr(t, "__tf_flatten__") and hasattr(t, "__tf_unflatten__"):
        return _CUSTOM
    if issubclass(t, collections.abc.Mapping):
        return _MAPPING
    if issubclass(t, collections.abc.MappingView):
        return _VIEW
    if hasattr(t, "__attrs_attrs__"):
        return _ATTRS
    if issubclass(t, tuple):
        return _NAMEDTUPLE if hasattr(t, "_fields") else _TUPLE
    if issubclass(t, list):
        return _LIST
    if issubclass(t, collections.abc.Sequence) and not issubclass(t, (str, bytes)):
        return _SEQUENCE
    return _LEAF


def _kind(x, expand_composites=False):
    t = type(x)
    k = _KINDS.get(t)
    if k is None:
        k = _KINDS[t] = _classify(t)
    if k == _LEAF and expand_composites and t in _COMPOSITES:
        return _COMPOSITE     # a composite tensor nests only under expand_composites
    return k


def _components(x):
    """The component tensors of a composite, in TF's order (an ExtensionType's: its tensor-holding fields)."""
    if type(x) is RaggedTensor:
        return [x.flat_values, *x.nested_row_splits]
    if type(x) is SparseTensor:
        return [x.indices, x.values, x.dense_shape]
    if type(x) is not IndexedSlices:
        return x._tf_children()
    return [x.values, x.indices] + ([] if x.dense_shape is None else [x.dense_shape])


_COMPOSITES = {RaggedTensor, SparseTensor, IndexedSlices}


def is_composite(x):
    """Whether `x` is a composite tensor (what `expand_composites=True` expands)."""
    return type(x) in _COMPOSITES


def register_composite(cls):
    """Makes `cls` (an ExtensionType) nest as a composite: `_tf_children()` and `_tf_rebuild(children)`."""
    _COMPOSITES.add(cls)


def _from_components(template, parts):
    t = type(template)
    if t is RaggedTensor:
        return RaggedTensor.from_nested_row_splits(parts[0], parts[1:], validate=False)
    if t is SparseTensor:
        packed = SparseTensor(*parts)
        if not packed.shape.is_compatible_with(template.shape):
            raise ValueError(f"Shapes {packed.shape} and {template.shape} are not compatible")
        return packed
    if t is not IndexedSlices:
        return template._tf_rebuild(parts)
    return IndexedSlices(*parts)


def _spec(x):
    """(text of TF's TypeSpec, compatibility key): specs match on type, dtype, rank and ragged layout."""
    if type(x) is RaggedTensor:
        return (f"type=RaggedTensorSpec str=RaggedTensorSpec({x.shape!r}, {x.dtype!r}, {x.ragged_rank}, "
                f"{x.row_splits_dtype!r})", (RaggedTensor, x.dtype, x.shape.rank, x.ragged_rank, x.row_splits_dtype))
    if type(x) is SparseTensor:
        return (f"type=SparseTensorSpec str=SparseTensorSpec({x.shape!r}, {x.dtype!r})",
                (SparseTensor, x.dtype, x.shape.rank))
    if type(x) is not IndexedSlices:
        spec = x._type_spec
        return f"type={type(spec).__name__} str={spec!r}", spec
    return (f"type=IndexedSlicesSpec str=IndexedSlicesSpec({x.shape!r}, {x.dtype!r})",
            (IndexedSlices, x.dtype, x.shape.rank, x.dense_shape is None))


def _sorted_keys(mapping):
    return sorted(mapping)    # TypeError for unsortable keys, as in TF


def _children(x, kind):
    if kind <= _NAMEDTUPLE:
        return x
    if kind == _MAPPING:
        return [x[k] for k in _sorted_keys(x)]
    if kind == _VIEW:
        return list(x)
    if kind == _ATTRS:
        return [getattr(x, a.name) for a in type(x).__attrs_attrs__]
    if kind == _CUSTOM:
        return x.__tf_flatten__()[1]
    return _components(x)


def _rebuild(template, children, kind=None):
    """A structure like `template` holding `children` (`kind`: the template's, when the caller knows it)."""
    if kind is None:
        kind = _kind(template)
    if kind == _LIST:
        return children if type(template) is list else type(template)(children)
    if kind == _TUPLE:
        return tuple(children) if type(template) is tuple else type(template)(children)
    if kind == _NAMEDTUPLE or kind == _ATTRS:
        return type(template)(*children)
    if kind == _MAPPING:
        return _rebuild_mapping(template, dict(zip(_sorted_keys(template), children)))
    if kind == _VIEW:
        return list(children)
    if kind == _SEQUENCE:
        return list(children) if type(template) is range else type(template)(children)
    if kind == _CUSTOM:
        return template.__tf_unflatten__(template.__tf_flatten__()[0], tuple(children))
    return _from_components(template, children)


def _rebuild_mapping(template, values):
    t = type(template)
    if t is dict:
        return {k: values[k] for k in template}
    if isinstance(template, collections.abc.MutableMapping):
        try:
            out = collections.defaultdict(template.default_factory) if t is collections.defaultdict else t()
        except TypeError:      # a dict subclass whose constructor needs arguments (Keras's TrackedDict)
            out = {}
        for k in template:
            out[k] = values[k]
        return out
    try:
        return t((k, values[k]) for k in template)
    except TypeError as e:
        raise TypeError(f"Error creating an object of type {t} like {template}. Note that it must accept a single "
                        f"positional argument representing an iterable of key-value pairs, in addition to self. "
                        f"Cause: {e}") from None


@tf_export("nest.is_nested")
def is_nested(seq):
    """True when `seq` is a nested structure (not a leaf)."""
    return _kind(seq) != _LEAF


@tf_export("nest.flatten")
def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first (mappings by sorted key)."""
    if _kind(structure, expand_composites) == _LEAF:
        return [structure]
    out = []
    _flatten_into(structure, out, expand_composites)
    return out


def _flatten_into(x, out, expand):
    kind = _kind(x, expand)
    if kind == _LEAF:
        out.append(x)
        return
    for c in _children(x, kind):
        _flatten_into(c, out, expand)


def _truncate(value, length=100):
    text = str(value)
    return text[:length] + ("..." if len(text) > length else "")


@tf_export("nest.pack_sequence_as")
def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Builds a structure like `structure` from the leaves `flat_sequence`."""
    if _kind(flat_sequence, expand_composites) == _LEAF:
        raise TypeError(f"Attempted to pack value:\n  {_truncate(flat_sequence)}\ninto a structure, but found "
                        f"incompatible type `{type(flat_sequence)}` instead.")
    if _kind(structure, expand_composites) == _LEAF:
        if len(flat_sequence) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  {_truncate(structure)}\n"
                             f"However the input is a sequence ({type(flat_sequence)}) of length "
                             f"{len(flat_sequence)}.\n  {_truncate(flat_sequence)}\nnest cannot guarantee that it "
                             f"is safe to map one to the other.")
        return flat_sequence[0]
    pos = 0

    def build(tmpl):
        nonlocal pos
        kind = _kind(tmpl, expand_composites)
        if kind == _LEAF:
            pos += 1
            return flat_sequence[pos - 1]
        return _rebuild(tmpl, [build(c) for c in _children(tmpl, kind)], kind)

    try:
        packed = build(structure)
        if pos < len(flat_sequence):
            raise IndexError
    except IndexError:
        n = len(flatten(structure, expand_composites))
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence had "
                         f"{len(flat_sequence)} items.  Structure: {structure!s}, flat_sequence: {flat_sequence!s}."
                         ) from None
    return packed


def _describe(x):
    return f"type={type(x).__name__} str={x!s}"


class _Dot:
    """The leaf placeholder TF prints in "Entire first structure" (`.`)."""
    __slots__ = ()

    def __repr__(self):
        return "."


_DOT = _Dot()


def _same_type(a, b, ka, kb):
    """TF's check_types rule: equal types, or both lists, both mappings, or namedtuples of one name and fields."""
    if type(a) is type(b):
        return True
    if ka == kb == _LIST or ka == kb == _MAPPING:
        return True
    return ka == kb == _NAMEDTUPLE and type(a).__name__ == type(b).__name__ and a._fields == b._fields


def _mismatch(a, b, check_types, expand):
    """(exception class, TF's "More specifically" text) for the first difference between a and b, or None."""
    ka, kb = _kind(a, expand), _kind(b, expand)
    if (ka == _LEAF) != (kb == _LEAF):
        seq, other = (a, b) if ka != _LEAF else (b, a)
        return ValueError, f'Substructure "{_describe(seq)}" is a sequence, while substructure "{_describe(other)}" is not'
    if ka == _LEAF:
        return None
    if ka == kb == _COMPOSITE:
        (text_a, key_a), (text_b, key_b) = _spec(a), _spec(b)
        if key_a != key_b:
            return ValueError, f"Incompatible CompositeTensor TypeSpecs: {text_a} vs. {text_b}"
        return None
    if (check_types or _COMPOSITE in (ka, kb)) and not _same_type(a, b, ka, kb):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First structure {_describe(a)} "
                           f"has type {type(a).__name__}, while second structure {_describe(b)} has type "
                           f"{type(b).__name__}")
    if check_types and ka == _MAPPING and set(a) != set(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First structure has keys "
                            f"{_describe(list(a))}, while second structure has keys {_describe(list(b))}")
    ca, cb = list(_children(a, ka)), list(_children(b, kb))
    if len(ca) != len(cb):
        return ValueError, (f"The two structures don't have the same number of elements. First structure: "
                            f"{_describe(a)}. Second structure: {_describe(b)}")
    for x, y in zip(ca, cb):
        found = _mismatch(x, y, check_types, expand)
        if found:
            return found
    return None


@tf_export("nest.assert_same_structure")
def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises `ValueError`/`TypeError` with TF's text when the two structures are not nested alike."""
    found = _mismatch(nest1, nest2, bool(check_types), bool(expand_composites))
    if found:
        cls, detail = found
        raise cls(f"The two structures don't have the same nested structure.\n\nFirst structure: {_describe(nest1)}"
                  f"\n\nSecond structure: {_describe(nest2)}\n\nMore specifically: {detail}\nEntire first structure:"
                  f"\n{map_structure(lambda _: _DOT, nest1)}\nEntire second structure:\n"
                  f"{map_structure(lambda _: _DOT, nest2)}")


@tf_export("nest.map_structure")
def map_structure(func, *structure, check_types=True, expand_composites=False, **kwargs):
    """Applies `func` to corresponding leaves of the structures; returns the first's structure."""
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func!s}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and `expand_composites`, not: "
                         f"`{'`, `'.join(kwargs)}`")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types, expand_composites=expand_composites)
    flats = [flatten(s, expand_composites) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)], expand_composites=expand_composites)


def flatten_up_to(shallow_tree, input_tree, check_types=True):
    """The subtrees of `input_tree` at the leaves of `shallow_tree` (TF's internal `nest.flatten_up_to`)."""
    kind = _kind(shallow_tree)
    if kind == _LEAF:
        return [input_tree]
    kind_in = _kind(input_tree)
    if kind_in == _LEAF:
        raise TypeError(f"If shallow structure is a sequence, input must also be a sequence. Input has type: "
                        f"{type(input_tree)}.")
    if check_types and not _same_type(shallow_tree, input_tree, kind, kind_in):
        raise TypeError(f"The two structures don't have the same sequence type. Input structure has type "
                        f"{type(input_tree)}, while shallow structure has type {type(shallow_tree)}.")
    if kind == _MAPPING and kind_in == _MAPPING:
        missing = [k for k in shallow_tree if k not in input_tree]
        if missing:
            raise ValueError(f"The input_tree's keys do not match shallow_tree's keys. Shallow tree's keys missing "
                             f"from input_tree: {missing}.")
        inputs = [input_tree[k] for k in _sorted_keys(shallow_tree)]
    else:
        inputs = list(_children(input_tree, kind_in))
        if len(inputs) != len(list(_children(shallow_tree, kind))):
            raise ValueError(f"The two structures don't have the same sequence length. Input structure has length "
                             f"{len(inputs)}, while shallow structure has length "
                             f"{len(list(_children(shallow_tree, kind)))}.")
    out = []
    for s, i in zip(_children(shallow_tree, kind), inputs):
        out.extend(flatten_up_to(s, i, check_types))
    return out
