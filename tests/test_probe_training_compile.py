"""compile() of multi-output models as Keras 3.15 pairs losses, loss_weights and metrics with the outputs: history
values and error texts recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1)."""
import numpy as np
import pytest

import tfcompat as tf

X = (np.arange(40).reshape(8, 5) % 7).astype("float32") / 7
Y1 = (X[:, 0] > 0.5).astype("int32")
Y2 = X.sum(1, keepdims=True)
SC = "sparse_categorical_crossentropy"
STRUCT = ("\nInvalid `{a}`. `{a}` should contain metrics objects and either be a dict or a list matching the output "
          "names of the functional model ['cls', 'reg'] or match the output structure of the model: {s}.\n"
          "Received: {a}={r}")


def _fit(dict_out, **kw):
    const = tf.keras.initializers.Constant
    inp = tf.keras.Input((5,), name="inp")
    h = tf.keras.layers.Dense(4, activation="relu", name="hidden", kernel_initializer=const(0.1))(inp)
    o1 = tf.keras.layers.Dense(2, activation="softmax", name="cls", kernel_initializer=const(0.2))(h)
    o2 = tf.keras.layers.Dense(1, name="reg", kernel_initializer=const(0.3))(h)
    m = tf.keras.Model(inp, {"cls": o1, "reg": o2} if dict_out else [o1, o2])
    m.compile("sgd", **kw)
    h = m.fit(X, {"cls": Y1, "reg": Y2} if dict_out else [Y1, Y2], verbose=0, batch_size=4, shuffle=False)
    return {k: v[0] for k, v in h.history.items()}


@pytest.mark.parametrize("dict_out,kw,cls,message", [
    (False, dict(loss={"cls": SC}), ValueError, "Expected keys ['cls', 'reg'] in loss dict, but found "
                                                "loss.keys()=['cls']"),
    (False, dict(loss={"cls": SC, "reg": "mse", "x": "mse"}), ValueError,
     "Expected keys ['cls', 'reg'] in loss dict, but found loss.keys()=['cls', 'reg', 'x']"),
    (False, dict(loss={"cls": SC, "reg": "mse"}, loss_weights={"cls": 1.0}), KeyError, "'reg'"),
    (False, dict(loss=[SC, "mse"], loss_weights=[1.0]), ValueError,
     "`loss_weights` must match the number of losses, got 2 losses and 1 weights."),
    (False, dict(loss="mse", loss_weights=[0.3, 0.7]), ValueError,
     "`loss_weights` must match the number of losses, got 1 losses and 2 weights."),
    (True, dict(loss={"cls": SC, "reg": "mse"}, loss_weights={"cls": 0.3}), ValueError,
     "`loss_weights` must match the number of losses, got 2 losses and 1 weights."),
    (True, dict(loss={"cls": SC, "reg": "mse", "x": "mse"}), KeyError,
     "\"The path: ('x',) in the `loss` argument, can't be found in either the model's output (`y_pred`) or in the "
     "labels (`y_true`).\""),
    (False, dict(loss=[SC, "mse"], metrics={"cls": "accuracy", "nope": "mae"}), ValueError,
     "Expected an instance of tuple, got {'cls': 'accuracy', 'nope': 'mae'}." + STRUCT.format(
         a="metrics", s="['X', 'X']", r="{'cls': 'accuracy', 'nope': 'mae'}")),
    (False, dict(loss=[SC, "mse"], metrics=["accuracy"]), ValueError,
     "tuple arity mismatch; expected: 2, got: 1; tuple: ('accuracy',)." + STRUCT.format(
         a="metrics", s="['X', 'X']", r="['accuracy']")),
    (False, dict(loss=[SC, "mse"], weighted_metrics=["accuracy", "mae", "mse"]), ValueError,
     "tuple arity mismatch; expected: 2, got: 3; tuple: ('accuracy', 'mae', 'mse')." + STRUCT.format(
         a="weighted_metrics", s="['X', 'X']", r="['accuracy', 'mae', 'mse']")),
    (True, dict(loss={"cls": SC, "reg": "mse"}, metrics=["accuracy"]), ValueError,
     "Expected an instance of dict, collections.OrderedDict, or collections.defaultdict, got ('accuracy',)."
     + STRUCT.format(a="metrics", s="{'cls': 'X', 'reg': 'X'}", r="['accuracy']")),
    (True, dict(loss={"cls": SC, "reg": "mse"}, metrics={"cls": "accuracy", "nope": "mae"}), ValueError,
     "dictionary key mismatch; expected key(s): ['cls', 'reg'], got key(s): ['cls', 'nope'], missing key(s): "
     "['reg'], extra key(s): ['nope']; dict: {'cls': 'accuracy', 'nope': 'mae'}." + STRUCT.format(
         a="metrics", s="{'cls': 'X', 'reg': 'X'}", r="{'cls': 'accuracy', 'nope': 'mae'}")),
])
def test_compile_mismatch_errors(dict_out, kw, cls, message):
    with pytest.raises(cls) as e:
        _fit(dict_out, **kw)
    assert str(e.value) == message      # TF 2.21


@pytest.mark.parametrize("dict_out,kw,expected", [
    # TF 2.21: a loss_weights dict is read by output name (extra keys ignored); lists and tuples pair up
    (False, dict(loss={"cls": SC, "reg": "mse"}, loss_weights={"cls": 0.5, "reg": 2.0, "x": 3.0}),
     {'cls_loss': 0.693143367767334, 'loss': 6.759278774261475, 'reg_loss': 3.2063536643981934}),
    (False, dict(loss=[SC, "mse"], loss_weights=(0.5, 2)),
     {'cls_loss': 0.693143367767334, 'loss': 6.759278774261475, 'reg_loss': 3.2063536643981934}),
    (True, dict(loss=[SC, "mse"], loss_weights={"cls": 0.5, "reg": 2}),
     {'cls_loss': 0.693143367767334, 'loss': 6.759278774261475, 'reg_loss': 3.2063536643981934}),
    # TF 2.21: with one output's loss only, no per-output loss trackers
    (True, dict(loss={"cls": SC}), {'loss': 0.6931419372558594}),
    (False, dict(loss=[SC, None], metrics=[None, "mae"]), {'loss': 0.6931419372558594,
                                                           'reg_mae': 1.807142734527588}),
    (True, dict(loss={"cls": SC, "reg": "mse"}, metrics={"reg": "mae"}),
     {'cls_loss': 0.6931413412094116, 'loss': 4.018776893615723, 'reg_loss': 3.3256354331970215,
      'reg_mae': 1.7738091945648193}),
])
def test_compile_multi_output_history(dict_out, kw, expected):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # TF warns too: no gradients for the output without a loss
        history = _fit(dict_out, **kw)
    assert sorted(history) == sorted(expected)
    for k, v in expected.items():
        assert history[k] == pytest.approx(v, rel=1e-5), k
