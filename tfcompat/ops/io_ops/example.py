"""`tf.train.Example` parsing: the feature specs and `tf.io.parse_example` / `parse_single_example`."""
import collections

import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import wrap
from tfcompat.ops.io_ops import example_wire
from tfcompat.ops.io_ops._common import kernel_error, np_array, wrap_np
from tfcompat.ops.string_ops import _strings

@tf_export("io.FixedLenFeature")
class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature of fixed `shape` and `dtype` (float32, int64 or string); required unless `default_value`."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


@tf_export("io.VarLenFeature")
class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A variable-length feature, parsed to a `tf.SparseTensor`."""


@tf_export("io.FixedLenSequenceFeature")
class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature holding a sequence of items of `shape` (a dense `[n, *shape]` tensor; padded in batches)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


@tf_export("io.RaggedFeature", partial="partitions (only the values of one key, as a 2-D RaggedTensor)")
class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A variable-length feature parsed to a RaggedTensor (one row per example; a 1-D tensor for one example)."""

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32, validate=False):
        if partitions:
            raise NotImplementedError("tf.io.RaggedFeature(partitions=...) is not supported by tfcompat")
        return super().__new__(cls, dtypes.as_dtype(dtype), value_key, tuple(partitions),
                               dtypes.as_dtype(row_splits_dtype), validate)


_KIND = {"float32": ("float_list", "float"), "int64": ("int64_list", "int64"), "string": ("bytes_list", "string")}


def _feature_spec(features):
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    sparse, dense, ragged = [], [], []
    for key in sorted(features):
        spec = features[key]
        if isinstance(spec, VarLenFeature):
            sparse.append(key)
        elif isinstance(spec, RaggedFeature):
            ragged.append(key)
        elif isinstance(spec, (FixedLenFeature, FixedLenSequenceFeature)):
            if isinstance(spec, FixedLenSequenceFeature) and not spec.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            dense.append(key)
        else:
            raise NotImplementedError(f"parsing features of type {type(spec).__name__}")
        dt = dtypes.as_dtype(spec.dtype).name
        if dt not in _KIND:
            attr = "sparse_types" if key in sparse else "Tdense"
            raise errors.op_error(errors.InvalidArgumentError, f"Value for attr '{attr}' of {dt} is not in the list "
                                  "of allowed values: float, int64, string", "ParseExampleV2", None)
    return sparse, dense, ragged


def _dims(shape):
    return ",".join(map(str, shape))


class _Parser:
    """Parses serialized `tf.train.Example`s with TF's checks and messages."""

    def __init__(self, serialized, features, example_names=None):
        self.arr = _strings(serialized, "ParseExampleV2")
        self.sparse, self.dense, self.ragged = _feature_spec(features)
        self.features = features
        ns, nr = len(self.sparse), len(self.ragged)
        self.fn = (f"ParseExampleV2_Tdense_{len(self.dense)}_num_sparse_{ns}_ragged_split_types_{nr}_"
                   f"ragged_value_types_{nr}_sparse_types_{ns}")
        if self.arr.ndim > 1:
            raise self.error(f"Expected serialized to be a scalar or vector, got shape: "
                             f"[{','.join(map(str, self.arr.shape))}]")
        self.single = self.arr.ndim == 0
        self.names = self._names(example_names)
        self.examples = []
        for s in self.arr.reshape(-1):
            feats = example_wire.parse_example(s)
            if feats is None:
                raise self.error(f"Could not parse example input, value: '{repr(s)[2:-1]}'")
            self.examples.append(feats)

    def _names(self, example_names):
        """The examples' names for messages (None: TF's "<unknown>"); an empty list names none, as in TF."""
        if example_names is None or (isinstance(example_names, (list, tuple)) and not example_names):
            return None
        names = _strings(example_names, "ParseExampleV2")
        if names.size == 0:
            return None
        if names.shape != self.arr.shape:
            raise self.error(f"Expected names have the same shape as serialized: name.shape=[{_dims(names.shape)}], "
                             f"serialized.shape=[{_dims(self.arr.shape)}]")
        return [n.decode("utf-8", "replace") for n in names.reshape(-1)]

    def name(self, index):
        return "<unknown>" if self.names is None else self.names[index]

    def error(self, message):
        return kernel_error(errors.InvalidArgumentError, message, "ParseExampleV2", self.fn)

    def where(self, key, index):
        return f"Key: {key}." if self.single else f"Name: {self.name(index)}, Key: {key}, Index: {index}."

    def values(self, key, index, feats, dense):
        """The values of feature `key` in example `index`, or None if absent."""
        spec = self.features[key]
        kind, tname = _KIND[dtypes.as_dtype(spec.dtype).name]
        f = feats.get(key.encode())
        try:
            has = example_wire.feature_kind(f)
        except ValueError as e:
            raise self.error(str(e)) from None
        if has is None:
            return None
        if has != kind:
            actual = _KIND[{"float_list": "float32", "int64_list": "int64", "bytes_list": "string"}[has]][1]
            if dense:
                msg = f"Data types don't match. Data type: {actual} but expected type: {tname}"
            else:
                msg = f"Data types don't match. Expected type: {tname}, Actual type: {actual}"
            raise self.error(f"{self.where(key, index)}  {msg}")
        try:
            return example_wire.feature_values(f, kind)
        except example_wire.BadFeature:
            raise self.error(f"{self.where(key, index)}  Can't parse serialized Example.") from None

    def parse(self):
        out = {}
        for key in self.sparse:
            out[key] = self.parse_sparse(key)
        for key in self.dense:
            spec = self.features[key]
            if isinstance(spec, FixedLenSequenceFeature):
                out[key] = self.parse_sequence(key, spec)
            else:
                out[key] = self.parse_dense(key, spec)
        for key in self.ragged:
            out[key] = self.parse_ragged(key)
        return out

    def _rows(self, key):
        """The values of feature `key` in every example (empty where absent)."""
        rows = [self.values(key, i, feats, False) for i, feats in enumerate(self.examples)]
        dt = dtypes.as_dtype(self.features[key].dtype)
        return [np.empty(0, dtype=object if dt == dtypes.string else dt.as_numpy_dtype) if r is None else r
                for r in rows], dt

    def parse_ragged(self, key):
        from tfcompat.framework.ragged import RaggedTensor
        spec = self.features[key]
        if spec.value_key not in (None, key):
            raise NotImplementedError("tf.io.RaggedFeature(value_key=) naming another feature is not supported by "
                                      "tfcompat")
        rows, dt = self._rows(key)
        values = wrap_np(np.concatenate(rows) if rows else np.empty(0, dtype=np.float32), dt)
        if self.single:
            return values
        lengths = torch.tensor([len(r) for r in rows], dtype=spec.row_splits_dtype.torch_dtype)
        return RaggedTensor.from_row_lengths(values, wrap(lengths), validate=False)

    def parse_sparse(self, key):
        from tfcompat.framework.sparse import SparseTensor
        rows, dt = self._rows(key)
        values = np.concatenate(rows) if rows else np.empty(0, dtype=np.float32)
        width = max((len(r) for r in rows), default=0)
        cols = np.concatenate([np.arange(len(r), dtype=np.int64) for r in rows]) if rows else np.empty(0, np.int64)
        if self.single:
            indices, shape = cols[:, None], [width]
        else:
            batch = np.repeat(np.arange(len(rows), dtype=np.int64), [len(r) for r in rows])
            indices, shape = np.stack([batch, cols], axis=1), [len(rows), width]
        return SparseTensor(wrap(torch.from_numpy(indices.reshape(-1, 1 if self.single else 2))),
                            wrap_np(values, dt), wrap(torch.tensor(shape, dtype=torch.int64)))

    def parse_dense(self, key, spec):
        dt = dtypes.as_dtype(spec.dtype)
        shape = tuple(int(d) for d in spec.shape)
        size = int(np.prod(shape))
        default = None if spec.default_value is None else np_array(spec.default_value, dt).reshape(shape)
        out = []
        for i, feats in enumerate(self.examples):
            v = self.values(key, i, feats, True)
            if v is None or (len(v) == 0 and default is not None):
                if default is None:
                    where = "" if self.single else f"Name: {self.name(i)}, "
                    raise self.error(f"{where}Feature: {key} (data type: {_KIND[dt.name][1]}) is required but "
                                     "could not be found.")
                out.append(default)
                continue
            if len(v) != size:
                kind = _KIND[dt.name][0]
                if self.single:
                    msg = f"Can't parse serialized Example: Some {kind} slice was not parsed."
                else:
                    msg = (f"Number of {_KIND[dt.name][1]} values != expected.  Values size: {len(v)} but output "
                           f"shape: [{','.join(map(str, shape))}]")
                raise self.error(f"{self.where(key, i)}  {msg}")
            out.append(v.reshape(shape))
        return wrap_np(_stack(out, shape, dt, self.single), dt)

    def parse_sequence(self, key, spec):
        dt = dtypes.as_dtype(spec.dtype)
        shape = tuple(int(d) for d in spec.shape)
        size = max(int(np.prod(shape)), 1)
        rows = []
        for i, feats in enumerate(self.examples):
            v = self.values(key, i, feats, True)
            v = np_array([], dt) if v is None else v
            if len(v) % size:
                if self.single:
                    raise self.error(f"Error while parsing feature with key {key}: number of elements should be "
                                     f"divisible by {size}, found {len(v)} instead")
                kind = _KIND[dt.name][0].partition("_")[0]
                raise self.error(f"{self.where(key, i)}  Number of {kind} values is not a multiple of stride length. "
                                 f"Saw {len(v)} values but output shape is: [?,{','.join(map(str, shape))}]")
            rows.append(v.reshape((-1,) + shape))
        if self.single:
            return wrap_np(rows[0], dt)
        n = max((len(r) for r in rows), default=0)
        pad = spec.default_value if spec.default_value is not None else (b"" if dt == dtypes.string else 0)
        out = np.empty((len(rows), n) + shape, dtype=rows[0].dtype if rows else object)
        out[...] = np_array(pad, dt)
        for i, r in enumerate(rows):
            out[i, :len(r)] = r
        return wrap_np(out, dt)



def _stack(rows, shape, dt, single):
    if single:
        return rows[0]
    if not rows:
        return np.empty((0,) + shape, dtype=object if dt == dtypes.string else dt.as_numpy_dtype)
    return np.stack(rows)


@tf_export("io.parse_example", partial="SparseFeature and RaggedFeature partitions are not supported")
def parse_example(serialized, features, example_names=None, name=None):
    """Parses a vector of serialized `tf.train.Example`s into a dict of batched tensors / SparseTensors."""
    return _Parser(serialized, features, example_names).parse()


@tf_export("io.parse_single_example", partial="SparseFeature and RaggedFeature partitions are not supported")
def parse_single_example(serialized, features, example_names=None, name=None):
    """Parses one serialized `tf.train.Example` (a scalar string) into a dict of tensors / SparseTensors."""
    arr = _strings(serialized, "ParseExampleV2")
    if arr.ndim != 0:
        raise ValueError(f"Shape {tuple(arr.shape)} must have rank 0")
    return _Parser(arr, features, example_names).parse()

