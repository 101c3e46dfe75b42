"""fit/evaluate over tf.data, generators and validation data as Keras 3.15's epoch iterator runs them: golden values
recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1)."""
import warnings

import numpy as np
import pytest

import tfcompat as tf

X = np.arange(100 * 4).reshape(100, 4).astype("float32") / 400
Y = (X.sum(axis=1) > 2).astype("float32")


def _model(optimizer="sgd", **kw):
    m = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(
        1, activation="sigmoid", kernel_initializer=tf.keras.initializers.Constant(0.1), bias_initializer="zeros")])
    m.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=["accuracy"], **kw)
    return m


class _Record(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.out = []

    def on_test_batch_end(self, batch, logs=None):
        self.out.append((batch, round(float(logs["loss"]), 5)))

    def on_train_batch_end(self, batch, logs=None):
        self.out.append(("t", batch, int(self.model.optimizer.iterations.numpy())))


def _gen(step=20):
    for i in range(0, 100, step):
        yield X[i:i + step], Y[i:i + step]


def _close(history, expected):
    assert sorted(history) == sorted(expected)
    for k, v in expected.items():
        np.testing.assert_allclose(history[k], v, rtol=2e-5, atol=1e-6, err_msg=k)


def test_validation_steps_restart_each_epoch():
    # TF 2.21: fit's validation evaluates from the start of the validation data every epoch (Keras resets its
    # cached eval iterator), while the training dataset goes on across epochs with steps_per_epoch
    m, cb = _model(), _Record()
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = m.fit(ds, epochs=3, steps_per_epoch=4, verbose=0, validation_data=ds, validation_steps=2, callbacks=[cb])
    assert cb.out == [('t', 0, 1), ('t', 1, 2), ('t', 2, 3), ('t', 3, 4), (0, 0.69215), (1, 0.70182), ('t', 0, 5),
                      ('t', 1, 6), ('t', 2, 7), ('t', 3, 8), (0, 0.69672), (1, 0.70707), ('t', 0, 9), ('t', 1, 10),
                      (0, 0.70158), (1, 0.71273)]
    _close(h.history, {'accuracy': [0.0, 0.75, 1.0], 'loss': [0.7293401956558228, 0.632178783416748,
                                                              0.528234601020813],
                       'val_accuracy': [0.30000001192092896, 0.15000000596046448, 0.05000000074505806],
                       'val_loss': [0.7018194198608398, 0.707065761089325, 0.7127260565757751]})


def test_generator_epochs_replay_peeked_batches():
    # TF 2.21: Keras's generator adapter peeks at 2 batches for the spec and yields them again at the start of
    # every pass, so later epochs of an exhausted generator train on those 2; each epoch that ends on the
    # generator running out counts one more optimizer iteration (the traced step's iterations.assign_add)
    m, cb = _model(), _Record()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = m.fit(_gen(), epochs=3, verbose=0, callbacks=[cb])
    assert cb.out == [('t', 0, 1), ('t', 1, 2), ('t', 2, 3), ('t', 3, 4), ('t', 4, 5), ('t', 0, 7), ('t', 1, 8),
                      ('t', 0, 10), ('t', 1, 11)]
    _close(h.history, {'accuracy': [0.5, 0.02500000037252903, 0.07500000298023224],
                       'loss': [0.6507495045661926, 0.7331563830375671, 0.7269109487533569]})
    assert int(m.optimizer.iterations.numpy()) == 12
    np.testing.assert_allclose(m.get_weights()[1], [-0.02309779], rtol=1e-5)


@pytest.mark.parametrize("kw,iterations,loss2", [
    ({}, 22, 0.6501315236091614),
    ({"run_eagerly": True}, 20, 0.6501339673995972),
    ({"steps_per_execution": 3}, 20, 0.6501339673995972),
])
def test_unknown_cardinality_dataset_iterations(kw, iterations, loss2):
    # TF 2.21: a dataset of unknown length ends each epoch in a traced step whose get_next fails after the Adam
    # iteration count moved (not when run eagerly, nor with steps_per_execution > 1, which tests for data first)
    m = _model("adam", **kw)
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(10).filter(lambda a, b: True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = m.fit(ds, epochs=2, verbose=0)
    assert int(m.optimizer.iterations.numpy()) == iterations
    _close(h.history, {'accuracy': [0.5, 0.5199999809265137], 'loss': [0.652756929397583, loss2]})


def test_known_cardinality_runs_out_without_extra_iteration():
    m = _model()
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(10)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        h = m.fit(ds, epochs=2, steps_per_epoch=7, verbose=0)
    # TF 2.21
    assert int(m.optimizer.iterations.numpy()) == 10
    _close(h.history, {'accuracy': [0.2857142984867096, 1.0], 'loss': [0.6975185871124268, 0.5399715304374695]})
    assert any(str(i.message).startswith("Your input ran out of data; interrupting training.") for i in w)


def test_generator_validation_data():
    # TF 2.21: the second evaluation sees only the 2 peeked batches of the exhausted generator
    m = _model()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = m.fit(X, Y, epochs=2, verbose=0, validation_data=_gen(25), batch_size=50, shuffle=False)
    np.testing.assert_allclose(h.history["val_accuracy"], [0.5, 0.019999999552965164], rtol=1e-6)
    np.testing.assert_allclose(h.history["val_loss"], [0.6490379571914673, 0.7454395890235901], rtol=1e-4)


def test_generator_errors_and_warnings():
    m = _model()

    def empty():
        return
        yield

    with pytest.raises(ValueError, match="the generator must yield at least one batch. Received an empty "
                                         "generator."), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m.fit(empty(), verbose=0)

    def not_tuple():
        yield X[:5]

    with pytest.raises(ValueError, match=r"the generator must return a tuple, either \(input,\) or \(inputs, "
                                         r"targets\) or \(inputs, targets, sample_weights\). Received: \[\["):
        m.predict(not_tuple(), verbose=0)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m.fit(_gen(), verbose=0)
    # TF 2.21
    assert [str(i.message) for i in w] == [
        '`shuffle=True` was passed, but will be ignored since the data `x` was provided as a generator. The '
        'generator is expected to yield already-shuffled data.',
        'Your input ran out of data; interrupting training. Make sure that your dataset or generator can generate '
        'at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` function when building '
        'your dataset.']


class _Batches(tf.keras.utils.PyDataset):
    def __len__(self):
        return 1

    def __getitem__(self, i):
        return X[:4], Y[:4]


@pytest.mark.parametrize("make,kw,kind", [
    (lambda: tf.data.Dataset.from_tensor_slices((X, Y)).batch(2), dict(y=Y), "tf.data.Dataset"),
    (lambda: tf.data.Dataset.from_tensor_slices((X, Y)).batch(2), dict(sample_weight=Y), "tf.data.Dataset"),
    (_gen, dict(y=Y), "generator"),
    (_gen, dict(sample_weight=Y), "generator"),
    (_Batches, dict(y=Y), "PyDataset"),
])
def test_targets_beside_a_source(make, kw, kind):
    m = _model()
    name, what = ("y", "the targets") if "y" in kw else ("sample_weights", "the sample weights")
    with pytest.raises(ValueError) as e:
        m.fit(make(), verbose=0, **kw)
    # TF 2.21
    assert str(e.value) == (f"When providing `x` as a {kind}, `{name}` should not be passed. Instead, {what} should be "
                            f"included as part of the {kind}.")


def test_generator_builds_on_its_peeked_spec():
    # TF 2.21: a subclassed model fitted on a generator is built on the spec of the 2 batches Keras peeked at (batch
    # dimension None, other dimensions kept where they agree)
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(2)

        def call(self, inputs):
            return self.d(inputs["a"])

    def gen():
        for i in range(0, 10, 5):
            yield {"a": X[i:i + 5]}, np.stack([Y[i:i + 5]] * 2, 1)

    m = Net()
    m.compile("sgd", "mse")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m.fit(gen(), verbose=0)
    assert m.get_build_config() == {'input_shape': {'a': (None, 4)}}
    assert m.d.get_build_config() == {'input_shape': (None, 4)}
