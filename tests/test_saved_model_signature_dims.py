"""tf.saved_model.save of tf.functions whose input signature has unknown dimensions, loaded and called on other sizes.

tfcompat traces such a signature on placeholder values and saves a program made general over the unknown dims
(`eager.function._placeholders`); every expected value below was printed by TF 2.21 (Keras 3.15) for the same code."""
import numpy as np
import pytest

import tfcompat as tf


def _save_load(obj, tmp_path):
    path = str(tmp_path / "m")
    tf.saved_model.save(obj, path)
    return tf.saved_model.load(path)


class _Shapes(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(12, dtype=tf.float32) / 10.0, [4, 3]))

    @tf.function(input_signature=[tf.TensorSpec([None, 2, 2], tf.float32)])
    def flat(self, x):
        z = tf.matmul(tf.reshape(x, [-1, 4]), self.w)
        return {"mean": tf.reduce_mean(z, axis=0), "sum": tf.reduce_sum(z, axis=1), "n": tf.shape(x)[0]}

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def norm(self, x):
        return x - tf.reduce_mean(x, axis=1, keepdims=True) + tf.cast(tf.shape(x)[1], tf.float32)


def test_reshape_reductions_and_tf_shape_follow_the_batch_size(tmp_path):
    m = _Shapes()
    assert repr(m.flat.get_concrete_function().structured_outputs) == (
        "{'mean': TensorSpec(shape=(3,), dtype=tf.float32, name=None), 'sum': TensorSpec(shape=(None,), "
        "dtype=tf.float32, name=None), 'n': TensorSpec(shape=(), dtype=tf.int32, name=None)}")
    loaded = _save_load(m, tmp_path)
    expected = {  # TF 2.21
        1: ([4.2, 4.8, 5.4], [14.4]),
        3: ([11.4, 13.6, 15.8], [14.4, 40.8, 67.2]),
        6: ([22.2, 26.8, 31.4], [14.4, 40.8, 67.2, 93.6, 120.0, 146.4])}
    for n, (mean, total) in expected.items():
        r = loaded.flat(tf.constant(np.arange(n * 4, dtype=np.float32).reshape(n, 2, 2)))
        np.testing.assert_allclose(r["mean"].numpy(), mean, rtol=1e-5)
        np.testing.assert_allclose(r["sum"].numpy(), total, rtol=1e-5)
        assert r["n"].numpy() == n and r["n"].dtype == tf.int32
    # TF 2.21: both dims unknown
    assert loaded.norm(tf.reshape(tf.range(6.0), [2, 3])).numpy().tolist() == [[2.0, 3.0, 4.0]] * 2
    assert loaded.norm(tf.reshape(tf.range(20.0), [4, 5])).numpy().tolist() == [[3.0, 4.0, 5.0, 6.0, 7.0]] * 4
    assert loaded.norm(tf.ones([1, 1])).numpy().tolist() == [[1.0]]


# the core guides' export modules (quickstart_core, mlp_core): TF's save succeeds before any call
def _onehot_origin(x):
    origin = tf.cast(x[:, -1], tf.int32)
    return tf.concat([x[:, :-1], tf.one_hot(origin - 1, 3)], axis=1)


class _Normalize(tf.Module):
    def __init__(self, x):
        super().__init__()
        self.mean = tf.math.reduce_mean(x, axis=0)
        self.std = tf.math.reduce_std(x, axis=0)

    def norm(self, x):
        return (x - self.mean) / self.std

    def unnorm(self, x):
        return (x * self.std) + self.mean


class _LinearRegression(tf.Module):
    def __init__(self):
        super().__init__()
        self.built = False

    @tf.function
    def __call__(self, x):
        if not self.built:
            self.w = tf.Variable(tf.reshape(tf.range(9, dtype=tf.float32) / 9.0, [9, 1]))
            self.b = tf.Variable(0.5)
            self.built = True
        return tf.squeeze(tf.add(tf.matmul(x, self.w), self.b), axis=1)


class _Regression(tf.Module):
    def __init__(self, model, norm_x, norm_y):
        super().__init__()
        self.model, self.norm_x, self.norm_y = model, norm_x, norm_y

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
    def __call__(self, x):
        return self.norm_y.unnorm(self.model(self.norm_x.norm(_onehot_origin(x))))


def test_features_that_must_match_a_weight_after_one_hot(tmp_path):
    rng = np.random.default_rng(0)
    x_train = tf.constant(np.concatenate([rng.uniform(0, 5, (50, 6)), rng.integers(1, 4, (50, 1))], 1)
                          .astype(np.float32))
    y_train = tf.constant(rng.uniform(0, 5, (50,)).astype(np.float32))
    norm_x, norm_y = _Normalize(_onehot_origin(x_train)), _Normalize(y_train)
    lin_reg = _LinearRegression()
    np.testing.assert_allclose(lin_reg(norm_x.norm(_onehot_origin(x_train[:1]))).numpy(), [0.67729807], rtol=1e-5)
    export = _Regression(lin_reg, norm_x, norm_y)
    loaded = _save_load(export, tmp_path)
    expected = [3.286316156387329, 3.4521403312683105, 3.267515182495117, 2.5034725666046143, 4.7862653732299805,
                1.97078275680542, 2.5929648876190186, 3.0710813999176025, 2.6935198307037354, 1.2062989473342896]
    np.testing.assert_allclose(loaded(x_train[:10]).numpy(), expected, rtol=1e-5)      # TF 2.21
    np.testing.assert_allclose(loaded(x_train[:3]).numpy(), expected[:3], rtol=1e-5)
    assert repr(export.__call__.get_concrete_function().structured_outputs) == \
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"


class _Dense(tf.Module):
    def __init__(self, i, o, act=tf.identity):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(i * o, dtype=tf.float32) % 7 / 7.0 - 0.4, [i, o]))
        self.b = tf.Variable(tf.zeros([o]))
        self.act = act

    def __call__(self, x):
        return self.act(tf.add(tf.matmul(x, self.w), self.b))


class _MLP(tf.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    @tf.function
    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class _Classify(tf.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, None, None, None], dtype=tf.uint8)])
    def __call__(self, x):
        x = tf.reshape(x, shape=[-1, 784]) / 255
        return tf.argmax(tf.nn.softmax(self.model(x)), axis=1)


def test_images_of_any_layout_reshaped_to_784_features(tmp_path):
    mlp = _MLP([_Dense(784, 70, tf.nn.relu), _Dense(70, 10)])
    assert mlp(tf.zeros([2, 784])).shape == (2, 10)
    export = _Classify(mlp)
    loaded = _save_load(export, tmp_path)
    x = tf.constant((np.arange(5 * 784) * 37 % 256).astype(np.uint8).reshape(5, 28, 28, 1))
    assert loaded(x).numpy().tolist() == [1, 1, 1, 1, 1]        # TF 2.21
    assert loaded(x[:2]).numpy().tolist() == [1, 1]
    assert loaded(tf.reshape(x, [5, 1, 784, 1])).numpy().tolist() == [1, 1, 1, 1, 1]
    assert repr(export.__call__.get_concrete_function().structured_outputs) == \
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"


class _Either(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.reshape(tf.range(16, dtype=tf.float32) / 16.0, [16, 1]))
        self.__call__.get_concrete_function(x=tf.TensorSpec(shape=(), dtype=tf.string))
        self.__call__.get_concrete_function(x=tf.TensorSpec(shape=[None, 16], dtype=tf.float32))

    @tf.function
    def __call__(self, x):
        if x.dtype == tf.string:
            x = tf.strings.to_number(tf.strings.split(x, ","))[tf.newaxis, :]
        y = tf.matmul(x, self.w)
        return {"y": y, "ids": tf.argmax(y, axis=-1)}


def test_a_string_signature_beside_a_batch_of_floats(tmp_path):
    # simple_audio's ExportModel: get_concrete_function with a string TensorSpec, then a [None, 16000] one
    e = _Either()
    assert e.__call__.experimental_get_tracing_count() == 2      # TF 2.21
    r = e(tf.constant(",".join(str(i) for i in range(16))))
    assert r["y"].numpy().tolist() == [[77.5]] and r["ids"].numpy().tolist() == [0]
    assert e.__call__.experimental_get_tracing_count() == 2
    loaded = _save_load(e, tmp_path)
    r = loaded(tf.ones([3, 16]))
    assert r["y"].numpy().tolist() == [[7.5]] * 3 and r["ids"].numpy().tolist() == [0, 0, 0]
    assert loaded(x=tf.ones([1, 16]))["y"].numpy().tolist() == [[7.5]]
    # TF replays the string signature too; tfcompat records no program for string tensors and says so
    with pytest.raises(NotImplementedError, match="saved without a program"):
        loaded(tf.constant("1,2"))


class _Ops(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def a(self, x):
        n = tf.shape(x)[0]
        return x + tf.zeros([n, 3]) + tf.cast(tf.range(n), tf.float32)[:, None]

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def b(self, x):
        return tf.concat([x, tf.ones_like(x)], axis=1), tf.transpose(x), tf.reduce_max(x)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def c(self, x):
        return tf.one_hot(x, 4), tf.gather(tf.constant([10., 20., 30., 40.]), x), tf.size(x)


def test_sizes_read_in_the_body_follow_the_call(tmp_path):
    loaded = _save_load(_Ops(), tmp_path)
    got = []
    for n in (1, 2, 4):
        got.append(loaded.a(tf.reshape(tf.range(n * 3, dtype=tf.float32), [n, 3])).numpy().tolist())
        got.append([t.numpy().tolist() for t in loaded.b(tf.reshape(tf.range(n * 2, dtype=tf.float32), [n, 2]))])
        got.append([t.numpy().tolist() for t in loaded.c(tf.range(n) % 4)])
    assert got == [  # TF 2.21
        [[0.0, 1.0, 2.0]],
        [[[0.0, 1.0, 1.0, 1.0]], [[0.0], [1.0]], 1.0],
        [[[1.0, 0.0, 0.0, 0.0]], [10.0], 1],
        [[0.0, 1.0, 2.0], [4.0, 5.0, 6.0]],
        [[[0.0, 1.0, 1.0, 1.0], [2.0, 3.0, 1.0, 1.0]], [[0.0, 2.0], [1.0, 3.0]], 3.0],
        [[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]], [10.0, 20.0], 2],
        [[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [8.0, 9.0, 10.0], [12.0, 13.0, 14.0]],
        [[[0.0, 1.0, 1.0, 1.0], [2.0, 3.0, 1.0, 1.0], [4.0, 5.0, 1.0, 1.0], [6.0, 7.0, 1.0, 1.0]],
         [[0.0, 2.0, 4.0, 6.0], [1.0, 3.0, 5.0, 7.0]], 7.0],
        [[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
         [10.0, 20.0, 30.0, 40.0], 4]]


def test_batch_zero_and_a_signature_of_the_function(tmp_path):
    m = _Shapes()
    path = str(tmp_path / "m")
    tf.saved_model.save(m, path, signatures={"serving_default": m.flat})
    loaded = tf.saved_model.load(path)
    r = loaded.flat(tf.zeros([0, 2, 2]))
    assert np.isnan(r["mean"].numpy()).all() and r["sum"].numpy().tolist() == [] and r["n"].numpy() == 0  # TF 2.21
    r = loaded.signatures["serving_default"](x=tf.ones([7, 2, 2]))
    np.testing.assert_allclose(r["mean"].numpy(), [1.8, 2.2, 2.6], rtol=1e-6)
    np.testing.assert_allclose(r["sum"].numpy(), [6.6] * 7, rtol=1e-6)
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        loaded.flat(tf.zeros([3, 2, 3]))


def test_a_keras_convnet_in_an_export_module(tmp_path):
    keras = tf.keras
    model = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Resizing(6, 6),
                              keras.layers.Normalization(mean=0.5, variance=4.0),
                              keras.layers.Conv2D(4, 3, activation="relu"), keras.layers.MaxPooling2D(),
                              keras.layers.Dropout(0.25), keras.layers.Flatten(), keras.layers.Dense(3)])
    model.set_weights([np.arange(np.prod(v.shape), dtype=np.float32).reshape(v.shape) % 5 / 10 - 0.2
                       for v in model.weights])

    class Export(tf.Module):
        def __init__(self, m):
            super().__init__()
            self.model = m

        @tf.function(input_signature=[tf.TensorSpec([None, 8, 8], tf.float32)])
        def __call__(self, x):
            r = self.model(x[..., tf.newaxis], training=False)
            return {"p": r, "ids": tf.argmax(r, axis=-1)}

    loaded = _save_load(Export(model), tmp_path)
    r = loaded(tf.reshape(tf.range(3 * 64, dtype=tf.float32) % 9 / 9, [3, 8, 8]))
    np.testing.assert_allclose(r["p"].numpy(), [[-0.22921, -0.10889, 0.00171], [-0.21972, -0.1225, -0.02227],
                                                [-0.21431, -0.12023, -0.03171]], atol=1e-5)    # TF 2.21
    assert r["ids"].numpy().tolist() == [2, 2, 2]


def test_an_export_module_called_before_it_is_saved(tmp_path):
    # its only trace is the real call's ([4, 7]): the saved program is still general over the batch (TF 2.21 values)
    rng = np.random.default_rng(0)
    x_train = tf.constant(np.concatenate([rng.uniform(0, 5, (50, 6)), rng.integers(1, 4, (50, 1))], 1)
                          .astype(np.float32))
    y_train = tf.constant(rng.uniform(0, 5, (50,)).astype(np.float32))
    norm_x, norm_y = _Normalize(_onehot_origin(x_train)), _Normalize(y_train)
    lin_reg = _LinearRegression()
    lin_reg(norm_x.norm(_onehot_origin(x_train[:1])))
    export = _Regression(lin_reg, norm_x, norm_y)
    expected = [3.286316156387329, 3.4521403312683105, 3.267515182495117, 2.5034725666046143, 4.7862653732299805,
                1.97078275680542, 2.5929648876190186, 3.0710813999176025, 2.6935198307037354, 1.2062989473342896]
    np.testing.assert_allclose(export(x_train[:4]).numpy(), expected[:4], rtol=1e-5)
    loaded = _save_load(export, tmp_path)
    np.testing.assert_allclose(loaded(x_train[:10]).numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(loaded(x_train[:3]).numpy(), expected[:3], rtol=1e-5)
    np.testing.assert_allclose(loaded(x_train[:4]).numpy(), expected[:4], rtol=1e-5)
