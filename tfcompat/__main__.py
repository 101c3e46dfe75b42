"""`tfcompat run FILE [ARGS...]` (or `python -m tfcompat run ...`): run unmodified TensorFlow code on tfcompat.

`import tensorflow` (and `keras`, `tf_keras`) resolve to tfcompat. A script runs as `python FILE` runs it; a
notebook (`.ipynb`, or a `.py` with `--cells`) runs cell by cell (`tfcompat.notebook`).
"""
import argparse
import builtins
import importlib.machinery
import os
import sys
import types

_EPILOG = """\
where options go:
  The runner's options above may come before or after FILE. Every other argument after FILE, and
  everything after `--`, goes to the program as its sys.argv[1:] (-h/--help after FILE too):
    %(prog)s train.py --epochs 3
        the program gets ['--epochs', '3']
    %(prog)s guide.ipynb --write-notebook out.ipynb
        the runner writes the executed notebook to out.ipynb
    %(prog)s train.py -- --cells
        the program gets ['--cells']

scripts and cell mode:
  A script runs exactly as `python FILE` does (__name__ == "__main__", __file__, sys.argv, sys.path[0]
  is the script's directory). In cell mode (.ipynb always; a .py with --cells, `# %%%%` lines separating
  its cells) each cell's last expression is displayed, `!` lines run in a shell, %%time, %%%%time, %%timeit
  and %%%%timeit time code, display() works, and matplotlib figures (plt.show(), or open at the end of a
  cell) are saved as PNG files in the figures directory (and embedded with --write-notebook). A failing
  cell stops the run unless --keep-going.

exit status:
  the program's: 0 when it ends, 1 when it raises, does not compile or a cell fails (sys.exit(n)
  gives n); 2 for a usage error: an unknown option before FILE, FILE missing or a directory.
"""


_TORCHRUN_FLAGS = ("--nnodes", "--node-rank", "--master-addr", "--master-port", "--rdzv-backend", "--rdzv-endpoint",
                   "--rdzv-id", "--max-restarts")


def _parser(prog):
    parser = argparse.ArgumentParser(prog=prog, allow_abbrev=False,
                                     description="Run unmodified TensorFlow scripts and notebooks on tfcompat.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a TensorFlow script or notebook on tfcompat", allow_abbrev=False,
                         description="Run a TensorFlow script or notebook unchanged on tfcompat:\n"
                                     "`import tensorflow` (and `keras`, `tf_keras`) resolve to tfcompat.",
                         epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("--cells", action="store_true",
                     help="run a .py file cell by cell, as a notebook (`# %%%%` lines separate cells)")
    run.add_argument("--keep-going", action="store_true", help="cell mode: run the remaining cells after a "
                                                               "failing cell")
    run.add_argument("--write-notebook", metavar="OUT", help="cell mode: save the executed notebook, with its "
                                                             "outputs, to OUT")
    run.add_argument("--figures-dir", metavar="DIR", help="cell mode: where matplotlib figures are saved as PNG "
                                                          "(default: FILESTEM_figures in the current directory)")
    launch = run.add_argument_group("distributed launch (torch.distributed.run: one process per replica, each with "
                                    "RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT for "
                                    "tf.distribute.MultiWorkerMirroredStrategy)")
    launch.add_argument("--nproc-per-node", metavar="N", help="start N processes of the program on this machine")
    for flag in _TORCHRUN_FLAGS:
        launch.add_argument(flag, metavar="VALUE", help=f"passed to torch.distributed.run as {flag}")
    run.add_argument("file", metavar="FILE", help="a Python script, or a Jupyter notebook (.ipynb)")
    run.add_argument("args", metavar="ARGS", nargs="*", help="the program's arguments (its sys.argv[1:])")
    return parser, run


def _split_run_args(tokens, run):
    """(the runner's own tokens, ending with `--` FILE when given; the program's arguments).

    The runner's options are recognised before `--` wherever they are; other arguments after FILE (and all
    after `--`) belong to the program, as does -h/--help after FILE.
    """
    takes_value = {s: a.nargs != 0 for a in run._actions for s in a.option_strings}
    own, program, file = [], [], None
    rest = iter(tokens)
    for token in rest:
        if token == "--":
            remaining = list(rest)
            if file is None and remaining:
                file = remaining.pop(0)
            program += remaining
            break
        name = token.split("=", 1)[0]
        if token.startswith("-") and token != "-" and (file is None or (name in takes_value and name not in
                                                                         ("-h", "--help"))):
            own.append(token)
            if takes_value.get(name) and "=" not in token:
                value = next(rest, None)
                if value is not None:
                    own.append(value)
        elif file is None:
            file = token
        else:
            program.append(token)
    return own + (["--", file] if file is not None else []), program


def _error(run, message, status=2):
    print(f"{run.prog}: error: {message}", file=sys.stderr)
    return status


def main(argv=None, prog="tfcompat"):
    """The command line; returns the exit status (argparse exits with 2 on a bad option, 0 after --help)."""
    parser, run = _parser(prog)
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] != ["run"]:
        parser.parse_args(argv)  # --help, or a usage error: the only command is `run`
    own, program = _split_run_args(argv[1:], run)
    if "--" not in own and not {"-h", "--help"} & set(own):
        run.error("the following arguments are required: FILE")
    options = run.parse_args(own)
    options.args = program
    path = options.file
    cells = options.cells or path.endswith(".ipynb")
    for flag in ("keep_going", "write_notebook", "figures_dir"):
        if getattr(options, flag) not in (None, False) and not cells:
            return _error(run, f"--{flag.replace('_', '-')} applies to cell mode: add --cells to run {path} "
                               f"cell by cell")
    if os.path.isdir(path):
        return _error(run, f"{path!r} is a directory, not a script or notebook")
    out_dir = os.path.dirname(options.write_notebook or "") or "."
    if not os.path.isdir(out_dir):
        return _error(run, f"can't write the notebook to {options.write_notebook!r}: no directory {out_dir!r}")
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        return _error(run, f"can't open file {path!r}: {e.strerror}")
    if options.nproc_per_node is not None:
        return _launch(run, options)
    saved = list(sys.argv), list(sys.path)
    try:
        if cells:
            return _run_cells(run, path, source, options)
        return _run_script(run, path, source, options.args)
    finally:
        sys.argv[:], sys.path[:] = saved


def _launch(run, options):
    """`--nproc-per-node N`: torch.distributed.run starts N processes of `python -m tfcompat run FILE ARGS`."""
    from torch.distributed import run as torchrun
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    argv = [f"--nproc-per-node={options.nproc_per_node}"]
    for flag in _TORCHRUN_FLAGS:
        value = getattr(options, flag[2:].replace("-", "_"))
        if value is not None:
            argv.append(f"{flag}={value}")
    argv += ["-m", "tfcompat", "run"] + (["--cells"] if options.cells else [])
    for flag in ("keep_going",):
        if getattr(options, flag):
            argv.append("--" + flag.replace("_", "-"))
    try:
        torchrun.main(argv + ["--", options.file, *options.args])
    except ChildFailedError as e:
        return _error(run, f"a process of {options.file} failed: {e.failures}", 1)
    return 0


def _start(path, args):
    """What `python FILE ARGS` sets up: sys.argv, the script's directory first on sys.path, the aliases."""
    from tfcompat._alias import install
    install()
    sys.argv[:] = [path, *args]
    if not getattr(sys.flags, "safe_path", False):  # python -P adds no script directory
        sys.path[0:1] = [os.path.dirname(os.path.realpath(path))]  # in place of the runner's own entry


def _run_script(run, path, source, args):
    """Runs FILE as `python FILE` does; an exception prints its traceback from the script's frame on."""
    filename = os.path.join(os.getcwd(), path)
    try:
        code = compile(source, filename, "exec")
    except (SyntaxError, ValueError) as e:  # ValueError: null bytes (Python < 3.12)
        where = f"{path}:{e.lineno}:{e.offset}" if getattr(e, "lineno", None) else path
        return _error(run, f"{where}: {type(e).__name__}: {getattr(e, 'msg', e)}", 1)
    _start(path, args)
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(__file__=filename, __cached__=None, __builtins__=builtins,
                                __loader__=importlib.machinery.SourceFileLoader("__main__", filename))
    saved_main = sys.modules.get("__main__")
    sys.modules["__main__"] = main_module
    try:
        exec(code, main_module.__dict__)
    except (Exception, KeyboardInterrupt) as e:  # noqa: BLE001 - the script's error, reported as Python does
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        return 130 if isinstance(e, KeyboardInterrupt) else 1
    finally:
        sys.modules["__main__"] = saved_main
    return 0


def _run_cells(run, path, source, options):
    """Runs FILE cell by cell (`tfcompat.notebook`)."""
    from tfcompat import notebook
    try:
        nb, cells = notebook.load(path, source.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as e:
        return _error(run, f"{path}: {e}", 1)
    _start(path, options.args)
    stem = os.path.splitext(os.path.basename(path))[0]
    try:
        return notebook.run_notebook(nb, cells, options.write_notebook, options.keep_going,
                                     options.figures_dir or f"{stem}_figures")
    except OSError as e:  # writing the executed notebook
        return _error(run, f"can't write the notebook to {options.write_notebook!r}: {e.strerror}", 1)


if __name__ == "__main__":
    sys.exit(main(prog="python -m tfcompat"))
