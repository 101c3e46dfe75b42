"""Keras callbacks of training scripts: values recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1)."""
import numpy as np
import pytest

import tfcompat as tf

X = (np.arange(96).reshape(32, 3) % 11).astype("float32") / 11
Y = X.sum(1, keepdims=True)


def _ema_model(optimizer):
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(
        1, kernel_initializer=tf.keras.initializers.Constant(0.2), bias_initializer="zeros")])
    m.compile(optimizer, "mse")
    return m


def test_swap_ema_weights_for_validation_evaluate_and_predict():
    m = _ema_model(tf.keras.optimizers.SGD(0.05, use_ema=True, ema_momentum=0.5))
    cb = tf.keras.callbacks.SwapEMAWeights()
    h = m.fit(X, Y, epochs=2, verbose=0, validation_split=0.25, callbacks=[cb], batch_size=8, shuffle=False)
    # TF 2.21: validation runs on the EMA weights, training goes on with the model's own
    np.testing.assert_allclose(h.history["loss"], [1.0311695337295532, 0.41510871052742004], rtol=1e-5)
    np.testing.assert_allclose(h.history["val_loss"], [0.7051931619644165, 0.3124420642852783], rtol=1e-5)
    # fit ends with finalize_variable_values: the model takes the averages
    np.testing.assert_allclose(m.get_weights()[0].ravel(), [0.4061405062675476, 0.41756775975227356,
                                                            0.4026028513908386], rtol=1e-5)
    np.testing.assert_allclose(m.evaluate(X, Y, verbose=0, callbacks=[cb]), 0.31956151127815247, rtol=1e-5)
    np.testing.assert_allclose(m.predict(X[:2], verbose=0, callbacks=[cb]).ravel(),
                               [0.474824458360672, 0.8092730045318604], rtol=1e-5)
    np.testing.assert_allclose(m.get_weights()[0].ravel(), [0.4061405062675476, 0.41756775975227356,
                                                            0.4026028513908386], rtol=1e-5)


def test_swap_ema_weights_on_epoch():
    m = _ema_model(tf.keras.optimizers.Adam(0.1, use_ema=True, ema_momentum=0.9))
    h = m.fit(X, Y, epochs=3, verbose=0, validation_data=(X, Y), batch_size=8, shuffle=False,
              callbacks=[tf.keras.callbacks.SwapEMAWeights(swap_on_epoch=True)])
    # TF 2.21
    np.testing.assert_allclose(h.history["loss"], [0.7362537980079651, 0.08067222684621811, 0.246362566947937],
                               rtol=1e-5)
    np.testing.assert_allclose(h.history["val_loss"], [0.6634719371795654, 0.23531843721866608,
                                                       0.05763706937432289], rtol=1e-5)
    np.testing.assert_allclose(m.get_weights()[0].ravel(), [0.6362940073013306, 0.6420748233795166,
                                                            0.6391203999519348], rtol=1e-5)


def test_swap_ema_weights_needs_ema():
    m = _ema_model("sgd")
    with pytest.raises(ValueError) as e:
        m.fit(X, Y, epochs=1, verbose=0, validation_split=0.25, callbacks=[tf.keras.callbacks.SwapEMAWeights()])
    assert str(e.value) == ("SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. Received: "
                            "use_ema=False")        # TF 2.21


def test_per_class_metric_values_are_numpy_in_logs_and_history():
    x = (np.arange(60).reshape(20, 3) % 7).astype("float32") / 7
    y = tf.keras.utils.to_categorical((x.sum(1) > 1.5).astype("int32"), 2)
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, activation="softmax",
                                                                         kernel_initializer="ones")])
    m.compile("sgd", "categorical_crossentropy", metrics=[tf.keras.metrics.F1Score(),
                                                          tf.keras.metrics.F1Score(average="macro", name="f1m")])
    seen = []
    cb = tf.keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(logs))
    h = m.fit(x, y, verbose=0, epochs=2, batch_size=10, callbacks=[cb], validation_split=0.5)
    # TF 2.21: Keras converts each log to NumPy, then to float where it can: a per-class F1 stays an ndarray
    assert [type(v).__name__ for v in seen[0].values()] == ["ndarray", "float", "float"]
    assert {k: type(v[0]).__name__ for k, v in h.history.items()} == {
        'f1_score': 'ndarray', 'f1m': 'float', 'loss': 'float', 'val_f1_score': 'ndarray', 'val_f1m': 'float',
        'val_loss': 'float'}
    np.testing.assert_allclose(h.history["f1_score"][0], [0.75, 0.571399986743927], rtol=1e-4)
    np.testing.assert_allclose(h.history["f1m"], [0.6607, 0.375], atol=1e-4)
    r = m.evaluate(x, y, verbose=0, return_dict=True)
    assert type(r["f1_score"]).__name__ == "ndarray" and type(r["f1m"]) is float


@pytest.mark.parametrize("schedule,message", [
    # TF 2.21: Keras 3 takes only a Python or NumPy float (a tensor is formatted by its value)
    (lambda e, lr: tf.constant(0.002), "The output of the `schedule` function should be a float. Got: "
                                       "0.0020000000949949026"),
    (lambda e: 0, "The output of the `schedule` function should be a float. Got: 0"),
])
def test_learning_rate_scheduler_needs_a_float(schedule, message):
    m = _ema_model("sgd")
    with pytest.raises(ValueError) as e:
        m.fit(X, Y, epochs=1, verbose=0, callbacks=[tf.keras.callbacks.LearningRateScheduler(schedule)])
    assert str(e.value) == message
