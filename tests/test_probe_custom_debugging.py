"""tf.debugging probes (messages recorded from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf

_PREFIX = "{{function_node __wrapped__CheckNumerics_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_check_numerics_message_names_the_wrapped_function():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.debugging.assert_all_finite(tf.constant([1.0, np.nan]), "has nan")
    assert str(e.value) == _PREFIX + "has nan : Tensor had NaN values [Op:CheckNumerics] name: "
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.debugging.check_numerics(tf.constant([1.0, np.inf]), "bad values")
    assert str(e.value) == _PREFIX + "bad values : Tensor had Inf values [Op:CheckNumerics] name: "
