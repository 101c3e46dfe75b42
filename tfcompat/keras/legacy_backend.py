"""`tf.keras.backend`: Keras 3's `keras.backend` plus the TF-era functions TF 2.21 keeps there (Keras's legacy backend).

`import keras; keras.backend` has only Keras 3's names; `tf.keras.backend` (this module, through the
`tf.keras` view) adds `random_normal`, `int_shape`, `variable`, ... each a thin wrapper over a `tf.*` op as in
Keras's legacy backend. Names TF lists here that are absent (resizing, `rnn`, CTC, `result_type`) answer
NotImplementedYet through the view.
"""
import builtins

import numpy as np

import tfcompat as tf
from tfcompat.keras.backend import (  # noqa: F401  (Keras 3's names, also in tf.keras.backend)
    backend, clear_session, epsilon, floatx, get_uid, image_data_format, is_float_dtype, is_int_dtype,
    is_keras_tensor, set_epsilon, set_floatx, set_image_data_format, standardize_dtype)

def _unary(fn):
    def op(x):
        return fn(x)
    op.__doc__ = f"`tf.{fn.__name__}(x)`."
    return op


def _binary(fn):
    def op(x, y):
        return fn(x, y)
    op.__doc__ = f"`tf.{fn.__name__}(x, y)`."
    return op


def _reduction(fn, boolean_as_float=False):
    def op(x, axis=None, keepdims=False):
        x = tf.convert_to_tensor(x)
        if boolean_as_float and x.dtype == tf.bool:
            x = tf.cast(x, floatx())
        return fn(x, axis=axis, keepdims=keepdims)
    op.__doc__ = f"`tf.{fn.__name__}(x, axis, keepdims)`" + (" (bool counted as floatx)." if boolean_as_float else ".")
    return op


abs = _unary(tf.abs)
exp = _unary(tf.exp)
log = _unary(tf.math.log)
square = _unary(tf.square)
sign = _unary(tf.sign)
sin = _unary(tf.sin)
cos = _unary(tf.cos)
tanh = _unary(tf.tanh)
round = _unary(tf.round)
sigmoid = _unary(tf.sigmoid)
softplus = _unary(tf.math.softplus)
softsign = _unary(tf.math.softsign)
shape = _unary(tf.shape)
equal, not_equal = _binary(tf.equal), _binary(tf.not_equal)
greater, greater_equal = _binary(tf.greater), _binary(tf.greater_equal)
less, less_equal = _binary(tf.less), _binary(tf.less_equal)
maximum, minimum = _binary(tf.maximum), _binary(tf.minimum)
pow = _binary(tf.pow)
sum = _reduction(tf.reduce_sum)
prod = _reduction(tf.reduce_prod)
max = _reduction(tf.reduce_max)
min = _reduction(tf.reduce_min)
mean = _reduction(tf.reduce_mean, boolean_as_float=True)
std = _reduction(tf.math.reduce_std, boolean_as_float=True)
var = _reduction(tf.math.reduce_variance, boolean_as_float=True)


def all(x, axis=None, keepdims=False):
    """Logical and over `axis` of `x` cast to bool."""
    return tf.reduce_all(tf.cast(x, tf.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):
    """Logical or over `axis` of `x` cast to bool."""
    return tf.reduce_any(tf.cast(x, tf.bool), axis, keepdims)


def argmax(x, axis=-1):
    return tf.argmax(x, axis)


def argmin(x, axis=-1):
    return tf.argmin(x, axis)


def arange(start, stop=None, step=1, dtype="int32"):
    """`tf.range(start, stop, step)` cast to `dtype` (int32 by default)."""
    if stop is None and start < 0:
        start = 0
    result = tf.range(start, limit=stop, delta=step)
    return result if dtype == "int32" else tf.cast(result, dtype)


# -- values and variables --------------------------------------------------------------------------------------------
def constant(value, dtype=None, shape=None, name=None):
    """`tf.constant` with floatx as the default dtype."""
    return tf.constant(value, dtype=dtype or floatx(), shape=shape, name=name)


def variable(value, dtype=None, name=None, constraint=None):
    """A `tf.Variable` of `value` (floatx by default)."""
    return tf.Variable(value, dtype=tf.as_dtype(dtype or floatx()), name=name, constraint=constraint)


def cast(x, dtype):
    return tf.cast(x, dtype)


def cast_to_floatx(x):
    """Tensors cast to floatx; anything else a NumPy array of floatx."""
    if isinstance(x, (tf.Tensor, tf.Variable, tf.SparseTensor)):
        return tf.cast(x, dtype=floatx())
    return np.asarray(x, dtype=floatx())


def get_value(x):
    """The NumPy value of a tensor or variable (other values as they are)."""
    return x.numpy() if tf.is_tensor(x) else x


def eval(x):
    """The NumPy value of `x` (sparse tensors made dense)."""
    return get_value(to_dense(x))


def batch_get_value(tensors):
    return [x.numpy() for x in tensors]


def set_value(x, value):
    """Assigns `value` (converted to `x`'s dtype) to variable `x`."""
    x.assign(np.asarray(value, dtype=x.dtype.name))


def batch_set_value(tuples):
    for x, value in tuples:
        set_value(x, value)


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def moving_average_update(x, value, momentum):
    """`x -= (x - value) * (1 - momentum)`."""
    momentum = tf.cast(momentum, x.dtype)
    return x.assign_sub((x - tf.cast(value, x.dtype)) * (1 - momentum))


def _filled(fill, shape, dtype, name):
    """A variable of `fill(shape)` (a plain tensor when a dimension is 0), as Keras's zeros/ones/eye."""
    with tf.init_scope():
        dtype = dtype or floatx()
        value = fill(shape, tf.as_dtype(dtype))
        if builtins.all(value.shape.as_list()):
            return variable(value, dtype=dtype, name=name)
        return value


def zeros(shape, dtype=None, name=None):
    return _filled(lambda s, d: tf.zeros(s, dtype=d), shape, dtype, name)


def ones(shape, dtype=None, name=None):
    return _filled(lambda s, d: tf.ones(s, dtype=d), shape, dtype, name)


def eye(size, dtype=None, name=None):
    return variable(tf.eye(size, dtype=tf.as_dtype(dtype or floatx())), dtype, name)


def zeros_like(x, dtype=None, name=None):
    return tf.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    return tf.ones_like(x, dtype=dtype, name=name)


def int_shape(x):
    """The static shape of `x` as a tuple of ints (None for unknown dimensions)."""
    shape = x.shape
    return shape if isinstance(shape, tuple) else tuple(shape.as_list())


def ndim(x):
    return x.shape.rank


def dtype(x):
    """The dtype name of `x` ("float32")."""
    return x.dtype.base_dtype.name


def count_params(x):
    """The number of scalars in `x`."""
    return int(np.prod(x.shape.as_list()))


def is_sparse(tensor):
    return isinstance(tensor, tf.SparseTensor)


def to_dense(tensor):
    return tf.sparse.to_dense(tensor) if is_sparse(tensor) else tensor


def name_scope(name):
    return tf.name_scope(name)


def stop_gradient(variables):
    """`tf.stop_gradient` of a tensor, or of each of a list (lazily, as Keras: a `map`)."""
    if isinstance(variables, (list, tuple)):
        return map(tf.stop_gradient, variables)
    return tf.stop_gradient(variables)


# -- shapes ---------------------------------------------------------------------------------------------------------
def flatten(x):
    """`x` as a vector."""
    return tf.reshape(x, [-1])


def reshape(x, shape):
    return tf.reshape(x, shape)


def transpose(x):
    return tf.transpose(x)


def permute_dimensions(x, pattern):
    return tf.transpose(x, perm=pattern)


def expand_dims(x, axis=-1):
    return tf.expand_dims(x, axis)


def squeeze(x, axis):
    return tf.squeeze(x, [axis])


def concatenate(tensors, axis=-1):
    """Tensors joined along `axis` (sparse ones made dense)."""
    return tf.concat([to_dense(x) for x in tensors], axis)


def stack(x, axis=0):
    return tf.stack(x, axis=axis)


def batch_flatten(x):
    """`x` reshaped to (batch, everything else)."""
    return tf.reshape(x, tf.stack([-1, tf.reduce_prod(tf.shape(x)[1:])]))


def tile(x, n):
    return tf.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    """A 2D `x` (batch, features) repeated `n` times on a new axis 1: (batch, n, features)."""
    return tf.tile(tf.expand_dims(x, 1), tf.stack([1, n, 1]))


def repeat_elements(x, rep, axis):
    """Each slice of `x` along `axis` repeated `rep` times (as np.repeat)."""
    return tf.repeat(x, rep, axis=axis)


def reverse(x, axes):
    return tf.reverse(x, [axes] if isinstance(axes, int) else axes)


def gather(reference, indices):
    return tf.gather(reference, indices)


def one_hot(indices, num_classes):
    return tf.one_hot(indices, depth=num_classes, axis=-1)


def cumsum(x, axis=0):
    return tf.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return tf.math.cumprod(x, axis=axis)


def temporal_padding(x, padding=(1, 1)):
    """Zero padding of the middle axis of a 3D tensor."""
    if len(padding) != 2:
        raise ValueError(f"Expected `padding` to be a tuple of 2 integers. Received: padding={padding}")
    return tf.pad(x, [[0, 0], list(padding), [0, 0]])


def _data_format(data_format):
    data_format = data_format or image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Zero padding of the two spatial axes of a 4D tensor."""
    if len(padding) != 2 or len(padding[0]) != 2 or len(padding[1]) != 2:
        raise ValueError(f"Expected `padding` to be a tuple of 2 tuples of 2 integers. Received: padding={padding}")
    spatial = [list(p) for p in padding]
    if _data_format(data_format) == "channels_first":
        return tf.pad(x, [[0, 0], [0, 0]] + spatial)
    return tf.pad(x, [[0, 0]] + spatial + [[0, 0]])


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Zero padding of the three spatial axes of a 5D tensor."""
    if len(padding) != 3 or builtins.any(len(p) != 2 for p in padding):
        raise ValueError(f"Expected `padding` to be a tuple of 3 tuples of 2 integers. Received: padding={padding}")
    spatial = [list(p) for p in padding]
    if _data_format(data_format) == "channels_first":
        return tf.pad(x, [[0, 0], [0, 0]] + spatial)
    return tf.pad(x, [[0, 0]] + spatial + [[0, 0]])


# -- linear algebra -------------------------------------------------------------------------------------------------
def dot(x, y):
    """Matrix product; for ranks above 2, contracts the last axis of `x` with the second to last of `y`."""
    if x.shape.rank is not None and (x.shape.rank > 2 or y.shape.rank > 2):
        x_shape, y_shape = list(x.shape), list(y.shape)
        y_perm = list(range(len(y_shape)))
        y_perm = [y_perm.pop(-2)] + y_perm
        xt = tf.reshape(x, [-1, x_shape[-1]])
        yt = tf.reshape(tf.transpose(y, perm=y_perm), [y_shape[-2], -1])
        return tf.reshape(tf.matmul(xt, yt), x_shape[:-1] + y_shape[:-2] + y_shape[-1:])
    return tf.matmul(x, y)


def batch_dot(x, y, axes=None):
    """Per-sample dot product of two batches (2D or 3D operands) over `axes`."""
    rank_x, rank_y = x.shape.rank, y.shape.rank
    if rank_x not in (2, 3) or rank_y not in (2, 3):
        raise NotImplementedError("tfcompat's keras.backend.batch_dot takes 2D or 3D operands")
    if axes is None:
        axes = [rank_x - 1, rank_y - 2 if rank_y == 3 else 1]
    if isinstance(axes, int):
        axes = [axes, axes]
    ax, ay = (a % r for a, r in zip(axes, (rank_x, rank_y)))
    letters_x = "bi"[:rank_x] if rank_x == 2 else "bij"
    letters_y = "bk"[:rank_y] if rank_y == 2 else "bkl"
    letters_y = letters_y[:ay] + letters_x[ax] + letters_y[ay + 1:]
    out = "b" + "".join(c for c in letters_x[1:] if c != letters_x[ax]) + \
        "".join(c for c in letters_y[1:] if c != letters_x[ax])
    result = tf.einsum(f"{letters_x},{letters_y}->{out}", x, y)
    return tf.expand_dims(result, 1) if len(out) == 1 else result


def l2_normalize(x, axis=None):
    return tf.linalg.l2_normalize(x, axis=axis)


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    return tf.nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def bias_add(x, bias, data_format=None):
    """`x + bias` along the channel axis that `data_format` names."""
    if _data_format(data_format) == "channels_first":
        rank = x.shape.rank
        return x + tf.reshape(bias, [1, -1] + [1] * (rank - 2))
    return tf.nn.bias_add(x, bias)


# -- activations and losses -----------------------------------------------------------------------------------------
def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """Rectified linear unit with a negative slope `alpha`, a cap `max_value` and a `threshold`."""
    x = tf.convert_to_tensor(x)
    if alpha != 0.0:
        negative = tf.nn.relu(-x + threshold) if threshold != 0 else tf.nn.relu(-x)
    if threshold != 0:
        x = x * tf.cast(tf.greater(x, threshold), dtype=x.dtype)
    elif max_value == 6:
        x = tf.nn.relu6(x)
        max_value = None
    else:
        x = tf.nn.relu(x)
    if max_value is not None:
        x = tf.clip_by_value(x, tf.constant(0, dtype=x.dtype), tf.constant(max_value, dtype=x.dtype))
    if alpha != 0.0:
        x -= tf.constant(alpha, dtype=x.dtype) * negative
    return x


def elu(x, alpha=1.0):
    res = tf.nn.elu(x)
    return res if alpha == 1 else tf.where(x > 0, res, alpha * res)


def hard_sigmoid(x):
    """`clip(0.2 * x + 0.5, 0, 1)`."""
    x = tf.convert_to_tensor(x)
    return tf.clip_by_value(x * tf.constant(0.2, x.dtype) + tf.constant(0.5, x.dtype), 0.0, 1.0)


def softmax(x, axis=-1):
    """Softmax over `axis`; a 1D input is a ValueError as in Keras."""
    x = tf.convert_to_tensor(x)
    if x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return tf.nn.softmax(x, axis=axis)


def clip(x, min_value, max_value):
    """`x` clipped to [min_value, max_value] (max_value below min_value is raised to it)."""
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    if min_value is None:
        min_value = -np.inf
    if max_value is None:
        max_value = np.inf
    return tf.clip_by_value(x, min_value, max_value)


def sqrt(x):
    """`sqrt(max(x, 0))`."""
    x = tf.convert_to_tensor(x)
    return tf.sqrt(tf.maximum(x, tf.constant(0.0, x.dtype)))


def switch(condition, then_expression, else_expression):
    """`then_expression` where `condition` holds, else `else_expression` (callables called for a scalar condition)."""
    condition = tf.cast(condition, tf.bool)
    if condition.shape.rank == 0:
        chosen = then_expression if bool(condition) else else_expression
        return chosen() if callable(chosen) else chosen
    then_expression = then_expression() if callable(then_expression) else then_expression
    else_expression = else_expression() if callable(else_expression) else else_expression
    expr_rank = then_expression.shape.rank
    if condition.shape.rank > expr_rank:
        raise ValueError("Rank of `condition` should be less than or equal to rank of `then_expression` and "
                         f"`else_expression`. ndim(condition)={condition.shape.rank}, ndim(then_expression)="
                         f"{expr_rank}")
    condition = tf.reshape(condition, condition.shape.as_list() + [1] * (expr_rank - condition.shape.rank))
    condition = tf.broadcast_to(condition, tf.shape(then_expression))
    return tf.where(condition, then_expression, else_expression)


def dropout(x, level, noise_shape=None, seed=None):
    """`tf.nn.dropout` with rate `level` (seeded from NumPy's global RNG when `seed` is None, as Keras)."""
    return tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=_seed(seed))


def in_top_k(predictions, targets, k):
    return tf.math.in_top_k(targets, predictions, k)


def _clipped(output):
    eps = tf.constant(epsilon(), output.dtype)
    return tf.clip_by_value(output, eps, 1.0 - eps)


def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary crossentropy of probabilities (or logits)."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    bce = target * tf.math.log(output + epsilon())
    bce += (1 - target) * tf.math.log(1 - output + epsilon())
    return -bce


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Crossentropy of one-hot `target` and probabilities (or logits) along `axis`."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = _clipped(output / tf.reduce_sum(output, axis, True))
    return -tf.reduce_sum(target * tf.math.log(output), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1, ignore_class=None):
    """Crossentropy of integer `target` and probabilities (or logits) on the last axis."""
    if ignore_class is not None or axis not in (-1, len(output.shape) - 1):
        raise NotImplementedError("tfcompat's keras.backend.sparse_categorical_crossentropy supports only "
                                  "axis=-1 and ignore_class=None")
    target = tf.cast(tf.convert_to_tensor(target), "int64")
    output = tf.convert_to_tensor(output)
    if not from_logits:
        output = tf.math.log(_clipped(output))
    output_shape = tf.shape(output)
    reshape = target.shape.rank != output.shape.rank - 1
    if reshape:
        target = tf.reshape(target, [-1])
        output = tf.reshape(output, [-1, output_shape[-1]])
    res = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if reshape and output_shape.shape[0] >= 3:
        res = tf.reshape(res, output_shape[:-1])
    return res


def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False):
    """Binary crossentropy scaled by `(1 - p_t) ** gamma` (and by `alpha` per class when balancing)."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    sigmoidal = tf.sigmoid(output) if from_logits else output
    p_t = target * sigmoidal + (1 - target) * (1 - sigmoidal)
    focal_bce = tf.pow(1.0 - p_t, gamma) * binary_crossentropy(target, output, from_logits=from_logits)
    if apply_class_balancing:
        focal_bce = (target * alpha + (1 - target) * (1 - alpha)) * focal_bce
    return focal_bce


def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False, axis=-1):
    """Categorical crossentropy weighted by `alpha * (1 - p) ** gamma`, summed over `axis`."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        output = tf.nn.softmax(output, axis=axis)
    output = _clipped(output / tf.reduce_sum(output, axis=axis, keepdims=True))
    cce = -target * tf.math.log(output)
    return tf.reduce_sum(tf.pow(1.0 - output, gamma) * alpha * cce, axis=axis)


# -- convolution and pooling (channels_first runs on a channels_last transpose) ------------------------------------
def _padding(padding):
    if padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding: {padding}")
    return padding.upper()


def _channels_last(x, data_format, rank):
    """`x` in channels_last layout, and the function that puts a result back in `data_format`."""
    if _data_format(data_format) == "channels_last":
        return x, lambda y: y
    to_last = [0] + list(range(2, rank + 2)) + [1]
    to_first = [0, rank + 1] + list(range(1, rank + 1))
    return tf.transpose(x, to_last), lambda y: tf.transpose(y, to_first)


def _convolution(x, kernel, strides, padding, data_format, dilation_rate, rank):
    x, back = _channels_last(x, data_format, rank)
    return back(tf.nn.convolution(x, kernel, strides=strides, padding=_padding(padding), dilations=dilation_rate))


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1D convolution (`padding="causal"` pads on the left)."""
    _data_format(data_format)
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (kernel.shape[0] - 1), 0))
        padding = "valid"
    return _convolution(x, kernel, strides, padding, data_format, dilation_rate, 1)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    return _convolution(x, kernel, strides, padding, data_format, dilation_rate, 2)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None, dilation_rate=(1, 1, 1)):
    return _convolution(x, kernel, strides, padding, data_format, dilation_rate, 3)


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    x, back = _channels_last(x, data_format, 2)
    return back(tf.nn.depthwise_conv2d(x, depthwise_kernel, strides=(1,) + tuple(strides) + (1,),
                                       padding=_padding(padding), dilations=dilation_rate))


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """2D transposed convolution, kernel `(h, w, out, in)` (`tf.nn.conv2d_transpose`); TF's CPU kernel takes
    channels_last inputs only."""
    if _data_format(data_format) == "channels_first":
        from tfcompat.framework import errors
        raise errors.kernel_error(errors.InvalidArgumentError, "Conv2DCustomBackpropInputOp only supports NHWC.",
                                  "Conv2DBackpropInput")
    if isinstance(output_shape, (tuple, list)):
        output_shape = tf.stack(list(output_shape))
    return tf.nn.conv2d_transpose(x, kernel, output_shape, strides=(1,) + tuple(strides) + (1,),
                                  padding=_padding(padding), dilations=(1,) + tuple(dilation_rate) + (1,))


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """2D separable convolution: depthwise, then pointwise (`tf.nn.separable_conv2d`)."""
    _data_format(data_format)
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    x, back = _channels_last(x, data_format, 2)
    return back(tf.nn.separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1,) + tuple(strides) + (1,),
                                       padding=_padding(padding), dilations=dilation_rate))


def gradients(loss, variables):
    """TF 1 symbolic gradients: not available while executing eagerly, as in TF 2."""
    raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                       "instead.")


def _pool(x, pool_size, strides, padding, data_format, pool_mode, rank):
    _data_format(data_format)
    if len(pool_size) != rank:
        raise ValueError(f"`pool_size` must be a tuple of {rank} integers.")
    if len(strides) != rank:
        raise ValueError(f"`strides` must be a tuple of {rank} integers.")
    x, back = _channels_last(x, data_format, rank)
    padding = _padding(padding)
    if pool_mode == "max":
        return back(tf.nn.max_pool(x, pool_size, strides, padding))
    if pool_mode == "avg":
        return back(tf.nn.avg_pool(x, pool_size, strides, padding))
    raise ValueError(f"Invalid pooling mode: {pool_mode}")


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 2)


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 3)


# -- random ---------------------------------------------------------------------------------------------------------
def _seed(seed):
    return np.random.randint(10e6) if seed is None else seed


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """`tf.random.normal` (floatx; seeded from NumPy's global RNG when `seed` is None, as Keras)."""
    return tf.random.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """`tf.random.uniform` (floatx; seeded from NumPy's global RNG when `seed` is None)."""
    return tf.random.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(), seed=_seed(seed))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """`tf.random.truncated_normal` (floatx; seeded from NumPy's global RNG when `seed` is None)."""
    return tf.random.truncated_normal(shape, mean, stddev, dtype=dtype or floatx(), seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """1 with probability `p`, else 0 (floatx)."""
    dtype = dtype or floatx()
    draw = tf.random.uniform(shape, dtype=dtype, seed=_seed(seed))
    return tf.where(draw <= p, tf.ones(shape, dtype=dtype), tf.zeros(shape, dtype=dtype))


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """A variable of normal draws."""
    dtype = dtype or floatx()
    seed = np.random.randint(10e8) if seed is None else seed
    return variable(tf.random.normal(shape, mean, scale, dtype=dtype, seed=seed), dtype=dtype, name=name)


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """A variable of uniform draws in [low, high)."""
    dtype = dtype or floatx()
    seed = np.random.randint(10e8) if seed is None else seed
    return variable(tf.random.uniform(shape, low, high, dtype=dtype, seed=seed), dtype=dtype, name=name)


# -- higher-order ---------------------------------------------------------------------------------------------------
def map_fn(fn, elems, name=None, dtype=None):
    return tf.map_fn(fn, elems, name=name, fn_output_signature=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return tf.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    return tf.foldr(fn, elems, initializer=initializer, name=name)


# -- CTC (keras/legacy_ctc.py) ----------------------------------------------------------------------------------------
from tfcompat.keras.legacy_ctc import ctc_batch_cost, ctc_decode, ctc_label_dense_to_sparse  # noqa: E402, F401
