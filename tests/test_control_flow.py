"""Control flow ops, TensorArray, tf.print and py_function against TF 2.21 values and errors."""
import sys

import numpy as np
import pytest

import tfcompat as tf


def test_cond_case_switch_case():
    assert tf.cond(tf.constant(True), lambda: 1, lambda: 2) == 1
    with pytest.raises(TypeError, match="'true_fn' must be callable."):
        tf.cond(True, 1, lambda: 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"exclusive=True: more than 1 conditions \(\?, \?\)"):
        tf.case([(tf.constant(True), lambda: 1), (tf.constant(True), lambda: 2)], default=lambda: 3, exclusive=True)
    assert tf.switch_case(tf.constant(5), [lambda: 1, lambda: 2]) == 2
    with pytest.raises(TypeError, match="'branch_index' must be a Tensor, got <class 'int'>"):
        tf.switch_case(1, {0: lambda: 1, 1: lambda: 2})


def test_while_loop():
    i, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2), (0, 1.5))
    assert (i.numpy(), s.numpy(), s.dtype) == (3, 12.0, tf.float32)
    (n,) = tf.while_loop(lambda i: i < 10, lambda i: [i + 1], [0], maximum_iterations=4)
    assert n.numpy() == 4
    with pytest.raises(ValueError, match="'loop_vars' must be provided."):
        tf.while_loop(lambda i: i < 10, lambda i: i + 1, 0)


def test_map_fn_scan_fold_vectorized_map():
    np.testing.assert_array_equal(tf.map_fn(lambda x: x * 2, tf.constant([1, 2, 3])).numpy(), [2, 4, 6])
    r = tf.map_fn(lambda x: x[0] + x[1], (tf.constant([1, 2]), tf.constant([3, 4])), fn_output_signature=tf.int32)
    np.testing.assert_array_equal(r.numpy(), [4, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is int32 but Op is trying to write "
                                                               "dtype float32"):
        tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]))
    np.testing.assert_array_equal(tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])).numpy(), [1, 3, 6, 10])
    np.testing.assert_array_equal(
        tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4]), initializer=10, reverse=True).numpy(), [20, 19, 17, 14])
    assert tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3, 4])).numpy() == -8
    assert tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3, 4])).numpy() == -2
    assert tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3, 4]), initializer=100).numpy() == 90
    np.testing.assert_array_equal(
        tf.vectorized_map(lambda x: tf.reduce_sum(x * x), tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy(), [5.0, 25.0])


def test_tensor_array():
    ta = tf.TensorArray(tf.float32, size=2)
    with pytest.raises(tf.errors.OutOfRangeError, match="Tried to write to index 5 but array is not resizeable and "
                                                         "size is: 2"):
        ta.write(5, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is float32 but Op is trying to write "
                                                             "dtype int32"):
        ta.write(0, tf.constant(1, tf.int32))
    with pytest.raises(ValueError, match="Cannot convert a partially known TensorShape <unknown> to a Tensor."):
        ta.read(1)
    ta = ta.write(0, [1.0, 2.0])
    with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(3,\)\), expected \(\(2,\)\)"):
        ta.write(1, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(ta.stack().numpy(), [[1.0, 2.0], [0.0, 0.0]])
    ta2 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(3, 1.0)
    assert ta2.size().numpy() == 4
    np.testing.assert_array_equal(ta2.stack().numpy(), [0, 0, 0, 1])
    ta3 = tf.TensorArray(tf.int32, size=3).unstack([1, 2, 3])
    np.testing.assert_array_equal(ta3.gather([2, 0]).numpy(), [3, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Concat saw a scalar shape at index 0"):
        ta3.concat()
    ta4 = tf.TensorArray(tf.int32, size=3, clear_after_read=True).unstack([1, 2, 3])
    ta4.read(0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not read index 0 twice because it was cleared"):
        ta4.read(0)
    np.testing.assert_array_equal(
        tf.TensorArray(tf.int32, size=3).scatter([2, 0], [[1, 1], [2, 2]]).concat().numpy(), [2, 2, 0, 0, 1, 1])
    np.testing.assert_array_equal(tf.TensorArray(tf.int32, size=3).split([1, 2, 3, 4, 5, 6], [1, 2, 3]).read(2).numpy(),
                                  [4, 5, 6])
    with pytest.raises(ValueError, match="Cannot unstack 3 tensors into a TensorArray of static size 2"):
        tf.TensorArray(tf.int32, size=2).unstack([1, 2, 3])


def test_print_format(capsys):
    out = sys.stdout
    tf.print(tf.constant(0.123456789), tf.constant(1 / 3, tf.float64), tf.constant(1e-7), tf.constant(123456789.0),
             tf.constant([1.0, 2.0]), tf.constant(-0.5, tf.float16), output_stream=out)
    tf.print(tf.zeros([2, 2, 2]), output_stream=out)
    tf.print(tf.range(100), output_stream=out)
    tf.print(tf.range(7), summarize=-1, output_stream=out)
    tf.print(tf.constant("s"), tf.constant(["a", "b"]), {"a": tf.constant(1)}, [1, tf.constant(2.5)], output_stream=out)
    tf.print("a", tf.constant([[1.5, 2], [3, 4]]), sep="|", end="!\n", output_stream=out)
    tf.print(tf.constant(True), tf.constant([0.1, 1e10]), output_stream=out)
    assert capsys.readouterr().out == (
        "0.123456791 0.33333333333333331 1e-07 123456792 [1 2] -0.5\n"
        "[[[0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]]]\n"
        "[0 1 2 ... 97 98 99]\n[0 1 2 3 4 5 6]\n"
        "\"s\" [\"a\" \"b\"] {'a': 1} [1, 2.5]\n"
        "a|[[1.5 2]\n [3 4]]!\n1 [0.1 1e+10]\n")
    tf.print(tf.constant([1, 2]))
    assert capsys.readouterr().err == "[1 2]\n"


def test_py_function_runs_each_call_in_tf_function():
    assert tf.py_function(lambda x: x * 2, [tf.constant(2.0)], tf.float32).numpy() == 4.0
    a, b = tf.py_function(lambda x: (x * 2, x), [tf.constant(2.0)], [tf.float32, tf.float32])
    assert (a.numpy(), b.numpy()) == (4.0, 2.0)
    assert tf.numpy_function(lambda x: x * 2, [tf.constant(2)], tf.float32).dtype == tf.int32

    @tf.function
    def ff(x):
        return tf.py_function(lambda a: a.numpy() + 1, [x], tf.int32)
    assert (ff(tf.constant(1)).numpy(), ff(tf.constant(5)).numpy()) == (2, 6)
    assert ff.experimental_get_tracing_count() == 1


def test_vectorized_map_results_structured_unlike_elems():
    # per-example gradients (the tf_numpy guide): torch.vmap cannot run a tape, TF's while-loop fallback still does
    v = tf.Variable([1., 2.])

    def f(x):
        with tf.GradientTape() as t:
            y = tf.reduce_sum(v * x) ** 2
        return t.gradient(y, v), tf.reduce_sum(x)
    grads, sums = tf.vectorized_map(f, tf.constant([[1., 0.], [0., 1.], [1., 1.]]))
    np.testing.assert_array_equal(grads.numpy(), [[2., 0.], [0., 4.], [6., 6.]])      # TF 2.21's values
    np.testing.assert_array_equal(sums.numpy(), [1., 1., 2.])


def test_print_formats_structures_as_tf_with_pprint(capsys):
    """TF's tf.print: each input is `pprint.pformat`ted with a placeholder per tensor (dict keys sorted, namedtuples
    and NumPy arrays by their repr, long structures wrapped), a lone string scalar unquoted (texts from TF 2.21)."""
    import collections
    x = tf.constant([[1], [2]])
    NT = collections.namedtuple("NT", "a b")
    tf.print({"b": x, "a": 1}, output_stream=sys.stdout)
    tf.print(NT(x, 2), output_stream=sys.stdout)
    tf.print(tf.constant("hi"), output_stream=sys.stdout)
    tf.print([tf.constant("hi"), "x"], output_stream=sys.stdout)
    tf.print(np.array([1, 2]), 2.5, None, output_stream=sys.stdout)
    tf.print(["a" * 30, "b" * 30, x, "c" * 30], output_stream=sys.stdout)
    assert capsys.readouterr().out == (
        "{'a': 1, 'b': [[1]\n [2]]}\nNT(a=[[1]\n [2]], b=2)\nhi\n[\"hi\", 'x']\narray([1, 2]) 2.5 None\n"
        "['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',\n 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',\n [[1]\n [2]],\n"
        " 'cccccccccccccccccccccccccccccc']\n")
