"""Records TensorFlow's outcome for every generated case (run with the TF venv's Python; tfcompat never does).

    /root/tfvenv/bin/python tools/op_fuzz/record.py [--seed 17] [--count 8000] [--out tests/fixtures/op_fuzz/cases.json.gz]

Cases run in a worker process; a case that aborts TF's process (a failed CHECK) or hangs is recorded as
`{"k": "crash"}` and left out of comparisons. The fixture holds the seed, the generator version, the TF version,
every case and its outcome.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from tools.op_fuzz import cases as C  # noqa: E402 - the repository root is put on the path first
from tools.op_fuzz import runner  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "tests", "fixtures", "op_fuzz", "cases.json.gz")
STALL_S = 60


def _worker(case_file, start, out_file):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    with open(case_file) as f:
        cases = json.load(f)
    with open(out_file, "a") as out:
        for case in cases[start:]:
            try:
                outcome = runner.run(tf, case)
            except runner.BuildError as e:
                outcome = {"k": "build", "m": str(e)[:160]}
            out.write(json.dumps(outcome) + "\n")
            out.flush()


def _count_lines(path):
    with open(path) as f:
        return sum(1 for _ in f)


def record(seed, count):
    cases = C.generate(seed, count)
    with tempfile.TemporaryDirectory() as tmp:
        case_file = os.path.join(tmp, "cases.json")
        out_file = os.path.join(tmp, "outcomes.jsonl")
        with open(case_file, "w") as f:
            json.dump(cases, f)
        open(out_file, "w").close()
        done = 0
        while done < len(cases):
            p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", case_file, str(done),
                                  out_file], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            last, last_t = done, time.time()
            while p.poll() is None:
                time.sleep(0.5)
                n = _count_lines(out_file)
                if n != last:
                    last, last_t = n, time.time()
                elif time.time() - last_t > STALL_S:
                    p.kill()
                    p.wait()
            done = _count_lines(out_file)
            if done < len(cases) and p.returncode != 0:
                with open(out_file, "a") as out:
                    out.write(json.dumps({"k": "crash", "rc": p.returncode}) + "\n")
                done += 1
                print(f"case {done - 1} ({cases[done - 1]['op']}) crashed TF's process", file=sys.stderr)
        with open(out_file) as f:
            outcomes = [json.loads(line) for line in f]
    for case, outcome in zip(cases, outcomes):
        case["tf"] = outcome
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--count", type=int, default=8000)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--worker", nargs=3)
    a = ap.parse_args()
    if a.worker:
        _worker(a.worker[0], int(a.worker[1]), a.worker[2])
        return
    import importlib.metadata as md
    cases = record(a.seed, a.count)
    data = {"seed": a.seed, "count": a.count, "generator_version": C.VERSION,
            "tensorflow": md.version("tensorflow-cpu"), "cases": cases}
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(json.dumps(data, separators=(",", ":")).encode())
    print(f"{len(cases)} cases -> {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
