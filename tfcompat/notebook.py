"""Cell mode of `tfcompat run`: a notebook runs cell by cell in one namespace, showing what Jupyter shows.

A cell's last expression is displayed; `!` lines run in a shell; `%time`, `%%time`, `%timeit`, `%%timeit` time
code as IPython does; `display()` works without IPython; matplotlib figures (`plt.show()`, or left open at the
end of a cell) are saved as PNG files and become `image/png` outputs. Tracebacks start at the cell's code and
name the real file and line (`<cell N>` for a cell of an `.ipynb`).
"""
import ast
import base64
import builtins
import gc
import io
import itertools
import json
import linecache
import math
import os
import re
import subprocess
import sys
import time
import traceback
import types

# magics that change nothing for a script run; others are reported and skipped
_QUIET_MAGICS = {"matplotlib", "load_ext", "config", "autoreload", "reload_ext"}
FIGURE_BACKEND = "module://tfcompat._notebook_figures"
_active = None  # the _Session running now (the figure backend reports to it)


# ---- reading notebooks

_CELL_MARKER = re.compile(r"^# %%.*$")


def percent_cells(source):
    """The cells of a percent-format script (`# %%` lines separate them): (number of its first line, code).

    A docstring alone before the first `# %%` describes the script and is not run (the examples' notebooks
    make it their title text: `tools/py_to_ipynb.py`).
    """
    chunks, start, lines = [], 1, []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", source), 1):  # Python's line ends only
        if _CELL_MARKER.match(line):
            chunks.append((start, lines))
            start, lines = number + 1, []
        else:
            lines.append(line)
    chunks.append((start, lines))
    cells = []
    for start, lines in chunks:
        while lines and not lines[0].strip():
            lines.pop(0)
            start += 1
        while lines and not lines[-1].strip():
            lines.pop()
        if lines:
            cells.append((start, "\n".join(lines)))
    if len(chunks) > 1 and chunks[0][1] and _docstring_only(cells[0][1]):
        del cells[0]
    return cells


def _docstring_only(code):
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return False
    return len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str)


def load(path, text):
    """A notebook dict and its runnable cells [(cell dict, file name for tracebacks, line offset)] from FILE's text.

    An `.ipynb` is read as JSON (ValueError when it is not a notebook); any other file is a percent-format
    script, whose cells keep the file's name and line numbers.
    """
    if path.endswith(".ipynb"):
        try:
            nb = json.loads(text)
        except ValueError as e:
            raise ValueError(f"not a Jupyter notebook (invalid JSON: {e})") from None
        if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
            raise ValueError("not a Jupyter notebook (no list of cells)")
        code = [c for c in nb.get("cells", []) if isinstance(c, dict) and c.get("cell_type") == "code"]
        return nb, [(cell, f"<cell {i}>", 0) for i, cell in enumerate(code, 1)]
    filename = os.path.join(os.getcwd(), path)
    cells = [(_code_cell(src), filename, first - 1) for first, src in percent_cells(text)]
    nb = {"cells": [c for c, _, _ in cells], "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                       "language_info": {"name": "python"}}}
    return nb, cells


def _code_cell(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": source.splitlines(keepends=True)}


# ---- turning a cell into Python

def translate_cell(source):
    """A cell's source as plain Python, line for line: magics and `!` lines become calls of the runner's helpers.

    A cell magic (`%%name` on the first line) is left to `run_cell`; other `%%` lines are an error.
    """
    lines = []
    for number, line in enumerate(source.split("\n"), 1):
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        words = stripped[1:].split()
        if stripped.startswith("!"):
            if words[:2] in (["pip", "install"], ["pip3", "install"]) or words[:4] == ["python", "-m", "pip",
                                                                                      "install"]:
                lines.append(f"{indent}__tfcompat__.notice({('skipped: !' + stripped[1:])!r})")
            else:
                lines.append(f"{indent}__tfcompat__.shell({stripped[1:]!r}, globals())")
        elif stripped.startswith("%") and not stripped.startswith("%%"):
            name = words[0] if words else ""
            rest = stripped[1 + len(name):].strip()
            if name in _QUIET_MAGICS:
                lines.append(f"{indent}pass  # %{name}")
            elif name in ("time", "timeit"):
                lines.append(f"{indent}__tfcompat__.{name}({rest!r}, {number}, globals(), locals())")
            elif name == "pip":
                lines.append(f"{indent}__tfcompat__.notice('%pip skipped: install packages before running')")
            else:
                lines.append(f"{indent}__tfcompat__.notice({('magic %' + name + ' skipped')!r})")
        else:
            lines.append(line)
    return "\n".join(lines)


def _cell_magic(source):
    """(name, argument text, body with the magic line blanked) for a cell starting with `%%name`; else None."""
    first, _, body = source.partition("\n")
    if not first.startswith("%%"):
        return None
    name, _, args = first[2:].strip().partition(" ")
    return name, args.strip(), "\n" + body


# ---- IPython's timing output

def format_time(seconds, precision=3):
    """A duration as IPython prints it: `precision` significant digits in s, ms, µs or ns; `1min 5s` from a
    minute on."""
    if seconds >= 60:
        parts, left = [], seconds
        for suffix, length in (("d", 86400), ("h", 3600), ("min", 60), ("s", 1)):
            value = int(left / length)
            if value > 0:
                left %= length
                parts.append(f"{value}{suffix}")
            if left < 1:
                break
        return " ".join(parts)
    order = 3 if seconds <= 0 else min(-int(math.floor(math.log10(seconds)) // 3), 3)
    return f"{seconds * 1000 ** order:.{precision}g} {('s', 'ms', chr(0xb5) + 's', 'ns')[order]}"


def _cpu_times():
    try:
        import resource
    except ImportError:  # Windows
        t = os.times()
        return t.user, t.system
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


_TIMEIT_OPTION = re.compile(r"-(?:([nrp])\s*(\d+)|([qotc]))(?:\s+|$)")
_TIMED = "def _timed(_it, _clock):\n    _t0 = _clock()\n    for _ in _it:\n        pass\n    return _clock() - _t0\n"


def _timeit_options(text):
    """(loops or 0, runs, precision, quiet, rest of the text) from `%timeit`'s leading options."""
    options = {"n": 0, "r": 7, "p": 3, "q": False}
    while (m := _TIMEIT_OPTION.match(text)) is not None:
        if m.group(3) in ("o", "t", "c"):
            raise NotImplementedError(f"%timeit option -{m.group(3)} is not supported by tfcompat run")
        if m.group(3) == "q":
            options["q"] = True
        else:
            options[m.group(1)] = int(m.group(2))
        text = text[m.end():]
    if options["r"] < 1:
        raise ValueError("%timeit -r must be at least 1")
    return options["n"], options["r"], options["p"], options["q"], text


# ---- running

class _Outputs:
    """One cell's outputs in nbformat 4; consecutive writes to one stream merge, as in Jupyter."""

    def __init__(self):
        self.items = []

    def stream(self, name, text):
        last = self.items[-1] if self.items else None
        if last is not None and last["output_type"] == "stream" and last["name"] == name:
            last["text"].append(text)
        else:
            self.items.append({"output_type": "stream", "name": name, "text": [text]})

    def as_nbformat(self):
        for item in self.items:
            if item["output_type"] == "stream":
                item["text"] = "".join(item["text"]).splitlines(keepends=True)
        return self.items


class _Tee:
    """A text stream that writes through to the terminal and records what it writes as a cell output."""

    def __init__(self, stream, outputs, name):
        self._stream, self._outputs, self._name = stream, outputs, name

    def write(self, text):
        self._outputs.stream(self._name, text)
        return self._stream.write(text)

    def flush(self):
        self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _user_traceback(error, filename):
    """The traceback from the first frame that is not this runner's (so it starts at the user's code); none
    for the cell's own syntax error (as Python shows a script's)."""
    if isinstance(error, SyntaxError) and error.filename == filename:
        return None
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return tb


def show_open_figures():
    """`plt.show()` in a running cell: every open matplotlib figure becomes an output, then closes."""
    if _active is not None:
        _active.flush_figures()


class _Session:
    """One notebook run: the helpers its cells call (`display`, magics, `!` lines) and where outputs go."""

    def __init__(self, figures_dir, figures_shown_as):
        self.figures_dir, self.figures_shown_as = figures_dir, figures_shown_as
        self.user_backend = os.environ.get("MPLBACKEND")
        self.filename, self.offset, self.count = "<cell>", 0, 0
        self.outputs, self.terminal = _Outputs(), (sys.stdout, sys.stderr)
        self.figure_number, self.shown = 0, set()
        self.exit = None  # a cell's SystemExit: it ends the run, as sys.exit ends a script

    # -- helpers called from cells
    def notice(self, text):
        print(f"[tfcompat] {text}", file=sys.stderr)

    def shell(self, command, namespace):
        """A `!` line: runs in a shell, `{expression}` expanded from the notebook's namespace as IPython does
        (left as written when it does not evaluate, as in `awk '{print $1}'`)."""
        def expand(match):
            try:
                return str(eval(match.group(1), namespace))
            except Exception:  # noqa: BLE001 - not an expression: IPython keeps the text
                return match.group(0)
        command = re.sub(r"\{([^{}]+)\}", expand, command)
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}  # the runner's backend stays here
        if self.user_backend is not None:
            env["MPLBACKEND"] = self.user_backend
        out = subprocess.run(command, shell=True, capture_output=True, text=True, env=env)
        sys.stdout.write(out.stdout)
        sys.stderr.write(out.stderr)

    def parse(self, source, line):
        """`source` (starting on `line` of the current cell) as an AST with the cell's line numbers."""
        return ast.parse("\n" * (self.offset + line - 1) + source, self.filename)

    def time(self, source, line, globals_, locals_):
        """`%time CODE`: runs it once and prints IPython's CPU and wall times; returns its last expression's value."""
        code = self.compile(self.parse(source, line))
        cpu, wall = _cpu_times(), time.perf_counter()
        value = self.execute(code, globals_, locals_)
        self._print_times(cpu, wall)
        return value

    def compile(self, tree):
        """(code of a parsed cell's statements, code of its last statement when that is an expression, or None)."""
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = compile(ast.Expression(tree.body.pop().value), self.filename, "eval")
        return compile(tree, self.filename, "exec"), last

    @staticmethod
    def execute(code, globals_, locals_=None):
        """Runs compiled cell code; returns the value of its last expression (None without one)."""
        exec(code[0], globals_, locals_)
        return None if code[1] is None else eval(code[1], globals_, locals_)

    def _print_times(self, cpu, wall):
        wall = time.perf_counter() - wall
        user, system = (b - a for a, b in zip(cpu, _cpu_times()))
        print(f"CPU times: user {format_time(user)}, sys: {format_time(system)}, "
              f"total: {format_time(user + system)}\nWall time: {format_time(wall)}")

    def timeit(self, text, line, globals_, locals_=None, body=None):
        """`%timeit [-n N] [-r R] [-p P] [-q] STATEMENT` (or `%%timeit [options] SETUP` over a cell `body`).

        As IPython: the statement runs in a function over the namespace (its assignments stay local), `N`
        loops are timed `R` times (by default the first power of ten taking 0.2 s, and 7 runs), and the mean
        and standard deviation per loop are printed.
        """
        loops, runs, precision, quiet, rest = _timeit_options(text)
        setup, statement = (rest, body) if body is not None else ("pass", rest)
        timed = ast.parse(_TIMED)
        fn = timed.body[0]
        fn.body[0:0] = self.parse(setup, line).body
        fn.body[-2].body = self.parse(statement, line if body is None else 1).body or [ast.Pass()]
        if locals_ is not None and locals_ is not globals_:  # inside a function: its locals are visible too
            globals_ = {**globals_, **locals_}
        scope = {}
        exec(compile(ast.fix_missing_locations(timed), self.filename, "exec"), globals_, scope)

        def run(number):
            enabled = gc.isenabled()
            gc.disable()
            try:
                return scope["_timed"](itertools.repeat(None, number), time.perf_counter)
            finally:
                if enabled:
                    gc.enable()

        if not loops:
            for power in range(10):
                loops = 10 ** power
                if run(loops) >= 0.2:
                    break
        per_loop = [run(loops) / loops for _ in range(runs)]
        if quiet:
            return
        best, worst = min(per_loop), max(per_loop)
        if worst > 4 * best and best > 0 and worst > 1e-6:
            print(f"The slowest run took {worst / best:0.2f} times longer than the fastest. "
                  "This could mean that an intermediate result is being cached.")
        mean = math.fsum(per_loop) / runs
        std = (math.fsum((t - mean) ** 2 for t in per_loop) / runs) ** 0.5
        print(f"{format_time(mean, precision)} ± {format_time(std, precision)} per loop (mean ± std. dev. of "
              f"{runs} run{'s' * (runs != 1)}, {loops:,} loop{'s' * (loops != 1)} each)")

    def display(self, *objs, **kwargs):
        """IPython's `display()`: each object's text/plain repr, and a matplotlib figure as an image/png output."""
        if kwargs:
            raise NotImplementedError(f"display() arguments {', '.join(sorted(kwargs))} in tfcompat run")
        for obj in objs:
            self.emit(obj, "display_data")

    # -- outputs
    def emit(self, obj, kind):
        """Shows `obj` as a display_data or execute_result output (and on the terminal)."""
        text = repr(obj)
        data = {"text/plain": text.splitlines(keepends=True)}
        figure = sys.modules.get("matplotlib.figure")
        if figure is not None and isinstance(obj, figure.Figure):
            data["image/png"] = self.save_figure(obj)
        else:
            self.terminal[0].write(text + "\n")
        item = {"output_type": kind, "data": data, "metadata": {}}
        if kind == "execute_result":
            item["execution_count"] = self.count
        self.outputs.items.append(item)

    def save_figure(self, fig):
        """Writes `fig` as FIGURES_DIR/cellN_figK.png, says where on stderr; returns the PNG in base64."""
        buf = io.BytesIO()
        fig.savefig(buf, format="png", bbox_inches="tight")
        self.figure_number += 1
        name = f"cell{self.count}_fig{self.figure_number}.png"
        os.makedirs(self.figures_dir, exist_ok=True)
        with open(os.path.join(self.figures_dir, name), "wb") as f:
            f.write(buf.getvalue())
        self.terminal[1].write(f"[tfcompat] figure saved to {os.path.join(self.figures_shown_as, name)}\n")
        self.shown.add(id(fig))
        return base64.b64encode(buf.getvalue()).decode("ascii") + "\n"

    def flush_figures(self):
        """Every open pyplot figure not yet shown by this cell becomes an output; all of them close."""
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is None:
            return
        from matplotlib._pylab_helpers import Gcf
        for manager in Gcf.get_all_fig_managers():
            fig = manager.canvas.figure
            if id(fig) not in self.shown:
                self.emit(fig, "display_data")
            pyplot.close(fig)

    # -- cells
    def run_cell(self, source, namespace):
        """Runs one cell (its last expression is displayed); its outputs are in `self.outputs`."""
        name, args, body = _cell_magic(source) or (None, "", source)
        if name == "timeit":
            return self.timeit(args, 1, namespace, body=translate_cell(body))
        if name == "capture":
            return self.run_silenced(args, body, namespace)
        if name not in (None, "time"):
            return self.notice(f"cell magic %%{name} skipped")
        code = self.compile(self.parse(translate_cell(body), 1))
        cpu, wall = _cpu_times(), time.perf_counter()
        value = self.execute(code, namespace)
        if name == "time":
            self._print_times(cpu, wall)
        if value is not None and not source.rstrip().endswith(";"):
            self.emit(value, "execute_result")

    def run_silenced(self, args, body, namespace):
        """`%%capture`: runs the cell and discards what it prints and displays."""
        if args:
            raise NotImplementedError(f"%%capture {args}: tfcompat run only discards a cell's output")
        sink = io.StringIO()
        saved = sys.stdout, sys.stderr, self.terminal, self.outputs
        sys.stdout = sys.stderr = sink
        self.terminal, self.outputs = (sink, sink), _Outputs()
        try:
            self.execute(self.compile(self.parse(translate_cell(body), 1)), namespace)
        finally:
            sys.stdout, sys.stderr, self.terminal, self.outputs = saved

    def run(self, nb, cells, namespace, keep_going):
        """Runs the cells in order; returns the exit status (1 when a cell failed, 130 when interrupted)."""
        for cell, _, _ in cells:
            cell["outputs"], cell["execution_count"] = [], None
        status = 0
        for cell, filename, offset in cells:
            self.count += 1
            source = "".join(cell.get("source", ""))
            self.filename, self.offset, self.outputs, self.figure_number = filename, offset, _Outputs(), 0
            self.shown = set()
            if filename.startswith("<"):
                linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
            failed = self.run_captured(source, namespace)
            cell["outputs"], cell["execution_count"] = self.outputs.as_nbformat(), self.count
            if failed is SystemExit:
                break
            if failed:
                status = 130 if failed is KeyboardInterrupt else 1
                if not keep_going or failed is KeyboardInterrupt:
                    break
        return status

    def run_captured(self, source, namespace):
        """Runs a cell with its stdout/stderr recorded; returns the class of the exception that stopped it."""
        saved = sys.stdout, sys.stderr
        self.terminal = saved
        sys.stdout, sys.stderr = _Tee(saved[0], self.outputs, "stdout"), _Tee(saved[1], self.outputs, "stderr")
        try:
            self.run_cell(source, namespace)
            self.flush_figures()
        except (Exception, KeyboardInterrupt) as e:  # noqa: BLE001 - a cell's error is its output
            lines = traceback.format_exception(type(e), e, _user_traceback(e, self.filename))
            saved[1].write("".join(lines))
            self.outputs.items.append({"output_type": "error", "ename": type(e).__name__, "evalue": str(e),
                                       "traceback": [line.rstrip("\n") for line in lines]})
            return KeyboardInterrupt if isinstance(e, KeyboardInterrupt) else Exception
        except SystemExit as e:
            self.exit = e
            return SystemExit
        finally:
            sys.stdout, sys.stderr = saved
        return None


def run_notebook(nb, cells, write_to=None, keep_going=False, figures_dir="figures"):
    """Runs a loaded notebook cell by cell in a fresh `__main__` namespace; returns the exit status.

    The first failing cell stops the run (as "Run All" does) unless `keep_going`; `sys.exit()` in a cell
    ends it (SystemExit is raised again once the notebook is written); `write_to` saves the executed
    notebook (cells after a stop have no outputs). matplotlib, when the notebook uses it, draws
    with the runner's backend (set before the notebook imports pyplot).
    """
    global _active
    session = _Session(os.path.abspath(figures_dir), figures_dir)
    main = types.ModuleType("__main__")
    main.__dict__.update(__builtins__=builtins, __tfcompat__=session, display=session.display)
    saved_main = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    os.environ["MPLBACKEND"] = FIGURE_BACKEND
    _active = session
    try:
        status = session.run(nb, cells, main.__dict__, keep_going)
    finally:
        _active = None
        sys.modules["__main__"] = saved_main
        if session.user_backend is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = session.user_backend
    if write_to:
        with open(write_to, "w", encoding="utf-8") as f:
            json.dump(nb, f, indent=1, ensure_ascii=False)
            f.write("\n")
    if session.exit is not None:
        raise session.exit
    return status
