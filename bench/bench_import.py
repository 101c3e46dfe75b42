"""`import tfcompat` against `import torch`: whole-process time of each, interleaved runs, medians (limit 1.10x).

    python bench/bench_import.py [--runs 7] [--no-bytecode]

Both import from compiled bytecode, as an installed package does (pip compiles `.pyc` files at install): the
children write and read their bytecode under one cache folder of the bench (`PYTHONPYCACHEPREFIX`, filled by a
warm-up run), so an editable checkout under `PYTHONDONTWRITEBYTECODE=1` does not time the compiler.
`--no-bytecode` also prints the from-source figure (every tfcompat module compiled at each import).
Ratios are medians of run-by-run ratios, of wall time and of the child's CPU time (steadier on a shared machine).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

PYCACHE = os.path.join(tempfile.gettempdir(), "tfcompat-bench-pycache")


def _env(bytecode):
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if bytecode:
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def run_once(stmt, env):
    """(wall seconds, CPU seconds) of one child process running `stmt`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", stmt], check=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(runs, bytecode):
    """Medians (tfcompat wall, torch wall, wall ratio, CPU ratio) over interleaved runs."""
    env = _env(bytecode)
    run_once("import tfcompat", env)       # warm-up: fills the bytecode cache and the page cache
    ours, theirs = [], []
    for _ in range(runs):
        theirs.append(run_once("import torch", env))
        ours.append(run_once("import tfcompat", env))
    wall = statistics.median(a[0] / b[0] for a, b in zip(ours, theirs))
    cpu = statistics.median(a[1] / b[1] for a, b in zip(ours, theirs))
    return statistics.median(a[0] for a in ours), statistics.median(b[0] for b in theirs), wall, cpu


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--no-bytecode", action="store_true", help="also time imports compiled from source")
    a = p.parse_args()
    cases = [("bytecode", True)] + ([("from source", False)] if a.no_bytecode else [])
    for name, bytecode in cases:
        ours, theirs, wall, cpu = compare(a.runs, bytecode)
        limit = "limit 1.10" if bytecode else "no limit"
        over = "  OVER" if bytecode and wall > 1.10 else ""
        print(f"import ({name}): torch {theirs:6.3f} s  tfcompat {ours:6.3f} s  ratio {wall:.2f} "
              f"(CPU time {cpu:.2f}; {limit}){over}")


if __name__ == "__main__":
    main()
