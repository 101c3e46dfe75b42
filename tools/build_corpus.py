"""Builds, records and runs the broad differential corpus (dev-time tooling; the corpus stays outside the repo).

    python tools/build_corpus.py [build] --mirror tensorflow/docs=GITDIR --mirror keras-team/keras=GITDIR [--out ../corpus]
    python tools/build_corpus.py record [--prefix tfdocs] [FILES...]    # TF 2.21, twice: expected/run1, run2
    python tools/build_corpus.py run [--before] [--missing] [FILES...]   # tfcompat: results/ (or results_before/)
    python tools/build_corpus.py compare [--before]                     # compare.py -> compare_{after,before}.{txt,json}

`build` extracts `# %%` cell files from fetched snapshots (the `fetch` tool's bare git directories) at each
source's pinned COMMIT, through the source modules of tools/corpus_sources/ (one per repository):

    REPO        "owner/name"
    COMMIT      the snapshot's commit sha (files are read at it, so rebuilds are reproducible)
    PREFIX      file-name prefix ("tfdocs", "keras"): files are <out>/files/<PREFIX>__<stem>.py
    files(git_dir) -> [(stem, path_in_repo, [cell source, ...])]   code only, verbatim
    DROP_LINES  regexes; a matching line (e.g. `!pip install ...`) is commented out everywhere
                (a %%writefile cell becomes Python writing its file first; a %%bash/%%sh cell becomes Python
                running it with bash, `python` there being the Python running the cells: `python -m tfcompat
                run` under tfcompat; `%%bash --bg` starts it in the background, `%killbgscripts` ends those)
    EDITS       {stem: [(old, new), ...]}: applied to the file's cell text; each `old` must occur exactly once
    SKIPS       {stem: reason}: files that cannot run offline here at all (listed in the report)
    CELL_SKIPS  optional {stem: [(snippet, reason), ...]}: the one cell containing `snippet` becomes a
                `# %% skip: reason` cell (its code commented out), for a cell that cannot run offline

The build fails, naming the source and stem, when an edit's `old` is not found exactly once, a snippet is
not in exactly one cell, or EDITS/SKIPS/CELL_SKIPS name a stem the source no longer has. It writes
<out>/manifest_<PREFIX>.json (per file: repo, commit, path, folder, cells, edits; and the skips).

`record` runs each file under real TF with ../shared/conformance/run.py, once per run directory, one file at
a time under the lock /tmp/corpus_tf.lock (never two TF recordings at once), run1 for every file before run2;
files already recorded from the same corpus text are not rerun. `run` runs them under tfcompat (`--before`: the session's base commit, from
a worktree at /tmp/base16). Run both in the background: `nohup python tools/build_corpus.py record > log &`.
TF runs with <out>/tf_extra on its path: links to the project venv's tensorboard (a dependency of a pip-installed
TF 2.21, missing from the TF venv) and torch (one Keras guide imports it for its DataLoader section).

Dev-time only, never a tfcompat dependency: the notebooks built on DataFrames need pandas, seaborn and
scikit-learn in both the TF venv and the project venv (`pip install pandas seaborn scikit-learn` in each).
"""
import argparse
import fcntl
import glob
import hashlib
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(os.path.dirname(ROOT), "corpus")
HARNESS = "/work/shared/conformance"
TF_PYTHON = "/root/tfvenv/bin/python"
TF_LOCK = "/tmp/corpus_tf.lock"
TFCOMPAT_LOCK = "/tmp/corpus_tfcompat.lock"
BASE_COMMIT, BASE_TREE = "9cae267", "/tmp/base16"
FOLDERS = ("guide", "guides", "tutorials", "examples")
TIMEOUTS = ["--file-timeout", "420", "--cell-timeout", "300"]   # a file should take under ~2 min on TF
# tfcompat runs niced (the TF recordings are the bottleneck), so on a loaded machine it gets more time
TFCOMPAT_TIMEOUTS = ["--file-timeout", "900", "--cell-timeout", "300"]
COMMANDS = ("build", "record", "run", "compare")
TF_EXTRA = ("torch", "torchgen", "functorch", "sympy", "mpmath", "networkx", "jinja2", "markupsafe", "filelock",
            "fsspec", "tensorboard", "tensorboard_data_server", "werkzeug", "markdown")


class CorpusError(Exception):
    """A source's tables no longer fit its snapshot."""


def source_module(repo):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from corpus_sources import SOURCES
    if repo not in SOURCES:
        raise CorpusError(f"no source module for {repo} (known: {', '.join(SOURCES)})")
    return importlib.import_module(f"corpus_sources.{SOURCES[repo]}")


def folder_of(prefix, path):
    """The source folder a file is reported under, e.g. 'tfdocs guide' or 'keras examples'."""
    part = next((p for p in path.split("/") if p in FOLDERS), path.split("/")[0])
    return f"{prefix} {part}"


def comment_out(line):
    indent = len(line) - len(line.lstrip())
    return f"{line[:indent]}# {line[indent:]}"


def apply_edits(text, edits, where):
    for old, new in edits:
        n = text.count(old)
        if n != 1:
            raise CorpusError(f"{where}: edit expects exactly one occurrence, found {n}: {old!r}")
        text = text.replace(old, new)
    return text


WRITEFILE = re.compile(r"^%%writefile(\s+-a)?\s+(\S+)\s*$")
SHELL_CELL = re.compile(r"^%%(bash|sh)(\s+--bg)?\s*$")
# `python` in a shell cell is the Python running the cells, with tfcompat's runner when tfcompat stands in for TF
# (run.py aliases `tensorflow` to tfcompat in-process only); a background job is ended after 300 s at the latest
# (IPython ends them with the kernel or %killbgscripts).
SHELL_PRELUDE = ("import shlex as _shlex, subprocess as _subprocess, sys as _sys\n"
                 "_corpus_python = [_sys.executable] + (['-m', 'tfcompat', 'run'] if getattr(\n"
                 "    _sys.modules.get('tensorflow'), '__name__', '') == 'tfcompat' else [])\n"
                 "_corpus_sh = 'python() { %s \"$@\"; }\\n' % _shlex.join(_corpus_python)\n")
KILLBG = ("for _p in globals().get('_corpus_bg', []):  # %killbgscripts  (corpus build: IPython's line magic)\n"
          "  _p.kill()")


def cell_magic(cell):
    """Python for an IPython cell magic that is not Python: %%writefile writes its text, as IPython does;
    %%bash/%%sh runs its text with bash (in the background with --bg). Other cells are returned as is."""
    first, _, body = cell.partition("\n")
    m = WRITEFILE.match(first)
    if m:
        mode = "a" if m.group(1) else "w"
        return (f"# {first}  (corpus build: IPython's %%writefile, as Python)\n"
                f"with open({m.group(2)!r}, {mode!r}) as _f:\n    _f.write({body + chr(10)!r})")
    m = SHELL_CELL.match(first)
    if m:
        script = f"_corpus_sh + {body + chr(10)!r}"
        run = (f"globals().setdefault('_corpus_bg', []).append(_subprocess.Popen(\n"
               f"    ['timeout', '300', 'bash', '-c', {script}],\n"
               f"    stdin=_subprocess.DEVNULL, stdout=_subprocess.DEVNULL, stderr=_subprocess.DEVNULL))"
               if m.group(2) else f"_corpus_done = _subprocess.run(['bash', '-c', {script}], stdin=_subprocess.DEVNULL)")
        return f"# {first}  (corpus build: IPython's %%{m.group(1)}, run by bash)\n{SHELL_PRELUDE}{run}"
    if re.match(r"%%(bash|sh|script|shell)\b", first):     # other shells and options: commented out whole
        return "\n".join(comment_out(l) for l in cell.split("\n"))
    return "\n".join(KILLBG if l.strip() == "%killbgscripts" else l for l in cell.split("\n"))


def render_cells(cells, drop):
    """Cell list -> `# %%` text (each cell headed by its separator), dropped lines commented out."""
    parts = []
    for cell in cells:
        cell = cell_magic(cell)
        lines = [comment_out(l) if any(r.search(l) for r in drop) else l for l in cell.split("\n")]
        parts.append("# %%\n" + "\n".join(lines).strip("\n") + "\n")
    return "\n".join(parts)


def skip_cells(text, cell_skips, where):
    cells = re.split(r"(?m)^(?=# %%(?:[ \t].*)?$)", text)
    for snippet, reason in cell_skips:
        hits = [i for i, c in enumerate(cells) if snippet in c]
        if len(hits) != 1:
            raise CorpusError(f"{where}: cell skip expects exactly one cell with {snippet!r}, found {len(hits)}")
        body = cells[hits[0]].split("\n", 1)[1]
        cells[hits[0]] = f"# %% skip: {reason}\n" + "\n".join(
            comment_out(l) if l.strip() else l for l in body.split("\n"))
    return "".join(cells)


def write_if_changed(path, text):
    """Rewrite a corpus file only when its text changes (a recording may be reading it)."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def build_source(module, git_dir, out):
    """Write one source's files and manifest; returns (files written, skips)."""
    prefix, commit = module.PREFIX, module.COMMIT
    drop = [re.compile(r) for r in module.DROP_LINES]
    cell_skips = getattr(module, "CELL_SKIPS", {})
    files_dir = os.path.join(out, "files")
    os.makedirs(files_dir, exist_ok=True)
    entries = module.files(git_dir)
    stems = {stem for stem, _, _ in entries}
    for table in ("EDITS", "SKIPS", "CELL_SKIPS"):
        unknown = set(getattr(module, table, {})) - stems
        if unknown:
            raise CorpusError(f"{module.REPO}: {table} names stems it no longer has: {sorted(unknown)}")
    manifest, skips = {}, []
    for stem, path, cells in entries:
        name = f"{prefix}__{stem}.py"
        folder = folder_of(prefix, path)
        if stem in module.SKIPS:
            skips.append({"file": name, "repo": module.REPO, "path": path, "folder": folder,
                          "reason": module.SKIPS[stem]})
            continue
        where = f"{module.REPO} {stem}"
        edits = module.EDITS.get(stem, [])
        text = apply_edits(render_cells(cells, drop), edits, where)
        text = skip_cells(text, cell_skips.get(stem, []), where)
        n = len(re.findall(r"(?m)^# %%(?:[ \t].*)?$", text))
        header = (f"# tfcompat broad corpus: {prefix}__{stem}\n"
                  f"# source: https://github.com/{module.REPO}/blob/{commit}/{path}\n"
                  f"#   repo: {module.REPO}   path: {path}   snapshot commit: {commit}\n"
                  f"# License: Apache License 2.0 (see the source); test data, never part of tfcompat.\n"
                  f"# {n} cells: code cells in order, verbatim except {len(edits)} recorded edit(s) and the\n"
                  f"# dropped lines (commented out) of tools/corpus_sources/{module.__name__.split('.')[-1]}.py.\n\n")
        write_if_changed(os.path.join(files_dir, name), header + text)
        manifest[name] = {"repo": module.REPO, "commit": commit, "path": path, "folder": folder,
                          "cells": n, "edits": len(edits)}
    for stale in set(glob.glob(os.path.join(files_dir, f"{prefix}__*.py"))) - {
            os.path.join(files_dir, name) for name in manifest}:
        os.remove(stale)
    with open(os.path.join(out, f"manifest_{prefix}.json"), "w", encoding="utf-8") as f:
        json.dump({"repo": module.REPO, "commit": commit, "files": manifest, "skips": skips}, f, indent=1)
    return manifest, skips


def cmd_build(args):
    for spec in args.mirror:
        repo, _, git_dir = spec.partition("=")
        module = source_module(repo)
        manifest, skips = build_source(module, git_dir, args.out)
        cells = sum(m["cells"] for m in manifest.values())
        print(f"{repo}: {len(manifest)} files, {cells} cells, {len(skips)} skipped -> {args.out}/files")


def corpus_files(args):
    if args.files:
        return [os.path.abspath(f) for f in args.files]
    return sorted(glob.glob(os.path.join(args.out, "files", f"{args.prefix or ''}*.py")))


def recorded(result_dir, path):
    """Whether `result_dir` holds a result of this exact corpus text."""
    res = os.path.join(result_dir, os.path.splitext(os.path.basename(path))[0] + ".json")
    if not os.path.exists(res):
        return False
    with open(res, encoding="utf-8") as f, open(path, "rb") as g:
        return json.load(f).get("corpus_sha256") == hashlib.sha256(g.read()).hexdigest()


def run_harness(python, impl, result_dir, path, lock, env=None, force=True):
    """Run one corpus file under `impl` while holding `lock` (flock(2), as `flock LOCK CMD` takes it);
    unless `force`, a file whose current text is already recorded in `result_dir` is not rerun."""
    nice = ["nice", "-n", "10"] if impl == "tfcompat" else []   # the TF recordings are the bottleneck
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if force or not recorded(result_dir, path):
            subprocess.run([*nice, python, os.path.join(HARNESS, "run.py"), "--impl", impl, "--out", result_dir,
                            *(TFCOMPAT_TIMEOUTS if nice else TIMEOUTS), path], check=False, env=env)


def tf_extra(out):
    """<out>/tf_extra: links to the project venv's tensorboard and torch (with their dependencies), which a pip
    install of TF 2.21 has (tensorboard) or a Keras guide imports (torch) and the TF venv lacks; put on TF's path."""
    extra = os.path.join(out, "tf_extra")
    os.makedirs(extra, exist_ok=True)
    site = os.path.dirname(os.path.dirname(importlib.util.find_spec("torch").origin))
    for name in TF_EXTRA:
        if not os.path.lexists(os.path.join(extra, name)):
            os.symlink(os.path.join(site, name), os.path.join(extra, name))
    return extra


def cmd_record(args):
    """Each run over all files before the next, so that a first reference of every file comes first."""
    env = dict(os.environ, PYTHONPATH=tf_extra(args.out))
    for run in args.runs:
        for path in corpus_files(args):
            run_harness(args.tf_python, "tensorflow", os.path.join(args.out, "expected", run), path, TF_LOCK,
                        env=env, force=args.force)


def base_env():
    """Environment whose `import tfcompat` is the session's base commit (worktree made if missing)."""
    if not os.path.isdir(BASE_TREE):
        subprocess.run(["git", "-C", ROOT, "worktree", "add", BASE_TREE, BASE_COMMIT], check=True)
    env = dict(os.environ, PYTHONPATH=BASE_TREE)
    where = subprocess.run([sys.executable, "-c", "import tfcompat; print(tfcompat.__file__)"],
                           env=env, cwd="/", check=True, capture_output=True, text=True).stdout
    if not where.startswith(BASE_TREE):
        raise CorpusError(f"PYTHONPATH={BASE_TREE} imports tfcompat from {where.strip()}")
    return env


def cmd_run(args):
    env = base_env() if args.before else None
    result_dir = os.path.join(args.out, "results_before" if args.before else "results")
    for path in corpus_files(args):
        run_harness(sys.executable, "tfcompat", result_dir, path, TFCOMPAT_LOCK, env, force=not args.missing)


def cmd_compare(args):
    which = "before" if args.before else "after"
    result_dir = os.path.join(args.out, "results_before" if args.before else "results")
    out = subprocess.run([sys.executable, os.path.join(HARNESS, "compare.py"),
                          os.path.join(args.out, "expected"), result_dir, "--present-only", "-v",
                          "--json", os.path.join(args.out, f"compare_{which}.json")],
                         check=True, capture_output=True, text=True).stdout
    with open(os.path.join(args.out, f"compare_{which}.txt"), "w", encoding="utf-8") as f:
        f.write(out)
    print(out)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in COMMANDS + ("-h", "--help"):
        argv.insert(0, "build")
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        s = sub.add_parser(name)
        s.add_argument("--out", default=DEFAULT_OUT, help="corpus directory (default ../corpus)")
        if name == "build":
            s.add_argument("--mirror", action="append", default=[], metavar="REPO=GITDIR", required=True)
        if name in ("record", "run"):
            s.add_argument("--prefix", help="only files whose name starts with this (e.g. tfdocs)")
            s.add_argument("files", nargs="*", help="corpus files (default: all of <out>/files)")
        if name == "record":
            s.add_argument("--runs", nargs="+", default=["run1", "run2"])
            s.add_argument("--force", action="store_true", help="rerun files already recorded")
            s.add_argument("--tf-python", default=TF_PYTHON)
        if name == "run":
            s.add_argument("--missing", action="store_true", help="only files without a current result")
        if name in ("run", "compare"):
            s.add_argument("--before", action="store_true", help=f"tfcompat at {BASE_COMMIT} ({BASE_TREE})")
    args = p.parse_args(argv)
    args.out = os.path.abspath(args.out)
    try:
        {"build": cmd_build, "record": cmd_record, "run": cmd_run, "compare": cmd_compare}[args.command](args)
    except CorpusError as e:
        sys.exit(f"build_corpus: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
