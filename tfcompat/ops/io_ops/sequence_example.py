"""`tf.train.SequenceExample` parsing: `tf.io.parse_single_sequence_example` and `tf.io.parse_sequence_example`.

A SequenceExample is a `context` (Features, parsed as `parse_example` parses an Example's features) and
`feature_lists` (a name -> list of Features: one per time step). Context features may be FixedLenFeature,
VarLenFeature or RaggedFeature; sequence features FixedLenSequenceFeature (dense `[T, *shape]`, padded with zeros in
a batch, whose lengths are returned), VarLenFeature (SparseTensor over `[T, max values]`) or RaggedFeature. Each
output dict holds the sparse features first, then the dense, then the ragged, each group sorted by key, as TF's.
"""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.ops.io_ops import example_wire
from tfcompat.ops.io_ops._common import kernel_error, np_array, wrap_np
from tfcompat.ops.io_ops.example import (_KIND, FixedLenFeature, FixedLenSequenceFeature, RaggedFeature,
                                         VarLenFeature)
from tfcompat.ops.string_ops import _strings

_OP = "ParseSequenceExampleV2"
_KIND_NAME = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}


# -- the wire format ---------------------------------------------------------------------------------------------------
def _features(sub, out):
    """Reads a Features message's map entries into `out` (the last entry of a name wins); False if malformed."""
    while not sub.at_end():
        if not sub.expect(0x0A):
            return False
        entry = example_wire._entry(sub)
        if entry is None:
            return False
        out[entry[0]] = entry[1]
    return True


def _feature_list(raw):
    """The Feature bytes of a FeatureList message, or None if malformed."""
    s = example_wire._Stream(raw)
    out = []
    while not s.at_end():
        if not s.expect(0x0A):
            if not example_wire._skip_field(s):
                return None
            continue
        f = example_wire._string(s)
        if f is None:
            return None
        out.append(f)
    return out


def parse_wire(data):
    """({name: Feature bytes} of the context, {name: [Feature bytes per step]} of the feature lists), or None."""
    s = example_wire._Stream(data)
    context, lists = {}, {}
    while not s.at_end():
        if s.expect(0x0A) or s.expect(0x12):
            field = s.data[s.pos - 1]
            n = s.varint(32)
            if n is None:
                return None
            sub = s.limited(n)
            if field == 0x0A:
                if not _features(sub, context):
                    return None
                continue
            raw = {}
            if not _features(sub, raw):
                return None
            for name, value in raw.items():
                steps = _feature_list(value)
                if steps is None:
                    return None
                lists[name] = steps
        elif not example_wire._skip_field(s):
            return None
    return context, lists


# -- the specs ---------------------------------------------------------------------------------------------------------
def _groups(features, sequence):
    """(sparse, dense, ragged) keys of a feature dict, each sorted."""
    sparse, dense, ragged = [], [], []
    for key in sorted(features or {}):
        spec = features[key]
        if isinstance(spec, VarLenFeature):
            sparse.append(key)
        elif isinstance(spec, RaggedFeature):
            if spec.value_key not in (None, key):
                raise NotImplementedError("tf.io.RaggedFeature(value_key=) naming another feature is not supported "
                                          "by tfcompat")
            ragged.append(key)
        elif isinstance(spec, FixedLenSequenceFeature if sequence else FixedLenFeature):
            if sequence and spec.default_value is not None:
                raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
            dense.append(key)
        else:
            raise NotImplementedError(f"parsing {'sequence' if sequence else 'context'} features of type "
                                      f"{type(spec).__name__} in a SequenceExample")
        if dtypes.as_dtype(spec.dtype).name not in _KIND:
            raise errors.op_error(errors.InvalidArgumentError, f"Value for attr 'dtype' of "
                                  f"{dtypes.as_dtype(spec.dtype).name} is not in the list of allowed values: float, "
                                  "int64, string", _OP, None)
    return sparse, dense, ragged


def _empty(dt):
    return np.empty(0, dtype=object if dt == dtypes.string else dt.as_numpy_dtype)


class _Parser:
    def __init__(self, serialized, context_features, sequence_features, names):
        if not isinstance(serialized, Tensor):
            serialized = convert_to_tensor(serialized)
            if serialized.dtype != dtypes.string:
                raise ValueError(f"Tensor conversion requested dtype string for Tensor with dtype "
                                 f"{serialized.dtype.name}: {serialized!r}")
        self.arr = _strings(serialized, _OP)
        self.single = self.arr.ndim == 0
        self.cf, self.sf = context_features or {}, sequence_features or {}
        self.c_groups = _groups(self.cf, False)
        self.s_groups = _groups(self.sf, True)
        (cs, cd, cr), (ss, sd, sr) = self.c_groups, self.s_groups
        self.fn = (f"{_OP}_Ncontext_sparse_{len(cs)}_Nfeature_list_dense_{len(sd)}_Nfeature_list_sparse_{len(ss)}_"
                   f"Tcontext_dense_{len(cd)}_context_ragged_split_types_{len(cr)}_context_ragged_value_types_"
                   f"{len(cr)}_context_sparse_types_{len(cs)}_feature_list_dense_types_{len(sd)}_feature_list_"
                   f"ragged_split_types_{len(sr)}_feature_list_ragged_value_types_{len(sr)}_feature_list_sparse_"
                   f"types_{len(ss)}")
        self.names = None
        if names is not None:
            n = _strings(names, _OP).reshape(-1)
            self.names = [x.decode("utf-8", "replace") for x in n] if n.size else None
        self.examples = []
        for i, s in enumerate(self.arr.reshape(-1)):
            parsed = parse_wire(s)
            if parsed is None:
                raise self.error(f"Invalid protocol message input, example id: {self.name(i)}")
            self.examples.append(parsed)

    def name(self, i):
        return "<unknown>" if self.names is None or i >= len(self.names) else self.names[i]

    def error(self, message):
        return kernel_error(errors.InvalidArgumentError, message, _OP, self.fn)

    def _values(self, raw, spec, where):
        kind, tname = _KIND[dtypes.as_dtype(spec.dtype).name]
        try:
            has = example_wire.feature_kind(raw)
        except ValueError as e:
            raise self.error(str(e)) from None
        if has is None:
            return _empty(dtypes.as_dtype(spec.dtype))
        if has != kind:
            raise self.error(f"{where}.  Data types don't match. Expected type: {tname}")
        try:
            return example_wire.feature_values(raw, kind)
        except example_wire.BadFeature:
            raise self.error(f"{where}.  Can't parse serialized Example.") from None

    # -- context -------------------------------------------------------------------------------------------------------
    def _context_rows(self, key):
        spec = self.cf[key]
        rows = []
        for i, (ctx, _) in enumerate(self.examples):
            raw = ctx.get(key.encode())
            rows.append(None if raw is None else
                        self._values(raw, spec, f"Name: {self.name(i)}, Context feature: {key}"))
        return rows

    def context(self):
        out = {}
        sparse, dense, ragged = self.c_groups
        for key in sparse:
            rows = [r if r is not None else _empty(dtypes.as_dtype(self.cf[key].dtype))
                    for r in self._context_rows(key)]
            out[key] = _sparse(rows, dtypes.as_dtype(self.cf[key].dtype), self.single)
        for key in dense:
            out[key] = self._context_dense(key)
        for key in ragged:
            spec = self.cf[key]
            rows = [r if r is not None else _empty(spec.dtype) for r in self._context_rows(key)]
            out[key] = _ragged(rows, dtypes.as_dtype(spec.dtype), spec.row_splits_dtype, self.single)
        return out

    def _context_dense(self, key):
        spec = self.cf[key]
        dt = dtypes.as_dtype(spec.dtype)
        shape = tuple(int(d) for d in spec.shape)
        size = int(np.prod(shape))
        default = None if spec.default_value is None else np_array(spec.default_value, dt).reshape(shape)
        out = []
        for v in self._context_rows(key):
            if v is None or (len(v) == 0 and default is not None):
                if default is None:
                    if self.single:
                        raise self.error(f"Inconsistent max number of elements for feature {key}: expected {size}, "
                                         f"but found 0")
                    raise self.error(f"Feature: {key} (data type: {_KIND[dt.name][1]}) is required but could not be "
                                     "found.")
                out.append(default)
                continue
            if len(v) != size:
                raise self.error(f"Inconsistent max number of elements for feature {key}: expected {size}, but found "
                                 f"{len(v)}")
            out.append(v.reshape(shape))
        if self.single:
            return wrap_np(out[0], dt)
        return wrap_np(np.stack(out) if out else np.empty((0,) + shape, dtype=_empty(dt).dtype), dt)

    # -- feature lists -------------------------------------------------------------------------------------------------
    def _steps(self, key, i, lists):
        """The values of each time step of feature list `key` in example `i` (None: the list is absent)."""
        steps = lists.get(key.encode())
        if steps is None:
            return None
        spec = self.sf[key]
        return [self._values(raw, spec, f"Name: {self.name(i)}, Feature list: {key}, Index: {t}")
                for t, raw in enumerate(steps)]

    def feature_lists(self):
        out, lengths = {}, {}
        sparse, dense, ragged = self.s_groups
        for key in sparse:
            dt = dtypes.as_dtype(self.sf[key].dtype)
            per_example = [self._steps(key, i, fl) or [] for i, (_, fl) in enumerate(self.examples)]
            out[key] = _sparse_steps(per_example, dt, self.single)
        for key in dense:
            out[key], lengths[key] = self._dense_steps(key)
        for key in ragged:
            spec = self.sf[key]
            dt = dtypes.as_dtype(spec.dtype)
            per_example = [self._steps(key, i, fl) or [] for i, (_, fl) in enumerate(self.examples)]
            split = spec.row_splits_dtype.torch_dtype
            if self.single:
                out[key] = _ragged(per_example[0], dt, spec.row_splits_dtype, False)
            else:
                values = [v for steps in per_example for v in steps]
                rows = _ragged(values, dt, spec.row_splits_dtype, False)
                out[key] = RaggedTensor.from_row_lengths(
                    rows, wrap(torch.tensor([len(s) for s in per_example], dtype=split)), validate=False)
        return out, lengths

    def _dense_steps(self, key):
        spec = self.sf[key]
        dt = dtypes.as_dtype(spec.dtype)
        shape = tuple(int(d) for d in spec.shape)
        size = int(np.prod(shape))
        per_example = []
        for i, (_, fl) in enumerate(self.examples):
            steps = self._steps(key, i, fl)
            if steps is None:
                if not spec.allow_missing:
                    raise self.error(f"Name: {self.name(i)}, Feature list '{key}' is required but could not be "
                                     "found.  Did you mean to include it in feature_list_dense_missing_assumed_empty "
                                     "or feature_list_dense_defaults?")
                steps = []
            for t, v in enumerate(steps):
                if len(v) != size:
                    raise self.error(f"Name: {self.name(i)}, Key: {key}, Index: {t}.  Number of values != expected.  "
                                     f"values size: {len(v)} but output shape: [{','.join(map(str, shape))}]")
            per_example.append([v.reshape(shape) for v in steps])
        np_dt = _empty(dt).dtype
        lengths = [len(s) for s in per_example]
        if self.single:
            rows = per_example[0]
            value = np.stack(rows) if rows else np.empty((0,) + shape, dtype=np_dt)
            return wrap_np(value, dt), wrap(torch.tensor(lengths[0], dtype=torch.int64))
        n = max(lengths, default=0)
        value = np.empty((len(per_example), n) + shape, dtype=np_dt)
        value[...] = b"" if dt == dtypes.string else 0
        for i, rows in enumerate(per_example):
            for t, r in enumerate(rows):
                value[i, t] = r
        return wrap_np(value, dt), wrap(torch.tensor(lengths, dtype=torch.int64))


def _sparse(rows, dt, single):
    """A SparseTensor of per-example value rows ([n] for one example, [batch, n] for several)."""
    values = np.concatenate(rows) if rows else _empty(dt)
    width = max((len(r) for r in rows), default=0)
    cols = np.concatenate([np.arange(len(r), dtype=np.int64) for r in rows]) if rows else np.empty(0, np.int64)
    if single:
        indices, shape = cols[:, None], [width]
    else:
        batch = np.repeat(np.arange(len(rows), dtype=np.int64), [len(r) for r in rows])
        indices, shape = np.stack([batch, cols], axis=1), [len(rows), width]
    return SparseTensor(wrap(torch.from_numpy(np.ascontiguousarray(indices).reshape(-1, len(shape)))),
                        wrap_np(values.astype(_empty(dt).dtype), dt), wrap(torch.tensor(shape, dtype=torch.int64)))


def _sparse_steps(per_example, dt, single):
    """A SparseTensor of [batch,] time, value index."""
    entries, values = [], []
    width = max((len(v) for steps in per_example for v in steps), default=0)
    for b, steps in enumerate(per_example):
        for t, v in enumerate(steps):
            for j in range(len(v)):
                entries.append((t, j) if single else (b, t, j))
            values.append(v)
    flat = np.concatenate(values) if values else _empty(dt)
    rank = 2 if single else 3
    indices = np.array(entries, dtype=np.int64).reshape(-1, rank)
    steps_max = max((len(s) for s in per_example), default=0)
    shape = [steps_max, width] if single else [len(per_example), steps_max, width]
    return SparseTensor(wrap(torch.from_numpy(indices)), wrap_np(flat.astype(_empty(dt).dtype), dt),
                        wrap(torch.tensor(shape, dtype=torch.int64)))


def _ragged(rows, dt, splits_dtype, single):
    values = wrap_np((np.concatenate(rows) if rows else _empty(dt)).astype(_empty(dt).dtype), dt)
    if single:
        return values
    lengths = torch.tensor([len(r) for r in rows], dtype=splits_dtype.torch_dtype)
    return RaggedTensor.from_row_lengths(values, wrap(lengths), validate=False)


def _check_any(context_features, sequence_features):
    if not context_features and not sequence_features:
        raise ValueError("Both context_features and sequence_features are None, but at least one should have values.")


@tf_export("io.parse_single_sequence_example", partial="SparseFeature and RaggedFeature partitions/value_key")
def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """Parses one serialized `tf.train.SequenceExample` into (context dict, feature list dict)."""
    _check_any(context_features, sequence_features)
    arr = _strings(serialized, _OP)
    if arr.ndim != 0:
        raise ValueError("Input serialized must be a scalar")
    p = _Parser(arr, context_features, sequence_features, example_name)
    return p.context(), p.feature_lists()[0]


@tf_export("io.parse_sequence_example", partial="SparseFeature and RaggedFeature partitions/value_key")
def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """Parses serialized `tf.train.SequenceExample`s into (context dict, feature list dict, lengths of the dense
    feature lists)."""
    _check_any(context_features, sequence_features)
    p = _Parser(serialized, context_features, sequence_features, example_names)
    lists, lengths = p.feature_lists()
    return p.context(), lists, lengths
