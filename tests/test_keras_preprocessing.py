"""Keras preprocessing layers against Keras 3.15 golden values (outputs, vocabularies, weights, configs);
random augmentation layers are checked for determinism under a seed, identity at inference, and ranges."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers

X = (np.arange(12.).reshape(4, 3) ** 1.5).astype("float32")
IMG = (np.arange(2 * 5 * 7 * 3) % 17).reshape(2, 5, 7, 3).astype("float32")
XS = np.array([["a", "z", "b"], ["e", "b", "c"]])
TEXTS = np.array(["The cat sat.", "the DOG, the cat!", "a bird"])


def close(got, want):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want, dtype="float32"), rtol=1e-5, atol=2e-5)


def equal(got, want, dtype):
    assert got.dtype == dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def cfg(layer):
    c = layer.get_config()
    c.pop("dtype", None)
    return c


def test_normalization_adapt_numpy():
    n = L.Normalization(name="norm")
    n.adapt(X)
    assert [(w.path, list(w.shape), w.trainable, w.dtype) for w in n.weights] == GOLD["norm_w"]
    out, mean, var, config = GOLD["norm"]
    close(n(X), out)
    close(n.mean, mean)
    close(n.variance, var)
    assert cfg(n) == config


def test_normalization_invert_axis_none_and_dataset():
    n = L.Normalization(mean=2., variance=4., invert=True, name="n2")
    close(n(X), GOLD["norm_inv"][0])
    assert cfg(n) == GOLD["norm_inv"][1]
    n3 = L.Normalization(axis=None)
    n3.adapt(X)
    close(n3(X), GOLD["norm_none"])
    n4 = L.Normalization()
    n4.adapt(tf.data.Dataset.from_tensor_slices(X).batch(3))
    close(n4.mean, GOLD["norm_ds"][0])
    close(n4.variance, GOLD["norm_ds"][1])
    with pytest.raises(ValueError, match="both `mean` and `variance` must be set"):
        L.Normalization(mean=1.)


def _adapted(data, **kwargs):
    n = L.Normalization(**kwargs)
    n.adapt(data)
    return n.mean.numpy().ravel().tolist(), n.variance.numpy().ravel().tolist()


def test_normalization_adapt_follows_keras_per_kind_of_data():
    # Keras 3.15: NumPy arrays reduce in their own dtype (float64 here), datasets batch by batch in float32
    big = np.random.default_rng(0).normal(1e4, 1.0, (1000, 2))
    assert _adapted(big) == ([9999.9697265625, 9999.9736328125], [1.0388940572738647, 0.9618885517120361])
    assert _adapted(big.astype("float32")) == ([9999.97265625, 9999.96875], [1.0389094352722168, 0.9619306921958923])
    ds = tf.data.Dataset.from_tensor_slices(big.astype("float32"))
    assert _adapted(ds.batch(100)) == ([9999.96875, 9999.9736328125], [1.0389113426208496, 0.9617957472801208])
    assert _adapted(ds.map(lambda v: v[0]), axis=None) == ([9999.96875], [1.0387578010559082])   # batched by 128
    assert _adapted(tf.constant([[1, 2], [3, 5]])) == ([2.0, 3.5], [1.0, 2.25])
    assert _adapted([np.array([[1., 2.]]), np.array([[3., 5.]])]) == ([2.0, 3.5], [1.0, 2.25])


@pytest.mark.parametrize("data, cls, message", [
    ([1., 2., 3.], TypeError, "adapt() expects an iterable that yields arrays or tensors with a `.shape` attribute "
     "(e.g. numpy arrays or backend tensors). Got an element of type float. Ensure each yielded element is "
     "array-like with a `.shape` attribute."),
    (np.array([["a", 1.0], ["b", 2.0]], dtype=object), TypeError, "unsupported operand type(s) for /: 'str' and 'int'"),
    (iter([]), ValueError, "adapt() received an empty iterable (no batches). Expected at least one batch. Pass a "
     "non-empty iterable of arrays or tensors, e.g. layer.adapt([x]) or layer.adapt(list_of_batches)."),
])
def test_normalization_adapt_errors(data, cls, message):
    with pytest.raises(cls) as e:
        L.Normalization().adapt(data)
    assert str(e.value) == message


def test_resizing_and_center_crop():
    close(L.Resizing(3, 4)(IMG), GOLD["resize"])
    close(L.Resizing(4, 3, interpolation="nearest")(IMG), GOLD["resize_near"])
    close(L.Resizing(3, 3, crop_to_aspect_ratio=True)(IMG), GOLD["resize_crop"])
    assert cfg(L.Resizing(3, 4, name="rs")) == GOLD["resize_cfg"]
    close(L.CenterCrop(3, 4)(IMG), GOLD["cc"])
    close(L.CenterCrop(6, 4)(IMG), GOLD["cc_up"])
    assert cfg(L.CenterCrop(3, 4, name="cc")) == GOLD["cc_cfg"]


def test_string_lookup_adapt_and_modes():
    s = L.StringLookup(name="sl")
    s.adapt(np.array([["b", "a", "c"], ["b", "d", "b"], ["a", "b", "e"]]))
    assert s.get_vocabulary() == GOLD["sl_vocab"]
    equal(s(XS), GOLD["sl"], tf.int64)
    assert cfg(s) == GOLD["sl_cfg"]
    vocab = ["a", "b", "c"]
    equal(L.StringLookup(vocabulary=vocab, output_mode="one_hot")(np.array(["a", "q", "c"])), GOLD["sl_onehot"],
          tf.int64)
    equal(L.StringLookup(vocabulary=vocab, output_mode="multi_hot")(XS), GOLD["sl_multi"], tf.int64)
    equal(L.StringLookup(vocabulary=vocab, output_mode="count", mask_token="")(
        np.array([["a", "a", ""], ["c", "q", "b"]])), GOLD["sl_count_mask"], tf.int64)
    equal(L.StringLookup(vocabulary=vocab, mask_token="")(np.array([["a", "", ""], ["c", "q", "b"]])),
          GOLD["sl_mask_int"], tf.int64)
    inv = L.StringLookup(vocabulary=vocab, invert=True)(np.array([0, 1, 3, 2]))
    assert [t.decode() for t in inv.numpy().tolist()] == GOLD["sl_inv"]
    assert cfg(L.StringLookup(vocabulary=["a", "b"], name="slv")) == GOLD["slv_cfg"]
    close(L.StringLookup(vocabulary=vocab, output_mode="tf_idf", idf_weights=[0.5, 1.0, 2.0])(XS), GOLD["sl_tfidf"])


def test_string_lookup_no_oov_raises():
    s = L.StringLookup(vocabulary=["a", "b", "c"], mask_token="", num_oov_indices=0)
    assert s.get_vocabulary() == ["", "a", "b", "c"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="When `num_oov_indices=0` all inputs should be in "
                                                             "vocabulary, found OOV values"):
        s(np.array(["a", "q"]))


def test_integer_lookup():
    i = L.IntegerLookup(name="il")
    i.adapt(np.array([5, 7, 7, 3, 5, 7]))
    vocab, out, config = GOLD["il"]
    assert i.get_vocabulary() == vocab
    equal(i(np.array([7, 3, 9, 0])), out, tf.int64)
    assert cfg(i) == config
    equal(L.IntegerLookup(vocabulary=[10, 20], output_mode="multi_hot", max_tokens=5, pad_to_max_tokens=True)(
        np.array([[10, 30], [20, 20]])), GOLD["il_multi"], tf.int64)


def test_category_encoding():
    equal(L.CategoryEncoding(num_tokens=4, output_mode="one_hot")(np.array([0, 2, 3])), GOLD["ce_onehot"],
          tf.float32)
    equal(L.CategoryEncoding(num_tokens=4)(np.array([[0, 2], [3, 3]])), GOLD["ce_multi"], tf.float32)
    equal(L.CategoryEncoding(num_tokens=4)(np.array([0, 2])), GOLD["ce_multi1d"], tf.float32)
    close(L.CategoryEncoding(num_tokens=4, output_mode="count")(
        np.array([[0, 2, 2], [3, 3, 1]]), count_weights=np.array([[1., 2, 3], [.5, .5, 2]])), GOLD["ce_count"])
    assert cfg(L.CategoryEncoding(num_tokens=4, name="ce")) == GOLD["ce_cfg"]


def test_discretization():
    d = L.Discretization(bin_boundaries=[0., 1., 2.], name="disc")
    equal(d(np.array([[-1.5, 0., 0.5], [1., 2.5, 2.]])), GOLD["disc"][0], tf.int32)
    assert d.get_config() == GOLD["disc"][1]
    d = L.Discretization(num_bins=4, epsilon=0.01)
    d.adapt(np.arange(20.))
    assert d.bin_boundaries == GOLD["disc_adapt"][0]
    equal(d(np.array([3., 9., 17.])), GOLD["disc_adapt"][1], tf.int32)
    equal(L.Discretization(bin_boundaries=[0., 1.], output_mode="one_hot")(np.array([-1., 0.5, 3.])),
          GOLD["disc_onehot"], tf.float32)


def test_text_vectorization():
    t = L.TextVectorization(name="tv")
    t.adapt(TEXTS)
    assert t.get_vocabulary() == GOLD["tv_vocab"]
    equal(t(np.array(["the bird sat", "cat cat zebra the dog"])), GOLD["tv"], tf.int64)
    assert cfg(t) == GOLD["tv_cfg"]
    t2 = L.TextVectorization(max_tokens=5, output_sequence_length=3)
    t2.adapt(tf.data.Dataset.from_tensor_slices(TEXTS).batch(2))
    assert t2.get_vocabulary() == GOLD["tv_len"][0]
    equal(t2(np.array(["the bird sat on", "cat"])), GOLD["tv_len"][1], tf.int64)
    queries = np.array(["the cat the", "zebra"])
    for mode in ("multi_hot", "count"):
        layer = L.TextVectorization(output_mode=mode)
        layer.adapt(TEXTS)
        equal(layer(queries), GOLD["tv_" + mode.split("_")[0]], tf.int64)
    t5 = L.TextVectorization(output_mode="tf_idf")
    t5.adapt(TEXTS)
    close(t5(queries), GOLD["tv_tfidf"])


@pytest.mark.parametrize("ctor", ["L.RandomFlip(seed=3)", "L.RandomRotation(0.2, seed=3)",
                                  "L.RandomZoom(0.3, seed=3)", "L.RandomTranslation(0.2, 0.3, seed=3)",
                                  "L.RandomContrast(0.5, value_range=(0, 16), seed=3)"])
def test_random_augmentation_seeded_training_only(ctor):
    a, b = eval(ctor), eval(ctor)
    np.testing.assert_array_equal(a(IMG, training=False).numpy(), IMG)     # inference: identity
    out = a(IMG).numpy()                                                   # as Keras 3: a direct call augments
    np.testing.assert_array_equal(out, b(IMG, training=True).numpy())     # same seed, same draws
    assert out.shape == IMG.shape and not np.array_equal(out, IMG)
    assert out.min() >= -1e-4 and out.max() <= 16 + 1e-4                  # values stay within the image's range


def test_random_flip_distribution():
    img = np.arange(4, dtype="float32").reshape(1, 1, 4, 1).repeat(400, 0)
    out = L.RandomFlip("horizontal", seed=0)(img, training=True).numpy()
    flipped = (out[:, 0, 0, 0] == 3).mean()
    assert 0.4 < flipped < 0.6
    assert set(out[:, 0, 0, 0].tolist()) == {0.0, 3.0}


def test_random_zoom_translation_geometry():
    img = np.zeros((1, 9, 9, 1), "float32")
    img[0, 4, 4, 0] = 1.0
    moved = L.RandomTranslation((0.33, 0.33), (0.0, 0.0), fill_mode="constant", interpolation="nearest",
                                seed=1)(img, training=True).numpy()
    assert moved[0, 7, 4, 0] == 1.0 and moved.sum() == 1.0                # shifted down by 0.33 * 9 = 3 rows
    zoom_in = L.RandomZoom((-0.5, -0.5), fill_mode="constant", seed=1)(np.ones((1, 8, 8, 1), "float32"),
                                                                        training=True).numpy()
    np.testing.assert_allclose(zoom_in, 1.0)
    zoom_out = L.RandomZoom((1.0, 1.0), fill_mode="constant", seed=1)(np.ones((1, 8, 8, 1), "float32"),
                                                                      training=True).numpy()
    assert zoom_out[0, 0, 0, 0] == 0.0 and zoom_out[0, 4, 4, 0] == 1.0


def test_random_contrast_factor():
    img = np.stack([np.full((2, 2, 1), 10.0), np.full((2, 2, 1), 20.0)], 1).reshape(1, 2, 2, 2)
    img = np.concatenate([img[..., :1], img[..., :1]], -1).astype("float32")
    out = L.RandomContrast((0.5, 0.5), seed=2)(img, training=True).numpy()
    dev_in = img - img.mean(axis=(1, 2), keepdims=True)
    dev_out = out - out.mean(axis=(1, 2), keepdims=True)
    ratio = dev_out[dev_in != 0] / dev_in[dev_in != 0]
    assert np.all((ratio >= 0.5 - 1e-6) & (ratio <= 1.5 + 1e-6))
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-6)


GOLD = {'cc': [[[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 0.0, 1.0]],
         [[11.0, 12.0, 13.0], [14.0, 15.0, 16.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0]],
         [[15.0, 16.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]],
        [[[10.0, 11.0, 12.0], [13.0, 14.0, 15.0], [16.0, 0.0, 1.0], [2.0, 3.0, 4.0]],
         [[14.0, 15.0, 16.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
         [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]],
 'cc_cfg': {'data_format': 'channels_last', 'height': 3, 'name': 'cc', 'trainable': True, 'width': 4},
 'cc_up': [[[[6.0, 7.0, 8.0], [7.875, 8.875, 9.875], [10.125, 11.125, 12.125], [12.0, 13.0, 14.0]],
            [[9.0, 10.0, 11.0], [10.875, 11.875, 12.875], [13.125, 9.34375, 10.34375], [15.0, 3.25, 4.25]],
            [[12.333333015441895, 13.333333015441895, 14.333333015441895],
             [8.010416984558105, 9.010416984558105, 10.010416984558105],
             [6.541667938232422, 4.8854169845581055, 5.8854169845581055],
             [8.416667938232422, 2.3333330154418945, 3.3333330154418945]],
            [[8.583335876464844, 9.583335876464844, 10.583335876464844],
             [4.2604169845581055, 5.2604169845581055, 6.2604169845581055],
             [2.791666030883789, 3.791666030883789, 4.791666030883789],
             [4.666666030883789, 5.666666030883789, 6.666666030883789]],
            [[2.0, 3.0, 4.0], [3.875, 4.875, 5.875], [6.125, 7.125, 8.125], [8.0, 9.0, 10.0]],
            [[5.0, 6.0, 7.0], [6.875, 7.875, 8.875], [9.125, 10.125, 11.125], [11.0, 12.0, 13.0]]],
           [[[9.0, 10.0, 11.0], [10.875, 11.875, 12.875], [13.125, 14.125, 8.75], [15.0, 16.0, 0.0]],
            [[12.0, 13.0, 14.0], [13.875, 6.90625, 7.90625], [11.34375, 4.375, 3.78125], [5.25, 6.25, 3.0]],
            [[5.416667938232422, 6.416667938232422, 7.416667938232422],
             [7.291667938232422, 3.864583969116211, 4.864583969116211],
             [6.8854169845581055, 3.4583330154418945, 4.4583330154418945],
             [4.3333330154418945, 5.3333330154418945, 6.3333330154418945]],
            [[1.666666030883789, 2.666666030883789, 3.666666030883789],
             [3.541666030883789, 4.541666030883789, 5.541666030883789],
             [5.791666030883789, 6.791666030883789, 7.791666030883789],
             [7.666666030883789, 8.666666030883789, 9.666666030883789]],
            [[5.0, 6.0, 7.0], [6.875, 7.875, 8.875], [9.125, 10.125, 11.125], [11.0, 12.0, 13.0]],
            [[8.0, 9.0, 10.0], [9.875, 10.875, 11.875], [12.125, 13.125, 14.125], [14.0, 15.0, 16.0]]]],
 'ce_cfg': {'name': 'ce', 'num_tokens': 4, 'output_mode': 'multi_hot', 'trainable': True},
 'ce_count': [[1.0, 0.0, 5.0, 0.0], [0.0, 2.0, 0.0, 1.0]],
 'ce_multi': [[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
 'ce_multi1d': [1.0, 0.0, 1.0, 0.0],
 'ce_onehot': [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]],
 'disc': [[[0, 1, 1], [2, 3, 3]],
          {'bin_boundaries': [0.0, 1.0, 2.0],
           'dtype': 'float32',
           'epsilon': 0.01,
           'name': 'disc',
           'num_bins': None,
           'output_mode': 'int',
           'sparse': False}],
 'disc_adapt': [[4.0, 9.0, 14.0], [0, 2, 3]],
 'disc_onehot': [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
 'il': [[-1, 7, 5, 3], [1, 3, 0, 0],
        {'idf_weights': None,
         'invert': False,
         'mask_token': None,
         'max_tokens': None,
         'name': 'il',
         'num_oov_indices': 1,
         'oov_method': 'floormod',
         'oov_token': -1,
         'output_mode': 'int',
         'pad_to_max_tokens': False,
         'salt': None,
         'sparse': False,
         'trainable': True,
         'vocabulary': None,
         'vocabulary_dtype': 'int64',
         'vocabulary_size': 4}],
 'il_multi': [[1, 1, 0, 0, 0], [0, 0, 1, 0, 0]],
 'norm': [[[-1.141008973121643, -1.1936670541763306, -1.222108006477356],
           [-0.6352750062942505, -0.5875579714775085, -0.5615220069885254],
           [0.28942298889160156, 0.32335901260375977, 0.343872994184494],
           [1.4868619441986084, 1.4578659534454346, 1.4397560358047485]],
          [[11.723272323608398, 14.785758972167969, 18.27976417541504]],
          [[105.56488037109375, 133.38133239746094, 159.8502197265625]],
          {'axis': (-1,), 'invert': False, 'mean': None, 'name': 'norm', 'trainable': True, 'variance': None}],
 'norm_ds': [[[11.723272323608398, 14.785758972167969, 18.27976417541504]],
             [[105.56488037109375, 133.38133239746094, 159.8502197265625]]],
 'norm_inv': [[[2.0, 4.0, 7.656854152679443], [12.392304420471191, 18.0, 24.360679626464844],
               [31.393878936767578, 39.04051971435547, 47.25483322143555],
               [56.0, 65.24555206298828, 74.96574401855469]],
              {'axis': (-1,), 'invert': True, 'mean': 2.0, 'name': 'n2', 'trainable': True, 'variance': 4.0}],
 'norm_none': [[-1.2612990140914917, -1.1768159866333008, -1.022344946861267],
               [-0.8223119974136353, -0.5854340195655823, -0.3167490065097809],
               [-0.019656000658869743, 0.3033500015735626, 0.6503360271453857],
               [1.0197449922561646, 1.4102920293807983, 1.8208880424499512]],
 'norm_w': [('norm/mean', [3], False, 'float32'), ('norm/variance', [3], False, 'float32'),
            ('norm/count', [], False, 'int64')],
 'resize': [[[[2.4583330154418945, 3.4583330154418945, 4.4583330154418945],
              [7.7083330154418945, 8.708333015441895, 9.708333015441895], [12.958333015441895, 9.0, 10.0],
              [5.458333969116211, 6.458333969116211, 3.2083330154418945]],
             [[9.125, 10.125, 11.125], [12.25, 13.25, 14.25], [2.625, 3.625, 4.625], [7.875, 8.875, 9.875]],
             [[11.541666984558105, 5.458335876464844, 4.333333969116211],
              [4.041666030883789, 5.041666030883789, 6.041666030883789],
              [9.291666030883789, 10.291666030883789, 11.291666030883789],
              [7.458333969116211, 8.458333969116211, 9.458333969116211]]],
            [[[5.4583330154418945, 6.4583330154418945, 7.4583330154418945], [10.708333015441895, 11.0, 12.0],
              [11.0, 11.291666984558105, 2.375], [4.2083330154418945, 5.2083330154418945, 6.2083330154418945]],
             [[12.125, 13.125, 14.125], [0.375, 1.375, 2.375], [5.625, 6.625, 7.625], [10.875, 11.875, 12.875]],
             [[5.333333969116211, 6.333333969116211, 3.791666030883789],
              [7.041666030883789, 8.041666030883789, 9.041666030883789],
              [12.291666030883789, 13.291666030883789, 14.291666030883789],
              [6.208335876464844, 3.6666669845581055, 4.6666669845581055]]]],
 'resize_cfg': {'antialias': False,
                'crop_to_aspect_ratio': False,
                'data_format': 'channels_last',
                'fill_mode': 'constant',
                'fill_value': 0.0,
                'height': 3,
                'interpolation': 'bilinear',
                'name': 'rs',
                'pad_to_aspect_ratio': False,
                'trainable': True,
                'width': 4},
 'resize_crop': [[[[5.3333330154418945, 6.3333330154418945, 7.3333330154418945],
                   [10.333333015441895, 11.333333015441895, 12.333333015441895],
                   [11.555556297302246, 10.666666984558105, 4.111112117767334]],
                  [[12.0, 13.0, 14.0], [0.0, 1.0, 2.0], [5.0, 6.0, 7.0]],
                  [[5.444446086883545, 6.444446086883545, 3.666666030883789],
                   [6.666666030883789, 7.666666030883789, 8.666666030883789],
                   [11.666666030883789, 12.666666030883789, 13.666666030883789]]],
                 [[[8.333333015441895, 9.333333015441895, 10.333333015441895],
                   [13.333333015441895, 8.666666984558105, 9.666666984558105],
                   [5.111112117767334, 6.111112117767334, 3.3333330154418945]],
                  [[9.333333969116211, 10.333333969116211, 11.333333969116211], [3.0, 4.0, 5.0], [8.0, 9.0, 10.0]],
                  [[4.666666030883789, 5.666666030883789, 6.666666030883789],
                   [9.666666030883789, 10.666666030883789, 11.666666030883789],
                   [7.111114025115967, 8.111113548278809, 9.111113548278809]]]],
 'resize_near': [[[[3.0, 4.0, 5.0], [9.0, 10.0, 11.0], [15.0, 16.0, 0.0]],
                  [[7.0, 8.0, 9.0], [13.0, 14.0, 15.0], [2.0, 3.0, 4.0]],
                  [[15.0, 16.0, 0.0], [4.0, 5.0, 6.0], [10.0, 11.0, 12.0]],
                  [[2.0, 3.0, 4.0], [8.0, 9.0, 10.0], [14.0, 15.0, 16.0]]],
                 [[[6.0, 7.0, 8.0], [12.0, 13.0, 14.0], [1.0, 2.0, 3.0]],
                  [[10.0, 11.0, 12.0], [16.0, 0.0, 1.0], [5.0, 6.0, 7.0]],
                  [[1.0, 2.0, 3.0], [7.0, 8.0, 9.0], [13.0, 14.0, 15.0]],
                  [[5.0, 6.0, 7.0], [11.0, 12.0, 13.0], [0.0, 1.0, 2.0]]]],
 'sl': [[2, 0, 1], [3, 1, 5]],
 'sl_cfg': {'encoding': 'utf-8',
            'idf_weights': None,
            'invert': False,
            'mask_token': None,
            'max_tokens': None,
            'name': 'sl',
            'num_oov_indices': 1,
            'oov_method': 'floormod',
            'oov_token': '[UNK]',
            'output_mode': 'int',
            'pad_to_max_tokens': False,
            'salt': None,
            'sparse': False,
            'trainable': True,
            'vocabulary': None,
            'vocabulary_size': 6},
 'sl_count_mask': [[0, 2, 0, 0], [1, 0, 1, 1]],
 'sl_inv': ['[UNK]', 'a', 'c', 'b'],
 'sl_mask_int': [[2, 0, 0], [4, 1, 3]],
 'sl_multi': [[1, 1, 1, 0], [1, 0, 1, 1]],
 'sl_onehot': [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]],
 'sl_tfidf': [[1.1666669845581055, 0.5, 1.0, 0.0], [1.1666669845581055, 0.0, 1.0, 2.0]],
 'sl_vocab': ['[UNK]', 'b', 'a', 'e', 'd', 'c'],
 'slv_cfg': {'encoding': 'utf-8',
             'idf_weights': None,
             'invert': False,
             'mask_token': None,
             'max_tokens': None,
             'name': 'slv',
             'num_oov_indices': 1,
             'oov_method': 'floormod',
             'oov_token': '[UNK]',
             'output_mode': 'int',
             'pad_to_max_tokens': False,
             'salt': None,
             'sparse': False,
             'trainable': True,
             'vocabulary': ['a', 'b'],
             'vocabulary_size': 3},
 'tv': [[2, 6, 4, 0, 0], [3, 3, 1, 2, 5]],
 'tv_cfg': {'encoding': 'utf-8',
            'idf_weights': None,
            'max_tokens': None,
            'name': 'tv',
            'ngrams': None,
            'output_mode': 'int',
            'output_sequence_length': None,
            'pad_to_max_tokens': False,
            'ragged': False,
            'sparse': False,
            'split': 'whitespace',
            'standardize': 'lower_and_strip_punctuation',
            'trainable': True,
            'vocabulary': None,
            'vocabulary_size': 8},
 'tv_count': [[0, 2, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]],
 'tv_len': [['', '[UNK]', 'the', 'cat', 'sat'], [[2, 1, 4], [3, 0, 0]]],
 'tv_multi': [[0, 1, 1, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0]],
 'tv_tfidf': [[0.0, 1.3862940073013306, 0.6931470036506653, 0.0, 0.0, 0.0, 0.0],
              [0.8419100046157837, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
 'tv_vocab': ['', '[UNK]', 'the', 'cat', 'sat', 'dog', 'bird', 'a']}


@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count"])
def test_lookup_dtypes_as_keras(mode):
    # Keras 3.15: the layer computes in its vocabulary's dtype; its output spec is int64 in "int" mode and floatx
    # otherwise, while an eager call of the other modes returns int64 counts
    spec_dtype = "int64" if mode == "int" else "float32"
    for cls, vocab, in_dtype, data, dtype in ((L.IntegerLookup, [1, 4, 7], "int64", [[1], [4]], "int64"),
                                              (L.StringLookup, ["a", "b"], "string", [["a"], ["b"]], "string")):
        layer = cls(vocabulary=vocab, output_mode=mode)
        assert (layer.dtype, layer.compute_dtype, layer.variable_dtype) == (dtype, dtype, dtype)
        assert layer(tf.keras.Input(shape=(1,), dtype=in_dtype)).dtype == spec_dtype
        assert layer(tf.constant(data)).dtype == tf.int64


def test_lookup_inverted_spec_and_idf_length():
    assert L.StringLookup(vocabulary=["a", "b"], invert=True)(tf.keras.Input(shape=(1,), dtype="int64")).dtype \
        == "int64"
    with pytest.raises(ValueError) as e:
        L.IntegerLookup(vocabulary=[1, 4, 7], output_mode="tf_idf", idf_weights=[1.0, 1.0, 1.0, 1.0])
    assert str(e.value) == ("`idf_weights` must be the same length as vocabulary. len(idf_weights) is 4; "
                            "len(vocabulary) is 3")
