"""Keras model building as the TF tutorials see it (quickstart/advanced's subclassed model, distribute/save_and_load):
which layers start built, and the shapes a subclassed model records when fit/evaluate build it on the data's spec.

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

L = tf.keras.layers


@pytest.mark.parametrize("make, built", [
    (lambda: L.Flatten(), False), (lambda: L.Lambda(lambda x: x), False), (lambda: L.Activation("relu"), True),
    (lambda: L.Dropout(0.2), True), (lambda: L.Reshape((4,)), True), (lambda: L.Permute((1,)), False),
    (lambda: L.RepeatVector(2), False), (lambda: L.ZeroPadding2D(), False), (lambda: L.Cropping1D(), False),
    (lambda: L.UpSampling2D(), False), (lambda: L.Resizing(2, 2), False), (lambda: L.CenterCrop(2, 2), False),
    (lambda: L.Dense(3), False), (lambda: L.ReLU(), True),
])
def test_which_layers_start_built(make, built):
    assert make().built is built     # TF 2.21


def test_a_default_build_records_its_shape():
    f = L.Flatten()
    f.build((None, 4, 3))
    assert f.built and f.get_build_config() == {"input_shape": (None, 4, 3)}     # TF 2.21
    m = tf.keras.Sequential([tf.keras.Input((6, 6, 2)), L.Conv2D(3, 3), L.Flatten(), L.Dense(4)])
    again = tf.keras.Sequential.from_config(m.get_config())
    assert [x.get_build_config() for x in again.layers] == [
        {"input_shape": (None, 6, 6, 2)}, {"input_shape": (None, 4, 4, 3)}, {"input_shape": (None, 48)}]


class _Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = L.Conv2D(4, 3, activation="relu")
        self.flatten = L.Flatten()
        self.d1 = L.Dense(8, activation="relu")
        self.d2 = L.Dense(10)

    def call(self, x):
        return self.d2(self.d1(self.flatten(self.conv1(x))))


def _shapes(model):
    return [layer.get_build_config() for layer in [model] + model.layers]


def test_unbuilt_subclassed_summary_marks_flatten_unbuilt(capsys):
    _Net().summary()
    rows = [line for line in capsys.readouterr().out.splitlines() if "flatten" in line]
    assert rows == ["│ flatten (Flatten)               │ ?                      │   0 (unbuilt) │"]   # TF 2.21


@pytest.mark.parametrize("kind, batch", [("ds", None), ("ds_drop", 4), ("np", None), ("np_exact", 4)])
def test_fit_builds_a_subclassed_model_on_the_data_spec(kind, batch):
    m = _Net()
    m.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    x, y = np.zeros((8, 8, 8, 1), "float32"), np.zeros((8,), "int64")
    if kind == "ds":
        m.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(3), verbose=0, shuffle=False)
    elif kind == "ds_drop":
        m.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4, drop_remainder=True), verbose=0, shuffle=False)
    else:
        m.fit(x, y, batch_size=3 if kind == "np" else 4, verbose=0)
    # TF 2.21: the spec's batch dimension (None when the last batch is smaller)
    assert _shapes(m) == [{"input_shape": (batch, 8, 8, 1)}, {"input_shape": (batch, 8, 8, 1)},
                          {"input_shape": (batch, 6, 6, 4)}, {"input_shape": (batch, 144)},
                          {"input_shape": (batch, 8)}]


def test_evaluate_builds_on_the_spec_and_predict_on_the_batch():
    x, y = np.zeros((8, 8, 8, 1), "float32"), np.zeros((8,), "int64")
    m = _Net()
    m.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    m.evaluate(x, y, verbose=0)
    assert m.get_build_config() == {"input_shape": (None, 8, 8, 1)}    # TF 2.21
    m = _Net()
    m.predict(x, verbose=0)
    assert m.get_build_config() == {"input_shape": (8, 8, 8, 1)}


def test_summary_after_fit_shows_unknown_batch(capsys):
    m = _Net()
    m.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    m.fit(np.zeros((6, 8, 8, 1), "float32"), np.zeros((6,), "int64"), batch_size=4, epochs=1, verbose=0)
    capsys.readouterr()
    m.summary()
    out = capsys.readouterr().out
    # TF 2.21
    for row in ["│ conv2d (Conv2D)                 │ (None, 6, 6, 4)        │            40 │",
                "│ flatten (Flatten)               │ (None, 144)            │             0 │",
                "│ dense (Dense)                   │ (None, 8)              │         1,160 │",
                "│ dense_1 (Dense)                 │ (None, 10)             │            90 │"]:
        assert row in out


def test_saved_signature_of_a_fitted_subclassed_model_has_unknown_batch(tmp_path):
    # distribute/save_and_load: tf.saved_model.save after fit; TF's signature is (None, 5)
    class Sub(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = L.Dense(5, kernel_initializer="ones")

        def call(self, inputs):
            return self.d(inputs)
    m = Sub()
    m.compile(optimizer="adam", loss="mse")
    data = tf.data.Dataset.from_tensors((tf.range(5, dtype=tf.float32), tf.range(5, dtype=tf.float32)))
    m.fit(data.repeat(10).batch(4), epochs=1, verbose=0, shuffle=False)
    tf.saved_model.save(m, str(tmp_path / "m"))
    f = tf.saved_model.load(str(tmp_path / "m")).signatures["serving_default"]
    assert f.structured_input_signature[1]["inputs"].shape.as_list() == [None, 5]



def test_text_vectorization_takes_a_string_lookup_name():
    # Keras's TextVectorization holds an auto-named StringLookup: later lookups' names skip one (TF 2.21)
    t = L.TextVectorization()
    assert (t.name, L.StringLookup().name, L.IntegerLookup().name) == ("text_vectorization", "string_lookup_1",
                                                                      "integer_lookup")
    t = L.TextVectorization(name="x")
    assert (t.name, L.StringLookup().name) == ("x", "string_lookup_3")


@pytest.mark.parametrize("make, x, error, text", [
    (lambda: L.StringLookup(), ["a"], tf.errors.FailedPreconditionError, "Table not initialized."),
    (lambda: L.StringLookup(invert=True), [1], tf.errors.FailedPreconditionError, "Table not initialized."),
    (lambda: L.IntegerLookup(), [1], tf.errors.FailedPreconditionError, "Table not initialized."),
    (lambda: L.StringLookup(output_mode="multi_hot", max_tokens=4, pad_to_max_tokens=True), ["a"],
     tf.errors.FailedPreconditionError, "Table not initialized."),
    (lambda: L.StringLookup(output_mode="multi_hot"), ["a"], RuntimeError,
     "When using `output_mode=multi_hot` and `pad_to_max_tokens=False`, you must set the layer's vocabulary"),
    (lambda: L.TextVectorization(output_mode="count"), ["a b"], RuntimeError,
     "When using `output_mode=count` and `pad_to_max_tokens=False`, you must set the layer's vocabulary"),
])
def test_a_lookup_called_before_its_vocabulary_raises_keras_errors(make, x, error, text):
    layer = make()
    with pytest.raises(error) as info:      # TF 2.21 (it returned OOV indices)
        layer(np.array(x))
    assert text in str(info.value)
    assert f"Exception encountered when calling {type(layer).__name__}.call()" in str(info.value)


def test_an_empty_vocabulary_is_refused():
    with pytest.raises(ValueError, match=r"^Cannot set an empty vocabulary. Received: vocabulary=\[\]$"):
        L.StringLookup(vocabulary=[])       # TF 2.21


def test_a_model_with_an_adapted_lookup_still_loads(tmp_path):
    # the rebuilt model's symbolic build runs before the vocabulary asset is read: it must not raise
    lookup = L.StringLookup()
    lookup.adapt(np.array(["a", "b", "a"]))
    m = tf.keras.Sequential([tf.keras.Input((1,), dtype="string"), lookup])
    m.save(str(tmp_path / "m.keras"))
    loaded = tf.keras.models.load_model(str(tmp_path / "m.keras"))
    assert loaded(np.array([["b"], ["z"]])).numpy().tolist() == [[2], [0]]      # TF 2.21
