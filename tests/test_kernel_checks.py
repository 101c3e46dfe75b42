"""Shape, divisor and ragged-list checks run before kernels, in TF's order (values recorded from TF 2.21)."""
import pytest

import tfcompat as tf

_PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def _raises(fn, cls, text):
    with pytest.raises(cls) as info:
        fn()
    assert str(info.value) == text


def test_incompatible_shapes_come_before_the_zero_divisor():
    a, b = tf.constant([1, 2, 3]), tf.constant([0, 2])
    _raises(lambda: tf.math.floordiv(a, b), tf.errors.InvalidArgumentError,
            _PREFIX % "FloorDiv" + "Incompatible shapes: [3] vs. [2] [Op:FloorDiv] name: ")


def test_incompatible_shapes_come_before_negative_integer_powers():
    _raises(lambda: tf.pow(tf.constant([1, 2, 3]), tf.constant([-1, 2])), tf.errors.InvalidArgumentError,
            _PREFIX % "Pow" + "Incompatible shapes: [3] vs. [2] [Op:Pow] name: ")


def test_integer_division_by_zero():
    _raises(lambda: tf.math.floormod(tf.constant([1, 2]), 0), tf.errors.InvalidArgumentError,
            _PREFIX % "FloorMod" + "Integer division by zero [Op:FloorMod] name: ")


def test_eq_of_incompatible_shapes_is_a_python_answer():
    a, b = tf.constant([1, 2, 3]), tf.constant([0, 2])
    assert repr(a == b) == "<tf.Tensor: shape=(), dtype=bool, numpy=False>"
    assert repr(a != b) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    assert (a == tf.constant([[1], [2]])).shape == (2, 3)


@pytest.mark.parametrize("value", [[[1, 2], [3]], [[1, 2], [3, 4, 5]], [[[1], [2]], [[3]]]])
def test_ragged_lists_are_found_by_their_structure(value):
    _raises(lambda: tf.constant(value), ValueError, "Can't convert non-rectangular Python sequence to Tensor.")


def test_out_of_range_python_integers():
    _raises(lambda: tf.constant([1, 2 ** 64]), ValueError,
            "Can't convert Python sequence with out-of-range integer to Tensor.")
