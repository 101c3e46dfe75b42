"""A/B of one benchmark between this checkout and another tfcompat tree: the two run alternately, medians compared.

    python bench/ab.py --base /tmp/base [--runs 4] [--env NAME=VALUE ...] bench/bench_train_step.py [its args]

Each run is a fresh process of the benchmark (this checkout's script), once with `PYTHONPATH=<base>` (the base tree's
`tfcompat`; make it with `git worktree add /tmp/base <commit>`) and once without, alternating, so that changes of
the machine's load fall on both alike. Every number after the word `ratio` in a line of the benchmark's output, and
every `<number>x eager torch` (bench_function's lines), is collected under the line's text before it (numbers
masked); prints each one's values and median for both trees.
`--env` sets a variable for both (e.g. `OMP_WAIT_POLICY=PASSIVE`, which `import tfcompat` sets only since 3d5a743).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

RATIO = re.compile(r"ratio:?\s+([0-9.]+)|([0-9.]+)x eager torch")


def ratios(output):
    """{line's name: [ratio, ...]} of one run's output."""
    found = {}
    for line in output.splitlines():
        for m in RATIO.finditer(line):
            name = " ".join(re.sub(r"\d[\d.]*", "#", line[:m.start()]).split()).strip(" :,(") or "ratio"
            found.setdefault(name, []).append(float(m.group(1) or m.group(2)))
    return found


def _median(values):
    return f"{statistics.median(values):.3f}" if values else "-"


def run(script_args, base, env):
    env = dict(os.environ, **env)
    env.pop("PYTHONPATH", None)
    if base:
        env["PYTHONPATH"] = base
    out = subprocess.run([sys.executable] + script_args, env=env, capture_output=True, text=True, check=True)
    return ratios(out.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--base", required=True, help="the other tree's root (holding its tfcompat/)")
    p.add_argument("--runs", type=int, default=4)
    p.add_argument("--env", action="append", default=[], help="NAME=VALUE set for both sides")
    p.add_argument("script", nargs=argparse.REMAINDER, help="the benchmark and its arguments")
    a = p.parse_args()
    env = dict(e.split("=", 1) for e in a.env)
    results = {"base": {}, "this": {}}
    for _ in range(a.runs):
        for side, path in (("base", os.path.abspath(a.base)), ("this", None)):
            for name, values in run(a.script, path, env).items():
                results[side].setdefault(name, []).extend(values)
    for name in results["this"]:
        b, t = results["base"].get(name, []), results["this"][name]
        print(f"{name}: base {_median(b)} {sorted(b)} -> this {_median(t)} {sorted(t)}")


if __name__ == "__main__":
    main()
