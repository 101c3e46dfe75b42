"""tf.image as input pipelines call it (values and errors recorded from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf


@pytest.mark.parametrize("size, message", [
    ([2.5, 2], "'size' must be a 1-D int32 Tensor"),
    ([2.0, 3.0], "'size' must be a 1-D int32 Tensor"),
    ("float32 tensor", "'size' must be a 1-D int32 Tensor"),
    ("int64 tensor", "'size' must be a 1-D int32 Tensor"),
    ([2, 3, 4], "'size' must be a 1-D Tensor of 2 elements: new_height, new_width"),
    (5, "'size' must be a 1-D Tensor of 2 elements: new_height, new_width"),
])
def test_resize_size_errors(size, message):
    if size == "float32 tensor":
        size = tf.constant([2., 3.])
    elif size == "int64 tensor":
        size = tf.constant([2, 3], tf.int64)
    with pytest.raises(ValueError) as e:
        tf.image.resize(tf.zeros([4, 4, 3]), size)
    assert str(e.value) == message  # TF 2.21


def test_resize_size_forms():
    img = tf.zeros([4, 4, 3])
    # TF 2.21: NumPy scalars and arrays (float ones too) convert to int32
    for size in [(np.int64(2), 3), np.array([2, 3]), np.array([2., 3.]), tf.constant([2, 3])]:
        assert tf.image.resize(img, size).shape == (2, 3, 3)
