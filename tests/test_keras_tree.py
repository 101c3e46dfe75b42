"""tf.keras.tree (Keras 3's optree-backed structure utilities) against outputs recorded from TF 2.21 / Keras 3.15.1."""
import collections
import time
import warnings

import numpy as np
import pytest

import tfcompat as tf

K = tf.keras.tree
P = collections.namedtuple("P", ["x", "y"])
Q = collections.namedtuple("P", ["x", "y"])
OD, DD, DQ = collections.OrderedDict, collections.defaultdict, collections.deque


def pair(a, b):
    return (a, b)


def test_names():
    for name in ("flatten", "flatten_with_path", "map_structure", "map_structure_up_to", "pack_sequence_as",
                 "assert_same_structure", "assert_same_paths", "is_nested", "lists_to_tuples",
                 "map_shape_structure", "traverse", "MAP_TO_NONE"):
        assert callable(getattr(K, name))


def test_nodes_and_leaves():
    # TF 2.21: only exact containers, namedtuples and struct sequences nest
    class L(list):
        pass

    class D(dict):
        pass

    nested = [[1], (), {}, OD(), DD(int), DQ(), P(1, 2), time.gmtime(0)]
    leaves = [None, 1, "ab", L([1]), D(a=1), {1, 2}, np.arange(3), tf.constant([1, 2]), P]
    assert all(K.is_nested(x) for x in nested)
    assert not any(K.is_nested(x) for x in leaves)
    assert K.flatten(L([1, 2])) == [[1, 2]] and K.flatten(None) == [None] and K.flatten([None]) == [None]
    assert K.flatten(time.gmtime(0)) == [1970, 1, 1, 0, 0, 0, 3, 1, 0]


def test_flatten_orders():
    # TF 2.21
    assert K.flatten([1, [2, (3, 4)], {"b": 5, "a": 6}]) == [1, 2, 3, 4, 6, 5]
    assert K.flatten({"b": 1, "a": [2, None], "c": {}}) == [2, None, 1]
    assert K.flatten(OD([("b", 1), ("a", 2)])) == [1, 2]
    assert K.flatten(DD(list, {"b": 1, "a": 2})) == [2, 1]
    assert K.flatten(DQ([1, [2, 3]])) == [1, 2, 3]
    assert K.flatten({1: "a", "b": 2, None: 3}) == [3, "a", 2]
    assert K.flatten({"b": 1, 2: 2, "a": 3, 1.5: 4, (1,): 5}) == [4, 2, 3, 1, 5]
    assert K.flatten({100: "world!", 6: "Hello"}) == ["Hello", "world!"]


def test_flatten_with_path():
    # TF 2.21
    assert K.flatten_with_path([1, [2, (3, 4)], {"b": 5, "a": 6}]) == [
        ((0,), 1), ((1, 0), 2), ((1, 1, 0), 3), ((1, 1, 1), 4), ((2, "a"), 6), ((2, "b"), 5)]
    assert K.flatten_with_path([{"foo": 42}, P(1, [2]), DQ([1, [2, 3]])]) == [
        ((0, "foo"), 42), ((1, 0), 1), ((1, 1, 0), 2), ((2, 0), 1), ((2, 1, 0), 2), ((2, 1, 1), 3)]
    assert K.flatten_with_path({"b": DD(int, z=1, a=2), 3: [OD(q=1, c=2)]}) == [
        ((3, 0, "q"), 1), ((3, 0, "c"), 2), (("b", "a"), 2), (("b", "z"), 1)]
    assert K.flatten_with_path(None) == [((), None)] and K.flatten_with_path([]) == []


def test_map_structure():
    m = lambda v: ("m", v)  # noqa: E731
    # TF 2.21: dicts rebuilt in their own key order, containers' types kept
    out = K.map_structure(m, {"b": 1, "a": [2, None], "c": {}})
    assert out == {"b": ("m", 1), "a": [("m", 2), ("m", None)], "c": {}} and list(out) == ["b", "a", "c"]
    assert K.map_structure(m, {"b": 1, "a": [2, None]}, none_is_leaf=False) == {"b": ("m", 1), "a": [("m", 2), None]}
    assert K.map_structure(m, None, none_is_leaf=False) is None
    assert K.map_structure(m, P(1, [2])) == P(("m", 1), [("m", 2)])
    dd = K.map_structure(str, DD(list, {"b": 1, "a": 2}))
    assert type(dd) is DD and dd.default_factory is list and list(dd.items()) == [("b", "1"), ("a", "2")]
    assert K.map_structure(str, DQ([1, 2], maxlen=3)) == DQ(["1", "2"], maxlen=3)
    st = K.map_structure(str, time.gmtime(0))
    assert type(st) is time.struct_time and st.tm_year == "1970"
    assert K.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]) == [11, (22, 33)]
    r = K.map_structure(pair, {"a": 1, "b": 2}, OD([("b", 3), ("a", 4)]))
    assert type(r) is dict and list(r.items()) == [("a", (1, 4)), ("b", (2, 3))]
    r = K.map_structure(pair, OD([("b", 3), ("a", 4)]), {"a": 1, "b": 2})
    assert type(r) is OD and list(r.items()) == [("b", (3, 2)), ("a", (4, 1))]
    assert K.map_structure(pair, [None, 1], [2, None]) == [(None, 2), (1, None)]
    assert K.map_structure(pair, [None, 1], [None, 3], none_is_leaf=False) == [None, (1, 3)]


@pytest.mark.parametrize("a, b, kwargs, message", [
    # TF 2.21 (optree's messages; the walk goes right to left)
    ([1, (2, 3)], [10, [20, 30]], {}, "Expected an instance of tuple, got [20, 30]."),
    ([1, 2], [1, 2, 3], {}, "list arity mismatch; expected: 2, got: 3; list: [1, 2, 3]."),
    ([1, 2], [[1], 2], {}, "Structures don't have the same nested structure."),
    ([[1], 2], [1, 2], {}, "Expected an instance of list, got 1."),
    ({"a": 1}, {"b": 1}, {}, "dictionary key mismatch; expected key(s): ['a'], got key(s): ['b'], missing key(s): "
                             "['a'], extra key(s): ['b']; dict: {'b': 1}."),
    (P(1, 2), Q(3, 4), {}, "namedtuple type mismatch; expected type: <class 'test_keras_tree.P'>, got type: "
                           "<class 'test_keras_tree.P'>; tuple: P(x=3, y=4)."),
    (P(1, 2), (3, 4), {}, "Expected an instance of collections.namedtuple, got (3, 4)."),
    ([None, 1], [2, None], {"none_is_leaf": False}, "Expected None, got 2."),
    (DQ([1, 2]), [1, 2], {}, "Expected an instance of collections.deque, got [1, 2]."),
    (DQ([1, 2]), DQ([1]), {}, "deque arity mismatch; expected: 2, got: 1; deque: deque([1])."),
    (OD(b=1, a=2), OD(c=1, a=2), {}, "dictionary key mismatch; expected key(s): ['b', 'a'], got key(s): ['a', 'c'], "
                                     "missing key(s): ['b'], extra key(s): ['c']; OrderedDict: "
                                     "OrderedDict([('c', 1), ('a', 2)])."),
    (DD(int, b=1, a=2), {"a": 1, "z": 3, "y": 4}, {},
     "dictionary key mismatch; expected key(s): ['a', 'b'], got key(s): ['a', 'y', 'z'], missing key(s): ['b'], "
     "extra key(s): ['y', 'z']; defaultdict: {'a': 1, 'z': 3, 'y': 4}."),
    ({"a": 1}, [1], {}, "Expected an instance of dict, collections.OrderedDict, or collections.defaultdict, got [1]."),
    ((1, 2), (1, 2, 3), {}, "tuple arity mismatch; expected: 2, got: 3; tuple: (1, 2, 3)."),
    (time.gmtime(0), tuple(range(9)), {},
     "Expected an instance of PyStructSequence type, got (0, 1, 2, 3, 4, 5, 6, 7, 8)."),
    ([[1], (2,)], [(1,), [2]], {}, "Expected an instance of tuple, got [2]."),
])
def test_map_structure_mismatch(a, b, kwargs, message):
    with pytest.raises(ValueError) as e:
        K.map_structure(pair, a, b, **kwargs)
    assert str(e.value) == message.replace("test_keras_tree.P", f"{__name__}.P")


def test_map_structure_argument_errors():
    with pytest.raises(ValueError, match="Must provide at least one structure"):
        K.map_structure(lambda: 1)
    with pytest.raises(TypeError, match="'int' object is not callable"):
        K.map_structure(3, [1])
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        K.map_structure(lambda a: a, [1], foo=1)
    # structure errors come before any call of func
    calls = []
    with pytest.raises(ValueError, match="Expected an instance of list, got 5."):
        K.map_structure(lambda a, b: calls.append(a), [1, [2], 3], [4, 5, 6])
    assert calls == []


def test_map_structure_up_to():
    # TF 2.21 (Keras rejects None leaves in the shallow structure)
    with pytest.raises(ValueError, match="Structures don't have the same nested structure."):
        K.map_structure_up_to([None, None], len, [[1, 1], [2, 2]])
    assert K.map_structure_up_to([1, [2, 3]], pair, [[1, 1], [2, 2]], [3, [4, 5]]) == [
        ([1, 1], 3), [(2, 4), (2, 5)]]
    assert K.map_structure_up_to({"a": 1, "b": 2}, str, {"b": [1], "a": (2,)}) == {"a": "(2,)", "b": "[1]"}
    assert K.map_structure_up_to(1, str, [1, 2]) == "[1, 2]"
    with pytest.raises(ValueError, match="Expected an instance of list, got 2."):
        K.map_structure_up_to([1, [2, 3]], str, [1, 2])
    with pytest.raises(ValueError, match="Must provide at least one structure"):
        K.map_structure_up_to([1], str)


def test_assert_same_structure():
    assert K.assert_same_structure([1, (2,)], [3, (4,)]) is None
    assert K.assert_same_structure({"a": 1}, OD(a=2)) is None
    assert K.assert_same_structure({"a": 1}, DD(int, a=2)) is None
    assert K.assert_same_structure([None], [1]) is None
    assert K.assert_same_structure("a", 1) is None
    with pytest.raises(ValueError, match=r"^Expected an instance of list, got \(3, 4\).$"):
        K.assert_same_structure([1, 2], (3, 4))
    with pytest.raises(ValueError, match="^Structures don't have the same nested structure.$"):
        K.assert_same_structure(1, [1])
    with pytest.raises(ValueError, match="^Structures don't have the same nested structure.$"):
        K.assert_same_structure([1, 2], [[3], 4])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        K.assert_same_structure([1], [2], check_types=True)
        K.assert_same_structure([1], [2], check_types=False)
    assert [(x.category, str(x.message)) for x in w] == [
        (DeprecationWarning, "The `check_types` argument is deprecated and no longer has any effect, please "
                             "remove."),
        (DeprecationWarning, "The `check_types` argument is deprecated and no longer has any effect. For a looser "
                             "check, use `keras.tree.assert_same_paths()`, which considers `list`, `tuple`, "
                             "`namedtuple` and `deque` as matching")]


def test_assert_same_paths():
    assert K.assert_same_paths([0, 1], (2, 3)) is None
    assert K.assert_same_paths(P(0, 1), Q(2, 3)) is None
    with pytest.raises(ValueError) as e:
        K.assert_same_paths({"a": 1}, {"b": 2, "a": 1})
    # TF 2.21
    assert str(e.value) == "`a` and `b` don't have the same paths.\nPaths in `b` missing in `a`:\n{('b',)}"
    with pytest.raises(ValueError) as e:
        K.assert_same_paths([0, [1]], (2, 3, 4))
    text = str(e.value)
    assert text.startswith("`a` and `b` don't have the same paths.\nPaths in `a` missing in `b`:\n{(1, 0)}\n"
                           "Paths in `b` missing in `a`:\n")
    assert text.endswith(str({(1,), (2,)}))


def test_pack_sequence_as():
    # TF 2.21
    out = K.pack_sequence_as({"key3": "", "key1": "", "key2": ""}, ["v1", "v2", "v3"])
    assert list(out.items()) == [("key3", "v3"), ("key1", "v1"), ("key2", "v2")]
    assert K.pack_sequence_as((("a", "b"), ("c", "d", "e"), "f"), [1, 2, 3, 4, 5, 6]) == ((1, 2), (3, 4, 5), 6)
    assert K.pack_sequence_as(1, [5]) == 5
    assert K.pack_sequence_as([1, 2], (5, 6)) == [5, 6] and K.pack_sequence_as([1, 2], "ab") == ["a", "b"]
    assert K.pack_sequence_as([1, [2]], (i for i in range(2))) == [0, [1]]
    assert K.pack_sequence_as(P(1, 2), [3, 4]) == P(3, 4)
    assert K.pack_sequence_as(DQ([1, 2], maxlen=5), [3, 4]) == DQ([3, 4], maxlen=5)
    with pytest.raises(ValueError, match=r"^Too few leaves for PyTreeSpec; expected: 3, got: 2\.$"):
        K.pack_sequence_as([1, [2, 3]], [1, 2])
    with pytest.raises(ValueError, match=r"^Too many leaves for PyTreeSpec; expected: 3\.$"):
        K.pack_sequence_as([1, [2, 3]], [1, 2, 3, 4])
    with pytest.raises(ValueError, match=r"^Too many leaves for PyTreeSpec; expected: 1\.$"):
        K.pack_sequence_as(1, [5, 6])
    with pytest.raises(TypeError) as e:
        K.pack_sequence_as({"x": DD(list, b=1, a=2), "y": DQ([1], maxlen=2), "z": DQ(), "w": OD()}, 3)
    assert str(e.value) == (
        "unflatten(): incompatible function arguments. The following argument types are supported:\n"
        "    1. (self: optree.PyTreeSpec, leaves: collections.abc.Iterable, /) -> object\n\nInvoked with: "
        "PyTreeSpec({'w': OrderedDict(), 'x': defaultdict(<class 'list'>, {'a': *, 'b': *}), 'y': deque([*], "
        "maxlen=2), 'z': deque()}, NoneIsLeaf), 3")
    with pytest.raises(TypeError) as e:
        K.pack_sequence_as([P(1, 2), time.gmtime(0), (1,), (), OD(b=1, a=(2,))], 3)
    assert str(e.value).endswith(
        "Invoked with: PyTreeSpec([P(x=*, y=*), time.struct_time(tm_year=*, tm_mon=*, tm_mday=*, tm_hour=*, "
        "tm_min=*, tm_sec=*, tm_wday=*, tm_yday=*, tm_isdst=*), (*,), (), OrderedDict({'b': *, 'a': (*,)})], "
        "NoneIsLeaf), 3")


def test_traverse():
    v = []
    # TF 2.21 (Keras's docstring example)
    assert K.traverse(v.append, [(1, 2), [3], {"a": 4}], top_down=True) == [(1, 2), [3], {"a": 4}]
    assert v == [[(1, 2), [3], {"a": 4}], (1, 2), 1, 2, [3], 3, {"a": 4}, 4]
    v = []
    K.traverse(v.append, [(1, 2), [3], {"a": 4}], top_down=False)
    assert v == [1, 2, (1, 2), 3, [3], 4, {"a": 4}, [(1, 2), [3], {"a": 4}]]
    assert K.traverse(lambda x: "X" if isinstance(x, tuple) else None, [(1, 2), [3], {"a": 4}]) == [
        "X", [3], {"a": 4}]
    assert K.traverse(lambda x: K.MAP_TO_NONE if isinstance(x, tuple) else None, [(1, 2), [3]]) == [None, [3]]
    assert K.traverse(lambda x: len(x) if isinstance(x, list) else None, [(1, 2), [3, 4]], top_down=False) == 2
    assert K.traverse(lambda x: K.MAP_TO_NONE if x == 1 else None, [1, (1, 3)], top_down=False) == [None, (None, 3)]
    assert K.traverse(lambda x: 0 if x == 2 else None, [1, 2, [2]]) == [1, 0, [0]]
    with pytest.raises(TypeError, match="'int' object is not callable"):
        K.traverse(3, [1])


def test_lists_to_tuples_and_shapes():
    # TF 2.21
    assert K.lists_to_tuples([1, [2, [3]], {"a": [4]}, (5, [6])]) == (1, (2, (3,)), {"a": (4,)}, (5, (6,)))
    assert K.lists_to_tuples(OD(b=[1], a=[2])) == OD(b=(1,), a=(2,))
    assert K.map_shape_structure(lambda s: ("s", s), [(None, 3), [1, 2], ((2,), (None, None))]) == [
        ("s", (None, 3)), ("s", [1, 2]), (("s", (2,)), ("s", (None, None)))]
    assert K.map_shape_structure(str, [[None], {"a": (1, None)}, (2.0, 1), ()]) == [
        "[None]", {"a": "(1, None)"}, ("2.0", "1"), "()"]
    assert K.map_shape_structure(lambda s: s, [(True, 3)]) == [(True, 3)]
    with pytest.raises(TypeError, match="object of type 'NoneType' has no len()"):
        K.map_shape_structure(len, {"a": (None, 3), "e": None})


def test_tracked_containers():
    class M(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.items = [1, [2, 3]]

    tracked = M().items
    # TF 2.21: Keras's TrackedList is a node and is rebuilt as one; a plain list does not match it
    assert K.flatten_with_path(tracked) == [((0,), 1), ((1, 0), 2), ((1, 1), 3)]
    out = K.map_structure(str, tracked)
    assert type(out) is type(tracked) and out == ["1", ["2", "3"]]
    out.append(4)
    with pytest.raises(ValueError, match="^Custom node type mismatch; expected type: <class '.*TrackedList'>, got "
                                         r"type: <class 'list'>; value: \[1, \[2, 3\]\].$"):
        K.assert_same_structure(tracked, [1, [2, 3]])
