"""Runs a Jupyter notebook cell by cell, printing what the notebook would show."""
import ast
import builtins
import json
import re
import subprocess
import sys
import traceback
import types

# magics that change nothing for a script run; others are reported and skipped
_QUIET_MAGICS = {"matplotlib", "load_ext", "config", "autoreload", "reload_ext"}


def _split_lines(source):
    return source if isinstance(source, list) else source.splitlines(keepends=True)


def translate_cell(source):
    """A cell's source as plain Python plus the shell commands and notices it implies."""
    lines = []
    for line in "".join(_split_lines(source)).split("\n"):
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if stripped.startswith("!"):
            words = stripped[1:].split()
            if words[:2] in (["pip", "install"], ["pip3", "install"]) or words[:4] == ["python", "-m", "pip",
                                                                                          "install"]:
                lines.append(f"{indent}__tfcompat_notice__({('skipped: !' + stripped[1:])!r})")
            else:
                lines.append(f"{indent}__tfcompat_shell__({stripped[1:]!r}, globals())")
        elif stripped.startswith("%%"):
            name = stripped[2:].split()[0] if stripped[2:].split() else ""
            if name in ("capture", "time", "timeit"):
                lines.append(f"{indent}pass  # %%{name}")
            else:
                lines.append(f"{indent}__tfcompat_notice__({('cell magic %%' + name + ' skipped')!r})")
                return "\n".join(lines)
        elif stripped.startswith("%"):
            name = stripped[1:].split()[0] if stripped[1:].split() else ""
            if name in _QUIET_MAGICS:
                lines.append(f"{indent}pass  # %{name}")
            elif name in ("time", "timeit"):
                lines.append(indent + stripped[len(name) + 1:].strip())
            elif name == "pip":
                lines.append(f"{indent}__tfcompat_notice__('%pip skipped: install packages before running')")
            else:
                lines.append(f"{indent}__tfcompat_notice__({('magic %' + name + ' skipped')!r})")
        else:
            lines.append(line)
    return "\n".join(lines)


_BRACES = re.compile(r"\{([^{}]+)\}")


def _shell(cmd, namespace):
    """Runs a `!` line in a shell, expanding `{expression}` from the notebook's namespace as IPython does."""
    cmd = _BRACES.sub(lambda m: str(eval(m.group(1), namespace)), cmd)
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    sys.stdout.write(out.stdout)
    sys.stderr.write(out.stderr)


def _notice(text):
    print(f"[tfcompat] {text}", file=sys.stderr)


def run_cell(source, namespace, filename):
    """Executes one cell; returns the repr of its trailing expression (or None)."""
    code = translate_cell(source)
    tree = ast.parse(code, filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not code.rstrip().endswith(";"):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        value = eval(compile(last, filename, "eval"), namespace)
        if value is not None:
            return repr(value)
    return None


_CELL_MARKER = re.compile(r"^# %%.*$", re.M)


def is_percent_script(source):
    """True for a `.py` notebook in the percent format (`# %%` cell markers, as Jupytext and VS Code write)."""
    return _CELL_MARKER.search(source) is not None


def percent_notebook(source):
    """A notebook dict from a percent-format script: one code cell per `# %%` section."""
    parts = _CELL_MARKER.split(source)
    cells = [p.strip("\n") for p in parts[:1] if p.strip()] + [p.strip("\n") for p in parts[1:]]
    return {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                       "source": c.splitlines(keepends=True)} for c in cells],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def run_notebook(path, write_to=None, keep_going=False):
    """Runs an `.ipynb` notebook, or a percent-format `.py` one, cell by cell; returns the exit status.

    The first failing cell stops the run (as "Run All" does) unless `keep_going`.
    """
    with open(path, encoding="utf-8") as f:
        nb = json.load(f) if path.endswith(".ipynb") else percent_notebook(f.read())
    main = types.ModuleType("__main__")
    main.__dict__.update(__builtins__=builtins, __tfcompat_shell__=_shell, __tfcompat_notice__=_notice)
    sys.modules["__main__"] = main
    status = 0
    count = 0
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        count += 1
        outputs = []
        capture = _Capture() if write_to else None
        try:
            with capture or _nullcontext():
                result = run_cell(cell.get("source", ""), main.__dict__, f"<cell {i}>")
            if result is not None:
                print(result)
                outputs.append({"output_type": "execute_result", "execution_count": count,
                                "data": {"text/plain": result.splitlines(keepends=True)}, "metadata": {}})
        except Exception as e:
            traceback.print_exc()
            outputs.append({"output_type": "error", "ename": type(e).__name__, "evalue": str(e),
                            "traceback": traceback.format_exception(type(e), e, e.__traceback__)})
            status = 1
            if not keep_going and write_to is None:
                break
        if capture is not None:
            for name, text in (("stdout", capture.out), ("stderr", capture.err)):
                if text:
                    outputs.insert(0, {"output_type": "stream", "name": name,
                                       "text": text.splitlines(keepends=True)})
            cell["outputs"] = outputs
            cell["execution_count"] = count
    if write_to:
        with open(write_to, "w", encoding="utf-8") as f:
            json.dump(nb, f, indent=1, ensure_ascii=False)
    return status


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _Capture:
    """Tees stdout/stderr into strings (for the executed notebook) while still printing them."""

    def __enter__(self):
        self.out, self.err = "", ""
        self._saved = sys.stdout, sys.stderr
        sys.stdout = _Tee(self, "out", sys.stdout)
        sys.stderr = _Tee(self, "err", sys.stderr)
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self._saved
        return False


class _Tee:
    def __init__(self, owner, attr, stream):
        self._owner, self._attr, self._stream = owner, attr, stream

    def write(self, text):
        setattr(self._owner, self._attr, getattr(self._owner, self._attr) + text)
        return self._stream.write(text)

    def flush(self):
        self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)
