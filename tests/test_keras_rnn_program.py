"""The recurrent layers' time loop takes its steps with one `unbind`: the backward then stacks the steps' gradients
once. Indexing `x[:, t]` at each step made every step's backward a full-size zero gradient added up (T^2 work: a
100-step LSTM trained 20x slower than torch's)."""
import collections

import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


@pytest.mark.parametrize("layer, selects", [
    (lambda: keras.layers.LSTM(4), 0), (lambda: keras.layers.SimpleRNN(4, go_backwards=True), 0),
    (lambda: keras.layers.TimeDistributed(keras.layers.BatchNormalization()), 0),
    (lambda: keras.layers.RNN(keras.layers.StackedRNNCells([keras.layers.LSTMCell(3), keras.layers.LSTMCell(2)])), 0),
    (lambda: keras.layers.GRU(4, return_sequences=True), 13)])     # GRU: its bias rows (recurrent: one per step)
def test_a_recurrent_training_step_records_no_per_step_select_of_its_input(layer, selects):
    model = keras.Sequential([keras.Input((12, 3)), layer(), keras.layers.Flatten(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x = np.random.default_rng(0).normal(size=(8, 12, 3)).astype("float32")
    model.fit(x, np.ones((8, 1), "float32"), batch_size=8, epochs=1, verbose=0)
    program = next(iter(model.train_function.functions[0]._concrete[0]._programs.values()))
    ops = collections.Counter(str(program.funcs[s["f"]]) for s in program.steps if s["op"] != "guard_array")
    assert ops["aten.select_backward.default"] == selects and ops["aten.unbind.int"] >= 1
