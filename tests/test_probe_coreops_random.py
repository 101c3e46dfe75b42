"""tf.random's stateless ops as seeded scripts use them: TF's values (recorded from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf

_DEV = "/job:localhost/replica:0/task:0/device:CPU:0"


def test_stateless_gamma_values():
    # TF 2.21
    np.testing.assert_array_equal(tf.random.stateless_gamma([3], seed=[1, 2], alpha=2.0).numpy(),
                                  np.array([2.8172736, 1.9241365, 3.3360066], np.float32))
    np.testing.assert_allclose(  # (TF printed 8 significant digits)
        tf.random.stateless_gamma([2, 2], seed=[5, 7], alpha=[0.5, 3.0], beta=2.0).numpy(),
        np.array([[0.01234554, 2.9309647], [0.23034456, 1.4898869]], np.float32), rtol=3e-7)
    out = tf.random.stateless_gamma([2], seed=[5, 7], alpha=1.0, dtype=tf.float64)
    assert out.dtype == tf.float64
    np.testing.assert_allclose(out.numpy(), [0.27918653, 1.10451064], rtol=3e-8)  # 8 printed digits
    half = tf.random.stateless_gamma([2, 3], seed=[1, 1], alpha=[[1.], [2.]], beta=[1., 2., 3.], dtype=tf.float16)
    np.testing.assert_array_equal(half.numpy(), np.array([[1.029, 0.3042, 0.1644], [0.591, 1.027, 0.525]],
                                                         np.float16))


def test_stateless_errors():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.random.stateless_gamma([3], seed=[1, 2], alpha=[1., 2.])
    assert str(e.value) == (f"{{{{function_node __wrapped__StatelessRandomGammaV3_device_{_DEV}}}}} Shape passed in "
                            "must end with broadcasted shape. [Op:StatelessRandomGammaV3] name: ")  # TF 2.21
    for call in (lambda: tf.random.stateless_gamma([3], seed=[1], alpha=1.),
                 lambda: tf.random.stateless_uniform([2], seed=[1])):
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            call()
        assert str(e.value) == (f"{{{{function_node __wrapped__StatelessRandomGetKeyCounter_device_{_DEV}}}}} seed "
                                "must have shape [2], not [1] [Op:StatelessRandomGetKeyCounter]")  # TF 2.21


@pytest.mark.parametrize("call, op, message", [
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], minval=5, maxval=1, dtype=tf.int32),
     "StatelessRandomUniformIntV2", "Need minval < maxval, got 5 >= 1 [Op:StatelessRandomUniformIntV2] name: "),
    (lambda: tf.random.stateless_normal([-1], seed=[1, 2]), "StatelessRandomNormalV2",
     "Dimension -1 must be >= 0 [Op:StatelessRandomNormalV2] name: "),
    (lambda: tf.random.uniform([-2]), "RandomUniform", "Dimension -2 must be >= 0 [Op:RandomUniform] name: "),
    (lambda: tf.random.uniform([2], 5, 1, dtype=tf.int64), "RandomUniformInt",
     "Need minval < maxval, got 5 >= 1 [Op:RandomUniformInt] name: "),
    (lambda: tf.random.categorical([[0.5]], -1), "Multinomial",
     "num_samples should be non-negative, got -1 [Op:Multinomial] name: "),
    (lambda: tf.random.categorical([0.5], 1), "Multinomial",
     "logits should be a matrix, got shape [1] [Op:Multinomial] name: "),
    (lambda: tf.random.stateless_categorical([[0.5]], -1, seed=[1, 2]), "StatelessMultinomial",
     "num_samples should be non-negative, got -1 [Op:StatelessMultinomial]"),
    (lambda: tf.random.truncated_normal([-1]), "TruncatedNormal", "Dimension -1 must be >= 0 [Op:TruncatedNormal] name: "),
])
def test_kernel_errors(call, op, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        call()
    assert str(e.value) == f"{{{{function_node __wrapped__{op}_device_{_DEV}}}}} {message}"  # TF 2.21


def test_seeded_gamma_values():
    # TF 2.21: RandomGamma's kernel on the op seeds' Philox stream, 256 blocks reserved per output, per cached kernel
    tf.random.set_seed(42)
    np.testing.assert_allclose(tf.random.gamma([3], 2.0).numpy(), [2.6936672, 2.0940087, 0.9814205], rtol=3e-7)
    np.testing.assert_allclose(tf.random.gamma([3], 2.0).numpy(), [0.605136, 3.6437037, 0.3037843], rtol=3e-7)
    np.testing.assert_allclose(tf.random.gamma([2], [0.5, 3.0], beta=[1., 2.], seed=1).numpy(),
                               [[0.11268377, 1.0538874], [0.26166117, 1.3674786]], rtol=3e-7)
    np.testing.assert_allclose(tf.random.gamma([2], 1.0, seed=1).numpy(), [1.3809304, 2.3117146], rtol=3e-7)
    np.testing.assert_allclose(tf.random.gamma([2], 1.0, seed=1).numpy(), [0.6558481, 1.5749409], rtol=3e-7)
    out = tf.random.gamma([2, 2], [[1.], [4.]], dtype=tf.float64, seed=7)
    assert out.shape == (2, 2, 2, 1) and out.dtype == tf.float64
    np.testing.assert_allclose(out.numpy()[:, :, 0, 0], [[2.58186614, 1.18632815], [0.30254799, 0.08978047]],  # 8 digits
                               rtol=5e-8)
    tf.random.set_seed(1)
    np.testing.assert_allclose(tf.random.gamma([3], 1.0, seed=1).numpy(), [0.83581316, 1.4773014, 4.282214], rtol=3e-7)
