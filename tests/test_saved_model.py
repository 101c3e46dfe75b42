"""tf.saved_model: not implemented yet; the error says so clearly."""
import pytest

import tfcompat as tf


def test_save_load_not_implemented(tmp_path):
    with pytest.raises(NotImplementedError, match="tf.saved_model.save is not implemented"):
        tf.saved_model.save(tf.Module(), str(tmp_path))
    (tmp_path / "saved_model.pb").write_bytes(b"")
    with pytest.raises(NotImplementedError, match="written by TensorFlow"):
        tf.saved_model.load(str(tmp_path))
