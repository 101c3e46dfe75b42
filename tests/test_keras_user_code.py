"""Everyday Keras user code that probe programs found diverging from TF 2.21 + Keras 3.15 (values recorded there)."""
import re

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


def test_sparse_ce_label_out_of_range_is_tf_kernel_error():
    probs = np.array([[.2, .3, .5], [.2, .3, .5]])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        keras.losses.sparse_categorical_crossentropy(np.array([0, 5]), probs)
    assert str(e.value) == (
        "{{function_node __wrapped__SparseSoftmaxCrossEntropyWithLogits_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} Received a label value of 5 which is outside the valid range of [0, 3).  Label values: "
        "0 5 [Op:SparseSoftmaxCrossEntropyWithLogits] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match="label value of -1 .*Label values: -1 1 "):
        keras.losses.SparseCategoricalCrossentropy(from_logits=True)(np.array([-1, 1]), probs)


def test_fit_with_out_of_range_sparse_label_in_a_later_batch():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation="softmax")])
    m.compile(loss="sparse_categorical_crossentropy")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 7 .*Label values: 1 7"):
        m.fit(np.ones((6, 2)), np.array([0, 1, 2, 1, 1, 7]), batch_size=2, verbose=0, shuffle=False)
    m.fit(np.ones((6, 2)), np.array([0, 1, 2, 1, 1, 2]), batch_size=2, verbose=0, shuffle=False)


def _class_weight_model():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation="softmax", kernel_initializer="ones")])
    m.compile(loss="sparse_categorical_crossentropy", optimizer=keras.optimizers.SGD(0.1))
    return m


_X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.2]], "float32")
_Y = np.array([0, 1, 2, 2])


def test_class_weight_missing_class_float_labels_dataset_and_generator():
    m = _class_weight_model()
    h = m.fit(_X, _Y, batch_size=4, verbose=0, shuffle=False, class_weight={0: 2.0, 1: 3.0})
    assert round(h.history["loss"][0], 5) == 1.92257       # class 2 weighs 1
    h = m.fit(_X, _Y.astype("float32") + 0.2, batch_size=4, verbose=0, shuffle=False,
              class_weight={0: 2.0, 1: 3.0, 2: 0.5})
    assert round(h.history["loss"][0], 5) == 1.60116
    ds = tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 2 is not in \[0, 2\)"):
        m.fit(ds, verbose=0, shuffle=False, class_weight={0: 2.0, 1: 3.0})      # after one step on the first batch

    def gen():
        yield _X, _Y
    with pytest.raises(ValueError, match=r"^Argument `class_weight` is not supported for Python generator inputs. "
                                         r"Received: class_weight=\{0: 2.0, 1: 3.0\}$"):
        m.fit(gen(), verbose=0, class_weight={0: 2.0, 1: 3.0})
    assert np.isclose(m.train_on_batch(_X, _Y, class_weight={0: 2.0, 1: 3.0}), 1.761533260345459)


_YT = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1]], "float32")
_YP = np.array([[0.8, 0.3, 0.6], [0.4, 0.6, 0.1], [0.2, 0.9, 0.7], [0.1, 0.2, 0.3]], "float32")
_SW = np.array([1.0, 0.5, 2.0, 0.0], "float32")


@pytest.mark.parametrize("kw, plain, weighted, fbeta_half", [
    ({}, [0.66667, 1.0, 0.66667], [0.57143, 1.0, 0.5], [0.71429, 1.0, 0.0]),
    ({"average": "micro"}, 0.8, 0.75, 0.85366),
    ({"average": "macro"}, 0.77778, 0.69048, 0.57143),
    ({"average": "weighted"}, 0.77778, 0.70857, 0.71429),
    ({"threshold": 0.5}, [0.66667, 1.0, 0.5], [0.57143, 1.0, 0.5], [0.71429, 1.0, 0.38462]),
    ({"average": "macro", "threshold": 0.25}, 0.7, 0.65181, 0.56592),
])
def test_f1_and_fbeta_scores(kw, plain, weighted, fbeta_half):
    f = keras.metrics.F1Score(**kw)
    f.update_state(_YT, _YP)
    np.testing.assert_allclose(f.result().numpy(), plain, atol=1e-5)
    f.update_state(_YT, _YP, sample_weight=_SW)
    np.testing.assert_allclose(f.result().numpy(), weighted, atol=1e-5)
    fb = keras.metrics.FBetaScore(beta=0.5, **kw)
    fb.update_state(_YT, _YP, sample_weight=_SW)
    np.testing.assert_allclose(fb.result().numpy(), fbeta_half, atol=1e-5)


def test_f1_score_config_variables_and_errors():
    f = keras.metrics.F1Score(average="macro", threshold=0.25)
    assert f.get_config() == {'name': 'f1_score', 'dtype': 'float32', 'average': 'macro', 'threshold': 0.25}
    assert keras.metrics.FBetaScore(beta=0.5).get_config()["beta"] == 0.5
    with pytest.raises(AttributeError, match="^'F1Score' object has no attribute 'true_positives'$"):
        f.result()
    f.update_state(_YT, _YP)
    assert [v.path for v in f.variables] == ['f1_score/true_positives', 'f1_score/false_positives',
                                             'f1_score/false_negatives', 'f1_score/intermediate_weights']
    f.reset_state()
    assert float(f.result()) == 0.0
    with pytest.raises(ValueError, match=r"^Invalid `average` argument value. Expected one of: \{None, 'micro', "
                                         r"'macro', 'weighted'\}. Received: average=x$"):
        keras.metrics.F1Score(average="x")
    with pytest.raises(ValueError, match="^Invalid `beta` argument value. It should be a Python float. Received: "
                                         "beta=2 of type '<class 'int'>'$"):
        keras.metrics.FBetaScore(beta=2)
    with pytest.raises(ValueError, match=r"^Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                                         r"Received: threshold=1.5$"):
        keras.metrics.F1Score(threshold=1.5)
    with pytest.raises(ValueError, match=r"^FBetaScore expects 2D inputs with shape \(batch_size, output_dim\). "
                                         r"Received input shapes: y_pred.shape=\(3,\) and y_true.shape=\(3,\).$"):
        keras.metrics.F1Score()(np.ones(3), np.ones(3))
    assert keras.metrics.serialize(keras.metrics.F1Score()) == {
        'module': 'keras.metrics', 'class_name': 'F1Score', 'config': {
            'name': 'f1_score', 'dtype': 'float32', 'average': None, 'threshold': None}, 'registered_name': None}


def test_r2_score():
    r = keras.metrics.R2Score()
    r.update_state(np.array([[1.0], [2.0], [3.0], [4.5]]), np.array([[1.5], [1.5], [3.5], [4.0]]))
    assert round(float(r.result()), 5) == 0.85047
    assert r.get_config() == {'name': 'r2_score', 'dtype': 'float32', 'class_aggregation': 'uniform_average',
                              'num_regressors': 0}
    assert [v.path for v in r.variables] == ['r2_score/num_samples', 'r2_score/squared_sum', 'r2_score/sum',
                                             'r2_score/residual', 'r2_score/count']
    yt = np.array([[1.0, 2.0], [2.0, 0.5], [3.0, 1.0], [4.5, 0.0]])
    yp = np.array([[1.5, 1.0], [1.5, 1.0], [3.5, 1.0], [4.0, 0.5]])
    for kw, want in [({"class_aggregation": None}, [0.83603, 0.23171]),
                     ({"class_aggregation": "variance_weighted_average"}, 0.68541),
                     ({"num_regressors": 1}, 0.45618), ({"num_regressors": 5}, -0.63146)]:
        r = keras.metrics.R2Score(**kw)
        r.update_state(yt, yp, sample_weight=np.array([1.0, 2.0, 0.5, 1.0]))
        np.testing.assert_allclose(r.result().numpy(), want, atol=1e-5)
    with pytest.raises(ValueError, match=r"^R2Score expects 2D inputs .*y_pred.shape=\(3,\) and y_true.shape=\(3,\).$"):
        keras.metrics.R2Score().update_state(np.array([1.0, 2.0, 3.0]), np.array([1.5, 1.5, 3.5]))
    with pytest.raises(ValueError, match=r"^Invalid value for argument `class_aggregation`. Expected one of \(None, "
                                         r"'uniform_average', 'variance_weighted_average'\). Received: "
                                         r"class_aggregation=y$"):
        keras.metrics.R2Score(class_aggregation="y")


def test_metrics_get_gives_instances_of_keras_classes():
    got = {n: type(keras.metrics.get(n)).__name__ for n in [
        "accuracy", "mae", "mse", "binary_crossentropy", "hinge", "poisson", "cosine_similarity", "kl_divergence",
        "categorical_hinge", "squared_hinge", "sparse_top_k_categorical_accuracy", "AUC", "f1_score"]}
    assert got == {"accuracy": "Accuracy", "mae": "MeanAbsoluteError", "mse": "MeanSquaredError",
                   "binary_crossentropy": "BinaryCrossentropy", "hinge": "Hinge", "poisson": "Poisson",
                   "cosine_similarity": "CosineSimilarity", "kl_divergence": "KLDivergence",
                   "categorical_hinge": "CategoricalHinge", "squared_hinge": "SquaredHinge",
                   "sparse_top_k_categorical_accuracy": "SparseTopKCategoricalAccuracy", "AUC": "AUC",
                   "f1_score": "F1Score"}
    for bad in ["kld", "log_cosh", "huber"]:
        with pytest.raises(ValueError, match=f"^Could not interpret metric identifier: {bad}$"):
            keras.metrics.get(bad)


def test_compile_metric_strings_of_metric_classes():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="sigmoid", kernel_initializer="ones")])
    m.compile(loss="binary_crossentropy", metrics=[keras.metrics.F1Score(average="macro", threshold=0.5), "hinge",
                                                   "poisson", "cosine_similarity", keras.metrics.R2Score()])
    got = {k: round(v, 4) for k, v in m.evaluate(_YP, _YT, verbose=0, return_dict=True).items()}
    assert got == {'cosine_similarity': 0.6969, 'f1_score': 0.6667, 'hinge': 0.9744, 'loss': 0.8364,
                   'poisson': 0.8888, 'r2_score': -0.2289}


def test_functional_outputs_not_connected_to_inputs():
    a, b = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    cases = [(lambda: keras.Model(a, b), ""),
             (lambda: keras.Model(a, keras.layers.Dense(2)(b)), ""),
             (lambda: keras.Model(a, keras.layers.Add()([keras.layers.Dense(2)(a), b])), ""),
             (lambda: keras.Model(a, [keras.layers.Dense(1)(a), keras.layers.Dense(1)(b)]), "1"),
             (lambda: keras.Model(a, {"x": keras.layers.Dense(1)(a), "y": keras.layers.Dense(1)(b)}), "y"),
             (lambda: keras.Model([a], keras.layers.Dense(1)(b)), "")]
    for make, path in cases:
        with pytest.raises(ValueError, match=f"^Output with path `{path}` is not connected to `inputs`$"):
            make()
    assert keras.Model([a, b], keras.layers.Dense(1)(a)).name == "functional_6"     # an unused input is allowed


def test_global_dtype_policy_is_fixed_at_first_read_as_keras_caches_it():
    keras.backend.set_floatx("float64")
    assert keras.layers.Dense(2)(np.ones((1, 2))).dtype == tf.float64
    keras.backend.set_floatx("float32")     # the policy was read (float64): it stays
    assert keras.layers.Dense(2)(np.ones((1, 2))).dtype == tf.float64
    assert str(keras.config.dtype_policy()) == '<DTypePolicy "float64">'
    keras.backend.clear_session()
    assert keras.layers.Dense(2)(np.ones((1, 2))).dtype == tf.float32
    keras.backend.set_floatx("float64")
    assert keras.layers.Dense(2)(np.ones((1, 2))).dtype == tf.float32
    keras.backend.set_floatx("float32")


def test_unnamed_weights_take_keras_auto_names():
    class L(keras.layers.Layer):
        def build(self, s):
            self.a = self.add_weight(shape=(1,))
            self.b = self.add_weight(shape=(1,), name="b")
            self.c = self.add_weight(shape=(1,))

        def call(self, x):
            return x
    first, second = L(), L()
    first(np.ones((1, 1)))
    second(np.ones((1, 1)))
    assert [(w.name, w.path) for w in first.weights] == [
        ('variable', 'l/variable'), ('b', 'l/b'), ('variable_1', 'l/variable_1')]
    assert [(w.name, w.path) for w in second.weights] == [
        ('variable_2', 'l_1/variable_2'), ('b', 'l_1/b'), ('variable_3', 'l_1/variable_3')]
    assert keras.Variable(1.0).path == "variable_4"
    keras.backend.clear_session()
    assert keras.Variable(1.0).name == "variable"


def test_lookup_vocabulary_with_leading_special_tokens():
    vocab = ["[UNK]", "cat", "dog", "bird"]
    assert keras.layers.StringLookup(vocabulary=vocab, invert=True)(np.array([1, 2, 0])).numpy().tolist() == [
        b'cat', b'dog', b'[UNK]']
    assert keras.layers.StringLookup(vocabulary=vocab)(np.array(["dog", "[UNK]", "cat"])).numpy().tolist() == [2, 0, 1]
    assert keras.layers.StringLookup(vocabulary=vocab).get_vocabulary() == vocab
    m = keras.layers.StringLookup(mask_token="", vocabulary=["", "[UNK]", "a", "b"])
    assert m.get_vocabulary() == ["", "[UNK]", "a", "b"] and m(np.array(["a", "", "q"])).numpy().tolist() == [2, 0, 1]
    assert keras.layers.IntegerLookup(vocabulary=[-1, 5, 7])(np.array([5, 7, 9])).numpy().tolist() == [1, 2, 0]
    with pytest.raises(ValueError, match=r"^Found reserved OOV token at unexpected location in `vocabulary`. .* "
                                         r"precisely this order: \['\[UNK\]'\]. Received: oov_token=\[UNK\] at "
                                         r"vocabulary index \[1\]$"):
        keras.layers.StringLookup(vocabulary=["a", "[UNK]"], invert=True)
    with pytest.raises(ValueError, match=r"^Found reserved mask token .* precisely this order: \['', '\[UNK\]'\]. "
                                         r"Received: mask_token= at vocabulary index \[1\]$"):
        keras.layers.StringLookup(mask_token="", vocabulary=["a", ""])
    assert keras.layers.StringLookup(vocabulary=["a", "[UNK]"]).get_vocabulary() == ["[UNK]", "a", "[UNK]"]
    t = keras.layers.StringLookup(output_mode="tf_idf", vocabulary=["[UNK]", "a", "b"], idf_weights=[0.5, 1.0, 2.0])
    assert t(np.array([["a", "b", "z"]])).numpy().tolist() == [[0.5, 1.0, 2.0]]
    t = keras.layers.StringLookup(output_mode="tf_idf", vocabulary=["a", "b"], idf_weights=[1.0, 2.0])
    assert t(np.array([["a", "b", "z"]])).numpy().tolist() == [[1.5, 1.0, 2.0]]


def test_identity_initializer_config_is_empty_as_keras():
    assert keras.initializers.Identity(2.0).get_config() == {}


def test_hashing_layer():
    L = keras.layers
    assert L.Hashing(num_bins=5)(np.array([["a"], ["b"], ["c"]])).numpy().tolist() == [[4], [2], [2]]
    h = L.Hashing(num_bins=3, mask_value="")
    out = h(np.array([["a", ""], ["b", "c"]]))
    assert out.numpy().tolist() == [[2, 0], [1, 1]] and out.dtype == tf.int64
    assert L.Hashing(num_bins=4, salt=133)(np.array(["a", "b", "c"])).numpy().tolist() == [1, 0, 1]
    assert L.Hashing(num_bins=4, salt=[1, 2])(np.array(["a", "b", "c"])).numpy().tolist() == [2, 0, 1]
    assert L.Hashing(num_bins=4)(np.array([[1], [2], [33]])).numpy().tolist() == [[1], [3], [2]]
    assert L.Hashing(num_bins=4)(np.array([1.7, -2.2])).numpy().tolist() == [1, 1]
    assert L.Hashing(num_bins=4, mask_value=0)(np.array([0, 5, 7])).numpy().tolist() == [0, 2, 2]
    assert L.Hashing(num_bins=4, output_mode="one_hot")(np.array([["a"], ["b"]])).numpy().tolist() == [
        [0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0]]
    assert L.Hashing(num_bins=4, output_mode="count")(np.array([["a", "b", "a"]])).numpy().tolist() == [
        [0.0, 0.0, 1.0, 2.0]]
    assert L.Hashing(num_bins=4, dtype="int32")(np.array(["x"])).dtype == tf.int32
    cfg = L.Hashing(num_bins=4, salt=3, mask_value="q", name="h").get_config()
    assert cfg == {'name': 'h', 'trainable': True, 'dtype': {'module': 'keras', 'class_name': 'DTypePolicy', 'config': {
        'name': 'int64'}, 'registered_name': None}, 'num_bins': 4, 'salt': [3, 3], 'mask_value': 'q',
        'output_mode': 'int', 'sparse': False}
    inp = keras.Input((2,), dtype="string")
    out = L.Hashing(num_bins=6, output_mode="multi_hot")(inp)
    assert (out.shape, out.dtype) == ((None, 6), "float32")
    assert keras.Model(inp, out)(tf.constant([["a", "b"]])).numpy().tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0, 0.0]]
    with pytest.raises(ValueError, match=r"^When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' "
                                         r"or 'in64'. Received: dtype=float32$"):
        L.Hashing(num_bins=3, dtype="float32")
    with pytest.raises(ValueError, match=r"^The `salt` argument for `Hashing` can only be a tuple of size 2 integers, "
                                         r"or a single integer. Received: salt=s.$"):
        L.Hashing(num_bins=3, salt="s")


def test_iou_metrics_accumulate_in_int64_as_keras():
    M = keras.metrics
    m = M.MeanIoU(num_classes=3)
    m.update_state([0, 0, 1, 2], [0, 1, 1, 2])
    assert np.float32(m.result()) == np.float32(0.6666666) and m.dtype == "int64"
    assert m.total_cm.numpy().tolist() == [[1, 1, 0], [0, 1, 0], [0, 0, 1]] and m.total_cm.dtype == "int64"
    with pytest.warns(UserWarning, match="^You are passing weight as `float`, but dtype is `int`. This may result in "
                                         "an incorrect weight due to type casting Consider using integer weights.$"):
        m.update_state(np.array([0, 1]), np.array([0, 2]), sample_weight=np.array([0.6, 1.7]))   # truncated: 0, 1
    assert m.total_cm.numpy().tolist() == [[1, 1, 0], [0, 1, 1], [0, 0, 1]]
    m3 = M.MeanIoU(num_classes=2)
    m3.update_state([0, 5, 1, -1], [0, 1, 1, 1])          # ids outside [0, num_classes) are dropped
    assert m3.total_cm.numpy().tolist() == [[1, 0], [0, 1]] and np.float32(m3.result()) == np.float32(0.9999999)
    m2 = M.MeanIoU(num_classes=2, dtype="float32")
    m2.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[0.3, 0.3, 0.3, 0.1])
    assert np.float32(m2.result()) == np.float32(0.2380952)
    i = M.IoU(num_classes=3, target_class_ids=[0, 2])
    i.update_state([0, 1, 2, 2, 1], [0, 2, 2, 1, 1])
    assert np.float32(i.result()) == np.float32(0.6666666)
    assert i.get_config() == {'name': 'io_u', 'dtype': 'int64', 'num_classes': 3, 'target_class_ids': [0, 2],
                              'ignore_class': None, 'sparse_y_true': True, 'sparse_y_pred': True, 'axis': -1}
    b = M.BinaryIoU(target_class_ids=[1], dtype="float32")
    b.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7], sample_weight=[0.2, 0.3, 0.4, 0.1])
    assert np.float32(b.result()) == np.float32(0.24999991)
    yt = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]])
    yp = np.array([[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1], [0.1, 0.4, 0.5]])
    o = M.OneHotIoU(num_classes=3, target_class_ids=[0, 2], dtype="float32")
    o.update_state(yt, yp, sample_weight=[0.1, 0.2, 0.3, 0.4])
    assert np.float32(o.result()) == np.float32(0.07142855)
    om = M.OneHotMeanIoU(num_classes=3)
    om.update_state(yt, yp)
    assert np.float32(om.result()) == np.float32(0.11111111)
    assert om.get_config() == {'num_classes': 3, 'name': 'one_hot_mean_io_u', 'dtype': 'int64', 'ignore_class': None,
                               'sparse_y_pred': False, 'axis': -1}
    with pytest.raises(ValueError, match=r"^Target class id 2 is out of range, which is \[0, 2\).$"):
        M.IoU(num_classes=2, target_class_ids=[2])


def test_logistic_losses_gradient_at_zero_logits_is_tf_s():
    w = tf.Variable([[0.0], [0.0]])
    xv = tf.constant([[20.0, 0.1], [35.0, 0.9]])
    y = tf.constant([0.0, 1.0])
    for loss in [lambda: keras.losses.BinaryCrossentropy()(y, keras.activations.sigmoid(xv @ w)),
                 lambda: keras.losses.BinaryCrossentropy(from_logits=True)(y, xv @ w),
                 lambda: tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.reshape(y, (2, 1)),
                                                                                logits=xv @ w))]:
        with tf.GradientTape() as t:
            value = loss()
        np.testing.assert_allclose(t.gradient(value, w).numpy().ravel(), [-3.75, -0.2], rtol=1e-6)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, activation="sigmoid", kernel_initializer="zeros")])
    m.compile(optimizer=keras.optimizers.SGD(0.01), loss="binary_crossentropy")
    m.fit(xv.numpy(), np.array([0.0, 1.0]), batch_size=2, verbose=0)
    np.testing.assert_allclose(m.layers[-1].kernel.numpy().ravel(), [0.0375, 0.002], rtol=1e-6)


def test_relu6_gradient_is_zero_at_both_ends_as_tf():
    x = tf.Variable([-1.0, 0.0, 3.0, 6.0, 7.0])
    for f in [keras.activations.relu6, lambda v: keras.activations.relu(v, max_value=6.0), keras.layers.ReLU(6.0),
              keras.layers.ReLU(6.0, negative_slope=0.1)]:
        with tf.GradientTape() as t:
            v = tf.reduce_sum(f(x))
        assert t.gradient(v, x).numpy().tolist()[1:] == [0.0, 1.0, 0.0, 0.0]


def test_selu_gradient_at_zero_takes_the_linear_branch_as_tf():
    x = tf.Variable([0.0, -1.0, 1.0])
    for f in [tf.nn.selu, keras.activations.selu, keras.layers.Activation("selu")]:
        with tf.GradientTape() as t:
            y = f(x)
        np.testing.assert_allclose(t.gradient(y, x).numpy(), [1.050701, 0.64676857, 1.050701], rtol=1e-6)  # TF 2.21
    np.testing.assert_allclose(tf.nn.selu(tf.constant([0.0, -1.0, 100.0])).numpy(), [0.0, -1.1113307, 105.07010],
                               rtol=1e-6)
    with tf.autodiff.ForwardAccumulator(x, tf.ones(3)) as acc:
        y = tf.nn.selu(x)
    np.testing.assert_allclose(acc.jvp(y).numpy(), [1.050701, 0.64676857, 1.050701], rtol=1e-6)


def test_categorical_crossentropy_from_logits_gradient_is_tf_s_softmax_minus_labels():
    # TF's kernel assumes labels summing to 1: d/dlogits = softmax - labels, not sum(labels) * softmax - labels
    labels, logits = tf.constant([[0.5, 1.0, 0.5]]), tf.Variable([[1.0, 2.0, 3.0]])
    tf_grad = [[-0.40996942, -0.75527155, 0.16524094]]                 # TF 2.21, all four
    for loss in [lambda: tf.nn.softmax_cross_entropy_with_logits(labels, logits),
                 lambda: keras.losses.categorical_crossentropy(labels, logits, from_logits=True),
                 lambda: keras.losses.CategoricalCrossentropy(from_logits=True)(labels, logits),
                 lambda: keras.ops.categorical_crossentropy(labels, logits, from_logits=True)]:
        with tf.GradientTape() as t:
            value = loss()
        np.testing.assert_allclose(float(tf.reduce_sum(value)), 2.8152118, rtol=1e-6)
        np.testing.assert_allclose(t.gradient(value, logits).numpy(), tf_grad, rtol=1e-6)


def test_set_random_seed_makes_a_shuffled_fit_repeat_exactly():
    x = np.random.RandomState(0).rand(64, 4).astype("float32")
    y = (x.sum(1) > 2).astype("float32")

    def run(shuffle):
        keras.utils.set_random_seed(7)
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dropout(0.5),
                              keras.layers.Dense(1)])
        m.compile("sgd", "mse")
        return m.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=shuffle).history["loss"], m.get_weights()

    for shuffle in (True, "batch"):
        (loss_a, w_a), (loss_b, w_b) = run(shuffle), run(shuffle)
        assert loss_a == loss_b
        assert all(np.array_equal(a, b) for a, b in zip(w_a, w_b))


def test_fit_refuses_numpy_unicode_and_bytes_arrays_as_keras():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"^Invalid dtype: bytes8$"):       # TF 2.21: text goes in object arrays
        m.fit(np.array([[b"1", b"2"], [b"3", b"4"]]), np.array([1.0, 2.0]), verbose=0)
    with pytest.raises(ValueError, match=r"^Invalid dtype: str32$"):
        m.evaluate(np.ones((2, 2)), np.array(["1", "2"]), verbose=0)
    assert m.predict(np.ones((2, 2)), verbose=0).shape == (2, 1)


def test_custom_layer_without_compute_output_shape_raises_and_compute_output_spec_infers():
    class Twice(keras.layers.Layer):
        def call(self, x):
            return tf.concat([x, x], -1)

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(4)

        def call(self, x):
            return self.d(x)

    message = ("Layer {} does not have a `compute_output_shape` method implemented. Should implement "
               "`def compute_output_shape(self, input_shape)`.")                # TF 2.21's text
    with pytest.raises(NotImplementedError, match=re.escape(message.format("Twice"))):
        Twice().compute_output_shape((None, 3))
    sub = Sub()
    sub(tf.ones((1, 3)))
    with pytest.raises(NotImplementedError, match=re.escape(message.format("Sub"))):
        sub.compute_output_shape((None, 3))
    spec = Twice().compute_output_spec(keras.KerasTensor((None, 3), dtype="float16"))
    assert isinstance(spec, keras.KerasTensor) and spec.shape == (None, 6) and spec.dtype == "float16"
    assert keras.layers.Dense(2).compute_output_shape((None, 3)) == (None, 2)
    inp = keras.Input((3,))
    model = keras.Sequential([inp, Twice(), keras.layers.Dense(1)])       # functional build and config still work
    assert model.output_shape == (None, 1) and model.compute_output_shape((None, 3)) == (None, 1)
    assert model.get_config()["layers"][1]["build_config"] == {"input_shape": (None, 3)}


def test_losses_weight_by_the_mask_of_the_prediction_as_keras():
    x = np.array([[1, 2, 3, 0, 0], [4, 5, 0, 0, 0], [6, 7, 8, 9, 1]], "int32")
    y = np.array([[1, 0, 1, 0, 1], [0, 1, 1, 1, 0], [1, 1, 0, 0, 1]], "int32")
    inp = keras.Input((5,), dtype="int32")
    h = keras.layers.Embedding(10, 4, mask_zero=True, embeddings_initializer=keras.initializers.Constant(0.1))(inp)
    h = keras.layers.LSTM(3, return_sequences=True, kernel_initializer=keras.initializers.Constant(0.2),
                          recurrent_initializer=keras.initializers.Constant(0.1))(h)
    dense = keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(np.array([[0.3, -0.2]] * 3)))
    m = keras.Model(inp, keras.layers.TimeDistributed(dense)(h))
    m.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    result = m.evaluate(x, y, verbose=0, return_dict=True)                     # TF 2.21 below
    np.testing.assert_allclose([result["loss"], result["accuracy"]], [0.6991596, 0.4], rtol=1e-6)
    p = m(x)
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    np.testing.assert_allclose(float(loss(y, p)), 0.6991596, rtol=1e-6)         # sum(loss * mask) / sum(mask)
    weights = np.arange(15, dtype="float32").reshape(3, 5) / 10
    np.testing.assert_allclose(float(loss(y, p, sample_weight=weights)), 0.5166197, rtol=1e-6)
    np.testing.assert_allclose(float(keras.losses.MeanSquaredError()(tf.ones((3, 5, 2)), p)), 0.9881938, rtol=1e-6)
    history = m.fit(x, y, epochs=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [0.69916, 0.69886], atol=1e-5)


def test_metrics_weight_by_the_mask_of_the_prediction_as_keras():
    x = np.array([[1, 2, 3, 0, 0], [4, 5, 0, 0, 0], [6, 7, 8, 9, 1]], "int32")
    y = np.array([[0, 0, 0, 0, 0], [0, 0, 1, 1, 1], [0, 0, 0, 0, 0]], "int32")     # the masked steps are wrong
    inp = keras.Input((5,), dtype="int32")
    h = keras.layers.Embedding(10, 4, mask_zero=True, embeddings_initializer=keras.initializers.Constant(0.1))(inp)
    out = keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(np.array([[0.3, -0.2]] * 4)))(h)
    m = keras.Model(inp, out)
    m.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy", keras.metrics.SparseCategoricalCrossentropy(from_logits=True)])
    result = m.evaluate(x, y, verbose=0, return_dict=True)                      # TF 2.21: accuracy 1.0
    np.testing.assert_allclose([result["accuracy"], result["sparse_categorical_crossentropy"]], [1.0, 0.5981389],
                               rtol=1e-6)
    p = m(x)
    accuracy = keras.metrics.SparseCategoricalAccuracy()
    accuracy.update_state(y, p)
    assert float(accuracy.result()) == 1.0
    mse = keras.metrics.MeanSquaredError()
    mse.update_state(tf.ones((3, 5, 2)), p, sample_weight=np.arange(15, dtype="float32").reshape(3, 5))
    np.testing.assert_allclose(float(mse.result()), 0.9704, rtol=1e-6)


def test_fit_shuffles_pydataset_batches_with_python_random_as_keras():
    x = np.arange(20, dtype="float32").reshape(10, 2)
    y = (x[:, :1] > 9).astype("float32")

    class Seq(keras.utils.PyDataset):
        def __len__(self):
            return 3

        def __getitem__(self, idx):
            return x[idx * 4:(idx + 1) * 4] / 10.0, y[idx * 4:(idx + 1) * 4]

    for shuffle, want in [(False, [2.3069, 1.4087]), (True, [2.27901, 1.3314])]:
        keras.utils.set_random_seed(3)
        m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
        m.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
        h = m.fit(Seq(), epochs=2, verbose=0, shuffle=shuffle)
        assert [round(v, 5) for v in h.history["loss"]] == want


_SEQ = np.linspace(-1, 1, 2 * 4 * 3).reshape(2, 4, 3).astype("float32")


def test_stateful_lstm_carries_states_between_calls():
    st = keras.layers.LSTM(2, stateful=True, kernel_initializer="ones", recurrent_initializer="zeros")
    m = keras.Sequential([keras.Input((4, 3), batch_size=2), st])
    assert [w.path for w in st.weights] == ['sequential/lstm/lstm_cell/kernel',
                                            'sequential/lstm/lstm_cell/recurrent_kernel',
                                            'sequential/lstm/lstm_cell/bias']          # states are not weights
    a, b = m.predict(_SEQ, verbose=0), m.predict(_SEQ, verbose=0)
    np.testing.assert_allclose(a, [[-0.1236, -0.1236], [0.9273, 0.9273]], atol=1e-4)
    np.testing.assert_allclose(b, [[-0.1251, -0.1251], [0.9389, 0.9389]], atol=1e-4)
    np.testing.assert_allclose(st.states[1].numpy(), [[-0.3205, -0.3205], [4.2099, 4.2099]], atol=1e-4)
    st.reset_states()
    np.testing.assert_allclose(m.predict(_SEQ, verbose=0), a, atol=1e-6)
    st.reset_state()
    assert [v.numpy().tolist() for v in st.states] == [[[0.0, 0.0], [0.0, 0.0]]] * 2
    with pytest.raises(ValueError, match=r"^When using `stateful=True` in a RNN, the batch size must be static. Found "
                                         r"dynamic batch size: sequence.shape=\(None, 4, 3\)$"):
        keras.Sequential([keras.Input((4, 3)), keras.layers.LSTM(2, stateful=True)])


def test_stateful_gru_simple_rnn_and_fit():
    g = keras.layers.GRU(2, stateful=True, return_sequences=True, return_state=True, kernel_initializer="ones",
                         recurrent_initializer="ones")
    g(_SEQ)
    out, state = g(_SEQ)
    np.testing.assert_allclose(out.numpy()[:, -1], [[-0.5573, -0.5573], [0.5428, 0.5428]], atol=1e-4)
    np.testing.assert_allclose(state.numpy(), [[-0.5573, -0.5573], [0.5428, 0.5428]], atol=1e-4)
    m = keras.Sequential([keras.Input((4, 3), batch_size=2),
                          keras.layers.LSTM(2, stateful=True, kernel_initializer="ones", recurrent_initializer="zeros"),
                          keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    h = m.fit(_SEQ, np.ones((2, 1)), epochs=3, batch_size=2, verbose=0, shuffle=False)
    assert [round(v, 5) for v in h.history["loss"]] == [1.14304, 0.96513, 0.80662]
    np.testing.assert_allclose(m.layers[0].states[0].numpy(), [[-0.1158, -0.1158], [0.9362, 0.9362]], atol=1e-4)
