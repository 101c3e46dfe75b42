"""Ops traced in a tf.function replay for new input values of the same shapes without running the Python body again:
their range checks read one bool (a guard that holds while inputs stay valid) or leave the check to the kernel,
never the inputs' values (an int/float read is a guard on that value: every call with new values re-ran the body)."""
import numpy as np
import pytest

import tfcompat as tf
import tfcompat.eager.function._function as function_module

_RNG = np.random.default_rng(0)
_TABLE = tf.constant(_RNG.normal(size=(50, 8)).astype("float32"))


def _ints(shape, high, dtype="int32"):
    return lambda: tf.constant(_RNG.integers(0, high, shape).astype(dtype))


def _floats(*shape):
    return lambda: tf.constant(_RNG.normal(size=shape).astype("float32"))


_CASES = {
    "gather": (lambda i: tf.gather(_TABLE, i), [_ints(16, 50)]),
    "gather_axis1": (lambda i: tf.gather(_TABLE, i, axis=1), [_ints(4, 8)]),
    "gather_batch_dims": (lambda i: tf.gather(tf.reshape(_TABLE, [5, 10, 8]), i, batch_dims=1, axis=1),
                          [_ints((5, 2), 10)]),
    "unsorted_segment_sum": (lambda i: tf.math.unsorted_segment_sum(tf.ones([16]), i, 50), [_ints(16, 50)]),
    "confusion_matrix": (lambda a, b: tf.math.confusion_matrix(a, b, num_classes=5), [_ints(8, 5), _ints(8, 5)]),
    "keras_ops_take": (lambda i: tf.keras.ops.take(_TABLE, i, axis=0), [_ints(16, 50)]),
    "reverse_sequence": (lambda n: tf.reverse_sequence(tf.reshape(_TABLE, [5, 10, 8]), n, seq_axis=1, batch_axis=0),
                         [_ints(5, 10)]),
    "bincount_fixed_length": (lambda i: tf.math.bincount(i, minlength=50, maxlength=50), [_ints(16, 50)]),
    "sparse_softmax_xent": (tf.nn.sparse_softmax_cross_entropy_with_logits, [_ints(16, 10), _floats(16, 10)]),
    "sparse_softmax_xent_int64": (tf.nn.sparse_softmax_cross_entropy_with_logits,
                                  [_ints(16, 10, "int64"), _floats(16, 10)]),
    "keras_sparse_categorical_crossentropy": (
        lambda y, x: tf.keras.losses.sparse_categorical_crossentropy(y, x, from_logits=True),
        [_ints(16, 10, "int64"), _floats(16, 10)]),
    "keras_categorical_from_sparse": (
        lambda y, x: tf.keras.ops.one_hot(y, 10) * x, [_ints(16, 10), _floats(16, 10)]),
    "category_encoding_one_hot": (tf.keras.layers.CategoryEncoding(10, output_mode="one_hot"), [_ints(8, 10)]),
}


@pytest.mark.parametrize("name", sorted(_CASES))
def test_new_values_replay_without_running_the_body_again(name, monkeypatch):
    fn, makers = _CASES[name]
    reruns = []
    rerun = function_module.rerun
    monkeypatch.setattr(function_module, "rerun", lambda *a, **k: reruns.append(1) or rerun(*a, **k))
    traced = tf.function(fn)
    for _ in range(5):
        args = [make() for make in makers]
        np.testing.assert_allclose(traced(*args).numpy(), fn(*args).numpy(), rtol=1e-6)
    assert traced.experimental_get_tracing_count() == 1
    assert not reruns


def test_a_bad_index_after_good_ones_still_raises_tfs_error():
    traced = tf.function(lambda i: tf.gather(_TABLE, i))
    traced(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 50 is not in \[0, 50\)"):
        traced(tf.constant([1, 50]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 50\)"):
        tf.gather(_TABLE, [-1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"segment_ids\[1\] = 7 is out of range \[0, 5\)"):
        tf.function(lambda i: tf.math.unsorted_segment_sum(tf.ones([2]), i, 5))(tf.constant([0, 7]))
