"""tf.data's argument errors and iterator errors with TF 2.21's classes and texts (the eager dataset ops run as
wrapped functions: `{{function_node __wrapped__<Op>..._device_...}} <message> [Op:<Op>] name: `)."""
import os
import re

import numpy as np
import pytest

import tfcompat as tf

D = tf.data.Dataset
DEV = "_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def _wrapped(op, attrs, message):
    return "^" + re.escape(f"{{{{function_node __wrapped__{op}{attrs}{DEV}{message} [Op:{op}] name: ") + "$"


@pytest.mark.parametrize("make, op, attrs, message", [
    # TF 2.21
    (lambda ds: ds.batch(0), "BatchDatasetV2", "", "Batch size must be greater than zero."),
    (lambda ds: ds.padded_batch(0), "PaddedBatchDatasetV2", "_N_1_Toutput_types_1",
     "Batch size must be greater than zero."),
    (lambda ds: ds.shard(0, 0), "ShardDataset", "",
     "Number of shards must be greater than zero (currently num_shards = 0)."),
    (lambda ds: ds.shard(2, 3), "ShardDataset", "", "Index must be between 0 and 1 (currently index = 3)."),
    (lambda ds: ds.shuffle(0), "ShuffleDatasetV3", "", "buffer_size must be greater than zero or UNKNOWN_CARDINALITY"),
    (lambda ds: ds.shuffle(-1), "ShuffleDatasetV3", "",
     "buffer_size must be greater than zero or UNKNOWN_CARDINALITY"),
    (lambda ds: ds.window(0), "WindowDataset", "", "Window size must be greater than zero."),
    (lambda ds: ds.window(2, shift=0), "WindowDataset", "", "Window shift must be greater than zero."),
    (lambda ds: ds.window(2, stride=0), "WindowDataset", "", "Window stride must be greater than zero."),
    (lambda ds: ds.prefetch(-2), "PrefetchDataset", "",
     "buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning"),
    (lambda ds: ds.interleave(lambda x: D.range(x), cycle_length=2, block_length=0), "InterleaveDataset",
     "_Targuments_0", "block_length must be greater than zero."),
    (lambda ds: ds.interleave(lambda x: D.range(x), cycle_length=-2), "InterleaveDataset", "_Targuments_0",
     "cycle_length must be greater than zero."),
    (lambda ds: ds.map(lambda x: x, num_parallel_calls=0), "ParallelMapDatasetV2", "_Targuments_0",
     "num_parallel_calls must be greater than zero."),
])
def test_dataset_op_argument_errors(make, op, attrs, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=_wrapped(op, attrs, message)):
        make(D.range(10))


def test_accepted_special_values():
    ds = D.range(10)
    # TF 2.21: UNKNOWN_CARDINALITY shuffles the whole input, AUTOTUNE prefetches
    assert sorted(ds.shuffle(-2, seed=1).as_numpy_iterator()) == list(range(10))
    assert len(list(ds.prefetch(-1))) == 10
    assert D.range(5, dtype=tf.int32).element_spec == tf.TensorSpec((), tf.int64)   # TF ignores `dtype=`


def test_single_element_and_iterator_errors():
    ds = D.range(10)
    with pytest.raises(tf.errors.InvalidArgumentError, match=_wrapped(
            "DatasetToSingleElement", "_output_types_1", "Dataset had more than one element.")):
        ds.get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match=_wrapped(
            "DatasetToSingleElement", "_output_types_1", "Dataset was empty.")):
        ds.take(0).get_single_element()
    it = iter(D.range(1))
    next(it)
    with pytest.raises(tf.errors.OutOfRangeError, match=_wrapped("IteratorGetNext", "_output_types_1",
                                                                 "End of sequence")):
        it.get_next()


def test_iterator_errors_name_the_element_components(tmp_path):
    path = str(tmp_path / "train.csv")
    with open(path, "w") as f:
        f.write("age,fare,sex,survived\n22,7.25,male,0\n26,,female,1\n")
    ds = tf.data.experimental.CsvDataset(path, [tf.float32, tf.float32, tf.string, tf.int32], header=True)
    # TF 2.21
    with pytest.raises(tf.errors.InvalidArgumentError, match=_wrapped(
            "IteratorGetNext", "_output_types_4", "Field 1 is required but missing in record!")):
        list(ds)
    missing = os.path.join(str(tmp_path), "missing.txt")
    with pytest.raises(tf.errors.NotFoundError, match=_wrapped(
            "IteratorGetNext", "_output_types_1", f"{missing}; No such file or directory")):
        list(tf.data.TextLineDataset(missing))


def test_padded_shape_smaller_than_the_input():
    m = D.from_tensor_slices([[1, 2], [3, 4]])
    # TF 2.21
    with pytest.raises(ValueError, match=r"^The padded shape \(1,\) is not compatible with the shape \(2,\) of the "
                                         r"corresponding input component\.$"):
        m.padded_batch(2, padded_shapes=[1])
    with pytest.raises(ValueError, match=r"^The padded shape \(3, 1\) is not compatible with the shape \(2,\)"):
        m.padded_batch(2, padded_shapes=[3, 1])
    assert next(iter(m.padded_batch(2, padded_shapes=[5]))).numpy().tolist() == [[1, 2, 0, 0, 0], [3, 4, 0, 0, 0]]


def test_rebatch_of_scalars():
    msg = (r"^Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found a dataset with scalar elements. "
           r"Fix the issue by adding the `batch` transformation to the dataset.$")
    with pytest.raises(ValueError, match=msg):
        D.range(10).rebatch(2)
    with pytest.raises(ValueError, match=msg):
        D.zip((D.range(10).batch(2), D.range(10))).rebatch(2)
    r = D.range(10).batch(4).rebatch(2, drop_remainder=True)
    assert repr(r.element_spec) == "TensorSpec(shape=(2,), dtype=tf.int64, name=None)"
    assert [a.tolist() for a in r.as_numpy_iterator()][:3] == [[0, 1], [2, 3], [4, 5]]
    assert np.array_equal(next(iter(D.range(4).batch(4).rebatch([1, 3]))).numpy(), [0])
