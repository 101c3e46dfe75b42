"""tf.nn ops against golden values recorded from TensorFlow 2.21 (CPU).

The cases below were run under real TF (`fused_batch_norm` as `tf.compat.v1.nn.fused_batch_norm`) and
summarised in GOLD: small outputs in full, larger ones as (shape, dtype, sum, sum of |x|, 6 sampled elements).
"""
import numpy as np
import pytest
import torch

import tfcompat as tf
from tfcompat.ops.nn_ops import fused_batch_norm

# --- cases ---
def _a(*shape, dt=np.float32, scale=0.1, off=0.0):
    n = int(np.prod(shape))
    return ((np.arange(n) % 17 - 8) * scale + off).astype(dt).reshape(shape)


def _b(*shape, dt=np.float32):
    n = int(np.prod(shape))
    return (np.cos(np.arange(n) * 1.3) * 0.5).astype(dt).reshape(shape)


def _grads(tf, f, *values):
    vs = [tf.Variable(v) for v in values]
    with tf.GradientTape() as tape:
        y = f(*vs)
        loss = tf.reduce_sum(y * _b(*y.shape))
    return tuple(tape.gradient(loss, vs))


def _cases(tf, fused_batch_norm):
    x4, x4e, k33, k22 = _a(2, 7, 6, 3), _a(1, 8, 8, 3), _b(3, 3, 3, 4), _b(2, 2, 3, 2)
    return {
        "relu": lambda: tf.nn.relu(_a(10)),
        "relu_int": lambda: tf.nn.relu(tf.constant([-1, 2])),
        "relu6": lambda: tf.nn.relu6(_a(20, scale=0.5)),
        "elu": lambda: tf.nn.elu(_a(10)),
        "selu": lambda: tf.nn.selu(_a(10)),
        "gelu": lambda: tf.nn.gelu(_a(10)),
        "gelu_approx": lambda: tf.nn.gelu(_a(10), approximate=True),
        "gelu_f64": lambda: tf.nn.gelu(_a(10, dt=np.float64), approximate=True),
        "leaky_relu": lambda: tf.nn.leaky_relu(_a(10)),
        "leaky_relu_int": lambda: tf.nn.leaky_relu(tf.constant([-3, 2]), 0.5),
        "crelu": lambda: tf.nn.crelu(_a(2, 3)),
        "crelu_axis0": lambda: tf.nn.crelu(_a(2, 3), axis=0),
        "silu": lambda: tf.nn.silu(_a(10)),
        "swish_beta": lambda: tf.nn.swish(_a(10), beta=2.0),
        "softmax": lambda: tf.nn.softmax(_a(2, 5)),
        "softmax_axis0": lambda: tf.nn.softmax(_a(2, 5), axis=0),
        "log_softmax": lambda: tf.nn.log_softmax(_a(2, 5)),
        "softmax_xent": lambda: tf.nn.softmax_cross_entropy_with_logits(
            labels=tf.nn.softmax(_b(3, 4)), logits=_a(3, 4)),
        "softmax_xent_axis0": lambda: tf.nn.softmax_cross_entropy_with_logits(
            labels=tf.nn.softmax(_b(3, 4), axis=0), logits=_a(3, 4), axis=0),
        "sparse_xent": lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([0, 3, 1], np.int32), logits=_a(3, 4)),
        "sparse_xent_3d": lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=np.array([[0, 3], [1, 2]], np.int64), logits=_a(2, 2, 4)),
        "sigmoid_xent": lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=np.abs(_b(6)), logits=_a(6, scale=1.0)),
        "weighted_xent": lambda: tf.nn.weighted_cross_entropy_with_logits(np.abs(_b(6)), _a(6, scale=1.0), 3.0),
        "l2_loss": lambda: tf.nn.l2_loss(_a(3, 4)),
        "log_poisson": lambda: tf.nn.log_poisson_loss(np.arange(6, dtype=np.float32) * 0.7, _a(6)),
        "log_poisson_full": lambda: tf.nn.log_poisson_loss(np.arange(6, dtype=np.float32) * 0.7, _a(6),
                                                           compute_full_loss=True),
        "average_loss": lambda: tf.nn.compute_average_loss(tf.constant([1., 2., 3.])),
        "average_loss_gbs": lambda: tf.nn.compute_average_loss(tf.constant([1., 2., 3.]), global_batch_size=6),
        "average_loss_weighted": lambda: tf.nn.compute_average_loss(tf.constant([1., 2., 3.]),
                                                                    sample_weight=[1., 0., 2.]),
        "average_loss_2d": lambda: tf.nn.compute_average_loss(tf.constant([[1., 2.], [3., 4.]])),
        "average_loss_int": lambda: tf.nn.compute_average_loss(tf.constant([1, 2])),
        "scale_reg_loss": lambda: tf.nn.scale_regularization_loss([tf.constant(1.), tf.constant(2.)]),
        "l2_normalize": lambda: tf.nn.l2_normalize(_a(3, 4), axis=1),
        "l2_normalize_all": lambda: tf.nn.l2_normalize(_a(3, 4)),
        "moments": lambda: tf.nn.moments(_a(2, 3, 4), axes=[0, 1]),
        "moments_keepdims": lambda: tf.nn.moments(_a(2, 3, 4), axes=[1], keepdims=True),
        "moments_int": lambda: tf.nn.moments(tf.constant([1, 2, 4]), [0]),
        "moments_f16": lambda: tf.nn.moments(tf.constant([1., 2.], tf.float16), [0]),
        "weighted_moments": lambda: tf.nn.weighted_moments(_a(2, 3, 4), axes=[0, 1],
                                                           frequency_weights=np.abs(_b(2, 3, 1))),
        "normalize_moments": lambda: tf.nn.normalize_moments(4.0, _a(3), np.abs(_a(3, off=1.0)), None),
        "batch_normalization": lambda: tf.nn.batch_normalization(_a(2, 3), _a(3, off=0.1), np.abs(_a(3, off=1.0)),
                                                                 _b(3), _b(3) + 1, 1e-3),
        "fused_bn_train": lambda: fused_batch_norm(_a(2, 3, 2, 3), [1., 2., 3.], [0.1, 0.2, 0.3]),
        "fused_bn_avg": lambda: fused_batch_norm(_a(2, 3, 2, 3), [1., 2., 3.], [0.1, 0.2, 0.3], mean=[1., 1., 1.],
                                                 variance=[2., 2., 2.], exponential_avg_factor=0.25),
        "fused_bn_infer": lambda: fused_batch_norm(_a(2, 3, 2, 3), [1., 2., 3.], [0.1, 0.2, 0.3],
                                                   mean=[0.1, 0., -.1], variance=[1., 2., 3.], is_training=False),
        "fused_bn_nchw": lambda: fused_batch_norm(np.transpose(_a(2, 3, 2, 3), (0, 3, 1, 2)), [1., 2., 3.],
                                                  [0.1, 0.2, 0.3], data_format="NCHW"),
        "lrn": lambda: tf.nn.local_response_normalization(_a(1, 2, 2, 7), depth_radius=2, bias=1.0, alpha=0.5,
                                                          beta=0.75),
        "embedding": lambda: tf.nn.embedding_lookup(_a(10, 3), np.array([[1, 9], [0, 0]], np.int32)),
        "embedding_sharded": lambda: tf.nn.embedding_lookup(
            [_a(4, 2), _a(3, 2, off=5.0), _a(3, 2, off=10.0)], np.array([0, 4, 7, 9, 3], np.int64)),
        "conv_valid": lambda: tf.nn.conv2d(x4, k33, 1, "VALID"),
        "conv_same": lambda: tf.nn.conv2d(x4, k33, 1, "SAME"),
        "conv_same_s2_odd": lambda: tf.nn.conv2d(x4, k33, 2, "SAME"),
        "conv_same_s2_even": lambda: tf.nn.conv2d(x4e, k33, 2, "SAME"),
        "conv_same_k2_s2": lambda: tf.nn.conv2d(x4, k22, [1, 2, 2, 1], "SAME"),
        "conv_same_k2": lambda: tf.nn.conv2d(x4, k22, 1, "SAME"),
        "conv_dilated": lambda: tf.nn.conv2d(x4, k33, 1, "SAME", dilations=2),
        "conv_dilated_valid": lambda: tf.nn.conv2d(x4, k22, 1, "VALID", dilations=[2, 3]),
        "conv_strides_21": lambda: tf.nn.conv2d(x4, k33, [2, 1], "SAME"),
        "conv_explicit": lambda: tf.nn.conv2d(x4, k33, 2, [[0, 0], [1, 2], [0, 1], [0, 0]]),
        "conv_f64": lambda: tf.nn.conv2d(x4.astype(np.float64), k33.astype(np.float64), 2, "SAME"),
        "conv_nchw": lambda: tf.nn.conv2d(np.transpose(x4, (0, 3, 1, 2)), k33, 1, "SAME", data_format="NCHW"),
        "conv1d": lambda: tf.nn.conv1d(_a(2, 9, 3), _b(3, 3, 2), 2, "SAME"),
        "conv1d_dilated": lambda: tf.nn.conv1d(_a(2, 9, 3), _b(3, 3, 2), 1, "VALID", dilations=2),
        "conv3d": lambda: tf.nn.conv3d(_a(1, 5, 4, 6, 2), _b(2, 3, 2, 2, 3), [1, 2, 2, 2, 1], "SAME"),
        "convolution": lambda: tf.nn.convolution(x4, k33, strides=2, padding="SAME"),
        "atrous": lambda: tf.nn.atrous_conv2d(x4, k33, 2, "SAME"),
        "depthwise": lambda: tf.nn.depthwise_conv2d(x4, _b(3, 3, 3, 2), [1, 2, 2, 1], "SAME"),
        "depthwise_dilated": lambda: tf.nn.depthwise_conv2d(x4, _b(3, 3, 3, 2), [1, 1, 1, 1], "SAME",
                                                            dilations=[2, 2]),
        "separable": lambda: tf.nn.separable_conv2d(x4, _b(3, 3, 3, 2), _b(1, 1, 6, 4), [1, 1, 1, 1], "VALID"),
        "conv2d_transpose": lambda: tf.nn.conv2d_transpose(_a(2, 4, 3, 4), _b(3, 3, 2, 4), [2, 8, 6, 2], 2, "SAME"),
        "conv2d_transpose_odd": lambda: tf.nn.conv2d_transpose(_a(2, 4, 3, 4), _b(3, 3, 2, 4), [2, 7, 5, 2], 2),
        "conv2d_transpose_valid": lambda: tf.nn.conv2d_transpose(_a(2, 4, 3, 4), _b(3, 3, 2, 4), [2, 9, 7, 2], 2,
                                                                 "VALID"),
        "conv2d_transpose_valid_extra": lambda: tf.nn.conv2d_transpose(_a(2, 4, 3, 4), _b(3, 3, 2, 4),
                                                                       [2, 10, 8, 2], 2, "VALID"),
        "conv2d_transpose_k4": lambda: tf.nn.conv2d_transpose(_a(1, 3, 3, 4), _b(4, 4, 2, 4), [1, 6, 6, 2],
                                                              [1, 2, 2, 1], "SAME"),
        "conv2d_transpose_dilated": lambda: tf.nn.conv2d_transpose(_a(1, 5, 5, 4), _b(3, 3, 2, 4), [1, 5, 5, 2], 1,
                                                                   "SAME", dilations=2),
        "conv1d_transpose": lambda: tf.nn.conv1d_transpose(_a(1, 4, 3), _b(3, 2, 3), [1, 8, 2], 2),
        "conv3d_transpose": lambda: tf.nn.conv3d_transpose(_a(1, 2, 3, 2, 2), _b(3, 3, 3, 2, 2), [1, 4, 6, 3, 2], 2),
        "bias_add": lambda: tf.nn.bias_add(_a(2, 2, 3), _b(3)),
        "bias_add_nchw": lambda: tf.nn.bias_add(_a(2, 3, 2), _b(3), data_format="NCHW"),
        "max_pool_same_odd": lambda: tf.nn.max_pool2d(x4, 3, 2, "SAME"),
        "max_pool_same_even": lambda: tf.nn.max_pool2d(x4e, 3, 2, "SAME"),
        "max_pool_valid": lambda: tf.nn.max_pool2d(x4, 2, 2, "VALID"),
        "max_pool_k2_s1": lambda: tf.nn.max_pool2d(x4, 2, 1, "SAME"),
        "max_pool_explicit": lambda: tf.nn.max_pool2d(_a(1, 4, 4, 1), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]),
        "max_pool_nchw": lambda: tf.nn.max_pool2d(_a(1, 2, 4, 4), 2, 2, "VALID", data_format="NCHW"),
        "max_pool_int": lambda: tf.nn.max_pool2d(tf.constant(np.arange(120, dtype=np.int32).reshape(2, 5, 4, 3)),
                                                 2, 2, "SAME"),
        "avg_pool_same_odd": lambda: tf.nn.avg_pool2d(x4, 3, 2, "SAME"),
        "avg_pool_same_even": lambda: tf.nn.avg_pool2d(x4e, 3, 2, "SAME"),
        "avg_pool_k2_s1": lambda: tf.nn.avg_pool2d(x4, 2, 1, "SAME"),
        "avg_pool_k3_s1": lambda: tf.nn.avg_pool2d(x4, 3, 1, "SAME"),
        "avg_pool_valid": lambda: tf.nn.avg_pool2d(x4, [2, 3], [2, 1], "VALID"),
        "avg_pool_nchw": lambda: tf.nn.avg_pool2d(_a(1, 2, 4, 4), 3, 2, "SAME", data_format="NCHW"),
        "max_pool1d": lambda: tf.nn.max_pool1d(_a(2, 9, 3), 3, 2, "SAME"),
        "avg_pool1d": lambda: tf.nn.avg_pool1d(_a(2, 9, 3), 2, 2, "SAME"),
        "max_pool3d": lambda: tf.nn.max_pool3d(_a(1, 5, 4, 3, 2), 2, 2, "SAME"),
        "avg_pool3d": lambda: tf.nn.avg_pool3d(_a(1, 5, 4, 3, 2), 2, 2, "SAME"),
        "max_pool_nd": lambda: tf.nn.max_pool(x4, 3, 2, "SAME"),
        "avg_pool_nd": lambda: tf.nn.avg_pool(x4, 3, 2, "SAME"),
        "pool_avg": lambda: tf.nn.pool(x4, [3, 3], "AVG", strides=[2, 2], padding="SAME"),
        "pool_max": lambda: tf.nn.pool(x4, [2, 2], "MAX", strides=[1, 2], padding="SAME"),
        "max_pool_argmax": lambda: tf.nn.max_pool_with_argmax(x4, 3, 2, "SAME"),
        "max_pool_argmax_batch": lambda: tf.nn.max_pool_with_argmax(_b(2, 5, 4, 3), 2, 2, "SAME",
                                                                    include_batch_in_index=True),
        "depth_to_space": lambda: tf.nn.depth_to_space(_a(1, 2, 3, 8), 2),
        "space_to_depth": lambda: tf.nn.space_to_depth(_a(1, 4, 6, 2), 2),
        "grad_conv": lambda: _grads(tf, lambda x, k: tf.nn.conv2d(x, k, 2, "SAME"), _a(2, 7, 6, 3), k33),
        "grad_conv_transpose": lambda: _grads(tf, lambda x, k: tf.nn.conv2d_transpose(x, k, [2, 7, 5, 2], 2),
                                              _a(2, 4, 3, 4), _b(3, 3, 2, 4)),
        "grad_depthwise": lambda: _grads(tf, lambda x, k: tf.nn.depthwise_conv2d(x, k, [1, 2, 2, 1], "SAME"),
                                         _a(2, 7, 6, 3), _b(3, 3, 3, 2)),
        "grad_max_pool": lambda: _grads(tf, lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"), _b(2, 7, 6, 3)),
        "grad_avg_pool": lambda: _grads(tf, lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), _a(2, 7, 6, 3)),
        "grad_softmax_xent": lambda: _grads(tf, lambda lab, x: tf.nn.softmax_cross_entropy_with_logits(lab, x),
                                            np.abs(_b(3, 4)), _a(3, 4)),
        "grad_sparse_xent": lambda: _grads(
            tf, lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(np.array([1, 0, 3]), x), _a(3, 4)),
        "grad_moments": lambda: _grads(tf, lambda x: tf.stack(tf.nn.moments(x, [0])), _a(5, 2)),
        "grad_bias_add": lambda: _grads(tf, tf.nn.bias_add, _a(2, 3), _b(3)),
        "grad_l2_normalize": lambda: _grads(tf, lambda x: tf.nn.l2_normalize(x, 1), _a(3, 4)),
        "grad_gelu": lambda: _grads(tf, tf.nn.gelu, _a(8)),
        "grad_batch_normalization": lambda: _grads(
            tf, lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3), _a(4, 3), _b(3),
            np.abs(_b(3)) + 0.5, _a(3), _b(3)),
    }
# --- end cases ---


GOLD = {
    'relu': ([10], 'float32', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1]),
    'relu_int': ([2], 'int32', [0, 2]),
    'relu6': ([20], 'float32', 18.0, 18.0, [0.0, 0.0, 0.0, 1.5, 3.5, 0.0]),
    'elu':
        ([10], 'float32',
         [-0.550671, -0.5034147, -0.4511884, -0.3934693, -0.32968, -0.2591818, -0.1812692, -0.09516263, 0.0, 0.1]),
    'selu':
        ([10], 'float32',
         [-0.9681344, -0.885053, -0.793234, -0.6917582, -0.5796101, -0.4556673, -0.3186893, -0.1673054, 0.0,
          0.1050701]),
    'gelu':
        ([10], 'float32',
         [-0.1694843, -0.1693746, -0.1645519, -0.1542688, -0.1378313, -0.1146266, -0.08414806, -0.04601722, 0.0,
          0.05398278]),
    'gelu_approx':
        ([10], 'float32',
         [-0.1695683, -0.1694299, -0.1645848, -0.154286, -0.1378388, -0.1146291, -0.08414857, -0.04601725, 0.0,
          0.05398275]),
    'gelu_f64':
        ([10], 'float64',
         [-0.1695683, -0.1694299, -0.1645848, -0.154286, -0.1378388, -0.1146291, -0.08414857, -0.04601725, 0.0,
          0.05398275]),
    'leaky_relu': ([10], 'float32', [-0.16, -0.14, -0.12, -0.1, -0.08000001, -0.06, -0.04, -0.02, 0.0, 0.1]),
    'leaky_relu_int': ([2], 'float32', [-1.5, 2.0]),
    'crelu': ([2, 6], 'float32', [0.0, 0.0, 0.0, 0.8, 0.7, 0.6, 0.0, 0.0, 0.0, 0.5, 0.4, 0.3]),
    'crelu_axis0': ([4, 3], 'float32', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]),
    'silu':
        ([10], 'float32',
         [-0.2480204, -0.2322685, -0.2126062, -0.1887703, -0.1605249, -0.1276672, -0.09003319, -0.04750208, 0.0,
          0.05249792]),
    'swish_beta':
        ([10], 'float32',
         [-0.1343853, -0.1384713, -0.1388851, -0.1344707, -0.1240102, -0.1063031, -0.08026246, -0.04501659, 0.0,
          0.0549834]),
    'softmax':
        ([2, 5], 'float32',
         [0.1621204, 0.1791707, 0.1980142, 0.2188396, 0.2418551, 0.1621204, 0.1791707, 0.1980142, 0.2188396,
          0.2418551]),
    'softmax_axis0':
        ([2, 5], 'float32',
         [0.3775406, 0.3775406, 0.3775406, 0.3775406, 0.3775406, 0.6224594, 0.6224594, 0.6224594, 0.6224594,
          0.6224594]),
    'log_softmax':
        ([2, 5], 'float32',
         [-1.819416, -1.719416, -1.619416, -1.519416, -1.419416, -1.819416, -1.719416, -1.619416, -1.519416,
          -1.419416]),
    'softmax_xent': ([3], 'float32', [1.433016, 1.420337, 1.385069]),
    'softmax_xent_axis0': ([4], 'float32', [1.248664, 1.128217, 1.0378, 1.110805]),
    'sparse_xent': ([3], 'float32', [1.542536, 1.242535, 1.442536]),
    'sparse_xent_3d': ([2, 2], 'float32', [1.542536, 1.242535, 1.442536, 1.342535]),
    'sigmoid_xent': ([6], 'float32', [4.000335, 0.9371573, 2.573142, 1.821546, 0.9551833, 1.513469]),
    'weighted_xent': ([6], 'float32', [12.00067, 2.809893, 7.716596, 5.456082, 2.837754, 4.490682]),
    'l2_loss': ([], 'float32', [1.09]),
    'log_poisson': ([6], 'float32', [0.449329, 0.9865853, 1.388812, 1.656531, 1.79032, 1.790818]),
    'log_poisson_full': ([6], 'float32', [0.449329, 0.9865853, 1.547047, 2.404506, 3.307003, 4.220809]),
    'average_loss': ([], 'float32', [2.0]),
    'average_loss_gbs': ([], 'float32', [1.0]),
    'average_loss_weighted': ([], 'float32', [2.333333]),
    'average_loss_2d': ([], 'float32', [5.0]),
    'average_loss_int': ([], 'float64', [1.5]),
    'scale_reg_loss': ([], 'float32', [3.0]),
    'l2_normalize':
        ([3, 4], 'float32',
         [-0.6064785, -0.5306686, -0.4548589, -0.379049, -0.7302968, -0.5477226, -0.3651484, -0.1825742, 0.0,
          0.2672612, 0.5345225, 0.8017837]),
    'l2_normalize_all':
        ([3, 4], 'float32',
         [-0.5418284, -0.4740998, -0.4063713, -0.3386427, -0.2709142, -0.2031857, -0.1354571, -0.06772855, 0.0,
          0.06772855, 0.1354571, 0.2031857]),
    'moments':
        [([4], 'float32', [-0.08333334, -0.2666667, -0.1666667, -0.06666667]),
         ([4], 'float32', [0.3013889, 0.2022222, 0.2022222, 0.2022222])],
    'moments_keepdims':
        [([2, 1, 4], 'float32', [-0.4, -0.3, -0.2, -0.1, 0.2333333, -0.2333333, -0.1333333, -0.03333335]),
         ([2, 1, 4], 'float32',
          [0.1066667, 0.1066667, 0.1066667, 0.1066667, 0.2955556, 0.2955556, 0.2955556, 0.2955556])],
    'moments_int': [([], 'int32', [2]), ([], 'int32', [1])],
    'moments_f16': [([], 'float16', [1.5]), ([], 'float16', [0.25])],
    'weighted_moments':
        [([4], 'float32', [-0.1699732, -0.2553981, -0.1553981, -0.05539807]),
         ([4], 'float32', [0.2837549, 0.2048805, 0.2048806, 0.2048805])],
    'normalize_moments': [([3], 'float32', [-0.2, -0.175, -0.15]), ([3], 'float32', [0.009999998, 0.044375, 0.0775])],
    'batch_normalization': ([2, 3], 'float32', [0.1654253, -0.07289982, -0.5187025, 1.16915, 0.5470479, -0.2479281]),
    'fused_bn_train':
        [([2, 3, 2, 3], 'float32', 7.2, 62.94064,
          [-1.451133, -0.02875938, 4.463873, -0.6755667, 1.539876, -3.457642]),
         ([3], 'float32', [0.0, -0.04166667, -0.08333334]), ([3], 'float32', [0.2890909, 0.2826515, 0.2633334])],
    'fused_bn_avg':
        [([2, 3, 2, 3], 'float32', 7.2, 62.94064,
          [-1.451133, -0.02875938, 4.463873, -0.6755667, 1.539876, -3.457642]),
         ([3], 'float32', [0.75, 0.7395833, 0.7291667]), ([3], 'float32', [1.572273, 1.570663, 1.565833])],
    'fused_bn_infer':
        [([2, 3, 2, 3], 'float32', 5.640022, 22.2668,
          [-0.7995504, 0.05861399, 1.512234, -0.3997502, 0.6241581, -0.7390572]),
         ([3], 'float32', [0.1, 0.0, -0.1]), ([3], 'float32', [1.0, 2.0, 3.0])],
    'fused_bn_nchw':
        [([2, 3, 3, 2], 'float32', 7.2, 62.94064,
          [-1.451133, -1.205236, 0.8077894, 0.4877834, 2.716353, -3.457642]),
         ([3], 'float32', [4.967054e-09, -0.04166667, -0.08333334]),
         ([3], 'float32', [0.2890909, 0.2826515, 0.2633334])],
    'lrn':
        ([1, 2, 2, 7], 'float32', -2.153755, 7.763328,
         [-0.5269185, -0.2507659, 0.1800971, 0.4269539, -0.3613732, 0.1963302]),
    'embedding': ([2, 2, 3], 'float32', [-0.5, -0.4, -0.3, 0.2, 0.3, 0.4, -0.8, -0.7, -0.6, -0.8, -0.7, -0.6]),
    'embedding_sharded': ([5, 2], 'float32', [-0.8, -0.7, 4.2, 4.3, 9.2, 9.3, 9.6, 9.7, -0.2, -0.1]),
    'conv_valid':
        ([2, 5, 4, 4], 'float32', -0.991654, 42.00813,
         [-0.2093073, 0.4018387, 0.1003792, -0.2335235, 0.2587839, 0.134049]),
    'conv_same':
        ([2, 7, 6, 4], 'float32', 1.475932, 81.61067,
         [-0.1021982, 0.4018387, -0.1836814, -0.5001078, -0.08387519, 0.05766529]),
    'conv_same_s2_odd':
        ([2, 4, 3, 4], 'float32', -0.8998688, 22.02214,
         [0.1025434, -0.6635735, -0.05857386, 0.02240758, 0.635913, 0.05766529]),
    'conv_same_s2_even':
        ([1, 4, 4, 4], 'float32', 3.501804, 29.09509,
         [-0.3771021, 0.3694707, 0.2039102, 0.2309851, 0.582743, 0.7601615]),
    'conv_same_k2_s2':
        ([2, 4, 3, 2], 'float32', -0.8948712, 8.883757,
         [-0.04639474, -0.02223781, 0.02556081, -0.04820762, -0.08553044, 0.008194569]),
    'conv_same_k2':
        ([2, 7, 6, 2], 'float32', -0.7386496, 32.37084,
         [-0.04639474, 0.8414808, 0.308057, 0.308057, -0.08553044, 0.1390853]),
    'conv_dilated':
        ([2, 7, 6, 4], 'float32', -0.1919352, 147.6406,
         [-0.2036687, 0.4306115, 0.2683042, 0.9544676, -1.070579, 0.1053549]),
    'conv_dilated_valid':
        ([2, 5, 3, 2], 'float32', -1.667835, 12.2191,
         [-0.116305, -0.7968835, -0.002437851, 0.8202959, -0.383061, -0.004510431]),
    'conv_strides_21':
        ([2, 4, 6, 4], 'float32', 1.259022, 45.34413,
         [-0.1021982, -0.4397191, 0.0352484, 0.468093, -0.02818611, 0.05766529]),
    'conv_explicit':
        ([2, 4, 3, 4], 'float32', -0.8998688, 22.02214,
         [0.1025434, -0.6635735, -0.05857386, 0.02240758, 0.635913, 0.05766529]),
    'conv_f64':
        ([2, 4, 3, 4], 'float64', -0.8998689, 22.02214,
         [0.1025434, -0.6635735, -0.05857388, 0.02240757, 0.6359129, 0.05766526]),
    'conv_nchw':
        ([2, 4, 7, 6], 'float32', 1.475932, 81.61067,
         [-0.1021982, -0.04166797, 0.134049, -0.2093073, 0.05252627, 0.05766529]),
    'conv1d':
        ([2, 5, 2], 'float32', 0.1169614, 3.865088,
         [0.04739119, -0.0938032, -0.3554416, -0.2316817, -0.06819718, 0.4178727]),
    'conv1d_dilated':
        ([2, 5, 2], 'float32', 0.7391446, 4.823094,
         [-0.3289157, 0.5114197, 0.1334412, -0.4426217, -0.003751516, 0.09806798]),
    'conv3d':
        ([1, 3, 2, 3, 3], 'float32', 1.807443, 16.94808,
         [-0.3595238, 0.491332, -0.4644231, -0.07640249, 0.08971726, -0.277608]),
    'convolution':
        ([2, 4, 3, 4], 'float32', -0.8998688, 22.02214,
         [0.1025434, -0.6635735, -0.05857386, 0.02240758, 0.635913, 0.05766529]),
    'atrous':
        ([2, 7, 6, 4], 'float32', -0.1919352, 147.6406,
         [-0.2036687, 0.4306115, 0.2683042, 0.9544676, -1.070579, 0.1053549]),
    'depthwise':
        ([2, 4, 3, 6], 'float32', -0.3975347, 40.85731,
         [0.1538169, 0.09317522, 0.3239042, -0.2821324, 0.686757, 0.2718906]),
    'depthwise_dilated':
        ([2, 7, 6, 6], 'float32', -3.423581, 154.6476,
         [-0.3066927, 0.6001285, -0.4622457, 0.5204507, 0.3013201, 0.07645246]),
    'separable':
        ([2, 5, 4, 4], 'float32', 0.409374, 29.98422,
         [-0.2132728, 0.2055088, -0.1493746, -0.1853131, 0.177744, 0.1245362]),
    'conv2d_transpose':
        ([2, 8, 6, 2], 'float32', -0.4462311, 57.93374,
         [-0.05507489, 0.2837539, -0.01887071, -0.1416407, -0.5655506, 0.1705212]),
    'conv2d_transpose_odd':
        ([2, 7, 5, 2], 'float32', -0.2256743, 43.88149,
         [-0.1803129, 0.6413307, 0.2944671, -0.4248176, 0.1634573, 0.1705212]),
    'conv2d_transpose_valid':
        ([2, 9, 7, 2], 'float32', 0.09090973, 70.7956,
         [-0.05507489, 0.0794596, -0.1029684, 0.01304826, 0.001056637, -0.1318651]),
    'conv2d_transpose_valid_extra':
        ([2, 10, 8, 2], 'float32', 0.09090978, 70.7956, [-0.05507489, 0.0, 0.0, 0.0, 0.0, 0.0]),
    'conv2d_transpose_k4':
        ([1, 6, 6, 2], 'float32', -0.08026582, 25.3439,
         [0.3246524, 0.8619724, 0.3030135, 0.3438595, -0.1862219, -1.054947]),
    'conv2d_transpose_dilated':
        ([1, 5, 5, 2], 'float32', 0.06722267, 32.61894,
         [-0.001190318, -1.053295, 0.2960253, -0.430529, 0.2653222, 0.3623313]),
    'conv1d_transpose':
        ([1, 8, 2], 'float32', -0.1678169, 2.905339,
         [-0.236558, -0.5280105, 0.2602031, 0.07344455, 0.06612274, 0.09880733]),
    'conv3d_transpose':
        ([1, 4, 6, 3, 2], 'float32', -0.8808538, 36.70296,
         [-0.5292124, 0.1165044, -0.1362647, 0.007922157, 0.2553879, 0.002673284]),
    'bias_add':
        ([2, 2, 3], 'float32',
         [-0.3, -0.5662506, -1.028444, 0.0, -0.2662506, -0.7284444, 0.3, 0.03374941, -0.4284444, 0.6, 0.3337494,
          -0.1284444]),
    'bias_add_nchw':
        ([2, 3, 2], 'float32',
         [-0.3, -0.2, -0.4662506, -0.3662506, -0.8284444, -0.7284444, 0.3, 0.4, 0.1337494, 0.2337494, -0.2284444,
          -0.1284444]),
    'max_pool_same_odd': ([2, 4, 3, 3], 'float32', 34.4, 37.6, [-0.1, 0.8, 0.5, -0.2, 0.8, 0.5]),
    'max_pool_same_even': ([1, 4, 4, 3], 'float32', 33.6, 33.6, [0.6, 0.7, 0.8, 0.7, 0.8, 0.6]),
    'max_pool_valid': ([2, 3, 3, 3], 'float32', 17.1, 24.1, [-0.4, -0.1, 0.6, 0.7, 0.0, 0.4]),
    'max_pool_k2_s1': ([2, 7, 6, 3], 'float32', 68.4, 111.6, [-0.4, 0.8, 0.8, 0.7, 0.8, 0.5]),
    'max_pool_explicit': ([1, 3, 3, 1], 'float32', [-0.8, -0.6, -0.5, 0.0, 0.2, 0.3, 0.4, 0.6, 0.7]),
    'max_pool_nchw': ([1, 2, 2, 2], 'float32', [-0.3, -0.1, 0.5, 0.7, 0.8, -0.2, 0.4, 0.6]),
    'max_pool_int': ([2, 3, 2, 3], 'int32', 2484.0, 2484.0, [15.0, 40.0, 53.0, 81.0, 106.0, 119.0]),
    'avg_pool_same_odd':
        ([2, 4, 3, 3], 'float32', -1.191667, 16.53056, [-0.45, 0.3111111, 0.15, -0.4, 0.04444445, 0.3]),
    'avg_pool_same_even':
        ([1, 4, 4, 3], 'float32', 0.2972222, 4.708333,
         [-0.1777778, -0.1333333, 0.1555555, -0.07777778, 0.1833333, -0.04999999]),
    'avg_pool_k2_s1': ([2, 7, 6, 3], 'float32', -4.000001, 74.2, [-0.6, -0.275, 0.05, -0.05, 0.275, 0.5]),
    'avg_pool_k3_s1':
        ([2, 7, 6, 3], 'float32', -0.3055564, 56.15, [-0.6, 0.04444445, 0.1333333, 0.2222223, 0.3666667, 0.3]),
    'avg_pool_valid': ([2, 3, 4, 3], 'float32', 1.183333, 14.91667, [-0.45, -0.05, 0.35, -9.934108e-09, -0.45, 0.05]),
    'avg_pool_nchw': ([1, 2, 2, 2], 'float32', [-0.3, -0.15, 0.3, 0.45, -0.2111111, -0.25, 0.2, 0.35]),
    'max_pool1d': ([2, 5, 3], 'float32', 11.2, 14.2, [-0.5, 0.3, -0.2, 0.7, 0.2, 0.8]),
    'avg_pool1d': ([2, 5, 3], 'float32', -2.1, 11.4, [-0.65, 0.15, -0.35, 0.55, 0.05, -0.6]),
    'max_pool3d': ([1, 3, 2, 2, 2], 'float32', 15.3, 15.3, [0.7, 0.6, 0.7, 0.8, 0.7, 0.3]),
    'avg_pool3d': ([1, 3, 2, 2, 2], 'float32', 0.35, 3.15, [-0.05000002, -0.125, -0.0375, -0.1125, 0.15, -0.25]),
    'max_pool_nd': ([2, 4, 3, 3], 'float32', 34.4, 37.6, [-0.1, 0.8, 0.5, -0.2, 0.8, 0.5]),
    'avg_pool_nd': ([2, 4, 3, 3], 'float32', -1.191667, 16.53056, [-0.45, 0.3111111, 0.15, -0.4, 0.04444445, 0.3]),
    'pool_avg': ([2, 4, 3, 3], 'float32', -1.191667, 16.53056, [-0.45, 0.3111111, 0.15, -0.4, 0.04444445, 0.3]),
    'pool_max': ([2, 7, 3, 3], 'float32', 39.0, 55.8, [-0.4, 0.8, 0.8, 0.7, 0.8, 0.5]),
    'max_pool_argmax':
        [([2, 4, 3, 3], 'float32', 34.4, 37.6, [-0.1, 0.8, 0.5, -0.2, 0.8, 0.5]),
         ([2, 4, 3, 3], 'int64', 5190.0, 5190.0, [24.0, 50.0, 115.0, 33.0, 77.0, 125.0])],
    'max_pool_argmax_batch':
        [([2, 3, 2, 3], 'float32', 13.61231, 13.61231,
          [0.5, 0.2338659, 0.4884841, 0.3227819, 0.4544669, 0.4999968]),
         ([2, 3, 2, 3], 'int64', 2274.0, 2274.0, [0.0, 25.0, 53.0, 78.0, 106.0, 116.0])],
    'depth_to_space': ([1, 4, 6, 2], 'float32', -2.1, 19.5, [-0.8, -0.8, 0.6, 0.7, 0.4, 0.5]),
    'space_to_depth': ([1, 2, 3, 8], 'float32', -2.1, 19.5, [-0.8, -0.3, 0.2, -0.6, -0.1, 0.5]),
    'grad_conv':
        [([2, 7, 6, 3], 'float32', -1.452465, 87.19995,
          [-0.5779606, 0.3272707, 0.1119436, 0.2581104, 0.2170946, -0.4796778]),
         ([3, 3, 3, 4], 'float32', 0.5168286, 45.24399,
          [-0.4968963, 0.4631213, -0.3549082, -0.4295772, 0.4052784, -0.9922534])],
    'grad_conv_transpose':
        [([2, 4, 3, 4], 'float32', -0.1214018, 86.7246,
          [-0.6103491, 0.5580911, -1.1626, 0.8243147, 0.4735668, -0.1739929]),
         ([3, 3, 2, 4], 'float32', 1.804319, 47.09159,
          [-0.576642, -1.483679, -0.02276647, 0.6810736, -0.1958338, 0.4724126])],
    'grad_depthwise':
        [([2, 7, 6, 3], 'float32', -0.1602661, 58.70963,
          [0.02040067, -0.1517689, 0.2847231, 0.5947925, -0.1202149, -0.2625539]),
         ([3, 3, 3, 2], 'float32', -1.181768, 30.74323,
          [0.5223118, -0.6131735, 0.3839237, 1.047381, -1.232796, -0.005050594])],
    'grad_max_pool': [([2, 7, 6, 3], 'float32', -0.1477955, 17.77526, [0.5, 0.0, 0.0, -0.2061747, 0.0, -0.1840586])],
    'grad_avg_pool':
        [([2, 7, 6, 3], 'float32', -0.1477954, 15.15619,
          [0.08333334, -0.03859833, -0.124081, 0.0264098, -0.04755398, -0.04601466])],
    'grad_softmax_xent':
        [([3, 4], 'float32',
          [0.7712678, 0.7212678, 0.6712678, 0.6212678, 0.2063132, 0.1929383, 0.1795633, 0.1661884, -0.6608907,
           -0.6180462, -0.5752018, -0.5323573]),
         ([3, 4], 'float32',
          [-0.1430809, 0.05128919, -0.0836309, -0.03715737, -0.002731179, -0.03370031, 0.03132476, -0.02477165,
           0.02855749, 0.0374762, 0.08249302, -0.08894257])],
    'grad_sparse_xent':
        [([3, 4], 'float32',
          [0.1069191, -0.3818361, 0.1305913, 0.1443257, -0.1051487, 0.0316087, 0.03493302, 0.03860696, -0.09161779,
           -0.1012533, -0.1119022, 0.3047733])],
    'grad_moments':
        [([5, 2], 'float32',
          [0.1685511, 0.08482446, 0.1342756, 0.05578717, 0.1, 0.02674988, 0.06572445, -0.00228741, 0.0314489,
           -0.0313247])],
    'grad_bias_add':
        [([2, 3], 'float32', [0.5, 0.1337494, -0.4284444, -0.3629662, 0.2342583, 0.4882938]),
         ([3], 'float32', [0.1370338, 0.3680077, 0.05984944])],
    'grad_l2_normalize':
        [([3, 4], 'float32',
          [0.3598526, 0.08459832, -0.3392001, -0.2871617, -0.0547899, 0.5296347, -0.1919883, -0.9857689, -0.7496467,
           0.6767629, 0.8353786, -0.7825066])],
    'grad_gelu':
        [([8], 'float32',
          [-0.009948909, 0.003127854, -0.03184128, -0.04809479, 0.04621219, 0.1307027, 0.009240722, -0.1992475])],
    'grad_batch_normalization':
        [([4, 3], 'float32',
          [0.2498751, 0.02245342, 0.1904045, -0.1813924, 0.03932654, -0.2170021, 0.01348212, -0.07955024, 0.1246532,
           0.1618182, 0.07616964, 0.03602255]),
         ([3], 'float32', [-0.243783, -0.05839936, -0.1340781]),
         ([3], 'float32', [0.1086963, 0.01265849, -0.01028019]),
         ([3], 'float32', [0.4878097, 0.3478703, -0.3016999]),
         ([3], 'float32', [-0.43522, -0.1201496, -0.04460258])],
}


def _summary_matches(got, gold):
    a = np.asarray(got)
    shape, dt = gold[0], gold[1]
    assert list(a.shape) == shape and str(a.dtype) == dt, (a.shape, a.dtype, gold)
    if len(gold) == 3:
        np.testing.assert_allclose(a.ravel().astype(np.float64), gold[2], rtol=2e-5, atol=2e-6)
        return
    flat = a.ravel().astype(np.float64)
    idx = np.linspace(0, a.size - 1, 6).astype(int)
    np.testing.assert_allclose(flat.sum(), gold[2], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.abs(flat).sum(), gold[3], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(flat[idx], gold[4], rtol=2e-5, atol=2e-6)


CASES = _cases(tf, fused_batch_norm)


@pytest.mark.parametrize("name", sorted(GOLD))
def test_matches_tf(name):
    result = CASES[name]()
    gold = GOLD[name]
    if isinstance(gold, list):
        assert len(result) == len(gold)
        for r, g in zip(result, gold):
            _summary_matches(r, g)
    else:
        _summary_matches(result, gold)


# -- layouts -------------------------------------------------------------------------------

def test_conv_and_pool_results_are_contiguous_nhwc():
    x = tf.constant(_a(2, 8, 8, 3))
    for y in (tf.nn.conv2d(x, _b(3, 3, 3, 4), 1, "SAME"), tf.nn.conv2d(x, _b(3, 3, 3, 4), 2, "SAME"),
              tf.nn.depthwise_conv2d(x, _b(3, 3, 3, 2), [1, 1, 1, 1], "SAME"),
              tf.nn.max_pool2d(x, 2, 2, "VALID"), tf.nn.avg_pool2d(x, 3, 2, "SAME"),
              tf.nn.conv2d_transpose(x, _b(3, 3, 2, 3), [2, 16, 16, 2], 2, "SAME", dilations=1)):
        assert y._t.is_contiguous()


def test_conv_input_is_not_copied_for_symmetric_padding(monkeypatch):
    seen = []
    real = torch.nn.functional.conv2d

    def spy(inp, *args, **kwargs):
        seen.append(inp)
        return real(inp, *args, **kwargs)

    monkeypatch.setattr(torch.nn.functional, "conv2d", spy)
    from tfcompat.ops import conv_ops
    monkeypatch.setitem(conv_ops._CONV_FN, 2, spy)
    x = tf.constant(_a(1, 6, 6, 3))
    tf.nn.conv2d(x, _b(3, 3, 3, 2), 1, "SAME")
    assert seen[0].data_ptr() == x._t.data_ptr()
    assert seen[0].is_contiguous(memory_format=torch.channels_last)


# -- dropout -------------------------------------------------------------------------------

def test_dropout_scales_kept_values_and_is_seeded():
    x = tf.ones([200, 50])
    tf.random.set_seed(3)
    y = tf.nn.dropout(x, 0.25).numpy()
    assert set(np.unique(y).tolist()) <= {0.0, np.float32(1 / 0.75)}
    assert 0.2 < (y == 0).mean() < 0.3
    tf.random.set_seed(3)
    np.testing.assert_array_equal(tf.nn.dropout(x, 0.25).numpy(), y)


def test_dropout_noise_shape_and_rate_zero():
    y = tf.nn.dropout(tf.ones([4, 30]), 0.5, noise_shape=[4, 1], seed=1).numpy()
    assert all(len(set(row.tolist())) == 1 for row in y)
    x = tf.constant([1.0, 2.0])
    assert tf.nn.dropout(x, 0.0) is x


def test_dropout_gradient():
    x = tf.Variable(tf.ones([10, 10]))
    with tf.GradientTape() as tape:
        y = tf.nn.dropout(x, 0.5, seed=5)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_array_equal(g, y.numpy())


def test_embedding_gradient_accumulates_repeated_ids():
    p = tf.Variable(_a(5, 2))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup(p, np.array([1, 1, 3])))
    np.testing.assert_array_equal(np.asarray(tape.gradient(y, p)), [[0, 0], [2, 2], [0, 0], [1, 1], [0, 0]])


# -- errors ----------------------------------------------------------------------------------

def _raises(cls, text, fn):
    with pytest.raises(cls) as info:
        fn()
    assert str(info.value) == text


def test_sparse_xent_label_out_of_range():
    _raises(tf.errors.InvalidArgumentError,
            "Received a label value of 10 which is outside the valid range of [0, 10).  Label values: 1 10 "
            "[Op:SparseSoftmaxCrossEntropyWithLogits] name: ",
            lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 10], logits=tf.zeros([2, 10])))
    _raises(tf.errors.InvalidArgumentError,
            "Received a label value of -1 which is outside the valid range of [0, 10).  Label values: -1 3 "
            "[Op:SparseSoftmaxCrossEntropyWithLogits] name: ",
            lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[-1, 3], logits=tf.zeros([2, 10])))
    _raises(ValueError, "`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                        "labels.shape=(3,) and logits.shape=(2, 10)",
            lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 3, 2], logits=tf.zeros([2, 10])))
    # TF 2.21: int64 labels at their most negative value (cross_entropy's ignore_index there) and no classes
    _raises(tf.errors.InvalidArgumentError,
            "Received a label value of -9223372036854775808 which is outside the valid range of [0, 10).  Label "
            "values: -9223372036854775808 1 [Op:SparseSoftmaxCrossEntropyWithLogits] name: ",
            lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([-2 ** 63, 1], tf.int64),
                                                                   tf.zeros([2, 10])))
    _raises(tf.errors.InvalidArgumentError,
            "Must have at least one class, but got logits shape [1,0] [Op:SparseSoftmaxCrossEntropyWithLogits] name: ",
            lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([[0]]), tf.zeros([1, 1, 0])))
    _raises(tf.errors.InvalidArgumentError,
            "Must have at least one class, but got logits shape [0,0] [Op:SparseSoftmaxCrossEntropyWithLogits] name: ",
            lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([], tf.int32), tf.zeros([0, 0])))
    empty = tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([], tf.int32), tf.zeros([0, 3]))
    assert empty.shape == (0,) and empty.dtype == tf.float32


def test_xent_shape_and_dtype_errors():
    _raises(tf.errors.InvalidArgumentError,
            "logits and labels must be broadcastable: logits_size=[2,4] labels_size=[2,3] "
            "[Op:SoftmaxCrossEntropyWithLogits] name: ",
            lambda: tf.nn.softmax_cross_entropy_with_logits(labels=tf.zeros([2, 3]), logits=tf.zeros([2, 4])))
    _raises(ValueError, "`logits` and `labels` must have the same shape, received ((3,) vs (2,)).",
            lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros([2]), logits=tf.zeros([3])))
    _raises(ValueError, "`log_input` and `targets` must have the same shape, received ((3,) vs (2,)).",
            lambda: tf.nn.log_poisson_loss([1., 2.], [1., 2., 3.]))
    _raises(tf.errors.InvalidArgumentError,
            "cannot compute Mul as input #1(zero-based) was expected to be a float tensor but is a int32 tensor "
            "[Op:Mul] name: ",
            lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([0, 1]), logits=[1., 2.]))


def test_conv_errors():
    x = tf.zeros([1, 4, 2, 3])
    _raises(tf.errors.InvalidArgumentError,
            "input depth must be evenly divisible by filter depth: 3 vs 4 [Op:Conv2D] name: ",
            lambda: tf.nn.conv2d(x, tf.zeros([2, 2, 4, 5]), 1, "VALID"))
    _raises(tf.errors.InvalidArgumentError, "convolution input must be 4-dimensional: [4,2,3] [Op:Conv2D] name: ",
            lambda: tf.nn.conv2d(tf.zeros([4, 2, 3]), tf.zeros([2, 2, 3, 5]), 1, "VALID"))
    _raises(ValueError, "strides should be of length 1, 2 or 4. Received: strides=[1, 2, 3] of length 3",
            lambda: tf.nn.conv2d(x, tf.zeros([2, 2, 3, 5]), [1, 2, 3], "VALID"))
    _raises(tf.errors.UnimplementedError,
            "Current implementation does not yet support strides in the batch and depth dimensions.",
            lambda: tf.nn.conv2d(x, tf.zeros([2, 2, 3, 5]), [2, 1, 1, 1], "VALID"))
    _raises(TypeError, "Expected list for 'strides' argument to 'conv3d' Op, not 1.",
            lambda: tf.nn.conv3d(tf.zeros([1, 4, 4, 4, 2]), tf.zeros([2, 2, 2, 2, 1]), 1, "SAME"))
    _raises(tf.errors.InvalidArgumentError,
            "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 4, computed = 9 "
            "spatial_dim: 1 input: 9 filter: 3 output: 4 stride: 1 dilation: 1 [Op:Conv2DBackpropInput] name: ",
            lambda: tf.nn.conv2d_transpose(tf.zeros([1, 4, 4, 3]), tf.zeros([3, 3, 2, 3]), [1, 9, 9, 2], 1))
    _raises(tf.errors.InvalidArgumentError,
            "Sliding window strides field must specify 4 or 5 dimensions [Op:DepthwiseConv2dNative] name: ",
            lambda: tf.nn.depthwise_conv2d(x, tf.zeros([2, 2, 3, 2]), [1, 1], "VALID"))
    _raises(tf.errors.InvalidArgumentError,
            "input and filter must have the same depth: 3 vs 2 [Op:DepthwiseConv2dNative] name: ",
            lambda: tf.nn.depthwise_conv2d(x, tf.zeros([2, 2, 2, 1]), [1, 1, 1, 1], "VALID"))
    _raises(tf.errors.InvalidArgumentError,
            "cannot compute Conv2D as input #1(zero-based) was expected to be a float tensor but is a double "
            "tensor [Op:Conv2D] name: ",
            lambda: tf.nn.conv2d(x, tf.zeros([2, 2, 3, 5], tf.float64), 1, "VALID"))


def test_pool_errors():
    x = tf.zeros([1, 4, 2, 3])
    _raises(tf.errors.InvalidArgumentError,
            "Computed output size would be negative: -2 [input_size: 2, effective_filter_size: 5, stride: 1] "
            "[Op:MaxPool] name: ", lambda: tf.nn.max_pool2d(x, 5, 1, "VALID"))
    _raises(tf.errors.InvalidArgumentError, "Input must be 4 or 5-dimensional [Op:MaxPool] name: ",
            lambda: tf.nn.max_pool2d(tf.zeros([4, 2, 3]), 2, 1, "VALID"))
    _raises(TypeError, "Expected string for argument 'padding' not [[0, 0], [1, 1], [1, 1], [0, 0]].",
            lambda: tf.nn.avg_pool2d(x, 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.nn.avg_pool2d(tf.zeros([1, 4, 2, 3], tf.int32), 2, 1, "VALID")


def test_misc_errors():
    x = tf.zeros([1, 4, 2, 3])
    _raises(tf.errors.InvalidArgumentError,
            "Must provide as many biases as the last dimension of the input tensor: [4] vs. [1,4,2,3] "
            "[Op:BiasAdd] name: ", lambda: tf.nn.bias_add(x, tf.zeros([4])))
    _raises(tf.errors.InvalidArgumentError, "Biases must be 1D: [1,3] [Op:BiasAdd] name: ",
            lambda: tf.nn.bias_add(x, tf.zeros([1, 3])))
    _raises(tf.errors.InvalidArgumentError,
            "`dim` must be in the range [-4, 4) where 4 is the number of dimensions in the input. Received: dim=5",
            lambda: tf.nn.softmax(x, axis=5))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.nn.softmax(tf.constant([1, 2]))
    _raises(tf.errors.InvalidArgumentError, "Input depth dimension 3 should be divisible by: 4 "
                                            "[Op:DepthToSpace] name: ", lambda: tf.nn.depth_to_space(x, 2))
    _raises(tf.errors.InvalidArgumentError, "Image width 2 and height 4 should be divisible by block_size: 3 "
                                            "[Op:SpaceToDepth] name: ", lambda: tf.nn.space_to_depth(x, 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'block_size' of 1 must be at least "
                                                             "minimum 2"):
        tf.nn.depth_to_space(x, 1)
    _raises(ValueError, "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1.0",
            lambda: tf.nn.dropout(x, 1.0))
    _raises(ValueError, "`x.dtype` must be a floating point tensor as `x` will be scaled. "
                        "Received: x_dtype=<dtype: 'int32'>", lambda: tf.nn.dropout(tf.constant([1, 2]), 0.5))
    _raises(ValueError, "`features.dtype` must be a floating point tensor.Received:features.dtype=<dtype: 'int32'>",
            lambda: tf.nn.gelu(tf.constant([1, 2])))
    _raises(ValueError, "Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                        "Received per_example_loss=2.0 with rank 0",
            lambda: tf.nn.compute_average_loss(tf.constant(2.)))
    _raises(ValueError, "Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                        "`exponential_avg_factor` != 1.0. Received: `mean` None and `variance` None",
            lambda: fused_batch_norm(x, [1., 1., 1.], [0., 0., 0.], is_training=False))


def test_embedding_errors():
    _raises(tf.errors.InvalidArgumentError, "indices[0,1] = 10 is not in [0, 10) [Op:GatherV2] name: ",
            lambda: tf.nn.embedding_lookup(tf.zeros([10, 2]), [[1, 10]]))
    _raises(tf.errors.InvalidArgumentError, "indices[0,1] = 10 is not in [0, 10) [Op:ResourceGather] name: ",
            lambda: tf.nn.embedding_lookup(tf.Variable(tf.zeros([10, 2])), [[1, 10]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tindices' of float"):
        tf.nn.embedding_lookup(tf.zeros([10, 2]), [1.0])
    with pytest.raises(NotImplementedError, match="max_norm"):
        tf.nn.embedding_lookup(tf.ones([10, 2]), [1], max_norm=1.0)
