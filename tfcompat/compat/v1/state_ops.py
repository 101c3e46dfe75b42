"""TF1's functional variable updates (`tf.compat.v1.scatter_update(ref, indices, updates)` and the rest): each
calls the variable's own method, as TF 2 does for resource variables."""
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.ops import gather_ops


def _ref_method(ref, method):
    """`ref`'s update method; TF 2 raises AttributeError for a tensor (it has no `_lazy_read`)."""
    if not hasattr(type(ref), method):
        raise AttributeError(f"'{type(ref).__name__}' object has no attribute '_lazy_read'")
    return getattr(ref, method)


def _rows(method):
    def update(ref, indices, updates, use_locking=True, name=None):
        return _ref_method(ref, method)(IndexedSlices(updates, indices))
    update.__name__ = update.__qualname__ = method
    update.__doc__ = f"`ref.{method}(tf.IndexedSlices(updates, indices))`: rows of variable `ref` at `indices`."
    return update


def _nd(method):
    def update(ref, indices, updates, use_locking=True, name=None):
        return _ref_method(ref, method)(indices, updates)
    update.__name__ = update.__qualname__ = method
    update.__doc__ = f"`ref.{method}(indices, updates)`: slices of variable `ref` at multi-indices `indices`."
    return update


scatter_update = _rows("scatter_update")
scatter_add = _rows("scatter_add")
scatter_sub = _rows("scatter_sub")
scatter_mul = _rows("scatter_mul")
scatter_div = _rows("scatter_div")
scatter_max = _rows("scatter_max")
scatter_min = _rows("scatter_min")
batch_scatter_update = _rows("batch_scatter_update")
scatter_nd_update = _nd("scatter_nd_update")
scatter_nd_add = _nd("scatter_nd_add")
scatter_nd_sub = _nd("scatter_nd_sub")

# TF1's names of the tensor scatter ops
tensor_scatter_add = gather_ops.tensor_scatter_nd_add
tensor_scatter_sub = gather_ops.tensor_scatter_nd_sub
tensor_scatter_update = gather_ops.tensor_scatter_nd_update
