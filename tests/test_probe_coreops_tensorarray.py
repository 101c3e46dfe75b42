"""tf.TensorArray in eager code: index errors as TF 2.21's eager TensorArray raises them (recorded from TF 2.21)."""
import pytest

import tfcompat as tf


@pytest.mark.parametrize("call, message", [
    (lambda: tf.TensorArray(tf.float32, size=2).read(5), "Tried to read from index 5 but array size is: 2 "),
    (lambda: tf.TensorArray(tf.float32, size=2).read(-1), "Reading from negative indices (index -1) is not allowed."),
    (lambda: tf.TensorArray(tf.float32, size=2).write(5, 1.),
     "Tried to write to index 5 but array is not resizeable and size is: 2 "),
    (lambda: tf.TensorArray(tf.float32, size=2).write(-1, 1.),
     "Writing to negative indices (index -1) is not allowed."),
    (lambda: tf.TensorArray(tf.float32, size=2, dynamic_size=True).read(3),
     "Tried to read from index 3 but array size is: 2 "),
    (lambda: tf.TensorArray(tf.float32, size=2, dynamic_size=True).write(-1, 1.),
     "Writing to negative indices (index -1) is not allowed."),
])
def test_index_errors(call, message):
    with pytest.raises(tf.errors.OutOfRangeError) as e:
        call()
    assert str(e.value) == message  # TF 2.21


def test_write_stack_read():
    ta = tf.TensorArray(tf.float32, size=3)
    for i in range(3):
        ta = ta.write(i, tf.fill([2], float(i)))
    # TF 2.21
    assert ta.stack().numpy().tolist() == [[0., 0.], [1., 1.], [2., 2.]]
    assert ta.read(1).numpy().tolist() == [1., 1.]
    ta2 = tf.TensorArray(tf.int32, size=0, dynamic_size=True).write(0, 5).write(1, 6)
    assert ta2.gather([1, 0]).numpy().tolist() == [6, 5]
    ragged = tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, [1.]).write(1, [1., 2.])
    assert ragged.concat().numpy().tolist() == [1., 1., 2.]
