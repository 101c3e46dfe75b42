"""tf.config probes (behaviour recorded from TF 2.21)."""
import pytest

import tfcompat as tf


def test_threads_cannot_change_after_initialization():
    # TF 2.21: once an op ran, setting a different thread count raises; the current value is accepted
    _ = tf.constant(1.0) + 1
    intra = tf.config.threading.get_intra_op_parallelism_threads()
    inter = tf.config.threading.get_inter_op_parallelism_threads()
    assert tf.config.threading.set_intra_op_parallelism_threads(intra) is None
    assert tf.config.threading.set_inter_op_parallelism_threads(inter) is None
    with pytest.raises(RuntimeError, match="^Intra op parallelism cannot be modified after initialization.$"):
        tf.config.threading.set_intra_op_parallelism_threads(intra + 3)
    with pytest.raises(RuntimeError, match="^Inter op parallelism cannot be modified after initialization.$"):
        tf.config.threading.set_inter_op_parallelism_threads(inter + 3)
    assert tf.config.threading.get_intra_op_parallelism_threads() == intra
    assert tf.config.threading.get_inter_op_parallelism_threads() == inter


def test_device_context_repr():
    import re
    # TF 2.21: print(tf.device("/cpu:0"))
    assert re.fullmatch(r"<tensorflow\.python\.eager\.context\._EagerDeviceContext object at 0x[0-9a-f]+>",
                        repr(tf.device("/cpu:0")))
    with tf.device("/CPU:0"):
        assert tf.constant(1.0).device == "/job:localhost/replica:0/task:0/device:CPU:0"


def test_device_policy():
    # TF 2.21: 'silent' by default; None resets it; an unknown value is a ValueError
    assert tf.config.experimental.get_device_policy() == "silent"
    assert tf.config.experimental.set_device_policy(None) is None
    assert tf.config.experimental.set_device_policy("silent") is None
    assert tf.config.experimental.get_device_policy() == "silent"
    with pytest.raises(ValueError) as e:
        tf.config.experimental.set_device_policy("bad")
    assert str(e.value) == ("Invalid argument `device_policy`: 'bad'. Please refer to https://www.tensorflow.org/"
                            "api_docs/python/tf/config/experimental/set_device_policy for valid `device_policy` "
                            "arguments.")
    with pytest.raises(NotImplementedError, match="explicit"):
        tf.config.experimental.set_device_policy("explicit")
