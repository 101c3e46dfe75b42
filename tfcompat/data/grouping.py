"""`Dataset.group_by_window` and `Dataset.bucket_by_sequence_length`."""
import numpy as np

from tfcompat.data import structure as st
from tfcompat.data._combining import as_dataset
from tfcompat.data._common import call, call_args, get_next_error, to_int
from tfcompat.data.dataset import DerivedDataset, unknown_unless_infinite
from tfcompat.data.sources import ListDataset
from tfcompat.framework import dtypes, errors
from tfcompat.framework.tensor import Tensor, storage
from tfcompat.framework.tensor_shape import TensorShape


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


def _filled(shapes, spec, filler):
    """TF's `make_padded_shapes`: each component's padded shape with its unknown dimensions set to `filler`."""
    flat = st.flatten(spec) if shapes is None else st.flatten_up_to_leaves(spec, shapes)
    out = []
    for shape in flat:
        shape = TensorShape(shape.shape if shapes is None else shape)
        out.append([filler if d is None else d for d in shape.as_list()])
    return st.pack(spec, out)


def _bucket_error(bucket, last):
    """TF's error when an element falls past the last boundary with `pad_to_bucket_boundary=True` (its assert in
    the batching function, reported as the function's InternalError)."""
    return get_next_error(errors.InternalError, (
        "Got error code INVALID_ARGUMENT and message: {\nassertion failed: [When pad_to_bucket_boundary=True, "
        "elements must have length < max(bucket_boundaries).] [Condition x < y did not hold element-wise:] "
        f"[x (args_0:0) = ] [{bucket}] [y (Const_1:0) = ] [{last}]\n}} \nfrom running user-defined function "
        "Dataset_group_by_window_batching_fn: "))


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
                              padding_values, pad_to_bucket_boundary, no_padding, drop_remainder):
    """Groups elements by which `[boundary_i, boundary_i+1)` bucket their length falls in, then pads and batches
    (with `pad_to_bucket_boundary`, unknown dimensions to the bucket's boundary - 1). As TF traces the batching
    function with a symbolic bucket, the batch dimension of the element spec is unknown."""
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1 but "
                         f"len(bucket_batch_sizes)={len(sizes)} and len(bucket_boundaries)={len(boundaries)}")

    def key_func(*element):
        length = call(element_length_func, element[0] if len(element) == 1 else element)
        n = int(length._array()) if isinstance(length, Tensor) else int(length)
        return np.int64(int(np.searchsorted(boundaries, n, side="right")))

    def reduce_func(key, window, fill=True):
        bucket = int(key._array())
        size = sizes[bucket]
        if no_padding:
            return window.batch(size, drop_remainder=drop_remainder)
        shapes = padded_shapes
        if pad_to_bucket_boundary and fill:
            if bucket >= len(sizes) - 1:
                raise _bucket_error(bucket, len(sizes) - 1)
            shapes = _filled(padded_shapes, window.element_spec, boundaries[bucket] - 1)
        return window.padded_batch(size, shapes, padding_values, drop_remainder=drop_remainder)

    grouped = GroupByWindowDataset(dataset, key_func, reduce_func, None,
                                   lambda key: np.int64(sizes[int(key._array())]))
    spec = as_dataset(reduce_func(st.to_tensor(np.int64(0)), ListDataset([], dataset.element_spec), False)).element_spec
    grouped._spec = st.map_leaves(lambda s: s if s.shape.rank is None else
                                  st.with_shape(s, [None] + s.shape.as_list()[1:]), spec)
    return grouped
