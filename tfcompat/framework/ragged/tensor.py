"""`tf.RaggedTensor` and `tf.ragged`: tensors whose rows have different lengths (values + row_splits)."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export, unsupported_args
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape

# The ops a RaggedTensor applies to its flat values (add, subtract, multiply, truediv) and the assertions that
# validate row splits live in ops/, above this layer; ops/ registers them here when it is imported.
OPS = {}


def register_ops(**ops):
    """Called by ops/ modules at import: names -> the tf ops RaggedTensor uses."""
    OPS.update(ops)


def _splits(x):
    if isinstance(x, Tensor):
        return x if x.dtype in (dtypes.int64, dtypes.int32) else wrap(x._t.to(torch.int64))
    return convert_to_tensor(np.asarray(x, dtype=np.int64))


def _values(x):
    return x if isinstance(x, (Tensor, RaggedTensor)) else convert_to_tensor(x)


def _slice(values, start, stop):
    if isinstance(values, RaggedTensor):
        return values[start:stop]
    return wrap(values._t[start:stop])


def _nrows(values):
    return values.nrows_int() if isinstance(values, RaggedTensor) else values._t.shape[0]


def _format(x):
    """TF's ragged value text: NumPy array text with ", " separators, applied recursively."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


@tf_export("RaggedTensor", partial="indexing beyond a row index or row slice; elementwise ops across different "
                                  "row partitions or with non-scalar dense tensors")
class RaggedTensor:
    """Rows `values[row_splits[i]:row_splits[i + 1]]`; `values` is a Tensor or a RaggedTensor."""

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods "
                             "instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits

    # -- factories -------------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows `values[row_splits[i]:row_splits[i+1]]`."""
        values, row_splits = _values(values), _splits(row_splits)
        if validate:
            _validate_splits(values, row_splits, "from_row_splits")
        return cls(values, row_splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Consecutive rows of `values` of the given lengths."""
        lengths = _splits(row_lengths)
        splits = torch.cat([lengths._t.new_zeros(1), torch.cumsum(lengths._t, 0)])
        return cls.from_row_splits(values, wrap(splits), validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Row `i` holds the values whose row id is `i` (ids sorted); `nrows` adds empty trailing rows."""
        ids = _splits(value_rowids)._t
        n = int(nrows) if nrows is not None else (int(ids.max()) + 1 if ids.numel() else 0)
        counts = torch.bincount(ids, minlength=n)
        splits = torch.cat([counts.new_zeros(1), torch.cumsum(counts, 0)]).to(ids.dtype)
        return cls.from_row_splits(values, wrap(splits), validate=validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        values = _values(values)
        starts = _splits(row_starts)._t
        splits = torch.cat([starts, starts.new_tensor([_nrows(values)])])
        return cls.from_row_splits(values, wrap(splits), validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        limits = _splits(row_limits)._t
        return cls.from_row_splits(values, wrap(torch.cat([limits.new_zeros(1), limits])), validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        result = _values(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        result = _values(flat_values)
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    @unsupported_args("padding", "ragged_rank", api_name="tf.RaggedTensor.from_tensor")
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """A RaggedTensor of a dense tensor's rows (cut to `lengths` when given)."""
        t = _values(tensor)._t
        n, m = t.shape[0], t.shape[1]
        if lengths is None:
            lens = torch.full((n,), m, dtype=torch.int64)
        else:
            lens = _splits(lengths)._t.to(torch.int64).cpu()
        keep = torch.arange(m)[None, :] < lens[:, None]
        flat = t[keep.numpy()] if type(t) is np.ndarray else t[keep.to(t.device)]
        return cls.from_row_lengths(wrap(flat), wrap(lens), validate=False)

    # -- structure ---------------------------------------------------------------------------------------------
    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self):
        out = [self._row_splits]
        v = self._values
        while isinstance(v, RaggedTensor):
            out.append(v._row_splits)
            v = v._values
        return tuple(out)

    @property
    def ragged_rank(self):
        return len(self.nested_row_splits)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    @property
    def shape(self):
        inner = self.flat_values.shape.as_list()[1:]
        return TensorShape([self.nrows_int()] + [None] * self.ragged_rank + inner)

    def get_shape(self):
        return self.shape

    @property
    def ndim(self):
        return self.shape.rank

    def nrows_int(self):
        return self._row_splits._t.shape[0] - 1

    def nrows(self, out_type=None, name=None):
        dt = self._row_splits._t.dtype if out_type is None else dtypes.as_dtype(out_type).torch_dtype
        return wrap(torch.tensor(self.nrows_int(), dtype=dt))

    @unsupported_args("axis", api_name="tf.RaggedTensor.row_lengths")
    def row_lengths(self, axis=1, name=None):
        s = self._row_splits._t
        return wrap(s[1:] - s[:-1])

    def row_starts(self, name=None):
        return wrap(self._row_splits._t[:-1])

    def row_limits(self, name=None):
        return wrap(self._row_splits._t[1:])

    def value_rowids(self, name=None):
        lengths = self.row_lengths()._t
        return wrap(torch.repeat_interleave(torch.arange(lengths.shape[0], dtype=lengths.dtype), lengths))

    def bounding_shape(self, axis=None, name=None, out_type=None):
        shape = [self.nrows_int()]
        r = self
        while isinstance(r, RaggedTensor):
            lengths = r.row_lengths()._t
            shape.append(int(lengths.max()) if lengths.numel() else 0)
            r = r._values
        shape += r.shape.as_list()[1:]
        out = torch.tensor(shape, dtype=self._row_splits._t.dtype)
        return wrap(out if axis is None else out[axis])

    def with_values(self, new_values):
        return RaggedTensor(_values(new_values), self._row_splits, internal=True)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        dt = dtypes.as_dtype(dtype).torch_dtype
        v = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else self._values
        return RaggedTensor(v, wrap(self._row_splits._t.to(dt)), internal=True)

    # -- values ------------------------------------------------------------------------------------------------
    def _coords(self):
        """Per flat row: its index along each of the ragged_rank + 1 outer dimensions."""
        splits = [s._t.cpu().numpy() for s in self.nested_row_splits]
        idx = np.arange(splits[-1][-1] if len(splits[-1]) else 0)
        cols = []
        for s in reversed(splits):
            parent = np.searchsorted(s, idx, side="right") - 1
            cols.insert(0, idx - s[parent])
            idx = parent
        cols.insert(0, idx)
        return cols

    @unsupported_args("shape", api_name="tf.RaggedTensor.to_tensor")
    def to_tensor(self, default_value=None, name=None, shape=None):
        """The dense tensor, rows padded with `default_value` (zero / empty string) to the bounding shape."""
        shape = tuple(int(d) for d in self.bounding_shape()._array())
        flat = self.flat_values._t
        coords = self._coords()
        if type(flat) is np.ndarray:
            fill = b"" if default_value is None else convert_to_tensor(default_value)._array()[()]
            out = np.full(shape, fill, dtype=object)
            out[tuple(coords)] = flat
            return wrap(out)
        fill = 0 if default_value is None else default_value
        fill = fill.numpy() if isinstance(fill, Tensor) else fill
        out = torch.full(shape, fill, dtype=flat.dtype, device=flat.device)
        out[tuple(torch.from_numpy(c).to(flat.device) for c in coords)] = flat
        return wrap(out)

    def numpy(self):
        """The rows as NumPy arrays: a 1-D object array of rows when their lengths differ."""
        values = self._values.numpy()
        splits = self._row_splits._array()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), dtype=object)
            for i, r in enumerate(rows):
                out[i] = r
            return out
        return np.array(rows)

    def to_list(self):
        """The value as nested Python lists."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else self._values._array().tolist()
        splits = self._row_splits._array().tolist()
        return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def __getitem__(self, key):
        if isinstance(key, Tensor):
            key = int(key)
        if isinstance(key, (int, np.integer)):
            n = self.nrows_int()
            if not -n <= key < n:
                raise errors.InvalidArgumentError(None, None, f"slice index {key} of dimension 0 out of bounds.")
            s = self._row_splits._array()
            return _slice(self._values, int(s[key % n]), int(s[key % n + 1]))
        if isinstance(key, slice) and key.step in (None, 1):
            start, stop, _ = key.indices(self.nrows_int())
            stop = max(stop, start)
            s = self._row_splits._t
            part = s[start:stop + 1]
            return RaggedTensor(_slice(self._values, int(part[0]), int(part[-1])), wrap(part - part[0]),
                                internal=True)
        raise NotImplementedError(f"RaggedTensor indexing with {key!r} is not supported by tfcompat "
                                  "(only a row index or a row slice)")

    def __repr__(self):
        with np.printoptions(formatter={"all": _format}):
            text = _format(self.numpy())
        return f"<tf.RaggedTensor {text}>"

    __str__ = __repr__

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    # -- elementwise arithmetic on flat values -----------------------------------------------------------------
    def _elementwise(self, other, fn, reverse=False):
        if isinstance(other, RaggedTensor):
            if [s.numpy().tolist() for s in self.nested_row_splits] != \
                    [s.numpy().tolist() for s in other.nested_row_splits]:
                raise NotImplementedError("elementwise ops on RaggedTensors with different row partitions are not "
                                          "supported by tfcompat")
            other = other.flat_values
        elif not isinstance(other, Tensor):
            other = convert_to_tensor(other, dtype_hint=self.dtype)
        if other.shape.rank:
            raise NotImplementedError("elementwise ops between a RaggedTensor and a non-scalar dense tensor are not "
                                      "supported by tfcompat")
        op = OPS[fn]
        a, b = (other, self.flat_values) if reverse else (self.flat_values, other)
        return self.with_flat_values(op(a, b))

    def __add__(self, other):
        return self._elementwise(other, "add")

    def __radd__(self, other):
        return self._elementwise(other, "add", True)

    def __sub__(self, other):
        return self._elementwise(other, "subtract")

    def __rsub__(self, other):
        return self._elementwise(other, "subtract", True)

    def __mul__(self, other):
        return self._elementwise(other, "multiply")

    def __rmul__(self, other):
        return self._elementwise(other, "multiply", True)

    def __truediv__(self, other):
        return self._elementwise(other, "truediv")

    def __neg__(self):
        return self.with_flat_values(wrap(-self.flat_values._t))


def _validate_splits(values, row_splits, factory):
    assert_equal, assert_non_negative = OPS["assert_equal"], OPS["assert_non_negative"]
    msg = f"Arguments to {factory} do not form a valid RaggedTensor:"
    s = row_splits._t
    if s.ndim != 1:
        raise ValueError(f"Shape {row_splits.shape} must have rank 1")
    if s.shape[0] == 0:
        raise ValueError(f"{msg}zero")
    assert_equal(wrap(s[0]), wrap(s.new_zeros(())), message=msg + "zero")
    assert_non_negative(wrap(s[1:] - s[:-1]), message=msg + "monotonic")
    assert_equal(wrap(s[-1]), wrap(s.new_tensor(_nrows(values))), message=msg + "Last row_splits")


# -- tf.ragged ------------------------------------------------------------------------------------------------------
def _depth(x):
    if isinstance(x, (list, tuple)):
        return 1 + max((_depth(v) for v in x), default=0)
    if isinstance(x, np.ndarray):
        return x.ndim
    return 0


def _scalar_depths(x, depth, out):
    if isinstance(x, (list, tuple)):
        for v in x:
            _scalar_depths(v, depth + 1, out)
    else:
        out.add(depth)


@tf_export("ragged.constant", unsupported=("inner_shape",))
def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A RaggedTensor from nested Python lists (a tf.Tensor when `ragged_rank` is 0)."""
    if isinstance(pylist, Tensor):
        raise TypeError("pylist may not be a Tensor")
    depths = set()
    _scalar_depths(pylist, 0, depths)
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    depth = depths.pop() if depths else _depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(depth - 1, 0)
    if ragged_rank and ragged_rank >= max(depth, 1):
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    splits_dt = dtypes.as_dtype(row_splits_dtype).as_numpy_dtype
    nested_splits = []
    rows = list(pylist) if isinstance(pylist, (list, tuple)) else pylist
    for _ in range(ragged_rank):
        splits = [0]
        nxt = []
        for r in rows:
            nxt.extend(r)
            splits.append(len(nxt))
        nested_splits.append(np.asarray(splits, dtype=splits_dt))
        rows = nxt
    if rows:
        flat = convert_to_tensor(rows, dtype=dtype)
    else:
        inner = [0] * (depth - ragged_rank) if depths else [0]
        flat = wrap(np.empty(inner, dtype=object)) if dtype is dtypes.string else \
            wrap(torch.zeros(inner, dtype=(dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32).torch_dtype))
    if ragged_rank == 0:
        return flat
    return RaggedTensor.from_nested_row_splits(flat, [convert_to_tensor(s) for s in nested_splits], validate=False)


@tf_export("ragged.range")
def range_(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
    """Row `i` is `range(starts[i], limits[i], deltas[i])` (rows from 0 to `starts` when `limits` is None)."""
    if limits is None:
        starts, limits = 0, starts
    parts = [convert_to_tensor(v) if not isinstance(v, Tensor) else v for v in (starts, limits, deltas)]
    if dtype is not None:
        parts = [wrap(p._t.to(dtypes.as_dtype(dtype).torch_dtype)) for p in parts]
    else:
        kinds = [p.dtype for p in parts]
        common = dtypes.float32 if any(k.is_floating for k in kinds) else dtypes.int32
        if dtypes.int64 in kinds and common is dtypes.int32:
            common = dtypes.int64
        parts = [wrap(p._t.to(common.torch_dtype)) for p in parts]
    s, l, d = torch.broadcast_tensors(*(p._t.reshape(-1) for p in parts))
    rows = [torch.arange(float(a) if a.is_floating_point() else int(a), float(b) if b.is_floating_point() else int(b),
                         float(c) if c.is_floating_point() else int(c), dtype=a.dtype) for a, b, c in zip(s, l, d)]
    values = torch.cat(rows) if rows else s.new_zeros(0)
    lengths = torch.tensor([r.shape[0] for r in rows], dtype=dtypes.as_dtype(row_splits_dtype).torch_dtype)
    return RaggedTensor.from_row_lengths(wrap(values), wrap(lengths), validate=False)


@tf_export("ragged.row_splits_to_segment_ids")
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of each value for the given row splits."""
    s = _splits(splits)._t
    ids = torch.repeat_interleave(torch.arange(s.shape[0] - 1, dtype=s.dtype), s[1:] - s[:-1])
    return wrap(ids if out_type is None else ids.to(dtypes.as_dtype(out_type).torch_dtype))


@tf_export("ragged.segment_ids_to_row_splits")
def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of sorted segment ids (`num_segments` rows, by default max id + 1)."""
    ids = _splits(segment_ids)._t
    n = int(num_segments) if num_segments is not None else (int(ids.max()) + 1 if ids.numel() else 0)
    counts = torch.bincount(ids, minlength=n)
    out = torch.cat([counts.new_zeros(1), torch.cumsum(counts, 0)])
    return wrap(out.to(dtypes.as_dtype(out_type or dtypes.int64).torch_dtype))
