"""`keras.utils.split_dataset`: an in-memory dataset (arrays, a list/tuple of arrays, a `tf.data.Dataset`) split
into a left and a right `tf.data.Dataset`, as Keras 3 does it."""
import random

import numpy as np

from tfcompat.data._batching import BatchDataset, RaggedBatchDataset
from tfcompat.data.dataset import AUTOTUNE, Dataset
from tfcompat.framework.tensor import Tensor
from tfcompat.util import nest


def _kind(dataset):
    for kind in (tuple, list, np.ndarray, Dataset):
        if isinstance(dataset, kind):
            return kind
    return None


def _batch_size(dataset):
    """The batch size of a dataset whose last transformation is `batch` (Keras looks no deeper), else None."""
    return dataset._size if isinstance(dataset, (BatchDataset, RaggedBatchDataset)) else None


def _samples(dataset, kind):
    if kind in (list, tuple):
        what = "list" if kind is list else "tuple"
        if not dataset:
            raise ValueError(f"Received an empty list dataset.{' ' if kind is list else ''}Please provide a non-empty "
                             f"{what} of arrays.")
        first = None
        for i, element in enumerate(dataset):
            if not isinstance(element, np.ndarray):
                raise ValueError(f"Expected a {what} of `numpy.ndarray` objects,Received: {type(element)} at index "
                                 f"{i}.")
            if first is None:
                first = element.shape
            elif element.shape[0] != first[0]:
                raise ValueError(f"Received a {what} of NumPy arrays with different lengths.Mismatch found at index "
                                 f"{i}, Expected shape={first} Received shape={np.array(element).shape}.Please "
                                 f"provide a {what} of NumPy arrays of the same length.")
        samples = iter(zip(*dataset))
    elif kind is Dataset:
        samples = iter(dataset.unbatch() if _batch_size(dataset) is not None else dataset)
    else:
        samples = iter(dataset)
    out = []
    for sample in samples:
        if out and isinstance(out[0], (Tensor, np.ndarray)) and np.array(out[0]).shape != np.array(sample).shape:
            raise ValueError(f"All `dataset` samples must have same shape, Expected shape: {np.array(out[0]).shape} "
                             f"Received shape: {np.array(sample).shape} at index {len(out) - 1}.")
        out.append(sample)
    if not out:
        raise ValueError("Received an empty dataset. Argument `dataset` must be a non-empty list/tuple of "
                         "`numpy.ndarray` objects or `tf.data.Dataset` objects.")
    return out


def _check_sizes(left_size, right_size, total):
    lt, rt = type(left_size), type(right_size)
    if left_size is not None and lt not in (int, float) and right_size is not None and rt not in (int, float):
        raise TypeError("Invalid `left_size` and `right_size` Types. Expected: integer or float or None, Received: "
                        f"type(left_size)={lt} and type(right_size)={rt}")
    if left_size is not None and lt not in (int, float):
        raise TypeError(f"Invalid `left_size` Type. Expected: int or float or None, Received: type(left_size)={lt}.  ")
    if right_size is not None and rt not in (int, float):
        raise TypeError(f"Invalid `right_size` Type. Expected: int or float or None,Received: type(right_size)={rt}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split sizes must be "
                         "non-zero.")
    if (lt is int and not 0 < left_size < total) or (lt is float and not 0 < left_size < 1):
        raise ValueError(f"`left_size` should be either a positive integer smaller than {total}, or a float within "
                         f"the range `[0, 1]`. Received: left_size={left_size}")
    if (rt is int and not 0 < right_size < total) or (rt is float and not 0 < right_size < 1):
        raise ValueError(f"`right_size` should be either a positive integer and smaller than {total} or a float "
                         f"within the range `[0, 1]`. Received: right_size={right_size}")
    if lt is rt is float and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must be less than or equal "
                         "to 1.")


def _sizes(left_size, right_size, total):
    """(left, right) sample counts: fractions rounded, a missing side the complement (Keras's checks and texts)."""
    _check_sizes(left_size, right_size, total)
    left = round(left_size * total) if type(left_size) is float else None if left_size is None else float(left_size)
    right = round(right_size * total) if type(right_size) is float else None if right_size is None \
        else float(right_size)
    if left is None:
        left = total - right
    elif right is None:
        right = total - left
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the {total}. Received: "
                         f"left_size + right_size = {left + right}and total_length = {total}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and `right_size`={right}.Resulting "
                             f"{side} side dataset split will be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def _restack(samples, kind):
    """The samples as one structure of stacked arrays (tuples for lists), ready for `from_tensor_slices`."""
    if kind is np.ndarray:
        return samples
    parts = [np.array(column) for column in zip(*(nest.flatten(s) for s in samples))]
    return _tuples(nest.pack_sequence_as(samples[0], parts))


def _tuples(x):
    """`x` with its lists turned into tuples (tf.data slices tuples, not lists), as Keras does."""
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    if isinstance(x, dict):
        return {k: _tuples(v) for k, v in x.items()}
    return x


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    """(left, right) `tf.data.Dataset`s of the first `left_size` and last `right_size` samples (ints: counts,
    floats: fractions; one may be None), after a Python `random` shuffle when `shuffle`; batched datasets are
    split by sample and re-batched."""
    kind = _kind(dataset)
    if kind is None:
        raise TypeError(f"Unsupported dataset type: {type(dataset)}")
    if left_size is None and right_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. Received: "
                         "left_size=None and right_size=None")
    samples = _samples(dataset, kind)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)                   # Keras seeds Python's global generator
        random.shuffle(samples)
    left, right = _sizes(left_size, right_size, len(samples))
    out = []
    for part in (samples[:left], samples[-right:]):
        ds = Dataset.from_tensor_slices(_restack(list(part), kind))
        if kind is Dataset and _batch_size(dataset) is not None:
            ds = ds.batch(_batch_size(dataset))
        out.append(ds.prefetch(AUTOTUNE))
    return tuple(out)
