"""`tf.data.experimental` names TF keeps as deprecated aliases of `tf.data.Dataset` methods: each logs TF's deprecation
warning once and hands off to the method."""
from tfcompat.data.dataset import Dataset
from tfcompat.framework.export import tf_export
from tfcompat.ops.deprecation import warn_deprecated

_MODULE = "tensorflow.python.data.experimental.ops."


def _warn(name, module, instructions):
    warn_deprecated(name, _MODULE + module, instructions)


@tf_export("data.experimental.enumerate_dataset")
def enumerate_dataset(start=0):
    _warn("enumerate_dataset", "enumerate_ops", "Use `tf.data.Dataset.enumerate()`.")
    return lambda dataset: dataset.enumerate(start)


@tf_export("data.experimental.get_single_element")
def get_single_element(dataset):
    _warn("get_single_element", "get_single_element", "Use `tf.data.Dataset.get_single_element()`.")
    return dataset.get_single_element()


@tf_export("data.experimental.get_next_as_optional")
def get_next_as_optional(iterator):
    warn_deprecated("get_next_as_optional", "tensorflow.python.data.ops.iterator_ops",
                    "Use `tf.data.Iterator.get_next_as_optional()` instead.")
    return iterator.get_next_as_optional()


@tf_export("data.experimental.get_structure")
def get_structure(dataset_or_iterator):
    """The element spec of a dataset or iterator."""
    return dataset_or_iterator.element_spec


@tf_export("data.experimental.group_by_window")
def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    _warn("group_by_window", "grouping", "Use `tf.data.Dataset.group_by_window(...)`.")
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size, window_size_func)


@tf_export("data.experimental.bucket_by_sequence_length")
def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    _warn("bucket_by_sequence_length", "grouping", "Use `tf.data.Dataset.bucket_by_sequence_length(...)`.")
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes, padding_values,
        pad_to_bucket_boundary, no_padding, drop_remainder)


@tf_export("data.experimental.map_and_batch")
def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False, num_parallel_calls=None):
    _warn("map_and_batch", "batching", "Use `tf.data.Dataset.map(map_func, num_parallel_calls)` followed by "
          "`tf.data.Dataset.batch(batch_size, drop_remainder)`. Static tf.data optimizations will take care of using "
          "the fused implementation.")
    return lambda dataset: dataset.map(map_func, num_parallel_calls).batch(batch_size, drop_remainder)


@tf_export("data.experimental.parallel_interleave")
def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    _warn("parallel_interleave", "interleave_ops", "Use `tf.data.Dataset.interleave(map_func, cycle_length, "
          "block_length, num_parallel_calls=tf.data.AUTOTUNE)` instead. If sloppy execution is desired, use "
          "`tf.data.Options.deterministic`.")
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


@tf_export("data.experimental.scan")
def scan(initial_state, scan_func):
    _warn("scan", "scan_ops", "Use `tf.data.Dataset.scan(...) instead")
    return lambda dataset: dataset.scan(initial_state, scan_func)


@tf_export("data.experimental.shuffle_and_repeat")
def shuffle_and_repeat(buffer_size, count=None, seed=None):
    _warn("shuffle_and_repeat", "shuffle_ops", "Use `tf.data.Dataset.shuffle(buffer_size, seed)` followed by "
          "`tf.data.Dataset.repeat(count)`. Static tf.data optimizations will take care of using the fused "
          "implementation.")
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


@tf_export("data.experimental.take_while")
def take_while(predicate):
    _warn("take_while", "take_while_ops", "Use `tf.data.Dataset.take_while(...)")
    return lambda dataset: dataset.take_while(predicate)


@tf_export("data.experimental.unbatch")
def unbatch():
    _warn("unbatch", "batching", "Use `tf.data.Dataset.unbatch()`.")
    return lambda dataset: dataset.unbatch()


@tf_export("data.experimental.unique")
def unique():
    _warn("unique", "unique", "Use `tf.data.Dataset.unique(...)")
    return lambda dataset: dataset.unique()


@tf_export("data.experimental.RandomDataset")
def RandomDataset(seed=None):  # noqa: N802  (TF's name)
    _warn("_RandomDataset.__init__", "random_ops", "Use `tf.data.Dataset.random(...)`.")
    return Dataset.random(seed)


@tf_export("data.experimental.parse_example_dataset")
def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    _warn("parse_example_dataset", "parsing_ops", "Use `tf.data.Dataset.map(tf.io.parse_example(...))` instead.")
    from tfcompat.ops.io_ops.example import parse_example
    return lambda dataset: dataset.map(lambda serialized: parse_example(serialized, features), num_parallel_calls)


@tf_export("data.experimental.dense_to_sparse_batch")
def dense_to_sparse_batch(batch_size, row_shape):
    _warn("dense_to_sparse_batch", "batching", "Use `tf.data.Dataset.sparse_batch` instead.")
    return lambda dataset: dataset.sparse_batch(batch_size, row_shape)
