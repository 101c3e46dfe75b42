"""`tf.test.compute_gradient`: TF 2's gradient checker. The theoretical Jacobian is built a row at a time from the
tape's gradient of `f` for a one-hot upstream gradient; the numeric one by central differences of step `delta`
(1/1024 by default) on NumPy copies of the arguments, in their own dtype, as `gradient_checker_v2` computes them."""
import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.indexed_slices import IndexedSlices
from tfcompat.framework.tensor import Tensor
from tfcompat.framework.variables import Variable

_ALLOWED = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)


def _product(shape):
    y = 1
    for x in shape:
        y *= x
    return y


def _real_np(dtype):
    return dtype.real_dtype.as_numpy_dtype


def _to_numpy(a):
    if isinstance(a, IndexedSlices):
        values = a.values.numpy()
        indices = a.indices.numpy()
        arr = np.zeros(tuple(int(d) for d in a.dense_shape.numpy()))
        for values_slice, index in zip(values, indices):
            arr[index] += values_slice
        return arr
    if isinstance(a, Tensor):
        return a.numpy()
    return a


def _call(f, xs_data):
    return f(*map(convert_to_tensor, xs_data))


def _gradient(f, xs, param, dy):
    """d(f(*xs))/d(xs[param]) for the upstream gradient `dy` (TF's `gradients_function(f, [param])`)."""
    from tfcompat.eager.tape import GradientTape
    args = [convert_to_tensor(x) for x in xs]
    with GradientTape() as tape:
        tape.watch(args[param])
        y = f(*args)
    if not isinstance(y, (Tensor, Variable)):
        return None                          # a NumPy result: no gradient reaches the argument
    return tape.gradient(y, args[param], output_gradients=convert_to_tensor(dy))


def _theoretical_jacobian(f, y_shape, y_dtype, xs, param):
    x = xs[param]
    x_shape = tuple(x.shape) + (2,) if x.dtype.is_complex else tuple(x.shape)
    y_factor = 2 if y_dtype.is_complex else 1
    x_size = _product(x_shape)
    x_val_size = _product(x_shape[1:])
    y_size = _product(y_shape) * y_factor
    jacobian = np.zeros((y_size, x_size), dtype=_real_np(x.dtype))
    dy_data = np.zeros(y_shape, dtype=y_dtype.as_numpy_dtype)
    dy_data_flat = dy_data.ravel().view(_real_np(y_dtype))
    for row in range(y_size):
        dy_data_flat[row] = 1
        grad = _gradient(f, xs, param, dy_data)
        if isinstance(grad, IndexedSlices):
            for i, v in zip(grad.indices.numpy(), grad.values.numpy()):
                c_begin = i * x_val_size
                jacobian[row, c_begin:c_begin + x_val_size] += v.flat
        elif grad is not None:
            jacobian[row, :] = _to_numpy(grad).ravel().view(jacobian.dtype)
        dy_data_flat[row] = 0
    if y_size == 0:
        grad = _to_numpy(_gradient(f, xs, param, dy_data))
        if grad.shape != tuple(x.shape):
            raise ValueError("Empty gradient has wrong shape: expected %s, got %s" % (x.shape, grad.shape))
        if np.any(grad):
            raise ValueError("Empty tensor with nonzero gradients")
    return jacobian


def _numeric_jacobian(f, y_size, y_dtype, xs, param, delta):
    x_dtype = xs[param].dtype
    x_size = _product(xs[param].shape) * (2 if x_dtype.is_complex else 1)
    y_size = y_size * (2 if y_dtype.is_complex else 1)
    x_np = _real_np(x_dtype)
    y_np = _real_np(y_dtype)
    xs = [np.asarray(_to_numpy(x)) for x in xs]
    x = xs[param]
    scale = np.asarray(2 * delta, dtype=y_np)[()]
    jacobian = np.zeros((y_size, x_size), dtype=x_np)
    for col in range(x_size):
        original = x.ravel().view(x_np)[col]
        x.ravel().view(x_np)[col] += delta
        y_pos = _to_numpy(_call(f, xs))
        x.ravel().view(x_np)[col] = original
        x.ravel().view(x_np)[col] -= delta
        y_neg = _to_numpy(_call(f, xs))
        x.ravel().view(x_np)[col] = original
        diff = (y_pos - y_neg) / scale
        jacobian[:, col] = diff.ravel().view(y_np)
    return jacobian


def _compute_gradient(f, y_shape, y_dtype, xs, param, delta):
    t = xs[param].dtype
    if t.base_dtype not in _ALLOWED:
        raise AssertionError("Cannot compute gradient for unsupported type %s of argument %s" % (t.name, param))
    if y_dtype.base_dtype not in _ALLOWED:
        raise AssertionError("Cannot compute gradient for unsupported type %s of y" % y_dtype.name)
    jacob_t = _theoretical_jacobian(f, y_shape, y_dtype, xs, param)
    jacob_n = _numeric_jacobian(f, _product(y_shape), y_dtype, xs, param, delta)
    return jacob_t, jacob_n


@tf_export("test.compute_gradient")
def compute_gradient(f, x, delta=None):
    """The theoretical and numeric Jacobians of `f` at `x`: a pair of tuples with one 2-D array per argument
    (rows: elements of `f(*x)`, columns: elements of the argument)."""
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor (arguments to `f`), not a "
                         "%s" % type(x))
    if delta is None:
        delta = 1.0 / 1024
    xs = [convert_to_tensor(v) for v in x]
    y = f(*xs)
    y_shape = tuple(y.shape)
    y_dtype = dtypes.as_dtype(y.dtype)
    return tuple(zip(*[_compute_gradient(f, y_shape, y_dtype, xs, i, delta) for i in range(len(xs))]))
