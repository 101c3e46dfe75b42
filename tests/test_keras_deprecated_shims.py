"""Keras 3.15's backwards-compatibility shims `compiled_loss`/`compiled_metrics` (golden values from TF 2.21)."""
import warnings

import numpy as np

import tfcompat as tf


class CustomModel(tf.keras.Sequential):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            pred = self(x, training=True)
            loss = self.compiled_loss(y, pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.compiled_metrics.update_state(y, pred)
        return {m.name: m.result() for m in self.metrics}


def test_compiled_loss_and_metrics_shims():
    x = np.array([[1.0], [2.0], [3.0]], np.float32)
    y = np.array([[2.0], [4.0], [7.0]], np.float32)
    m = CustomModel([tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        h = m.fit(x, y, batch_size=1, epochs=2, verbose=0, shuffle=False)
    # Keras 3's shim updates the loss tracker (a Mean) with y_pred: "loss" is the mean prediction
    assert {k: [round(float(a), 6) for a in v] for k, v in h.history.items()} == {
        "mae": [2.196133, 1.486711], "loss": [2.1372, 2.846622]}
    assert sorted({(type(i.message).__name__, str(i.message)) for i in w}) == [
        ("UserWarning", "`model.compiled_loss()` is deprecated. Instead, use "
                        "`model.compute_loss(x, y, y_pred, sample_weight, training)`."),
        ("UserWarning", "`model.compiled_metrics()` is deprecated. Instead, use e.g.:\n```\nfor metric in "
                        "self.metrics:\n    metric.update_state(y, y_pred)\n```\n")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isclose(m.compiled_loss(y, m(x)).numpy(), 1.7465626)


def test_shim_warnings_print_keras_source_lines():
    # a warning prints the source line it points at: TF 2.21 prints Keras's `warnings.warn(` (compiled_loss) and
    # `return self._compiled_metrics_update_state(` (compiled_metrics)
    import linecache
    x = np.array([[1.0]], np.float32)
    m = CustomModel([tf.keras.layers.Dense(1)])
    m.compile(optimizer="sgd", loss="mse")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m.fit(x, x, verbose=0)
    lines = {str(i.message)[:22]: linecache.getline(i.filename, i.lineno).strip() for i in w}
    assert lines == {"`model.compiled_loss()": "warnings.warn(",
                     "`model.compiled_metric": "return self._compiled_metrics_update_state("}
