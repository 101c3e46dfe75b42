"""tf.nest: flatten/pack/map/compare as TF 2.21 does; expected values and messages recorded from TF 2.21."""
import collections
import re

import numpy as np
import pytest

import tfcompat as tf

nest = tf.nest
P = collections.namedtuple("P", "x y")


class Attrs:
    """An `attrs`-style class: nest walks `__attrs_attrs__` in declaration order."""

    class _Field:
        def __init__(self, name):
            self.name = name

    __attrs_attrs__ = (_Field("b"), _Field("a"))

    def __init__(self, b, a):
        self.b, self.a = b, a


class Custom:
    """An object implementing TF's `__tf_flatten__`/`__tf_unflatten__` protocol."""

    def __init__(self, meta, parts):
        self.meta, self.parts = meta, parts

    def __tf_flatten__(self):
        return self.meta, self.parts

    @classmethod
    def __tf_unflatten__(cls, meta, parts):
        return cls(meta, parts)


def entire(first, second, detail, s1, s2):
    return (f"The two structures don't have the same nested structure.\n\nFirst structure: {first}\n\nSecond "
            f"structure: {second}\n\nMore specifically: {detail}\nEntire first structure:\n{s1}\nEntire second "
            f"structure:\n{s2}")


def test_flatten_orders_dicts_by_sorted_key_and_keeps_leaves():
    assert nest.flatten({"b": 1, "a": [2, (3, 4)], "c": None}) == [2, 3, 4, 1, None]
    assert nest.flatten(5) == [5] and nest.flatten(None) == [None] and nest.flatten("ab") == ["ab"]
    assert nest.flatten(P(1, [2, 3])) == [1, 2, 3]
    assert nest.flatten(collections.OrderedDict([("b", 1), ("a", 2)])) == [2, 1]
    assert nest.flatten({1, 2}) == [{1, 2}]
    arr = np.array([1, 2])
    assert nest.flatten(arr)[0] is arr
    with pytest.raises(TypeError, match="'<' not supported between instances of 'str' and 'int'"):
        nest.flatten({1: "a", "b": 2})


def test_flatten_other_sequences_mapping_views_attrs_and_custom():
    d = {"b": 1, "a": 2}
    assert nest.flatten(d.keys()) == ["b", "a"]              # views keep insertion order
    assert nest.flatten(d.values()) == [1, 2]
    assert nest.flatten(d.items()) == ["b", 1, "a", 2]
    assert nest.flatten(range(3)) == [0, 1, 2]
    assert nest.flatten(bytearray(b"ab")) == [97, 98]
    assert nest.flatten(Attrs(1, [2, 3])) == [1, 2, 3]
    assert nest.flatten(Custom("m", (1, [2]))) == [1, 2]


def test_is_nested():
    values = ([], (), {}, "a", 1, None, P(1, 2), {1}, np.zeros(2), tf.constant([1, 2]), range(2),
              collections.deque([1]), memoryview(b"ab"), tf.ragged.constant([[1]]))
    assert [nest.is_nested(x) for x in values] == [True, True, True, False, False, False, True, False, False, False,
                                                   True, True, True, False]


def test_pack_sequence_as_rebuilds_each_container_type():
    assert nest.pack_sequence_as({"b": 0, "a": [0, 0]}, [1, 2, 3]) == {"b": 3, "a": [1, 2]}
    assert list(nest.pack_sequence_as({"b": 0, "a": [0, 0]}, [1, 2, 3])) == ["b", "a"]    # insertion order kept
    od = nest.pack_sequence_as(collections.OrderedDict([("b", 0), ("a", 0)]), [1, 2])
    assert type(od) is collections.OrderedDict and list(od.items()) == [("b", 2), ("a", 1)]
    dd = nest.pack_sequence_as(collections.defaultdict(list, {"b": 0, "a": 0}), [1, 2])
    assert dd.default_factory is list and dict(dd) == {"b": 2, "a": 1}
    assert nest.pack_sequence_as(P(0, (0, 0)), [1, 2, 3]) == P(1, (2, 3))
    assert nest.pack_sequence_as(0, [7]) == 7 and nest.pack_sequence_as([], []) == []
    assert nest.pack_sequence_as({"b": 1, "a": 2}.values(), [5, 6]) == [5, 6]
    assert nest.pack_sequence_as(range(2), ["a", "b"]) == ["a", "b"]
    assert nest.pack_sequence_as(collections.deque([1, 2]), [3, 4]) == collections.deque([3, 4])
    assert nest.pack_sequence_as([0, 0], (1, 2)) == [1, 2]
    a = nest.pack_sequence_as(Attrs(0, [0, 0]), [7, 8, 9])
    assert type(a) is Attrs and (a.b, a.a) == (7, [8, 9])
    c = nest.pack_sequence_as(Custom("m", (0, [0])), [5, 6])
    assert (c.meta, c.parts) == ("m", (5, [6]))


def test_pack_sequence_as_errors():
    with pytest.raises(ValueError) as e:
        nest.pack_sequence_as(0, [7, 8])
    assert str(e.value) == ("The target structure is of type `<class 'int'>`\n  0\nHowever the input is a sequence "
                            "(<class 'list'>) of length 2.\n  [7, 8]\nnest cannot guarantee that it is safe to map "
                            "one to the other.")
    with pytest.raises(ValueError) as e:
        nest.pack_sequence_as(0, list(range(60)))
    assert "  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 2...\n" \
        in str(e.value)
    with pytest.raises(ValueError) as e:
        nest.pack_sequence_as([0, 0, 0], [1, 2])
    assert str(e.value) == ("Could not pack sequence. Structure had 3 atoms, but flat_sequence had 2 items.  "
                            "Structure: [0, 0, 0], flat_sequence: [1, 2].")
    with pytest.raises(ValueError, match="^Could not pack sequence. Structure had 2 atoms, but flat_sequence had 3 "):
        nest.pack_sequence_as([0, 0], [1, 2, 3])
    with pytest.raises(TypeError) as e:
        nest.pack_sequence_as([0, 0], 5)
    assert str(e.value) == ("Attempted to pack value:\n  5\ninto a structure, but found incompatible type "
                            "`<class 'int'>` instead.")
    with pytest.raises(TypeError, match="^Attempted to pack value:\n  abc\ninto a structure, but found incompatible "
                                        "type `<class 'str'>` instead.$"):
        nest.pack_sequence_as([0, 0], "abc")
    with pytest.raises(TypeError, match="found incompatible type `<class 'generator'>` instead"):
        nest.pack_sequence_as([1], (i for i in [1]))


def test_map_structure():
    assert nest.map_structure(lambda a, b: a + b, {"a": 1, "b": (2, 3)}, {"a": 10, "b": (20, 30)}) == \
        {"a": 11, "b": (22, 33)}
    assert nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2), check_types=False) == [2, 4]
    assert nest.map_structure(lambda a, b: a, (1, 2), [3, 4], check_types=False) == (1, 2)
    with pytest.raises(ValueError, match="^Must provide at least one structure$"):
        nest.map_structure(lambda a: a)
    with pytest.raises(ValueError, match="^Only valid keyword arguments are `check_types` and `expand_composites`, "
                                         "not: `foo`, `bar`$"):
        nest.map_structure(lambda a: a, [1], foo=1, bar=2)
    with pytest.raises(TypeError, match="^func must be callable, got: 3$"):
        nest.map_structure(3, [1])
    with pytest.raises(TypeError) as e:
        nest.map_structure(lambda a, b: a + b, [1, 2], (1, 2))
    assert str(e.value) == entire(
        "type=list str=[1, 2]", "type=tuple str=(1, 2)",
        "The two namedtuples don't have the same sequence type. First structure type=list str=[1, 2] has type list, "
        "while second structure type=tuple str=(1, 2) has type tuple", "[., .]", "(., .)")


def test_assert_same_structure_passes():
    nest.assert_same_structure([1, (2, {"a": 3})], ["x", ("y", {"a": "z"})])
    nest.assert_same_structure(1.5, np.array([1, 2]))
    nest.assert_same_structure({"a": 1}, collections.OrderedDict(a=1))
    nest.assert_same_structure({"a": 1}, collections.defaultdict(int, a=1))
    nest.assert_same_structure(P(1, 2), collections.namedtuple("P", "x y")(1, 2))    # same name and fields
    nest.assert_same_structure([1], type("L", (list,), {})([1]))                    # list subclasses match lists
    nest.assert_same_structure(P(1, 2), collections.namedtuple("Q", "x y")(1, 2), check_types=False)
    nest.assert_same_structure({"a": 1}, [1], check_types=False)
    nest.assert_same_structure({"a": 1}, {"b": 1}, check_types=False)             # keys only with check_types
    nest.assert_same_structure([1, [2]], (1, (2,)), check_types=False)


def test_assert_same_structure_messages():
    with pytest.raises(ValueError) as e:
        nest.assert_same_structure({"a": [1, 2], "b": 0}, {"a": [1, 2, 3], "b": 0})
    assert str(e.value) == entire(
        "type=dict str={'a': [1, 2], 'b': 0}", "type=dict str={'a': [1, 2, 3], 'b': 0}",
        "The two structures don't have the same number of elements. First structure: type=list str=[1, 2]. Second "
        "structure: type=list str=[1, 2, 3]", "{'a': [., .], 'b': .}", "{'a': [., ., .], 'b': .}")
    with pytest.raises(ValueError) as e:
        nest.assert_same_structure([1, [2]], [1, 2])
    assert str(e.value) == entire(
        "type=list str=[1, [2]]", "type=list str=[1, 2]",
        'Substructure "type=list str=[2]" is a sequence, while substructure "type=int str=2" is not',
        "[., [.]]", "[., .]")
    with pytest.raises(ValueError, match='Substructure "type=list str=\\[1\\]" is a sequence, while substructure '
                                         '"type=int str=1" is not\nEntire first structure:\n.\n'):
        nest.assert_same_structure(1, [1])
    with pytest.raises(TypeError) as e:                  # the type differs before the length does
        nest.assert_same_structure([1, 2], (1, 2, 3))
    assert "More specifically: The two namedtuples don't have the same sequence type. First structure type=list " \
        "str=[1, 2] has type list, while second structure type=tuple str=(1, 2, 3) has type tuple\n" in str(e.value)
    with pytest.raises(TypeError, match="First structure type=P str=P\\(x=1, y=2\\) has type P, while second "
                                        "structure type=Q str=Q\\(x=1, y=2\\) has type Q\nEntire first structure:\n"
                                        "P\\(x=., y=.\\)\nEntire second structure:\nQ\\(x=., y=.\\)$"):
        nest.assert_same_structure(P(1, 2), collections.namedtuple("Q", "x y")(1, 2))
    with pytest.raises(TypeError, match="has type tuple, while second structure type=T str=\\(1,\\) has type T"):
        nest.assert_same_structure((1,), type("T", (tuple,), {})((1,)))
    with pytest.raises(ValueError) as e:
        nest.assert_same_structure({"b": 1, "a": 2}, {"c": 1, "a": 2})
    assert "More specifically: The two dictionaries don't have the same set of keys. First structure has keys " \
        "type=list str=['b', 'a'], while second structure has keys type=list str=['c', 'a']\n" in str(e.value)
    with pytest.raises(ValueError, match="The two dictionaries don't have the same set of keys"):
        nest.assert_same_structure({"a": 1}, {"b": 1, "c": 2})
    with pytest.raises(ValueError, match="More specifically: The two structures don't have the same number of "
                                         "elements. First structure: type=dict str={'a': 1}. Second structure: "
                                         "type=dict str={'b': 1, 'c': 2}\n"):
        nest.assert_same_structure({"a": 1}, {"b": 1, "c": 2}, check_types=False)
    with pytest.raises(ValueError, match="First structure: type=EagerTensor str=tf.Tensor\\(1, shape=\\(\\), "
                                         "dtype=int32\\)\n"):
        nest.assert_same_structure(tf.constant(1), [1])


SPARSE = "SparseTensor(indices=tf.Tensor([[0]], shape=(1, 1), dtype=int64), values=tf.Tensor([1], shape=(1,), " \
         "dtype=int32), dense_shape=tf.Tensor([5], shape=(1,), dtype=int64))"
SPARSE_F = SPARSE.replace("tf.Tensor([1], shape=(1,), dtype=int32)", "tf.Tensor([1.], shape=(1,), dtype=float32)")


def values(tensors):
    return [t.numpy().tolist() for t in tensors]


def test_expand_composites_flattens_into_component_tensors():
    st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
    assert nest.flatten(st) == [st] and not nest.is_nested(st)
    flat = nest.flatten([st, 1], expand_composites=True)
    assert values(flat[:3]) == [[[0, 0], [1, 2]], [1.0, 2.0], [3, 4]] and flat[3] == 1
    assert [t.dtype for t in flat[:3]] == [tf.int64, tf.float32, tf.int64]
    rt = tf.ragged.constant([[1, 2], [3]])
    flat = nest.flatten(rt, expand_composites=True)
    assert values(flat) == [[1, 2, 3], [0, 2, 3]] and [t.dtype for t in flat] == [tf.int32, tf.int64]
    assert values(nest.flatten(tf.ragged.constant([[[1], [2, 3]], [[4]]]), expand_composites=True)) == \
        [[1, 2, 3, 4], [0, 2, 3], [0, 1, 3, 4]]
    flat = nest.flatten({"r": tf.ragged.constant([[1], []]), "x": 1}, expand_composites=True)
    assert values(flat[:2]) == [[1], [0, 1, 1]] and flat[2] == 1
    assert values(nest.flatten(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0]), tf.constant([3])),
                               expand_composites=True)) == [[1.0], [0], [3]]
    assert values(nest.flatten(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])), expand_composites=True)) == \
        [[1.0], [0]]
    t = tf.constant([1, 2])
    assert nest.flatten(t, expand_composites=True)[0] is t


def test_expand_composites_pack_and_map():
    rt = tf.ragged.constant([[1, 2], [3]])
    packed = nest.pack_sequence_as(rt, [tf.constant([7, 8, 9]), tf.constant([0, 1, 3], tf.int64)],
                                   expand_composites=True)
    assert packed.to_list() == [[7], [8, 9]]
    assert nest.map_structure(lambda t: t * 2, rt, expand_composites=True).to_list() == [[2, 4, 6], []]
    two = nest.map_structure(lambda a, b: a + b, tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[10, 20], [30]]),
                             expand_composites=True)
    assert two.to_list() == [[11, 22, 33], []]
    sp = tf.SparseTensor([[0]], [1], [5])
    packed = nest.pack_sequence_as(sp, [tf.constant([[3]], tf.int64), tf.constant([9]), tf.constant([5], tf.int64)],
                                   expand_composites=True)
    assert values([packed.indices, packed.values, packed.dense_shape]) == [[[3]], [9], [5]]
    cast = nest.map_structure(lambda t: tf.cast(t, tf.float32) if t.dtype == tf.int32 else t, sp,
                              expand_composites=True)
    assert cast.dtype == tf.float32 and cast.values.numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match=r"^Shapes \(2, 2\) and \(3, 4\) are not compatible$"):
        nest.pack_sequence_as([tf.SparseTensor([[0, 0]], [1.0], [3, 4])],
                              [tf.constant([[0, 1]], tf.int64), tf.constant([5.0]), tf.constant([2, 2], tf.int64)],
                              expand_composites=True)
    with pytest.raises(ValueError, match="^Could not pack sequence. Structure had 2 atoms, but flat_sequence had 1 "
                                         "items."):
        nest.pack_sequence_as(tf.ragged.constant([[1], []]), [tf.constant([5])], expand_composites=True)


def test_expand_composites_compares_type_specs():
    nest.assert_same_structure(tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[10, 20], [30], []]),
                               expand_composites=True)
    nest.assert_same_structure(tf.SparseTensor([[0, 0]], [1], [3, 4]), tf.SparseTensor([[0, 0]], [1], [3, 5]),
                               expand_composites=True)
    nest.assert_same_structure(tf.SparseTensor([[0]], [1], [5]), tf.ragged.constant([[1]]))   # leaves without it
    with pytest.raises(ValueError) as e:
        nest.assert_same_structure(tf.SparseTensor([[0]], [1], [5]), tf.SparseTensor([[0]], [1.0], [5]),
                                   expand_composites=True)
    assert str(e.value) == entire(
        f"type=SparseTensor str={SPARSE}", f"type=SparseTensor str={SPARSE_F}",
        "Incompatible CompositeTensor TypeSpecs: type=SparseTensorSpec str=SparseTensorSpec(TensorShape([5]), "
        "tf.int32) vs. type=SparseTensorSpec str=SparseTensorSpec(TensorShape([5]), tf.float32)", ".", ".")
    with pytest.raises(ValueError, match=r"More specifically: Incompatible CompositeTensor TypeSpecs: "
                                         r"type=RaggedTensorSpec str=RaggedTensorSpec\(TensorShape\(\[2, None\]\), "
                                         r"tf.int32, 1, tf.int64\) vs. type=RaggedTensorSpec str=RaggedTensorSpec\("
                                         r"TensorShape\(\[2, None, None\]\), tf.int32, 2, tf.int64\)\n"):
        nest.assert_same_structure(tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[[1], [2, 3]], [[4]]]),
                                   expand_composites=True)
    with pytest.raises(ValueError, match=r"TypeSpecs: type=SparseTensorSpec str=SparseTensorSpec\(TensorShape\("
                                         r"\[3, 4\]\), tf.float32\) vs. type=RaggedTensorSpec"):
        nest.assert_same_structure(tf.SparseTensor([[0, 0]], [1.0], [3, 4]), tf.ragged.constant([[1, 2], [3]]),
                                   expand_composites=True)
    with pytest.raises(ValueError, match=re.escape(f'Substructure "type=SparseTensor str={SPARSE}" is a sequence, '
                                                   f'while substructure "type=int str=1" is not')):
        nest.assert_same_structure(tf.SparseTensor([[0]], [1], [5]), 1, expand_composites=True)
    with pytest.raises(TypeError, match="has type RaggedTensor, while second structure type=list str=\\[1, 2\\] has "
                                        "type list\nEntire first structure:\n.\nEntire second structure:\n\\[., .\\]$"):
        nest.assert_same_structure(tf.ragged.constant([[1], [2, 3]]), [1, 2], expand_composites=True)


def test_tf_nest_has_only_tf_names():
    assert not hasattr(tf.nest, "map_structure_up_to") and not hasattr(tf.nest, "flatten_with_joined_string_paths")
