"""`keras.Input(ragged=True)` as Keras 3.15.1 on TF 2.21 (values and text recorded from TF): a ragged KerasTensor,
layers built on a dense placeholder, models called, fit and predicting on RaggedTensors batched by rows."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


class RowSums(keras.layers.Layer):
    def call(self, x):
        print("call", type(x).__name__)
        return tf.cast(tf.expand_dims(tf.reduce_sum(x, axis=1), -1), "float32")


def test_ragged_input_tensor_and_config():
    inp = keras.Input(shape=(None,), dtype="int32", ragged=True)
    assert repr(inp) == "<KerasTensor shape=(None, None), dtype=int32, sparse=False, ragged=True, name=keras_tensor>"
    assert inp._keras_history[0].get_config() == {"batch_shape": (None, None), "dtype": "int32", "sparse": False,
                                                  "ragged": True, "name": "input_layer", "optional": False}
    with pytest.raises(ValueError, match=r"^KerasTensor cannot have `sparse=True` and `ragged=True` at the same "
                                         r"time\.$"):
        keras.layers.InputLayer(shape=(None,), ragged=True, sparse=True)


def test_model_on_ragged_rows_calls_fits_and_predicts_as_tf(capsys):
    inp = keras.Input(shape=(None,), dtype="int32", ragged=True)
    model = keras.Model(inp, keras.layers.Dense(1, kernel_initializer="ones")(RowSums()(inp)))
    assert capsys.readouterr().out.count("call") == 1
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]], dtype=tf.int32)
    assert model.predict(rt, verbose=0).tolist() == [[3.0], [3.0], [15.0]]
    assert model(rt).numpy().tolist() == [[3.0], [3.0], [15.0]]
    assert capsys.readouterr().out == "call RaggedTensor\ncall RaggedTensor\n"      # predict's trace, the call
    model.compile("sgd", "mse")
    history = model.fit(rt, np.ones((3, 1), "float32"), verbose=0, epochs=1)
    assert history.history["loss"] == [68.0]
    assert capsys.readouterr().out == "call RaggedTensor\n"
    small = model.predict(rt, batch_size=2, verbose=0)      # rows batched [0, 1], [2]
    np.testing.assert_allclose(small, [[-1.5600004196166992], [-1.5600004196166992], [-7.32000207901001]], rtol=1e-5)


def test_ragged_outputs_of_predict_concatenate_into_a_ragged_tensor():
    inp = keras.Input(shape=(None,), dtype="int32", ragged=True)
    model = keras.Model(inp, keras.layers.Lambda(lambda t: t * 2)(inp))
    out = model.predict(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), batch_size=2, verbose=0)
    assert repr(out) == "<tf.RaggedTensor [[2, 4], [6], [8, 10, 12]]>"
