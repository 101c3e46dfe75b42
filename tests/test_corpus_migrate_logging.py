"""TF's Python logging set-up as the migrate guides' stderr shows it: TF configures its "tensorflow" logger on import,
and its object-based checkpoint saver logs through absl, whose first log configures the root logger
(`basicConfig`), so that later TF warnings are printed twice. Checked in fresh processes.

Golden behaviour recorded from TF 2.21 (tensorflow-cpu 2.21, keras 3.15.1).
"""
import os
import subprocess
import sys

_SCRIPT = """
import logging, os, sys, tempfile
{pre}
import tfcompat as tf
d = tempfile.mkdtemp()
a = tf.Variable(5.0, name='a')
tf.compat.v1.train.Saver(var_list=[a]).save(None, os.path.join(d, 's'))
tf.get_logger().warning("after Saver")
tf.train.Checkpoint(a=a).write(os.path.join(d, 'w'))
tf.get_logger().warning("after write")
"""


def test_checkpoint_write_configures_the_root_logger():
    # TF 2.21: a name-based Saver leaves logging alone; after Checkpoint.write/save (or a SavedModel save) TF's
    # warnings reach the root logger's handler too (a root logger configured before the import: printed once)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", _SCRIPT.format(pre="")], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("WARNING:tensorflow:after Saver") == 1
    assert out.stderr.count("WARNING:tensorflow:after write") == 2
