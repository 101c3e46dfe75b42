"""Tensor indexing under NumPy behavior: integer and boolean arrays, lists and tuples index as NumPy's advanced indexing."""
import numpy as np
import torch

from tfcompat.framework.op_def import input_storage
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.framework.variables import Variable


def _advanced(item):
    return isinstance(item, (list, tuple, np.ndarray, Variable)) or (isinstance(item, Tensor) and item.shape.rank)


def _index(item):
    """One index entry as torch indexing takes it (arrays as long/bool tensors)."""
    given = item
    if isinstance(item, (list, tuple, np.ndarray)):
        item = np.asarray(item)
    elif isinstance(item, (Tensor, Variable)):
        item = np.asarray(storage(item).cpu()) if isinstance(storage(item), torch.Tensor) else item.numpy()
    else:
        return item
    if item.dtype == np.bool_:
        return torch.from_numpy(item)
    if not np.issubdtype(item.dtype, np.integer):
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
                         f"boolean arrays are valid indices, got {given!r}")
    return torch.from_numpy(item.astype(np.int64))


def wrap_getitem(basic):
    """`basic` (TF's `__getitem__`) for keys without array entries; NumPy's advanced indexing for the rest."""
    def getitem(self, key):
        entries = key if isinstance(key, tuple) else (key,)
        if not any(_advanced(e) for e in entries):
            return basic(self, key)
        index = tuple(_index(e) for e in entries)
        t = input_storage(self)
        if isinstance(t, np.ndarray):                  # tf.string storage
            return wrap(t[tuple(i.numpy() if isinstance(i, torch.Tensor) else i for i in index)])
        return wrap(t[index])
    getitem.__doc__ = "NumPy's indexing (TF's numpy behavior `_getitem`), basic keys as `tf.Tensor.__getitem__`."
    return getitem
