"""Mixed dtypes while TF builds a graph (tf.function bodies, tf.data functions) are the graph builder's TypeError, as
in TF 2.21, not the eager InvalidArgumentError; GradientTape.gradient's errors for None and non-tensor sources."""
import pytest

import tfcompat as tf


@pytest.mark.parametrize("fn, a, b, text", [
    (lambda a, b: a + b, tf.constant(1), tf.constant(1.0),
     "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda a, b: tf.matmul(a, b), tf.constant([[1]]), tf.constant([[1.0]]),
     "Input 'b' of 'MatMul' Op has type float32 that does not match type int32 of argument 'a'."),
    (lambda a, b: tf.maximum(a, b), tf.constant(1), tf.constant(1.0),
     "Input 'y' of 'Maximum' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda a, b: a < b, tf.constant(1), tf.constant(1.0),
     "Input 'y' of 'Less' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda a, b: a - b, tf.constant(1), tf.constant(1, tf.int64),
     "Input 'y' of 'Sub' Op has type int64 that does not match type int32 of argument 'x'."),
])
def test_mixed_dtypes_in_tf_function(fn, a, b, text):
    with pytest.raises(TypeError) as e:
        tf.function(fn)(a, b)
    assert str(e.value).strip().splitlines()[-1].strip().endswith(text)
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn(a, b)


def test_mixed_dtypes_in_dataset_function():
    ds = tf.data.Dataset.range(5).scan(0, lambda s, x: (s + x, s + x))
    with pytest.raises(TypeError) as e:
        list(ds)
    assert "Input 'y' of 'AddV2' Op has type int64 that does not match type int32 of argument 'x'." in str(e.value)


def test_gradient_sources_none_and_non_tensor():
    x = tf.constant(1.0)
    for source, cls, text in [(None, TypeError, "Cannot convert the argument `type_value`: None to a TensorFlow DType."),
                              ([x, None], TypeError,
                               "Cannot convert the argument `type_value`: None to a TensorFlow DType."),
                              (3.0, AttributeError, "'float' object has no attribute 'dtype'")]:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * 2
        with pytest.raises(cls) as e:
            tape.gradient(y, source)
        assert str(e.value) == text
