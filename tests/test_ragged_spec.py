"""tf.RaggedTensorSpec's TraceType methods (most_specific_common_supertype, is_subtype_of) as TF 2.21."""
import pytest

import tfcompat as tf

S = tf.RaggedTensorSpec


@pytest.mark.parametrize("spec, others, expected", [
    (S([3, None], tf.float32), [S([2, None], tf.float32)], "RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)"),
    (S([3, None], tf.float32), [S([3, None, 2], tf.float32, ragged_rank=1)],
     "RaggedTensorSpec(TensorShape(None), tf.float32, 1, tf.int64)"),
    (S([3, None], tf.float32), [S([3, None], tf.int32)], "None"),
    (S([3, None], tf.float32), [S([3, None], tf.float32, row_splits_dtype=tf.int32)], "None"),
    (S([3, None], tf.float32), [], "RaggedTensorSpec(TensorShape([3, None]), tf.float32, 1, tf.int64)"),
    (S([3, None], tf.float32), [S([3, None], tf.float32), S([4, None], tf.float32)],
     "RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)"),
    (S([3, None], tf.float32), [tf.TensorSpec([3], tf.float32)], "None"),
    (S(None, tf.float32, ragged_rank=1), [S([2, None], tf.float32)],
     "RaggedTensorSpec(TensorShape(None), tf.float32, 1, tf.int64)"),
    (S([3, None, None], tf.float32, ragged_rank=2), [S([3, None, None], tf.float32, ragged_rank=1)], "None"),
])
def test_most_specific_common_supertype(spec, others, expected):
    assert repr(spec.most_specific_common_supertype(others)) == expected


def test_is_subtype_of():
    assert S([3, None], tf.float32).is_subtype_of(S([None, None], tf.float32))
    assert not S([None, None], tf.float32).is_subtype_of(S([3, None], tf.float32))
    assert S([3, None], tf.float32).is_subtype_of(S(None, tf.float32, ragged_rank=1))
    assert not S([3, None], tf.float32).is_subtype_of(S([3, None], tf.int32))
    assert not S([3, None], tf.float32).is_subtype_of(tf.TensorSpec([3, None]))
    assert S([3, 4], tf.float32).is_subtype_of(S([3, None], tf.float32))
