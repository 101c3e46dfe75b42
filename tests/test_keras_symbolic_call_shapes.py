"""While a functional model is built, a custom layer's `call` sees Keras 3's symbolic tensors (TF 2.21 + Keras 3.15.1
text recorded from TF): their shape has None for unknown dims, they print as TF's graph placeholders."""
import numpy as np

import tfcompat as tf

keras = tf.keras


class Show(keras.layers.Layer):
    def call(self, x, y=None):
        print(type(x).__name__, x.shape, x.shape.as_list(), x.shape.rank, x, repr(x))
        if y is not None:
            print(" y", y)
        return x * 2


def test_custom_layer_call_sees_keras_symbolic_shapes(capsys):
    a = keras.Input((3,))
    b = keras.Input((None, 4), dtype="int32", batch_size=8)
    out = Show()(a)
    assert out.shape == (None, 3)
    Show()(b)
    Show()(a, y=a)
    assert capsys.readouterr().out.splitlines() == [
        "SymbolicTensor (None, 3) [None, 3] 2 Tensor(\"Placeholder:0\", shape=(None, 3), dtype=float32) "
        "<tf.Tensor 'Placeholder:0' shape=(None, 3) dtype=float32>",
        "SymbolicTensor (8, None, 4) [8, None, 4] 3 Tensor(\"Placeholder:0\", shape=(8, None, 4), dtype=int32) "
        "<tf.Tensor 'Placeholder:0' shape=(8, None, 4) dtype=int32>",
        "SymbolicTensor (None, 3) [None, 3] 2 Tensor(\"Placeholder:0\", shape=(None, 3), dtype=float32) "
        "<tf.Tensor 'Placeholder:0' shape=(None, 3) dtype=float32>",
        " y Tensor(\"Placeholder_1:0\", shape=(None, 3), dtype=float32)",
    ]
    model = keras.Model(a, out)
    assert model(np.ones((2, 3), "float32")).numpy().tolist() == [[2.0] * 3] * 2     # eager calls see values
    assert capsys.readouterr().out.startswith("EagerTensor (2, 3) [2, 3] 2 tf.Tensor(")


def test_builtin_layers_inside_a_custom_layer_build_on_symbolic_inputs():
    class Block(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.reg = keras.layers.ActivityRegularization(l1=0.1)
            self.dense = keras.layers.Dense(2, kernel_initializer="ones")

        def call(self, x):
            return self.dense(self.reg(x))

    inp = keras.Input((4,))
    block = Block()
    model = keras.Model(inp, block(inp))
    assert model.output.shape == (None, 2) and block.dense.kernel.shape == (4, 2)
    np.testing.assert_allclose(model(np.ones((3, 4), "float32")).numpy(), np.full((3, 2), 4.0))
    np.testing.assert_allclose(float(sum(model.losses)), 0.4, rtol=1e-6)       # l1 * 12 / batch of 3
