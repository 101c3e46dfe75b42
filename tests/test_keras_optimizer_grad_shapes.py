"""apply_gradients with a gradient of another shape than its variable: TF 2.21 + Keras 3.15.1's outcomes."""
import numpy as np
import pytest

import tfcompat as tf

K = tf.keras.optimizers

# (optimizer, gradient) -> variable after one step from [1., 2.], or the message TF's InvalidArgumentError carries
CASES = [
    (lambda: K.SGD(0.1), [1.0], "Cannot update variable with shape [2] using a Tensor with shape [1], shapes must be equal."),
    (lambda: K.SGD(0.1), [[1.0], [2.0]],
     "Cannot update variable with shape [2] using a Tensor with shape [2,1], shapes must be equal."),
    (lambda: K.SGD(0.1, momentum=0.9), [1.0], [0.9, 1.9]),
    (lambda: K.Adagrad(0.1), [1.0],
     "Cannot update variable with shape [2] using a Tensor with shape [1], shapes must be equal."),
    (lambda: K.Adam(0.1), [1.0], [0.9, 1.9]),
    (lambda: K.Adam(0.1), [[1.0], [2.0]],
     "Cannot update variable with shape [2] using a Tensor with shape [2,2], shapes must be equal."),
    (lambda: K.Adam(0.1), [1.0, 2.0, 3.0], "Incompatible shapes: [3] vs. [2]"),
    (lambda: K.RMSprop(0.1), [1.0], [0.6838, 1.6838]),
    (lambda: K.Nadam(0.1), [1.0], [0.8937, 1.8937]),
]


@pytest.mark.parametrize("make, grad, expected", CASES)
def test_gradient_of_another_shape(make, grad, expected):
    v = tf.Variable([1.0, 2.0])
    opt = make()
    if isinstance(expected, str):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            opt.apply_gradients([(tf.constant(grad), v)])
        assert expected in str(info.value)
        np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])
        assert v.shape == (2,)
    else:
        opt.apply_gradients([(tf.constant(grad), v)])
        np.testing.assert_allclose(v.numpy(), expected, atol=1e-4)
        assert v.shape == (2,)
