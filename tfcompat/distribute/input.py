"""Distributed input: `experimental_distribute_dataset`, `distribute_datasets_from_function`, `InputContext`.

`experimental_distribute_dataset` splits each global batch along its first axis into `num_replicas_in_sync`
chunks of ceil(batch / replicas) rows (the last ones shorter or empty, as TF's rebatching). Across workers, by
the dataset's `AutoShardPolicy` as TF: DATA (and AUTO for a pipeline that does not read files) gives each
worker its replicas' chunks of every global batch, each worker reading the whole pipeline; FILE (and AUTO for
one that reads files) gives each worker its share of the files (`auto_shard`) and OFF the whole pipeline, and
the worker's replicas take its chunks in turn; the workers agree at each step whether any has data left (one
all-reduce), those without getting empty batches, as TF's. HINT raises NotImplementedError. With one replica
in sync the elements pass unchanged.
"""
import itertools
import math

import torch

from tfcompat.distribute.values import PerReplica, regroup
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.util import nest


@tf_export("distribute.InputContext")
class InputContext:
    """What `dataset_fn` learns in `distribute_datasets_from_function`: its pipeline and the replica count."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    @property
    def input_pipeline_id(self):
        return self._input_pipeline_id

    @property
    def num_input_pipelines(self):
        return self._num_input_pipelines

    def get_per_replica_batch_size(self, global_batch_size):
        """`global_batch_size` / replicas; ValueError when it does not divide."""
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self._num_replicas_in_sync} ")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, total: " \
               f"{self._num_input_pipelines})"


@tf_export("distribute.experimental.ValueContext")
class ValueContext:
    """What `value_fn` learns in `experimental_distribute_values_from_function`."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self._replica_id_in_sync_group = replica_id_in_sync_group
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return self._replica_id_in_sync_group

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    def __str__(self):
        return f"tf.distribute.ValueContext(replica id {self._replica_id_in_sync_group},  total replicas in sync: " \
               f"{self._num_replicas_in_sync})"


def _chunks(element, n, first, count):
    """Chunks `first` .. `first + count - 1` of the `n` chunks of a global batch (ceil(batch / n) rows each)."""
    parts = [[] for _ in range(count)]
    for leaf in nest.flatten(element):
        t = storage(leaf) if isinstance(leaf, Tensor) else torch.as_tensor(leaf)
        if t.ndim == 0:
            raise ValueError("experimental_distribute_dataset needs a batched dataset when there are several "
                             f"replicas in sync ({n}): batch it with the global batch size")
        size = math.ceil(t.shape[0] / n)
        for i in range(count):
            start = min((first + i) * size, t.shape[0])
            parts[i].append(_wrap(t[start:min(start + size, t.shape[0])]))
    return [nest.pack_sequence_as(element, p) for p in parts]


def split_batch(strategy, element):
    """This worker's replicas' shares of a global batch: a PerReplica (or the share of its one replica)."""
    ext = strategy.extended
    n = ext._num_replicas()
    if n == 1:
        return element
    return regroup(_chunks(element, n, ext._rank * ext._num_local, ext._num_local))


def _all_chunks(strategy, elements):
    """The chunks of a worker's own batches, as TF's rebatching gives them: a short batch makes no empty chunk."""
    n = strategy.num_replicas_in_sync
    for element in elements:
        for chunk in _chunks(element, n, 0, n):
            if any(storage(leaf).shape[0] for leaf in nest.flatten(chunk)):
                yield chunk


def _worker_pipeline(strategy, dataset):
    """(this worker's pipeline, whether the worker reads it whole) under the dataset's AutoShardPolicy, as TF;
    the pipeline is the error to raise on iteration where TF raises at the first element."""
    from tfcompat.data.options import AutoShardPolicy
    from tfcompat.distribute.auto_shard import shard_by_file
    policy = dataset.options().experimental_distribute.auto_shard_policy
    ext = strategy.extended
    if policy == AutoShardPolicy.OFF:
        return dataset, True
    if policy in (AutoShardPolicy.FILE, AutoShardPolicy.AUTO):
        sharded = shard_by_file(dataset, ext._world, ext._rank, required=policy == AutoShardPolicy.FILE)
        if sharded is not None:
            return sharded, True
    if policy == AutoShardPolicy.HINT:
        raise NotImplementedError("experimental_distribute_dataset with auto_shard_policy=HINT across workers: "
                                  "tfcompat shards by FILE, DATA or AUTO, or not at all (OFF)")
    return dataset, False


@tf_export("distribute.DistributedDataset")
class DistributedDataset:
    """A dataset whose elements are split among the replicas; iterate it (in cross-replica context)."""

    def __init__(self, strategy, dataset):
        self._strategy = strategy
        self._spec_source = dataset
        self._dataset, self._whole = _worker_pipeline(strategy, dataset) if strategy.extended._world > 1 else \
            (dataset, False)

    @property
    def element_spec(self):
        """The dataset's spec; with several local replicas, a `PerReplicaSpec` of each (batch size unknown)."""
        spec = self._spec_source.element_spec
        n = self._strategy.extended._num_local
        if self._strategy.num_replicas_in_sync == 1 or n == 1:
            return spec
        return nest.map_structure(lambda s: PerReplicaSpec((_unbatched(s),) * n), spec)

    def __iter__(self):
        if isinstance(self._dataset, Exception):
            raise self._dataset
        if self._whole:         # this worker's own pipeline: its replicas take its chunks in turn
            chunks = _all_chunks(self._strategy, self._dataset)
            steps = _groups(chunks, self._strategy.extended._num_local)
            return DistributedIterator(self._strategy, _synced(self._strategy, steps, self._spec_source.element_spec))
        return DistributedIterator(self._strategy, (split_batch(self._strategy, e) for e in self._dataset))

    def __repr__(self):
        return f"<tensorflow.python.distribute.input_lib.{type(self).__name__} object at {hex(id(self))}>"

    def reduce(self, initial_state, reduce_func):
        state = initial_state
        for e in self:
            state = reduce_func(state, e)
        return state


class DistributedDatasetsFromFunction(DistributedDataset):
    """`dataset_fn(InputContext)` per worker: each step gives the local replicas consecutive elements."""

    def __init__(self, strategy, dataset_fn):
        ext = strategy.extended
        ctx = InputContext(ext._world, ext._rank, strategy.num_replicas_in_sync)
        self._strategy, self._dataset, self._whole = strategy, dataset_fn(ctx), False
        self._spec_source = self._dataset

    def __iter__(self):
        n = self._strategy.extended._num_local
        return DistributedIterator(self._strategy, _groups(iter(self._dataset), n))


class WorkerShares:
    """Keras `fit`/`evaluate`'s dataset across workers, as Keras 3 on TF distributes it: the elements of
    `experimental_distribute_dataset(dataset)` (sharded by the dataset's AutoShardPolicy), each tensor a one-component
    `PerReplica` (TF's element) so that the step knows it holds this worker's share; at most the dataset's known
    cardinality of steps per epoch (Keras's `num_batches`: OFF gives each worker more chunks than that)."""

    def __init__(self, strategy, dataset):
        self._dataset = dataset
        self._distributed = DistributedDataset(strategy, dataset)
        self.element_spec = nest.map_structure(_unbatched, dataset.element_spec)

    def _card(self):
        return self._dataset._card()

    def __iter__(self):
        steps = self._card()
        elements = iter(self._distributed)
        if steps >= 0:
            elements = itertools.islice(elements, steps)
        for element in elements:
            yield nest.map_structure(lambda t: PerReplica((t,)), element)


def _synced(strategy, steps, spec):
    """`steps` while any worker has a step left (an all-reduce of a flag per step); empty batches after its own."""
    ext = strategy.extended
    for step in steps:
        if _any_worker(ext, 1):
            yield step
    while _any_worker(ext, 0):
        yield regroup([nest.map_structure(_empty, spec)] * ext._num_local)


def _any_worker(ext, have):
    return bool(ext._collective.all_reduce([torch.tensor([have], dtype=torch.int64)])[0].item())


def _empty(spec):
    """A batch of no rows of `spec` (its unknown dimensions 0)."""
    import numpy as np
    shape = [0] + [d or 0 for d in spec.shape.as_list()[1:]]
    if spec.dtype.name == "string":
        return _wrap(np.empty(shape, dtype=object))
    return _wrap(torch.zeros(shape, dtype=spec.dtype.torch_dtype))


def _unbatched(spec):
    """`spec` with an unknown first dimension (a replica's share of the batch)."""
    from tfcompat.ops.misc_ops import TensorSpec
    if not isinstance(spec, TensorSpec) or spec.shape.rank is None or spec.shape.rank == 0:
        return spec
    return TensorSpec([None] + spec.shape.as_list()[1:], spec.dtype, spec.name)


class PerReplicaSpec(PerReplica):
    """The per-replica type specs of a distributed element (`input_signature=[dist_dataset.element_spec]`)."""

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(map(repr, self._values))})"

    __str__ = __repr__


def _groups(it, n):
    while True:
        group = []
        for _ in range(n):
            try:
                group.append(next(it))
            except StopIteration:
                if group:
                    raise NotImplementedError("distribute_datasets_from_function: a last step with fewer "
                                              "batches than local replicas") from None
                return
        yield regroup(group)


@tf_export("distribute.DistributedIterator")
class DistributedIterator:
    """Iterator over a distributed dataset: each element is a PerReplica (or the one replica's value)."""

    def __init__(self, strategy, elements):
        self._strategy = strategy
        self._elements = elements

    def __repr__(self):
        return f"<tensorflow.python.distribute.input_lib.DistributedIterator object at {hex(id(self))}>"

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._elements)

    def get_next(self):
        from tfcompat.framework.errors import OutOfRangeError
        try:
            return next(self._elements)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        """An optional of the next element (`has_value()`, `get_value()`), empty at the end."""
        try:
            return _Optional(next(self._elements), True)
        except StopIteration:
            return _Optional(None, False)


class _Optional:
    """What `get_next_as_optional` returns: TF's `tf.experimental.Optional` interface over a distributed element."""

    def __init__(self, value, has_value):
        self._value, self._has_value = value, has_value

    def has_value(self, name=None):
        from tfcompat.framework.convert import constant
        return constant(self._has_value)

    def get_value(self, name=None):
        if not self._has_value:
            from tfcompat.framework.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, "The optional does not have a value")
        return self._value


@tf_export("distribute.InputOptions")
class InputOptions:
    """Options of distributed input (tfcompat keeps batches where the dataset made them)."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size
