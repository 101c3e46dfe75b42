"""get_concrete_function / tf.saved_model.save of an input signature with unknown dimensions: tfcompat traces them on
placeholder values (distinct probe sizes, sizes it can see, then size 1), where TF traces symbolically. A body that
fails on every size tried raises a NotImplementedError naming the limit and leaves no broken trace."""
import pytest

import tfcompat as tf


class _Export(tf.Module):
    def __init__(self):
        super().__init__()
        self.mean = tf.Variable(tf.ones([9]))

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
    def __call__(self, x):
        x = tf.concat([x[:, :-1], tf.one_hot(tf.cast(x[:, -1], tf.int32), 3)], axis=1)
        return x - self.mean


class _Unsolvable(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
    def __call__(self, x):
        return tf.reshape(x, [-1, 9973])


def test_a_feature_size_found_by_probing_saves(tmp_path):
    # TF 2.21 saves it; [4, 7] -> [4, 9] (size 1 placeholders failed: Incompatible shapes: [1,3] vs. [9])
    m = _Export()
    tf.saved_model.save(m, str(tmp_path / "a"))
    x = tf.ones([4, 7])
    assert tf.saved_model.load(str(tmp_path / "a"))(x).numpy().tolist() == m(x).numpy().tolist()


def test_a_body_failing_on_every_placeholder_raises_not_implemented(tmp_path):
    m = _Unsolvable()
    with pytest.raises(NotImplementedError, match=r"tfcompat traces the unknown dimensions of an input signature on "
                                                  r"placeholder values .* body fails on every size tried"):
        tf.saved_model.save(m, str(tmp_path / "a"))
    assert m.__call__._concrete == []
    # called on real inputs first, the signature's trace is saved (and replays those shapes)
    x = tf.ones([2, 9973])
    assert m(x).shape == (2, 9973)
    tf.saved_model.save(m, str(tmp_path / "b"))
    assert tf.saved_model.load(str(tmp_path / "b"))(x).numpy().tolist() == m(x).numpy().tolist()


def test_other_errors_pass_through_and_leave_no_trace():
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        raise ValueError("the body's own error")

    for _ in range(2):
        with pytest.raises(ValueError, match="the body's own error"):
            f.get_concrete_function()
        assert f._concrete == []
