"""`bucket_by_sequence_length` as TF 2.21: `pad_to_bucket_boundary`, and the element spec's unknown batch dimension
(TF traces the batching function with a symbolic bucket). Golden values from TF 2.21."""
import numpy as np
import pytest

import tfcompat as tf


def _seqs():
    def gen():
        for n in [1, 3, 2, 5, 4, 1, 6, 2]:
            yield np.ones(n, dtype=np.int32) * n, n
    return tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([None], tf.int32),
                                                                 tf.TensorSpec([], tf.int32)))


def _length(x, y):
    return tf.shape(x)[0]


def _rows(ds):
    return [(x.tolist(), y.tolist()) for x, y in ds.as_numpy_iterator()]


def test_pad_to_bucket_boundary():
    b = _seqs().bucket_by_sequence_length(_length, [3, 5, 8], [2, 2, 2, 2], pad_to_bucket_boundary=True)
    # TF 2.21
    assert repr(b.element_spec) == ("(TensorSpec(shape=(None, None), dtype=tf.int32, name=None), "
                                    "TensorSpec(shape=(None,), dtype=tf.int32, name=None))")
    assert _rows(b) == [([[1, 0], [2, 2]], [1, 2]), ([[3, 3, 3, 0], [4, 4, 4, 4]], [3, 4]),
                        ([[5, 5, 5, 5, 5, 0, 0], [6, 6, 6, 6, 6, 6, 0]], [5, 6]), ([[1, 0], [2, 2]], [1, 2])]
    b = _seqs().bucket_by_sequence_length(_length, [3, 5, 8], [2, 2, 2, 2], padded_shapes=([None], []),
                                          padding_values=(-1, 0), pad_to_bucket_boundary=True, drop_remainder=True)
    assert _rows(b) == [([[1, -1], [2, 2]], [1, 2]), ([[3, 3, 3, -1], [4, 4, 4, 4]], [3, 4]),
                        ([[5, 5, 5, 5, 5, -1, -1], [6, 6, 6, 6, 6, 6, -1]], [5, 6]), ([[1, -1], [2, 2]], [1, 2])]


def test_pad_to_bucket_boundary_past_the_last_boundary():
    b = _seqs().bucket_by_sequence_length(_length, [3], [2, 2], pad_to_bucket_boundary=True)
    it = iter(b)
    x, y = next(it)
    assert x.numpy().tolist() == [[1, 0], [2, 2]]
    # TF 2.21: the batching function's assert, reported as an InternalError
    with pytest.raises(tf.errors.InternalError, match=r"When pad_to_bucket_boundary=True, elements must have "
                                                      r"length < max\(bucket_boundaries\)\."):
        next(it)


def test_bucket_spec_batch_dimension_unknown():
    s = _seqs()
    specs = [s.bucket_by_sequence_length(_length, [3, 5], [2, 2, 2], **kw).element_spec for kw in
             (dict(drop_remainder=True), dict(), dict(padded_shapes=([8], [])),
              dict(padded_shapes=([8], []), drop_remainder=True))]
    # TF 2.21
    assert [tuple(sp.shape.as_list() for sp in spec) for spec in specs] == [
        ([None, None], [None]), ([None, None], [None]), ([None, 8], [None]), ([None, 8], [None])]
    d2 = tf.data.Dataset.from_tensor_slices(np.ones((6, 4), np.float32))
    assert d2.bucket_by_sequence_length(lambda x: 4, [3], [2, 2], no_padding=True,
                                        drop_remainder=True).element_spec.shape.as_list() == [None, 4]
    b = d2.bucket_by_sequence_length(lambda x: 2, [3], [2, 2], pad_to_bucket_boundary=True)
    assert b.element_spec.shape.as_list() == [None, 4]
    assert next(iter(b)).numpy().tolist() == [[1.0] * 4] * 2
