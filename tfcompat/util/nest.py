"""`tf.nest`: nested structures of lists, tuples, namedtuples, dicts and attrs-free leaves.

Dicts flatten in sorted-key order and `None` is a leaf, as in TF.
"""
import collections.abc

from tfcompat.framework.export import tf_export


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _is_nested(x):
    return isinstance(x, (list, tuple, dict, collections.abc.Mapping)) and not isinstance(x, (str, bytes)) \
        or _is_wrapt_proxy(x)


def _is_wrapt_proxy(x):
    return False


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def _children(x):
    if isinstance(x, collections.abc.Mapping):
        return [x[k] for k in _sorted_keys(x)]
    return list(x)


@tf_export("nest.is_nested")
def is_nested(seq):
    return _is_nested(seq)


@tf_export("nest.flatten")
def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first (dicts by sorted key)."""
    if not _is_nested(structure):
        return [structure]
    out = []
    _flatten_into(structure, out)
    return out


def _flatten_into(x, out):
    if _is_nested(x):
        for c in _children(x):
            _flatten_into(c, out)
    else:
        out.append(x)


def _rebuild(template, children):
    if isinstance(template, collections.abc.Mapping):
        keys = _sorted_keys(template)
        mapping = dict(zip(keys, children))
        if type(template) is dict:
            return {k: mapping[k] for k in template}
        if isinstance(template, collections.defaultdict):
            d = collections.defaultdict(template.default_factory)
            for k in template:
                d[k] = mapping[k]
            return d
        try:
            return type(template)((k, mapping[k]) for k in template)
        except TypeError:
            return {k: mapping[k] for k in template}
    if _is_namedtuple(template):
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children) if type(template) is tuple else type(template)(children)
    if isinstance(template, list):
        return list(children) if type(template) is list else type(template)(children)
    raise TypeError(f"Cannot rebuild structure of type {type(template)}")


@tf_export("nest.pack_sequence_as")
def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Builds a structure like `structure` from the leaves `flat_sequence`."""
    flat_sequence = list(flat_sequence)
    if not _is_nested(structure):
        if len(flat_sequence) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever the "
                             f"input is a sequence ({type(flat_sequence)}) of length {len(flat_sequence)}.\n  "
                             f"{flat_sequence}\nnest cannot guarantee that it is safe to map one to the other.")
        return flat_sequence[0]
    pos = [0]

    def build(tmpl):
        if _is_nested(tmpl):
            return _rebuild(tmpl, [build(c) for c in _children(tmpl)])
        i = pos[0]
        pos[0] += 1
        return flat_sequence[i]

    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {n} atoms, but flat_sequence had "
                         f"{len(flat_sequence)} items.  Structure: {structure}, flat_sequence: {flat_sequence}.")
    return build(structure)


@tf_export("nest.assert_same_structure")
def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises `ValueError`/`TypeError` as TF when the two structures differ."""
    def check(a, b):
        na, nb = _is_nested(a), _is_nested(b)
        if na != nb:
            raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                             f"{_short(nest1)}\n\nSecond structure: {_short(nest2)}\n\nMore specifically: "
                             f"Substructure \"{_short(a if na else b)}\" is a sequence, while substructure "
                             f"\"{_short(b if na else a)}\" is not")
        if not na:
            return
        if check_types and type(a) is not type(b) and not (
                isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping)):
            raise TypeError(f"The two structures don't have the same sequence type. Input structure has type "
                            f"{type(a)}, while shallow structure has type {type(b)}.")
        if isinstance(a, collections.abc.Mapping) and set(a) != set(b):
            raise ValueError(f"The two structures don't have the same keys. First structure has keys "
                             f"{list(a)}, while second structure has keys {list(b)}.")
        ca, cb = _children(a), _children(b)
        if len(ca) != len(cb):
            raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                             f"{_short(nest1)}\n\nSecond structure: {_short(nest2)}\n\nMore specifically: "
                             f"Substructure \"{_short(a)}\" has length {len(ca)}, while substructure "
                             f"\"{_short(b)}\" has length {len(cb)}")
        for x, y in zip(ca, cb):
            check(x, y)
    check(nest1, nest2)


def _short(x):
    return repr(pack_sequence_as(x, ["."] * len(flatten(x)))) if _is_nested(x) else "."


@tf_export("nest.map_structure")
def map_structure(func, *structure, **kwargs):
    """Applies `func` to corresponding leaves of the structures; returns the first's structure."""
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and `expand_composites`, not: "
                         f"`{', '.join(kwargs)}`")
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])


@tf_export("nest.map_structure_up_to")
def map_structure_up_to(shallow_tree, func, *inputs, **kwargs):
    flats = [flatten_up_to(shallow_tree, i) for i in inputs]
    return pack_sequence_as(shallow_tree, [func(*xs) for xs in zip(*flats)])


def flatten_up_to(shallow_tree, input_tree, check_types=True, expand_composites=False):
    if not _is_nested(shallow_tree):
        return [input_tree]
    out = []
    for s, i in zip(_children(shallow_tree), _children(input_tree)):
        out.extend(flatten_up_to(s, i))
    return out


@tf_export("nest.flatten_with_joined_string_paths")
def flatten_with_joined_string_paths(structure, separator="/", expand_composites=False):
    return [(separator.join(str(p) for p in path), v) for path, v in flatten_with_paths(structure)]


def flatten_with_paths(structure):
    out = []

    def walk(x, path):
        if _is_nested(x):
            if isinstance(x, collections.abc.Mapping):
                for k in _sorted_keys(x):
                    walk(x[k], path + (k,))
            else:
                for i, c in enumerate(x):
                    walk(c, path + (i,))
        else:
            out.append((path, x))
    walk(structure, ())
    return out
