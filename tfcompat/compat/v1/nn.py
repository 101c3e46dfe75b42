"""`tf.compat.v1.nn`: TF1's signatures of `tf.nn` ops (`keep_prob`, `dim`, `keep_dims`, `value`, `filter`), its
`softmax_cross_entropy_with_logits` (labels not differentiated) and `xw_plus_b`/`relu_layer`; every other name is
`tf.nn`'s. Ops are looked up in `EXPORTS` at each call, so TF1 graph mode's wrappers of them apply."""
from tfcompat.compat.v1.reductions import deprecated_argument_lookup
from tfcompat.framework.export import EXPORTS
from tfcompat.ops.deprecation import warn_deprecated, warn_deprecated_arg
from tfcompat.ops.candidate_sampling_ops import log_uniform_candidate_sampler, uniform_candidate_sampler  # noqa: F401
from tfcompat.ops.ctc_ops import ctc_loss_v1 as ctc_loss  # noqa: F401  (TF1's signatures from here on)
from tfcompat.ops.ctc_ops import ctc_beam_search_decoder_v1 as ctc_beam_search_decoder  # noqa: F401
from tfcompat.ops.ctc_ops import ctc_beam_search_decoder as ctc_beam_search_decoder_v2  # noqa: F401
from tfcompat.ops.embedding_sparse_ops import embedding_lookup_sparse_v1 as embedding_lookup_sparse  # noqa: F401
from tfcompat.ops.embedding_sparse_ops import safe_embedding_lookup_sparse_v1 as safe_embedding_lookup_sparse  # noqa: F401
from tfcompat.ops.nn_sampled_loss_ops import nce_loss_v1 as nce_loss  # noqa: F401
from tfcompat.ops.nn_sampled_loss_ops import sampled_softmax_loss_v1 as sampled_softmax_loss  # noqa: F401
from tfcompat.ops.space_batch_ops import space_to_batch_v1 as space_to_batch  # noqa: F401
from tfcompat.ops.nn_extra_ops import dilation2d_v1 as dilation2d, erosion2d_v1 as erosion2d  # noqa: F401
from tfcompat.ops.nn_extra_ops import sufficient_statistics_v1 as sufficient_statistics  # noqa: F401
from tfcompat.ops.fractional_pool_ops import fractional_avg_pool_v1 as fractional_avg_pool  # noqa: F401
from tfcompat.ops.fractional_pool_ops import fractional_max_pool_v1 as fractional_max_pool  # noqa: F401
from tfcompat.ops.conv_backprop_ops import (  # noqa: F401  (TF1's native names of the depthwise gradients)
    depthwise_conv2d_backprop_filter as depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_backprop_input as depthwise_conv2d_native_backprop_input)

_NN_OPS = "tensorflow.python.ops.nn_ops"


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """`tf.nn.dropout` taking TF1's `keep_prob` (`rate = 1 - keep_prob`)."""
    if keep_prob is not None:
        warn_deprecated_arg("dropout", _NN_OPS, "keep_prob",
                            "Please use `rate` instead of `keep_prob`. Rate should be set to `rate = 1 - keep_prob`.")
        if rate is not None:
            raise ValueError("Cannot specify both 'keep_prob' and 'rate'.")
        rate = 1 - keep_prob
    return EXPORTS["nn.dropout"](x, rate=rate, noise_shape=noise_shape, seed=seed, name=name)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """`tf.nn.softmax_cross_entropy_with_logits` taking TF1's `dim`."""
    axis = deprecated_argument_lookup("axis", axis, "dim", dim)
    return EXPORTS["nn.softmax_cross_entropy_with_logits"](labels, logits, axis=-1 if axis is None else axis,
                                                           name=name)


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None):
    """TF1's softmax cross-entropy: no gradient flows into `labels` (deprecated in TF)."""
    warn_deprecated("softmax_cross_entropy_with_logits", _NN_OPS,
                    "\nFuture major versions of TensorFlow will allow gradients to flow\ninto the labels input on "
                    "backprop by default.\n\nSee `tf.nn.softmax_cross_entropy_with_logits_v2`.\n")
    axis = deprecated_argument_lookup("axis", axis, "dim", None if dim == -1 else dim)
    return softmax_cross_entropy_with_logits_v2(EXPORTS["stop_gradient"](labels), logits,
                                                axis=-1 if axis is None else axis, name=name)


def softmax(logits, axis=None, name=None, dim=None):
    """`tf.nn.softmax` taking TF1's `dim`."""
    return EXPORTS["nn.softmax"](logits, axis=deprecated_argument_lookup("axis", axis, "dim", dim), name=name)


def log_softmax(logits, axis=None, name=None, dim=None):
    """`tf.nn.log_softmax` taking TF1's `dim`."""
    return EXPORTS["nn.log_softmax"](logits, axis=deprecated_argument_lookup("axis", axis, "dim", dim), name=name)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """`tf.nn.moments` taking TF1's `keep_dims`."""
    keepdims = deprecated_argument_lookup("keepdims", keepdims, "keep_dims", keep_dims)
    return EXPORTS["nn.moments"](x, axes, shift=shift, keepdims=bool(keepdims), name=name)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """`tf.nn.max_pool` taking TF1's `value`."""
    return EXPORTS["nn.max_pool"](deprecated_argument_lookup("value", value, "input", input), ksize, strides, padding,
                                  data_format=data_format, name=name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """`tf.nn.avg_pool` taking TF1's `value`."""
    return EXPORTS["nn.avg_pool"](deprecated_argument_lookup("value", value, "input", input), ksize, strides, padding,
                                  data_format=data_format, name=name)


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    """`tf.nn.conv2d` taking TF1's `filter` (`use_cudnn_on_gpu` has no effect, as on TF's CPU)."""
    return EXPORTS["nn.conv2d"](input, deprecated_argument_lookup("filters", filters, "filter", filter), strides, padding,
                                data_format=data_format, dilations=list(dilations), name=name)


def xw_plus_b(x, weights, biases, name=None):
    """`matmul(x, weights) + biases`."""
    return EXPORTS["nn.bias_add"](EXPORTS["linalg.matmul"](x, weights), biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """`relu(matmul(x, weights) + biases)`."""
    return EXPORTS["nn.relu"](xw_plus_b(x, weights, biases), name=name)


def __getattr__(attr):
    if attr.startswith("__"):
        raise AttributeError(attr)
    if attr == "rnn_cell":              # TF 2.21 + Keras 3: a loader whose every attribute is missing
        from tfcompat.compat.v1.keras3_legacy import rnn_cell
        return rnn_cell
    if f"nn.{attr}" in EXPORTS:
        return EXPORTS[f"nn.{attr}"]
    raise AttributeError(f"module 'tensorflow.compat.v1.nn' has no attribute '{attr}'")
