"""Writes a Jupyter notebook from a `# %%`-cell Python script (the examples' notebook versions).

    python tools/py_to_ipynb.py examples/eager_guide.py examples/eager_guide.ipynb

Text before the first `# %%` becomes a markdown cell (its docstring); `# !cmd` lines
(shell lines the script keeps as comments) become `!cmd` again, as in the original notebook.
"""
import ast
import json
import re
import sys


_MARKER = re.compile(r"^# %%.*$", re.M)


def cells_of(source):
    parts = _MARKER.split(source)
    head, chunks = parts[0], parts[1:]
    cells = []
    doc = ast.get_docstring(ast.parse(head)) if head.strip() else None
    if doc:
        cells.append({"cell_type": "markdown", "metadata": {}, "source": doc.splitlines(keepends=True)})
    for chunk in chunks:
        lines = chunk.split("\n")
        code = "\n".join(l[2:] if l.startswith("# !") else l for l in lines).strip("\n")
        if code:
            cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                          "source": code.splitlines(keepends=True)})
    return cells


def main(src, dst):
    with open(src, encoding="utf-8") as f:
        cells = cells_of(f.read())
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                      "name": "python3"},
                                       "language_info": {"name": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
