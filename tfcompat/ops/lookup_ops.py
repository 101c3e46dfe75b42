"""`tf.lookup`: hash tables held on the host, as TF's lookup kernels hold them.

`StaticHashTable` (filled once by a `KeyValueTensorInitializer` or a `TextFileInitializer`), `StaticVocabularyTable`
(out-of-vocabulary keys hashed into buckets with Fingerprint64, as TF), and the mutable `MutableHashTable` and
`DenseHashTable` (TF's open-addressing table: its buckets, their order and growth are TF's, so `export` gives TF's
arrays). Each table op (lookup, insert, remove, size, export) runs through `_host`: inside a `tf.function` trace it is
a host callback that runs on every call (tf.function registers it), so a traced body sees the table's current content.
Export order of the hash tables is insertion order (TF's is its hash map's, which changes from run to run).
"""
import re

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, storage, wrap
from tfcompat.ops import string_ops
from tfcompat.util import tf_hash

# set by tf.function (eager/function/_host.py): `fn(callback, storages) -> storages`, a host callback in a trace
_host = [lambda fn, inputs: fn(inputs)]


def register_host_call(fn):
    _host[0] = fn


def _run(fn, *tensors):
    return [wrap(o) for o in _host[0](fn, [storage(t) for t in tensors])]


# -- dtypes and TF's kernel registrations --------------------------------------------------------------------------
_S, _I64, _I32, _F, _D, _B = (dtypes.string, dtypes.int64, dtypes.int32, dtypes.float32, dtypes.float64,
                              dtypes.bool)
_KERNELS = {
    "HashTableV2": [(_S, _S), (_S, _I64), (_S, _I32), (_S, _F), (_S, _D), (_S, _B), (_I64, _S), (_I64, _I64),
                    (_I64, _I32), (_I64, _F), (_I64, _D), (_I32, _S), (_I32, _I32), (_I32, _F), (_I32, _D)],
    "MutableHashTableV2": [(_S, _I64), (_S, _I32), (_S, _F), (_S, _D), (_S, _B), (_I64, "variant"), (_I64, _S),
                           (_I64, _I64), (_I64, _I32), (_I64, _F), (_I64, _D), (_I32, _I32), (_I32, _F), (_I32, _D)],
    "MutableHashTableOfTensorsV2": [(_S, _I64), (_S, _I32), (_S, _F), (_S, _D), (_S, _B), (_I64, _S), (_I64, _I64),
                                    (_I64, _I32), (_I64, _F), (_I64, _D), (_I32, _I32), (_I32, _F), (_I32, _D)],
    "MutableDenseHashTableV2": [(_S, "resource"), (_S, _I64), (_S, _I32), (_S, _F), (_S, _D), (_S, _B),
                                (_I64, "variant"), (_I64, _I64), (_I64, _I32), (_I64, _F), (_I64, _D), (_I64, _B),
                                (_I32, _I32), (_I32, _F), (_I32, _D)],
}
_DT_NAMES = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}


def _dt(d):
    name = d if isinstance(d, str) else d.name
    return "DT_" + _DT_NAMES.get(name, name.upper())


def _c_name(d):
    return {"float32": "float", "float64": "double"}.get(d.name, d.name)


def _check_kernel(op, key_dtype, value_dtype, node_name, attrs=""):
    if (key_dtype, value_dtype) in _KERNELS[op]:
        return
    lines = "\n".join(f"  device='CPU'; key_dtype in [{_dt(k)}]; value_dtype in [{_dt(v)}]" for k, v in _KERNELS[op])
    raise errors.op_error(errors.NotFoundError,
                          f"Could not find device for node: {{{{node {op}}}}} = {op}[container=\"\", {attrs}"
                          f"key_dtype={_dt(key_dtype)}, shared_name=\"\", use_node_name_sharing=false, "
                          f"value_dtype={_dt(value_dtype)}]\nAll kernels registered for op {op}:\n{lines}\n", op,
                          node_name)


def check_table_dtypes(table, key_dtype, value_dtype):
    """TF's check of an initializer's dtypes against its table's."""
    if key_dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype for table, expected {table.key_dtype} but got {key_dtype}.")
    if value_dtype.base_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype for table, expected {table.value_dtype} but got {value_dtype}.")


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _flat(st):
    """A storage's elements as Python values (bytes or numbers), row-major."""
    return st.reshape(-1).tolist()


def _out(items, dtype, shape):
    """A storage of `dtype` and `shape` from Python values."""
    if dtype is dtypes.string:
        arr = np.empty(len(items), dtype=object)
        arr[:] = items
        return arr.reshape(shape)
    return torch.tensor(items, dtype=dtype.torch_dtype).reshape(shape)


def _numel(st):
    return st.numel() if isinstance(st, torch.Tensor) else st.size


def _rows(st, n):
    """The n rows of a storage whose leading dims hold n entries, each a tuple of Python values."""
    flat = _flat(st)
    size = len(flat) // n if n else 0
    return [tuple(flat[i * size:(i + 1) * size]) for i in range(n)]


def _text(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


# -- the tables' base ---------------------------------------------------------------------------------------------
class _Table:
    """What every table shares: dtypes, `__getitem__`, composite keys (their values looked up)."""

    _key_dtype = _value_dtype = None

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def name(self):
        return None

    def __getitem__(self, keys):
        return self.lookup(keys)


def _composite_lookup(keys, fn):
    """`fn` over a dense key tensor, or over a SparseTensor's/RaggedTensor's values, re-wrapped."""
    if isinstance(keys, SparseTensor):
        return SparseTensor(keys.indices, fn(keys.values), keys.dense_shape)
    if isinstance(keys, RaggedTensor):
        return keys.with_flat_values(fn(keys.flat_values))
    return fn(keys)


class _InitializableTable(_Table):
    """TF's InitializableLookupTableBase: the initializer fills the table when it is made."""

    def __init__(self, default_value, initializer):
        self._key_dtype = initializer.key_dtype
        self._value_dtype = initializer.value_dtype
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        if self._default_value.shape.rank != 0:
            raise ValueError(f"Shapes {self._default_value.shape} and () are not compatible")
        self._initializer = initializer
        _check_kernel("HashTableV2", self._key_dtype, self._value_dtype, "hash_table")
        self._entries = {}
        self._init_op = initializer.initialize(self)

    @property
    def default_value(self):
        return self._default_value

    def _import(self, keys, values, op):
        """Adds entries, as TF's HashTable: a key seen again must bring the same value."""
        entries = self._entries
        for k, v in zip(keys, values):
            have = entries.setdefault(k, v)
            if have != v:
                raise errors.kernel_error(errors.FailedPreconditionError,
                                          f"HashTable has different value for same key. Key {_text(k)} has "
                                          f"{_text(have)} and trying to add value {_text(v)}", op)

    def size(self, name=None):
        return _run(lambda _: [torch.tensor(len(self._entries), dtype=torch.int64)])[0]

    def lookup(self, keys, name=None):
        """The values of `keys` (a Tensor, SparseTensor or RaggedTensor), `default_value` where a key is absent."""
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")

        def find(ts):
            default = _flat(ts[1])[0]
            got = self._entries.get
            return [_out([got(k, default) for k in _flat(ts[0])], self._value_dtype, tuple(ts[0].shape))]

        return _composite_lookup(keys, lambda k: _run(find, k, self._default_value)[0])

    def export(self, name=None):
        """(keys, values) of every entry (in insertion order; TF's order is its hash map's)."""
        def export(_):
            return [_out(list(self._entries), self._key_dtype, (len(self._entries),)),
                    _out(list(self._entries.values()), self._value_dtype, (len(self._entries),))]
        k, v = _run(export)
        return k, v


@tf_export("lookup.StaticHashTable", unsupported=("experimental_is_anonymous",))
class StaticHashTable(_InitializableTable):
    """A hash table filled by its initializer when made, immutable afterwards."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(default_value, initializer)


# -- initializers ---------------------------------------------------------------------------------------------------
class _Initializer:
    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype


@tf_export("lookup.KeyValueTensorInitializer")
class KeyValueTensorInitializer(_Initializer):
    """A table's entries from a tensor of keys and a tensor of values of the same shape."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype)
        self._values = convert_to_tensor(values, dtype=value_dtype)
        self._key_dtype, self._value_dtype = self._keys.dtype, self._values.dtype

    def initialize(self, table):
        check_table_dtypes(table, self._keys.dtype, self._values.dtype)
        op = "LookupTableImportV2"
        ks, vs = storage(self._keys), storage(self._values)
        if _numel(ks) == 0 or _numel(vs) == 0:
            raise errors.kernel_error(errors.InvalidArgumentError, "keys and values cannot be empty tensors.", op)
        if tuple(ks.shape) != tuple(vs.shape):
            raise errors.kernel_error(errors.InvalidArgumentError, f"Expected shape {_shape_text(ks.shape)} for "
                                      f"value, got {_shape_text(vs.shape)}", op)
        table._import(_flat(ks), _flat(vs), op)


@tf_export("lookup.TextFileIndex")
class TextFileIndex:
    """Which part of a line a `TextFileInitializer` takes: `WHOLE_LINE`, `LINE_NUMBER`, or a column (>= 0)."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


_INT_TEXT = re.compile(rb"\s*[+-]?\d+\s*")
_FLOAT_TEXT = re.compile(rb"\s*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)\s*", re.IGNORECASE)
_INT_RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1)}


@tf_export("lookup.TextFileInitializer")
class TextFileInitializer(_Initializer):
    """A table's entries from a text file, one per line: keys and values from columns split at `delimiter`, the
    whole line (`TextFileIndex.WHOLE_LINE`) or the line number (`TextFileIndex.LINE_NUMBER`, plus
    `value_index_offset`)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
                 name=None, value_index_offset=0):
        if not isinstance(filename, Tensor) and not filename:
            raise ValueError("`filename` argument required for tf.lookup.TextFileInitializer")
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        if key_index < -2:
            raise ValueError(f"`key_index` should be >= -2, received: {key_index}.")
        if key_index == TextFileIndex.LINE_NUMBER and key_dtype != dtypes.int64:
            raise ValueError(f"`key_dtype` must be int64 if `key_index` is {TextFileIndex.LINE_NUMBER}, received: "
                             f"{key_dtype}")
        if key_index == TextFileIndex.WHOLE_LINE and not key_dtype.is_integer and key_dtype != dtypes.string:
            raise ValueError(f"`key_dtype` should be either integer or string for `key_index` "
                             f"{TextFileIndex.WHOLE_LINE}, received: {key_dtype}")
        if value_index < -2:
            raise ValueError(f"`value_index` should be >= -2, received: {value_index}")
        if value_index == TextFileIndex.LINE_NUMBER and value_dtype != dtypes.int64:
            raise ValueError(f"`value_dtype` must be int64 for `value_index` {TextFileIndex.LINE_NUMBER}, received: "
                             f"{value_dtype}")
        if value_index == TextFileIndex.WHOLE_LINE and not value_dtype.is_integer and value_dtype != dtypes.string:
            raise ValueError(f"`value_dtype` should be either integer or string for `value_index` "
                             f"{TextFileIndex.WHOLE_LINE}, received: {value_dtype}")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._filename = filename
        self._key_dtype, self._value_dtype = key_dtype, value_dtype
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size, self._delimiter, self._offset = vocab_size, delimiter, value_index_offset

    def _path(self):
        f = self._filename
        if isinstance(f, Tensor):
            f = storage(f)[()]
        return f.decode() if isinstance(f, bytes) else str(f)

    def initialize(self, table):
        check_table_dtypes(table, self._key_dtype, self._value_dtype)
        op = "InitializeTableFromTextFileV2"
        if len(self._delimiter) != 1:
            raise errors.kernel_error(errors.InvalidArgumentError, "delimiter should be only 1 char", op)
        path = self._path()
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            raise errors.kernel_error(errors.NotFoundError, f"{path}; No such file or directory", op) from None
        except OSError as e:
            raise errors.kernel_error(errors.FailedPreconditionError, f"{path}; {e.strerror}", op) from None
        if not data:
            raise errors.kernel_error(errors.OutOfRangeError, "Read less bytes than requested", op)
        keys, values = [], []
        vocab = -1 if self._vocab_size is None else int(self._vocab_size)
        delim = self._delimiter.encode() if isinstance(self._delimiter, str) else bytes(self._delimiter)
        pos, line_no = 0, 0
        while pos < len(data):
            end = data.find(b"\n", pos)
            end = len(data) if end < 0 else end
            line, pos = data[pos:end], end + 1
            if line.endswith(b"\r"):
                line = line[:-1]
            if vocab != -1 and line_no >= vocab:
                break
            if not line:
                raise errors.kernel_error(errors.InvalidArgumentError, f"Invalid content in {path}: empty line found "
                                          f"at position {min(pos, len(data))}.", op)
            tokens = line.split(delim) if (self._key_index >= 0 or self._value_index >= 0) else []
            top = max(self._key_index, self._value_index)
            if top >= len(tokens) and top >= 0:
                raise errors.kernel_error(errors.InvalidArgumentError, f"Invalid number of columns in {path} line "
                                          f"{line_no} ({line.decode('utf-8', 'replace')}) : expected at least "
                                          f"{top + 1} got {len(tokens)}", op)
            keys.append(self._field(line, tokens, self._key_index, self._key_dtype, line_no, op))
            values.append(self._field(line, tokens, self._value_index, self._value_dtype, line_no, op))
            line_no += 1
        if vocab != -1 and line_no != vocab:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Invalid vocab_size in {path}: expected {vocab} "
                                      f"but got {line_no}", op)
        table._import(keys, values, op)

    def _field(self, line, tokens, index, dtype, line_no, op):
        if index == TextFileIndex.LINE_NUMBER:
            return line_no + self._offset
        token = line if index == TextFileIndex.WHOLE_LINE else tokens[index]
        if dtype is dtypes.string:
            return token
        bad = errors.kernel_error(errors.InvalidArgumentError, f"Field {token.decode('utf-8', 'replace')} in line "
                                  f"{line_no} is not a valid {_c_name(dtype)}.", op)
        if dtype.is_integer:
            lo, hi = _INT_RANGE.get(dtype.name, (-2 ** 63, 2 ** 63 - 1))
            if not _INT_TEXT.fullmatch(token) or not lo <= int(token) <= hi:
                raise bad
            return int(token)
        if dtype in (dtypes.float32, dtypes.float64):
            if not _FLOAT_TEXT.fullmatch(token):
                raise bad
            v = float(token)
            return float(np.float32(v)) if dtype is dtypes.float32 else v
        raise errors.kernel_error(errors.InvalidArgumentError, f"Data type {_dt(dtype)} not supported.", op)


# -- vocabulary table -----------------------------------------------------------------------------------------------
@tf_export("lookup.StaticVocabularyTable", unsupported=("experimental_is_anonymous",))
class StaticVocabularyTable(_Table):
    """Keys to int64 ids: the initializer's ids for known keys, `size + Fingerprint64(key) % num_oov_buckets` for
    others (integer keys hashed as their decimal text, as TF)."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer:
            if lookup_key_dtype is None:
                lookup_key_dtype = initializer.key_dtype
            lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype)
            if initializer.key_dtype not in (dtypes.int64, dtypes.string):
                raise TypeError(f"Invalid `key_dtype`, expected one of (tf.int64, tf.string), but got "
                                f"{initializer.key_dtype}.")
            if initializer.key_dtype.is_integer != lookup_key_dtype.is_integer:
                raise TypeError(f"Invalid `key_dtype`, expected "
                                f"{'integer' if lookup_key_dtype.is_integer else 'non-integer'} but got "
                                f"{initializer.key_dtype}.")
            if initializer.value_dtype != dtypes.int64:
                raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got {initializer.value_dtype}.")
            self._table = StaticHashTable(initializer, default_value=-1)
        else:
            lookup_key_dtype = dtypes.string
            self._table = None
        if not lookup_key_dtype.is_integer and lookup_key_dtype != dtypes.string:
            raise TypeError(f"Invalid `key_dtype`, expected integer or string, got {lookup_key_dtype}")
        self._num_oov_buckets = num_oov_buckets
        self._key_dtype, self._value_dtype = lookup_key_dtype, dtypes.int64
        if name:
            name = name.rstrip("/")
        name = name or (None if initializer else "hash_bucket")
        self._table_name = name.split("/")[-1] if name else None

    @property
    def name(self):
        return self._table_name

    def size(self, name=None):
        base = self._table.size() if self._table is not None else wrap(torch.tensor(0, dtype=torch.int64))
        return wrap(storage(base) + self._num_oov_buckets)

    def lookup(self, keys, name=None):
        """The ids of `keys` (a Tensor, SparseTensor or RaggedTensor)."""
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")
        return _composite_lookup(keys, self._ids)

    def _ids(self, values):
        if self._table is not None and self._table.key_dtype is dtypes.int64 and values.dtype is not dtypes.int64:
            values = wrap(storage(values).to(torch.int64))
        text = values if values.dtype is dtypes.string else string_ops.as_string(values)
        buckets = storage(string_ops.to_hash_bucket_fast(text, self._num_oov_buckets))
        if self._table is None:
            return wrap(buckets)
        ids = storage(self._table.lookup(values))
        return wrap(torch.where(ids != -1, ids, buckets + storage(self._table.size())))


# -- mutable tables -------------------------------------------------------------------------------------------------
class _MutableBase(_Table):
    """What the two mutable tables share: dtypes from arguments, TF's key conversion, and checkpointing as TF's
    SaveableObject named `table`: tensors `<path>/.ATTRIBUTES/table-keys` and `-values` (`export()`'s), a restore
    replacing the whole content (train/checkpoint.py asks `_saveable_tensors` and `_restore_state`)."""

    _SAVEABLE_NAME = "table"
    _SAVEABLE_SUFFIXES = ("-keys", "-values")

    def _checkpoint_children(self):
        return []

    def _saveable_tensors(self):
        k, v = (storage(t) for t in self.export())
        return {"-keys": (self._key_dtype, tuple(k.shape), k), "-values": (self._value_dtype, tuple(v.shape), v)}

    def _restore_state(self, saved):
        """Replaces the content by the saved `{suffix: (checkpoint key, dtype, value)}` (checked first)."""
        arrays = []
        for suffix, want in zip(self._SAVEABLE_SUFFIXES, (self._key_dtype, self._value_dtype)):
            key, dtype, value = saved[suffix]
            if dtype is not want:
                raise errors.InvalidArgumentError(None, None, f"tensor_name = {key}; expected dtype {_c_name(want)} "
                                                  f"does not equal original dtype {_c_name(dtype)} [Op:RestoreV2]")
            arrays.append(value if isinstance(value, np.ndarray) else value.detach().cpu())
        self._import(*arrays)

    def _convert(self, x, dtype, what):
        if isinstance(x, Tensor) and x.dtype is not dtype:
            raise ValueError(f"{what}: Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{x.dtype.name}: {x!r}")
        return convert_to_tensor(x, dtype=dtype)

    def _signature(self, op, default_dtype):
        raise errors.kernel_error(errors.InvalidArgumentError, f"Signature mismatch, have: resource, "
                                  f"{self._key_dtype.name}, {default_dtype.name}->{default_dtype.name} expected: "
                                  f"resource, {self._key_dtype.name}, {self._value_dtype.name}->"
                                  f"{self._value_dtype.name}", op, name=None)


@tf_export("lookup.experimental.MutableHashTable", unsupported=("experimental_is_anonymous",))
class MutableHashTable(_MutableBase):
    """A hash table with `insert` and `remove`; values are scalars or tensors of the default value's shape."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._value_shape = tuple(storage(self._default_value).shape)
        op = "MutableHashTableV2" if not self._value_shape else "MutableHashTableOfTensorsV2"
        _check_kernel(op, self._key_dtype, self._value_dtype, name)
        if len(self._value_shape) > 1:
            raise errors.kernel_error(errors.InvalidArgumentError, "Default value must be a vector, got shape "
                                      f"{_shape_text(self._value_shape)}", op, name=name)
        self._entries = {}

    def size(self, name=None):
        return _run(lambda _: [torch.tensor(len(self._entries), dtype=torch.int64)])[0]

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """The values of `keys` (the default value, or the matching `dynamic_default_values`, where absent)."""
        keys = self._convert(keys, self._key_dtype, "keys")
        default = self._default_value if dynamic_default_values is None else convert_to_tensor(dynamic_default_values)
        if default.dtype is not self._value_dtype:
            self._signature("LookupTableFindV2", default.dtype)
        vshape = self._value_shape

        def find(ts):
            ks, ds = ts
            kshape = tuple(ks.shape)
            if tuple(ds.shape) not in (vshape, kshape + vshape):
                raise errors.kernel_error(errors.InvalidArgumentError, f"Expected shape {_shape_text(vshape)} or "
                                          f"{_shape_text(kshape + vshape)} for default value, got "
                                          f"{_shape_text(ds.shape)}", "LookupTableFindV2")
            flat = _flat(ks)
            per_key = tuple(ds.shape) != vshape or (not vshape and kshape == ())
            dflt = _rows(ds, len(flat)) if per_key and tuple(ds.shape) == kshape + vshape else None
            one = _rows(ds, 1)[0] if dflt is None else None
            got = self._entries.get
            out = []
            for i, k in enumerate(flat):
                v = got(k)
                out.extend(v if v is not None else (dflt[i] if dflt is not None else one))
            return [_out(out, self._value_dtype, kshape + vshape)]

        return _run(find, keys, default)[0]

    def insert(self, keys, values, name=None):
        """Sets the values of `keys` (`values` shaped as `keys` plus the value shape)."""
        keys = self._convert(keys, self._key_dtype, "keys")
        values = self._convert(values, self._value_dtype, "values")

        def insert(ts):
            ks, vs = ts
            want = tuple(ks.shape) + self._value_shape
            if tuple(vs.shape) != want:
                raise errors.kernel_error(errors.InvalidArgumentError, f"Expected shape {_shape_text(want)} for "
                                          f"value, got {_shape_text(vs.shape)}", "LookupTableInsertV2")
            flat = _flat(ks)
            for k, v in zip(flat, _rows(vs, len(flat))):
                self._entries[k] = v
            return []

        _run(insert, keys, values)

    def remove(self, keys, name=None):
        """Removes `keys` (absent keys are ignored)."""
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, received: {keys.dtype}")

        def remove(ts):
            for k in _flat(ts[0]):
                self._entries.pop(k, None)
            return []

        _run(remove, keys)

    def _import(self, ks, vs):
        want = tuple(ks.shape) + self._value_shape
        if tuple(vs.shape) != want:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Expected shape {_shape_text(want)} for value, "
                                      f"got {_shape_text(vs.shape)}", "LookupTableImportV2")
        flat = _flat(ks)
        self._entries = dict(zip(flat, _rows(vs, len(flat))))

    def export(self, name=None):
        """(keys, values) of every entry, in insertion order (TF's order is its hash map's)."""
        def export(_):
            n = len(self._entries)
            vals = [x for v in self._entries.values() for x in v]
            return [_out(list(self._entries), self._key_dtype, (n,)),
                    _out(vals, self._value_dtype, (n,) + (self._value_shape or ()))]
        k, v = _run(export)
        return k, v


def _hash_scalar(k):
    return tf_hash.hash64(k) if isinstance(k, bytes) else k & 0xFFFFFFFFFFFFFFFF


@tf_export("lookup.experimental.DenseHashTable", unsupported=("experimental_is_anonymous",))
class DenseHashTable(_MutableBase):
    """TF's MutableDenseHashTable: open addressing with quadratic probing over `initial_num_buckets` buckets (a power
    of 2, doubled while an insert would pass a load of 0.8); `empty_key` and `deleted_key` mark free buckets."""

    _LOAD = float(np.float32(0.8))

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
                 name="MutableDenseHashTable", checkpoint=True, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._value_shape = tuple(storage(self._default_value).shape)
        empty = convert_to_tensor(empty_key, dtype=self._key_dtype)
        deleted = convert_to_tensor(deleted_key, dtype=self._key_dtype)
        n = 131072 if initial_num_buckets is None else int(initial_num_buckets)
        _check_kernel("MutableDenseHashTableV2", self._key_dtype, self._value_dtype, name,
                      f"initial_num_buckets={n}, ")
        op = "MutableDenseHashTableV2"
        self._key_shape = tuple(storage(empty).shape)
        if len(self._key_shape) > 1:
            raise errors.kernel_error(errors.InvalidArgumentError, "Empty key must be a scalar or a vector, got shape "
                                      f"{_shape_text(self._key_shape)}", op, name=name)
        if len(self._value_shape) > 1:
            raise errors.kernel_error(errors.InvalidArgumentError, "Empty value must be a scalar or a vector, got "
                                      f"shape {_shape_text(self._value_shape)}", op, name=name)
        self._empty, self._deleted = _rows(storage(empty), 1)[0], _rows(storage(deleted), 1)[0]
        if self._empty == self._deleted:
            raise errors.kernel_error(errors.InvalidArgumentError, "Empty and deleted keys cannot be equal", op,
                                      name=name)
        self._key_size = max(1, int(np.prod(self._key_shape)))
        self._value_size = max(1, int(np.prod(self._value_shape))) if self._value_shape != (0,) else 0
        self._allocate(n, op, name)

    def _allocate(self, n, op, name=""):
        if n < 4 or n & (n - 1):
            raise errors.kernel_error(errors.InvalidArgumentError, f"Number of buckets must be at least 4 and a power "
                                      f"of 2, got: {n}", op, name=name)
        self._keys = [self._empty] * n
        zero = b"" if self._value_dtype is dtypes.string else (False if self._value_dtype is dtypes.bool else 0)
        self._values = [(zero,) * self._value_size] * n
        self._count = 0

    def _hash(self, key):
        if self._key_size == 1:
            return _hash_scalar(key[0])
        h = 0
        for k in key:
            h = tf_hash.hash64_combine(h, _hash_scalar(k))
        return h

    def _check_key(self, key, op, skip=False):
        if key == self._empty or key == self._deleted:
            if skip:
                return False
            which = "empty_key" if key == self._empty else "deleted_key"
            raise errors.kernel_error(errors.InvalidArgumentError, f"Using the {which} as a table key is not allowed",
                                      op)
        return True

    def _key_rows(self, ks, op):
        n = 1 if ks.ndim == 0 else ks.shape[0]
        count = ks.numel() if isinstance(ks, torch.Tensor) else ks.size
        if count != n * self._key_size:
            raise errors.kernel_error(errors.InvalidArgumentError, f"Expected key shape "
                                      f"{_shape_text((n,) + self._key_shape)} got {_shape_text(ks.shape)}", op)
        return _rows(ks, n)

    def _probe(self, key, op):
        """The bucket holding `key`, or (None, the first free bucket's index) when it is absent."""
        mask = len(self._keys) - 1
        b, probes = self._hash(key) & mask, 0
        while True:
            have = self._keys[b]
            if have == key:
                return b
            if have == self._empty:
                return None
            probes += 1
            b = (b + probes) & mask
            if probes >= len(self._keys):
                raise errors.kernel_error(errors.InternalError, f"Internal error in MutableDenseHashTable {op}", op)

    def _insert_rows(self, keys, values, skip):
        mask = len(self._keys) - 1
        for key, value in zip(keys, values):
            if not self._check_key(key, "LookupTableInsertV2", skip):
                continue
            b, probes = self._hash(key) & mask, 0
            while True:
                have = self._keys[b]
                if have == key:
                    self._values[b] = value
                    break
                if have == self._empty or have == self._deleted:
                    self._count += 1
                    self._keys[b], self._values[b] = key, value
                    break
                probes += 1
                b = (b + probes) & mask

    def size(self, name=None):
        return _run(lambda _: [torch.tensor(self._count, dtype=torch.int64)])[0]

    def lookup(self, keys, name=None):
        """The values of `keys` (`keys` a vector of keys), the default value where absent."""
        keys = self._convert(keys, self._key_dtype, "keys")
        op = "LookupTableFindV2"

        def find(ts):
            ks, ds = ts
            rows = self._key_rows(ks, op)
            dflt = tuple(_flat(ds))
            out = []
            for key in rows:
                self._check_key(key, op)
                b = self._probe(key, "lookup")
                out.extend(self._values[b] if b is not None else dflt)
            shape = tuple(ks.shape)[:ks.ndim - len(self._key_shape)] + self._value_shape
            return [_out(out, self._value_dtype, shape)]

        return _run(find, keys, self._default_value)[0]

    def insert_or_assign(self, keys, values, name=None):
        """Sets the values of `keys` (growing the buckets first when the load would pass 0.8)."""
        keys = self._convert(keys, self._key_dtype, "keys")
        values = self._convert(values, self._value_dtype, "values")
        op = "LookupTableInsertV2"

        def insert(ts):
            ks, vs = ts
            want = tuple(ks.shape)[:ks.ndim - len(self._key_shape)] + self._value_shape
            if tuple(vs.shape) != want:
                raise errors.kernel_error(errors.InvalidArgumentError, f"Expected shape {_shape_text(want)} for "
                                          f"value, got {_shape_text(vs.shape)}", op)
            rows = self._key_rows(ks, op)
            pending = self._count + (1 if ks.ndim == 0 else ks.shape[0])
            n = len(self._keys)
            if pending > n * self._LOAD:
                while pending > n * self._LOAD:
                    n <<= 1
                old = list(zip(self._keys, self._values))
                self._allocate(n, op)
                self._insert_rows([k for k, _ in old], [v for _, v in old], True)
            self._insert_rows(rows, _rows(vs, len(rows)), False)
            return []

        _run(insert, keys, values)

    insert = insert_or_assign

    def erase(self, keys, name=None):
        """Removes `keys` (absent keys are ignored; their buckets keep `deleted_key`)."""
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype}, got {keys.dtype}.")
        op = "LookupTableRemoveV2"

        def remove(ts):
            for key in self._key_rows(ts[0], op):
                self._check_key(key, op)
                b = self._probe(key, "remove")
                if b is not None:
                    self._count -= 1
                    self._keys[b] = self._deleted
            return []

        _run(remove, keys)

    remove = erase

    def _import(self, ks, vs):
        """TF's ImportValues: the saved buckets become the table's (their count the number of buckets)."""
        n = ks.shape[0] if len(ks.shape) else 1
        want = (n, self._key_size)
        if tuple(ks.shape) not in (want, (n,) + self._key_shape) or tuple(vs.shape) != (n,) + (self._value_shape or (1,)):
            raise errors.kernel_error(errors.InvalidArgumentError, f"Expected shape "
                                      f"{_shape_text((n,) + (self._value_shape or (1,)))} for value, got "
                                      f"{_shape_text(vs.shape)}", "LookupTableImportV2")
        self._keys, self._values = _rows(ks, n), _rows(vs, n)
        self._count = sum(1 for k in self._keys if k != self._empty and k != self._deleted)

    def export(self, name=None):
        """(keys, values): every bucket, as TF's arrays of shape [num_buckets, key size] and [num_buckets, value
        size] (free buckets hold `empty_key` or `deleted_key`)."""
        def export(_):
            n = len(self._keys)
            return [_out([x for k in self._keys for x in k], self._key_dtype, (n,) + (self._key_shape or (1,))),
                    _out([x for v in self._values for x in v], self._value_dtype,
                         (n,) + (self._value_shape or (1,)))]
        k, v = _run(export)
        return k, v

