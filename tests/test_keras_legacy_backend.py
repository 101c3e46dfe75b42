"""tf.keras.backend: Keras 3's keras.backend plus the legacy functions TF 2.21 keeps there, against TF's output."""
import contextlib
import io

import numpy as np
import pytest

import tfcompat as tf
from tfcompat.keras import backend as keras_backend

# run in TF 2.21 (with `import tensorflow as tf, numpy as np`), its output below
SCRIPT = '''\
K = tf.keras.backend
print(K.get_uid('dense'), K.get_uid('dense'), K.get_uid(), K.get_uid())
print(K.is_float_dtype('bfloat16'), K.is_float_dtype(tf.int32), K.is_int_dtype('uint8'), K.is_int_dtype(np.float32))
x = K.constant([[1., 2.], [3., 4.]])
print(repr(x), K.int_shape(x), K.ndim(x), K.dtype(x), K.count_params(x), repr(K.shape(x)))
v = K.variable([[1., 2.]], name='v'); print(repr(v), type(v).__name__)
print(K.eval(v), K.get_value(v), K.batch_get_value([v, x]))
K.set_value(v, [[5, 6]]); print(v.numpy()); K.batch_set_value([(v, [[7, 8]])]); print(v.numpy())
print(repr(K.zeros((2,2))), repr(K.ones((2,0))), repr(K.eye(2)))
print(repr(K.sum(x)), repr(K.mean(x, axis=0)), repr(K.max(x, 1, True)), repr(K.std(x)), repr(K.var(x, 0)))
print(repr(K.sqrt(K.constant([-1., 4.]))), repr(K.clip(x, 1.5, 3.)), repr(K.hard_sigmoid(x)), repr(K.relu(K.constant([-1., 2., 8.]), alpha=0.1, max_value=6.)))
print(repr(K.batch_flatten(K.ones((2,2,3)))), repr(K.flatten(x)), repr(K.repeat(x, 2)), repr(K.repeat_elements(x, 2, 1)))
print(repr(K.batch_dot(K.ones((2,3)), K.ones((2,3)), axes=1)))
print(repr(K.dot(K.ones((2,3)), K.ones((3,4)))))
print(repr(K.switch(K.constant(True, dtype='bool'), x, -x)))
print(repr(K.categorical_crossentropy(K.constant([[0., 1.]]), K.constant([[0.3, 0.7]]))))
print(repr(K.binary_crossentropy(K.constant([[0., 1.]]), K.constant([[0.3, 0.7]]))))
print(repr(K.sparse_categorical_crossentropy(K.constant([1]), K.constant([[0.3, 0.7]]))))
print(repr(K.arange(5)), repr(K.arange(1, 3, dtype='float32')), repr(K.one_hot([0, 2], 3)))
print(repr(K.cast_to_floatx([1, 2])), repr(K.cast(x, 'int32')))
print(repr(K.l2_normalize(K.constant([3., 4.]))), repr(K.temporal_padding(K.ones((1,1,1)))), repr(K.spatial_2d_padding(K.ones((1,1,1,1)))))
print(repr(K.softmax(x)), repr(K.elu(K.constant([-1., 1.]), 0.5)))
print(K.is_sparse(x), K.ndim(K.constant(1.)), K.int_shape(np.zeros((2,3))))
tf.random.set_seed(1); np.random.seed(0)
r = K.random_normal((2,)); print(r.shape, r.dtype)
try: K.softmax(K.constant([1., 2.]))
except Exception as e: print(type(e).__name__, e)
print(repr(K.random_bernoulli((3,), p=1.0)))
print(K.gather(x, [1]).numpy(), K.squeeze(K.ones((1,2)), 0).numpy(), K.tile(x, 2).shape if False else '', K.reverse(x, 0).numpy().tolist())
print(K.moving_average_update(v, [[1., 1.]], 0.5).numpy())
print(repr(K.update_add(v, [[1., 1.]])))
'''

TF_OUTPUT = '''\
1 2 1 2
True False True False
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[1., 2.],
       [3., 4.]], dtype=float32)> (2, 2) 2 float32 4 <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 2], dtype=int32)>
<tf.Variable 'v:0' shape=(1, 2) dtype=float32, numpy=array([[1., 2.]], dtype=float32)> ResourceVariable
[[1. 2.]] [[1. 2.]] [array([[1., 2.]], dtype=float32), array([[1., 2.],
       [3., 4.]], dtype=float32)]
[[5. 6.]]
[[7. 8.]]
<tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=
array([[0., 0.],
       [0., 0.]], dtype=float32)> <tf.Tensor: shape=(2, 0), dtype=float32, numpy=array([], shape=(2, 0), dtype=float32)> <tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=
array([[1., 0.],
       [0., 1.]], dtype=float32)>
<tf.Tensor: shape=(), dtype=float32, numpy=10.0> <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)> <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
array([[2.],
       [4.]], dtype=float32)> <tf.Tensor: shape=(), dtype=float32, numpy=1.1180340051651> <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)> <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[1.5, 2. ],
       [3. , 3. ]], dtype=float32)> <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[0.7, 0.9],
       [1. , 1. ]], dtype=float32)> <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-0.1,  2. ,  6. ], dtype=float32)>
<tf.Tensor: shape=(2, 6), dtype=float32, numpy=
array([[1., 1., 1., 1., 1., 1.],
       [1., 1., 1., 1., 1., 1.]], dtype=float32)> <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 2., 3., 4.], dtype=float32)> <tf.Tensor: shape=(2, 2, 2), dtype=float32, numpy=
array([[[1., 2.],
        [1., 2.]],

       [[3., 4.],
        [3., 4.]]], dtype=float32)> <tf.Tensor: shape=(2, 4), dtype=float32, numpy=
array([[1., 1., 2., 2.],
       [3., 3., 4., 4.]], dtype=float32)>
<tf.Tensor: shape=(2, 1), dtype=float32, numpy=
array([[3.],
       [3.]], dtype=float32)>
<tf.Tensor: shape=(2, 4), dtype=float32, numpy=
array([[3., 3., 3., 3.],
       [3., 3., 3., 3.]], dtype=float32)>
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[1., 2.],
       [3., 4.]], dtype=float32)>
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.35667497], dtype=float32)>
<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.3566748, 0.3566748]], dtype=float32)>
<tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.35667497], dtype=float32)>
<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 1, 2, 3, 4], dtype=int32)> <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)> <tf.Tensor: shape=(2, 3), dtype=float32, numpy=
array([[1., 0., 0.],
       [0., 0., 1.]], dtype=float32)>
array([1., 2.], dtype=float32) <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
array([[1, 2],
       [3, 4]], dtype=int32)>
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)> <tf.Tensor: shape=(1, 3, 1), dtype=float32, numpy=
array([[[0.],
        [1.],
        [0.]]], dtype=float32)> <tf.Tensor: shape=(1, 3, 3, 1), dtype=float32, numpy=
array([[[[0.],
         [0.],
         [0.]],

        [[0.],
         [1.],
         [0.]],

        [[0.],
         [0.],
         [0.]]]], dtype=float32)>
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[0.26894143, 0.7310586 ],
       [0.26894143, 0.7310586 ]], dtype=float32)> <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.31606027,  1.        ], dtype=float32)>
False 0 (2, 3)
(2,) <dtype: 'float32'>
ValueError Cannot apply softmax to a tensor that is 1D. Received input: [1. 2.]
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 1., 1.], dtype=float32)>
[[3. 4.]] [1. 1.]  [[3.0, 4.0], [1.0, 2.0]]
[[4.  4.5]]
<tf.Variable 'UnreadVariable' shape=(1, 2) dtype=float32, numpy=array([[5. , 5.5]], dtype=float32)>
'''


# convolutions, pooling and focal crossentropies, recorded the same way (channels_last: TF's CPU kernels reject
# channels_first, which tfcompat runs on a transposed input)
CONV_SCRIPT = '''\
import numpy as np
K = tf.keras.backend
x = K.constant(np.arange(2 * 5 * 5 * 3, dtype="float32").reshape(2, 5, 5, 3) / 50)
k = K.constant(np.linspace(-1, 1, 3 * 3 * 3 * 2, dtype="float32").reshape(3, 3, 3, 2))
print(K.conv2d(x, k).numpy().round(4).tolist()[0][0])
print(K.conv2d(x, k, strides=(2, 2), padding="same").shape, K.conv2d(x, k, dilation_rate=(2, 2)).shape)
x1 = K.constant(np.arange(2 * 6 * 3, dtype="float32").reshape(2, 6, 3) / 10)
k1 = K.constant(np.linspace(-1, 1, 2 * 3 * 4, dtype="float32").reshape(2, 3, 4))
print(K.conv1d(x1, k1, padding="causal").numpy().round(4).tolist()[0][:2], K.conv1d(x1, k1, strides=2).shape)
print(K.conv3d(K.ones((1, 3, 3, 3, 2)), K.ones((2, 2, 2, 2, 1))).numpy().ravel().tolist())
print(K.depthwise_conv2d(x, K.ones((2, 2, 3, 2)), padding="same").numpy().round(4).tolist()[0][0][0])
print(K.pool2d(x, (2, 2)).numpy().round(4).tolist()[0][0], K.pool2d(x, (2, 2), (2, 2), "same", pool_mode="avg").numpy().round(4).tolist()[1][2])
print(K.pool3d(K.ones((1, 2, 2, 2, 1)), (2, 2, 2), pool_mode="avg").numpy().tolist())
for bad in [lambda: K.conv2d(x, k, padding="full"), lambda: K.pool2d(x, (2, 2), pool_mode="min"), lambda: K.pool2d(x, (2,)), lambda: K.conv2d(x, k, data_format="nhwc")]:
    try: bad()
    except Exception as e: print(type(e).__name__, e)
t, o = K.constant([[0., 1.], [1., 0.]]), K.constant([[0.2, 0.8], [0.6, 0.4]])
print(K.binary_focal_crossentropy(t, o).numpy().round(5).tolist(), K.binary_focal_crossentropy(t, o, apply_class_balancing=True, from_logits=True).numpy().round(5).tolist())
print(K.categorical_focal_crossentropy(t, o).numpy().round(5).tolist(), K.categorical_focal_crossentropy(t, o, from_logits=True, gamma=1.).numpy().round(5).tolist())
'''

CONV_TF_OUTPUT = '''\
[[3.746000051498413, 4.133200168609619], [3.7155001163482666, 4.16379976272583], [3.6849000453948975, 4.194300174713135]]
(2, 3, 3, 2) (2, 1, 1, 2)
[[0.18700000643730164, 0.21299999952316284, 0.23909999430179596, 0.2651999890804291], [0.4129999876022339, 0.5435000061988831, 0.6739000082015991, 0.8043000102043152]] (2, 3, 4)
[16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0]
[0.7200000286102295, 0.7200000286102295, 0.800000011920929, 0.800000011920929, 0.8799999952316284, 0.8799999952316284]
[[0.36000001430511475, 0.3799999952316284, 0.4000000059604645], [0.41999998688697815, 0.4399999976158142, 0.46000000834465027], [0.47999998927116394, 0.5, 0.5199999809265137], [0.5400000214576721, 0.5600000023841858, 0.5799999833106995]] [[2.7300000190734863, 2.75, 2.7699999809265137], [2.8499999046325684, 2.869999885559082, 2.890000104904175], [2.940000057220459, 2.9600000381469727, 2.9800000190734863]]
[[[[[1.0]]]]]
ValueError Invalid padding: full
ValueError Invalid pooling mode: min
ValueError `pool_size` must be a tuple of 2 integers.
ValueError Unknown data_format: nhwc
[[0.00892999954521656, 0.00892999954521656], [0.08173000067472458, 0.08173000067472458]] [[0.1809699982404709, 0.008919999934732914], [0.013729999773204327, 0.24544000625610352]]
[0.0022299999836832285, 0.020430000498890877] [0.038759998977184296, 0.06731999665498734]
'''

def test_legacy_backend_prints_what_tf_prints():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SCRIPT, {"tf": tf, "np": np})
    assert buf.getvalue() == TF_OUTPUT


def test_convolutions_pooling_and_focal_losses_print_what_tf_prints():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(CONV_SCRIPT, {"tf": tf})
    assert buf.getvalue() == CONV_TF_OUTPUT


def test_keras3_backend_lacks_the_legacy_functions():
    # Keras 3.15's `keras.backend` has 14 names; the legacy ones live only in `tf.keras.backend`
    assert not hasattr(keras_backend, "random_normal")
    assert tf.keras.backend.floatx is keras_backend.floatx
    assert tf.keras.backend.random_normal((2, 3)).shape == (2, 3)


def test_unimplemented_legacy_names_say_so():
    with pytest.raises(NotImplementedError, match="tf.keras.backend.rnn is not implemented"):
        _ = tf.keras.backend.rnn


def test_conv2d_transpose_and_separable_conv2d_as_tf():
    K = tf.keras.backend
    x = np.arange(8, dtype="float32").reshape(1, 2, 2, 2)
    k = np.arange(16, dtype="float32").reshape(2, 2, 2, 2) / 10
    np.testing.assert_allclose(K.conv2d_transpose(x, k, (1, 2, 2, 2), padding="same").numpy(),
                               [[[[0.1, 0.3], [0.8, 2.0]], [[1.4, 3.4], [10.4, 16.0]]]], rtol=1e-5)
    out = K.conv2d_transpose(x, k, (1, 4, 4, 2), strides=(2, 2)).numpy()
    np.testing.assert_allclose(out[0, :2, :2], [[[0.1, 0.3], [0.5, 0.7]], [[0.9, 1.1], [1.3, 1.5]]], rtol=1e-5)
    np.testing.assert_allclose(out[0, 3, 3], [16.3, 18.9], rtol=1e-5)
    dilated = K.conv2d_transpose(x, k, (1, 4, 4, 2), dilation_rate=(2, 2)).numpy()
    np.testing.assert_allclose(dilated[0, 0], [[0.1, 0.3], [0.3, 1.3], [0.5, 0.7], [2.3, 3.3]], rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Conv2DCustomBackpropInputOp only supports NHWC"):
        K.conv2d_transpose(x, k, (1, 2, 3, 3), data_format="channels_first")
    dk = np.arange(8, dtype="float32").reshape(2, 2, 2, 1) / 10
    pk = np.arange(6, dtype="float32").reshape(1, 1, 2, 3) / 10
    img = np.arange(18, dtype="float32").reshape(1, 3, 3, 2)
    np.testing.assert_allclose(K.separable_conv2d(img, dk, pk).numpy(),
                               [[[[3.24, 5.08, 6.92], [4.2, 6.6, 9.0]], [[6.12, 9.64, 13.16], [7.08, 11.16, 15.24]]]],
                               rtol=1e-5)
    np.testing.assert_allclose(K.separable_conv2d(img, dk, pk, padding="same", strides=(2, 2)).numpy(),
                               [[[[3.24, 5.08, 6.92], [1.8, 2.8, 3.8]], [[1.74, 2.6, 3.46], [0.51, 0.68, 0.85]]]],
                               rtol=1e-5)
    with pytest.raises(RuntimeError, match=r"^tf\.gradients is not supported when eager execution is enabled\. "
                                           r"Use tf\.GradientTape instead\.$"):
        K.gradients(tf.constant(1.0), [tf.Variable(1.0)])
