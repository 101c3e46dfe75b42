"""Smaller tf.keras names: the sparse activations and threshold, utils.get_source_inputs,
datasets.reuters.get_label_names, random.binomial/beta; golden values recorded from TF 2.21 / Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

A = tf.keras.activations
X = [[-2.0, -1.0, -0.5, 0.0, 0.3, 1.0, 2.5], [0.1, 0.2, -3, 4, 0, 0, 1]]


def test_sparse_activations_values():
    x = tf.constant(X)
    # TF 2.21
    np.testing.assert_allclose(A.sparse_plus(x).numpy(), [[0.0, 0.0, 0.0625, 0.25, 0.4225, 1.0, 2.5],
                                                          [0.3025, 0.36, 0.0, 4.0, 0.25, 0.25, 1.0]], rtol=1e-6)
    assert A.sparse_sigmoid(x).numpy().tolist() == [
        [0.0, 0.0, 0.25, 0.5, 0.6499999761581421, 1.0, 1.0], [0.550000011920929, 0.6000000238418579, 0.0, 1.0, 0.5,
                                                              0.5, 1.0]]
    assert A.sparsemax(x).numpy().tolist() == [[0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 1, 0, 0, 0]]
    np.testing.assert_allclose(A.sparsemax(x, axis=0).numpy(), [[0, 0, 1, 0, 0.5, 1, 1], [1, 1, 0, 1, 0.2, 0, 0]],
                               rtol=1e-6)
    assert A.threshold(x, 0.2, -7.0).numpy().tolist() == [
        [-7.0, -7.0, -7.0, -7.0, 0.30000001192092896, 1.0, 2.5], [-7.0, -7.0, -7.0, 4.0, -7.0, -7.0, 1.0]]
    out = A.threshold(tf.constant([1, 5, 3]), 2, 0)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [0, 5, 3]
    assert A.sparse_plus(np.array([0.5, -0.5])).dtype == tf.float64
    assert A.sparsemax(np.array([0.5, -0.5])).numpy().tolist() == [1.0, 0.0]
    # Keras's TF backend sums the cumulative sums in its threshold, so equal logits do not give 1/n
    y = tf.keras.layers.Dense(3, activation="sparsemax", kernel_initializer="ones")(tf.constant([[-2.0, -1.0]]))
    np.testing.assert_allclose(y.numpy(), [[3.3333335, 3.3333335, 3.3333335]], rtol=1e-6)


def test_sparse_activations_registry_and_errors():
    for name in ("sparse_plus", "sparse_sigmoid", "sparsemax", "threshold"):
        fn = getattr(A, name)
        assert A.get(name) is fn and A.serialize(fn) == name and A.deserialize(name) is fn
    with pytest.raises(TypeError, match="Cannot convert 0.25 to EagerTensor of dtype int32"):
        A.sparse_plus(tf.constant([1, -2]))
    with pytest.raises(TypeError, match="Cannot convert 0.0 to EagerTensor of dtype int64"):
        A.sparse_sigmoid(tf.constant([1, 2], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Sub as input #1"):
        A.sparsemax(tf.constant([1, -2]))
    with pytest.raises(TypeError, match="Cannot convert -7.5 to EagerTensor of dtype int32"):
        A.threshold(tf.constant([1, 5, 3]), 2, -7.5)
    with pytest.raises(TypeError, match="'>' not supported between instances of 'list' and 'float'"):
        A.threshold([1.0, 3.0], 2.0, 0.0)


def test_sparse_activation_gradients():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = (tf.reduce_sum(A.sparsemax(x) * tf.constant([1.0, 2, 3, 4, 5, 6, 7])) + tf.reduce_sum(A.sparse_plus(x))
             + tf.reduce_sum(A.sparse_sigmoid(x)) + tf.reduce_sum(A.threshold(x, 0.2, -1.0)))
    # TF 2.21 (tf.where's gradients at the tie points -1 and 1)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[0.0, 0.0, 0.75, 1.0, 2.15, 2.0, 2.0],
                                                             [1.05, 1.1, 0.0, 2.0, 1.0, 1.0, 2.0]], rtol=1e-6)


def test_get_source_inputs():
    k = tf.keras
    g = k.utils.get_source_inputs
    a, b = k.Input((3,), name="a"), k.Input((3,), name="b")
    x = k.layers.Dense(2)(a)
    y = k.layers.Concatenate()([x, b])
    z = k.layers.Dense(1)(k.layers.Add()([y, y]))
    # TF 2.21
    assert [t.name for t in g(a)] == ["a"] and [t.name for t in g(x)] == ["a"]
    assert [t.name for t in g(y)] == ["a", "b"] and [t.name for t in g(z)] == ["a", "b"]
    m = k.Model([a, b], z)
    assert [t.name for t in g(m.output)] == ["a", "b"]
    c = k.Input((3,), name="c")
    assert [t.name for t in g(k.Model(a, x)(c))] == ["c"]
    kt = k.KerasTensor((2,))
    assert g(kt) is kt and g(5) == 5
    arr = np.ones(2)
    assert g(arr) is arr


def test_reuters_label_names():
    names = tf.keras.datasets.reuters.get_label_names()
    # TF 2.21
    assert type(names) is tuple and len(names) == 46
    assert names[:5] == ("cocoa", "grain", "veg-oil", "earn", "acq") and names[-3:] == ("wpi", "hog", "lead")
    assert names[19] == "money-fx" and names[27] == "strategic-metal"


def test_random_binomial():
    R = tf.keras.random
    out = R.binomial((2, 3), counts=10, probabilities=0.5, seed=1)
    # TF 2.21's values (its StatelessRandomBinomial kernel: inversion and BTRS on per-element Philox streams)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[3.0, 4.0, 4.0], [6.0, 6.0, 1.0]]
    assert R.binomial((6,), counts=100, probabilities=0.93, seed=5).numpy().tolist() == [
        93.0, 95.0, 93.0, 92.0, 97.0, 97.0]
    out = R.binomial((2, 3), counts=[1, 50, 1000], probabilities=[0.3, 0.5, 0.02], dtype="int32", seed=7)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[0, 19, 23], [1, 28, 20]]
    g = R.SeedGenerator(7)
    assert [R.binomial((4,), 20, 0.5, seed=g).numpy().tolist() for _ in range(2)] == [
        [11.0, 7.0, 7.0, 12.0], [10.0, 12.0, 10.0, 10.0]]
    big = R.binomial((3000,), counts=20, probabilities=0.3, seed=2).numpy()
    assert big[:8].tolist() == [9.0, 6.0, 4.0, 4.0, 5.0, 2.0, 7.0, 7.0]
    assert R.binomial((3,), counts=5, probabilities=0.5, dtype="float64", seed=1).dtype == tf.float64
    # TF 2.21: probabilities above 1 give `counts`, negative counts 0
    assert R.binomial((3,), counts=5, probabilities=1.5, seed=1).numpy().tolist() == [5.0, 5.0, 5.0]
    assert R.binomial((3,), counts=-5, probabilities=0.5, seed=1).numpy().tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape passed in must end with broadcasted shape. "
                                                             r"\[Op:StatelessRandomBinomial\]"):
        R.binomial((2, 3), counts=[1, 2], probabilities=0.5, seed=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of bool is not in the list of "
                                                             "allowed values: half, float, double, int32, int64"):
        R.binomial((3,), counts=5, probabilities=0.5, dtype="bool", seed=1)
    with pytest.raises(tf.errors.NotFoundError, match="Could not find device for node: {{node StatelessRandomBinomial}}"):
        R.binomial((3,), counts=tf.constant([5, 5, 5]), probabilities=0.5, seed=1)


def test_random_gamma():
    R = tf.keras.random
    # TF 2.21's values (its StatelessRandomGammaV3 kernel, clamped to the smallest normal as tf.random does)
    assert R.gamma((2,), alpha=[0., 1.], seed=1).numpy().tolist() == [1.1754943508222875e-38, 0.19530309736728668]
    assert R.gamma((3,), alpha=0.5, seed=R.SeedGenerator(2)).numpy().tolist() == [
        0.022260677069425583, 0.7627983689308167, 0.009317541494965553]
    assert R.gamma((4,), alpha=2.5, seed=3, dtype="float64").numpy().tolist() == [
        2.08692819359643, 4.45293870668699, 2.257739567248647, 0.27115037198021574]
    assert R.gamma((2, 2), alpha=[0.3, 7.], seed=3).numpy().tolist() == [
        [0.06990474462509155, 6.825476169586182], [1.7322041988372803, 2.437527656555176]]
    out = R.gamma((3,), alpha=2.5, seed=3, dtype="float16")
    assert out.dtype == tf.float16 and out.numpy().tolist() == [2.087890625, 4.453125, 2.2578125]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape passed in must end with broadcasted shape. "
                                                             r"\[Op:StatelessRandomGammaV3\]"):
        R.gamma((2, 3), alpha=tf.ones((1, 3)), seed=1)


def test_random_beta():
    R = tf.keras.random
    out = R.beta((2, 3), alpha=2.0, beta=3.0, seed=1)
    # TF 2.21's values
    assert out.dtype == tf.float32 and out.numpy().tolist() == [
        [0.42414435744285583, 0.46459266543388367, 0.24712884426116943],
        [0.2584269046783447, 0.5896394848823547, 0.5308852195739746]]
    assert R.beta((2, 3), alpha=[1., 2., 3.], beta=[[1.], [2.]], seed=1).numpy().tolist() == [
        [0.495758593082428, 0.7788634896278381, 0.9499411582946777],
        [0.2971036434173584, 0.7300264835357666, 0.7193781733512878]]
    assert R.beta((3,), alpha=2, beta=3, dtype="float64", seed=1).numpy().tolist() == [
        0.4241443853226416, 0.46459265020504875, 0.24712885656320493]
    assert R.beta((4,), 0.2, 0.7, seed=5).numpy().tolist() == [
        5.543317092815414e-05, 0.013117738999426365, 3.929182639694773e-06, 0.0033957157284021378]
    g = R.SeedGenerator(3)
    assert [R.beta((3,), 2., 3., seed=g).numpy().tolist() for _ in range(2)] == [
        [0.5447314381599426, 0.5790868401527405, 0.4006236791610718],
        [0.2873484492301941, 0.5563738942146301, 0.40738850831985474]]
    assert g.state.numpy().tolist() == [3, 2]         # one seed draw per call, as Keras
    assert R.beta((3,), alpha=2., beta=3., dtype="bfloat16", seed=1).dtype == tf.bfloat16
    # TF 2.21: a zero alpha gives 0, a zero beta 1, a negative or NaN parameter NaN
    assert R.beta((3,), alpha=[0., 1., 2.], beta=[1., 0., float("inf")], seed=1).numpy().tolist() == [0.0, 1.0, 0.0]
    nan = R.beta((3,), alpha=[-1., float("nan"), 2.], beta=[1., 1, 1], seed=1).numpy()
    assert np.isnan(nan[:2]).all() and nan[2] == np.float32(0.9218403)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'dtype' of int32 is not in the list of "
                                                             "allowed values: half, float, double"):
        R.beta((3,), alpha=2, beta=3, dtype="int32", seed=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[2,3\]"):
        R.beta((2, 3), alpha=[1., 2.], beta=3., seed=1)
    with pytest.raises(ValueError, match="Argument `seed` must be either an integer or an instance of `SeedGenerator`"):
        R.beta((3,), alpha=2., beta=3., seed=1.5)


def _run_optimizer(opt, shapes=((2, 3), (3,), (2, 2, 3)), steps=3):
    rng = np.random.RandomState(0)
    vs = [tf.Variable(rng.randn(*s).astype("float32"), name=f"v{i}") for i, s in enumerate(shapes)]
    for _ in range(steps):
        gs = [tf.constant(rng.randn(*s).astype("float32")) for s in shapes]
        opt.apply_gradients(zip(gs, vs))
    return vs


def test_lamb():
    opt = tf.keras.optimizers.Lamb()
    vs = _run_optimizer(opt)
    # TF 2.21: slot names and order, values after three steps
    assert [(v.path, tuple(v.shape), v.dtype) for v in opt.variables] == [
        ("lamb/iteration", (), "int64"), ("lamb/learning_rate", (), "float32"),
        ("lamb/v0_0_momentum", (2, 3), "float32"), ("lamb/v0_0_velocity", (2, 3), "float32"),
        ("lamb/v1_0_momentum", (3,), "float32"), ("lamb/v1_0_velocity", (3,), "float32"),
        ("lamb/v2_0_momentum", (2, 2, 3), "float32"), ("lamb/v2_0_velocity", (2, 2, 3), "float32")]
    np.testing.assert_allclose(vs[0].numpy().ravel(), [1.7650641202926636, 0.39497682452201843, 0.9843482971191406,
                                                       2.238518238067627, 1.8723598718643188, -0.9800299406051636],
                               rtol=1e-6)
    np.testing.assert_allclose(vs[1].numpy(), [0.9520726203918457, -0.15315385162830353, -0.10415477305650711],
                               rtol=1e-6)
    np.testing.assert_allclose(vs[2].numpy().ravel()[:4], [0.40691107511520386, 0.1443442702293396,
                                                           1.457575798034668, 0.7641461491584778], rtol=1e-6)
    np.testing.assert_allclose(opt.variables[2].numpy().ravel()[:3], [-0.27324947714805603, 0.26333174109458923,
                                                                      -0.14616216719150543], rtol=1e-6)
    assert opt.get_config() == {
        "name": "lamb", "learning_rate": 0.0010000000474974513, "weight_decay": None, "clipnorm": None,
        "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
        "ema_overwrite_frequency": None, "loss_scale_factor": None, "gradient_accumulation_steps": None,
        "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07}
    opt = tf.keras.optimizers.Lamb(learning_rate=0.01, beta_1=0.8, beta_2=0.99, epsilon=1e-6, weight_decay=0.01)
    vs = _run_optimizer(opt)
    np.testing.assert_allclose(vs[1].numpy(), [0.9702407717704773, -0.1690233200788498, -0.11163404583930969],
                               rtol=1e-6)
    # a zero weight norm or a zero step takes the plain Adam-like step / nothing (TF 2.21)
    v = tf.Variable([0.0, 0.0])
    tf.keras.optimizers.Lamb().apply_gradients([(tf.constant([1.0, 2.0]), v)])
    np.testing.assert_allclose(v.numpy(), [-0.0009999932954087853, -0.0009999934118241072], rtol=1e-6)
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: lamb"):
        tf.keras.optimizers.get("lamb")
    assert type(tf.keras.optimizers.deserialize({"class_name": "Lamb", "config": {}})) is tf.keras.optimizers.Lamb


def test_adafactor():
    opt = tf.keras.optimizers.Adafactor()
    vs = _run_optimizer(opt)
    # TF 2.21: r and c named as the variable, int32 placeholders for a vector, then the velocity
    assert [(v.path, tuple(v.shape), v.dtype) for v in opt.variables] == [
        ("adafactor/iteration", (), "int64"), ("adafactor/learning_rate", (), "float32"),
        ("adafactor/v0:0", (2,), "float32"), ("adafactor/v0:0", (3,), "float32"),
        ("adafactor/v0_0_velocity", (2, 3), "float32"), ("adafactor/v1:0", (), "int32"),
        ("adafactor/v1:0", (), "int32"), ("adafactor/v1_0_velocity", (3,), "float32"),
        ("adafactor/v2:0", (2, 2), "float32"), ("adafactor/v2:0", (2, 3), "float32"),
        ("adafactor/v2_0_velocity", (2, 2, 3), "float32")]
    np.testing.assert_allclose(vs[0].numpy().ravel(), [1.7666844129562378, 0.3965562880039215, 0.9837104678153992,
                                                       2.2416210174560547, 1.869404673576355, -0.9771712422370911],
                               rtol=1e-6)
    np.testing.assert_allclose(vs[1].numpy(), [0.951350212097168, -0.15224866569042206, -0.10343127697706223],
                               rtol=1e-6)
    np.testing.assert_allclose(opt.variables[2].numpy(), [1.3633688688278198, 1.3793885707855225], rtol=1e-6)
    np.testing.assert_allclose(opt.variables[9].numpy().ravel()[:3], [0.8834583163261414, 0.5815041661262512,
                                                                      0.43912214040756226], rtol=1e-6)
    opt = tf.keras.optimizers.Adafactor(learning_rate=0.5, relative_step=False, clip_threshold=0.5,
                                        beta_2_decay=-0.5, epsilon_2=1e-2)
    vs = _run_optimizer(opt)
    np.testing.assert_allclose(vs[0].numpy().ravel(), [2.5710501670837402, -0.5040181279182434, 2.2783761024475098,
                                                       2.6041693687438965, 2.272083282470703, -0.807776153087616],
                               rtol=1e-6)
    np.testing.assert_allclose(vs[2].numpy().ravel()[:4], [-0.09333783388137817, 0.4629531800746918,
                                                           2.259993076324463, 1.2653710842132568], rtol=1e-5)
    cfg = opt.get_config()
    assert {k: cfg[k] for k in ("beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold", "relative_step")} == {
        "beta_2_decay": -0.5, "epsilon_1": 1e-30, "epsilon_2": 0.01, "clip_threshold": 0.5, "relative_step": False}
    assert type(tf.keras.optimizers.get("adafactor")) is tf.keras.optimizers.Adafactor


def test_lamb_adafactor_fit():
    x = np.random.RandomState(0).randn(32, 4).astype("float32")
    y = np.random.RandomState(1).randn(32, 2).astype("float32")
    # TF 2.21: losses of two epochs through fit's traced steps
    for opt, losses in [(tf.keras.optimizers.Lamb(learning_rate=0.01, weight_decay=0.004), [45.786835, 38.772854]),
                        (tf.keras.optimizers.Adafactor(learning_rate=0.1), [31.883135, 10.70698])]:
        m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, kernel_initializer="ones"),
                                 tf.keras.layers.Dense(2, kernel_initializer="ones")])
        m.compile(optimizer=opt, loss="mse")
        h = m.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False)
        np.testing.assert_allclose(h.history["loss"], losses, rtol=1e-5)


def test_tf_random_stateless_binomial():
    # TF 2.21's values and errors (the op keras.random.binomial draws through)
    out = tf.random.stateless_binomial([2, 3], seed=[1, 2], counts=10., probs=0.5)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[6, 6, 7], [7, 6, 6]]
    out = tf.random.stateless_binomial([3], seed=tf.constant([1, 2], tf.int64), counts=[1., 5., 100.], probs=0.7,
                                       output_dtype=tf.float64)
    assert out.dtype == tf.float64 and out.numpy().tolist() == [0.0, 3.0, 63.0]
    assert tf.random.stateless_binomial([3], seed=[1, 2], counts=10, probs=0.5).numpy().tolist() == [6, 6, 7]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\] "
                                                             r"\[Op:StatelessRandomBinomial\]"):
        tf.random.stateless_binomial([3], seed=[1, 2, 3], counts=10., probs=0.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tseed' of float is not in the list"):
        tf.random.stateless_binomial([3], seed=[1., 2.], counts=10., probs=0.5)
    with pytest.raises(tf.errors.NotFoundError, match=r"StatelessRandomBinomial\[S=DT_INT32, T=DT_INT32, "
                                                      r"Tseed=DT_INT32, dtype=DT_INT32\]"):
        tf.random.stateless_binomial([3], seed=[1, 2], counts=tf.constant(3), probs=0.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"counts and probs must have compatible batch "
                                                             r"dimensions: \[3\] vs. \[2\]"):
        tf.random.stateless_binomial([3, 2], seed=[1, 2], counts=[1., 2, 3], probs=[0.5, 0.2])
