"""`keras.tree` (`tf.keras.tree`): Keras 3's nested-structure utilities, with the semantics Keras gets from optree
under TF 2.21 (its `optree_impl`, namespace "keras"), which differ from `tf.nest` (`tfcompat/util/nest.py`):

- Nodes are exactly `tuple`, `list`, `dict`, `OrderedDict`, `defaultdict`, `deque`, namedtuples, `PyStructSequence`s
  (`time.struct_time`...) and the types registered here (Keras's and TF's tracked containers: `TrackedList`/
  `TrackedDict` of layers, `ListWrapper`/`_DictWrapper`, and classes given to `register_tree_node_class`).
  Subclasses of `list`/`dict`, sets, attrs classes, arrays and tensors are leaves. `None` is a leaf unless a
  function takes `none_is_leaf=False`.
- A `dict`/`defaultdict` flattens in sorted-key order (keys of mixed types sorted by their type's
  `module.qualname` first, insertion order if still incomparable) and is rebuilt in its own insertion order; an
  `OrderedDict` keeps its order.
- A second structure is matched against the first's spec node by node, right to left, with optree's messages
  ("Expected an instance of list, got (3, 4).", "list arity mismatch; ...", "dictionary key mismatch; ...");
  a leaf of the first facing a subtree of another raises Keras's "Structures don't have the same nested
  structure." when `func` reaches it.
"""
import collections
import warnings

_LEAF, _NONE, _TUPLE, _LIST, _DICT, _ODICT, _DDICT, _NAMEDTUPLE, _DEQUE, _STRUCTSEQ, _CUSTOM = range(11)
_BUILTIN = {tuple: _TUPLE, list: _LIST, dict: _DICT, collections.OrderedDict: _ODICT,
            collections.defaultdict: _DDICT, collections.deque: _DEQUE}
_CUSTOM_NODES = {}        # type -> (flatten(x) -> (children, data[, entries]), unflatten(data, children))
_KIND_CACHE = {}
_builtin_customs_loaded = False


class MAP_TO_NONE:
    """Special value for use with `traverse()`."""


# ---------------------------------------------------------------------------------------------------- registry
def register_tree_node_class(cls):
    """Registers `cls` as a node: `x.tree_flatten()` returns `(children, metadata[, entries])`,
    `cls.tree_unflatten(metadata, children)` rebuilds it (optree's protocol, as Keras uses it)."""
    _CUSTOM_NODES[cls] = (lambda x: x.tree_flatten(), cls.tree_unflatten)
    _KIND_CACHE.pop(cls, None)
    return cls


class _Untracked:
    """The owner of a tracked container rebuilt by `pack_sequence_as`/`map_structure` (Keras rebuilds them
    without a tracker)."""

    @staticmethod
    def _track(value):
        return value


def _sorted_items_flatten(d):
    keys = _total_order_sorted(list(d.keys()))
    return [d[k] for k in keys], keys, keys


def _load_builtin_customs():
    """Keras's and TF's tracked containers, registered in Keras's "keras" namespace (imported on first use)."""
    global _builtin_customs_loaded
    _builtin_customs_loaded = True
    from tfcompat.keras.layers.base import TrackedDict, TrackedList
    from tfcompat.train.data_structures import ListWrapper, _DictWrapper
    _CUSTOM_NODES.setdefault(TrackedList, (lambda x: (x, None),
                                           lambda data, children: TrackedList(_Untracked, children)))
    _CUSTOM_NODES.setdefault(TrackedDict, (_sorted_items_flatten,
                                           lambda keys, values: TrackedDict(_Untracked, dict(zip(keys, values)))))
    _CUSTOM_NODES.setdefault(ListWrapper, (lambda x: (x, None), lambda data, children: ListWrapper(list(children))))
    _CUSTOM_NODES.setdefault(_DictWrapper, (_sorted_items_flatten,
                                            lambda keys, values: _DictWrapper(dict(zip(keys, values)))))
    _KIND_CACHE.clear()


def _is_namedtuple_class(t):
    if not issubclass(t, tuple):
        return False
    fields = getattr(t, "_fields", None)
    if type(fields) is not tuple or not all(type(f) is str for f in fields):
        return False
    return all(callable(getattr(t, name, None)) for name in ("_make", "_asdict"))


def _is_structseq_class(t):
    if not issubclass(t, tuple) or t.__bases__ != (tuple,):
        return False
    if not all(type(getattr(t, name, None)) is int for name in ("n_fields", "n_sequence_fields", "n_unnamed_fields")):
        return False
    try:
        type("_", (t,), {})
    except TypeError:
        return True          # not subclassable: a C struct sequence
    return False


def _type_kind(t):
    k = _KIND_CACHE.get(t)
    if k is None:
        if not _builtin_customs_loaded:
            _load_builtin_customs()
        if t in _BUILTIN:
            k = _BUILTIN[t]
        elif t in _CUSTOM_NODES:
            k = _CUSTOM
        elif _is_structseq_class(t):
            k = _STRUCTSEQ
        elif _is_namedtuple_class(t):
            k = _NAMEDTUPLE
        else:
            k = _LEAF
        _KIND_CACHE[t] = k
    return k


def _kind(x, none_is_leaf):
    if x is None:
        return _LEAF if none_is_leaf else _NONE
    return _type_kind(type(x))


def _total_order_sorted(keys):
    try:
        return sorted(keys)
    except TypeError:
        pass
    try:
        return sorted(keys, key=lambda k: (f"{type(k).__module__}.{type(k).__qualname__}", k))
    except TypeError:
        return list(keys)


# ---------------------------------------------------------------------------------------------------- specs
class _Node:
    """One node of a structure's spec: its kind, optree's node data, its children's specs, and what rebuilding
    needs (a dict's insertion-order keys, a custom node's unflatten)."""
    __slots__ = ("kind", "data", "children", "entries", "keys", "custom", "leaves")

    def __init__(self, kind, data=None, children=(), entries=(), keys=None, custom=None):
        self.kind = kind
        self.data = data
        self.children = children
        self.entries = entries
        self.keys = keys
        self.custom = custom
        self.leaves = 1 if kind == _LEAF else sum(c.leaves for c in children)


_LEAF_NODE = _Node(_LEAF)


def _expand(x, kind):
    """(children, node data, path entries, insertion-order keys, custom type) of a node."""
    if kind in (_TUPLE, _LIST, _DEQUE):
        children = list(x)
        return children, (x.maxlen if kind == _DEQUE else None), range(len(children)), None, None
    if kind in (_NAMEDTUPLE, _STRUCTSEQ):
        return list(x), type(x), range(len(x)), None, None
    if kind == _NONE:
        return [], None, (), None, None
    if kind in (_DICT, _DDICT, _ODICT):
        keys = list(x.keys())
        ordered = keys if kind == _ODICT else _total_order_sorted(keys)
        data = (x.default_factory, ordered) if kind == _DDICT else ordered
        return [x[k] for k in ordered], data, ordered, keys, None
    flatten, _ = _CUSTOM_NODES[type(x)]
    out = tuple(flatten(x))
    if len(out) not in (2, 3):
        raise RuntimeError(f"PyTree custom flatten function for type {type(x)!r} should return a 2- or 3-tuple, "
                           f"got {len(out)}.")
    children = list(out[0])
    entries = out[2] if len(out) == 3 and out[2] is not None else range(len(children))
    return children, out[1], entries, None, type(x)


def _flatten(x, leaves, none_is_leaf, is_leaf=None, paths=None, path=()):
    if is_leaf is not None and is_leaf(x):
        kind = _LEAF
    else:
        kind = _kind(x, none_is_leaf)
    if kind == _LEAF:
        leaves.append(x)
        if paths is not None:
            paths.append(path)
        return _LEAF_NODE
    children, data, entries, keys, custom = _expand(x, kind)
    entries = list(entries)
    specs = [_flatten(c, leaves, none_is_leaf, is_leaf, paths, path + (e,) if paths is not None else path)
             for c, e in zip(children, entries)]
    return _Node(kind, data, specs, entries, keys, custom)


def _tree_flatten(x, none_is_leaf=True, is_leaf=None):
    leaves = []
    spec = _flatten(x, leaves, none_is_leaf, is_leaf)
    return leaves, spec


def _make(node, children):
    kind = node.kind
    if kind == _TUPLE:
        return tuple(children)
    if kind == _LIST:
        return list(children)
    if kind == _NONE:
        return None
    if kind in (_DICT, _ODICT, _DDICT):
        ordered = node.data[1] if kind == _DDICT else node.data
        by_key = dict(zip(ordered, children))
        items = [(k, by_key[k]) for k in node.keys]
        if kind == _DICT:
            return dict(items)
        if kind == _ODICT:
            return collections.OrderedDict(items)
        return collections.defaultdict(node.data[0], items)
    if kind == _NAMEDTUPLE:
        return node.data(*children)
    if kind == _STRUCTSEQ:
        return node.data(children)
    if kind == _DEQUE:
        return collections.deque(children, maxlen=node.data)
    return _CUSTOM_NODES[node.custom][1](node.data, children)


def _unflatten(spec, leaves):
    try:
        it = iter(leaves)
    except TypeError:
        raise TypeError("unflatten(): incompatible function arguments. The following argument types are "
                        "supported:\n    1. (self: optree.PyTreeSpec, leaves: collections.abc.Iterable, /) -> "
                        f"object\n\nInvoked with: {_spec_repr(spec)}, {leaves!r}") from None
    count = [0]

    def build(node):
        if node.kind == _LEAF:
            try:
                value = next(it)
            except StopIteration:
                raise ValueError(f"Too few leaves for PyTreeSpec; expected: {spec.leaves}, "
                                 f"got: {count[0]}.") from None
            count[0] += 1
            return value
        return _make(node, [build(c) for c in node.children])

    out = build(spec)
    for _ in it:
        raise ValueError(f"Too many leaves for PyTreeSpec; expected: {spec.leaves}.")
    return out


def _spec_repr(spec, none_is_leaf=True):
    def text(node):
        parts = [text(c) for c in node.children]
        kind = node.kind
        if kind == _LEAF:
            return "*"
        if kind == _NONE:
            return "None"
        if kind == _TUPLE:
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        if kind == _LIST:
            return "[" + ", ".join(parts) + "]"
        if kind in (_DICT, _ODICT):
            body = ", ".join(f"{k!r}: {p}" for k, p in zip(node.data, parts))
            if kind == _DICT:
                return "{" + body + "}"
            return "OrderedDict(" + ("{" + body + "}" if parts else "") + ")"
        if kind == _DDICT:
            body = ", ".join(f"{k!r}: {p}" for k, p in zip(node.data[1], parts))
            return f"defaultdict({node.data[0]!r}, {{{body}}})"
        if kind == _NAMEDTUPLE:
            return node.data.__name__ + "(" + ", ".join(f"{f}={p}" for f, p in zip(node.data._fields, parts)) + ")"
        if kind == _STRUCTSEQ:
            module = getattr(node.data, "__module__", None)
            prefix = f"{module}." if module not in (None, "", "__main__", "builtins", "__builtins__") else ""
            fields = getattr(node.data, "__match_args__", ())
            return prefix + node.data.__qualname__ + "(" + ", ".join(
                f"{f}={p}" for f, p in zip(fields, parts)) + ")"
        if kind == _DEQUE:
            inner = ("[" + ", ".join(parts) + "]") if parts else ""
            if node.data is not None:
                inner += (", " if parts else "") + f"maxlen={node.data!r}"
            return f"deque({inner})"
        return f"CustomTreeNode({node.custom.__name__}[{node.data!r}], [{', '.join(parts)}])"

    def has_custom(node):
        return node.kind == _CUSTOM or any(has_custom(c) for c in node.children)

    suffix = (", NoneIsLeaf" if none_is_leaf else "") + (", namespace='keras'" if has_custom(spec) else "")
    return f"PyTreeSpec({text(spec)}{suffix})"


def _describe_dict_kind(kind):
    return {_DICT: "dict", _ODICT: "OrderedDict", _DDICT: "defaultdict"}[kind]


def _flatten_up_to(spec, tree, none_is_leaf):
    """The subtrees of `tree` at the leaves of `spec`, checked node by node right to left as optree does."""
    out = []

    def walk(node, obj):
        kind = node.kind
        if kind == _LEAF:
            out.append(obj)
            return
        if kind == _NONE:
            if obj is not None:
                raise ValueError(f"Expected None, got {obj!r}.")
            return
        if kind in (_TUPLE, _LIST, _DEQUE):
            name = {_TUPLE: "tuple", _LIST: "list", _DEQUE: "deque"}[kind]
            if type(obj) is not {_TUPLE: tuple, _LIST: list, _DEQUE: collections.deque}[kind]:
                expected = "collections.deque" if kind == _DEQUE else name
                raise ValueError(f"Expected an instance of {expected}, got {obj!r}.")
            if len(obj) != len(node.children):
                label = "tuple" if kind == _TUPLE else name
                raise ValueError(f"{name} arity mismatch; expected: {len(node.children)}, got: {len(obj)}; "
                                 f"{label}: {obj!r}.")
            items = list(obj)
        elif kind in (_DICT, _ODICT, _DDICT):
            if type(obj) not in (dict, collections.OrderedDict, collections.defaultdict):
                raise ValueError("Expected an instance of dict, collections.OrderedDict, or collections.defaultdict, "
                                 f"got {obj!r}.")
            expected = node.data[1] if kind == _DDICT else node.data
            if len(expected) != len(obj) or any(k not in obj for k in expected):
                missing = _total_order_sorted(list(set(expected) - set(obj)))
                extra = _total_order_sorted(list(set(obj) - set(expected)))
                diff = (f", missing key(s): {missing!r}" if missing else "") + (
                    f", extra key(s): {extra!r}" if extra else "")
                raise ValueError(f"dictionary key mismatch; expected key(s): {list(expected)!r}, got key(s): "
                                 f"{_total_order_sorted(list(obj))!r}{diff}; {_describe_dict_kind(kind)}: "
                                 f"{obj!r}.")
            items = [obj[k] for k in expected]
        elif kind in (_NAMEDTUPLE, _STRUCTSEQ):
            what = "namedtuple" if kind == _NAMEDTUPLE else "PyStructSequence"
            if _type_kind(type(obj)) != kind:
                expected = "collections.namedtuple" if kind == _NAMEDTUPLE else "PyStructSequence type"
                raise ValueError(f"Expected an instance of {expected}, got {obj!r}.")
            if len(obj) != len(node.children):
                raise ValueError(f"{what} arity mismatch; expected: {len(node.children)}, got: {len(obj)}; "
                                 f"tuple: {obj!r}.")
            if type(obj) is not node.data:
                raise ValueError(f"{what} type mismatch; expected type: {node.data!r}, got type: {type(obj)!r}; "
                                 f"tuple: {obj!r}.")
            items = list(obj)
        else:
            if type(obj) is not node.custom:
                raise ValueError(f"Custom node type mismatch; expected type: {node.custom!r}, got type: "
                                 f"{type(obj)!r}; value: {obj!r}.")
            children, data, _, _, _ = _expand(obj, _CUSTOM)
            if data != node.data:
                raise ValueError(f"Mismatch custom node data; expected: {node.data!r}, got: {data!r}; "
                                 f"value: {obj!r}.")
            if len(children) != len(node.children):
                raise ValueError(f"Custom type arity mismatch; expected: {len(node.children)}, got: "
                                 f"{len(children)}; value: {obj!r}.")
            items = children
        for child, item in zip(reversed(node.children), reversed(items)):
            walk(child, item)

    walk(spec, tree)
    out.reverse()
    return out


def _tree_map(func, tree, *rests, none_is_leaf=True, is_leaf=None):
    leaves, spec = _tree_flatten(tree, none_is_leaf, is_leaf)
    others = [_flatten_up_to(spec, r, none_is_leaf) for r in rests]
    return _unflatten(spec, [func(*args) for args in zip(leaves, *others)])


def _is_leaf(x, none_is_leaf=True):
    return _kind(x, none_is_leaf) == _LEAF


# ---------------------------------------------------------------------------------------------------- API
def is_nested(structure):
    """Whether `structure` is a node (a sequence, mapping or namedtuple Keras nests), not a leaf."""
    return not _is_leaf(structure)


def traverse(func, structure, top_down=True):
    """Applies `func` to every sub-structure depth first (parents first when `top_down`). A non-None result
    replaces the sub-structure (top-down: and is not entered); `MAP_TO_NONE` replaces it with None."""
    def children_traversed():
        kind = _kind(structure, True)
        if kind == _LEAF:
            return structure
        children, data, entries, keys, custom = _expand(structure, kind)
        node = _Node(kind, data, [_LEAF_NODE] * len(children), list(entries), keys, custom)
        return _make(node, [traverse(func, c, top_down=top_down) for c in children])

    if top_down:
        result = func(structure)
        if result is None:
            return children_traversed()
    else:
        traversed = children_traversed()
        result = func(traversed)
        if result is None:
            return traversed
    if isinstance(result, type) and result.__name__ == "MAP_TO_NONE":
        return None
    return result


def flatten(structure):
    """The leaves of `structure` in Keras's order (dicts by sorted key, OrderedDicts in order)."""
    if _is_leaf(structure):
        return [structure]
    if isinstance(structure, (list, tuple)) and len(structure) == 1 and _is_leaf(structure[0]):
        return [structure[0]]
    return _tree_flatten(structure)[0]


def flatten_with_path(structure):
    """`(path, leaf)` pairs: a path is the tuple of indices and keys leading to the leaf."""
    leaves, paths = [], []
    _flatten(structure, leaves, True, paths=paths)
    return list(zip(paths, leaves))


def map_structure(func, *structures, none_is_leaf=True):
    """`func` applied to the leaves of `structures` (all of the first one's layout), in that layout."""
    if len(structures) == 1 and _is_leaf(structures[0]):
        if structures[0] is None and not none_is_leaf:
            return None
        return func(structures[0])
    if not structures:
        raise ValueError("Must provide at least one structure")
    if len(structures) > 1:
        inner = func

        def func(*args):
            if not all(_is_leaf(a, none_is_leaf) for a in args):
                raise ValueError("Structures don't have the same nested structure.")
            return inner(*args)
    return _tree_map(func, *structures, none_is_leaf=none_is_leaf)


def map_structure_up_to(shallow_structure, func, *structures):
    """`func` applied to the sub-structures of `structures` at the leaves of `shallow_structure`."""
    if not structures:
        raise ValueError("Must provide at least one structure")

    def apply(shallow, *args):
        if shallow is None:       # Keras asks optree whether it is a leaf with None a node
            raise ValueError("Structures don't have the same nested structure.")
        return func(*args)

    return _tree_map(apply, shallow_structure, *structures)


def assert_same_structure(a, b, check_types=None):
    """Raises ValueError unless `a` and `b` nest alike (same container types, lengths and keys; dict,
    OrderedDict and defaultdict match one another). `check_types` is deprecated and has no effect."""
    if check_types is not None:
        if check_types:
            warnings.warn("The `check_types` argument is deprecated and no longer has any effect, please remove.",
                          DeprecationWarning, stacklevel=2)
        else:
            warnings.warn("The `check_types` argument is deprecated and no longer has any effect. For a looser "
                          "check, use `keras.tree.assert_same_paths()`, which considers `list`, `tuple`, "
                          "`namedtuple` and `deque` as matching", DeprecationWarning, stacklevel=2)

    def check(x, y):
        if not _is_leaf(x) or not _is_leaf(y):
            raise ValueError("Structures don't have the same nested structure.")

    _tree_map(check, a, b)


def _paths(structure):
    paths = []
    _flatten(structure, [], True, paths=paths)
    return paths


def assert_same_paths(a, b):
    """Raises ValueError unless `a` and `b` have the same leaf paths (container types are not compared)."""
    a_paths, b_paths = set(_paths(a)), set(_paths(b))
    if a_paths != b_paths:
        msg = "`a` and `b` don't have the same paths."
        a_only = a_paths.difference(b_paths)
        if a_only:
            msg += f"\nPaths in `a` missing in `b`:\n{a_only}"
        b_only = b_paths.difference(a_paths)
        if b_only:
            msg += f"\nPaths in `b` missing in `a`:\n{b_only}"
        raise ValueError(msg)


def pack_sequence_as(structure, flat_sequence):
    """The leaves of `flat_sequence` (any iterable) in the layout of `structure`."""
    return _unflatten(_tree_flatten(structure)[1], flat_sequence)


def lists_to_tuples(structure):
    """`structure` with every list (and list subclass) turned into a tuple."""
    return traverse(lambda x: tuple(x) if isinstance(x, list) else None, structure, top_down=False)


def _is_shape(x):
    return isinstance(x, (list, tuple)) and all(isinstance(e, (int, type(None))) for e in x)


def map_shape_structure(func, structure):
    """`map_structure` where lists and tuples of ints and Nones (shapes) are leaves."""
    return _tree_map(func, structure, is_leaf=_is_shape)
