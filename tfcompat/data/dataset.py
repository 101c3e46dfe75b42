"""`tf.data.Dataset`: the API of an eager input pipeline of tfcompat tensors, and the base of its transformations.

Each dataset produces its elements (structures of `tf.Tensor`, tuples stay
tuples, dicts stay dicts) from Python iterators over its inputs. Each public
method delegates to a class of its family module: `sources` (from_tensors,
range, from_generator, ...), `_elementwise` (map, filter, scan, enumerate, ...),
`_ordering` (shuffle, repeat, take, skip, shard), `_batching` (batch,
padded_batch, unbatch, rebatch, window), `_combining` (zip, concatenate,
flat_map, interleave, sampling), `_execution` (cache, prefetch, with_options),
`grouping`, `readers`, `io`; transformations subclass `DerivedDataset` below
and state only what differs from their input. Pipelines over
in-memory tensors (`from_tensor_slices` followed by `shuffle`/`repeat`/`take`/
`skip`) are planned as index streams, so `batch` gathers a whole batch with one
`index_select` per component. `prefetch` and parallel `map` run in background
threads; their output order is TF's deterministic order.

Documented divergences from TF:
- user functions (`map`, `filter`, `flat_map`, `scan`, ...) run eagerly, once per
  element, instead of being traced once by `tf.function`: their Python side
  effects run per element, and errors they raise surface when the element is
  produced (TF raises trace-time errors when the transformation is built).
- the `element_spec` of a function's output is found by running the function on
  the first input element (dims where the input spec is unknown become `None`).
- `shuffle` gives TF's order (its Philox stream, seed generator and ring buffer); other random orders
  (`sample_from_datasets`, `list_files`) follow TF's semantics (uniform choice) but not TF's random stream.
- `ignore_errors` skips elements whose `map`/`filter`/`from_generator` step
  failed; an error raised inside other transformations ends the iteration.
"""
from tfcompat.data import structure as st
from tfcompat.data._common import AUTOTUNE, INFINITE, UNKNOWN, call_args, fn_output, scalar64, to_int
from tfcompat.data.iterator import NumpyIterator, OwnedIterator, _pipeline, wrapped_op_error
from tfcompat.data.options import Options
from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import partial_api, tf_export, unsupported_args
from tfcompat.ops.deprecation import warn_deprecated_arg

__all__ = ["AUTOTUNE", "INFINITE", "UNKNOWN", "Dataset", "DerivedDataset", "OwnedIterator"]


@tf_export("data.Dataset", partial="ragged and sparse elements only through from_tensor(s/_slices), "
                                   "from_generator (ragged), map, batch, ragged_batch and unbatch; no tf.function "
                                   "tracing of user functions; "
                                   "sample_from_datasets' `weights` given as a dataset; batching or saving "
                                   "dataset-valued elements")
class Dataset(st.DatasetBase):
    """A sequence of elements (structures of tensors) with TF's transformations; iterate it with `for`."""

    _tf_name = "Dataset"
    _inputs = ()
    _stateful = None      # an op name ("PyFunc") when iterators over this dataset cannot be checkpointed
    _seed = None          # random datasets: the seed, and `_epoch`, the number of orders drawn so far

    def _next_epoch(self):
        """The next epoch number of a random dataset (its stream for this pass over the input)."""
        epoch = self._epoch
        self._epoch = epoch + 1
        return epoch

    # subclasses implement
    def _elements(self):
        """A Python iterator over this dataset's elements."""
        raise NotImplementedError(type(self).__name__)

    def _compute_spec(self):
        raise NotImplementedError(type(self).__name__)

    def _card(self):
        return UNKNOWN

    def _plan(self):
        """(slice source, callable returning an iterator of int64 index arrays) or None."""
        return None

    # -- introspection --------------------------------------------------------------------------------
    @property
    def element_spec(self):
        spec = self.__dict__.get("_spec")
        if spec is None:
            spec = self._spec = self._compute_spec()
        return spec

    def cardinality(self):
        """The number of elements: `tf.data.INFINITE_CARDINALITY` (-1) or `UNKNOWN_CARDINALITY` (-2) if not known."""
        return scalar64(self._card())

    def __len__(self):
        n = self._card()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True

    def __repr__(self):
        return f"<{self._tf_name} element_spec={self.element_spec!r}>"

    def options(self):
        """The options of this pipeline (those set by `with_options` upstream, merged)."""
        out = Options()
        for d in self._inputs:
            out = out.merge(d.options())
        return out

    # -- iteration ------------------------------------------------------------------------------------
    def __iter__(self):
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """An iterator of the elements as NumPy values (bytes for strings)."""
        return NumpyIterator(self)

    def as_numpy(self):
        return list(self.as_numpy_iterator())

    def reduce(self, initial_state, reduce_func, name=None):
        """Folds the elements into `initial_state` with `reduce_func(state, element)`."""
        state = st.normalize(initial_state)
        for element in self._elements():
            state = fn_output(call_args(reduce_func, state, element))
        return state

    # -- sources --------------------------------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element, `tensors`."""
        return sources.TensorDataset(tensors)

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """A dataset of the slices of `tensors` along their first dimension."""
        return sources.TensorSliceDataset(tensors)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None, **kwargs):
        """`range(stop)`, `range(start, stop[, step])` as scalar tensors (int64 by default; TF ignores other keyword
        arguments, `dtype=` among them)."""
        return sources.RangeDataset(args, dtypes.as_dtype(output_type))

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        """Elements yielded by `generator(*args)`, checked against `output_signature`."""
        for arg, value in (("output_types", output_types), ("output_shapes", output_shapes)):
            if value is not None:
                warn_deprecated_arg("DatasetV2.from_generator", "tensorflow.python.data.ops.dataset_ops", arg,
                                    "Use output_signature instead")
        return sources.GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Elements combined from several datasets (stops at the shortest)."""
        if datasets is not None:
            if args:
                raise TypeError("Both `*args` and `datasets` cannot be set.")
            args = (datasets,)
        if not args:
            raise TypeError("Must pass at least one dataset to `zip`.")
        structure = args[0] if len(args) == 1 else args
        return _combining.ZipDataset(structure)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements drawn from `datasets` at random with probabilities `weights`."""
        return _combining.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                               rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Elements taken from `datasets[i]` for each int64 `i` of `choice_dataset`."""
        return _combining.ChooseDataset(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The file names matching the glob pattern(s), sorted, shuffled unless `shuffle=False`."""
        return readers.list_files(file_pattern, shuffle, seed)

    @staticmethod
    @unsupported_args("compression", "reader_func", "wait", api_name="tf.data.Dataset.load")
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """A dataset saved with `Dataset.save` (tfcompat's format, see `tfcompat.data.io`)."""
        return data_io.load(path, element_spec)

    @unsupported_args("compression", "shard_func", "checkpoint_args", api_name="tf.data.Dataset.save")
    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Writes the elements under directory `path` (NumPy `.npy` files plus a JSON spec, no pickle)."""
        data_io.save(self, path)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """An infinite stream of random int64 scalars (TF's values for a seed); a new stream each iteration with
        `rerandomize_each_iteration=True`."""
        return sources.RandomDataset(seed, rerandomize_each_iteration)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """An infinite count `start, start+step, ...`."""
        return sources.CounterDataset(start, step, dtypes.as_dtype(dtype))

    # -- transformations ------------------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None,
            use_unbounded_threadpool=False, name=None):
        """Applies `map_func` to each element (in parallel threads with `num_parallel_calls`; order kept)."""
        if num_parallel_calls is None or synchronous:
            return _elementwise.MapDataset(self, map_func)
        return _elementwise.ParallelMapDataset(self, map_func, to_int(num_parallel_calls))

    def filter(self, predicate, name=None):
        """Keeps the elements for which `predicate` returns True."""
        return _elementwise.FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        """Maps each element to a dataset and flattens the results in order."""
        return _combining.FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        """Maps elements to datasets and interleaves `block_length` elements from `cycle_length` of them."""
        return _combining.InterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Shuffles with a buffer: emits a uniformly random buffered element and refills its slot."""
        return _ordering.ShuffleDataset(self, to_int(buffer_size), seed, reshuffle_each_iteration)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        """Stacks consecutive elements into batches of `batch_size`."""
        return _batching.BatchDataset(self, to_int(batch_size), bool(drop_remainder))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        """Batches elements, padding each component to `padded_shapes` (default: the batch's largest)."""
        return _batching.PaddedBatchDataset(self, to_int(batch_size), padded_shapes, padding_values,
                                            bool(drop_remainder))

    @unsupported_args("row_splits_dtype", api_name="tf.data.Dataset.ragged_batch")
    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64, name=None):
        """Like `batch`, but components of rank >= 1 are batched into RaggedTensors (rows may differ in length)."""
        return _batching.RaggedBatchDataset(self, to_int(batch_size), bool(drop_remainder))

    def sparse_batch(self, batch_size, row_shape, name=None):
        """Batches dense elements of at most `row_shape` (-1: the batch's largest) into SparseTensors."""
        return _batching.SparseBatchDataset(self, to_int(batch_size), row_shape)

    def unbatch(self, name=None):
        """Splits each element along its first dimension into elements."""
        return _batching.UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Re-batches batched elements to `batch_size` (an int or a list of sizes used cyclically)."""
        return _batching.RebatchDataset(self, batch_size, bool(drop_remainder))

    def repeat(self, count=None):
        """Repeats the dataset `count` times (forever if None or -1)."""
        return _ordering.RepeatDataset(self, -1 if count is None else to_int(count))

    def take(self, count, name=None):
        """The first `count` elements (all if -1)."""
        return _ordering.TakeDataset(self, to_int(count))

    def skip(self, count, name=None):
        """All but the first `count` elements (none if -1)."""
        return _ordering.SkipDataset(self, to_int(count))

    def take_while(self, predicate, name=None):
        """The elements up to the first one where `predicate` is False."""
        return _elementwise.TakeWhileDataset(self, predicate)

    def cache(self, filename="", name=None):
        """Caches the elements in memory (or in files at `filename`) after the first full iteration."""
        return _execution.CacheDataset(self, filename)

    @partial_api("a snapshot is reused by the dataset object that wrote it, in this process only (TF also reuses a "
                 "finished snapshot of the same pipeline written by another run); tfcompat's file format")
    @unsupported_args("compression", "reader_func", "shard_func", api_name="tf.data.Dataset.snapshot")
    def snapshot(self, path, compression="AUTO", reader_func=None, shard_func=None, name=None):
        """Persists the elements under directory `path` on the first complete pass; later passes read them."""
        return _execution.SnapshotDataset(self, path)

    def prefetch(self, buffer_size, name=None):
        """Produces up to `buffer_size` elements ahead in a background thread."""
        return _execution.PrefetchDataset(self, to_int(buffer_size))

    def enumerate(self, start=0, name=None):
        """Pairs `(index, element)` with an int64 index from `start`."""
        return _elementwise.EnumerateDataset(self, to_int(start))

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of `size` elements (datasets) starting every `shift` elements, taking every `stride`-th."""
        return _batching.WindowDataset(self, to_int(size), to_int(size if shift is None else shift), to_int(stride),
                                       bool(drop_remainder))

    def scan(self, initial_state, scan_func, name=None):
        """Emits `output` for each element where `(state, output) = scan_func(state, element)`."""
        return _elementwise.ScanDataset(self, initial_state, scan_func)

    def apply(self, transformation_func):
        """`transformation_func(self)`."""
        return transformation_func(self)

    def shard(self, num_shards, index, name=None):
        """Every `num_shards`-th element starting at `index`."""
        return _ordering.ShardDataset(self, to_int(num_shards), to_int(index))

    def ignore_errors(self, log_warning=False, name=None):
        """Drops the elements whose computation raised an error."""
        return _elementwise.IgnoreErrorsDataset(self)

    def unique(self, name=None):
        """The elements seen for the first time (scalar int or string elements)."""
        return _elementwise.UniqueDataset(self)

    def concatenate(self, dataset, name=None):
        """This dataset's elements followed by `dataset`'s."""
        return _combining.ConcatenateDataset(self, dataset)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """Groups elements by int64 `key_func`; each full window of a key goes through `reduce_func(key, ds)`."""
        return grouping.GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Batches elements of similar length together (buckets by `bucket_boundaries`), padded."""
        return grouping.bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                                  padded_shapes, padding_values, pad_to_bucket_boundary,
                                                  no_padding, drop_remainder)

    def get_single_element(self, name=None):
        """The one element of this dataset (TF's InvalidArgumentError when it has none or more)."""
        op = "DatasetToSingleElement"
        it = iter(self._elements())
        try:
            for element in it:
                for _ in it:
                    raise errors.op_error(errors.InvalidArgumentError, "Dataset had more than one element.", op)
                return element
            raise errors.op_error(errors.InvalidArgumentError, "Dataset was empty.", op)
        except errors.OpError as e:
            raise wrapped_op_error(e, op, self) from e.__cause__

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None, name=None):
        """`(class, element)` pairs resampled so their classes follow `target_dist` (from `initial_dist`)."""
        return resampling.rejection_resample(self, class_func, target_dist, initial_dist, seed)

    def with_options(self, options, name=None):
        """This dataset with `options` merged into its options."""
        return _execution.OptionsDataset(self, options)


class DerivedDataset(Dataset):
    """A dataset derived from input dataset(s): its first input's element spec and cardinality unless it says otherwise.

    Each transformation states only what differs: `_tf_name` (its repr), its arguments (`__init__`, after
    `super().__init__(*inputs)`), `_elements()`, and where they differ `_compute_spec()` and `_card()` (its own
    rule or one of `unknown_cardinality` / `unknown_unless_infinite`).
    """

    def __init__(self, *inputs):
        self._inputs = inputs
        self._input = inputs[0] if inputs else None

    def _compute_spec(self):
        return self._input.element_spec

    def _card(self):
        return self._input._card()

    def _first_output(self, fn):
        """`fn(first input element)` (to find an output spec by running a user function); over an empty input,
        `fn` of a stand-in element of the input's spec (zeros, empty strings, unknown dimensions 0), as TF traces the
        function without data; None when no stand-in can be made or the function fails on it. The peek starts no
        pass of the input's random datasets: TF draws a shuffle's order per iterator, and tracing makes none."""
        randoms = [d for d in _pipeline(self._input) if d._seed is not None]
        epochs = [d._epoch for d in randoms]
        try:
            for element in self._input._elements():
                return fn(element)
        finally:
            for d, epoch in zip(randoms, epochs):
                d._epoch = epoch
        dummy = st.stand_in(self._input.element_spec)
        if dummy is None:
            return None
        try:
            return fn(dummy)
        except Exception:  # noqa: BLE001 - a function that needs real data: no spec without running it
            return None


def _tf_class_name(cls, name, module):
    """Gives `cls` and its methods TF's Python class name and module, which Python's own argument errors and the
    class's repr show (`DatasetV2.batch() got an unexpected keyword argument 'foo'`)."""
    old = cls.__qualname__ + "."
    cls.__name__ = cls.__qualname__ = name
    cls.__module__ = module
    for attr, value in vars(cls).items():
        fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        if callable(fn) and getattr(fn, "__qualname__", "").startswith(old):
            fn.__qualname__ = f"{name}.{attr}"


_tf_class_name(Dataset, "DatasetV2", "tensorflow.python.data.ops.dataset_ops")


def unknown_cardinality(dataset):
    """Cardinality rule of transformations that may drop or add elements: UNKNOWN."""
    return UNKNOWN


def unknown_unless_infinite(dataset):
    """Cardinality rule of unbatch-like transformations: INFINITE over an infinite input, else UNKNOWN."""
    return INFINITE if dataset._input._card() == INFINITE else UNKNOWN


# The transformation families subclass `Dataset`/`DerivedDataset`, so they load once both exist.
from tfcompat.data import (_batching, _combining, _elementwise, _execution, _ordering, grouping,  # noqa: E402
                           io as data_io, readers, resampling, sources)
