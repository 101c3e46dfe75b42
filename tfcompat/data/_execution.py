"""Transformations that change how or where elements are produced, not which: `cache`, `snapshot`, `prefetch`,
`with_options`, `copy_to_device`."""
import atexit
import os
import queue
import threading
import uuid
import weakref

import torch

from tfcompat.data import io as data_io
from tfcompat.data import structure as st
from tfcompat.data._common import AUTOTUNE, StepIterator, dataset_op_error, get_next_error
from tfcompat.data.dataset import INFINITE, DerivedDataset, unknown_cardinality
from tfcompat.data.sources import ListDataset
from tfcompat.framework import errors
from tfcompat.framework.context import current_device
from tfcompat.framework.device import device as device_scope
from tfcompat.framework.tensor import EagerTensor, Tensor, storage, wrap


class CacheDataset(DerivedDataset):
    """`cache`: the input on the first full pass, then the elements kept in memory or files."""

    _tf_name = "CacheDataset"

    def __init__(self, input_dataset, filename):
        super().__init__(input_dataset)
        self._filename = str(filename._array()[()].decode() if isinstance(filename, Tensor) else filename)
        self._cache = None

    def _elements(self):
        if self._cache is not None:
            return iter(self._cache)
        if self._filename:
            if data_io.exists(self._filename):
                return data_io.load(self._filename, self.element_spec)._elements()
        return self._fill()

    def _fill(self):
        out = []
        for element in self._input._elements():
            out.append(element)
            yield element
        if self._filename:
            data_io.save(ListDataset(out, self.element_spec), self._filename)
        else:
            self._cache = out


class SnapshotDataset(DerivedDataset):
    """`snapshot`: the first complete pass writes the input's elements in a new directory under `path` (tfcompat's
    `Dataset.save` format); later passes read them back instead of recomputing the input."""

    _tf_name = "_MapDataset"     # TF's snapshot ends in a map that drops its shard index

    def __init__(self, input_dataset, path):
        super().__init__(input_dataset)
        self._dir = os.path.join(os.fspath(path), f"tfcompat-{uuid.uuid4().hex}")

    def _elements(self):
        if data_io.exists(self._dir):
            return data_io.load(self._dir, self.element_spec)._elements()
        return self._write()

    def _write(self):
        out = []
        for element in self._input._elements():
            out.append(element)
            yield element
        data_io.save(ListDataset(out, self.element_spec), self._dir)


class PrefetchDataset(DerivedDataset):
    """`prefetch`: the input produced up to `buffer_size` elements ahead in a thread."""

    _tf_name = "_PrefetchDataset"

    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset)
        if buffer_size < 0 and buffer_size != AUTOTUNE:
            raise dataset_op_error(errors.InvalidArgumentError, "buffer_size must be >= 0 or set buffer_size to be -1 "
                                   "for auto-tuning", "PrefetchDataset")
        self._size = 2 if buffer_size == AUTOTUNE else buffer_size

    def _elements(self):
        if self._size <= 0:
            return self._input._elements()
        return PrefetchIterator(iter(self._input._elements()), self._size)


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


_PRODUCERS = weakref.WeakKeyDictionary()     # live producer threads -> their stop events


@atexit.register
def _stop_producers():
    """At exit, stops the producer threads and waits for them: a daemon thread still inside a torch kernel when the
    interpreter finalizes aborts the process ("terminate called without an active exception")."""
    producers = list(_PRODUCERS.items())
    for _, stop in producers:
        stop.set()
    for thread, _ in producers:
        thread.join(timeout=5)


class PrefetchIterator(StepIterator):
    """Pulls input elements in a background thread into a bounded queue; stops when it is dropped."""

    def __init__(self, it, size):
        self._queue = queue.Queue(size)
        self._stop = threading.Event()
        self._done = False
        thread = threading.Thread(target=_produce, args=(it, self._queue, self._stop), daemon=True)
        _PRODUCERS[thread] = self._stop
        thread.start()

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


class OptionsDataset(DerivedDataset):
    """`with_options`: the input, with options merged into the pipeline's."""

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


class CopyToDeviceDataset(DerivedDataset):
    """`tf.data.experimental.copy_to_device`: each element's tensors copied to the target device (resolved with TF's
    soft placement when the dataset is made; strings stay in host memory, as TF keeps them)."""

    _tf_name = "_CopyToDeviceDataset"
    _card = unknown_cardinality

    def __init__(self, input_dataset, target_device):
        super().__init__(input_dataset)
        with device_scope(target_device):
            self._device = current_device()

    def _copy(self, value):
        if type(value) is EagerTensor:
            t = storage(value)
            if type(t) is torch.Tensor and t.device != self._device:
                return wrap(t.to(self._device, non_blocking=True))
            return value
        if isinstance(value, Tensor) or self._device.type == "cpu":
            return value
        raise NotImplementedError(f"copy_to_device of a {type(value).__name__} component to a GPU")

    def _elements(self):
        copy = self._copy
        return (st.map_leaves(copy, element) for element in self._input._elements())


class AssertCardinalityDataset(DerivedDataset):
    """`tf.data.experimental.assert_cardinality`: the input's elements, its cardinality declared as `expected`;
    iterating fails (FailedPreconditionError) as soon as the element count contradicts it."""

    _tf_name = "_AssertCardinalityDataset"

    def __init__(self, input_dataset, expected):
        super().__init__(input_dataset)
        self._expected = expected

    def _card(self):
        return self._expected

    def _contradiction(self, text):
        expected = "an infinite number of elements" if self._expected == INFINITE else \
            f"{self._expected} element{'' if self._expected == 1 else 's'}"
        return get_next_error(errors.FailedPreconditionError,
                              f"Input dataset was expected to contain {expected} but contained {text}.")

    def _elements(self):
        count = 0
        for element in self._input._elements():
            count += 1
            if self._expected != INFINITE and count > self._expected:
                raise self._contradiction(f"at least {count} element{'' if count == 1 else 's'}")
            yield element
        if count != self._expected:
            raise self._contradiction(f"only {count} element{'' if count == 1 else 's'}")
