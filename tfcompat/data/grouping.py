"""`Dataset.group_by_window` and `Dataset.bucket_by_sequence_length`."""
import numpy as np

from tfcompat.data import structure as st
from tfcompat.data._combining import as_dataset
from tfcompat.data._common import call, call_args, to_int
from tfcompat.data.dataset import DerivedDataset, unknown_unless_infinite
from tfcompat.data.sources import ListDataset
from tfcompat.framework import dtypes
from tfcompat.framework.tensor import Tensor, storage


def _key(value):
    """`key_func`'s result checked as TF checks it: an int64 scalar."""
    t = st.to_tensor(value)
    if t.dtype != dtypes.int64 or storage(t).ndim != 0:
        raise ValueError(f"Invalid `key_func`. `key_func` must return a single `tf.int64` scalar tensor but its "
                         f"return type is {st.spec_of_tensor(t)!r}.")
    return t


class GroupByWindowDataset(DerivedDataset):
    """Collects elements per int64 key; a key's window goes through `reduce_func(key, window)` when full,
    the remaining windows at the end in ascending key order (TF's order)."""

    _tf_name = "_GroupByWindowDataset"

    def __init__(self, input_dataset, key_func, reduce_func, window_size, window_size_func):
        super().__init__(input_dataset)
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        self._key_func, self._reduce = key_func, reduce_func
        self._size = (lambda key: window_size) if window_size is not None else window_size_func

    _card = unknown_unless_infinite

    def _compute_spec(self):
        window = ListDataset([], self._input.element_spec)
        return as_dataset(call_args(self._reduce, st.to_tensor(np.int64(0)), window)).element_spec

    def _flush(self, key_tensor, elements):
        window = ListDataset(elements, self._input.element_spec)
        return as_dataset(call_args(self._reduce, key_tensor, window))._elements()

    def _elements(self):
        groups = {}
        for element in self._input._elements():
            key = _key(call(self._key_func, element))
            k = int(key._array())
            entry = groups.setdefault(k, [key, [], None])
            if entry[2] is None:
                entry[2] = to_int(call_args(self._size, key))
            entry[1].append(element)
            if len(entry[1]) >= entry[2]:
                del groups[k]
                yield from self._flush(key, entry[1])
        for k in sorted(groups):
            key, elements, _ = groups[k]
            yield from self._flush(key, elements)


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, no_padding, drop_remainder):
    """Groups elements by which `[boundary_i, boundary_i+1)` bucket their length falls in, then pads and batches."""
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 but "
                         f"len(bucket_batch_sizes)={len(sizes)} and len(bucket_boundaries)={len(boundaries)}")

    def key_func(*element):
        length = call(element_length_func, element[0] if len(element) == 1 else element)
        n = int(length._array()) if isinstance(length, Tensor) else int(length)
        return np.int64(int(np.searchsorted(boundaries, n, side="right")))

    def reduce_func(key, window):
        size = sizes[int(key._array())]
        if no_padding:
            return window.batch(size, drop_remainder=drop_remainder)
        return window.padded_batch(size, padded_shapes, padding_values, drop_remainder=drop_remainder)

    return GroupByWindowDataset(dataset, key_func, reduce_func, None,
                                lambda key: np.int64(sizes[int(key._array())]))
