"""Runs every benchmark of bench/, each in its own process under a time limit, and prints README's benchmark table.

    python bench/run_all.py [--device cpu|cuda] [--quick] [--only a,b] [--skip a,b] [--log-dir DIR]
                            [--timeout S] [--budget S] [--json FILE] [--write-readme]

Each benchmark's output is parsed into table rows (measure, TensorFlow 2.21's figure from shared/bench/README.md,
tfcompat, plain torch, ratio). `--write-readme` rewrites the marked block of README.md with the table (CPU only;
rows of benchmarks not run this time, or that failed, keep their previous text). `--quick` runs each benchmark
briefly (smaller counts, long ones skipped): a check that everything runs, not figures to quote.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(os.path.dirname(HERE), "README.md")
BEGIN = "<!-- bench-table begin: written by `python bench/run_all.py --write-readme`, do not edit by hand -->"
END = "<!-- bench-table end -->"
HEADER = ("| measure | TensorFlow 2.21 | tfcompat | plain torch | tfcompat / torch |", "|---|---:|---:|---:|---:|")

# TensorFlow 2.21's figures on the same kind of machine (shared/bench/README.md, the seed guide's run).
TF_FIGURES = {
    "`import`, whole process": "6.76 s",
    "`tf.add` on 2x2 int32": "67 us",
    "`tf.matmul` on 2x2 int32": "56 us",
    "tape `w * w` + `gradient`": "598 us",
    "seed linear-model SGD step": "4074 us",
    "seed convnet train step, batch 32": "69.9 ms",
    "`fit`, 1 epoch of 9600 samples": "5.27 s",
    "seed guide, 3 MNIST epochs: test accuracy (time)": "0.55-0.66 (234 s)",
}


@dataclass
class Row:
    measure: str
    tfcompat: str = ""
    torch: str = ""
    ratio: str = ""

    def cells(self):
        return (self.measure, TF_FIGURES.get(self.measure, ""), self.tfcompat, self.torch, self.ratio)


def _t(value, unit):
    """A time or size with about three significant digits, as the table prints it."""
    v = float(value)
    if unit == "s":
        return f"{v:.2f} s"
    return f"{v:.1f} {unit}" if v < 10 else f"{v:.0f} {unit}"


def _r(value):
    return f"{float(value):.2f}"


NUM = r"([-+]?\d+(?:\.\d+)?)"


def parse_import(out):
    m = re.search(rf"import \(bytecode\): torch\s+{NUM} s\s+tfcompat\s+{NUM} s\s+ratio {NUM}", out)
    return [Row("`import`, whole process", _t(m[2], "s"), _t(m[1], "s"), _r(m[3]))] if m else []


EAGER_CASES = {"add_2x2": "`tf.add` on 2x2 int32", "matmul_2x2": "`tf.matmul` on 2x2 int32",
               "add_then_numpy": "`tf.add(...).numpy()` on 2x2 int32", "tape_w*w_gradient": "tape `w * w` + `gradient`",
               "linreg_sgd_step": "seed linear-model SGD step"}
SIGNAL_CASES = {"rfft_16": "`tf.signal.rfft` of 16 samples", "rfft_1024": "`tf.signal.rfft` of 1024 samples",
                "rfft_64x512": "`tf.signal.rfft` of [64, 512]", "stft_16k_512/128": "`tf.signal.stft`, 1 s, 512/128",
                "stft_16k_400/160_fft512": "`tf.signal.stft`, 1 s, 400/160, fft 512"}


def _table_rows(names):
    """A parser of `_common.print_table` output whose cases are the keys of `names`."""
    def parse(out):
        rows = []
        for line in out.splitlines():
            m = re.match(rf"(\S+)\s+{NUM}us\s+{NUM}us\s+{NUM}\b", line)
            if m and m[1] in names:
                rows.append(Row(names[m[1]], _t(m[2], "us"), _t(m[3], "us"), _r(m[4])))
        return rows
    return parse


def parse_train_step(out):
    m = re.search(rf"seed train step, batch (\d+), \w+: tfcompat {NUM} ms/step, torch \(channels_last\) {NUM} "
                  rf"ms/step, ratio {NUM}", out)
    return [Row(f"seed convnet train step, batch {m[1]}", _t(m[2], "ms"), _t(m[3], "ms") + " (channels_last)",
                _r(m[4]))] if m else []


FUNCTION_CASES = {"eager tfcompat": "MLP step, eager", "tf.function": "MLP step in `tf.function`",
                  "tf.function(jit_compile=True)": "MLP step in `tf.function(jit_compile=True)`",
                  "convnet eager tfcompat": "seed convnet step, eager",
                  "convnet tf.function": "seed convnet step in `tf.function`"}


def parse_function(out):
    found = {m[1].strip(): (m[2], m[3]) for m in re.finditer(rf"^(.+?)\s+{NUM} (us|ms)/step", out, re.M)}
    rows = []
    for name, measure in FUNCTION_CASES.items():
        base = found.get("convnet eager torch" if name.startswith("convnet") else "eager torch")
        if name in found and base:
            (value, unit), (base_value, base_unit) = found[name], base
            rows.append(Row(measure, _t(value, unit), _t(base_value, base_unit) + " (eager)",
                            _r(float(value) / float(base_value))))
    overheads = re.findall(rf"replay overhead: {NUM} us per recorded op \((\d+) ops\)", out)
    for (value, ops), model in zip(overheads, ("MLP", "seed convnet")):
        rows.append(Row(f"`tf.function` replay overhead per recorded op, {model} step ({ops} ops)",
                        f"{float(value):+.2f} us"))
    return rows


def parse_keras_fit(out):
    rows = []
    m = re.search(rf"tfcompat fit: {NUM}s\s+torch loop: {NUM}s\s+ratio: {NUM}x", out)
    if m:
        rows.append(Row("`fit`, 1 epoch of 9600 samples", _t(m[1], "s"), _t(m[2], "s") + " (hand-written loop)",
                        _r(m[3])))
    e = re.search(rf"tfcompat fit \(run_eagerly=True\): {NUM}s\s+ratio: {NUM}x", out)
    if e:
        rows.append(Row("`fit(run_eagerly=True)`, same epoch", _t(e[1], "s"), "", _r(e[2])))
    j = re.search(rf"tfcompat fit \(jit_compile=True\): {NUM}s\s+ratio to torch: {NUM}x", out)
    if j:
        rows.append(Row("`fit(jit_compile=True)`, same epoch", _t(j[1], "s"), "", _r(j[2])))
    k = re.search(rf"keras \(torch backend\) fit: {NUM}s\s+tfcompat/keras: {NUM}x", out)
    if m and k:
        rows.append(Row("`fit`, same epoch, against Keras 3's torch backend", _t(m[1], "s"),
                        _t(k[1], "s") + " (Keras 3)", _r(k[2])))
    return rows


def parse_data(out):
    names = {"shuffle(full).batch": "tf.data MNIST epoch, `shuffle(60000).batch(32)`",
             "map+batch+prefetch": "tf.data Python `map` + `batch` + `prefetch`"}
    rows = []
    for m in re.finditer(rf"^(\S+)\s+(\d+)\s+{NUM}\s+{NUM}\s+{NUM}", out, re.M):
        if m[1] in names:
            torch_side = " (batched DataLoader)" if m[1] == "shuffle(full).batch" else " (DataLoader)"
            rows.append(Row(f"{names[m[1]]}, {m[2]} examples", _t(m[3], "s"), _t(m[4], "s") + torch_side, _r(m[5])))
    return rows


def parse_rnn(out):
    return [Row(f"Keras `{m[1]}(64)` `fit` step, 100 time steps, batch 32", _t(m[2], "ms"),
                _t(m[3], "ms") + f" (`nn.{m[1]}`)", _r(m[4]))
            for m in re.finditer(rf"Keras (LSTM|GRU)\(64\) fit step.*?tfcompat {NUM} ms\s+torch nn\.\w+ {NUM} ms\s+"
                                 rf"ratio: {NUM}", out)]


def parse_summary(out):
    a = re.search(rf"tf.summary.scalar \(tfcompat\)\s+x(\d+): {NUM} s", out)
    b = re.search(rf"torch SummaryWriter.add_scalar\s+x\d+: {NUM} s", out)
    r = re.search(rf"ratio tfcompat / torch: {NUM}x", out)
    return [Row(f"{int(a[1]):,} `tf.summary.scalar`", _t(a[2], "s"), _t(b[1], "s") + " (SummaryWriter)",
                _r(r[1]))] if a and b and r else []


def parse_tape_memory(out):
    m = re.search(rf"(\d+) tape steps: RSS {NUM} MB -> {NUM} MB \(growth {NUM} MB\)", out)
    return [Row(f"{int(m[1]):,} tape steps, RSS growth", f"{float(m[4]):+.1f} MB")] if m else []


def parse_memory(out):
    a = re.search(rf"tfcompat fit\s+peak RSS\s+{NUM} MB", out)
    b = re.search(rf"torch loop\s+peak RSS\s+{NUM} MB", out)
    r = re.search(rf"peak RSS ratio tfcompat/torch: {NUM}", out)
    return [Row("`fit` on MNIST, peak RSS", _t(a[1], "MB"), _t(b[1], "MB") + " (hand-written loop)", _r(r[1]))
            ] if a and b and r else []


def parse_soak(out):
    return [Row(f"soak: {m[1].strip()}, RSS growth", f"{float(m[4]):+.1f} MB")
            for m in re.finditer(rf"^(.+?)\s+start\s+{NUM} MB\s+end\s+{NUM} MB\s+growth\s+{NUM} MB", out, re.M)]


def parse_seed_accuracy(out):
    last = None
    for m in re.finditer(rf"tfcompat epoch (\d+): test accuracy {NUM} \({NUM}s\)", out):
        last = m
    return [Row("seed guide, 3 MNIST epochs: test accuracy (time)", f"{float(last[2]):.2f} ({last[3]} s)")
            ] if last else []


def parse_distribute(out):
    rate = {m[1]: float(m[2]) for m in re.finditer(rf"^(\S+)\s+{NUM} steps/s", out, re.M)}
    r = re.search(rf"tfcompat / DDP time: {NUM}x", out)
    if not r or "tfcompat" not in rate or "ddp" not in rate:
        return []
    return [Row("MultiWorkerMirroredStrategy `fit`, 2 processes", f"{rate['tfcompat']:.1f} steps/s",
                f"{rate['ddp']:.1f} steps/s (DDP)", _r(r[1]))]


@dataclass
class Bench:
    """One benchmark: its script, arguments (full run, `--quick` run or None to skip it there), how it takes the
    device (`--device X`, `--cuda`, or "any": it times no device work), its time limit and its parser."""
    script: str
    args: tuple
    quick: tuple
    device: str
    timeout: int
    parse: object


BENCHES = {  # the device-dependent ones first, so that a `--budget` run on a GPU gives those figures first
    "eager_ops": Bench("bench_eager_ops.py", (), ("--scale", "0.02"), "--device", 600,
                       _table_rows(EAGER_CASES)),
    "train_step": Bench("bench_train_step.py", (), ("--steps", "30"), "--device", 600, parse_train_step),
    "function": Bench("bench_function.py", (), (), "--device", 600, parse_function),
    "keras_fit": Bench("bench_keras_fit.py", ("--jit",), None, "--device", 1800, parse_keras_fit),
    "rnn": Bench("bench_rnn.py", (), ("--runs", "1", "--batches", "3"), "--device", 900, parse_rnn),
    "data": Bench("bench_data.py", (), ("--runs", "1", "--map-examples", "640"), "--device", 900, parse_data),
    "memory": Bench("bench_memory.py", (), ("--examples", "3200", "--steps", "5"), "--device", 900, parse_memory),
    "tape_memory": Bench("bench_tape_memory.py", (), ("--steps", "200"), "--device", 600, parse_tape_memory),
    "signal": Bench("bench_signal.py", (), ("--scale", "0.01"), "--device", 600, _table_rows(SIGNAL_CASES)),
    "seed_accuracy": Bench("bench_seed_accuracy.py", ("tfcompat",), None, "any", 1800, parse_seed_accuracy),
    "summary": Bench("bench_summary.py", (), None, "any", 600, parse_summary),
    "soak": Bench("bench_soak.py", (), ("--steps", "100", "--epochs", "2", "--calls", "30"), "any", 1800,
                  parse_soak),
    "import": Bench("bench_import.py", (), ("--runs", "2"), "any", 900, parse_import),
    "distribute": Bench("bench_distribute.py", (), ("--steps", "10"), "--cuda", 900, parse_distribute),
}


def command(bench, device, quick):
    """The argv of one run, or None when `--quick` skips it."""
    args = bench.quick if quick else bench.args
    if args is None:
        return None
    argv = [sys.executable, os.path.join(HERE, bench.script), *args]
    if bench.device == "--device":
        argv += ["--device", device]
    elif bench.device == "--cuda" and device == "cuda":
        argv.append("--cuda")
    return argv


def run(name, bench, device, quick, log_dir, cap=None):
    """(status, output, seconds) of one benchmark; status is 'ok', 'failed (exit N)', 'timeout' or 'skipped'."""
    argv = command(bench, device, quick)
    if argv is None:
        return "skipped (--quick)", "", 0.0
    timeout = min(bench.timeout // 3 if quick else bench.timeout, cap or bench.timeout)
    t0 = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        out, status = done.stdout + done.stderr, "ok" if done.returncode == 0 else f"failed (exit {done.returncode})"
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        status = f"timeout ({timeout} s)"
    seconds = time.perf_counter() - t0
    if log_dir:
        with open(os.path.join(log_dir, f"{name}.txt"), "w") as f:
            f.write(" ".join(argv) + "\n" + out)
    return status, out, seconds


def render(rows):
    """The markdown table of rows."""
    lines = list(HEADER)
    for row in rows:
        lines.append("| " + " | ".join(row.cells()) + " |")
    return "\n".join(lines)


def parse_table(text):
    """Rows of a table `render` wrote (the TensorFlow column is not kept: it comes from TF_FIGURES)."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] not in ("measure", "---"):
            rows.append(Row(cells[0], cells[2], cells[3], cells[4]))
    return rows


def _measure_key(measure):
    """A row's measure without the counts it names (a step's recorded ops), which change with the code."""
    return re.sub(r" \(\d+ ops\)$", "", measure)


def merge(old, new):
    """The new rows, in their order, then old rows whose measure was not measured this time (where they stood)."""
    fresh = {_measure_key(r.measure) for r in new}
    out, pending = [], list(new)
    for row in old:
        if _measure_key(row.measure) in fresh:
            if pending:
                out.extend(pending)
                pending = []
        else:
            out.append(row)
    return out + pending


def rewrite_readme(text, rows, note):
    """README text with the marked block replaced by `note` and the table of `rows` merged into the old one."""
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        raise SystemExit(f"README.md has no block between {BEGIN!r} and {END!r}")
    old = parse_table(text[start + len(BEGIN):stop])
    block = f"{BEGIN}\n{note}\n\n{render(merge(old, rows))}\n{END}"
    return text[:start] + block + text[stop + len(END):]


def _names(value):
    names = [n for n in value.split(",") if n] if value else []
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        raise SystemExit(f"unknown benchmarks {unknown}; known: {', '.join(BENCHES)}")
    return names


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    p.add_argument("--quick", action="store_true", help="brief runs (a check that every benchmark runs)")
    p.add_argument("--only", help="comma-separated benchmarks to run: " + ", ".join(BENCHES))
    p.add_argument("--skip", help="comma-separated benchmarks not to run")
    p.add_argument("--timeout", type=int, help="at most this many seconds for each benchmark")
    p.add_argument("--budget", type=int, help="at most this many seconds in all: later benchmarks get what is left, "
                                              "and none starts with under 20 s left")
    p.add_argument("--log-dir", help="write each benchmark's full output there")
    p.add_argument("--json", help="write the rows and statuses there")
    p.add_argument("--write-readme", action="store_true", help="rewrite README.md's benchmark block (CPU only)")
    a = p.parse_args(argv)
    if a.write_readme and (a.device != "cpu" or a.quick):
        raise SystemExit("--write-readme takes CPU figures of full runs only")
    only, skip = _names(a.only), _names(a.skip)
    if a.log_dir:
        os.makedirs(a.log_dir, exist_ok=True)
    rows, statuses = [], {}
    start = time.perf_counter()
    for name, bench in BENCHES.items():
        if (only and name not in only) or name in skip:
            continue
        cap = a.timeout
        if a.budget:
            left = int(a.budget - (time.perf_counter() - start))
            if left < 20:
                statuses[name] = "not run (--budget spent)"
                print(f"{name:14s} {statuses[name]}", flush=True)
                continue
            cap = min(cap or left, left)
        status, out, seconds = run(name, bench, a.device, a.quick, a.log_dir, cap)
        if status.startswith("skipped"):
            statuses[name] = status
            print(f"{name:14s} {status}", flush=True)
            continue
        found = bench.parse(out) if status == "ok" or status.startswith("timeout") else []
        if status == "ok" and not found:
            status = "ok, but no figures found in its output"
        elif found and status.startswith("timeout"):
            status += ", the figures it printed before are kept"
        statuses[name] = status
        rows.extend(found)
        print(f"{name:14s} {status} ({seconds:.0f} s)", flush=True)
        if status != "ok":
            print("    " + "\n    ".join(out.strip().splitlines()[-15:]), flush=True)
    print()
    print(render(rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"device": a.device, "quick": a.quick, "statuses": statuses,
                       "rows": [asdict(r) for r in rows]}, f, indent=1)
    if a.write_readme:
        note = (f"Medians on the {os.cpu_count()}-CPU machine this project runs on, "
                f"{time.strftime('%Y-%m-%d', time.gmtime())} (TensorFlow's figures: `shared/bench/README.md`, same "
                "kind of machine):")
        with open(README) as f:
            text = f.read()
        with open(README, "w") as f:
            f.write(rewrite_readme(text, rows, note))
    return 0 if all(s.startswith("ok") or s.startswith("skipped") for s in statuses.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
