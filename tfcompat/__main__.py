"""`python -m tfcompat run FILE [ARGS...]`: run an unmodified TensorFlow script or notebook on tfcompat.

Scripts run as `__main__` with `import tensorflow` (and `keras`, `tf_keras`)
aliased to tfcompat. Notebooks (`.ipynb`, and `.py` files in the percent format
with `# %%` cells) run cell by cell in one namespace and print what a notebook
shows (a cell's last expression is displayed); `!` shell lines run in a shell;
IPython magics that matter are handled, the others are skipped with a notice.
A failing cell stops the run unless `--keep-going`; `--write-notebook OUT`
saves the executed notebook.
"""
import argparse
import os
import runpy
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tfcompat", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a TensorFlow script or notebook on tfcompat")
    r.add_argument("--write-notebook", metavar="OUT", help="save the executed notebook (notebooks only)")
    r.add_argument("--keep-going", action="store_true", help="notebooks: run the remaining cells after a failure")
    r.add_argument("file")
    r.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    from tfcompat._alias import install
    install()
    path = a.file
    sys.argv = [path] + a.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    from tfcompat.notebook import is_percent_script, run_notebook
    if path.endswith(".ipynb") or (path.endswith(".py") and is_percent_script(_read(path))):
        return run_notebook(path, a.write_notebook, a.keep_going)
    runpy.run_path(path, run_name="__main__")
    return 0


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


if __name__ == "__main__":
    sys.exit(main())
