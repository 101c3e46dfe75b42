"""tf.RaggedTensor factories given bad partitions: TF 2.21's checks and messages (recorded from TF 2.21)."""
import pytest

import tfcompat as tf

_LAST = ("Arguments to _from_row_partition do not form a valid RaggedTensor\nCondition x == y did not hold.\n"
         "First 1 elements of x:\n[3]\nFirst 1 elements of y:\n[2]")


@pytest.mark.parametrize("call, message", [
    (lambda: tf.RaggedTensor.from_row_splits([1, 2], [0, 3]), _LAST),
    (lambda: tf.RaggedTensor.from_row_lengths([1, 2], [1, 2]), _LAST),
    (lambda: tf.RaggedTensor.from_value_rowids([1, 2], [1, 0]),
     "Arguments to from_value_rowids do not form a valid RowPartition.  \nCondition x >= 0 did not hold "
     "element-wise:\nx (shape=(1,) dtype=int64) = \n['-1']"),
    (lambda: tf.RaggedTensor.from_value_rowids([1, 2], [-1, 0]),
     "Arguments to from_value_rowids do not form a valid RowPartition.  \nCondition x >= 0 did not hold "
     "element-wise:\nx (shape=(1,) dtype=int64) = \n['-1']"),
    (lambda: tf.RaggedTensor.from_row_lengths([1, 2], [3, -1]),
     "Arguments to from_row_lengths do not form a valid RowPartition.  \nCondition x >= 0 did not hold "
     "element-wise:\nx (shape=(2,) dtype=int64) = \n['3', '-1']"),
])
def test_partition_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == message  # TF 2.21


def test_value_rowids():
    # TF 2.21: nrows defaults to the last id + 1; an explicit nrows is checked in Python
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 2, 2]).to_list() == [[1], [], [2, 3]]
    assert tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 2, 2], nrows=5).to_list() == [[1], [], [2, 3], [], []]
    with pytest.raises(ValueError, match=r"^Expected nrows >= value_rowids\[-1\] \+ 1; got nrows=1, "
                                         r"value_rowids\[-1\]=1$"):
        tf.RaggedTensor.from_value_rowids([1, 2], [0, 1], nrows=1)
    with pytest.raises(ValueError, match=r"^Expected nrows >= 0; got -1$"):
        tf.RaggedTensor.from_value_rowids([1, 2], [0, 1], nrows=-1)
