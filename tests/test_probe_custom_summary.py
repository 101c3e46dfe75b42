"""tf.summary probes (texts recorded from TF 2.21)."""
import re

import numpy as np
import pytest

import tfcompat as tf


def test_writer_reprs_and_image_channel_error(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    assert re.sub("0x[0-9a-f]+", "ADDR", repr(w)) == \
        "<tensorflow.python.ops.summary_ops_v2._ResourceSummaryWriter object at ADDR>"
    assert re.sub("0x[0-9a-f]+", "ADDR", repr(tf.summary.create_noop_writer())) == \
        "<tensorflow.python.ops.summary_ops_v2._NoopSummaryWriter object at ADDR>"
    with w.as_default(step=0):
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.summary.image("im5", np.zeros((1, 2, 2, 5), np.float32))
    assert str(e.value) == ("{{function_node __wrapped__EncodePng_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
                            "image must have 1, 2, 3, or 4 channels, got 5 [Op:EncodePng] name: ")
    w.close()
