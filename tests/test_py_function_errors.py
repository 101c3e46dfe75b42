"""Errors raised inside tf.py_function bodies reach the caller as the TF error classes TF 2.21's EagerPyFunc maps
them to (numpy_function passes them through)."""
import pytest

import tfcompat as tf


def _raising(error):
    def body(x):
        raise error
    return body


@pytest.mark.parametrize("error,tf_class", [
    (AttributeError("a"), tf.errors.UnknownError), (ValueError("v"), tf.errors.InvalidArgumentError),
    (TypeError("t"), tf.errors.InvalidArgumentError), (StopIteration(), tf.errors.OutOfRangeError),
    (MemoryError("m"), tf.errors.ResourceExhaustedError), (NotImplementedError("n"), tf.errors.UnimplementedError),
    (IndexError("i"), tf.errors.UnknownError), (KeyError("k"), tf.errors.UnknownError),
    (ZeroDivisionError("z"), tf.errors.UnknownError),
    (tf.errors.InvalidArgumentError(None, None, "ia"), tf.errors.UnknownError),
    (tf.errors.NotFoundError(None, None, "nf"), tf.errors.UnknownError)])
def test_py_function_maps_python_errors_as_tf(error, tf_class):
    with pytest.raises(tf_class) as info:
        tf.py_function(_raising(error), [1.0], tf.float32)
    assert type(info.value) is tf_class
    assert str(info.value).startswith(f"{type(error).__name__}: " if type(error).__module__ == "builtins"
                                      else f"{type(error).__module__}.{type(error).__name__}: ")
    assert str(info.value).endswith("[Op:EagerPyFunc]")


def test_numpy_function_passes_errors_through():
    with pytest.raises(ValueError, match="^v$"):
        tf.numpy_function(_raising(ValueError("v")), [1.0], tf.float32)
