"""Sharding by file of a worker's input pipeline (TF's `AutoShardPolicy.FILE`, and AUTO's first choice).

As TF's auto-shard rewrite: the pipeline is copied with each file reader (`TFRecordDataset`, `TextLineDataset`,
`FixedLengthRecordDataset`) reading only the files `rank::workers` of its list, and a `flat_map`/`interleave`
whose function makes a reader from file names (`list_files(...).interleave(tf.data.TFRecordDataset)`) gets its
input of names sharded. A pipeline with a source of other data cannot be sharded by file: AUTO then shards by
data, FILE raises TF's error; fewer files than workers raise TF's error under both (as TF 2.21).
"""
import copy

from tfcompat.data._combining import FlatMapDataset, as_dataset
from tfcompat.data._common import call
from tfcompat.data.readers import TextLineDataset
from tfcompat.data.tfrecord import FixedLengthRecordDataset, TFRecordDataset
from tfcompat.framework import errors

_READERS = (TFRecordDataset, TextLineDataset, FixedLengthRecordDataset)


def _makes_reader(node):
    """Whether a flat_map/interleave's function turns its input's elements (file names) into file readers."""
    made = node._first_output(lambda e: as_dataset(call(node._fn, e)))
    return made is not None and _find_reader(made)


def _find_reader(dataset):
    if isinstance(dataset, _READERS):
        return True
    return any(_find_reader(d) for d in getattr(dataset, "_inputs", ()))


def _with_inputs(node, inputs):
    clone = copy.copy(node)
    clone._inputs, clone._input = tuple(inputs), inputs[0]
    return clone


class _TooFewFiles(Exception):
    def __init__(self, count):
        super().__init__(count)
        self.count = count


def _rewrite(dataset, workers, rank):
    """The pipeline reading its files `rank::workers`; None when a source of the pipeline is not files."""
    if isinstance(dataset, _READERS):
        if len(dataset._files) < workers:
            raise _TooFewFiles(len(dataset._files))
        clone = copy.copy(dataset)
        clone._files = dataset._files[rank::workers]
        return clone
    if isinstance(dataset, FlatMapDataset) and _makes_reader(dataset):
        count = sum(1 for _ in dataset._input._elements())
        if count < workers:
            raise _TooFewFiles(count)
        return _with_inputs(dataset, [dataset._input.shard(workers, rank)])
    inputs = getattr(dataset, "_inputs", ())
    if not inputs:
        return None
    rewritten = [_rewrite(d, workers, rank) for d in inputs]
    if any(d is None for d in rewritten):
        return None
    return _with_inputs(dataset, rewritten)


def _source(dataset):
    while getattr(dataset, "_inputs", ()):
        dataset = dataset._inputs[0]
    return dataset


def shard_by_file(dataset, workers, rank, required):
    """This worker's files of `dataset`; None if a source is not files (NotFoundError as TF's when `required`).
    Fewer files than workers: the InvalidArgumentError TF raises at the first element, to raise when iterated."""
    try:
        sharded = _rewrite(dataset, workers, rank)
    except _TooFewFiles as e:
        return errors.InvalidArgumentError(
            None, None, f"Could not apply FILE based sharding: the dataset only has {e.count} file(s), which is not "
            f"enough for the required {workers} shards/workers. If you are using datasets with distribution "
            "strategy, consider setting the auto sharding policy to either DATA or OFF using the "
            "`experimental_distribute.auto_shard_policy` option of `tf.data.Options()`. Or, split your input files "
            "into a larger number of small files such that number of files is greater than number of "
            "shards/workers.")
    if sharded is None and required:
        raise errors.NotFoundError(None, None, "Found an unshardable source dataset: "
                                   f"op: \"{_source(dataset)._tf_name.lstrip('_')}\" (AutoShardPolicy.FILE needs "
                                   "a pipeline that reads files)")
    return sharded
