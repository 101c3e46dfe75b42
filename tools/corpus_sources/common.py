"""Helpers the source modules share: reading files of a pinned snapshot, notebook code cells."""
import json
import subprocess


def git_show(git_dir, commit, path):
    """The text of `path` at `commit` in the bare repository `git_dir`."""
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def git_ls(git_dir, commit, prefix):
    """Paths of the files under `prefix` at `commit`, sorted."""
    out = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit, prefix],
                         check=True, capture_output=True, text=True).stdout
    return sorted(out.split("\n")[:-1])


def notebook_code_cells(text):
    """The code cells of an .ipynb document, each as one string; markdown and outputs dropped."""
    cells = []
    for cell in json.loads(text)["cells"]:
        if cell["cell_type"] == "code":
            src = cell["source"]
            cells.append(("".join(src) if isinstance(src, list) else src).strip("\n"))
    return cells
