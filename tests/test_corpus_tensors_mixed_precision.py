"""Mixed precision (guide/mixed_precision): a mixed_float16 Dense rounds its float16 product before adding the bias,
as TF's MatMul then BiasAdd do, so losses of a custom loop with a LossScaleOptimizer follow TF 2.21 step by step."""
import numpy as np

import tfcompat as tf
from tfcompat import keras


def test_mixed_float16_custom_loop_matches_tf():
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        x = np.arange(8, dtype="float32").reshape(2, 4) / 10
        d1 = keras.layers.Dense(8, activation="relu", kernel_initializer="ones")
        d2 = keras.layers.Dense(3, kernel_initializer="ones")
        act = keras.layers.Activation("softmax", dtype="float32")
        opt = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.1))
        losses = []
        for _ in range(4):
            with tf.GradientTape() as tape:
                p = act(d2(d1(x)))
                loss = keras.losses.SparseCategoricalCrossentropy()(np.array([0, 2]), p)
                scaled = opt.scale_loss(loss)
            variables = [d1.kernel, d1.bias, d2.kernel, d2.bias]
            opt.apply(tape.gradient(scaled, variables), variables)
            losses.append(float(loss))
        assert p.dtype == tf.float32
        # TF 2.21
        np.testing.assert_allclose(losses[1:], [0.7567576169967651, 0.7066380977630615, 0.6749631762504578],
                                   rtol=1e-6)
        np.testing.assert_allclose(d1.kernel.numpy().ravel()[:2], [1.001392, 1.001392], rtol=1e-6)
        np.testing.assert_allclose(d2.bias.numpy()[:2], [0.09630127, -0.07681275], rtol=1e-5)
    finally:
        keras.mixed_precision.set_global_policy("float32")


def test_mixed_float16_traced_step_fuses_the_bias_as_tf_graphs_do():
    # TF 2.21 fuses MatMul and BiasAdd in a graph (one rounding): a tf.function step and train_on_batch give these
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        x = np.arange(8, dtype="float32").reshape(2, 4) / 10
        d1 = keras.layers.Dense(8, activation="relu", kernel_initializer="ones")
        d2 = keras.layers.Dense(3, kernel_initializer="ones")
        act = keras.layers.Activation("softmax", dtype="float32")
        opt = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.1))

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                p = act(d2(d1(x)))
                variables = [d1.kernel, d1.bias, d2.kernel, d2.bias]
                loss = keras.losses.SparseCategoricalCrossentropy()(np.array([0, 2]), p)
                scaled = opt.scale_loss(loss)
            opt.apply(tape.gradient(scaled, variables), variables)
            return loss
        losses = [float(step()) for _ in range(4)]
        np.testing.assert_allclose(losses, [1.0986123085021973, 0.7550959587097168, 0.7066380977630615,
                                            0.6766508221626282], rtol=1e-6)

        inputs = keras.Input(shape=(4,))
        h = keras.layers.Dense(8, activation="relu", kernel_initializer="ones")(inputs)
        h = keras.layers.Dense(3, kernel_initializer="ones")(h)
        model = keras.Model(inputs, keras.layers.Activation("softmax", dtype="float32")(h))
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
        fit_losses = [float(model.train_on_batch(x, np.array([0, 2]))) for _ in range(3)]
        np.testing.assert_allclose(fit_losses[1:], [0.7550959587097168, 0.7066380977630615], rtol=1e-6)
    finally:
        keras.mixed_precision.set_global_policy("float32")
