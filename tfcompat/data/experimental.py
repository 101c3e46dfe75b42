"""`tf.data.experimental`: the parts of it tfcompat implements."""
from tfcompat.data.dataset import AUTOTUNE, INFINITE as INFINITE_CARDINALITY, UNKNOWN as UNKNOWN_CARDINALITY, Dataset
from tfcompat.data.options import (AutoShardPolicy, AutotuneOptions, DistributeOptions,  # noqa: F401
                                   ExternalStatePolicy, OptimizationOptions, ThreadingOptions)
from tfcompat.data.experimental_aliases import (RandomDataset, bucket_by_sequence_length,  # noqa: F401
                                                dense_to_sparse_batch, enumerate_dataset, get_next_as_optional, get_single_element,
                                                get_structure, group_by_window, map_and_batch,
                                                parallel_interleave, parse_example_dataset, scan,
                                                shuffle_and_repeat, take_while, unbatch, unique)
from tfcompat.data._execution import AssertCardinalityDataset, CopyToDeviceDataset
from tfcompat.data.csv_dataset import CsvDataset  # noqa: F401
from tfcompat.data.readers import make_csv_dataset, warn_ignore_errors  # noqa: F401
from tfcompat.framework import dtypes
from tfcompat.framework.export import tf_export
from tfcompat.ops.deprecation import warn_deprecated

tf_export("data.experimental.AUTOTUNE")(AUTOTUNE)
tf_export("data.experimental.INFINITE_CARDINALITY")(INFINITE_CARDINALITY)
tf_export("data.experimental.UNKNOWN_CARDINALITY")(UNKNOWN_CARDINALITY)


@tf_export("data.experimental.Counter")
def Counter(start=0, step=1, dtype=dtypes.int64, name=None):  # noqa: N802  (TF's name)
    """`Dataset.counter`: the infinite count `start, start + step, ...` (deprecated in TF)."""
    warn_deprecated("CounterV2", "tensorflow.python.data.experimental.ops.counter",
                    "Use `tf.data.Dataset.counter(...)` instead.")
    return Dataset.counter(start, step, dtype, name)


@tf_export("data.experimental.dense_to_ragged_batch", unsupported=("row_splits_dtype",))
def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    """`Dataset.ragged_batch` as a transformation for `Dataset.apply` (deprecated in TF)."""
    warn_deprecated("dense_to_ragged_batch", "tensorflow.python.data.experimental.ops.batching",
                    "Use `tf.data.Dataset.ragged_batch` instead.")
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder)


@tf_export("data.experimental.rejection_resample")
def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """`Dataset.rejection_resample` as a transformation for `Dataset.apply`."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist, seed)


@tf_export("data.experimental.cardinality")
def cardinality(dataset):
    """`dataset.cardinality()`: an int64 scalar (-1 infinite, -2 unknown)."""
    return dataset.cardinality()


@tf_export("data.experimental.sample_from_datasets", partial="`weights` given as a dataset")
def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    return Dataset.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset)


@tf_export("data.experimental.choose_from_datasets")
def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    return Dataset.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


@tf_export("data.experimental.save", unsupported=("compression", "shard_func", "checkpoint_args"))
def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    return dataset.save(path)


@tf_export("data.experimental.load", unsupported=("compression", "reader_func"))
def load(path, element_spec=None, compression=None, reader_func=None):
    return Dataset.load(path, element_spec)


@tf_export("data.experimental.ignore_errors")
def ignore_errors(log_warning=False):
    """Deprecated form of `Dataset.ignore_errors` (TF logs a deprecation warning)."""
    warn_ignore_errors()
    return lambda dataset: dataset.ignore_errors(log_warning)


@tf_export("data.experimental.copy_to_device")
def copy_to_device(target_device, source_device="/cpu:0"):
    """A transformation copying each element's tensors to `target_device` (`source_device` is where the input runs:
    tfcompat's input pipelines run in the Python process whatever it says)."""
    return lambda dataset: CopyToDeviceDataset(dataset, target_device)


@tf_export("data.experimental.prefetch_to_device")
def prefetch_to_device(device, buffer_size=None):
    """A transformation copying elements to `device` and producing up to `buffer_size` (default: autotuned) ahead."""
    size = AUTOTUNE if buffer_size is None else buffer_size
    return lambda dataset: dataset.apply(copy_to_device(device)).prefetch(size)


@tf_export("data.experimental.assert_cardinality")
def assert_cardinality(expected_cardinality):
    """A transformation declaring the dataset's cardinality; iterating checks the element count against it."""
    expected = int(expected_cardinality)
    return lambda dataset: AssertCardinalityDataset(dataset, expected)


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("data.experimental", attr)
