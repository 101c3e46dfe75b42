"""`python -m tfcompat run FILE [ARGS...]`: run an unmodified TensorFlow script or notebook on tfcompat.

Scripts run as `__main__` with `import tensorflow` (and `keras`, `tf_keras`)
aliased to tfcompat. Notebooks (`.ipynb`) run cell by cell in one namespace and
print what a notebook shows (a cell's last expression is displayed); `!` shell
lines run in a shell; IPython magics that matter are handled, the others are
skipped with a notice. `--write-notebook OUT` saves the executed notebook.
"""
import argparse
import os
import runpy
import sys


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tfcompat", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run a TensorFlow script or notebook on tfcompat")
    r.add_argument("--write-notebook", metavar="OUT", help="save the executed notebook (for .ipynb files)")
    r.add_argument("file")
    r.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    from tfcompat._alias import install
    install()
    path = a.file
    sys.argv = [path] + a.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    if path.endswith(".ipynb"):
        from tfcompat.notebook import run_notebook
        return run_notebook(path, a.write_notebook)
    runpy.run_path(path, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
