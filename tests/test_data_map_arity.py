"""Dataset.map fails when it is built, as TF's trace of the function does, when the function cannot take the
element's components (TF 2.21: TypeError with Python's message, autograph's `tf__` name aside)."""
import pytest

import tfcompat as tf


def one(a):
    return a


def two(a, b):
    return a


def three(a, b, c=1):
    return a


def four(a, b, c, d):
    return a


PAIR = ([1, 2], [3, 4])


@pytest.mark.parametrize("data, fn, message", [
    (PAIR, one, "one() takes 1 positional argument but 2 were given"),
    ([1, 2], two, "two() missing 1 required positional argument: 'b'"),
    ([1, 2], four, "four() missing 3 required positional arguments: 'b', 'c', and 'd'"),
    (PAIR, four, "four() missing 2 required positional arguments: 'c' and 'd'"),
    ([1, 2], three, "three() missing 1 required positional argument: 'b'"),
])
def test_map_checks_the_function_against_the_element_when_built(data, fn, message):
    ds = tf.data.Dataset.from_tensor_slices(tuple(data) if data is PAIR else data)
    with pytest.raises(TypeError) as info:
        ds.map(fn)
    assert str(info.value).endswith(message)
    with pytest.raises(TypeError):
        ds.map(fn, num_parallel_calls=2)


def test_map_accepts_matching_functions_and_checks_a_known_derived_spec():
    pair = tf.data.Dataset.from_tensor_slices(PAIR)
    assert [x.numpy() for x in pair.map(three)] == [1, 2]
    assert [x.numpy() for x in pair.map(lambda *a: a[0])] == [1, 2]
    zipped = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(3)))
    batched = zipped.batch(2)
    assert batched.element_spec is not None     # the spec is known (cached) once asked for
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        batched.map(one)
