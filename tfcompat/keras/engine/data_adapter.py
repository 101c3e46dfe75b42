"""The data `fit`/`evaluate`/`predict` accept, as batches of tfcompat tensors.

Arrays (NumPy, tfcompat/torch tensors, lists/dicts of them) are converted to torch once and batched by slicing
(or one `index_select` per array when shuffled); pandas DataFrames/Series and other `__array__` objects are
taken as Keras's array adapter takes them (recognised without importing pandas); `tf.data.Dataset`s, `PyDataset`-like objects (`__len__` +
`__getitem__`) and other iterables (generators, torch `DataLoader`s) yield ready batches.
"""
import inspect
import itertools
import math
import random
import types
import warnings

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import to_storage
from tfcompat.framework.ragged.tensor import RaggedTensor
from tfcompat.framework.ragged.tensor import take as ragged_take
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.framework.variables import Variable
from tfcompat.ops import random_ops
from tfcompat.ops.random_ops import generator_for
from tfcompat.util import nest
from tfcompat.keras._config import config
from tfcompat.keras.backend import standardize_dtype


def _epoch_permutation(n, bs, within_batches):
    """The sample order of one shuffled epoch over arrays, as Keras's TF adapter draws it: `tf.random.shuffle` of the
    indices (`"batch"`: of each batch's indices, batches kept in order) inside a tf.data function. Under a global
    seed that op has op seed 0 and each epoch's new iterator makes its kernel anew, so every epoch repeats TF's
    permutation (its Philox Fisher-Yates); without one the order comes from the global torch stream."""
    sizes = [min(bs, n - i) for i in range(0, n, bs)] if within_batches else [n]
    if random_ops._Seeds.global_seed is None:
        gen = generator_for(None, "cpu")
        parts = [torch.randperm(k, generator=gen) for k in sizes]
    else:       # one kernel of seeds (global, 0): a draw of k > 1 items takes the next ceil((k - 1) / 4) Philox
        seeds = random_ops.op_seeds(0)      # blocks and swaps i with i + word % (k - i) (TF's Fisher-Yates)
        blocks = [(k + 2) // 4 if k > 1 else 0 for k in sizes]
        words = random_ops._philox._bits(sum(blocks), random_ops._philox.Stateful(seeds[0], seeds[1], 0))
        words = words.reshape(-1).astype(np.int64)
        parts, start = [], 0
        for k, b in zip(sizes, blocks):
            steps = np.arange(k - 1 if k > 1 else 0, dtype=np.int64)
            swaps = (steps + words[start:start + len(steps)] % (k - steps)).tolist()
            start += 4 * b
            perm = list(range(k))
            for i, j in enumerate(swaps):
                perm[i], perm[j] = perm[j], perm[i]
            parts.append(torch.tensor(perm, dtype=torch.int64))
    return torch.cat([p + i * bs for i, p in enumerate(parts)]) if within_batches else parts[0]


def unpack_x_y_sample_weight(data):
    """`(x,)`, `(x, y)` or `(x, y, sample_weight)` -> the triple (Keras's unpacking; a bare x is `(x, None, None)`)."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if len(data) == 1:
        return data[0], None, None
    if len(data) == 2:
        return data[0], data[1], None
    if len(data) == 3:
        return data
    raise ValueError(f"Data is expected to be in format `x`, `(x,)`, `(x, y)`, or `(x, y, sample_weight)`, "
                     f"found: {data}")


def _is_array(v):
    return isinstance(v, (np.ndarray, Tensor, torch.Tensor, Variable, SparseTensor, RaggedTensor)) or (
        isinstance(v, (list, tuple)) and v and all(isinstance(e, (int, float, np.number)) for e in v))


def _pandas_kind(v):
    """"DataFrame" or "Series" for a pandas object (known by its class's module: pandas is not imported), else None."""
    for cls in type(v).__mro__:
        if cls.__name__ in ("DataFrame", "Series") and cls.__module__.startswith("pandas"):
            return cls.__name__
    return None


def _casts_to_floatx(dtypes):
    """Whether Keras casts pandas columns of these dtypes to floatx (one is a float of another width); a dtype
    Keras lacks (pandas strings, objects) raises its `ValueError("Invalid dtype: str")`."""
    names = [standardize_dtype(d) for d in dtypes]
    return any(n.startswith(("float", "bfloat")) and n != config.floatx for n in names)


def _as_array(v):
    """A pandas DataFrame/Series or other `__array__` leaf as Keras's array adapter takes it: a DataFrame's values
    (all cast to floatx when a column is a float of another width), a Series as one column `(n, 1)`, others via
    NumPy; anything else unchanged."""
    if v is None or isinstance(v, (np.ndarray, Tensor, torch.Tensor, Variable, list, tuple)):
        return v
    kind = _pandas_kind(v)
    if kind == "DataFrame":
        return (v.astype(config.floatx) if _casts_to_floatx(v.dtypes) else v).to_numpy()
    if kind == "Series":
        return np.expand_dims((v.astype(config.floatx) if _casts_to_floatx([v.dtype]) else v).to_numpy(), -1)
    if hasattr(v, "__array__") and not hasattr(v, "element_spec"):
        return np.asarray(v)
    return v


def standardize_arrays(data):
    """`data` with its pandas and other `__array__` leaves as NumPy arrays (see `_as_array`)."""
    if isinstance(data, (np.ndarray, Tensor)) or data is None:
        return data
    return nest.map_structure(_as_array, data)


def is_array_data(x):
    leaves = nest.flatten(x)
    return bool(leaves) and all(_is_array(v) for v in leaves)


def _storage(v):
    if isinstance(v, (SparseTensor, RaggedTensor)):     # batched by rows (`sparse_rows`, `ragged_take`)
        return v
    if isinstance(v, (list, tuple)):
        v = np.asarray(v)
    return to_storage(v)


def to_tensor(v):
    """One batch component as a tfcompat Tensor (tensors pass through)."""
    if v is None or type(v) is Tensor:
        return v
    if isinstance(v, (np.ndarray, torch.Tensor, Variable, np.generic, list, float, int)):
        return _wrap(_storage(v))
    return v


def train_validation_split(arrays, validation_split):
    """Splits array data: the last `validation_split` fraction of the samples become the validation data."""
    arrays = standardize_arrays(arrays)
    flat = [a for a in nest.flatten(arrays) if a is not None]
    bad = [type(a) for a in flat if not _is_array(a)]
    if bad:
        raise ValueError("Argument `validation_split` is only supported for tensors or NumPy arrays."
                         f"Found incompatible type in the input: {bad}")
    n = int(flat[0].shape[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))
    if split_at == 0 or split_at == n:
        raise ValueError(f"Training data contains {n} samples, which is not sufficient to split it into a validation "
                         f"and training set as specified by `validation_split={validation_split}`. Either provide "
                         "more data, or a different value for the `validation_split` argument.")

    def cut(a, lo, hi):
        return None if a is None else a[lo:hi]
    train = nest.map_structure(lambda a: cut(a, 0, split_at), arrays)
    val = nest.map_structure(lambda a: cut(a, split_at, n), arrays)
    return train, val


def _class_weight_tensor(class_weight):
    size = max(int(k) for k in class_weight) + 1
    w = torch.ones(size, dtype=torch.float32)
    for k, v in class_weight.items():
        w[int(k)] = float(v)
    return w


def class_weights_for(y, weights, strict=False):
    """Per-sample weights `class_weight[label]` (labels: rounded numbers, or the argmax of one-hot rows).

    A class missing from `class_weight` weighs 1, as in Keras's array adapter; with `strict` (batches of a
    `tf.data.Dataset`, which Keras maps through a gather) a label past the largest class raises TF's gather error.
    """
    if y.ndim == 2 and y.shape[1] > 1:
        labels = torch.argmax(y, dim=1)
    else:
        labels = y.reshape(y.shape[0]) if y.ndim == 2 else y
        if labels.is_floating_point():
            labels = torch.round(labels)
    labels = labels.long()
    if weights.device != labels.device:
        weights = weights.to(labels.device)
    size = weights.shape[0]
    outside = (labels < 0) | (labels >= size)
    if not bool(outside.any()):
        return weights[labels]
    if strict:
        i = int(torch.nonzero(outside)[0])
        raise errors.InvalidArgumentError(None, None, f"indices[{i}] = {int(labels[i])} is not in [0, {size})")
    return torch.where(outside, 1.0, weights[labels.clamp(0, size - 1)])


def _pack(batch):
    """`(x,)`, `(x, y)` or `(x, y, sample_weight)`: the batch as Keras hands it to `train_step`."""
    x, y, sw = batch
    return (x,) if y is None and sw is None else ((x, y) if sw is None else batch)


class EpochIterator:
    """Iterates one epoch at a time over `(x, y, sample_weight)` batches of tfcompat tensors."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, steps_per_epoch=None, shuffle=False,
                 class_weight=None):
        if steps_per_epoch is not None and steps_per_epoch <= 0:
            raise ValueError(f"`steps_per_epoch` must be positive. Received: steps_per_epoch={steps_per_epoch}")
        cap = config.max_steps_per_epoch      # `keras.config.set_max_steps_per_epoch`
        if cap and (not steps_per_epoch or cap < steps_per_epoch):
            warnings.warn(f"Limiting steps_per_epoch to {cap}", stacklevel=3)
            steps_per_epoch = cap
        self.steps_per_epoch = steps_per_epoch
        self._class_weight = _class_weight_tensor(class_weight) if class_weight else None
        self._iterator = None
        self._arrays = None
        self.ran_out = False    # whether the last epoch ended on the source running out in a step's `next`
        x, y, sample_weight = standardize_arrays(x), standardize_arrays(y), standardize_arrays(sample_weight)
        if is_array_data(x):
            self._init_arrays(x, y, sample_weight, batch_size or 32, shuffle)
        else:
            if isinstance(x, (list, tuple, dict, str, bytes, int, float)):     # Python values, not arrays nor a source
                raise ValueError(f"Unrecognized data type: x={x} (of type {type(x)})")
            for arg, name, what in ((y, "y", "the targets"), (sample_weight, "sample_weights", "the sample weights")):
                if arg is not None:     # Keras's raise_unsupported_arg, naming the kind of data as its adapters do
                    kind = _source_kind(x)
                    raise ValueError(f"When providing `x` as a {kind}, `{name}` should not be passed. Instead, {what} "
                                     f"should be included as part of the {kind}.")
            if shuffle and hasattr(x, "element_spec"):
                warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a "
                              "tf.data.Dataset. The Dataset is expected to already be shuffled (via "
                              "`.shuffle(buffer_size)`).", UserWarning, stacklevel=2)
            if class_weight and inspect.isgenerator(x):
                raise ValueError("Argument `class_weight` is not supported for Python generator inputs. "
                                 f"Received: class_weight={class_weight}")
            self._peeked = None
            if isinstance(x, types.GeneratorType):
                if shuffle:
                    warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as "
                                  "a generator. The generator is expected to yield already-shuffled data.",
                                  UserWarning, stacklevel=2)
                self._peeked = _peek_generator(x)
            self._source = x
            self._shuffle = shuffle     # a PyDataset's batches are visited in shuffled order, as Keras's adapter does
            self._num_batches = self._source_length(x)
            self._source_batches = self._num_batches     # the source's own length, when known
            self._seen = 0          # batches taken from the current pass
        if self.steps_per_epoch is not None:
            self._num_batches = self.steps_per_epoch

    def _init_arrays(self, x, y, sample_weight, batch_size, shuffle):
        for a in nest.flatten((x, y, sample_weight)):
            if isinstance(a, np.ndarray) and a.dtype.kind in "US":    # Keras takes text as object arrays only
                raise ValueError(f"Invalid dtype: {a.dtype.name}")
        arrays = nest.map_structure(lambda a: None if a is None else _storage(a), (x, y, sample_weight))
        flat = [a for a in nest.flatten(arrays) if a is not None]
        n = int(flat[0].shape[0])
        if any(int(a.shape[0]) != n for a in flat):
            msg = "Data cardinality is ambiguous. Make sure all arrays contain the same number of samples."
            parts = arrays if arrays[2] is not None else arrays[:2] if arrays[1] is not None else arrays[:1]
            for label, part in zip(("x", "y", "sample_weight"), parts):
                sizes = ", ".join(str(int(b.shape[0])) for b in nest.flatten(part) if b is not None)
                msg += f"'{label}' sizes: {sizes}\n"
            raise ValueError(msg)
        if self._class_weight is not None:
            if arrays[2] is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            if isinstance(arrays[1], (list, tuple, dict)):
                raise ValueError("`class_weight` is only supported for Models with a single output.")
            arrays = (arrays[0], arrays[1], class_weights_for(arrays[1], self._class_weight))
        self._arrays = arrays
        self._num_samples = n
        self._batch_size = batch_size
        self._shuffle = shuffle
        self._num_batches = int(math.ceil(n / batch_size))

    @staticmethod
    def _source_length(x):
        card = getattr(x, "_card", None)
        if card is not None:
            n = card()
            if n == -1:
                return None
            return n if n >= 0 else None
        if hasattr(x, "__len__") and hasattr(x, "__getitem__"):
            return len(x)
        return None

    @property
    def spec_batch_size(self):
        """The batch dimension of the data's spec (Keras traces its train/test step on it): the batch size when
        every batch has it, else None."""
        if self._arrays is not None:
            n, bs = self._num_samples, self._batch_size
            return bs if n and n % bs == 0 else None
        spec = getattr(self._source, "element_spec", None)
        leaves = nest.flatten(spec) if spec is not None else []
        shape = getattr(leaves[0], "shape", None) if leaves else None
        return shape[0] if shape is not None and shape.rank else None

    @property
    def num_batches(self):
        """Batches per epoch, or None while unknown (an iterator of unknown length)."""
        return self._num_batches

    def __iter__(self):
        if self._arrays is not None:
            yield from self._array_epoch()
        else:
            yield from self._source_epoch()

    def _array_epoch(self):
        x, y, sw = self._arrays
        n, bs = self._num_samples, self._batch_size
        total = int(math.ceil(n / bs))
        # Keras's epoch iterator: with `steps_per_epoch` an epoch goes on from where the last one stopped, in the
        # same pass over the data; a pass that runs out ends the epoch early (with Keras's warning), and the next
        # epoch starts a new pass (a new shuffle)
        state = self.__dict__.get("_pass")
        if state is None or self.steps_per_epoch is None:
            state = self._pass = [_epoch_permutation(n, bs, self._shuffle == "batch") if self._shuffle else None, 0]
        perm = state[0]
        leaves = nest.flatten((x, y, sw))
        flat = not any(nest.is_nested(a) for a in (x, y, sw))     # one array (or None) each: no repacking
        sparse = any(isinstance(a, (SparseTensor, RaggedTensor)) for a in leaves)
        for step in range(self.steps_per_epoch or total):
            if state[1] >= total:
                warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or "
                              "generator can generate at least `steps_per_epoch * epochs` batches. You may need "
                              "to use the `.repeat()` function when building your dataset.", stacklevel=2)
                break
            b = state[1]
            state[1] += 1
            if state[1] >= total:
                self._pass = None
            lo, hi = b * bs, min((b + 1) * bs, n)
            if sparse:
                rows = torch.arange(lo, hi) if perm is None else perm[lo:hi]
                batch = [None if a is None else sparse_rows(a, rows) if isinstance(a, SparseTensor)
                         else ragged_take(a, rows) if isinstance(a, RaggedTensor) else _wrap(_take(a, rows))
                         for a in leaves]
            elif perm is None:
                batch = [None if a is None else _wrap(a[lo:hi]) for a in leaves]
            else:
                idx = perm[lo:hi]
                batch = [None if a is None else _wrap(_take(a, idx)) for a in leaves]
            yield step, _pack(tuple(batch) if flat else nest.pack_sequence_as((x, y, sw), batch))

    def reset(self):
        """Keras's `EpochIterator.reset` (each `evaluate` calls it): the next epoch starts a new pass."""
        self._iterator = None
        self.__dict__.pop("_pass", None)

    def _next_source_iterator(self):
        src = self._source
        if self._peeked is not None:    # Keras's generator adapter: every pass re-yields the batches it peeked at
            return itertools.chain(self._peeked, src)
        if hasattr(src, "__len__") and hasattr(src, "__getitem__") and not hasattr(src, "_card"):
            def items():
                order = list(range(len(src)))
                if self._shuffle:
                    random.shuffle(order)       # Python's RNG, as Keras (so `set_random_seed` fixes the order)
                for i in order:
                    yield src[i]
                if hasattr(src, "on_epoch_end"):
                    src.on_epoch_end()
            return items()
        return iter(src)

    def _source_epoch(self):
        # Keras's epoch iterator: a new pass each epoch unless `steps_per_epoch` is given (then an epoch goes on
        # from where the last one stopped); a source of known length ends a pass after that many batches without
        # asking for another, one of unknown length ends it when a step's `next` finds no more data (which, in
        # TF's traced step, has already counted an optimizer iteration: `ran_out`)
        self.ran_out = False
        if self._iterator is None or self.steps_per_epoch is None:
            self._iterator, self._seen = self._next_source_iterator(), 0
        known = self._source_batches
        step = 0
        while self.steps_per_epoch is None or step < self.steps_per_epoch:
            if known is not None and self._seen >= known:
                if self.steps_per_epoch is not None:
                    _warn_ran_out(3)
                break
            try:
                data = next(self._iterator)
            except StopIteration:
                _warn_ran_out(3)
                self._iterator, self.ran_out = None, True
                if self._num_batches is None:
                    self._num_batches = step
                return
            self._seen += 1
            x, y, sw = unpack_x_y_sample_weight(data)
            x, y, sw = nest.map_structure(to_tensor, x), nest.map_structure(to_tensor, y), \
                nest.map_structure(to_tensor, sw)
            if self._class_weight is not None and y is not None:
                sw = _wrap(class_weights_for(storage(y), self._class_weight,
                                             strict=hasattr(self._source, "element_spec")))
            yield step, _pack((x, y, sw))
            step += 1
        if known is not None and self._seen >= known:
            if not hasattr(self._source, "_card"):
                next(self._iterator, None)      # a PyDataset's pass ends with its `on_epoch_end`
            self._iterator = None
        if self._num_batches is None:
            self._num_batches = step


def _source_kind(x):
    if hasattr(x, "element_spec"):
        return "tf.data.Dataset"
    if isinstance(x, types.GeneratorType):
        return "generator"
    if any(c.__name__ == "DataLoader" and c.__module__.startswith("torch.utils.data") for c in type(x).__mro__):
        return "torch DataLoader"
    if hasattr(x, "__len__") and hasattr(x, "__getitem__"):
        return "PyDataset"
    return type(x).__name__


def _warn_ran_out(stacklevel):
    warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or generator can "
                  "generate at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` "
                  "function when building your dataset.", stacklevel=stacklevel)


def _peek_generator(gen):
    """The first batches of a Python generator, which Keras's generator adapter takes to find the data's spec (and
    yields again at the start of every pass)."""
    first = list(itertools.islice(gen, 2))
    if not first:
        raise ValueError("When passing a Python generator to a Keras model, the generator must yield at least one "
                         "batch. Received an empty generator.")
    if not isinstance(first[0], tuple):
        raise ValueError("When passing a Python generator to a Keras model, the generator must return a tuple, "
                         "either (input,) or (inputs, targets) or (inputs, targets, sample_weights). "
                         f"Received: {first[0]}")
    return first


def sparse_rows(sp, rows):
    """The SparseTensor of rows `rows` (a torch index vector) of `sp`, in that order (Keras's sparse batches)."""
    indices, values = storage(sp.indices), storage(sp.values)
    position = torch.full((int(sp.shape[0]),), -1, dtype=torch.int64)
    position[rows] = torch.arange(len(rows))
    new_row = position[indices[:, 0]]
    keep = (new_row >= 0).nonzero().squeeze(1)
    keep = keep[torch.argsort(new_row[keep], stable=True)]
    new_indices = indices[keep].clone()
    new_indices[:, 0] = new_row[keep]
    return SparseTensor(_wrap(new_indices), _wrap(values[keep]), [len(rows)] + sp.shape.as_list()[1:])


def _take(storage, idx):
    """Rows `idx` of an array's storage: one index_select for torch tensors, NumPy take for strings."""
    if isinstance(storage, np.ndarray):
        return storage.take(idx.numpy(), axis=0)
    return storage.index_select(0, idx.to(storage.device))
