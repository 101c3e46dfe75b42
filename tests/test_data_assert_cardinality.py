"""tf.data.experimental.assert_cardinality: golden values and errors from TF 2.21."""
import pytest

import tfcompat as tf


def test_assert_cardinality_declares_and_checks():
    ds = tf.data.Dataset.range(5)
    f = ds.filter(lambda x: x > 1).apply(tf.data.experimental.assert_cardinality(3))
    assert int(f.cardinality()) == 3 and len(f) == 3 and list(f.as_numpy_iterator()) == [2, 3, 4]
    assert repr(ds.apply(tf.data.experimental.assert_cardinality(5))) == \
        "<_AssertCardinalityDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    cases = [
        (ds, 3, "Input dataset was expected to contain 3 elements but contained at least 4 elements."),
        (ds, 7, "Input dataset was expected to contain 7 elements but contained only 5 elements."),
        (ds, tf.data.INFINITE_CARDINALITY,
         "Input dataset was expected to contain an infinite number of elements but contained only 5 elements."),
        (ds.filter(lambda x: x > 1), 1,
         "Input dataset was expected to contain 1 element but contained at least 2 elements."),
    ]
    for source, n, text in cases:
        checked = source.apply(tf.data.experimental.assert_cardinality(n))
        assert int(checked.cardinality()) == n
        with pytest.raises(tf.errors.FailedPreconditionError) as e:
            list(checked)
        assert str(e.value).startswith("{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/"
                                       "replica:0/task:0/device:CPU:0}} " + text + " [Op:IteratorGetNext]")
