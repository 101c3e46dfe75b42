"""`tf.data.Iterator`: iterating a dataset, and the iterator's checkpointable position."""
import itertools
import json

from tfcompat.data import structure as st
from tfcompat.data._common import end_of_sequence
from tfcompat.data.optional import Optional
from tfcompat.framework import errors
from tfcompat.framework.export import tf_export


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


def output_count(dataset):
    """The number of tensors in an element of `dataset` (the `output_types` of its ops; composites count one)."""
    try:
        return len(st.flatten(dataset.element_spec))
    except Exception:  # noqa: BLE001 - a spec tfcompat cannot find (a map over an empty input): one
        return 1


def wrapped_op_error(error, op, dataset):
    """`error`, which an eager dataset op `op` (`IteratorGetNext`, `DatasetToSingleElement`) raised, with the
    `{{function_node __wrapped__<op>_output_types_<n>_device_...}}` TF's message starts with (the op runs as a
    wrapped function); errors that are not that op's are returned as they are."""
    message = error.message
    if not message.endswith(f"[Op:{op}] name: ") or message.startswith("{{function_node"):
        return error
    prefix = (f"{{{{function_node __wrapped__{op}_output_types_{output_count(dataset)}_device_/job:localhost/"
              "replica:0/task:0/device:CPU:0}} ")
    wrapped = type(error)(error._node_def, error._op, prefix + message)
    wrapped.__traceback__ = error.__traceback__
    return wrapped


@tf_export("data.Iterator")
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
        try:
            element = next(self._it)
        except errors.OpError as e:
            raise wrapped_op_error(e, "IteratorGetNext", self._dataset) from e.__cause__
        self._count += 1
        return element

    def next(self):
        """TF's Python 2 spelling of `next(iterator)`."""
        return self.__next__()

    def get_next(self):
        try:
            return self.__next__()
        except StopIteration:
            raise wrapped_op_error(end_of_sequence(), "IteratorGetNext", self._dataset) from None

    def get_next_as_optional(self):
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
                raise errors.op_error(errors.FailedPreconditionError, f"{d._stateful} is stateful.",
                                      "SerializeIterator")
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


class NumpyIterator:
    """`Dataset.as_numpy_iterator()`: the elements as NumPy values (bytes for strings)."""

    __slots__ = ("_it",)

    def __init__(self, dataset):
        self._it = OwnedIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        return st.map_leaves(st.numpy_of, next(self._it))

    def next(self):
        """TF's Python 2 spelling of `next(iterator)`."""
        return self.__next__()

    def __repr__(self):
        return f"NumpyIterator(iterator={self._it!r})"
