"""Keras's absl warnings print as under TF 2.21: `WARNING:absl:<message>` on stderr (absl configures Python's basic
logging first), and later Python warnings of the program use that format too."""
import subprocess
import sys

_PROGRAM = """
import logging
import numpy as np
import tfcompat as tf
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.save({path!r})
logging.getLogger("other").warning("other")
"""


def test_legacy_h5_save_warning_prints_as_absl_does(tmp_path):
    run = subprocess.run([sys.executable, "-c", _PROGRAM.format(path=str(tmp_path / "m.h5"))], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        "WARNING:absl:You are saving your model as an HDF5 file via `model.save()` or "
        "`keras.saving.save_model(model)`. This file format is considered legacy. We recommend using instead the "
        "native Keras format, e.g. `model.save('my_model.keras')` or `keras.saving.save_model(model, "
        "'my_model.keras')`. \nWARNING:other:other\n")
