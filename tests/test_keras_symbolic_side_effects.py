"""What a layer's `call` does on the host while Keras infers shapes (a functional model's symbolic call), and which
data `fit` refuses before running anything (TF 2.21 + Keras 3.15 outputs as golden text)."""
import numpy as np
import pytest

import tfcompat as tf


class _Print(tf.keras.layers.Layer):
    def call(self, inputs):
        print("called")
        tf.print("tf.print", inputs)
        return inputs


def test_symbolic_call_runs_python_once_and_tf_print_not_at_all(capsys):
    # Keras builds a graph it never runs: Python code runs once, tf.print prints nothing until a real call
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, _Print()(tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs)))
    out = capsys.readouterr()
    assert (out.out, out.err) == ("called\n", "")
    model(tf.constant([[2.0]]))
    out = capsys.readouterr()
    assert (out.out, out.err) == ("called\n", "tf.print [[2]]\n")


def test_tf_print_inside_a_traced_function_still_prints(capsys):
    @tf.function
    def f(x):
        tf.print("x:", x)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().err == "x: 1\nx: 2\n"


@pytest.mark.parametrize("x, y, text", [
    ([1, 2, 3], [0.0, 0.0, 1.0], "x=[1, 2, 3] (of type <class 'list'>)"),
    ([[1.0], [2.0]], [[0.0], [1.0]], "x=[[1.0], [2.0]] (of type <class 'list'>)"),
    ({"a": [1, 2]}, None, "x={'a': [1, 2]} (of type <class 'dict'>)"),
    ((1, 2), None, "x=(1, 2) (of type <class 'tuple'>)"),
    ("abc", None, "x=abc (of type <class 'str'>)"),
    (3, None, "x=3 (of type <class 'int'>)")])
def test_fit_refuses_python_values_as_keras(x, y, text):
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
    model.compile("sgd", "mse")
    with pytest.raises(ValueError) as e:
        model.fit(x, y, verbose=0)
    assert str(e.value) == "Unrecognized data type: " + text


def test_fit_takes_a_list_of_arrays():
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
    model.compile("sgd", "mse")
    # TF 2.21 warns too: a list for a model whose input is one KerasTensor
    with pytest.warns(UserWarning, match="The structure of `inputs` doesn't match the expected structure"):
        assert len(model.fit([np.ones((3, 1))], [np.ones((3, 1))], verbose=0).history["loss"]) == 1
