"""compat_matrix.md is generated (tools/compat_matrix.py) and must be current."""
import importlib.util
import os

import pytest

import tfcompat as tf
from conftest import REPO
from tfcompat.framework.export import EXPORTS, partial_note, tf_export, unsupported_args


def _tool():
    spec = importlib.util.spec_from_file_location("compat_matrix", os.path.join(REPO, "tools", "compat_matrix.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_matrix_is_current():
    tool = _tool()
    text, counts, summary = tool.build()
    with open(os.path.join(REPO, "compat_matrix.md"), encoding="utf-8") as f:
        assert f.read() == text, "compat_matrix.md is stale: run `python tools/compat_matrix.py`"
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert tool.with_summary(readme, summary) == readme, "README's summary is stale: run tools/compat_matrix.py"
    assert counts["implemented"] > 1000


def test_unsupported_arguments_are_rejected_uniformly_and_marked_partial():
    @tf_export("test_only.f", unsupported=("mode", "extra"))
    def f(x, mode="a", extra=None, name=None):
        return x
    EXPORTS.pop("test_only.f")

    assert f(1) == 1 and f(1, "a") == 1 and f(1, mode="a", extra=None, name="n") == 1
    with pytest.raises(NotImplementedError, match=r"^tf.test_only.f\(mode='b'\) is not supported by tfcompat$"):
        f(1, "b")
    with pytest.raises(NotImplementedError, match=r"^tf.test_only.f\(extra=0\) is not supported by tfcompat$"):
        f(1, extra=0)
    assert partial_note(f) == "arguments mode, extra"

    class C:
        @unsupported_args("shape", api_name="tf.C.method")
        def method(self, shape=None):
            return "ok"
    assert C().method() == "ok" and partial_note(C) == "method arguments shape"
    with pytest.raises(NotImplementedError, match=r"^tf.C.method\(shape=\[2\]\) is not supported by tfcompat$"):
        C().method([2])


def test_declared_limits_of_real_exports():
    with pytest.raises(NotImplementedError, match=r"^tf.Variable\(variable_def=1\) is not supported by tfcompat$"):
        tf.Variable(1.0, variable_def=1)
    with pytest.raises(NotImplementedError, match=r"^tf.RaggedTensor.from_tensor\(ragged_rank=2\) is not supported by "
                                                  r"tfcompat$"):
        tf.RaggedTensor.from_tensor(tf.zeros([2, 2, 2]), ragged_rank=2)
    assert partial_note(tf.Variable) == "constructor arguments variable_def"     # initial_value: TF eager keeps none either
    assert partial_note(tf.nn.embedding_lookup) == "arguments max_norm"
    assert partial_note(tf.math.add) is None
    with pytest.raises(NotImplementedError, match=r"^Conv2D\(lora_rank=2\) is not supported by tfcompat$"):
        tf.keras.layers.Conv2D(2, 3, lora_rank=2)             # a class names the class being built
    assert partial_note(tf.keras.layers.Conv1D) == "constructor arguments lora_rank"     # inherited from the conv base
    assert partial_note(tf.keras.Model) == "save_weights arguments max_shard_size"
    assert partial_note(tf.keras.models.clone_model) is None          # every argument works
    assert partial_note(tf.keras.models.save_model) == "zipped=False (an unzipped model directory) is not supported"


def test_names_that_only_raise_are_not_implemented():
    tool = _tool()
    assert tool.always_raises(tf.summary.trace_on) and tool.always_raises(tf.debugging.enable_check_numerics)
    assert not tool.always_raises(tf.summary.scalar) and not tool.always_raises(tf.Variable)
