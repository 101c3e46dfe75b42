"""`keras.mixed_precision`: policies and `LossScaleOptimizer`'s dynamic loss scaling (values recorded from Keras
3.15.1 with TF 2.21)."""
import numpy as np
import pytest

from tfcompat import keras

mp = keras.mixed_precision


def test_policies_print_as_keras():
    policy = mp.Policy("mixed_float16")
    assert (repr(policy), str(policy), policy.compute_dtype, policy.variable_dtype) == \
        ('<DTypePolicy "mixed_float16">', '<DTypePolicy "mixed_float16">', "float16", "float32")
    mp.set_global_policy("mixed_float16")
    assert repr(mp.global_policy()) == repr(keras.config.dtype_policy()) == '<DTypePolicy "mixed_float16">'
    dense = keras.layers.Dense(2)
    dense.build((None, 3))
    assert (repr(dense.dtype_policy), dense.dtype, dense.compute_dtype, dense.kernel.dtype) == \
        ('<DTypePolicy "mixed_float16">', "float32", "float16", "float32")
    assert repr(dense(np.ones((1, 3))).dtype) == "tf.float16"        # the kernel is read in the compute dtype


def test_mixed_float16_compile_wraps_the_optimizer():
    mp.set_global_policy("mixed_float16")
    # zero kernels: with random ones the float16 gradients of the scaled loss can overflow, which halves the
    # scale (TF does the same), so the figures below would depend on the random state other tests left
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="zeros"),
                              keras.layers.Activation("linear", dtype="float32")])
    model.compile(optimizer="sgd", loss="mse")
    optimizer = model.optimizer
    assert (type(optimizer).__name__, optimizer.name, optimizer.initial_scale, optimizer.dynamic_growth_steps,
            type(optimizer.inner_optimizer).__name__) == ("LossScaleOptimizer", "loss_scale_optimizer", 32768.0,
                                                          2000, "SGD")
    history = model.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), verbose=0, epochs=2)
    np.testing.assert_allclose(history.history["loss"], [1.0, 0.9215836], rtol=1e-4)      # TF 2.21's
    assert [v.path for v in optimizer.variables] == [
        "loss_scale_optimizer/iteration", "loss_scale_optimizer/learning_rate", "loss_scale_optimizer/step_counter",
        "loss_scale_optimizer/dynamic_scale", "sgd/iteration", "sgd/learning_rate"]
    assert float(optimizer.scale_loss(keras.ops.convert_to_tensor(2.0))) == 65536.0
    assert int(optimizer.iterations) == 2


def test_a_non_finite_step_is_skipped_and_halves_the_scale():
    optimizer = mp.LossScaleOptimizer(keras.optimizers.SGD(0.1))
    v = keras.Variable(np.ones(2, "float32"))
    optimizer.apply([np.array([np.inf, 1.0], "float32")], [v])
    assert (v.numpy().tolist(), float(optimizer.dynamic_scale), int(optimizer.iterations)) == ([1.0, 1.0], 16384.0, 0)
    optimizer.apply([np.array([1.0, 1.0], "float32")], [v])
    np.testing.assert_allclose(v.numpy(), [0.9999939, 0.9999939], rtol=1e-7)
    assert (float(optimizer.dynamic_scale), int(optimizer.iterations)) == (16384.0, 1)


def test_the_scale_doubles_after_dynamic_growth_steps():
    optimizer = mp.LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=4.0, dynamic_growth_steps=2)
    w = keras.Variable(np.ones(2, "float32"))
    seen = []
    for _ in range(3):
        optimizer.apply([np.array([4.0, 8.0], "float32")], [w])
        seen.append((w.numpy().tolist(), float(optimizer.dynamic_scale)))
    np.testing.assert_allclose([s[0] for s in seen], [[0.9, 0.8], [0.8, 0.6], [0.75, 0.5]], rtol=1e-6)
    assert [s[1] for s in seen] == [4.0, 8.0, 8.0]
    config = optimizer.get_config()
    assert (config["initial_scale"], config["dynamic_growth_steps"], config["inner_optimizer"]["class_name"]) == \
        (4.0, 2, "SGD")
    clone = mp.LossScaleOptimizer.from_config(config)
    assert (clone.initial_scale, type(clone.inner_optimizer).__name__) == (4.0, "SGD")


def test_inner_optimizer_must_be_an_optimizer():
    with pytest.raises(AttributeError, match="^'str' object has no attribute 'loss_scale_factor'$"):
        mp.LossScaleOptimizer("sgd")
