"""keras.random cases from the Keras examples corpus (demo_custom_layer_backend_agnostic).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np

import tfcompat as tf

keras = tf.keras


def test_random_dropout_gradients_flow_in_traced_function():
    # A custom layer calling keras.random.dropout inside a fit step: its inputs' gradients must flow (they did only
    # eagerly: the traced draw replaced the whole result by a host callback's output).
    x = tf.Variable(np.arange(12, dtype=np.float32).reshape(3, 4))
    sg = keras.random.SeedGenerator(7)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            y = keras.random.dropout(x * 2.0, 0.5, seed=sg)
            s = tf.reduce_sum(y)
        return s, tape.gradient(s, x)

    # TF 2.21
    expected = [(172.0, [[4.0, 4.0, 0.0, 4.0], [0.0, 4.0, 0.0, 4.0], [4.0, 4.0, 4.0, 0.0]]),
                (152.0, [[0.0, 4.0, 0.0, 4.0], [4.0, 4.0, 4.0, 0.0], [0.0, 4.0, 4.0, 0.0]])]
    for s_want, g_want in expected:
        s, g = step()
        assert float(s) == s_want
        np.testing.assert_array_equal(g.numpy(), g_want)
    assert sg.state.numpy().tolist() == [7, 2]


def test_random_dropout_eager_gradient():
    x = tf.Variable(np.ones((4, 6), np.float32))
    sg = keras.random.SeedGenerator(1337)
    with tf.GradientTape() as tape:
        y = keras.ops.concatenate([x * 2, x * 3], axis=-1)
        z = keras.random.dropout(y, 0.5, seed=sg)
        s = tf.reduce_sum(z)
    # TF 2.21
    np.testing.assert_array_equal(tape.gradient(s, x).numpy(), [
        [10., 6., 10., 4., 0., 0.], [10., 4., 4., 6., 10., 10.],
        [6., 4., 4., 6., 4., 0.], [0., 10., 10., 4., 4., 6.]])
