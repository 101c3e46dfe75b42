"""`tf.compat.v1.data`'s TF1 iterators in a TF1 graph (one-shot and initializable, per-session positions, the
OutOfRangeError end a MonitoredSession stops on) and eagerly.

Golden values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import numpy as np
import pytest

import tfcompat as tf

v1 = tf.compat.v1


def test_one_shot_iterator_in_a_graph():
    with tf.Graph().as_default():
        ds = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3]}, [10., 20., 30.])).batch(2)
        it = v1.data.make_one_shot_iterator(ds)
        nxt = it.get_next()
        # TF 2.21
        assert repr(nxt) == ("({'a': <tf.Tensor 'IteratorGetNext:0' shape=(None,) dtype=int32>}, "
                             "<tf.Tensor 'IteratorGetNext:1' shape=(None,) dtype=float32>)")
        assert v1.data.get_output_types(it) == ({"a": tf.int32}, tf.float32)
        with v1.Session() as sess:
            first = sess.run(nxt)
            np.testing.assert_array_equal(first[0]["a"], [1, 2])
            np.testing.assert_array_equal(first[1], [10., 20.])
            second = sess.run(nxt)
            np.testing.assert_array_equal(second[0]["a"], [3])
            with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
                sess.run(nxt)
        with v1.Session() as sess:          # a new session starts the iterator afresh
            np.testing.assert_array_equal(sess.run(nxt)[0]["a"], [1, 2])
        assert str(it.get_next()[1]) == 'Tensor("IteratorGetNext_1:1", shape=(None,), dtype=float32)'


def test_initializable_iterator_in_a_graph():
    with tf.Graph().as_default():
        it = v1.data.make_initializable_iterator(tf.data.Dataset.range(5))
        n = it.get_next()
        assert it.initializer.name == "MakeIterator"
        with v1.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="GetNext\\(\\) failed because the iterator has not been initialized"):
                sess.run(n)
            sess.run(it.initializer)
            assert sess.run([n, n]) == [0, 0] and sess.run(n) == 1     # TF 2.21: one element per run
            sess.run(it.initializer)
            assert sess.run(n) == 0


def test_monitored_session_stops_at_the_end_of_the_input():
    with tf.Graph().as_default():
        x = v1.data.make_one_shot_iterator(tf.data.Dataset.range(3)).get_next()
        v1.train.get_or_create_global_step()
        seen = []
        with v1.train.MonitoredSession() as sess:
            while not sess.should_stop():
                seen.append(int(sess.run(x)))
        assert seen == [0, 1, 2]


def test_eager_iterators():
    it = v1.data.make_one_shot_iterator(tf.data.Dataset.range(3))
    assert int(it.get_next()) == 0 and int(next(it)) == 1
    with pytest.raises(RuntimeError, match="`make_initializable_iterator\\(\\)` is not supported in eager mode. Use "
                                           "Python-style iteration instead."):
        v1.data.make_initializable_iterator(tf.data.Dataset.range(3))
    assert v1.data.Dataset is tf.data.Dataset
