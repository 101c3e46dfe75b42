"""`tfcompat run` (`python -m tfcompat run`) on unmodified TF scripts and notebooks, and the missing-API message.

The README's runner examples run as subprocesses (one each); the rest calls the runner in-process.
"""
import base64
import json
import os
import re
import subprocess
import sys

import pytest

import tfcompat as tf
from tfcompat import notebook
from tfcompat.__main__ import _split_run_args, _parser, main


def _no_carets(traceback_text):
    """A traceback without the `^~` marker lines (Python versions draw them differently)."""
    return re.sub(r"(?m)^ *[\^~]+ *\n", "", traceback_text)


def run(args, cwd):
    return subprocess.run([sys.executable, "-m", "tfcompat", "run", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def test_script_runs_as_python_does(tmp_path):
    # README: `python -m tfcompat run train.py --epochs 3`; a `# %%` line does not make a script a notebook
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "train.py").write_text(
        "import os, sys\n"
        "import tensorflow as tf\n"
        "from tensorflow import keras\n"
        "from tensorflow.keras import layers\n"
        "import keras as k3\n"
        "# %%\n"
        "print(tf.add(1, 2), keras is tf.keras, layers is tf.keras.layers, k3 is keras)\n"
        "print(__name__, __file__ == os.path.abspath(sys.argv[0]), sys.argv[1:],\n"
        "      os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)))\n"
        "'a trailing expression prints nothing'\n"
        "def fail():\n"
        "    raise ValueError('bad ' + sys.argv[-1])\n"
        "fail()\n")
    out = run(["sub/train.py", "--epochs", "3", "--", "--cells", "-h"], tmp_path)
    # as in TF, `import keras` is the whole Keras 3 API, not the `tf.keras` view of it
    assert out.stdout == ("tf.Tensor(3, shape=(), dtype=int32) True True False\n"
                          "__main__ True ['--epochs', '3', '--cells', '-h'] True\n")
    # the program's exception: status 1, a traceback that starts at the script (no runner frames)
    path = os.path.join(str(tmp_path), "sub/train.py")
    assert out.returncode == 1
    assert _no_carets(out.stderr) == (
        f'Traceback (most recent call last):\n  File "{path}", line 13, in <module>\n    fail()\n'
        f'  File "{path}", line 12, in fail\n    raise ValueError(\'bad \' + sys.argv[-1])\n'
        "ValueError: bad -h\n")


def _code(*lines):
    return {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": [line + "\n" for line in lines[:-1]] + [lines[-1]]}


def test_notebook_written_with_outputs_and_figures(tmp_path):
    # README: `python -m tfcompat run guide.ipynb --write-notebook out.ipynb` (runner option after FILE)
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# title"]},
        _code("%matplotlib inline", "import tensorflow as tf", "x = tf.constant([1, 2])", "x * 2"),
        _code("!echo {x.shape[0]}", "!pip install tensorflow", "print('done')", "display(x.shape, 'text')"),
        _code("import matplotlib.pyplot as plt", "plt.plot([1, 2, 3])", "plt.show()", "fig = plt.figure()",
              "_ = plt.plot([3, 2])"),
        _code("%%time", "y = sum(range(10))", "y"),
        _code("%timeit -n 3 -r 2 y + 1"),
        _code("raise ValueError('stop')"),
        _code("print('not reached')"),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "guide.ipynb").write_text(json.dumps(nb))
    out = run(["guide.ipynb", "--write-notebook", "out.ipynb"], tmp_path)
    assert out.returncode == 1
    t = r"[\d.e+-]+ (s|ms|µs|ns)"  # IPython prints 999.9 ns as 1e+03 ns
    assert re.fullmatch(
        r"<tf.Tensor: shape=\(2,\), dtype=int32, numpy=array\(\[2, 4\], dtype=int32\)>\n2\ndone\n"
        r"TensorShape\(\[2\]\)\n'text'\n"
        rf"CPU times: user {t}, sys: {t}, total: {t}\nWall time: {t}\n45\n"
        r"(The slowest run took [\d.]+ times longer than the fastest\. This could mean that an intermediate "
        r"result is being cached\.\n)?"
        rf"{t} ± {t} per loop \(mean ± std\. dev\. of 2 runs, 3 loops each\)\n", out.stdout), out.stdout
    assert out.stderr.startswith("[tfcompat] skipped: !pip install tensorflow\n"
                                 "[tfcompat] figure saved to guide_figures/cell3_fig1.png\n"
                                 "[tfcompat] figure saved to guide_figures/cell3_fig2.png\n"
                                 'Traceback (most recent call last):\n  File "<cell 6>", line 1, in <module>\n'
                                 "    raise ValueError('stop')\nValueError: stop\n"), out.stderr
    for name in ("cell3_fig1.png", "cell3_fig2.png"):
        assert (tmp_path / "guide_figures" / name).read_bytes().startswith(b"\x89PNG")
    cells = [c for c in json.loads((tmp_path / "out.ipynb").read_text())["cells"] if c["cell_type"] == "code"]
    assert [c["execution_count"] for c in cells] == [1, 2, 3, 4, 5, 6, None]
    kinds = [[(o["output_type"], o.get("name")) for o in c["outputs"]] for c in cells]
    assert kinds == [[("execute_result", None)],
                     [("stream", "stdout"), ("stream", "stderr"), ("stream", "stdout"), ("display_data", None),
                      ("display_data", None)],
                     [("display_data", None), ("display_data", None)],
                     [("stream", "stdout"), ("execute_result", None)],
                     [("stream", "stdout")],
                     [("error", None)],
                     []]
    assert cells[0]["outputs"][0]["data"]["text/plain"] == [
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>"]
    assert cells[1]["outputs"][2]["text"] == ["done\n"]
    assert cells[1]["outputs"][3]["data"] == {"text/plain": ["TensorShape([2])"]}
    for figure in cells[2]["outputs"]:
        assert figure["data"]["text/plain"] == ["<Figure size 640x480 with 1 Axes>"]
        assert base64.b64decode(figure["data"]["image/png"]).startswith(b"\x89PNG")
    assert cells[3]["outputs"][1] == {"output_type": "execute_result", "execution_count": 4,
                                      "data": {"text/plain": ["45"]}, "metadata": {}}
    error = cells[5]["outputs"][0]
    assert (error["ename"], error["evalue"], error["traceback"][-1]) == ("ValueError", "stop", "ValueError: stop")


def test_percent_script_cell_mode(tmp_path):
    # README: `python -m tfcompat run --cells --keep-going guide.py`; errors name the file's own lines
    (tmp_path / "guide.py").write_text(
        '"""What the script is (not run as a cell)."""\n'
        "# %%\n"
        "import tensorflow as tf\n"
        "tf.constant([1, 2]) + 1\n"
        "# %% a cell that does not compile\n"
        "  indented_fragment()\n"
        "# %% a cell that raises\n"
        "def f():\n"
        "    return undefined_name\n"
        "f()\n"
        "# %%\n"
        "import matplotlib.pyplot as plt\n"
        "plt.plot([1, 2]);\n"
        "# %%\n"
        "print('after')\n")
    out = run(["--cells", "--keep-going", "guide.py", "--figures-dir", "figs"], tmp_path)
    assert out.returncode == 1
    assert out.stdout == "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>\nafter\n"
    path = os.path.join(str(tmp_path), "guide.py")
    assert _no_carets(out.stderr) == (
        f'  File "{path}", line 6\n    indented_fragment()\nIndentationError: unexpected indent\n'
        f'Traceback (most recent call last):\n  File "{path}", line 10, in <module>\n    f()\n'
        f'  File "{path}", line 9, in f\n    return undefined_name\n'
        "NameError: name 'undefined_name' is not defined\n"
        "[tfcompat] figure saved to figs/cell4_fig1.png\n")
    assert (tmp_path / "figs" / "cell4_fig1.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("argv, own, program", [
    (["nb.ipynb", "--write-notebook", "out.ipynb"], ["--write-notebook", "out.ipynb", "--", "nb.ipynb"], []),
    (["train.py", "--epochs", "3"], ["--", "train.py"], ["--epochs", "3"]),
    (["train.py", "--", "--epochs", "3", "--cells"], ["--", "train.py"], ["--epochs", "3", "--cells"]),
    (["--keep-going", "g.py", "--cells", "-h", "x", "--figures-dir=f"],
     ["--keep-going", "--cells", "--figures-dir=f", "--", "g.py"], ["-h", "x"]),
    (["--write-notebook", "o.ipynb", "nb.ipynb", "a"], ["--write-notebook", "o.ipynb", "--", "nb.ipynb"], ["a"]),
    (["--", "-odd.py", "--cells"], ["--", "-odd.py"], ["--cells"]),
    (["--bogus", "x.py"], ["--bogus", "--", "x.py"], []),
])
def test_runner_options_before_or_after_file(argv, own, program):
    assert _split_run_args(argv, _parser("tfcompat")[1]) == (own, program)


def test_help_documents_file_args_and_where_options_go(capsys):
    with pytest.raises(SystemExit) as e:
        main(["run", "--help"])
    text = capsys.readouterr().out
    assert e.value.code == 0
    assert text.startswith("usage: tfcompat run [-h] [--cells] [--keep-going]")
    for needle in ("FILE [ARGS ...]", "  FILE   ", "  ARGS   ", "where options go:", "tfcompat run train.py --epochs 3",
                   "exit status:", "--figures-dir DIR"):
        assert needle in text, needle
    with pytest.raises(SystemExit):
        main(["--help"], prog="python -m tfcompat")
    assert capsys.readouterr().out.startswith("usage: python -m tfcompat [-h] {run} ...")


def test_file_errors_are_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "bad.py").write_text("x = 1\ny = (\n")
    (tmp_path / "bad.ipynb").write_text('{"cells": 3')
    cases = [
        (["run", "missing.py"], 2, "tfcompat run: error: can't open file 'missing.py': No such file or directory"),
        (["run", "d"], 2, "tfcompat run: error: 'd' is a directory, not a script or notebook"),
        (["run", "bad.py", "--epochs", "3"], 1, "tfcompat run: error: bad.py:2:5: SyntaxError: '(' was never closed"),
        (["run", "bad.ipynb"], 1, "tfcompat run: error: bad.ipynb: not a Jupyter notebook (invalid JSON: "
                                  "Expecting ',' delimiter: line 1 column 12 (char 11))"),
        (["run", "bad.ipynb", "--write-notebook", "no/out.ipynb"], 2,
         "tfcompat run: error: can't write the notebook to 'no/out.ipynb': no directory 'no'"),
        (["run", "bad.py", "--keep-going"], 2,
         "tfcompat run: error: --keep-going applies to cell mode: add --cells to run bad.py cell by cell"),
    ]
    for argv, status, line in cases:
        assert main(argv) == status, argv
        assert capsys.readouterr().err == line + "\n"
    with pytest.raises(SystemExit) as e:
        main(["run", "--bogus", "bad.py"])
    assert e.value.code == 2 and capsys.readouterr().err.endswith(
        "tfcompat run: error: unrecognized arguments: --bogus\n")


def _run_cells(tmp_path, monkeypatch, source, **kwargs):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nb.py").write_text(source)
    nb, cells = notebook.load("nb.py", source)
    return notebook.run_notebook(nb, cells, **kwargs), nb


def test_cell_mode_stops_at_a_failing_cell_and_times_code(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # cell mode works without matplotlib
    monkeypatch.setenv("MPLBACKEND", "agg")  # the user's backend: `!` lines and the caller keep it
    status, nb = _run_cells(tmp_path, monkeypatch, (
        "# %%\n"
        "!echo [$MPLBACKEND]\n"
        "x = 3\n"
        "%time y = x + 1\n"
        "%time x * 2\n"
        "# %%\n"
        "%%timeit -r 3 -n 4 z = y\n"
        "z * 2\n"
        "# %%\n"
        "%timeit -q -n 2 -r 1 x\n"
        "display(y, None)\n"
        "x;\n"
        "# %%\n"
        "%%capture\n"
        "print('captured')\n"
        "display(x)\n"
        "x\n"
        "# %%\n"
        "1 / 0\n"
        "# %%\n"
        "print('not reached')\n"), write_to=str(tmp_path / "out.ipynb"))
    out, err = capsys.readouterr()
    t = r"[\d.e+-]+ (s|ms|µs|ns)"  # IPython prints 999.9 ns as 1e+03 ns
    times = rf"CPU times: user {t}, sys: {t}, total: {t}\nWall time: {t}\n"
    assert status == 1
    assert os.environ["MPLBACKEND"] == "agg"
    assert re.fullmatch(rf"\[agg\]\n{times}{times}6\n"
                        rf"{t} ± {t} per loop \(mean ± std\. dev\. of 3 runs, 4 loops each\)\n"
                        r"4\nNone\n", out), out
    path = os.path.join(str(tmp_path), "nb.py")
    assert _no_carets(err) == (f'Traceback (most recent call last):\n  File "{path}", line 19, in <module>\n    1 / 0\n'
                   "ZeroDivisionError: division by zero\n")
    assert [c["execution_count"] for c in nb["cells"]] == [1, 2, 3, 4, 5, None]
    assert nb["cells"][3]["outputs"] == []
    assert nb["cells"][2]["outputs"] == [
        {"output_type": "display_data", "data": {"text/plain": ["4"]}, "metadata": {}},
        {"output_type": "display_data", "data": {"text/plain": ["None"]}, "metadata": {}}]
    assert json.loads((tmp_path / "out.ipynb").read_text())["cells"] == nb["cells"]
    assert "__tfcompat__" not in vars(sys.modules["__main__"])  # the run's namespace is gone: __main__ restored


def test_sys_exit_in_a_cell_ends_the_run_after_writing_the_notebook(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit) as e:
        _run_cells(tmp_path, monkeypatch, "# %%\nprint('a')\n# %%\nimport sys\nsys.exit(3)\n# %%\nprint('b')\n",
                   write_to=str(tmp_path / "out.ipynb"), keep_going=True)
    assert e.value.code == 3 and capsys.readouterr() == ("a\n", "")
    cells = json.loads((tmp_path / "out.ipynb").read_text())["cells"]
    assert [c["execution_count"] for c in cells] == [1, 2, None]


def test_percent_cells_keep_the_file_line_numbers():
    source = '"""What it is."""\r\n# %%\r\nx = 1\x0c\r\n\r\n# %% two\ny = 2\n\n'
    assert notebook.percent_cells(source) == [(3, "x = 1\x0c"), (6, "y = 2")]
    assert notebook.percent_cells("a = 1\n# %%\nb\n") == [(1, "a = 1"), (3, "b")]


@pytest.mark.parametrize("seconds, text", [
    (0, "0 ns"), (1.5e-7, "150 ns"), (2.5e-5, "25 µs"), (1e-3, "1 ms"), (0.0123, "12.3 ms"), (5, "5 s"),
    (65.2, "1min 5s"), (3661, "1h 1min 1s"), (90061, "1d 1h 1min 1s"),
])
def test_times_print_as_ipython_prints_them(seconds, text):
    assert notebook.format_time(seconds) == text


def test_unsupported_api_names_itself_and_the_matrix():
    with pytest.raises(NotImplementedError, match=r"tf\.nn\.RNNCellDeviceWrapper is not implemented in tfcompat yet "
                                                  r"\(see compat_matrix\.md"):
        tf.nn.RNNCellDeviceWrapper  # noqa: B018
    assert not hasattr(tf.nn, "RNNCellDeviceWrapper")
    assert not hasattr(tf, "xla")
    with pytest.raises(AttributeError, match="module 'tensorflow' has no attribute 'no_such_name'"):
        tf.no_such_name  # noqa: B018


def test_enable_tensorflow_alias_in_process():
    code = ("import tfcompat; tfcompat.enable_tensorflow_alias(); import tensorflow as tf; "
            "import tensorflow.math as m; print(tf is tfcompat, m is tfcompat.math)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == "True True\n", out.stderr
