"""get_concrete_function / tf.saved_model.save of an input signature with unknown dimensions: tfcompat traces them on
placeholders of size 1, where TF traces symbolically. A body that fails on those placeholders (TF's save succeeds:
core guides quickstart_core, mlp_core) raises a NotImplementedError naming the limit and leaves no broken trace."""
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


def test_a_body_failing_on_placeholders_raises_not_implemented(tmp_path):
    m = _Export()
    with pytest.raises(NotImplementedError, match=r"tfcompat traces the unknown dimensions of an input signature on "
                                                  r"placeholder values of size 1 .* Incompatible shapes: \[1,3\] vs\. \[9\]"):
        tf.saved_model.save(m, str(tmp_path / "a"))
    assert m.__call__._concrete == []
    # called on real inputs first, the signature's trace is saved (and replays those shapes)
    x = tf.ones([4, 7])
    assert m(x).shape == (4, 9)
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
