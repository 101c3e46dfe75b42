"""tf.keras.losses, regularizers and constraints against Keras 3 values.

Golden values recorded from TensorFlow 2.21 + Keras 3.15 (see the case definitions below).
"""
import importlib

import numpy as np
import pytest

import tfcompat as tf

yt_reg = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, 3.0]], np.float32)
yp_reg = np.array([[0.7, -0.5, 1.0], [1.0, 0.25, 3.5]], np.float32)
probs = np.array([[0.7, 0.2, 0.1], [0.05, 0.05, 0.9], [0.3, 0.6, 0.1], [1.0, 0.0, 0.0]], np.float32)
onehot = np.array([[1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]], np.float32)
labels = np.array([0, 2, 0, 1], np.int32)
logits = np.array([[2.0, 1.0, -1.0], [0.5, -0.5, 3.0], [-1.0, 2.0, 0.0], [4.0, -2.0, 1.0]], np.float32)
bt = np.array([[0, 1, 1], [1, 0, 0]], np.float32)
bp = np.array([[0.1, 0.8, 0.6], [0.9, 0.3, 0.0]], np.float32)
sw = np.array([1.0, 0.5], np.float32)
sw4 = np.array([1.0, 0.0, 2.0, 0.5], np.float32)
pos = np.abs(yp_reg) + 0.1

def cases(tf):
    L = tf.keras.losses
    c = tf.constant
    return {
        "mse": lambda: L.MeanSquaredError()(yt_reg, yp_reg),
        "mse_sw": lambda: L.MeanSquaredError()(yt_reg, yp_reg, sample_weight=sw),
        "mse_sum": lambda: L.MeanSquaredError(reduction="sum")(yt_reg, yp_reg),
        "mse_none": lambda: L.MeanSquaredError(reduction=None)(yt_reg, yp_reg),
        "mse_none_str": lambda: L.MeanSquaredError(reduction="none")(yt_reg, yp_reg, sample_weight=sw),
        "mse_mean_sw": lambda: L.MeanSquaredError(reduction="mean_with_sample_weight")(yt_reg, yp_reg, sample_weight=sw),
        "mae": lambda: L.MeanAbsoluteError()(yt_reg, yp_reg),
        "mape": lambda: L.MeanAbsolutePercentageError()(yt_reg, yp_reg),
        "msle": lambda: L.MeanSquaredLogarithmicError()(yt_reg, yp_reg),
        "huber": lambda: L.Huber()(yt_reg, yp_reg),
        "huber_delta": lambda: L.Huber(delta=0.3)(yt_reg, yp_reg, sample_weight=sw),
        "logcosh": lambda: L.LogCosh()(yt_reg, yp_reg),
        "kld": lambda: L.KLDivergence()(onehot, probs),
        "poisson": lambda: L.Poisson()(yt_reg, pos),
        "hinge": lambda: L.Hinge()(bt, yp_reg),
        "hinge_pm": lambda: L.Hinge()(yt_reg, yp_reg),
        "squared_hinge": lambda: L.SquaredHinge()(bt, yp_reg),
        "categorical_hinge": lambda: L.CategoricalHinge()(onehot, probs),
        "cosine": lambda: L.CosineSimilarity()(yt_reg, yp_reg),
        "cosine_axis0": lambda: L.CosineSimilarity(axis=0, reduction=None)(yt_reg, yp_reg),
        "scce": lambda: L.SparseCategoricalCrossentropy()(labels, probs),
        "scce_logits": lambda: L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits),
        "scce_logits_sw": lambda: L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits, sample_weight=sw4),
        "scce_col": lambda: L.SparseCategoricalCrossentropy()(labels[:, None], probs),
        "scce_ignore": lambda: L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=2)(labels, logits),
        "scce_ignore_none": lambda: L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=2, reduction=None)(labels, logits),
        "scce_softmax": lambda: L.SparseCategoricalCrossentropy()(labels, tf.keras.activations.softmax(c(logits * 10))),
        "scce_fn": lambda: L.sparse_categorical_crossentropy(labels, probs),
        "cce": lambda: L.CategoricalCrossentropy()(onehot, probs),
        "cce_logits": lambda: L.CategoricalCrossentropy(from_logits=True)(onehot, logits),
        "cce_smooth": lambda: L.CategoricalCrossentropy(label_smoothing=0.1)(onehot, probs),
        "cce_fn": lambda: L.categorical_crossentropy(onehot, probs),
        "cfce": lambda: L.CategoricalFocalCrossentropy()(onehot, probs),
        "bce": lambda: L.BinaryCrossentropy()(bt, bp),
        "bce_logits": lambda: L.BinaryCrossentropy(from_logits=True)(bt, yp_reg),
        "bce_smooth_sw": lambda: L.BinaryCrossentropy(label_smoothing=0.2)(bt, bp, sample_weight=sw),
        "bce_sigmoid": lambda: L.BinaryCrossentropy()(bt, tf.keras.activations.sigmoid(c(yp_reg * 20))),
        "bce_fn": lambda: L.binary_crossentropy(bt, bp),
        "bfce": lambda: L.BinaryFocalCrossentropy()(bt, bp),
        "bfce_bal": lambda: L.BinaryFocalCrossentropy(apply_class_balancing=True, from_logits=True, gamma=1.5)(bt, yp_reg),
        "mse_fn": lambda: L.mse(yt_reg, yp_reg),
        "mae_fn": lambda: L.mae(yt_reg, yp_reg),
        "mse_rank": lambda: L.MeanSquaredError()(yt_reg[:, 0], yp_reg[:, :1]),
        "get_mse": lambda: L.get("mse")(yt_reg, yp_reg),
        "get_cls": lambda: L.get("SparseCategoricalCrossentropy")(labels, probs),
    }

def configs(tf):
    L = tf.keras.losses
    return {
        "scce": L.SparseCategoricalCrossentropy().get_config(),
        "bce": L.BinaryCrossentropy(from_logits=True).get_config(),
        "huber": L.Huber().get_config(),
        "mse": L.MeanSquaredError().get_config(),
        "cfce": L.CategoricalFocalCrossentropy().get_config(),
        "serialize": L.serialize(L.MeanSquaredError()),
    }


w = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
def run(tf):
    R, C = tf.keras.regularizers, tf.keras.constraints
    c = tf.constant(w)
    out = {"l1": R.L1(0.1)(c), "l2": R.L2()(c), "l1l2": R.L1L2(0.1, 0.2)(c), "orth": R.OrthogonalRegularizer(0.1)(c),
           "orth_cols": R.OrthogonalRegularizer(0.1, mode="columns")(c), "get_l2": R.get("l2")(c),
           "maxnorm": C.MaxNorm(1.0)(c), "maxnorm1": C.MaxNorm(2.0, axis=1)(c), "nonneg": C.NonNeg()(c),
           "unitnorm": C.UnitNorm()(c), "minmax": C.MinMaxNorm(0.5, 1.2, rate=0.7, axis=1)(c)}
    return {k: np.asarray(v, np.float64).tolist() for k, v in out.items()}


GOLDEN = {'bce': 0.21689421,
 'bce_fn': [0.27977654, 0.15401188],
 'bce_logits': 1.1765794,
 'bce_sigmoid': 16.501125,
 'bce_smooth_sw': 0.40456277,
 'bfce': 0.020810964,
 'bfce_bal': 0.56437194,
 'categorical_hinge': 0.9875,
 'cce': 4.446026,
 'cce_fn': [0.35667497, 0.10536054, 1.2039728, 16.118095],
 'cce_logits': 2.4190545,
 'cce_smooth': 4.389916,
 'cfce': 1.0463245,
 'cosine': -0.96175814,
 'cosine_axis0': [-0.9585364, -0.8944272, -0.9524241],
 'get_cls': 4.446026,
 'get_mse': [0.42999998, 0.1875],
 'hinge': 1.4916667,
 'hinge_pm': 0.35833335,
 'huber': 0.15437499,
 'huber_delta': 0.0834375,
 'kld': 4.4460235,
 'logcosh': 0.14082037,
 'mae': 0.49166667,
 'mae_fn': [0.56666666, 0.41666666],
 'mape': 41666700.0,
 'mse': 0.30874997,
 'mse_fn': [0.42999998, 0.1875],
 'mse_mean_sw': 0.34916663,
 'mse_none': [0.42999998, 0.1875],
 'mse_none_str': [0.42999998, 0.09375],
 'mse_rank': 0.145,
 'mse_sum': 0.61749995,
 'mse_sw': 0.26187497,
 'msle': 0.048921116,
 'poisson': 0.49572644,
 'scce': 4.446026,
 'scce_col': 4.446026,
 'scce_fn': [0.35667497, 0.10536056, 1.2039728, 16.118095],
 'scce_ignore': 3.1899347,
 'scce_ignore_none': [0.34901217, 0.0, 3.169846, 6.0509458],
 'scce_logits': 2.4190545,
 'scce_logits_sw': 2.4285443,
 'scce_softmax': 22.500011,
 'squared_hinge': 4.4920835}
CONFIGS = {'bce': {'axis': -1,
         'from_logits': True,
         'label_smoothing': 0.0,
         'name': 'binary_crossentropy',
         'reduction': 'sum_over_batch_size'},
 'cfce': {'alpha': 0.25,
          'axis': -1,
          'from_logits': False,
          'gamma': 2.0,
          'label_smoothing': 0.0,
          'name': 'categorical_focal_crossentropy',
          'reduction': 'sum_over_batch_size'},
 'huber': {'name': 'huber_loss', 'reduction': 'sum_over_batch_size'},
 'mse': {'name': 'mean_squared_error', 'reduction': 'sum_over_batch_size'},
 'scce': {'from_logits': False,
          'ignore_class': None,
          'name': 'sparse_categorical_crossentropy',
          'reduction': 'sum_over_batch_size'},
 'serialize': {'class_name': 'MeanSquaredError',
               'config': {'name': 'mean_squared_error', 'reduction': 'sum_over_batch_size'},
               'module': 'keras.losses',
               'registered_name': None}}
RC_GOLDEN = {'get_l2': 0.08125,
 'l1': 0.6,
 'l1l2': 2.225,
 'l2': 0.08125,
 'maxnorm': [[0.31622773, -0.9701424, 0.9363292], [0.9486832, 0.2425356, -0.35112345]],
 'maxnorm1': [[0.43643576, -0.8728715, 1.745743], [1.4999999, 0.24999999, -0.74999994]],
 'minmax': [[0.33330303, -0.66660607, 1.3332121], [1.1931074, 0.19885123, -0.5965537]],
 'nonneg': [[0.5, 0.0, 2.0], [1.5, 0.25, 0.0]],
 'orth': 0.025739575,
 'orth_cols': 0.036908027,
 'unitnorm': [[0.31622773, -0.9701424, 0.9363292], [0.9486832, 0.2425356, -0.35112345]]}


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_loss_values(case):
    got = np.asarray(cases(tf)[case]())
    np.testing.assert_allclose(got, np.array(GOLDEN[case]).reshape(got.shape), rtol=1e-6, atol=1e-7)
    assert got.shape == np.array(GOLDEN[case]).shape


def test_configs():
    assert configs(tf) == CONFIGS


def test_loss_api():
    L = importlib.import_module("tfcompat.keras.losses")   # Keras 3's own: tf.keras.losses lacks e.g. mean_squared_error
    loss = L.SparseCategoricalCrossentropy(from_logits=True)
    assert loss.name == "sparse_categorical_crossentropy" and loss.reduction == "sum_over_batch_size"
    assert loss.dtype == "float32"
    out = loss(tf.constant([1, 0]), tf.constant([[0.0, 2.0], [1.0, -1.0]]))
    assert out.dtype == tf.float32 and out.shape == ()
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        L.MeanSquaredError(reduction="auto")
    assert L.get("mse") is L.mean_squared_error and L.MSE is L.mean_squared_error
    assert isinstance(L.get("BinaryCrossentropy"), L.BinaryCrossentropy)
    with pytest.raises(AttributeError):
        L.sparse_softmax_cross_entropy  # noqa: B018 - the access raises


def test_loss_gradient():
    w = tf.Variable([[0.5, -0.5], [1.0, 0.25]])
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(tf.constant([1]), tf.matmul(x, w))
    g = tape.gradient(loss, w).numpy()
    p = np.exp([2.5, 0.0]) / np.exp([2.5, 0.0]).sum()
    np.testing.assert_allclose(g, np.outer([1.0, 2.0], p - [0, 1]), rtol=1e-5)


def test_custom_loss_subclass():
    class Scaled(tf.keras.losses.Loss):
        def call(self, y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1) * 2.0

    np.testing.assert_allclose(Scaled()(yt_reg, yp_reg).numpy(), 2 * GOLDEN["mse"], rtol=1e-6)


@pytest.mark.parametrize("case", sorted(RC_GOLDEN))
def test_regularizers_and_constraints(case):
    np.testing.assert_allclose(np.asarray(run(tf)[case]), RC_GOLDEN[case], rtol=1e-6, atol=1e-7)


SIGMOID_COMPILE_GOLDEN = {"mse": 0.26807, "binary_crossentropy": 0.79359, "mean_squared_error": 0.26807,
                          "MeanSquaredError": 0.26807, "huber": 0.13404, "hinge": 0.7064,
                          "binary_focal_crossentropy": 0.55123, "BinaryCrossentropy": 0.79359}
SOFTMAX_COMPILE_GOLDEN = {"categorical_crossentropy": 1.09861, "sparse_categorical_crossentropy": 1.09861,
                          "kld": 1.09861, "mse": 0.22222, "KLDivergence": 1.09861}


@pytest.mark.parametrize("loss", sorted(SIGMOID_COMPILE_GOLDEN))
def test_losses_of_a_sigmoid_output_in_compile(loss):
    # only cross-entropies take the output's logits; every other loss scores the probabilities (TF 2.21)
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss=loss if loss[0].islower() else getattr(tf.keras.losses, loss)())
    value = model.evaluate(np.ones((3, 2), "float32"), np.array([[1.], [0.], [1.]], "float32"), verbose=0)
    assert round(value, 5) == SIGMOID_COMPILE_GOLDEN[loss]


@pytest.mark.parametrize("loss", sorted(SOFTMAX_COMPILE_GOLDEN))
def test_losses_of_a_softmax_output_in_compile(loss):
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(3, activation="softmax", kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss=loss if loss[0].islower() else getattr(tf.keras.losses, loss)())
    y = np.array([1, 0]) if loss.startswith("sparse") else np.array([[0, 1, 0], [1, 0, 0]], "float32")
    assert round(model.evaluate(np.ones((2, 2), "float32"), y, verbose=0), 5) == SOFTMAX_COMPILE_GOLDEN[loss]


def test_loss_entry_points_take_keras_arguments():
    losses = tf.keras.losses
    yb, pb = np.array([[1.], [0.], [1.]], "float32"), np.array([[2.], [-1.], [0.5]], "float32")
    yc, pc = np.array([[0, 1, 0], [1, 0, 0]], "float32"), np.array([[1., 2., 0.5], [0.3, -1., 2.]], "float32")
    ys = np.array([1, 0])
    cases = {
        "get_bce": (losses.get("binary_crossentropy")(yb, pb, from_logits=True), [0.12693, 0.31326, 0.47408]),
        "get_dict": (losses.get({"class_name": "BinaryCrossentropy", "config": {"from_logits": True}})(yb, pb),
                     0.30476),
        "get_scce": (losses.get("sparse_categorical_crossentropy")(ys, pc, from_logits=True), [0.46437, 1.90902]),
        "bce_class": (losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.0, axis=-1, reduction="sum",
                                                name="b", dtype="float32")(yb, pb), 0.91427),
        "scce_class": (losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=None,
                                                            reduction="sum_over_batch_size", name="s",
                                                            dtype="float32")(ys, pc), 1.18669),
        "nn_sigmoid": (tf.nn.sigmoid_cross_entropy_with_logits(labels=yb, logits=pb),
                       [[0.12693], [0.31326], [0.47408]]),
        "nn_softmax_positional": (tf.nn.softmax_cross_entropy_with_logits(yc, pc), [0.46437, 1.90902]),
        "nn_weighted": (tf.nn.weighted_cross_entropy_with_logits(labels=yb, logits=pb, pos_weight=2.0),
                        [[0.25386], [0.31326], [0.94815]]),
    }
    for name, (got, want) in cases.items():
        np.testing.assert_allclose(np.asarray(got), want, atol=1e-5, err_msg=name)


def test_sparse_categorical_labels_checked_as_tf_kernel():
    # TF 2.21 / Keras 3.15: NaN float labels cast to int64's minimum; no classes; uint8 labels are fine
    prefix = ("{{function_node __wrapped__SparseSoftmaxCrossEntropyWithLogits_device_/job:localhost/replica:0/task:0/"
              "device:CPU:0}} ")
    loss = tf.keras.losses.SparseCategoricalCrossentropy()
    third = np.full((2, 3), 1 / 3, "float32")
    cases = [(np.array([1.0, np.nan]), third, "Received a label value of -9223372036854775808 which is outside the "
              "valid range of [0, 3).  Label values: 1 -9223372036854775808"),
             (np.array([1, 5]), third, "Received a label value of 5 which is outside the valid range of [0, 3).  "
              "Label values: 1 5"),
             (np.array([1, 0]), np.zeros((2, 0), "float32"), "Must have at least one class, but got logits shape "
              "[2,0]")]
    for y_true, y_pred, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            loss(y_true, y_pred)
        assert str(info.value) == prefix + message + " [Op:SparseSoftmaxCrossEntropyWithLogits] name: "
    np.testing.assert_allclose(float(loss(np.array([1, 2], "uint8"), third)), 1.0986123, rtol=1e-6)
