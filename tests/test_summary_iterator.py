"""tf.compat.v1.train.summary_iterator over tf.summary's event files, and tf.make_ndarray (values from TF 2.21)."""
import numpy as np
import pytest

import tfcompat as tf


def test_summary_iterator_reads_back_what_tf_summary_wrote(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        for s in range(2):
            tf.summary.scalar("loss", 1.0 / (s + 1), step=s)
        tf.summary.text("note", "hello", step=0)
    writer.close()
    (event_file,) = list(tmp_path.iterdir())
    events = list(tf.compat.v1.train.summary_iterator(str(event_file)))
    assert events[0].file_version == "brain.Event:2" and not events[0].summary.value
    seen = [(e.step, v.tag, tf.make_ndarray(v.tensor), v.metadata.plugin_data.plugin_name)
            for e in events for v in e.summary.value]
    assert [(s, tag, plugin) for s, tag, _, plugin in seen] == [(0, "loss", "scalars"), (1, "loss", "scalars"),
                                                                (0, "note", "text")]
    values = [a for _, _, a, _ in seen]
    assert all(type(a) is np.ndarray and a.shape == () for a in values)
    assert values[0].dtype == np.float32 and values[1] == np.float32(0.5)
    assert values[2].dtype == object and values[2][()] == b"hello"


def test_make_ndarray_rejects_non_protos():
    with pytest.raises(AttributeError, match="^'list' object has no attribute 'tensor_shape'$"):
        tf.make_ndarray([1])
