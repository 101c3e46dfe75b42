"""`python -m tfcompat run` on unmodified TF scripts and notebooks, and the missing-API message."""
import json
import subprocess
import sys

import pytest

import tfcompat as tf


def run(args, cwd):
    return subprocess.run([sys.executable, "-m", "tfcompat", "run", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_script_with_tensorflow_imports(tmp_path):
    (tmp_path / "train.py").write_text(
        "import sys\n"
        "import tensorflow as tf\n"
        "from tensorflow import keras\n"
        "from tensorflow.keras import layers\n"
        "import keras as k3\n"
        "print(tf.add(1, 2), keras is tf.keras, layers is tf.keras.layers, k3 is keras, sys.argv[1:])\n")
    out = run(["train.py", "--epochs", "3"], tmp_path)
    assert out.returncode == 0, out.stderr
    # as in TF, `import keras` is the whole Keras 3 API, not the `tf.keras` view of it
    assert out.stdout == "tf.Tensor(3, shape=(), dtype=int32) True True False ['--epochs', '3']\n"


def test_notebook_cells_display_and_write_back(tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# title"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["%matplotlib inline\n", "import tensorflow as tf\n", "x = tf.constant([1, 2])\n", "x * 2"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["!echo {x.shape[0]}\n", "!pip install tensorflow\n", "print('done')"]},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    out = run(["--write-notebook", "out.ipynb", "nb.ipynb"], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == ("<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>\n2\ndone\n")
    assert "skipped: !pip install tensorflow" in out.stderr
    done = json.loads((tmp_path / "out.ipynb").read_text())
    result = done["cells"][1]["outputs"][-1]
    assert result["output_type"] == "execute_result"
    assert "".join(result["data"]["text/plain"]).startswith("<tf.Tensor: shape=(2,)")


def test_failing_cell_stops_the_notebook(tmp_path):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                     "source": ["raise ValueError('bad')"]},
                    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                     "source": ["print('not reached')"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    out = run(["nb.ipynb"], tmp_path)
    assert out.returncode == 1 and "ValueError: bad" in out.stderr and "not reached" not in out.stdout


def test_unsupported_api_names_itself_and_the_matrix():
    with pytest.raises(NotImplementedError, match=r"tf\.nn\.ctc_loss is not implemented in tfcompat yet "
                                                  r"\(see compat_matrix\.md"):
        tf.nn.ctc_loss  # noqa: B018
    assert not hasattr(tf.nn, "ctc_loss")
    assert not hasattr(tf, "xla")
    with pytest.raises(AttributeError, match="module 'tensorflow' has no attribute 'no_such_name'"):
        tf.no_such_name  # noqa: B018


def test_enable_tensorflow_alias_in_process():
    code = ("import tfcompat; tfcompat.enable_tensorflow_alias(); import tensorflow as tf; "
            "import tensorflow.math as m; print(tf is tfcompat, m is tfcompat.math)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == "True True\n", out.stderr


def test_percent_format_script_runs_as_a_notebook(tmp_path):
    (tmp_path / "nb.py").write_text(
        "# %%\nimport tensorflow as tf\ntf.constant([1, 2]) + 1\n"
        "# %% a cell that fails\n  indented_fragment()\n"
        "# %%\nprint('after')\n")
    out = run(["nb.py"], tmp_path)
    assert out.returncode == 1 and "IndentationError" in out.stderr and "after" not in out.stdout
    out = run(["--keep-going", "nb.py"], tmp_path)
    assert out.returncode == 1
    assert out.stdout == ("<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>\nafter\n")
