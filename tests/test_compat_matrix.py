"""compat_matrix.md is generated (tools/compat_matrix.py) and must be current."""
import importlib.util
import os

from conftest import REPO


def test_matrix_is_current():
    spec = importlib.util.spec_from_file_location("compat_matrix", os.path.join(REPO, "tools", "compat_matrix.py"))
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    text, counts, summary = tool.build()
    with open(os.path.join(REPO, "compat_matrix.md"), encoding="utf-8") as f:
        assert f.read() == text, "compat_matrix.md is stale: run `python tools/compat_matrix.py`"
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert tool.with_summary(readme, summary) == readme, "README's summary is stale: run tools/compat_matrix.py"
    assert counts["implemented"] > 1000
