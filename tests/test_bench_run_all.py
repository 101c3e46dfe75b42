"""bench/run_all.py's parsing of each benchmark's output and its README table, on canned output (nothing is timed)."""
import importlib.util
import os

import pytest

from conftest import REPO

_spec = importlib.util.spec_from_file_location("run_all", os.path.join(REPO, "bench", "run_all.py"))
run_all = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_all)

CANNED = {
    "import": "import (bytecode): torch  1.050 s  tfcompat  1.140 s  ratio 1.08 (CPU time 1.03; limit 1.10)\n",
    "eager_ops": """eager op overhead on cpu (median us/call)
case                             tfcompat        torch   ratio  limit
add_2x2                            1.93us       2.04us    0.95   2.00
matmul_2x2                         1.30us       0.80us    1.62   2.00
add_then_numpy                     8.29us       5.63us    1.47   2.00
tape_w*w_gradient                 16.20us      16.50us    0.98   1.50
linreg_sgd_step                   77.00us      56.00us    1.38   1.50
all within limits
""",
    "train_step": "seed train step, batch 32, cpu: tfcompat 2.50 ms/step, torch (channels_last) 2.40 ms/step, "
                  "ratio 1.04 (limit 1.15)\n",
    "function": """MLP step, batch 64:
eager tfcompat                       180.0 us/step   1.50x eager torch  (spread 170.0-190.0)
tf.function                          110.0 us/step   0.92x eager torch  (spread 100.0-120.0)
tf.function(jit_compile=True)         96.0 us/step   0.80x eager torch  (spread 90.0-99.0)
eager torch                          120.0 us/step   1.00x eager torch  (spread 115.0-125.0)
replay overhead: -0.40 us per recorded op (25 ops) over eager torch
seed convnet step, batch 32:
convnet eager tfcompat                2.60 ms/step   1.08x eager torch  (spread 2.50-2.70)
convnet tf.function                   2.30 ms/step   0.96x eager torch  (spread 2.20-2.40)
convnet eager torch                   2.40 ms/step   1.00x eager torch  (spread 2.30-2.50)
replay overhead: -1.50 us per recorded op (60 ops) over eager torch
""",
    "keras_fit": """tfcompat fit: 0.830s  torch loop: 0.790s  ratio: 1.050x (median of paired runs; goal <= 1.25x)
tfcompat fit (run_eagerly=True): 0.900s  ratio: 1.139x  tf.function/eager: 0.922x
tfcompat fit (jit_compile=True): 0.600s  ratio to torch: 0.759x  to eager fit: 0.723x  (warm-up fit with compile: 9.1s)
""",
    "data": """MNIST, batch 32, cpu, median of 5 interleaved epochs
pipeline                 examples  tfcompat s   torch s  ratio  limit
shuffle(full).batch         60000      0.2949    0.6306   0.48   1.00
map+batch+prefetch          12000      2.4750    1.3852   1.79      -
""",
    "rnn": """Keras LSTM(64) fit step, 100 steps, batch 32, cpu: tfcompat 18.4 ms  torch nn.LSTM 9.3 ms  ratio: 1.98
Keras GRU(64) fit step, 100 steps, batch 32, cpu: tfcompat 20.1 ms  torch nn.GRU 11.0 ms  ratio: 1.83
""",
    "summary": """tf.summary.scalar (tfcompat)       x100000: 0.600 s (6.0 us/scalar)
torch SummaryWriter.add_scalar     x100000: 3.300 s (33.0 us/scalar)
ratio tfcompat / torch: 0.18x
""",
    "tape_memory": "10000 tape steps: RSS 310.2 MB -> 310.4 MB (growth +0.2 MB), Python objects 81234 -> 81240\n",
    "memory": """fit, 60000 MNIST examples, 1 epoch(s), batch 32, cpu
tfcompat fit   peak RSS   530.4 MB  (after loading the data   400.1 MB, growth  130.3 MB)
torch loop     peak RSS   505.7 MB  (after loading the data   400.2 MB, growth  105.5 MB)
peak RSS ratio tfcompat/torch: 1.05 (limit 1.10)
""",
    "signal": """tf.signal on cpu (median us/call)
case                             tfcompat        torch   ratio  limit
rfft_1024                          9.10us       7.60us    1.20   1.25
""",
    "soak": """start of process: 300.0 MB
tape steps x10000                  start    310.0 MB  end    310.5 MB  growth    +0.5 MB    (objects +3)
""",
    "seed_accuracy": """tfcompat epoch 0: test accuracy 0.4012 (8s)
tfcompat epoch 2: test accuracy 0.6123 (23s)
""",
    "distribute": """tfcompat             50.0 steps/s  (3.00 s for 150 steps)
ddp                  55.0 steps/s  (2.73 s for 150 steps)
tfcompat-nocomm      60.0 steps/s  (2.50 s for 150 steps)
tfcompat / DDP time: 1.10x (goal <= 1.15x)
""",
}

EXPECTED = {
    "import": [("`import`, whole process", "1.14 s", "1.05 s", "1.08")],
    "eager_ops": [("`tf.add` on 2x2 int32", "1.9 us", "2.0 us", "0.95"),
                  ("`tf.matmul` on 2x2 int32", "1.3 us", "0.8 us", "1.62"),
                  ("`tf.add(...).numpy()` on 2x2 int32", "8.3 us", "5.6 us", "1.47"),
                  ("tape `w * w` + `gradient`", "16 us", "16 us", "0.98"),
                  ("seed linear-model SGD step", "77 us", "56 us", "1.38")],
    "train_step": [("seed convnet train step, batch 32", "2.5 ms", "2.4 ms (channels_last)", "1.04")],
    "function": [("MLP step, eager", "180 us", "120 us (eager)", "1.50"),
                 ("MLP step in `tf.function`", "110 us", "120 us (eager)", "0.92"),
                 ("MLP step in `tf.function(jit_compile=True)`", "96 us", "120 us (eager)", "0.80"),
                 ("seed convnet step, eager", "2.6 ms", "2.4 ms (eager)", "1.08"),
                 ("seed convnet step in `tf.function`", "2.3 ms", "2.4 ms (eager)", "0.96"),
                 ("`tf.function` replay overhead per recorded op, MLP step (25 ops)", "-0.40 us", "", ""),
                 ("`tf.function` replay overhead per recorded op, seed convnet step (60 ops)", "-1.50 us", "", "")],
    "keras_fit": [("`fit`, 1 epoch of 9600 samples", "0.83 s", "0.79 s (hand-written loop)", "1.05"),
                  ("`fit(run_eagerly=True)`, same epoch", "0.90 s", "", "1.14"),
                  ("`fit(jit_compile=True)`, same epoch", "0.60 s", "", "0.76")],
    "data": [("tf.data MNIST epoch, `shuffle(60000).batch(32)`, 60000 examples", "0.29 s",
              "0.63 s (batched DataLoader)", "0.48"),
             ("tf.data Python `map` + `batch` + `prefetch`, 12000 examples", "2.48 s", "1.39 s (DataLoader)", "1.79")],
    "rnn": [("Keras `LSTM(64)` `fit` step, 100 time steps, batch 32", "18 ms", "9.3 ms (`nn.LSTM`)", "1.98"),
            ("Keras `GRU(64)` `fit` step, 100 time steps, batch 32", "20 ms", "11 ms (`nn.GRU`)", "1.83")],
    "summary": [("100,000 `tf.summary.scalar`", "0.60 s", "3.30 s (SummaryWriter)", "0.18")],
    "tape_memory": [("10,000 tape steps, RSS growth", "+0.2 MB", "", "")],
    "memory": [("`fit` on MNIST, peak RSS", "530 MB", "506 MB (hand-written loop)", "1.05")],
    "signal": [("`tf.signal.rfft` of 1024 samples", "9.1 us", "7.6 us", "1.20")],
    "soak": [("soak: tape steps x10000, RSS growth", "+0.5 MB", "", "")],
    "seed_accuracy": [("seed guide, 3 MNIST epochs: test accuracy (time)", "0.61 (23 s)", "", "")],
    "distribute": [("MultiWorkerMirroredStrategy `fit`, 2 processes", "50.0 steps/s", "55.0 steps/s (DDP)", "1.10")],
}


@pytest.mark.parametrize("name", sorted(run_all.BENCHES))
def test_each_benchmark_output_parses_into_rows(name):
    rows = run_all.BENCHES[name].parse(CANNED[name])
    assert [(r.measure, r.tfcompat, r.torch, r.ratio) for r in rows] == EXPECTED[name]


def test_output_without_figures_gives_no_rows():
    for bench in run_all.BENCHES.values():
        assert bench.parse("Traceback (most recent call last):\nRuntimeError: boom\n") == []


def test_render_puts_tensorflow_figures_in_their_column():
    table = run_all.render(run_all.parse_import(CANNED["import"]) + run_all.parse_tape_memory(CANNED["tape_memory"]))
    assert table.splitlines() == [
        "| measure | TensorFlow 2.21 | tfcompat | plain torch | tfcompat / torch |",
        "|---|---:|---:|---:|---:|",
        "| `import`, whole process | 6.76 s | 1.14 s | 1.05 s | 1.08 |",
        "| 10,000 tape steps, RSS growth |  | +0.2 MB |  |  |",
    ]
    assert run_all.parse_table(table) == [run_all.Row("`import`, whole process", "1.14 s", "1.05 s", "1.08"),
                                          run_all.Row("10,000 tape steps, RSS growth", "+0.2 MB", "", "")]


def test_readme_block_is_rewritten_and_unmeasured_rows_are_kept():
    old = [run_all.Row("`import`, whole process", "9.00 s", "8.00 s", "1.12"), run_all.Row("kept row", "1 s", "", ""),
           run_all.Row("`tf.add` on 2x2 int32", "9 us", "9 us", "1.00")]
    text = f"intro\n{run_all.BEGIN}\nold note\n\n{run_all.render(old)}\n{run_all.END}\nafter\n"
    new = run_all.parse_import(CANNED["import"]) + run_all.parse_summary(CANNED["summary"])
    out = run_all.rewrite_readme(text, new, "new note")
    assert out.startswith(f"intro\n{run_all.BEGIN}\nnew note\n\n|") and out.endswith(f"|\n{run_all.END}\nafter\n")
    assert [r.measure for r in run_all.parse_table(out)] == [
        "`import`, whole process", "100,000 `tf.summary.scalar`", "kept row", "`tf.add` on 2x2 int32"]
    assert run_all.parse_table(out)[0].tfcompat == "1.14 s"
    with pytest.raises(SystemExit, match="no block"):
        run_all.rewrite_readme("no markers\n", new, "note")


def test_a_measure_naming_a_new_op_count_replaces_its_old_row():
    # the replay-overhead rows name the step's recorded ops, which change with the code
    old = [run_all.Row("`tf.function` replay overhead per recorded op, seed convnet step (101 ops)", "-1.93 us"),
           run_all.Row("kept row", "1 s")]
    new = [run_all.Row("`tf.function` replay overhead per recorded op, seed convnet step (99 ops)", "-7.11 us")]
    assert run_all.merge(old, new) == new + old[1:]


def test_the_readme_has_the_block():
    with open(run_all.README) as f:
        text = f.read()
    start, stop = text.find(run_all.BEGIN), text.find(run_all.END)
    assert 0 <= start < stop
    assert run_all.parse_table(text[start:stop])


def test_commands_pass_the_device_and_quick_arguments():
    argv = run_all.command(run_all.BENCHES["train_step"], "cuda", quick=True)
    assert argv[-4:] == ["--steps", "30", "--device", "cuda"]
    assert run_all.command(run_all.BENCHES["distribute"], "cuda", quick=False)[-1] == "--cuda"
    assert "--cuda" not in run_all.command(run_all.BENCHES["distribute"], "cpu", quick=False)
    assert run_all.command(run_all.BENCHES["seed_accuracy"], "cpu", quick=True) is None
    assert run_all.command(run_all.BENCHES["function"], "cuda", quick=False)[-2:] == ["--device", "cuda"]
    assert run_all.command(run_all.BENCHES["import"], "cuda", quick=False)[-1].endswith("bench_import.py")
    with pytest.raises(SystemExit, match="unknown benchmarks"):
        run_all.main(["--only", "nope"])


def test_a_spent_budget_runs_nothing(capsys):
    assert run_all.main(["--only", "import,data", "--budget", "5"]) == 1
    out = capsys.readouterr().out
    assert "import         not run (--budget spent)" in out and "data           not run (--budget spent)" in out
