"""The `tf.RaggedTensor` class: values partitioned into rows by row_splits (nested for ragged_rank > 1)."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export, unsupported_args
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape

# The ops a RaggedTensor applies to its flat values (add, subtract, ...) and the assertions that validate row
# splits live in ops/, above this layer; ops/ registers them here when it is imported.
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


def _nrows(values):
    return values.nrows_int() if isinstance(values, RaggedTensor) else values._t.shape[0]


def splits_from_lengths(lengths, dtype=torch.int64):
    """Row splits (a torch tensor) of rows of the given lengths."""
    return torch.cat([lengths.new_zeros(1), torch.cumsum(lengths, 0)]).to(dtype)


def ranges(starts, lengths):
    """The concatenation of `arange(start, start + length)` for each row (torch int64)."""
    total = int(lengths.sum()) if lengths.numel() else 0
    offsets = torch.repeat_interleave(splits_from_lengths(lengths)[:-1], lengths)
    return torch.repeat_interleave(starts, lengths) + torch.arange(total, dtype=torch.int64) - offsets


def take(values, index):
    """Rows `index` (int64 torch) of a Tensor or a RaggedTensor, as the same kind."""
    if isinstance(values, RaggedTensor):
        s = values._row_splits._t.to(torch.int64)
        starts, lengths = s[index], s[index + 1] - s[index]
        inner = take(values._values, ranges(starts, lengths))
        return RaggedTensor(inner, wrap(splits_from_lengths(lengths, values._row_splits._t.dtype)), internal=True)
    t = values._t
    return wrap(t[index.numpy()] if type(t) is np.ndarray else t[index.to(t.device)])


def _format(x):
    """TF's ragged value text: NumPy array text with ", " separators, applied recursively."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size else repr(x.tolist())
    return str(x)


@tf_export("RaggedTensor", partial="elementwise ops between RaggedTensors of different ranks (different "
                                  "ragged_ranks of one rank broadcast)")
class RaggedTensor:
    """Rows `values[row_splits[i]:row_splits[i + 1]]`; `values` is a Tensor or a RaggedTensor."""

    def __init__(self, values, row_splits, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods "
                             "instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length

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
        if validate:
            OPS["assert_non_negative"](lengths, message="Arguments to from_row_lengths do not form a valid RowPartition")
        return cls.from_row_splits(values, wrap(splits_from_lengths(lengths._t, lengths._t.dtype)), validate=validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Row `i` holds the values whose row id is `i` (ids sorted); `nrows` adds empty trailing rows."""
        ids = _splits(value_rowids)._t
        last = int(ids[-1]) if ids.numel() else -1
        if nrows is None:
            n = last + 1
        else:
            n = int(nrows)
            if n < 0:
                raise ValueError(f"Expected nrows >= 0; got {n}")
            if n < last + 1:
                raise ValueError(f"Expected nrows >= value_rowids[-1] + 1; got nrows={n}, value_rowids[-1]={last}")
        if validate:         # RowPartition.from_value_rowids' checks: the first id >= 0, the ids sorted
            msg = "Arguments to from_value_rowids do not form a valid RowPartition"
            OPS["assert_non_negative"](wrap(ids[:1]), message=msg)
            OPS["assert_non_negative"](wrap(ids[1:] - ids[:-1]), message=msg)
        counts = torch.bincount(ids, minlength=n)
        return cls.from_row_splits(values, wrap(splits_from_lengths(counts, ids.dtype)), validate=validate)

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
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        """Rows of `uniform_row_length` consecutive values each (a uniform, not ragged, dimension)."""
        values = _values(values)
        length, nvals = int(uniform_row_length), _nrows(values)
        n = int(nrows) if nrows is not None else (nvals // length if length else 0)
        if validate and n * length != nvals:
            raise errors.InvalidArgumentError(None, None, "uniform_row_length must evenly divide nvals")
        splits = torch.arange(n + 1, dtype=torch.int64) * length
        return cls(values, wrap(splits), internal=True, uniform_row_length=length)

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
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                                 validate=True):
        result = _values(flat_values)
        nested_nrows = [None] * len(nested_value_rowids) if nested_nrows is None else nested_nrows
        for ids, n in reversed(list(zip(nested_value_rowids, nested_nrows))):
            result = cls.from_value_rowids(result, ids, n, validate=validate)
        return result

    @classmethod
    @unsupported_args("ragged_rank", api_name="tf.RaggedTensor.from_tensor")
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=dtypes.int64):
        """A RaggedTensor of a dense tensor's rows, cut to `lengths` or before their trailing `padding`."""
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        tensor = _values(tensor)
        t = tensor._t
        n, m = t.shape[0], t.shape[1]
        if padding is not None:
            pad = convert_to_tensor(padding, dtype=tensor.dtype)._t
            if type(t) is np.ndarray:
                real = torch.from_numpy(np.asarray(t != pad).reshape(n, m, -1).any(-1))
            else:
                real = (t != pad).reshape(n, m, -1).any(-1)
            last = torch.where(real, torch.arange(1, m + 1), torch.zeros((), dtype=torch.int64))
            lens = last.max(1).values if m else torch.zeros(n, dtype=torch.int64)
        elif lengths is None:
            lens = torch.full((n,), m, dtype=torch.int64)
        else:
            lens = _splits(lengths)._t.to(torch.int64).cpu()
        keep = torch.arange(m)[None, :] < lens[:, None]
        flat = t[keep.numpy()] if type(t) is np.ndarray else t[keep.to(t.device)]
        splits = splits_from_lengths(lens, dtypes.as_dtype(row_splits_dtype).torch_dtype)
        return cls(wrap(flat), wrap(splits), internal=True)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a 2-D SparseTensor in canonical order: row `i` holds its values whose index is `[i, _]`."""
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"st_input must be a SparseTensor, got {st_input!r}")
        if st_input.shape.rank != 2:
            raise ValueError(f"rank(st_input) must be 2, but got {st_input.shape.rank}")
        rows = st_input.indices._t[:, 0].cpu()
        counts = torch.bincount(rows, minlength=int(st_input.dense_shape._t[0]))
        splits = splits_from_lengths(counts, dtypes.as_dtype(row_splits_dtype).torch_dtype)
        return cls(st_input.values, wrap(splits), internal=True)

    # -- structure ---------------------------------------------------------------------------------------------
    values = property(lambda self: self._values)
    row_splits = property(lambda self: self._row_splits)

    @property
    def uniform_row_length(self):
        if self._uniform_row_length is None:
            return None
        return wrap(torch.tensor(self._uniform_row_length, dtype=self._row_splits._t.dtype))

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

    def nested_row_lengths(self, name=None):
        return tuple(wrap(s._t[1:] - s._t[:-1]) for s in self.nested_row_splits)

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
        dims = [self.nrows_int()]
        r = self
        while isinstance(r, RaggedTensor):
            dims.append(r._uniform_row_length)
            r = r._values
        return TensorShape(dims + r.shape.as_list()[1:])

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

    def row_lengths(self, axis=1, name=None):
        """Lengths of the rows of dimension `axis`: a scalar (axis 0), a Tensor (1) or a RaggedTensor (deeper)."""
        rank = self.shape.rank
        if not -rank <= int(axis) < rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
        axis = int(axis) % rank
        s = self._row_splits._t
        if axis == 0:
            return wrap(torch.tensor(self.nrows_int(), dtype=s.dtype))
        if axis == 1:
            return wrap(s[1:] - s[:-1])
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        shape = self._values._t.shape
        return self.with_values(wrap(torch.full(tuple(shape[:axis - 1]), shape[axis - 1], dtype=s.dtype)))

    def nested_value_rowids(self, name=None):
        """The value_rowids of each ragged dimension, outermost first."""
        out, r = [], self
        while isinstance(r, RaggedTensor):
            out.append(r.value_rowids())
            r = r._values
        return tuple(out)

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
        dt = self._row_splits._t.dtype if out_type is None else dtypes.as_dtype(out_type).torch_dtype
        out = torch.tensor(shape, dtype=dt)
        return wrap(out if axis is None else out[axis])

    def with_values(self, new_values):
        return RaggedTensor(_values(new_values), self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        dt = dtypes.as_dtype(dtype).torch_dtype
        v = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else self._values
        return RaggedTensor(v, wrap(self._row_splits._t.to(dt)), internal=True,
                            uniform_row_length=self._uniform_row_length)

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions `outer_axis..inner_axis` merged into one (a Tensor when all of a RaggedTensor's are merged)."""
        rank = self.shape.rank
        outer, inner = int(outer_axis) % rank, int(inner_axis) % rank
        if outer >= inner:
            return self
        if outer > 1:
            return self.with_values(self._values.merge_dims(outer - 1, inner - 1))
        splits = self._row_splits._t if outer == 1 else None
        values = self._values if outer == 1 else self
        for _ in range(inner - outer):
            if isinstance(values, RaggedTensor):
                splits = values._row_splits._t[splits] if splits is not None else None
                values = values._values
            else:
                t = values._t
                if splits is not None:
                    splits = splits * t.shape[1]
                values = wrap(t.reshape((-1,) + tuple(t.shape[2:])))
        return values if splits is None else RaggedTensor(values, wrap(splits), internal=True)

    # -- values ------------------------------------------------------------------------------------------------
    def _coords(self):
        """Per flat row: its index along each of the ragged_rank + 1 outer dimensions (NumPy int64 arrays)."""
        splits = [s._t.cpu().numpy().astype(np.int64) for s in self.nested_row_splits]
        idx = np.arange(splits[-1][-1] if len(splits[-1]) else 0)
        cols = []
        for s in reversed(splits):
            parent = np.searchsorted(s, idx, side="right") - 1
            cols.insert(0, idx - s[parent])
            idx = parent
        cols.insert(0, idx)
        return cols

    def to_tensor(self, default_value=None, name=None, shape=None):
        """The dense tensor, rows padded with `default_value` (zero / empty string) to the bounding shape.

        `shape` (None entries: the bounding size) pads or truncates each dimension.
        """
        shape = [int(d) for d in self.bounding_shape()._array()] if shape is None else \
            [b if d is None else int(d) for b, d in zip(self.bounding_shape()._array().tolist(),
                                                         TensorShape(shape).as_list())]
        flat = self.flat_values._t
        coords = self._coords()
        outer = len(coords)
        keep = np.ones(len(coords[0]), dtype=bool)
        for c, d in zip(coords, shape):
            keep &= c < d
        inner = tuple(slice(0, d) for d in shape[outer:])
        if type(flat) is np.ndarray:
            fill = b"" if default_value is None else convert_to_tensor(default_value)._array()[()]
            out = np.full(shape, fill, dtype=object)
            out[tuple(c[keep] for c in coords)] = flat[keep][(slice(None),) + inner]
            return wrap(out)
        fill = 0 if default_value is None else default_value
        fill = fill.numpy() if isinstance(fill, Tensor) else fill
        out = torch.full(shape, fill, dtype=flat.dtype, device=flat.device)
        mask = torch.from_numpy(keep).to(flat.device)
        out[tuple(torch.from_numpy(c[keep]).to(flat.device) for c in coords)] = flat[mask][(slice(None),) + inner]
        return wrap(out)

    def to_sparse(self, name=None):
        """The SparseTensor of this value's entries (indices in row-major order, dense shape the bounding shape)."""
        flat = self.flat_values
        coords = np.stack(self._coords(), 1)
        inner = flat.shape.as_list()[1:]
        if inner:
            cells = np.indices(inner).reshape(len(inner), -1).T
            coords = np.concatenate([np.repeat(coords, len(cells), 0), np.tile(cells, (len(coords), 1))], 1)
        t = flat._t
        values = wrap(t.reshape(-1)) if type(t) is not np.ndarray else wrap(t.reshape(-1))
        return SparseTensor(wrap(torch.from_numpy(coords.astype(np.int64))), values,
                            self.bounding_shape(out_type=dtypes.int64))

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
        from tfcompat.framework.ragged import indexing
        return indexing.getitem(self, key)

    def __repr__(self):
        with np.printoptions(formatter={"all": _format}):
            text = _format(self.numpy())
        return f"<tf.RaggedTensor {text}>"

    __str__ = __repr__

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __eq__(self, other):
        """Elementwise equality (TF's ragged operator); False against None."""
        if other is None:
            return False
        from tfcompat.framework.ragged import broadcast
        return broadcast.elementwise(OPS["equal"], self, other)

    def __ne__(self, other):
        if other is None:
            return True
        from tfcompat.framework.ragged import broadcast
        return broadcast.elementwise(OPS["not_equal"], self, other)

    def __hash__(self):
        raise TypeError("RaggedTensor is unhashable.")

    def __neg__(self):
        return self.with_flat_values(OPS["negative"](self.flat_values))

    def __abs__(self):
        return self.with_flat_values(OPS["abs"](self.flat_values))

    def __invert__(self):
        return self.with_flat_values(OPS["logical_not"](self.flat_values))


def _operator(op_name, reverse=False):
    """A RaggedTensor operator method: TF's op `op_name` with ragged broadcasting."""
    def method(self, other):
        from tfcompat.framework.ragged import broadcast
        return broadcast.elementwise(OPS[op_name], other, self) if reverse else \
            broadcast.elementwise(OPS[op_name], self, other)
    method.__name__ = f"__{'r' if reverse else ''}{op_name}__"
    return method


for _name, _op in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "truediv"),
                   ("floordiv", "floordiv"), ("mod", "floormod"), ("pow", "pow"), ("and", "logical_and"),
                   ("or", "logical_or"), ("xor", "logical_xor")):
    setattr(RaggedTensor, f"__{_name}__", _operator(_op))
    setattr(RaggedTensor, f"__r{_name}__", _operator(_op, reverse=True))
for _name, _op in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
    setattr(RaggedTensor, f"__{_name}__", _operator(_op))


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
    # TF checks the values' count where RaggedTensor._from_row_partition joins them to the partition
    assert_equal(wrap(s[-1]), wrap(s.new_tensor(_nrows(values))),
                 message="Arguments to _from_row_partition do not form a valid RaggedTensor")
