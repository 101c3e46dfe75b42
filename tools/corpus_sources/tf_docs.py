"""tensorflow/docs: the TF 2 notebooks of site/en/guide and site/en/tutorials, with their offline edits."""
from corpus_sources.common import git_ls, git_show, notebook_code_cells

REPO = "tensorflow/docs"
COMMIT = "7c3650212740204359d4ceae481abc79345541be"
PREFIX = "tfdocs"
FOLDERS = ("site/en/guide/", "site/en/tutorials/")
# measured by the shared corpus (/work/shared/conformance/corpus/), not here
SHARED = {"guide/autodiff", "guide/basic_training_loops", "guide/checkpoint", "guide/function",
          "guide/intro_to_modules", "guide/tensor", "guide/variable",
          "tutorials/customization/custom_layers", "tutorials/quickstart/beginner"}

DROP_LINES = [r"^\s*[!%]"]      # shell and IPython magic lines


def files(git_dir):
    out = []
    for folder in FOLDERS:
        for path in git_ls(git_dir, COMMIT, folder):
            rel = path[len("site/en/"):-len(".ipynb")]
            if path.endswith(".ipynb") and "/r1/" not in path and rel not in SHARED:
                cells = notebook_code_cells(git_show(git_dir, COMMIT, path))
                out.append((rel.replace("/", "__"), path, cells))
    return out


EDITS = {}
SKIPS = {}
