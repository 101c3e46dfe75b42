"""`tf.data.Dataset`: an eager input pipeline of tfcompat tensors.

Each dataset produces its elements (structures of `tf.Tensor`, tuples stay
tuples, dicts stay dicts) from Python iterators over its inputs. Pipelines over
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
- random order (`shuffle`, `sample_from_datasets`, `list_files`) follows TF's
  semantics (buffer window, uniform choice) but not TF's random number stream.
- `ignore_errors` skips elements whose `map`/`filter`/`from_generator` step
  failed; an error raised inside other transformations ends the iteration.
"""
import itertools
import json
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

from tfcompat.data import structure as st
from tfcompat.data.options import Options
from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops.random_ops import draw_seed

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2
_INT64 = torch.int64


def _int(value):
    return int(value._array()) if isinstance(value, Tensor) else int(value)


def _scalar64(value):
    return wrap(torch.tensor(value, dtype=_INT64))


def _end_of_sequence():
    return errors.op_error(errors.OutOfRangeError, "End of sequence", "IteratorGetNext")


def _get_next_error(cls, message):
    return errors.op_error(cls, message, "IteratorGetNext")


def _call(fn, element):
    """Calls a user function with an element: a plain tuple is unpacked into positional args (TF's rule)."""
    if type(element) is tuple:
        return fn(*element)
    return fn(element)


def _fn_output(value):
    """A function's return value as an element (a top-level list becomes a tuple, leaves become tensors)."""
    if isinstance(value, list):
        value = tuple(value)
    if value is None or (st.is_nested(value) and not st.flatten(value)):
        raise errors.InvalidArgumentError(
            None, None, "Length for attr 'output_types' of 0 must be at least minimum 1")
    return st.normalize(value)


def _cpu_count():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


_POOL = []


def _pool():
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max(_cpu_count(), 2), thread_name_prefix="tfcompat-data"))
    return _POOL[0]


# -- the Dataset base ------------------------------------------------------------------------------------

@tf_export("data.Dataset", partial="no ragged elements; sparse elements only through from_tensor(s/_slices), map, "
                                   "batch and unbatch; no tf.function tracing of user functions")
class Dataset:
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
        return _scalar64(self._card())

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
        return _NumpyIterator(self)

    def as_numpy(self):
        return list(self.as_numpy_iterator())

    def reduce(self, initial_state, reduce_func, name=None):
        """Folds the elements into `initial_state` with `reduce_func(state, element)`."""
        state = st.normalize(initial_state)
        for element in self._elements():
            state = _fn_output(reduce_func(state, element))
        return state

    # -- sources --------------------------------------------------------------------------------------
    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset of one element, `tensors`."""
        return _TensorDataset(tensors)

    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """A dataset of the slices of `tensors` along their first dimension."""
        return _TensorSliceDataset(tensors)

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None):
        """`range(stop)`, `range(start, stop[, step])` as scalar tensors (int64 by default)."""
        return _RangeDataset(args, dtypes.as_dtype(output_type))

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                       name=None):
        """Elements yielded by `generator(*args)`, checked against `output_signature`."""
        from tfcompat.data.sources import GeneratorDataset
        return GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

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
        return _ZipDataset(structure)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements drawn from `datasets` at random with probabilities `weights`."""
        from tfcompat.data.sources import SampleDataset
        return SampleDataset(datasets, weights, seed, stop_on_empty_dataset, rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """Elements taken from `datasets[i]` for each int64 `i` of `choice_dataset`."""
        from tfcompat.data.sources import ChooseDataset
        return ChooseDataset(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The file names matching the glob pattern(s), sorted, shuffled unless `shuffle=False`."""
        from tfcompat.data.readers import list_files
        return list_files(file_pattern, shuffle, seed)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """A dataset saved with `Dataset.save` (tfcompat's format, see `tfcompat.data.io`)."""
        from tfcompat.data.io import load
        return load(path, element_spec, compression, reader_func)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Writes the elements under directory `path` (NumPy `.npy` files plus a JSON spec, no pickle)."""
        from tfcompat.data.io import save
        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """An infinite stream of random int64 scalars (not TF's random number stream)."""
        return _RandomDataset(seed)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None):
        """An infinite count `start, start+step, ...`."""
        return _CounterDataset(start, step, dtypes.as_dtype(dtype))

    # -- transformations ------------------------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, synchronous=None, use_unbounded_threadpool=False,
            name=None):
        """Applies `map_func` to each element (in parallel threads with `num_parallel_calls`; order kept)."""
        if num_parallel_calls is None or synchronous:
            return _MapDataset(self, map_func)
        return _ParallelMapDataset(self, map_func, _int(num_parallel_calls))

    def filter(self, predicate, name=None):
        """Keeps the elements for which `predicate` returns True."""
        return _FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        """Maps each element to a dataset and flattens the results in order."""
        return _FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
                   deterministic=None, name=None):
        """Maps elements to datasets and interleaves `block_length` elements from `cycle_length` of them."""
        return _InterleaveDataset(self, map_func, cycle_length, block_length, num_parallel_calls)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Shuffles with a buffer: emits a uniformly random buffered element and refills its slot."""
        return _ShuffleDataset(self, _int(buffer_size), seed, reshuffle_each_iteration)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None, name=None):
        """Stacks consecutive elements into batches of `batch_size`."""
        return _BatchDataset(self, _int(batch_size), bool(drop_remainder))

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False, name=None):
        """Batches elements, padding each component to `padded_shapes` (default: the batch's largest)."""
        return _PaddedBatchDataset(self, _int(batch_size), padded_shapes, padding_values, bool(drop_remainder))

    def unbatch(self, name=None):
        """Splits each element along its first dimension into elements."""
        return _UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Re-batches batched elements to `batch_size` (an int or a list of sizes used cyclically)."""
        return _RebatchDataset(self, batch_size, bool(drop_remainder))

    def repeat(self, count=None):
        """Repeats the dataset `count` times (forever if None or -1)."""
        return _RepeatDataset(self, -1 if count is None else _int(count))

    def take(self, count, name=None):
        """The first `count` elements (all if -1)."""
        return _TakeDataset(self, _int(count))

    def skip(self, count, name=None):
        """All but the first `count` elements (none if -1)."""
        return _SkipDataset(self, _int(count))

    def take_while(self, predicate, name=None):
        """The elements up to the first one where `predicate` is False."""
        return _TakeWhileDataset(self, predicate)

    def cache(self, filename="", name=None):
        """Caches the elements in memory (or in files at `filename`) after the first full iteration."""
        return _CacheDataset(self, str(filename._array()[()].decode() if isinstance(filename, Tensor) else filename))

    def prefetch(self, buffer_size, name=None):
        """Produces up to `buffer_size` elements ahead in a background thread."""
        return _PrefetchDataset(self, _int(buffer_size))

    def enumerate(self, start=0, name=None):
        """Pairs `(index, element)` with an int64 index from `start`."""
        return _EnumerateDataset(self, _int(start))

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of `size` elements (datasets) starting every `shift` elements, taking every `stride`-th."""
        return _WindowDataset(self, _int(size), _int(size if shift is None else shift), _int(stride),
                              bool(drop_remainder))

    def scan(self, initial_state, scan_func, name=None):
        """Emits `output` for each element where `(state, output) = scan_func(state, element)`."""
        return _ScanDataset(self, initial_state, scan_func)

    def apply(self, transformation_func):
        """`transformation_func(self)`."""
        return transformation_func(self)

    def shard(self, num_shards, index, name=None):
        """Every `num_shards`-th element starting at `index`."""
        num_shards, index = _int(num_shards), _int(index)
        if num_shards <= 0:
            raise errors.InvalidArgumentError(None, None, "Number of shards must be greater than zero "
                                              f"(currently num_shards = {num_shards}).")
        if not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(None, None, "Index must be between 0 and "
                                              f"{num_shards - 1} (currently index = {index}).")
        return _ShardDataset(self, num_shards, index)

    def ignore_errors(self, log_warning=False, name=None):
        """Drops the elements whose computation raised an error."""
        return _IgnoreErrorsDataset(self)

    def unique(self, name=None):
        """The elements seen for the first time (scalar int or string elements)."""
        return _UniqueDataset(self)

    def concatenate(self, dataset, name=None):
        """This dataset's elements followed by `dataset`'s."""
        return _ConcatenateDataset(self, dataset)

    def group_by_window(self, key_func, reduce_func, window_size=None, window_size_func=None, name=None):
        """Groups elements by int64 `key_func`; each full window of a key goes through `reduce_func(key, ds)`."""
        from tfcompat.data.grouping import GroupByWindowDataset
        return GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                  padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                                  no_padding=False, drop_remainder=False, name=None):
        """Batches elements of similar length together (buckets by `bucket_boundaries`), padded."""
        from tfcompat.data.grouping import bucket_by_sequence_length
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder)

    def with_options(self, options, name=None):
        """This dataset with `options` merged into its options."""
        return _OptionsDataset(self, options)


# -- iterators -------------------------------------------------------------------------------------------

def _pipeline(dataset):
    """The datasets of a pipeline, depth first from `dataset` through `_inputs` (each once)."""
    out, seen, stack = [], set(), [dataset]
    while stack:
        d = stack.pop()
        if id(d) not in seen:
            seen.add(id(d))
            out.append(d)
            stack.extend(reversed(d._inputs))
    return out


def _random_state(dataset):
    """[[seed, epoch]] of the random datasets (shuffle, sampling, random) of a pipeline, in pipeline order."""
    return [[d._seed, d._epoch] for d in _pipeline(dataset) if d._seed is not None]


ITERATOR_STATE_FORMAT = "tfcompat.data.iterator/1"


class OwnedIterator:
    """An iterator over a dataset: `next(it)` (StopIteration at the end) or `it.get_next()` (OutOfRangeError).

    It is checkpointable (`tf.train.Checkpoint(iterator=it)`): its state is the number of elements produced and
    the seeds and epoch numbers its random datasets started from; restoring replays the pipeline to that point,
    so user functions must be deterministic (TF saves its kernels' buffers instead).
    """

    __slots__ = ("_dataset", "_it", "_count", "_base", "__weakref__")

    def __init__(self, dataset):
        self._dataset = dataset
        self._count = 0
        self._base = _random_state(dataset)
        self._it = iter(dataset._elements())

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._it)
        self._count += 1
        return element

    def get_next(self):
        try:
            return self.__next__()
        except StopIteration:
            raise _end_of_sequence() from None

    def get_next_as_optional(self):
        from tfcompat.data.optional import Optional
        try:
            return Optional.from_value(self.__next__())
        except StopIteration:
            return Optional.empty(self._dataset.element_spec)

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def _serialize_state(self):
        """The iterator's position as UTF-8 JSON bytes (tfcompat's ITERATOR_STATE encoding, no pickle)."""
        for d in _pipeline(self._dataset):
            if d._stateful:
                raise errors.op_error(errors.FailedPreconditionError, f"{d._stateful} is stateful.", "SerializeIterator")
        return json.dumps({"format": ITERATOR_STATE_FORMAT, "produced": self._count,
                           "random": self._base}).encode("utf-8")

    def _restore_state(self, data):
        """Moves the iterator to the position saved by `_serialize_state` (replaying the pipeline)."""
        try:
            state = json.loads(bytes(data).decode("utf-8"))
            ok = state.get("format") == ITERATOR_STATE_FORMAT
            produced, randoms = int(state["produced"]), [(int(a), int(b)) for a, b in state["random"]]
        except (ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError):
            ok = False
        if not ok:
            raise errors.op_error(errors.InvalidArgumentError, "Could not parse the iterator state: not a tfcompat "
                                  f"{ITERATOR_STATE_FORMAT} state", "DeserializeIterator")
        datasets = [d for d in _pipeline(self._dataset) if d._seed is not None]
        if len(datasets) != len(randoms) or produced < 0:
            raise errors.op_error(errors.InvalidArgumentError, f"The iterator state has {len(randoms)} random "
                                  f"datasets; this pipeline has {len(datasets)}", "DeserializeIterator")
        for d, (seed, epoch) in zip(datasets, randoms):
            d._seed, d._epoch = seed, epoch
        self._base = [list(r) for r in randoms]
        self._it = iter(self._dataset._elements())
        self._count = sum(1 for _ in itertools.islice(self._it, produced))

    def __repr__(self):
        return f"<tensorflow.python.data.ops.iterator_ops.OwnedIterator object at {hex(id(self))}>"


class _NumpyIterator:
    __slots__ = ("_it",)

    def __init__(self, dataset):
        self._it = iter(dataset._elements())

    def __iter__(self):
        return self

    def __next__(self):
        return st.map_leaves(st.numpy_of, next(self._it))


# -- sources ---------------------------------------------------------------------------------------------

class _TensorDataset(Dataset):
    _tf_name = "_TensorDataset"

    def __init__(self, element):
        self._element = st.normalize(element)

    def _elements(self):
        return iter((self._element,))

    def _compute_spec(self):
        return st.spec_of(self._element)

    def _card(self):
        return 1


def _row(c, i):
    """Row `i` of a component storage (a 0-d object array for string scalars)."""
    r = c[i]
    if type(c) is np.ndarray and type(r) is not np.ndarray:
        a = np.empty((), dtype=object)
        a[()] = r
        return a
    return r


def _gather(c, idx):
    """Rows `idx` (int64 NumPy array) of a component storage, one index_select (a view for a run)."""
    n = len(idx)
    if n and idx[-1] - idx[0] == n - 1 and (n < 3 or (np.diff(idx) == 1).all()):
        return c[int(idx[0]):int(idx[0]) + n]
    if type(c) is np.ndarray:
        return c[idx]
    return c.index_select(0, torch.from_numpy(idx).to(c.device))


def _slice_spec(c):
    """The spec of one slice of a component storage (or SparseRows)."""
    if isinstance(c, st.SparseRows):
        return st.SparseTensorSpec(c.dense[1:], c.dtype)
    return st.TensorSpec(TensorShape._from_tuple(tuple(c.shape[1:])), dtypes.FROM_STORAGE[c.dtype])


class _TensorSliceDataset(Dataset):
    _tf_name = "_TensorSliceDataset"

    def __init__(self, tensors):
        element = st.normalize(tensors)
        flat = st.flatten(element)
        n = None
        components = []
        for t in flat:
            if isinstance(t, Dataset):
                raise TypeError("from_tensor_slices does not take datasets")
            if isinstance(t, SparseTensor):
                c = st.SparseRows(t)
                rows = c.dense[0]
            else:
                c = t._t
                if c.ndim == 0:
                    raise ValueError("Unbatching a tensor is only supported for rank >= 1")
                rows = c.shape[0]
            if n is None:
                n = rows
            elif rows != n:
                raise ValueError(f"Dimensions {n} and {rows} are not compatible")
            components.append(c)
        self._template = element
        self._components = components
        self._n = n

    def _compute_spec(self):
        return st.pack(self._template, [_slice_spec(c) for c in self._components])

    def _card(self):
        return self._n

    def _plan(self):
        n = self._n
        return self, lambda: iter((np.arange(n, dtype=np.int64),))

    def _element_at(self, i):
        return st.pack(self._template, [c.row(i) if isinstance(c, st.SparseRows) else wrap(_row(c, i))
                                        for c in self._components])

    def _batch_at(self, idx):
        return st.pack(self._template, [c.gather(idx) if isinstance(c, st.SparseRows) else wrap(_gather(c, idx))
                                        for c in self._components])

    def _elements(self):
        return map(self._element_at, range(self._n))


class _ListDataset(Dataset):
    """A dataset over a Python list of elements (window contents, group windows)."""

    _tf_name = "_VariantDataset"

    def __init__(self, elements, spec):
        self._list = elements
        self._spec = spec

    def _elements(self):
        return iter(self._list)

    def _card(self):
        return len(self._list)


class _RangeDataset(Dataset):
    _tf_name = "_RangeDataset"

    def __init__(self, args, dtype):
        for a in args:
            if isinstance(a, float):
                raise TypeError(f"Cannot convert {a!r} to EagerTensor of dtype int64")
        self._range = range(*(_int(a) for a in args))
        self._dtype = dtype

    def _compute_spec(self):
        return st.TensorSpec(TensorShape(()), self._dtype)

    def _card(self):
        return len(self._range)

    def _elements(self):
        tdt = self._dtype.torch_dtype
        return (wrap(torch.tensor(i, dtype=tdt)) for i in self._range)


class _CounterDataset(_RangeDataset):
    _tf_name = "_ScanDataset"

    def __init__(self, start, step, dtype):
        self._start, self._step, self._dtype = _int(start), _int(step), dtype

    def _card(self):
        return INFINITE

    def _elements(self):
        tdt = self._dtype.torch_dtype
        return (wrap(torch.tensor(i, dtype=tdt)) for i in itertools.count(self._start, self._step))


class _RandomDataset(_CounterDataset):
    _tf_name = "_RandomDataset"

    def __init__(self, seed):
        # no seed: a drawn one, and a new stream per iteration
        self._rerandomize, self._epoch, self._dtype = seed is None, 0, dtypes.int64
        self._seed = draw_seed() if seed is None else _int(seed)

    def _elements(self):
        rng = np.random.default_rng([self._seed, self._next_epoch()] if self._rerandomize else self._seed)
        while True:
            for v in rng.integers(0, 2 ** 63 - 1, size=256).tolist():
                yield wrap(torch.tensor(v, dtype=_INT64))


# -- unary transformations -------------------------------------------------------------------------------

class _UnaryDataset(Dataset):
    """A transformation of one input dataset."""

    def __init__(self, input_dataset):
        self._input = input_dataset
        self._inputs = (input_dataset,)

    def _compute_spec(self):
        return self._input.element_spec

    def _card(self):
        return self._input._card()


def _probe(dataset, fn):
    """`fn(first element)` of `dataset` (for output specs), or None for an empty dataset."""
    for element in dataset._elements():
        return fn(element)
    return None


class _MapDataset(_UnaryDataset):
    _tf_name = "_MapDataset"

    def __init__(self, input_dataset, fn):
        super().__init__(input_dataset)
        self._fn = fn

    def _apply(self, element):
        return _fn_output(_call(self._fn, element))

    def _compute_spec(self):
        in_spec = self._input.element_spec
        sizes = {}

        def run(element):
            for s, t in zip(st.flatten(in_spec), st.flatten(element)):
                if not isinstance(s, st.DatasetSpec) and s.shape.rank is not None:
                    for d, n in zip(s.shape.dims, t.shape.as_list() if isinstance(t, SparseTensor) else t._t.shape):
                        if d is None:
                            sizes[n] = True
            return self._apply(element)

        out = _probe(self._input, run)
        if out is None:
            raise NotImplementedError("element_spec of a map over an empty dataset (tfcompat runs map "
                                      "functions on the first element to find it)")
        return st.map_leaves(lambda s: s if isinstance(s, st.DatasetSpec) or s.shape.rank is None else st.with_shape(
            s, [None if d in sizes or isinstance(s, st.SparseTensorSpec) else d for d in s.shape.as_list()]),
            st.spec_of(out))

    def _elements(self):
        return _MapIterator(iter(self._input._elements()), self._apply)


class _MapIterator:
    """Applies a function per element; an error leaves the iterator usable (for `ignore_errors`)."""

    __slots__ = ("_it", "_fn")

    def __init__(self, it, fn):
        self._it, self._fn = it, fn

    def __iter__(self):
        return self

    def __next__(self):
        return self._fn(next(self._it))


class _ParallelMapDataset(_MapDataset):
    _tf_name = "_ParallelMapDataset"

    def __init__(self, input_dataset, fn, num_parallel_calls):
        super().__init__(input_dataset, fn)
        self._parallel = _cpu_count() if num_parallel_calls == AUTOTUNE else max(num_parallel_calls, 1)

    def _elements(self):
        return _ParallelIterator(iter(self._input._elements()), self._apply, self._parallel)


class _ParallelIterator:
    """Runs `fn` on up to `parallel` elements ahead in a thread pool and returns results in input order."""

    def __init__(self, it, fn, parallel):
        self._it, self._fn, self._parallel = it, fn, parallel
        self._pending = []
        self._exhausted = False

    def __iter__(self):
        return self

    def _fill(self):
        pool = _pool()
        while not self._exhausted and len(self._pending) < self._parallel:
            try:
                element = next(self._it)
            except StopIteration:
                self._exhausted = True
                break
            self._pending.append(pool.submit(self._fn, element))

    def __next__(self):
        self._fill()
        if not self._pending:
            raise StopIteration
        return self._pending.pop(0).result()


class _FilterDataset(_UnaryDataset):
    _tf_name = "_FilterDataset"

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._pred = predicate

    def _card(self):
        return UNKNOWN

    def _elements(self):
        return _FilterIterator(iter(self._input._elements()), self._pred)


def _predicate_value(value, what="`predicate` must return a `tf.bool` scalar tensor, but its return type is "):
    if type(value) is bool:
        return value
    t = st.to_tensor(value) if not isinstance(value, (tuple, list)) else None
    if t is None:
        raise AttributeError("'tuple' object has no attribute 'is_compatible_with'")
    if t._t.dtype is not torch.bool or t._t.ndim != 0:
        raise ValueError(f"Invalid `predicate`. {what}{st.spec_of_tensor(t)!r}.")
    return bool(t._t)


class _FilterIterator:
    __slots__ = ("_it", "_pred")

    def __init__(self, it, pred):
        self._it, self._pred = it, pred

    def __iter__(self):
        return self

    def __next__(self):
        pred = self._pred
        for element in self._it:
            if _predicate_value(_call(pred, element)):
                return element
        raise StopIteration


class _TakeWhileDataset(_FilterDataset):
    _tf_name = "_TakeWhileDataset"

    def _elements(self):
        for element in self._input._elements():
            if not _predicate_value(_call(self._pred, element),
                                    "`predicate` must return a `tf.bool` scalar tensor but its return type is"):
                return
            yield element


def _as_dataset(value):
    if not isinstance(value, Dataset):
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got {type(value)!r}.")
    return value


class _FlatMapDataset(_UnaryDataset):
    _tf_name = "_FlatMapDataset"

    def __init__(self, input_dataset, fn):
        super().__init__(input_dataset)
        self._fn = fn

    def _card(self):
        return UNKNOWN

    def _compute_spec(self):
        spec = _probe(self._input, lambda e: _as_dataset(_call(self._fn, e)).element_spec)
        if spec is None:
            raise NotImplementedError("element_spec of flat_map over an empty dataset")
        return spec

    def _elements(self):
        for element in self._input._elements():
            yield from _as_dataset(_call(self._fn, element))._elements()


class _InterleaveDataset(_FlatMapDataset):
    _tf_name = "_InterleaveDataset"

    def __init__(self, input_dataset, fn, cycle_length, block_length, num_parallel_calls):
        super().__init__(input_dataset, fn)
        cycle = AUTOTUNE if cycle_length is None else _int(cycle_length)
        self._cycle = _cpu_count() if cycle == AUTOTUNE else cycle
        self._block = 1 if block_length is None else _int(block_length)
        if num_parallel_calls is not None:
            self._tf_name = "_ParallelInterleaveDataset"

    def _elements(self):
        """TF's interleave: visit the cycle's slots round robin, `block` elements each, refilling empty slots."""
        inputs = iter(self._input._elements())
        slots = [None] * self._cycle
        open_count, index, taken, end_of_input = 0, 0, 0, False
        while not end_of_input or open_count:
            it = slots[index]
            if it is not None:
                try:
                    element = next(it)
                except StopIteration:
                    slots[index] = None
                    open_count -= 1
                else:
                    taken += 1
                    if taken == self._block:
                        index, taken = (index + 1) % self._cycle, 0
                    yield element
                    continue
            elif not end_of_input:
                try:
                    element = next(inputs)
                except StopIteration:
                    end_of_input = True
                else:
                    slots[index] = iter(_as_dataset(_call(self._fn, element))._elements())
                    open_count += 1
                continue
            index, taken = (index + 1) % self._cycle, 0


class _ShuffleDataset(_UnaryDataset):
    _tf_name = "_ShuffleDataset"

    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        super().__init__(input_dataset)
        if buffer_size <= 0 and buffer_size != AUTOTUNE:
            raise errors.InvalidArgumentError(None, None, "buffer_size must be greater than zero.")
        self._buffer = buffer_size if buffer_size > 0 else 1000
        seed = None if seed is None else _int(seed)
        self._seed = seed if seed is not None else draw_seed()
        self._reshuffle = reshuffle_each_iteration is None or bool(reshuffle_each_iteration)
        self._epoch = 0

    def _rng(self):
        epoch = self._next_epoch() if self._reshuffle else 0
        return np.random.default_rng([self._seed, epoch])

    def _plan(self):
        plan = self._input._plan()
        if plan is None:
            return None
        source, chunks = plan
        n = self._input._card()
        return source, lambda: _shuffle_indices(chunks(), self._buffer, self._rng(), n)

    def _elements(self):
        plan = self._plan()
        if plan is not None:
            return _plan_elements(plan)
        return _shuffle_stream(self._input._elements(), self._buffer, self._rng())


def _plan_elements(plan):
    source, chunks = plan
    for idx in chunks():
        yield from map(source._element_at, idx.tolist())


def _shuffle_indices(chunks, k, rng, n):
    """TF's buffer shuffle of an index stream, as chunks of int64 indices."""
    if 0 <= n <= k:      # the whole input fits in the buffer: a uniform permutation
        yield rng.permutation(np.concatenate(list(chunks))) if n else np.empty(0, np.int64)
        return
    buf = []
    for chunk in chunks:
        values = chunk.tolist()
        fill = min(k - len(buf), len(values))
        buf.extend(values[:fill])
        rest = values[fill:]
        if not rest:
            continue
        picks = rng.integers(0, k, size=len(rest)).tolist()
        out = []
        for j, v in zip(picks, rest):
            out.append(buf[j])
            buf[j] = v
        yield np.array(out, dtype=np.int64)
    yield rng.permutation(np.array(buf, dtype=np.int64))


def _shuffle_stream(elements, k, rng):
    buf = []
    for element in elements:
        if len(buf) < k:
            buf.append(element)
            continue
        j = int(rng.integers(0, k))
        yield buf[j]
        buf[j] = element
    for j in rng.permutation(len(buf)).tolist():
        yield buf[j]


class _RepeatDataset(_UnaryDataset):
    _tf_name = "_RepeatDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = count

    def _card(self):
        n, c = self._input._card(), self._count
        if c == 0 or n == 0:
            return 0
        if n == INFINITE or c < 0:
            return INFINITE
        return UNKNOWN if n == UNKNOWN else n * c

    def _epochs(self):
        return itertools.count() if self._count < 0 else range(self._count)

    def _plan(self):
        plan = self._input._plan()
        if plan is None:
            return None
        source, chunks = plan

        def repeated():
            for _ in self._epochs():
                empty = True
                for idx in chunks():
                    empty = empty and not len(idx)
                    yield idx
                if empty:
                    return
        return source, repeated

    def _elements(self):
        plan = self._plan()
        if plan is not None:
            return _plan_elements(plan)
        return self._repeat()

    def _repeat(self):
        for _ in self._epochs():
            empty = True
            for element in self._input._elements():
                empty = False
                yield element
            if empty:
                return


class _TakeDataset(_UnaryDataset):
    _tf_name = "_TakeDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = count

    def _card(self):
        n, c = self._input._card(), self._count
        if c < 0:
            return n
        if n == INFINITE:
            return c
        return UNKNOWN if n == UNKNOWN else min(n, c)

    def _plan(self):
        plan = self._input._plan()
        if plan is None or self._count < 0:
            return plan
        source, chunks = plan

        def taken():
            left = self._count
            for idx in chunks():
                if left <= 0:
                    return
                idx = idx[:left]
                left -= len(idx)
                yield idx
        return source, taken

    def _elements(self):
        plan = self._plan()
        if plan is not None:
            return _plan_elements(plan)
        if self._count < 0:
            return self._input._elements()
        return itertools.islice(self._input._elements(), self._count)


class _SkipDataset(_UnaryDataset):
    _tf_name = "_SkipDataset"

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = count

    def _card(self):
        n, c = self._input._card(), self._count
        if c < 0:
            return 0 if n != INFINITE else INFINITE
        if n < 0:
            return n
        return max(n - c, 0)

    def _plan(self):
        plan = self._input._plan()
        if plan is None:
            return None
        source, chunks = plan

        def skipped():
            left = self._count
            for idx in chunks():
                if left < 0:
                    return
                if left:
                    cut = min(left, len(idx))
                    idx, left = idx[cut:], left - cut
                yield idx
        return source, skipped

    def _elements(self):
        plan = self._plan()
        if plan is not None:
            return _plan_elements(plan)
        if self._count < 0:
            for _ in self._input._elements():
                pass
            return iter(())
        return itertools.islice(self._input._elements(), self._count, None)


def _batch_card(n, size, drop):
    if n < 0:
        return n
    return n // size if drop else -(-n // size)


def _check_batch_size(batch_size):
    if batch_size <= 0:
        raise errors.op_error(errors.InvalidArgumentError, "Batch size must be greater than zero.", "BatchDatasetV2")


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _stack(parts, component):
    """Stacks one component of a batch's elements; shapes must agree (TF's message otherwise)."""
    first = parts[0].shape
    for i, p in enumerate(parts):
        if p.shape != first:
            raise _get_next_error(errors.InvalidArgumentError,
                                  f"Cannot batch tensors with different shapes in component {component}. First "
                                  f"element had shape {_shape_text(first)} and element {i} had shape "
                                  f"{_shape_text(p.shape)}.")
    if type(parts[0]) is np.ndarray:
        return np.stack(parts)
    return torch.stack(parts)


def _batch_elements(batch):
    flats = [st.flatten(e) for e in batch]
    out = []
    for j in range(len(flats[0])):
        parts = [f[j] for f in flats]
        if isinstance(parts[0], Dataset):
            raise NotImplementedError("batching dataset-valued elements")
        out.append(st.batch_sparse(parts) if isinstance(parts[0], SparseTensor) else wrap(_stack([p._t for p in parts], j)))
    return st.pack(batch[0], out)


def _chunks_of(elements, size, drop):
    """Lists of `size` consecutive elements (the last one shorter unless `drop`)."""
    it = iter(elements)
    while True:
        batch = list(itertools.islice(it, size))
        if len(batch) < size and (drop or not batch):
            return
        yield batch
        if len(batch) < size:
            return


def _batched_spec(spec, dim):
    return st.map_leaves(lambda s: s if isinstance(s, st.DatasetSpec) else st.with_shape(
        s, TensorShape([dim]).concatenate(s.shape)), spec)


class _BatchDataset(_UnaryDataset):
    _tf_name = "_BatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        _check_batch_size(batch_size)
        self._size, self._drop = batch_size, drop_remainder

    def _compute_spec(self):
        return _batched_spec(self._input.element_spec, self._size if self._drop else None)

    def _card(self):
        return _batch_card(self._input._card(), self._size, self._drop)

    def _elements(self):
        plan = self._input._plan()
        if plan is not None:
            source, chunks = plan
            return map(source._batch_at, _index_batches(chunks(), self._size, self._drop))
        return map(_batch_elements, _chunks_of(self._input._elements(), self._size, self._drop))


def _index_batches(chunks, size, drop):
    """Index arrays of `size` consecutive indices of a chunk stream (the last shorter unless `drop`)."""
    carry = np.empty(0, np.int64)
    for idx in chunks:
        if len(carry):
            idx = np.concatenate([carry, idx])
        stop = len(idx) - len(idx) % size
        for start in range(0, stop, size):
            yield idx[start:start + size]
        carry = idx[stop:]
    if len(carry) and not drop:
        yield carry


class _PaddedBatchDataset(_BatchDataset):
    _tf_name = "_PaddedBatchDataset"

    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values, drop_remainder):
        super().__init__(input_dataset, batch_size, drop_remainder)
        spec = input_dataset.element_spec
        flat_spec = st.flatten(spec)
        if padded_shapes is None:
            shapes = [s.shape for s in flat_spec]
        else:
            shapes = [TensorShape([None if d is not None and _int(d) == -1 else d for d in _shape_list(p)])
                      for p in _flatten_like(spec, padded_shapes)]
        for s in flat_spec:
            if s.shape.rank is None:
                raise ValueError("padded_batch requires known ranks (unknown-rank components are not supported)")
        if padding_values is None:
            values = [b"" if s.dtype == dtypes.string else 0 for s in flat_spec]
        else:
            values = [v._array()[()] if isinstance(v, Tensor) else v for v in _flatten_like(spec, padding_values)]
        self._shapes, self._values = shapes, values

    def _compute_spec(self):
        dim = self._size if self._drop else None
        spec = self._input.element_spec
        return st.pack(spec, [st.with_shape(s, TensorShape([dim]).concatenate(shape))
                              for s, shape in zip(st.flatten(spec), self._shapes)])

    def _elements(self):
        for batch in _chunks_of(self._input._elements(), self._size, self._drop):
            flats = [st.flatten(e) for e in batch]
            out = [wrap(self._pad([f[j]._t for f in flats], j)) for j in range(len(self._shapes))]
            yield st.pack(batch[0], out)

    def _pad(self, parts, j):
        shape = self._shapes[j].as_list()
        target = [max(p.shape[d] for p in parts) if n is None else n for d, n in enumerate(shape)]
        value = self._values[j]
        if type(parts[0]) is np.ndarray:
            out = np.full([len(parts)] + target, value, dtype=object)
        else:
            out = torch.full([len(parts)] + target, value, dtype=parts[0].dtype, device=parts[0].device)
        for i, p in enumerate(parts):
            if any(a > b for a, b in zip(p.shape, target)):
                raise _get_next_error(errors.DataLossError,
                                      "Attempted to pad to a smaller size than the input element.")
            out[(i,) + tuple(slice(0, n) for n in p.shape)] = p
        return out


def _shape_list(p):
    if isinstance(p, Tensor):
        return p._array().tolist()
    if isinstance(p, TensorShape):
        return p.dims
    return list(p)


def _flatten_like(spec, value):
    """Flattens a per-component argument (padded_shapes, padding_values) up to the element structure."""
    if not st.is_nested(spec):
        return [value]
    out = []

    def walk(s, v):
        if st.is_nested(s):
            children = [(s[k], v[k]) for k in st._keys(s)] if isinstance(s, dict) else list(zip(s, v))
            for cs, cv in children:
                walk(cs, cv)
        else:
            out.append(v)
    walk(spec, value)
    return out


class _UnbatchDataset(_UnaryDataset):
    _tf_name = "_UnbatchDataset"

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        for s in st.flatten(input_dataset.element_spec):
            if s.shape.rank == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")

    def _compute_spec(self):
        return st.map_leaves(lambda s: st.with_shape(s, s.shape[1:] if s.shape.rank is not None else None),
                             self._input.element_spec)

    def _card(self):
        return INFINITE if self._input._card() == INFINITE else UNKNOWN

    def _elements(self):
        return _unbatch(self._input._elements())


def _unbatch(elements):
    for element in elements:
        flat = [st.SparseRows(t) if isinstance(t, SparseTensor) else t._t for t in st.flatten(element)]
        sizes = [c.dense[0] if isinstance(c, st.SparseRows) else c.shape[0] for c in flat]
        n = sizes[0]
        for j, size in enumerate(sizes):
            if size != n:
                raise _get_next_error(errors.InvalidArgumentError,
                                      f"Input element must have the same batch size in each component. Component "
                                      f"0 had size {n} but component {j} had size {size}.")
        for i in range(n):
            yield st.pack(element, [c.row(i) if isinstance(c, st.SparseRows) else wrap(_row(c, i)) for c in flat])


class _RebatchDataset(_UnaryDataset):
    _tf_name = "_RebatchDataset"

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        sizes = _shape_list(batch_size) if not isinstance(batch_size, int) else [batch_size]
        self._sizes = [int(s) for s in sizes]
        self._drop = drop_remainder

    def _card(self):
        return UNKNOWN

    def _compute_spec(self):
        spec = self._input.element_spec
        dim = None
        if len(self._sizes) == 1:
            first = st.flatten(spec)[0].shape
            known = first.rank and first[0] is not None and first[0] % self._sizes[0] == 0
            dim = self._sizes[0] if self._drop or known else None
        return st.map_leaves(lambda s: st.with_shape(s, TensorShape([dim]).concatenate(s.shape[1:])), spec)

    def _elements(self):
        rows = _unbatch(self._input._elements())
        for size in itertools.cycle(self._sizes):
            batch = list(itertools.islice(rows, size))
            if not batch or (self._drop and len(batch) < size):
                return
            yield _batch_elements(batch)
            if len(batch) < size:
                return


class _CacheDataset(_UnaryDataset):
    _tf_name = "CacheDataset"

    def __init__(self, input_dataset, filename):
        super().__init__(input_dataset)
        self._filename = filename
        self._cache = None

    def _elements(self):
        if self._cache is not None:
            return iter(self._cache)
        if self._filename:
            from tfcompat.data import io
            if io.exists(self._filename):
                return io.load(self._filename, self.element_spec)._elements()
        return self._fill()

    def _fill(self):
        out = []
        for element in self._input._elements():
            out.append(element)
            yield element
        if self._filename:
            from tfcompat.data import io
            io.save(_ListDataset(out, self.element_spec), self._filename)
        else:
            self._cache = out


class _PrefetchDataset(_UnaryDataset):
    _tf_name = "_PrefetchDataset"

    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset)
        self._size = 2 if buffer_size == AUTOTUNE else buffer_size

    def _elements(self):
        if self._size <= 0:
            return self._input._elements()
        return _PrefetchIterator(iter(self._input._elements()), self._size)


_VALUE, _ERROR, _END = 0, 1, 2


def _produce(it, out, stop):
    """Producer thread of `prefetch`: moves input elements (and errors, in order) into the queue `out`."""
    def put(item):
        while not stop.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                pass
        return False

    while True:
        try:
            item = (_VALUE, next(it))
        except StopIteration:
            put((_END, None))
            return
        except BaseException as e:  # noqa: BLE001  (passed to the consumer)
            item = (_ERROR, e)
        if not put(item):
            return


class _PrefetchIterator:
    """Pulls input elements in a background thread into a bounded queue; stops when it is dropped."""

    def __init__(self, it, size):
        self._queue = queue.Queue(size)
        self._stop = threading.Event()
        self._done = False
        threading.Thread(target=_produce, args=(it, self._queue, self._stop), daemon=True).start()

    def __iter__(self):
        return self

    def __next__(self):
        if self._done:
            raise StopIteration
        kind, value = self._queue.get()
        if kind == _VALUE:
            return value
        if kind == _END:
            self._done = True
            raise StopIteration
        raise value

    def __del__(self):
        self._stop.set()


class _EnumerateDataset(_UnaryDataset):
    _tf_name = "_ZipDataset"

    def __init__(self, input_dataset, start):
        super().__init__(input_dataset)
        self._start = start

    def _compute_spec(self):
        return st.TensorSpec(TensorShape(()), dtypes.int64), self._input.element_spec

    def _elements(self):
        return ((_scalar64(i), e) for i, e in zip(itertools.count(self._start), self._input._elements()))


class _WindowDataset(_UnaryDataset):
    _tf_name = "_WindowDataset"

    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        super().__init__(input_dataset)
        for name, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise errors.InvalidArgumentError(None, None, f"Window {name} must be greater than zero, "
                                                  f"but got {v}.")
        self._size, self._shift, self._stride, self._drop = size, shift, stride, drop_remainder

    def _compute_spec(self):
        return st.map_leaves(st.DatasetSpec, self._input.element_spec)

    def _card(self):
        n = self._input._card()
        if n < 0:
            return n
        if self._drop:
            span = (self._size - 1) * self._stride + 1
            return 0 if n < span else (n - span) // self._shift + 1
        return -(-n // self._shift)

    def _elements(self):
        spec = self._input.element_spec
        flat_spec = st.flatten(spec)
        span = (self._size - 1) * self._stride + 1
        it = iter(self._input._elements())
        buf, exhausted = [], False
        while True:
            while not exhausted and len(buf) < span:
                try:
                    buf.append(next(it))
                except StopIteration:
                    exhausted = True
            if not buf or (self._drop and len(buf) < span):
                return
            picked = buf[:span:self._stride]
            flats = [st.flatten(e) for e in picked]
            yield st.pack(spec, [_ListDataset([f[j] for f in flats], s) for j, s in enumerate(flat_spec)])
            if self._shift >= len(buf):
                for _ in range(self._shift - len(buf)):
                    if next(it, None) is None:
                        exhausted = True
                        break
                buf = []
            else:
                buf = buf[self._shift:]


class _ScanDataset(_UnaryDataset):
    _tf_name = "_ScanDataset"

    def __init__(self, input_dataset, initial_state, fn):
        super().__init__(input_dataset)
        self._state, self._fn = st.normalize(initial_state), fn

    def _step(self, state, element):
        out = self._fn(state, element)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("The scan function must return a pair comprising the new state and the output value.")
        return _fn_output(out[0]), _fn_output(out[1])

    def _compute_spec(self):
        out = _probe(self._input, lambda e: self._step(self._state, e)[1])
        if out is None:
            raise NotImplementedError("element_spec of scan over an empty dataset")
        return st.spec_of(out)

    def _elements(self):
        state = self._state
        for element in self._input._elements():
            state, out = self._step(state, element)
            yield out


class _ShardDataset(_UnaryDataset):
    _tf_name = "_ShardDataset"

    def __init__(self, input_dataset, num_shards, index):
        super().__init__(input_dataset)
        self._num, self._index = num_shards, index

    def _card(self):
        n = self._input._card()
        return n if n < 0 else max(n - self._index + self._num - 1, 0) // self._num

    def _elements(self):
        return itertools.islice(self._input._elements(), self._index, None, self._num)


class _IgnoreErrorsDataset(_UnaryDataset):
    _tf_name = "_IgnoreErrorsDataset"

    def _card(self):
        return UNKNOWN

    def _elements(self):
        it = iter(self._input._elements())
        while True:
            try:
                element = next(it)
            except StopIteration:
                return
            except errors.OpError:
                continue
            yield element


class _UniqueDataset(_UnaryDataset):
    _tf_name = "_UniqueDataset"

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        spec = input_dataset.element_spec
        if st.is_nested(spec) or spec.shape.rank != 0 or not (spec.dtype.is_integer or spec.dtype == dtypes.string):
            raise TypeError("`tf.data.Dataset.unique` does not support type "
                            f"{spec.dtype.name if not st.is_nested(spec) else spec}.")

    def _card(self):
        return UNKNOWN

    def _elements(self):
        seen = set()
        for element in self._input._elements():
            key = element._array()[()]
            key = key.item() if hasattr(key, "item") else key
            if key not in seen:
                seen.add(key)
                yield element


class _OptionsDataset(_UnaryDataset):
    _tf_name = "_OptionsDataset"

    def __init__(self, input_dataset, options):
        super().__init__(input_dataset)
        self._options = options

    def options(self):
        return self._input.options().merge(self._options)

    def _plan(self):
        return self._input._plan()

    def _elements(self):
        return self._input._elements()


# -- datasets of several inputs -------------------------------------------------------------------------

class _ZipDataset(Dataset):
    _tf_name = "_ZipDataset"

    def __init__(self, structure):
        flat = st.flatten(structure)
        for d in flat:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                                f"`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                                f"`tuple` instead.")
        self._structure, self._inputs = structure, tuple(flat)

    def _compute_spec(self):
        return st.pack(self._structure, [d.element_spec for d in self._inputs])

    def _card(self):
        cards = [d._card() for d in self._inputs]
        if UNKNOWN in cards:
            return UNKNOWN
        finite = [c for c in cards if c >= 0]
        return min(finite) if finite else INFINITE

    def _elements(self):
        tmpl = self._structure
        return (st.pack(tmpl, list(parts)) for parts in zip(*(d._elements() for d in self._inputs)))


class _ConcatenateDataset(Dataset):
    _tf_name = "_ConcatenateDataset"

    def __init__(self, first, second):
        self._inputs = (first, second)
        a, b = first.element_spec, second.element_spec
        fa, fb = st.flatten(a), st.flatten(b)
        relaxed = [st.relax(x, y) for x, y in zip(fa, fb)] if len(fa) == len(fb) else [None]
        if None in relaxed:
            raise TypeError(f"Incompatible dataset elements:\n  {a!r} vs.   {b!r}")
        self._spec = st.pack(a, relaxed)

    def _card(self):
        a, b = (d._card() for d in self._inputs)
        if INFINITE in (a, b):
            return INFINITE
        return UNKNOWN if UNKNOWN in (a, b) else a + b

    def _elements(self):
        return itertools.chain(self._inputs[0]._elements(), self._inputs[1]._elements())


tf_export("data.Iterator")(OwnedIterator)
