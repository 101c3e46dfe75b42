"""tf.test: TestCase's assertions (passing and failing, with TF 2.21's failure texts), evaluate and sessions, main's
output and exit status, compute_gradient, Benchmark and the build queries. Golden texts and values: TF 2.21."""
import collections
import io
import os
import re
import subprocess
import sys
import textwrap
import unittest

import numpy as np
import pytest

import tfcompat as tf
from conftest import REPO


class _Case(tf.test.TestCase):
    __test__ = False        # a fixture for the tests below, not collected by pytest

    def runTest(self):  # noqa: N802
        pass


@pytest.fixture(autouse=True)
def _restore_random_state():
    """TestCase.setUp seeds Python, NumPy and tf.random, and its constructor turns traceback filtering off (as TF):
    the other tests of the process get their state back."""
    import random

    from tfcompat.ops.random_ops import _Seeds
    saved = (random.getstate(), np.random.get_state(), _Seeds.global_seed, _Seeds.streams, _Seeds.generator)
    filtering = tf.debugging.is_traceback_filtering_enabled()
    yield
    random.setstate(saved[0])
    np.random.set_state(saved[1])
    _Seeds.global_seed, _Seeds.streams, _Seeds.generator = saved[2:]
    (tf.debugging.enable_traceback_filtering if filtering else tf.debugging.disable_traceback_filtering)()


@pytest.fixture
def t():
    case = _Case()
    case.setUp()
    yield case
    case.tearDown()


def _message(fn):
    with pytest.raises(AssertionError) as info:
        fn()
    return str(info.value)


# -- assertAllClose -----------------------------------------------------------------------------------------------------
def test_all_close_passes_within_default_tolerances(t):
    t.assertAllClose([1.0, 2.0], tf.constant([1.0, 2.0000001]))
    t.assertAllClose([np.nan], [np.nan])
    t.assertAllClose(tf.Variable([1.0, 2.0]), [1.0, 2.0])
    t.assertAllClose([1.0], [1.05], rtol=0.1, atol=0)
    t.assertAllClose({"a": (1.0, [2.0]), "b": {"c": 3}}, {"a": (1.0, [2.0]), "b": {"c": 3.0}})


def test_all_close_failure_text(t):
    # TF 2.21
    assert _message(lambda: t.assertAllClose([1.0, 2.0, 3.0], tf.constant([1.0, 2.5, 3.0]))) == textwrap.dedent("""
        Not equal to tolerance rtol=1e-06, atol=1e-06
        Mismatched value: a is different from b. 
        not close where = (array([1]),)
        not close lhs = [2.]
        not close rhs = [2.5]
        not close dif = [0.5]
        not close tol = [3.4999998e-06]
        dtype = float64, shape = (3,)
        Mismatched elements: 1 / 3 (33.3%)
        Mismatch at index:
         [1]: 2.0 (ACTUAL), 2.5 (DESIRED)
        Max absolute difference among violations: 0.5
        Max relative difference among violations: 0.2
         ACTUAL: array([1., 2., 3.])
         DESIRED: array([1. , 2.5, 3. ], dtype=float32)""")  # noqa: W291
    scalar = _message(lambda: t.assertAllClose(1.0, 1.1, msg="hello"))
    assert "Mismatched value: a is different from b. hello\nnot close lhs = 1.0\nnot close rhs = 1.1\n" in scalar
    assert "not close tol = 2.1000000000000002e-06\ndtype = float64, shape = ()" in scalar


def test_all_close_paths_through_structures(t):
    # TF 2.21: the path of the mismatching leaf, dict keys and namedtuple fields by name, list items by index
    assert "Mismatched value: a[b] is different from b[b]. " in _message(
        lambda: t.assertAllClose({"a": 1.0, "b": [2.0]}, {"a": 1.0, "b": [2.5]}))
    assert "Mismatched value: a[0][1] is different from b[0][1]. " in _message(
        lambda: t.assertAllClose([(1.0, [2.0, 3.0]), 4.0], [(1.0, [2.0, 3.5]), 4.0]))
    point = collections.namedtuple("P", "x y")
    assert "Mismatched value: a[y] is different from b[y]. " in _message(
        lambda: t.assertAllClose(point(1.0, 2.0), point(1.0, 2.1)))
    keys = _message(lambda: t.assertAllClose({"a": 1.0}, {"b": 1.0}))
    assert keys.endswith(" : mismatched keys: a has keys dict_keys(['a']), but b has keys dict_keys(['b']). ")
    with pytest.raises(ValueError, match=r"^Can't compare dict to non-dict, a vs b. $"):
        t.assertAllClose({"a": 1.0}, [1.0])
    assert _message(lambda: t.assertAllClose([1.0, 2.0], [1.0, 2.0, 3.0])).endswith(
        " : Shape mismatch: expected (2,), got (3,) with contents [1. 2. 3.].")


def test_all_close_nan_and_half_precision(t):
    nan = _message(lambda: t.assertAllClose([np.nan, 1.0], [1.0, 1.0]))
    assert "dtype = float64, shape = (2,)\nnan location mismatch:" in nan
    f16 = _message(lambda: t.assertAllClose(np.float16([1.0]), np.float16([1.001])))
    assert "not close dif = [0.000977]\nnot close tol = [2.e-06]\ndtype = float16, shape = (1,)" in f16
    # TF 2.21 names bfloat16 in the summary and compares the float32 values
    bf16 = _message(lambda: t.assertAllClose(tf.constant([1.0], tf.bfloat16), tf.constant([1.01], tf.bfloat16)))
    assert "not close rhs = [1.0078125]" in bf16 and "dtype = bfloat16, shape = (1,)" in bf16
    t.assertAllClose(tf.constant([1.0], tf.bfloat16), [1.0])


def test_all_close_according_to_type(t):
    t.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.0005]))
    t.assertAllCloseAccordingToType(tf.constant([1.0], tf.bfloat16), tf.constant([1.0078125], tf.bfloat16))
    assert "Not equal to tolerance rtol=0.001, atol=0.001" in _message(
        lambda: t.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.01])))
    assert "Not equal to tolerance rtol=1e-06, atol=1e-06" in _message(
        lambda: t.assertAllCloseAccordingToType(np.float32([1.0]), np.float32([1.00001])))


def test_not_all_close_and_not_all_equal(t):
    t.assertNotAllClose([1.0], [2.0])
    t.assertNotAllEqual([1], [2])
    assert _message(lambda: t.assertNotAllClose([1.0], [1.0], msg="m")) == "The two values are close at all elements. m"
    assert _message(lambda: t.assertNotAllEqual([1], [1], msg="m")) == "The two values are equal at all elements. m"


# -- assertAllEqual -----------------------------------------------------------------------------------------------------
def test_all_equal(t):
    t.assertAllEqual([[1, 2]], tf.constant([[1, 2]]))
    t.assertAllEqual(tf.constant(["a", "b"]), ["a", "b"])
    t.assertAllEqual([np.nan, 1.0], [np.nan, 1.0])
    # TF 2.21
    assert _message(lambda: t.assertAllEqual([[1, 2], [3, 4]], tf.constant([[1, 2], [3, 5]]))) == textwrap.dedent("""
        Arrays are not equal

        not equal where = (array([1]), array([1]))
        not equal lhs = array([4])
        not equal rhs = array([5], dtype=int32)
        Mismatched elements: 1 / 4 (25%)
        Mismatch at index:
         [1, 1]: 4 (ACTUAL), 5 (DESIRED)
        Max absolute difference among violations: 1
        Max relative difference among violations: 0.2
         ACTUAL: array([[1, 2],
               [3, 4]])
         DESIRED: array([[1, 2],
               [3, 5]], dtype=int32)""")
    strings = _message(lambda: t.assertAllEqual(tf.constant(["a", "b"]), ["a", "c"]))
    assert "not equal lhs = array([b'a', b'b'], dtype=object)\nnot equal rhs = array(['a', 'c'], dtype='<U1')" in strings
    assert " ACTUAL: array([b'a', b'b'], dtype='|S1')\n DESIRED: array([b'a', b'c'], dtype='|S1')" in strings
    assert _message(lambda: t.assertAllEqual([1, 2], [1, 2, 3])).endswith(
        " : Shape mismatch: expected (2,), got (3,). Contents: array([1, 2, 3]). \n.")
    assert "\nhi\nnot equal where = (array([0]),)" in _message(lambda: t.assertAllEqual([1], [2], msg="hi"))


def test_all_equal_ragged(t):
    t.assertAllEqual(tf.ragged.constant([[1], [2, 3]]), [[1], [2, 3]])
    with pytest.raises(AssertionError):
        t.assertAllEqual(tf.ragged.constant([[1], [2, 3]]), [[1], [2, 4]])


# -- comparisons, ranges, sets --------------------------------------------------------------------------------------
def test_comparisons(t):
    t.assertAllGreater([2, 3], 1)
    t.assertAllLessEqual(tf.constant([1.0, 2.0]), 2.0)
    # TF 2.21
    assert _message(lambda: t.assertAllGreater(tf.constant([2, 3]), 2)) == "np.int32(2) not greater than 2"
    assert _message(lambda: t.assertAllLess([2.0, 3.0], 3.0)) == "np.float64(3.0) not less than 3.0"
    assert _message(lambda: t.assertAllGreaterEqual([2, 3], 3)) == "np.int64(2) not greater than or equal to 3"
    assert _message(lambda: t.assertAllLessEqual([2, 3], 2)) == "np.int64(3) not less than or equal to 2"


def test_in_range_and_in_set(t):
    t.assertAllInRange([1, 2], 1, 2)
    t.assertAllInSet(tf.constant([1, 2]), {1, 2})
    # TF 2.21
    assert _message(lambda: t.assertAllInRange(tf.constant([[0.5, 1.0], [2.0, 3.0]]), 1.0, 2.0,
                                               open_upper_bound=True)) == (
        "3 of the 4 element(s) are outside the range [1.0, 2.0). Subscript(s) and value(s) of the offending "
        "elements:\n  [0 0] : 0.5\n  [1 0] : 2.0\n  [1 1] : 3.0")
    assert _message(lambda: t.assertAllInRange([np.nan, 1.0], 0, 2)) == (
        "1 of the 2 element(s) are NaN. Subscripts(s) and value(s) of the NaN element(s):\n  [0] : nan")
    assert _message(lambda: t.assertAllInRange(5, 0, 2)) == (
        "1 of the 1 element(s) are outside the range [0, 2]. Subscript(s) and value(s) of the offending "
        "elements:\n  [0] : 5")
    assert _message(lambda: t.assertAllInRange(["a"], 0, 2)) == (
        "The value of ['a'] does not have an ordered numeric type, instead it has type: <U1")
    assert _message(lambda: t.assertAllInSet([1, 2, 3, 3], [1, 2])) == (
        "1 unique element(s) are not in the set [1, 2]: [3]")


def test_near(t):
    t.assertNear(float("inf"), float("inf"), 0.1)
    t.assertArrayNear([1.0, 2.0], [1.0, 2.05], 0.1)
    t.assertNDArrayNear(np.array([1.0, 2.0]), np.array([1.0, 2.05]), 0.1)
    # TF 2.21
    assert _message(lambda: t.assertNear(1.0, 1.5, 0.1, msg="x")) == (
        "False is not true : 1.000000 != 1.500000 +/- 0.100000 (difference: 0.5) (x)")
    assert _message(lambda: t.assertArrayNear([1.0, 2.0], [1.0, 2.5], 0.1)) == (
        "False is not true : 2.000000 != 2.500000 +/- 0.100000 (difference: 0.5)")
    assert _message(lambda: t.assertArrayNear([1.0, 2.0], [1.0], 0.1)) == "2 != 1"
    assert _message(lambda: t.assertNDArrayNear(np.array([1.0]), np.array([1.5]), 0.1)) == "np.False_ is not true"


def test_shape_dtype_device(t):
    t.assertShapeEqual(np.zeros((2, 3)), tf.zeros((2, 3)))
    t.assertDTypeEqual(tf.constant([1.0]), tf.float32)
    t.assertDTypeEqual(np.array([1]), "int64")
    t.assertDeviceEqual("/cpu:0", "/device:CPU:0")
    assert "not equal lhs = array([2, 3])\nnot equal rhs = array([3, 2])" in _message(
        lambda: t.assertShapeEqual(np.zeros((2, 3)), tf.zeros((3, 2))))
    with pytest.raises(TypeError, match=re.escape("input_a must be a Numpy ndarray, Numpy scalar, or a Tensor."
                                                  "Instead received <class 'list'>")):
        t.assertShapeEqual([1], tf.zeros((3, 2)))
    assert _message(lambda: t.assertDTypeEqual(tf.constant([1.0]), np.int32)) == (
        "dtype('float32') != <class 'numpy.int32'>")
    assert _message(lambda: t.assertDeviceEqual("/cpu:0", "/gpu:0")) == (
        "Devices /device:CPU:0 and /device:GPU:0 are not equal. None:\n- /device:CPU:0\n?         ^\n"
        "+ /device:GPU:0\n?         ^\n")


def test_dict_equal_with_tensors(t):
    t.assertDictEqual({"a": tf.constant([1.0, 2.0])}, {"a": np.array([1.0, 2.0])})
    assert "Mismatched value: a is different from b. a\n" in _message(
        lambda: t.assertDictEqual({"a": tf.constant([1.0, 2.0])}, {"a": np.array([1.0, 3.0])}))
    assert "Arrays are not equal\na\nnot equal lhs = array(2)" in _message(
        lambda: t.assertDictContainsSubset({"a": 1}, {"a": 2}))


# -- absltest's assertions ----------------------------------------------------------------------------------------
def test_absl_assertions(t):
    t.assertLen([1, 2], 2)
    t.assertEmpty([])
    t.assertItemsEqual([1, 2], [2, 1])
    # TF 2.21 (absltest)
    assert _message(lambda: t.assertStartsWith("hello", "x", msg="m")) == "'hello' does not start with 'x' : 'm'"
    assert _message(lambda: t.assertLen([1, 2], 3)) == "[1, 2] has length of 2, expected 3."
    assert _message(lambda: t.assertEmpty([1])) == "[1] has length of 1."
    assert _message(lambda: t.assertNotEmpty([])) == "[] has length of 0."
    assert _message(lambda: t.assertBetween(5, 1, 3)) == (
        '3 not greater than or equal to 5 : "5" unexpectedly not between "1" and "3"')
    assert _message(lambda: t.assertSameElements([1, 2], [1, 3])) == (
        "Expected, but missing:\n  [2]\nUnexpected, but present:\n  [3]\n")
    assert _message(lambda: t.assertContainsSubset([1, 4], [1, 2, 3])) == (
        "Missing elements {4}\nExpected: [1, 4]\nActual: [1, 2, 3]")
    assert _message(lambda: t.assertNoCommonElements([1, 2], [2, 3])) == (
        "Common elements {2}\nExpected: [1, 2]\nActual: [2, 3]")
    assert _message(lambda: t.assertEndsWith("hello", "x")) == "'hello' does not end with 'x'"
    assert _message(lambda: t.assertNotStartsWith("hello", "he")) == "'hello' does start with 'he'"
    assert _message(lambda: t.assertContainsInOrder(["b", "a"], "a b")) == "Did not find 'a' after 'b' in 'a b'"
    assert _message(lambda: t.assertSequenceStartsWith([1, 2], [1, 3, 4])) == (
        "prefix: [1, 2] not found at start of whole: [1, 3, 4].")
    assert _message(lambda: t.assertRegexMatch("abc", ["x.*", "y"])) == (
        "\"abc\" does not contain any of these regexes: ['x.*', 'y'].")
    assert _message(lambda: t.assertCountEqual([1, 2], [1, 3])) == (
        "Element counts were not equal:\nFirst has 1, Second has 0:  2\nFirst has 0, Second has 1:  3")
    assert _message(lambda: t.assertEqual("a\nb", "a\nc")) == "\n  a\n- b\n+ c\n"


def test_more_absl_assertions(t):
    t.assertContainsSubsequence([0, 1, 0, 2], [1, 2])
    t.assertDictAlmostEqual({"a": 1.0}, {"a": 1.00000001})
    t.record_property("k", 1)
    assert t.get_recorded_properties() == {"k": 1} and t.tempfile_cleanup.name == "ALWAYS"
    # TF 2.21 (absltest)
    assert _message(lambda: t.assertContainsSubsequence([1, 2, 3], [1, 3, 4])) == (
        "[1, 3, 4] not a subsequence of [1, 2, 3]. First non-matching element: 4")
    assert _message(lambda: t.assertContainsExactSubsequence([0, 1, 0, 2], [1, 2])) == (
        "[1, 2] not an exact subsequence of [0, 1, 0, 2]. Longest matching prefix: [1]")
    assert _message(lambda: t.assertSequenceAlmostEqual([1.0, 2.0], [1.0, 2.1])) == (
        "At index 1: 2.0 != 2.1 within 7 places (0.10000000000000009 difference)")
    assert _message(lambda: t.assertIsSubclass(int, (str, float))) == (
        "<class 'int'> is not a subclass of any of (<class 'str'>, <class 'float'>)")
    assert _message(lambda: t.assertNotIsSubclass(bool, (str, int))) == "<class 'bool'> is a subclass of <class 'int'>"
    assert _message(lambda: t.assertMappingEqual({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 4})) == (
        "{'a': 1, 'b': 2} != {'a': 1, 'b': 3, 'c': 4}\nUnexpected, but present entries:\n'c': 4\n\n"
        "repr() of differing entries:\n'b': 2 != 3\n")
    assert _message(lambda: t.assertJsonEqual('{"a": [1, 2]}', '{"a": [1, 3]}')) == (
        "first['a'][1] is 2 but second['a'][1] is 3")


def test_ordering_url_and_dataclass_assertions(t):
    import dataclasses

    @dataclasses.dataclass
    class P:
        x: int
        y: str = "a"

    t.assertTotallyOrdered([1], [2, 2.0], [3])
    t.assertUrlEqual("http://a.com/p?x=1&y=2", "http://a.com/p?y=2&x=1")
    t.assertDataclassEqual(P(1), P(1))
    # TF 2.21 (absltest)
    assert _message(lambda: t.assertTotallyOrdered([2], [1])) == "2 not less than 1"
    assert _message(lambda: t.assertUrlEqual("http://a.com/p", "http://a.com/q")) == "\n- /p\n+ /q\n"
    assert _message(lambda: t.assertDataclassEqual(P(1, "a"), P(2, "b"), msg="m")).endswith(
        "Fields that differ:\nx: 1 != 2\ny: 'a' != 'b' : m")
    assert _message(lambda: t.assertDataclassEqual(1, P(1))) == "First argument 1 is not a dataclass instance."


def test_same_structure(t):
    t.assertSameStructure({"a": [1, 2]}, {"a": (1, 2)})
    # TF 2.21 (absltest)
    assert _message(lambda: t.assertSameStructure({"a": [1, 2], "b": 1}, {"a": [1, 3], "c": 2})) == (
        "a['a'][1] is 2 but b['a'][1] is 3; a has ['b'] with value 1 but it's missing in b; a lacks ['c'] but b has "
        "it with value 2")


def test_create_tempdir_and_tempfile(monkeypatch, tmp_path):
    monkeypatch.setenv("TEST_TMPDIR", str(tmp_path))
    made = []

    class Files(tf.test.TestCase):
        def test_files(self):
            d = self.create_tempdir()
            f = self.create_tempfile("sub/x.txt", content="hi")
            g = d.create_file("y.bin", b"\x00\x01")
            # TF 2.21 (under tf.test.main): <TEST_TMPDIR>/<Class>/<test method>/...
            base = os.path.join(str(tmp_path), "test_create_tempdir_and_tempfile.<locals>.Files", "test_files")
            assert os.path.dirname(d.full_path) == base and os.path.join(d, "q") == d.full_path + "/q"
            assert f.full_path == os.path.join(base, "sub", "x.txt") and f.read_text() == "hi"
            assert g.read_bytes() == b"\x00\x01"
            made.extend([d.full_path, f.full_path])

    result, out = _run(Files)
    assert result.wasSuccessful(), out
    assert made and not any(os.path.exists(p) for p in made)        # removed when the test ended


def test_raises_assertions(t):
    with t.assertRaisesOpError("Incompatible shapes"):
        tf.add(tf.ones([2]), tf.ones([3]))
    with t.assertRaisesIncompatibleShapesError():
        tf.add(tf.ones([2]), tf.ones([3]))
    with t.assertRaisesWithPredicateMatch(ValueError, lambda e: "x" in str(e)):
        raise ValueError("x")
    with t.assertRaisesWithLiteralMatch(ValueError, "abc"):
        raise ValueError("abc")

    def not_raised():
        with t.assertRaisesOpError("Incompatible"):
            pass
    # TF 2.21: the context's own failure is re-raised as a mismatching exception
    assert _message(not_raised) == "Exception of type <class 'AssertionError'>: OpError not raised"

    def wrong_type():
        with t.assertRaisesWithPredicateMatch(ValueError, "x"):
            raise TypeError("x")
    assert _message(wrong_type) == "Exception of type <class 'TypeError'>: x"

    def wrong_literal():
        with t.assertRaisesWithLiteralMatch(ValueError, "abc"):
            raise ValueError("abd")
    assert _message(wrong_literal) == (
        "Exception message does not match.\nExpected: 'abc'\nActual: 'abd':\n- abc\n+ abd\n")


def _example(values, f=0.5):
    return tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=values)),
        "f": tf.train.Feature(float_list=tf.train.FloatList(value=[f]))}))


def test_assertions_inside_tf_function_fail_as_py_func_errors(t):
    @tf.function
    def f(x):
        t.assertAllGreater(x, 0.5)
        t.assertNotAllClose(x, [3.0])        # its inner assertAllClose failing is not an error
        return x * 2

    np.testing.assert_array_equal(f(tf.constant([1.0])), [2.0])
    # TF 2.21: the PyFunc node's UnknownError, the assertion's text inside
    with pytest.raises(tf.errors.UnknownError, match="AssertionError: np.float32\\(0.1\\) not greater than 0.5"):
        f(tf.constant([0.1]))
    assert _message(lambda: t.assertAllGreater([0.1], 0.5)) == "np.float64(0.1) not greater than 0.5"   # eagerly


def test_proto_equals(t):
    t.assertProtoEquals(_example([1, 2]), _example([1, 2]))
    t.assertProtoEquals(_example([1], 0.1), _example([1], 0.10000000149))       # floats normalised to 6 places
    t.assertProtoEquals('features { feature { key: "a" value { int64_list { value: 1 } } } }',
                        tf.train.Example(features=tf.train.Features(feature={
                            "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))})))
    diff = _message(lambda: t.assertProtoEquals(_example([1, 2]), _example([1, 3]), msg="mm"))
    assert diff.startswith("mm:\n  features {\n    feature {\n      key: \"a\"\n")
    assert "-         value: 2\n?                ^\n+         value: 3\n?                ^\n" in diff
    # TF 2.21
    assert _message(lambda: t.assertProtoEquals(1, _example([1]))).startswith(
        "Can't compare protos of type <class 'int'> and <class ")
    from google.protobuf import text_format
    with pytest.raises(text_format.ParseError, match='Message type "tensorflow.Example" has no field named "zzz"'):
        t.assertProtoEquals("zzz: 1", _example([1]))
    with pytest.raises(NotImplementedError, match="relative_tolerance"):
        t.assertProtoEquals(_example([1]), _example([1]), relative_tolerance=0.1)


# -- evaluate, sessions, fixture ----------------------------------------------------------------------------------
def test_evaluate(t):
    out = t.evaluate({"a": tf.constant(1.0), "b": [tf.constant([1, 2]), None]})
    assert repr(out["a"]) == "np.float32(1.0)" and out["b"][1] is None
    np.testing.assert_array_equal(out["b"][0], [1, 2])
    assert repr(t.evaluate(tf.Variable(2.0))) == "np.float32(2.0)"
    assert repr(t.evaluate(lambda: tf.constant(5))) == "np.int32(5)"
    # TF 2.21
    assert repr(t.evaluate(tf.sparse.SparseTensor([[0, 0]], [1.0], [2, 2]))) == (
        "SparseTensorValue(indices=array([[0, 0]]), values=array([1.], dtype=float32), dense_shape=array([2, 2]))")
    ragged = t.evaluate(tf.ragged.constant([[1], [2, 3]]))
    assert repr(ragged) == (
        "tf.RaggedTensorValue(values=array([1, 2, 3], dtype=int32), row_splits=array([0, 1, 3]))")
    assert ragged.to_list() == [[1], [2, 3]]
    for bad, name in (("abc", "str"), (5, "int")):
        with pytest.raises(ValueError, match=f"^Unsupported type '{name}'.$"):
            t.evaluate(bad)


def test_evaluate_composites_and_refusals(t):
    # TF 2.21
    assert repr(t.evaluate(tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1])))) == (
        "IndexedSlicesValue(values=array([[1.]], dtype=float32), indices=array([0], dtype=int32), "
        "dense_shape=array([2, 1], dtype=int32))")
    with pytest.raises(ValueError, match="^Unsupported type 'TensorShape'.$"):
        t.evaluate(tf.zeros([2]).shape)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot convert a Tensor of dtype variant to a NumPy"):
        t.evaluate(tf.data.Dataset.range(3))
    # TF 2.21 walks the ragged values' path string character by character
    assert ("Mismatched value: a[v][a][l][u][e][[][1][]][[][1][]] is different from "
            "b[v][a][l][u][e][[][1][]][[][1][]]. ") in _message(
        lambda: t.assertAllClose(tf.ragged.constant([[1.0], [2.0, 3.0]]), [[1.0], [2.0, 3.1]]))
    assert _message(lambda: t.assertAllEqual(tf.ragged.constant([[1], [2, 3]]), [[1], [2, 4]])).startswith(
        "Lists differ: [[1], [2, 3]] != [[1], [2, 4]]")


def test_sessions_are_eager(t):
    with t.cached_session() as sess:
        assert sess.run(tf.constant(3)) == 3
        with pytest.raises(RuntimeError, match="feed_dict is not supported when eager execution is enabled"):
            sess.run(tf.constant(1), feed_dict={1: 2})
    with t.session() as sess:
        with pytest.raises(AttributeError, match="Trying to access properties or call methods on the result of"):
            sess.run(1)
    with t.test_session() as sess:
        assert sess is None


def test_constructing_a_test_case_turns_traceback_filtering_off():
    tf.debugging.enable_traceback_filtering()
    _Case()
    assert tf.debugging.is_traceback_filtering_enabled() is False       # TF 2.21


def test_setup_seeds_and_temp_dir(t):
    # TF 2.21: setUp seeds Python's and NumPy's generators with 87654321
    assert np.random.rand() == 0.18463433217903202
    path = t.get_temp_dir()
    assert os.path.isdir(path) and t.get_temp_dir() == path
    other = _Case()
    other.setUp()
    assert other.get_temp_dir() != path and os.path.dirname(other.get_temp_dir()) == os.path.dirname(path)


def test_sessions_while_a_tf1_graph_is_built():
    class Graph(tf.test.TestCase):
        def test_cached(self):
            x = tf.compat.v1.placeholder(tf.float32, [2])
            with self.cached_session() as sess:
                np.testing.assert_array_equal(sess.run(x * 2.0, feed_dict={x: [1.0, 2.0]}), [2.0, 4.0])
                with self.cached_session() as again:
                    assert again is sess
            self.assertAllEqual(tf.constant([1, 2]) + 1, [2, 3])     # graph tensors are run in the cached session
            v = tf.Variable(3.0)
            self.evaluate(tf.compat.v1.global_variables_initializer())
            assert self.evaluate({"v": v, "c": [tf.constant(1)]}) == {"v": 3.0, "c": [1]}
            with self.session() as sess:
                assert sess.run(tf.constant(2) + 3) == 5
            with pytest.raises(ValueError, match=re.escape(
                    "The graph used to get the cached session is different than the one that was used to create the "
                    "session. Maybe create a new session with self.session()")):
                with self.cached_session(graph=tf.Graph()):
                    pass

    with tf.Graph().as_default():
        result, out = _run(Graph)
    assert result.wasSuccessful(), out


def test_capture_writes_to_stream(t, tmp_path):
    with open(tmp_path / "stream.txt", "w") as stream:
        stream.write("before\n")
        with t.captureWritesToStream(stream) as captured:
            os.write(stream.fileno(), b"captured text\n")
        stream.write("after\n")
    assert captured.contents() == "captured text\n"
    assert (tmp_path / "stream.txt").read_text() == "before\nafter\n"


def _run(case_cls):
    stream = io.StringIO()
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(case_cls)
    result = unittest.TextTestRunner(stream=stream, verbosity=0).run(suite)
    return result, stream.getvalue()


def test_inner_test_case_run_by_unittest():
    class Inner(tf.test.TestCase):
        def test_pass(self):
            self.assertAllClose([1.0], tf.constant([1.0]))

        def test_fail(self):
            """Docstring line."""
            self.assertAllEqual([1], [2])

        def test_thread(self):
            def bad():
                raise ValueError("in thread")
            thread = self.checkedThread(bad)
            thread.start()
            thread.join()

        def test_unjoined(self):
            self.checkedThread(lambda: None).start()

        @tf.test.disable_with_predicate(lambda: True, "skipping it")
        def test_skipped(self):
            raise AssertionError("not run")

    result, out = _run(Inner)
    # TF 2.21: the inherited test_session is collected and skipped ("Not a test.")
    assert result.testsRun == 6 and len(result.skipped) == 2 and len(result.failures) == 3
    assert sorted(reason for _, reason in result.skipped) == ["Not a test.", "skipping it"]
    assert "Inner.test_fail\nDocstring line.\n" in out
    assert "AssertionError: Error in checkedThread: in thread" in out
    assert "AssertionError: A checked thread was not joined." in out


_SCRIPT = """
import tfcompat as tf

class MyTest(tf.test.TestCase):
    def test_pass(self):
        self.assertAllClose([1.0, 2.0], tf.constant([1.0, 2.0000001]))

    def test_fail(self):
        self.assertAllEqual([1], [2])

if __name__ == "__main__":
    tf.test.main()
"""


def test_main_output_and_exit_status(tmp_path):
    script = tmp_path / "my_test.py"
    script.write_text(_SCRIPT)
    env = dict(os.environ, PYTHONPATH=REPO)

    def run(*args):
        return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, env=env,
                              timeout=120)
    full = run()
    assert full.returncode == 1
    lines = full.stderr.splitlines()
    assert lines[0].startswith("Running tests under Python ")
    # TF 2.21: absl's app shows TF's INFO logs, tearDown's time line among them
    assert re.search(r"^INFO:tensorflow:time\(__main__\.MyTest\.test_pass\): \d+\.\d+s$", full.stderr, re.M)
    lines = [line for line in lines if not line.startswith("INFO:tensorflow:time(")]
    # TF 2.21 (absltest's reporter)
    assert lines[1:7] == ["[ RUN      ] MyTest.test_fail", "[  FAILED  ] MyTest.test_fail",
                          "[ RUN      ] MyTest.test_pass", "[       OK ] MyTest.test_pass",
                          "[ RUN      ] MyTest.test_session", "[  SKIPPED ] MyTest.test_session - Not a test."]
    assert "FAILED (failures=1, skipped=1)" in full.stderr
    one = run("-v", "1", "MyTest.test_pass")           # absl's -v takes a value; the test name goes to unittest
    assert one.returncode == 0 and "Ran 1 test" in one.stderr
    unknown = run("--foo")
    assert unknown.returncode == 1
    assert unknown.stderr == ("FATAL Flags parsing error: Unknown command line flag 'foo'\n"
                              "Pass --helpshort or --helpfull to see help on flags.\n")
    usage = run("--help")
    assert usage.returncode == 1
    assert usage.stdout == "\n       USAGE: my_test.py [flags]\n\nTry --helpfull to get a list of all flags.\n"


# -- module functions ---------------------------------------------------------------------------------------------
def test_compute_gradient():
    # TF 2.21
    theoretical, numerical = tf.test.compute_gradient(lambda x, y: x * y + tf.sin(x), [[1.0, 2.0], 3.0])
    assert len(theoretical) == 2 and theoretical[0].dtype == np.float32
    np.testing.assert_array_equal(theoretical[0], np.float32([[3.5403023, 0.0], [0.0, 2.5838532]]))
    np.testing.assert_array_equal(numerical[0], np.float32([[3.5402832, 0.0], [0.0, 2.5839844]]))
    np.testing.assert_array_equal(theoretical[1], np.float32([[1.0], [2.0]]))
    theoretical, numerical = tf.test.compute_gradient(lambda z: z * tf.math.conj(z),
                                                      [tf.constant([1 + 2j], tf.complex64)])
    np.testing.assert_array_equal(theoretical[0], [[2.0, 4.0], [0.0, 0.0]])
    theoretical, numerical = tf.test.compute_gradient(lambda x: tf.gather(x, [0, 0]), [[1.0, 2.0]])
    np.testing.assert_array_equal(theoretical[0], [[1.0, 0.0], [1.0, 0.0]])
    theoretical, numerical = tf.test.compute_gradient(lambda x: x * 2, [np.float16([1.0, 3.0])])
    np.testing.assert_array_equal(numerical[0], np.float16([[2.0, 0.0], [0.0, 0.0]]))   # float16 rounding, as TF
    with pytest.raises(AssertionError, match="^Cannot compute gradient for unsupported type int32 of argument 0$"):
        tf.test.compute_gradient(lambda x: x, [tf.constant(1)])
    with pytest.raises(ValueError, match="not a <class 'float'>"):
        tf.test.compute_gradient(lambda x: x, 1.0)
    # TF 2.21: f's result is used as it is (a list has no shape; a NumPy value gets no gradient)
    with pytest.raises(AttributeError, match="'list' object has no attribute 'shape'"):
        tf.test.compute_gradient(lambda x: [x, x], [1.0])
    theoretical, numerical = tf.test.compute_gradient(lambda x: np.float32(2.0), [1.0])
    assert theoretical[0].tolist() == [[0.0]] and numerical[0].tolist() == [[0.0]]
    v = tf.Variable(3.0)
    theoretical, _ = tf.test.compute_gradient(lambda x, y: x * v, [1.0, 2.0])
    assert theoretical[0].tolist() == [[3.0]] and theoretical[1].tolist() == [[0.0]]


def test_benchmark_report(capsys):
    class MyBench(tf.test.Benchmark):
        def benchmark_x(self):
            self.report_benchmark(iters=10, wall_time=0.5, cpu_time=0.25, throughput=3.0,
                                  extras={"a": 1.5, "b": "s", "c": 2},
                                  metrics=[{"name": "acc", "value": 0.9, "min_value": 0.5}])

        def benchmark_y(self):
            self.report_benchmark(name="custom", wall_time=1e-7)

    MyBench().benchmark_x()
    MyBench().benchmark_y()
    # TF 2.21 (BenchmarkEntries text; map entries in descending key order)
    assert capsys.readouterr().out == textwrap.dedent("""\
        entry {
          name: "MyBench.benchmark_x"
          iters: 10
          cpu_time: 0.25
          wall_time: 0.5
          throughput: 3
          extras {
            key: "c"
            value {
              double_value: 2
            }
          }
          extras {
            key: "b"
            value {
              string_value: "s"
            }
          }
          extras {
            key: "a"
            value {
              double_value: 1.5
            }
          }
          metrics {
            name: "acc"
            value: 0.9
            min_value {
              value: 0.5
            }
          }
        }

        entry {
          name: "MyBench.custom"
          wall_time: 1e-07
        }

        """)
    assert tf.test.Benchmark.is_abstract() and not MyBench.is_abstract()
    with pytest.raises(TypeError, match="extras must be a dict"):
        MyBench().report_benchmark(extras=[1])


def test_benchmark_evaluate_and_run_op_benchmark(capsys):
    class Bench(tf.test.Benchmark):
        pass

    # TF 2.21: eagerly there is no session to evaluate in
    with pytest.raises(AttributeError, match="'Bench' object has no attribute 'cached_session'"):
        Bench().evaluate(tf.constant(1))
    with tf.Graph().as_default():
        c = tf.constant(2) + 1
        with tf.compat.v1.Session() as sess:
            assert Bench().evaluate(c) == 3
            values = Bench().run_op_benchmark(sess, c, min_iters=3, store_memory_usage=False, mbs=1)
    assert values["iters"] == 3 and values["name"] is None and values["wall_time"] > 0
    assert {"wall_time_mean", "wall_time_stdev"} <= set(values["extras"])
    assert capsys.readouterr().out.startswith('entry {\n  name: "Bench.run_op_benchmark"\n  iters: 3\n  wall_time: ')


def test_build_queries():
    # TF 2.21 on a CPU machine: no GPU; XLA built; every known CPU target
    assert tf.test.is_built_with_xla() is True
    assert tf.test.is_cpu_target_available("x86_64") and tf.test.is_cpu_target_available("aarch64")
    with pytest.raises(AssertionError, match="Unknown CPU target: foo"):
        tf.test.is_cpu_target_available("foo")
    assert tf.test.is_built_with_gpu_support() == (tf.test.is_built_with_cuda() or tf.test.is_built_with_rocm())
    gpu = tf.test.is_gpu_available()
    assert tf.test.gpu_device_name() == ("/device:GPU:0" if gpu else "")
    decorated = tf.test.with_eager_op_as_function(only_as_function=True)
    assert decorated(_Case) is _Case and tf.test.with_eager_op_as_function(_Case) is _Case
    tf.test.experimental.sync_devices()

    @tf.function
    def traced():
        tf.test.experimental.sync_devices()
        return tf.constant(1)
    with pytest.raises(RuntimeError, match="sync_devices\\(\\) must only be called in Eager mode, outside tf.functions"):
        traced()
    with pytest.raises(NotImplementedError):
        tf.test.create_local_cluster(1, 1)


def test_mixed_with_absl_parameterized():
    parameterized = pytest.importorskip("absl.testing.parameterized")

    class Mixed(tf.test.TestCase, parameterized.TestCase):
        @parameterized.parameters((1,), (2,))
        def test_shape(self, n):
            self.assertAllClose(tf.ones((n, 3)) * 4, 4 * np.ones((n, 3)))

        def test_fail(self):
            """Doc."""
            self.assertLen([1], 2, msg="custom")

    result, out = _run(Mixed)
    assert result.testsRun == 4 and len(result.failures) == 1
    # TF 2.21: the description is given once, then the docstring line
    assert "Mixed.test_fail\nDoc.\n---" in out
    assert "AssertionError: [1] has length of 1, expected 2. : custom" in out
