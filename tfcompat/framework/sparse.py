"""`tf.sparse`: `SparseTensor` (COO indices, values, dense shape) and its basic ops."""
import numpy as np
import torch

from tfcompat.framework import dtypes, errors, op_def
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor, wrap
from tfcompat.framework.tensor_shape import TensorShape


def _int64(x):
    if isinstance(x, Tensor):
        return x if x.dtype is dtypes.int64 else wrap(x._t.to(torch.int64))
    if isinstance(x, TensorShape):
        x = x.as_list()
    if isinstance(x, np.ndarray):
        return convert_to_tensor(x.astype(np.int64))        # (TF casts a NumPy array, floats included)
    return convert_to_tensor(x, dtypes.int64)                # a Python float is refused (TF's TypeError)


@tf_export("sparse.SparseTensor", "SparseTensor")
class SparseTensor:
    """A sparse tensor: `values[i]` sits at `indices[i]` of a dense tensor of shape `dense_shape`."""

    def __init__(self, indices, values, dense_shape):
        self._indices = _int64(indices)
        self._values = values if isinstance(values, Tensor) else convert_to_tensor(values)
        self._dense_shape = _int64(dense_shape)
        n_idx = self._indices.shape.as_list()
        n_val = self._values.shape.as_list()
        if len(n_val) != 1:
            raise ValueError(f"Shape {self._values.shape} must have rank 1")
        if len(n_idx) != 2:
            raise ValueError(f"Shape {self._indices.shape} must have rank 2")
        if n_idx[0] != n_val[0]:
            raise ValueError(f"Dimensions {n_idx[0]} and {n_val[0]} are not compatible")
        n_dims = self._dense_shape.shape.as_list()
        if len(n_dims) == 1 and n_idx[1] != n_dims[0]:
            raise ValueError(f"Dimensions {n_idx[1]} and {n_dims[0]} are not compatible")

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)

    @property
    def shape(self):
        return TensorShape([int(d) for d in self._dense_shape._array()])

    def get_shape(self):
        return self.shape

    @classmethod
    def from_value(cls, sparse_tensor_value):
        v = sparse_tensor_value
        return cls(v.indices, v.values, v.dense_shape)

    def with_values(self, new_values):
        """This sparse tensor with its values replaced (same indices and shape)."""
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def _dense_values_at(self, other):
        """The values of dense `other` (broadcast to the dense shape) at this tensor's indices."""
        t = other._t if isinstance(other, Tensor) else convert_to_tensor(other, dtype=self.dtype)._t
        full = torch.broadcast_to(t, tuple(self.shape.as_list()))
        return full[tuple(self._indices._t.to(t.device).T)]

    def __mul__(self, other):
        return self.with_values(wrap(self._values._t * self._dense_values_at(other)))

    def __truediv__(self, other):
        return self.with_values(wrap(self._values._t / self._dense_values_at(other)))

    __div__ = __truediv__

    def __repr__(self):
        return f"SparseTensor(indices={self._indices!s}, values={self._values!s}, dense_shape={self._dense_shape!s})"

    __str__ = __repr__


# TF's unary elementwise ops that take a SparseTensor (f(0) == 0: applied to the stored values only)
_ZERO_PRESERVING = frozenset(["Abs", "Neg", "Sign", "Square", "Sqrt", "Sin", "Tan", "Asin", "Atan", "Tanh", "Asinh",
                              "Atanh", "Erf", "BesselI0e", "BesselI1e"])


def _elementwise(op, *operands):
    """op_def's composite hook: a zero-preserving unary op maps the values; any other op rejects the SparseTensor."""
    if len(operands) == 1 and op.op_name in _ZERO_PRESERVING:
        return operands[0].with_values(op(operands[0].values))
    sp = next(o for o in operands if isinstance(o, SparseTensor))
    return convert_to_tensor(sp)        # TF's "Attempt to convert a value (SparseTensor(...)) ..." ValueError


op_def.COMPOSITE_ELEMENTWISE[SparseTensor] = _elementwise


def _linear(indices, shape):
    """Row-major linear positions of COO indices."""
    strides = torch.ones(len(shape), dtype=torch.int64)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return (indices * strides.to(indices.device)).sum(1) if len(shape) else indices.new_zeros(indices.shape[0])


def _check_bounds(sp):
    """SparseToDense's check that every index lies inside the dense shape; returns the first bad row or None."""
    idx = sp._indices._t
    shape = torch.tensor(sp.shape.as_list(), dtype=torch.int64, device=idx.device)
    bad = ((idx < 0) | (idx >= shape)).any(1).nonzero() if idx.numel() else idx.new_zeros((0, 1))
    return int(bad[0, 0]) if bad.numel() else None


def _check_order(sp, check_order=True):
    """TF's SparseToDense validation, index by index: in bounds, then strictly after the previous index."""
    idx = sp._indices._t
    shape = sp.shape.as_list()
    out_of_bounds = _check_bounds(sp)
    lin = _linear(idx, shape)
    bad = (lin[1:] <= lin[:-1]).nonzero() if check_order and lin.numel() >= 2 else lin.new_zeros((0, 1))
    i = int(bad[0, 0]) + 1 if bad.numel() else None
    if out_of_bounds is not None and (i is None or out_of_bounds <= i):
        pos = ",".join(str(int(v)) for v in idx[out_of_bounds])
        need = ",".join(str(d) for d in shape)
        raise errors.op_error(errors.InvalidArgumentError, f"indices[{out_of_bounds}] = [{pos}] is out of bounds: "
                              f"need 0 <= index < [{need}]", "SparseToDense")
    if i is not None:
        pos = ",".join(str(int(v)) for v in idx[i])
        what = "is repeated" if int(lin[i]) == int(lin[i - 1]) else "is out of order. Many sparse ops require " \
            "sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n"
        raise errors.op_error(errors.InvalidArgumentError, f"indices[{i}] = [{pos}] {what}", "SparseToDense")


@tf_export("sparse.to_dense")
def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor of a SparseTensor; missing entries are `default_value` (0 / empty string)."""
    _check_order(sp_input, check_order=validate_indices)
    shape = tuple(sp_input.shape.as_list())
    v = sp_input._values._t
    idx = tuple(sp_input._indices._t.T)
    if type(v) is np.ndarray:
        out = np.full(shape, b"" if default_value is None else convert_to_tensor(default_value)._array()[()],
                      dtype=object)
        out[tuple(i.numpy() for i in idx)] = v
        return wrap(out)
    fill = 0 if default_value is None else default_value
    fill = fill.numpy() if isinstance(fill, Tensor) else fill
    out = torch.full(shape, fill, dtype=v.dtype, device=v.device)
    out[tuple(i.to(v.device) for i in idx)] = v
    return wrap(out)


@tf_export("sparse.from_dense")
def from_dense(tensor, name=None):
    """The SparseTensor of the non-zero (non-empty) entries of a dense tensor."""
    t = tensor._t if isinstance(tensor, Tensor) else convert_to_tensor(tensor)._t
    if type(t) is np.ndarray:
        mask = t != b""
        idx = torch.from_numpy(np.argwhere(mask).astype(np.int64))
        vals = wrap(t[mask])
    else:
        mask = t != 0
        idx = mask.nonzero()
        vals = wrap(t[mask])
    return SparseTensor(wrap(idx.reshape(-1, t.ndim)), vals, wrap(torch.tensor(t.shape, dtype=torch.int64)))


@tf_export("sparse.reorder")
def reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major (canonical) order."""
    lin = _linear(sp_input._indices._t, sp_input.shape.as_list())
    order = torch.argsort(lin, stable=True)
    v = sp_input._values._t
    vals = v[order.numpy()] if type(v) is np.ndarray else v[order.to(v.device)]
    return SparseTensor(wrap(sp_input._indices._t[order]), wrap(vals), sp_input._dense_shape)


@tf_export("sparse.reshape")
def reshape(sp_input, shape, name=None):
    """The SparseTensor with a new dense shape (one dimension may be -1), entries in the same order."""
    old = sp_input.shape.as_list()
    new = [int(d) for d in (shape._array() if isinstance(shape, Tensor) else shape)]
    total = int(np.prod(old))
    if new.count(-1) == 1:
        rest = int(np.prod([d for d in new if d != -1]))
        new[new.index(-1)] = total // rest if rest else 0
    if int(np.prod(new)) != total:
        raise errors.op_error(errors.InvalidArgumentError,
                              f"Input to reshape is a tensor with {total} dense values, but the requested shape has "
                              f"{int(np.prod(new))}", "SparseReshape")
    lin = _linear(sp_input._indices._t, old)
    cols = []
    for d in reversed(new):
        cols.append(lin % d if d else lin)
        lin = lin // d if d else lin
    idx = torch.stack(cols[::-1], 1) if cols else lin.new_zeros((lin.shape[0], 0))
    return SparseTensor(wrap(idx), sp_input._values, wrap(torch.tensor(new, dtype=torch.int64)))


@tf_export("sparse.transpose")
def transpose(sp_input, perm=None, name=None):
    """The SparseTensor with its dimensions permuted (reversed by default), in canonical order."""
    rank = len(sp_input.shape.as_list())
    perm = list(range(rank))[::-1] if perm is None else [int(p) for p in perm]
    shape = sp_input._dense_shape._t[perm]
    return reorder(SparseTensor(wrap(sp_input._indices._t[:, perm]), sp_input._values, wrap(shape)))


@tf_export("sparse.add")
def add(a, b, threshold=0):
    """Sum of two SparseTensors (a SparseTensor; with `threshold`, only sums of magnitude >= it), or of a
    SparseTensor and a dense tensor (a dense tensor)."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        shape = a.shape.as_list()
        idx = torch.cat([a._indices._t, b._indices._t])
        vals = torch.cat([a._values._t, b._values._t.to(a._values._t.device)])
        lin = _linear(idx, shape)
        uniq, inverse = torch.unique(lin, sorted=True, return_inverse=True)
        summed = torch.zeros(uniq.shape[0], dtype=vals.dtype, device=vals.device).index_add(
            0, inverse.to(vals.device), vals)
        first = torch.full((uniq.shape[0],), idx.shape[0], dtype=torch.int64).scatter_reduce(
            0, inverse, torch.arange(idx.shape[0]), "amin")
        if threshold:
            keep = (summed.abs() >= threshold).nonzero().reshape(-1)
            first, summed = first[keep.cpu()], summed[keep]
        return SparseTensor(wrap(idx[first]), wrap(summed), a._dense_shape)
    if isinstance(b, SparseTensor):
        a, b = b, a
    dense = b._t if isinstance(b, Tensor) else convert_to_tensor(b, dtype=a.dtype)._t
    if dense.dtype != a._values._t.dtype:
        raise TypeError(f"Input 'b' of 'SparseTensorDenseAdd' Op has type {dtypes.FROM_STORAGE[dense.dtype].name} "
                        f"that does not match type {a.dtype.name} of argument 'a_values'.")
    out = torch.broadcast_to(dense, tuple(a.shape.as_list())).clone()
    out.index_put_(tuple(a._indices._t.to(out.device).T), a._values._t, accumulate=True)
    return wrap(out)


@tf_export("sparse.sparse_dense_matmul", partial="a SparseTensor as `b`")
def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """`sp_a @ b` for a rank-2 SparseTensor and a dense matrix (either may be adjointed), dense result."""
    if isinstance(b, SparseTensor):
        raise NotImplementedError("tf.sparse.sparse_dense_matmul(dense, sparse) is not supported by tfcompat")
    bt = b._t if isinstance(b, Tensor) else convert_to_tensor(b, dtype=sp_a.dtype)._t
    if adjoint_b:
        bt = bt.T.conj()
    rows, cols = sp_a._indices._t.to(bt.device).T
    vals = sp_a._values._t.to(bt.device)
    n, m = sp_a.shape.as_list()
    if adjoint_a:
        rows, cols, n = cols, rows, m
        vals = vals.conj()
    out = torch.zeros((n, bt.shape[1]), dtype=bt.dtype, device=bt.device)
    return wrap(out.index_add(0, rows, vals[:, None] * bt[cols]))
