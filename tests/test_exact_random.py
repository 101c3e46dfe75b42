"""TF's exact random numbers: stateless ops, Keras 3 initializers and keras.random (values recorded from TF 2.21,
keras 3.15.1, CPU)."""
import numpy as np
import pytest

import tfcompat as tf
from tfcompat import keras

# TF 2.21
GOLD = {
    'sn': [[0.6953096389770508, 0.9332401752471924, 0.7322030067443848], [0.7592065334320068, 0.41920962929725647, 0.30076414346694946]],
    'su': [[0.2703325152397156, -0.16518670320510864, 0.720542848110199], [-0.06747394800186157, 1.2470629215240479, 0.8226255774497986]],
    'st': [[3.127580165863037, 5.110334396362305, 3.4350247383117676], [3.6600542068481445, 3.1148064136505127, 1.701158046722412]],
    'st64': [-0.1423118100189212, 0.7406072461585091, -0.552387756244845, -0.734450092480207, -0.39842023956588357],
    'sub16': [0.34375, 0.8828125, 0.484375, 0.1484375],
    'si': [13, 47, 12, 49, -3, -31],
    'sf': [-2882898006462487541, 4520458231610095266, -3428664559879909945],
    'glorot': [[-0.5630600452423096, 0.8135093450546265, 0.05976206064224243, 0.6314858198165894], [-0.5873187780380249, -0.7056336998939514, -0.45561903715133667, -0.8450032472610474], [0.034813523292541504, 0.5206038951873779, 0.10475003719329834, -0.007438480854034424]],
    'henormal': [[1.3166825771331787, 0.21782973408699036, -0.14753879606723785], [1.0309467315673828, 1.4511927366256714, -1.1953933238983154]],
    'rn_big': [0.04127310961484909, 0.0331917367875576, -0.006471072789281607],
    'tn': [[0.7224589586257935, 0.7514830827713013], [0.6260338425636292, 0.9267507195472717]],
    'vs_untr': [[-0.581848680973053, 0.8653590679168701], [-1.5661876201629639, 0.1978389173746109], [0.6649684906005859, -0.8713744878768921]],
    'mlp': [[[0.6632373332977295, 0.3011295795440674, -0.2616168260574341], [0.8332188129425049, -0.7812790274620056, 0.28206467628479004], [0.8711965084075928, -0.6149072647094727, 0.044049203395843506], [0.2421196699142456, -0.7658045291900635, -0.09932661056518555]], [0.0, 0.0, 0.0], [[0.07847795635461807, -0.5370826721191406], [1.1856180429458618, 0.5014048218727112], [0.8090376257896423, -0.7512924075126648]], [0.031594764441251755, 0.01364380493760109]],
    'sg1': [-0.6741727590560913, -0.35869255661964417, -1.8795816898345947],
    'sg2': [-0.6668517589569092, -2.4468414783477783, -0.6965371370315552],
    'sgstate': [7, 2],
    'glob1': [0.2589998245239258, 0.8624469041824341, 0.9384006261825562],
    'glob2': [0.06352484226226807, 0.3906947374343872, 0.6688766479492188],
    'randint': [8, 7, 2, 2, 5],
    'shuffle': [5, 4, 0, 2, 3, 1],
    'dropout': [[2.0, 0.0, 2.0, 2.0], [2.0, 0.0, 0.0, 0.0]],
    'ktn': [-0.5217792987823486, -1.0092291831970215, 1.4604647159576416, 0.21242766082286835],
}


def _eq(x, key):
    np.testing.assert_array_equal(np.asarray(x, dtype=np.asarray(GOLD[key]).dtype), np.asarray(GOLD[key]))


def test_stateless_float_ops_bit_exact():
    _eq(tf.random.stateless_normal([2, 3], seed=[7, -2], mean=0.5, stddev=0.3), "sn")
    _eq(tf.random.stateless_uniform([2, 3], seed=[7, -2], minval=-0.3, maxval=1.7), "su")
    _eq(tf.random.stateless_truncated_normal([2, 3], seed=[7, -2], mean=1.5, stddev=2.5), "st")
    _eq(tf.random.stateless_truncated_normal([5], seed=[1, 2], dtype=tf.float64), "st64")
    _eq(tf.cast(tf.random.stateless_uniform([4], seed=[1, 2], dtype=tf.bfloat16), tf.float32), "sub16")


def test_stateless_int_ops_bit_exact():
    _eq(tf.random.stateless_uniform([6], seed=[3, 4], minval=-50, maxval=50, dtype=tf.int32), "si")
    _eq(tf.random.stateless_uniform([3], seed=[3, 4], minval=None, maxval=None, dtype=tf.int64), "sf")


def test_stateless_errors():
    with pytest.raises(NotImplementedError, match="threefry"):
        tf.random.stateless_normal([2], seed=[1, 2], alg="threefry")
    with pytest.raises(ValueError, match="Please don't use unsigned integers"):
        tf.random.stateless_uniform([2], seed=[1, 2], minval=0, maxval=5, dtype=tf.uint32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="seed must have shape"):
        tf.random.stateless_normal([2], seed=[1, 2, 3])


def test_truncated_normal_large_is_bounded_and_exact_per_group():
    x = tf.random.stateless_truncated_normal([100003], seed=[5, 6]).numpy()
    assert np.abs(x).max() < 2 and x.shape == (100003,)
    np.testing.assert_array_equal(x[:5], tf.random.stateless_truncated_normal([5], seed=[5, 6]).numpy())


def test_seeded_keras_initializers():
    _eq(keras.initializers.GlorotUniform(seed=3)((3, 4)), "glorot")
    _eq(keras.initializers.HeNormal(seed=5)((2, 3)), "henormal")
    _eq(keras.initializers.RandomNormal(seed=2 ** 40 + 5)((3,)), "rn_big")
    _eq(keras.initializers.TruncatedNormal(mean=1.0, stddev=0.5, seed=9)((2, 2)), "tn")
    _eq(keras.initializers.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=4)((3, 2)), "vs_untr")


def test_set_random_seed_gives_tf_initial_weights():
    keras.utils.set_random_seed(42)
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dropout(0.5),
                          keras.layers.Dense(2, kernel_initializer="he_normal", bias_initializer="random_uniform")])
    for w, ref in zip(m.get_weights(), GOLD["mlp"]):
        np.testing.assert_array_equal(w, np.asarray(ref, np.float32))


def test_keras_random_seed_generator_and_global():
    g = keras.random.SeedGenerator(7)
    _eq(keras.random.normal((3,), seed=g), "sg1")
    _eq(keras.random.normal((3,), seed=g), "sg2")
    _eq(g.state.numpy(), "sgstate")
    keras.utils.set_random_seed(1)
    _eq(keras.random.uniform((3,)), "glob1")
    _eq(keras.random.uniform((3,)), "glob2")


def test_keras_random_int_seeded_ops():
    _eq(keras.random.randint((5,), 0, 10, seed=3), "randint")
    _eq(keras.random.shuffle(np.arange(6), seed=3), "shuffle")
    _eq(keras.random.dropout(np.ones((2, 4), np.float32), 0.5, seed=11), "dropout")
    _eq(keras.random.truncated_normal((4,), seed=2 ** 33), "ktn")


def test_keras_random_in_tf_function_advances_generators():
    keras.utils.set_random_seed(1)

    @tf.function
    def unseeded():
        return keras.random.uniform((3,))
    _eq(unseeded(), "glob1")
    _eq(unseeded(), "glob2")
    g = keras.random.SeedGenerator(7)

    @tf.function
    def seeded():
        return keras.random.normal((3,), seed=g)
    _eq(seeded(), "sg1")
    _eq(seeded(), "sg2")


# TF 2.21: tf.random.set_seed(5), then the stateful ops in this order (op seeds from the context's Python Random)
STATEFUL = {
    'n1': [-0.18030665814876556, -0.9502862691879272, -0.03964049369096756],
    'n2': [[1.4530572891235352, 2.6213107109069824], [2.4932188987731934, 2.549940586090088]],
    'u1': [-0.19281816482543945, 0.38828468322753906, -0.777799129486084],
    't1': [0.03700283169746399, 0.3459286391735077, -0.4155045449733734, -0.4705352485179901, 0.001037691137753427],
    'i1': [62, 2, 88, 41],
    's1': [-1.4616987705230713, -0.5901871919631958, 0.4928329885005951],
    's2': [1.121262550354004, 0.5073637962341309, 0.5170450806617737],
    'd64': [1.5186457247305665, -2.462778985104509, -1.122981661933827],
    'n1_again': [-0.18030665814876556, -0.9502862691879272, -0.03964049369096756],
    'op_only1': [0.08955085277557373, 0.38965606689453125, 0.5047136545181274],
    'op_only2': [0.28387653827667236, 0.6361337900161743, 0.9091997146606445],
}


def test_stateful_ops_with_global_and_op_seeds():
    S = STATEFUL
    tf.random.set_seed(5)
    np.testing.assert_array_equal(tf.random.normal([3]).numpy(), np.float32(S["n1"]))
    np.testing.assert_array_equal(tf.random.normal([2, 2], mean=1.0, stddev=2.0).numpy(), np.float32(S["n2"]))
    np.testing.assert_array_equal(tf.random.uniform([3], minval=-1.0, maxval=3.0).numpy(), np.float32(S["u1"]))
    np.testing.assert_array_equal(tf.random.truncated_normal([5]).numpy(), np.float32(S["t1"]))
    assert tf.random.uniform([4], minval=0, maxval=100, dtype=tf.int32).numpy().tolist() == S["i1"]
    np.testing.assert_array_equal(tf.random.normal([3], seed=3).numpy(), np.float32(S["s1"]))
    np.testing.assert_array_equal(tf.random.normal([3], seed=3).numpy(), np.float32(S["s2"]))   # the kernel goes on
    np.testing.assert_array_equal(tf.random.normal([3], dtype=tf.float64).numpy(), np.float64(S["d64"]))
    tf.random.set_seed(5)
    np.testing.assert_array_equal(tf.random.normal([3]).numpy(), np.float32(S["n1_again"]))
    tf.random.set_seed(None)
    np.testing.assert_array_equal(tf.random.uniform([3], seed=11).numpy(), np.float32(S["op_only1"]))
    np.testing.assert_array_equal(tf.random.uniform([3], seed=11).numpy(), np.float32(S["op_only2"]))


def test_shuffle_with_seeds():
    tf.random.set_seed(5)
    assert tf.random.shuffle(tf.range(10)).numpy().tolist() == [0, 5, 2, 8, 1, 6, 7, 9, 4, 3]     # TF 2.21
    assert tf.random.shuffle(tf.range(10), seed=4).numpy().tolist() == [2, 9, 3, 6, 7, 5, 0, 8, 4, 1]
    assert tf.random.shuffle(tf.range(10), seed=4).numpy().tolist() == [6, 3, 9, 8, 5, 7, 2, 1, 4, 0]
    assert tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=9).numpy()[:, 0].tolist() == [4, 8, 10, 0, 2, 6]
    assert tf.random.normal([2]).numpy().tolist() == [0.22652864456176758, 0.8106552958488464]
    tf.random.set_seed(None)
    assert tf.random.shuffle(tf.range(13), seed=4).numpy().tolist() == [0, 12, 11, 6, 9, 3, 4, 5, 8, 2, 7, 1, 10]
    assert tf.random.shuffle(tf.range(13), seed=4).numpy().tolist() == [8, 12, 3, 11, 0, 2, 5, 9, 1, 4, 6, 10, 7]


def test_generator_from_seed_draws_tfs_values():
    g = tf.random.Generator.from_seed(1)
    np.testing.assert_array_equal(g.normal([3]).numpy(),      # TF 2.21
                                  np.float32([0.4384227395057678, -0.5343984365463257, -0.07710261642932892]))
    assert g.state.numpy().tolist() == [769, 0, 0]
    np.testing.assert_array_equal(g.normal([3], mean=1.0, stddev=2.0).numpy(),
                                  np.float32([-0.6786450147628784, 1.3207356929779053, -0.7235691547393799]))
    np.testing.assert_array_equal(g.uniform([3], minval=-1.0, maxval=2.0).numpy(),
                                  np.float32([-0.2724039554595947, 1.870908498764038, -0.16815078258514404]))
    assert g.uniform([3], minval=0, maxval=10, dtype=tf.int32).numpy().tolist() == [4, 1, 5]
    np.testing.assert_array_equal(g.truncated_normal([5]).numpy(), np.float32(
        [-0.16787435114383698, 1.8853472471237183, -1.229236364364624, 0.3688398003578186, 0.5883346796035767]))
    assert g.state.numpy().tolist() == [4353, 0, 0]
    assert g.uniform_full_int([2], dtype=tf.int64).numpy().tolist() == [-3206527474837102847, -822974215341821412]
    g = tf.random.Generator.from_seed(3)
    assert g.make_seeds(2).numpy().tolist() == [[7657373526131797801, 7872641813117997903], [0, 0]]
    s = g.split(2)
    assert s[1].state.numpy().tolist() == [0, 0, -8182959903992508267]
    np.testing.assert_array_equal(s[1].normal([2]).numpy(), np.float32([0.3273269236087799, 0.25350406765937805]))
    np.testing.assert_array_equal(g.normal([2], dtype=tf.float64).numpy(), [-0.7380335638503743, -1.4949158495394894])


def test_set_random_seed_recurrent_and_conv_lstm_weights():
    """Keras 3's cells draw their SeedGenerator's seed from Python's random (SimpleRNN/ConvLSTM before their
    initializers, LSTM/GRU after), so later layers' seeds follow TF's."""
    keras.utils.set_random_seed(7)
    r = keras.Sequential([keras.Input((5, 3)), keras.layers.SimpleRNN(3, return_sequences=True),
                          keras.layers.LSTM(4, return_sequences=True), keras.layers.GRU(2), keras.layers.Dense(2)])
    e = keras.layers.Embedding(10, 3)
    e.build((None,))
    c = keras.layers.ConvLSTM2D(2, 3)
    c.build((None, 2, 6, 6, 1))
    d = keras.layers.Dense(2)
    d.build((None, 2))
    weights = r.get_weights() + e.get_weights() + c.get_weights() + d.get_weights()
    sums = [1.1764023303985596, -2.0270917117595673, 0.0, -0.8523294031620026, 1.2663503549993038, 4.0,  # TF 2.21
            0.9250384867191315, -0.16289179027080536, 0.0, 0.0055481791496276855, 0.0, -0.3488240893930197,
            1.2130815237760544, 2.646839425433427, 2.0, 1.1794538497924805, 0.0]
    abs_sums = [4.203019857406616, 4.702720254659653, 0.0, 12.727466017007828, 13.192038293927908, 4.0,
                11.015932768583298, 3.999879077076912, 0.0, 3.362119972705841, 0.0, 0.7450782116502523,
                9.357852354645729, 27.46607604296878, 2.0, 2.5086028575897217, 0.0]
    assert len(weights) == len(sums)
    for w, s, a in zip(weights, sums, abs_sums):    # orthogonal recurrent kernels: QR to float32 rounding
        np.testing.assert_allclose(np.float64(w).sum(), s, atol=1e-5)
        np.testing.assert_allclose(np.abs(np.float64(w)).sum(), a, rtol=1e-6)


def test_set_random_seed_attention_weights():
    """EinsumDense's VarianceScaling fans count the kernel's input/output axes (Keras 3); MultiHeadAttention's
    Dropout and Attention's SeedGenerator take Python's random when dropout > 0."""
    keras.utils.set_random_seed(3)
    inp = keras.Input((4, 8))
    x = keras.layers.MultiHeadAttention(2, 4, dropout=0.1)(inp, inp)
    x = keras.layers.LayerNormalization()(x)
    x = keras.layers.Attention(dropout=0.1)([x, x])
    x = keras.layers.GaussianNoise(0.1)(x)
    m = keras.Model(inp, keras.layers.Dense(3)(x))
    d = keras.layers.Dense(2)
    d.build((None, 2))
    weights = m.get_weights() + d.get_weights()
    sums = [3.018917, 0.0, 1.324359, 0.0, -1.820694, 0.0, 0.454496, 0.0, 8.0, 0.0, 2.627005, 0.0, 0.27833, 0.0]
    abs_sums = [20.050877, 0.0, 20.432703, 0.0, 20.08518, 0.0, 19.628748, 0.0, 8.0, 0.0, 7.360041, 0.0, 0.977453,
                0.0]                                                                                      # TF 2.21
    assert len(weights) == len(sums)
    for w, s, a in zip(weights, sums, abs_sums):
        np.testing.assert_allclose(np.float64(w).sum(), s, atol=2e-6)
        np.testing.assert_allclose(np.abs(np.float64(w)).sum(), a, atol=2e-6)


def test_set_random_seed_conv_and_wrapper_weights():
    """SeparableConv2D draws only its depthwise and pointwise seeds; AlphaDropout, SpatialDropout2D and
    GaussianDropout take theirs from Python's random as Keras 3's SeedGenerators do."""
    L = keras.layers
    keras.utils.set_random_seed(11)
    m = keras.Sequential([keras.Input((8, 8, 3)), L.SeparableConv2D(4, 3), L.DepthwiseConv2D(3), L.SpatialDropout2D(0.2),
                          L.Conv2DTranspose(2, 3), L.GaussianDropout(0.1), L.PReLU(), L.Reshape((-1, 2)),
                          L.Bidirectional(L.LSTM(2, return_sequences=True)), L.TimeDistributed(L.Dense(3)),
                          L.Conv1D(2, 3), L.AlphaDropout(0.1), L.SimpleRNN(2)])
    d = L.Dense(2)
    d.build((None, 2))
    weights = m.get_weights() + d.get_weights()
    sums = [-1.261978, 0.151206, 0.0, -0.226989, 0.0, -0.420418, 0.0, 0.0, -0.975068, -1.44353, 2.0, 2.498234,  # TF 2.21
            -2.076909, 2.0, 3.967997, 0.0, 0.241692, 0.0, 1.543437, -1.481654, 0.0, -0.253022, 0.0]
    abs_sums = [6.171852, 5.000643, 0.0, 7.09661, 0.0, 13.128933, 0.0, 0.0, 4.95167, 4.570805, 2.0, 5.580102, 4.747172,
                2.0, 5.714134, 0.0, 4.439405, 0.0, 1.842522, 2.825046, 0.0, 1.273906, 0.0]
    assert len(weights) == len(sums)
    for w, s, a in zip(weights, sums, abs_sums):
        np.testing.assert_allclose(np.float64(w).sum(), s, atol=2e-6)
        np.testing.assert_allclose(np.abs(np.float64(w)).sum(), a, atol=2e-6)


def test_stateless_image_ops_follow_tf_draws():
    x = tf.reshape(tf.range(2 * 4 * 4 * 3, dtype=tf.float32) / 96., [2, 4, 4, 3])
    np.testing.assert_allclose(tf.image.stateless_random_brightness(x, 0.3, seed=[1, 2]).numpy().sum(), 67.31789,
                               rtol=1e-6)                                                             # TF 2.21
    np.testing.assert_allclose(tf.image.stateless_random_contrast(x, 0.2, 0.9, seed=[1, 2]).numpy().sum(), 47.5,
                               rtol=1e-6)
    assert tf.image.stateless_random_flip_left_right(x, seed=[3, 4]).numpy()[:, 0, 0, 0].tolist() == [0.0, 0.59375]
    assert tf.image.stateless_random_flip_up_down(x, seed=[5, 4]).numpy()[:, 0, 0, 0].tolist() == [0.0, 0.875]
    np.testing.assert_allclose(tf.image.stateless_random_crop(x, [2, 2, 2, 3], seed=[1, 2]).numpy().sum(), 15.625,
                               rtol=1e-6)
    np.testing.assert_allclose(tf.image.stateless_random_hue(x, 0.2, seed=[1, 2]).numpy().sum(), 47.383827, rtol=1e-5)
    np.testing.assert_allclose(tf.image.stateless_random_saturation(x, 0.2, 0.9, seed=[1, 2]).numpy().sum(), 47.70916,
                               rtol=1e-5)


def test_keras_random_gamma_is_seeded():
    x = keras.random.gamma((4000,), 2.0, seed=3)
    assert x.dtype == tf.float32 and x.shape == (4000,)
    np.testing.assert_array_equal(x.numpy(), keras.random.gamma((4000,), 2.0, seed=3).numpy())
    assert abs(float(np.mean(x.numpy())) - 2.0) < 0.15
    assert keras.random.gamma((3,), 0.5, dtype="bfloat16", seed=keras.random.SeedGenerator(2)).dtype == tf.bfloat16


def test_keras_random_axes_noise_shapes_and_dtypes():
    assert keras.random.shuffle(np.arange(12).reshape(3, 4), axis=1, seed=5).numpy().tolist() == [[0, 3, 1, 2], [4, 7, 5, 6], [8, 11, 9, 10]]  # TF 2.21
    assert keras.random.dropout(np.ones((2, 3, 4), np.float16), 0.3, noise_shape=(None, 1, 4),
                                seed=7).numpy().tolist() == [[[0.0, 1.4287109375, 1.4287109375, 1.4287109375], [0.0, 1.4287109375, 1.4287109375, 1.4287109375], [0.0, 1.4287109375, 1.4287109375, 1.4287109375]], [[1.4287109375, 1.4287109375, 0.0, 0.0], [1.4287109375, 1.4287109375, 0.0, 0.0], [1.4287109375, 1.4287109375, 0.0, 0.0]]]
    assert keras.random.randint((6,), 0, 200, dtype="uint8", seed=9).numpy().tolist() == [139, 56, 33, 185, 127, 93]
    assert keras.random.uniform((3,), 2, 5, dtype="float64", seed=4).numpy().tolist() == [3.934348193402153, 2.903387072142204, 3.1617588218092267]
    assert keras.random.normal((2,), seed=-5).numpy().tolist() == [-0.3022841215133667, -1.7148256301879883]
    assert keras.random.truncated_normal((3,), 1.0, 2.0, dtype="float16", seed=3).numpy().tolist() == [-0.3427734375, 4.3515625, -0.888671875]


def test_split_fold_in_and_stateless_shuffle():
    assert tf.random.split([1, 2], 3).numpy().tolist() == [[1105988140, 1738052849], [-335576002, 370444179],
                                                           [10670227, -246211131]]                    # TF 2.21
    s = tf.random.split(tf.constant([1, 2], tf.int64))
    assert s.dtype == tf.int64 and s.numpy().tolist() == [[7464880146280614444, 1591045637757961278],
                                                          [-1057468755545501549, 2524363516007002203]]
    assert tf.random.fold_in([1, 2], 3).numpy().tolist() == [1105988140, 3]
    assert tf.random.fold_in(tf.constant([5, 6], tf.int64), tf.constant(7, tf.int64)).numpy().tolist() == \
        [-8166752306318964373, 7]
    assert tf.random.experimental.stateless_shuffle(tf.range(10), seed=[1, 2]).numpy().tolist() == \
        [0, 3, 8, 1, 5, 4, 9, 7, 6, 2]


def test_categorical_draws_tfs_samples():
    lg = tf.math.log([[0.5, 0.5], [0.1, 0.9], [0.3, 0.3], [0.2, 0.8]])
    assert tf.random.stateless_categorical(lg, 7, seed=[1, 2]).numpy().tolist() == [      # TF 2.21
        [1, 1, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1], [1, 0, 1, 0, 1, 0, 0], [1, 1, 1, 1, 1, 1, 1]]
    tf.random.set_seed(None)
    lg = tf.math.log([[0.1, 0.2, 0.3, 0.4]])
    got = [tf.random.categorical(lg, 5, seed=3).numpy().tolist() for _ in range(3)]
    assert got == [[[0, 3, 0, 3, 2]], [[3, 0, 1, 3, 3]], [[3, 3, 2, 3, 1]]]
    tf.random.set_seed(4)
    lg = tf.constant([[-np.inf, 0.0, 1.0, -np.inf, 2.0], [0.5, 0.5, -np.inf, 0.0, 0.0]])
    assert tf.random.categorical(lg, 6).numpy().tolist() == [[4, 4, 2, 2, 4, 4], [1, 1, 3, 0, 4, 1]]
    out = tf.random.categorical(lg, 3, dtype=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[4, 2, 2], [0, 0, 1]]
    assert tf.random.normal([2]).numpy().tolist() == [-1.0739679336547852, 0.23820334672927856]
    tf.random.set_seed(None)
    x = keras.random.categorical(np.log(np.float32([[0.2, 0.8], [0.6, 0.4]])), 6, seed=8)
    assert x.dtype == tf.int32 and x.numpy().tolist() == [[0, 1, 1, 1, 1, 1], [0, 0, 1, 0, 1, 0]]     # TF 2.21


def test_dropout_layer_masks_are_tfs():
    keras.utils.set_random_seed(5)
    d = keras.layers.Dropout(0.4)
    x = -np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    assert d(x, training=True).numpy().tolist() == [                                                   # TF 2.21
        [-1.6666666269302368, -3.3333332538604736, 0.0, -6.666666507720947],
        [-8.333333015441895, -10.0, -11.666666030883789, -13.333333015441895],
        [0.0, -16.66666603088379, -18.333332061767578, 0.0]]
    assert d(x, training=True).numpy().tolist() == [
        [-1.6666666269302368, 0.0, 0.0, -6.666666507720947], [-8.333333015441895, 0.0, -11.666666030883789, 0.0],
        [0.0, -16.66666603088379, -18.333332061767578, 0.0]]
    d2 = keras.layers.Dropout(0.5, noise_shape=(None, 1), seed=3)
    assert d2(x, training=True).numpy().tolist() == [[0.0, 0.0, 0.0, 0.0], [-10.0, -12.0, -14.0, -16.0],
                                                     [-18.0, -20.0, -22.0, -24.0]]
    m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dropout(0.5),
                          keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    h = m.fit(np.ones((16, 4), np.float32), np.ones((16, 1), np.float32), batch_size=8, epochs=2, verbose=0,
              shuffle=False)
    np.testing.assert_allclose(h.history["loss"], [2.0273, 0.47479], atol=2e-5)


def test_gaussian_noise_layers_draw_tfs_noise():
    keras.utils.set_random_seed(8)
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    g = keras.layers.GaussianNoise(0.5)
    assert g(x, training=True).numpy().tolist() == [                                                   # TF 2.21
        [1.186530351638794, 3.1735198497772217, 3.169841766357422], [4.646749019622803, 5.080390930175781,
                                                                     5.867185592651367]]
    assert g(x, training=True).numpy().tolist() == [
        [0.45174771547317505, 1.880834937095642, 3.5130410194396973], [4.192594528198242, 4.332788467407227,
                                                                       6.186280250549316]]
    gd = keras.layers.GaussianDropout(0.3, seed=4)
    assert gd(x, training=True).numpy().tolist() == [
        [0.6190906167030334, 3.1330208778381348, -0.07593154907226562], [4.518064022064209, 7.1766204833984375,
                                                                         2.5773088932037354]]


def test_spatial_dropout_masks_are_tfs():
    keras.utils.set_random_seed(2)
    x = np.arange(1, 25, dtype=np.float32).reshape(2, 2, 2, 3)
    s = keras.layers.SpatialDropout2D(0.5)
    assert s(x, training=True).numpy()[:, 0, 0, :].tolist() == [[2.0, 0.0, 6.0], [26.0, 28.0, 30.0]]     # TF 2.21
    assert s(x, training=True).numpy()[:, 1, 1, :].tolist() == [[20.0, 0.0, 0.0], [0.0, 46.0, 0.0]]
    s1 = keras.layers.SpatialDropout1D(0.4, seed=3)
    assert s1(x[:, 0], training=True).numpy().tolist() == [
        [[0.0, 3.3333332538604736, 5.0], [0.0, 8.333333015441895, 10.0]],
        [[21.66666603088379, 0.0, 0.0], [26.66666603088379, 0.0, 0.0]]]
    keras.utils.set_random_seed(2)
    a = tf.keras.layers.AlphaDropout(0.5)
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    assert a(x, training=True).numpy().tolist() == [[1.6655988693237305, -0.7791938185691833, 3.438408374786377],
                                                    [4.324813365936279, 5.211218357086182, 6.097622871398926]]
    assert a(x, training=True).numpy().tolist() == [[1.6655988693237305, -0.7791938185691833, -0.7791938185691833],
                                                    [-0.7791938185691833, 5.211218357086182, -0.7791938185691833]]


def test_attention_dropout_masks_are_tfs():
    keras.utils.set_random_seed(6)
    x = np.linspace(-1, 1, 2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    mha = keras.layers.MultiHeadAttention(2, 2, dropout=0.5)
    o1, o2 = mha(x, x, training=True).numpy(), mha(x, x, training=True).numpy()
    np.testing.assert_allclose(o1, [[[-0.27873000502586365, -0.08100999891757965, 0.4068099856376648, -0.05646999925374985], [-0.299560010433197, 0.16875000298023224, 0.4164600074291229, 0.1647000014781952], [-0.12109000235795975, -0.060270000249147415, 0.18386000394821167, -0.07190000265836716]], [[-0.48377999663352966, 0.7162399888038635, 0.8569300174713135, 0.46988001465797424], [-0.23183000087738037, 0.39037999510765076, 0.48205000162124634, 0.22529999911785126], [-0.10671000182628632, 0.24254000186920166, 0.28641998767852783, 0.13738000392913818]]], atol=2e-5)   # TF 2.21
    np.testing.assert_allclose(o2, [[[0.3118399977684021, -0.4520300030708313, -0.4195300042629242, -0.4360499978065491], [-0.18478000164031982, -0.05618000030517578, 0.26576000452041626, -0.0321200005710125], [-0.11590000241994858, -0.14071999490261078, 0.1846500039100647, -0.13050000369548798]], [[-0.09952999651432037, 0.1603900045156479, 0.2449900060892105, 0.08038000017404556], [-0.16662999987602234, 0.2701599895954132, 0.3475799858570099, 0.1695999950170517], [0.07474999874830246, -0.01133000012487173, -0.034170001745224, -0.03290000185370445]]], atol=2e-5)
    att = keras.layers.Attention(dropout=0.5)
    np.testing.assert_allclose(att([x, x], training=True).numpy(), [[[-0.31946998834609985, -0.2709200084209442, -0.22237999737262726, -0.1738400012254715], [-0.08296000212430954, -0.05925999954342842, -0.03554999828338623, -0.011850000359117985], [0.0, 0.0, 0.0, 0.0]], [[0.2558499872684479, 0.3127099871635437, 0.36956000328063965, 0.4264200031757355], [0.0, 0.0, 0.0, 0.0], [0.00558000011369586, 0.01672999933362007, 0.027879999950528145, 0.03903000056743622]]], atol=2e-5)
