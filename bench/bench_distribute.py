"""MultiWorkerMirroredStrategy `fit` of the seed's convnet with 2 processes vs torch DDP with 2 processes doing the
same work (global batch 64, 32 per worker, Adam, sparse CE from logits), in one run; prints steps per second, the
ratio (goal <= 1.15x) and the all-reduce overhead per step against the same 2 processes with their collectives
skipped (each worker keeps its local sums: the same code and compute without communication), with the time
tfcompat's workers spend inside collectives per step (transfer plus waiting for the peer).

`python bench/bench_distribute.py [--steps N] [--repeats R] [--cuda]`: the driver starts each case's 2 workers
itself (RANK, WORLD_SIZE, MASTER_ADDR/PORT), R rounds of the three cases interleaved (the order rotating), and
reports each figure's median and range over the rounds (the ratio and overhead are taken within each round, so
a load change between rounds cancels); `--cuda` runs on GPUs 0 and 1 with NCCL (needs 2 GPUs: NCCL refuses two
ranks on one GPU)."""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import time

import numpy as np
import tfcompat  # noqa: F401 - before torch, as a TF program imports it: its OpenMP wait policy holds for every case
import torch

GLOBAL_BATCH = 64
CASES = ("tfcompat", "ddp", "tfcompat-nocomm")


def data(steps):
    path = os.path.join(os.path.dirname(__file__), "..", "tfcompat", "_resources", "mnist.npz")
    n = steps * GLOBAL_BATCH
    with np.load(path) as f:
        x, y = f["x_train"][:n], f["y_train"][:n]
    return (x[..., None] / 255.0).astype("float32"), y.astype("int64")


def _time_collectives(skip):
    """Counts the calls of tfcompat's collectives and the seconds spent in them (from here on); `skip`: the calls
    return at once, each worker keeping its own values (the same run without communication)."""
    from tfcompat.distribute.cross_device_ops import Collective
    spent = [0, 0.0]
    call = Collective._call

    def timed(self, fn, *args):
        t = time.perf_counter()
        try:
            return None if skip else call(self, fn, *args)
        finally:
            spent[0] += 1
            spent[1] += time.perf_counter() - t
    Collective._call = timed
    return spent


def run_tfcompat(x, y, communicate):
    import tfcompat as tf
    keras = tf.keras
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(16, 3, activation="relu"),
                                  keras.layers.Conv2D(16, 3, activation="relu"),
                                  keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    model.fit(x[:GLOBAL_BATCH * 5], y[:GLOBAL_BATCH * 5], batch_size=GLOBAL_BATCH, epochs=1, verbose=0,
              shuffle=False)   # warm-up (and the trace)
    spent = _time_collectives(skip=not communicate)
    t = time.perf_counter()
    model.fit(x, y, batch_size=GLOBAL_BATCH, epochs=1, verbose=0, shuffle=False)
    seconds = time.perf_counter() - t
    if communicate:
        print(f"COLLECTIVES {spent[0]} {spent[1]:.6f}", flush=True)
    return seconds


def run_ddp(x, y, device):
    import torch.distributed as dist
    rank = int(os.environ["RANK"])
    dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3), torch.nn.ReLU(), torch.nn.Conv2d(16, 16, 3), torch.nn.ReLU(),
                              torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 10))
    net = net.to(device, memory_format=torch.channels_last)
    ddp = torch.nn.parallel.DistributedDataParallel(net)
    opt = torch.optim.Adam(ddp.parameters(), lr=1e-3, eps=1e-7)
    xt, yt = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)

    def epoch(n):
        total = torch.zeros((), device=device)
        for i in range(0, n, GLOBAL_BATCH):
            xb = xt[i + rank * 32:i + rank * 32 + 32].permute(0, 3, 1, 2)
            yb = yt[i + rank * 32:i + rank * 32 + 32]
            loss = torch.nn.functional.cross_entropy(ddp(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.detach()
        float(total)
    epoch(GLOBAL_BATCH * 5)
    t = time.perf_counter()
    epoch(len(x))
    return time.perf_counter() - t


def worker(case, steps, cuda):
    x, y = data(steps)
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"])) if cuda else torch.device("cpu")
    if case == "ddp":
        seconds = run_ddp(x, y, device)
    else:
        seconds = run_tfcompat(x, y, communicate=case == "tfcompat")
    print(f"RESULT {seconds:.6f}", flush=True)


def launch(case, steps, cuda):
    """(seconds of the slower worker, [collective calls, seconds in them] of worker 0 or None)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    procs = []
    for rank in range(2):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", LOCAL_RANK=str(rank), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(port), OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
        cmd = [sys.executable, __file__, "--worker", case, "--steps", str(steps)] + (["--cuda"] if cuda else [])
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    outs = [p.communicate()[0] for p in procs]
    times = [float(line.split()[1]) for out in outs for line in out.splitlines() if line.startswith("RESULT")]
    if len(times) != 2:
        raise RuntimeError(f"{case} failed:\n" + "\n".join(outs))
    collectives = [line.split()[1:] for line in outs[0].splitlines() if line.startswith("COLLECTIVES")]
    return max(times), ([int(collectives[0][0]), float(collectives[0][1])] if collectives else None)


def _spread(values, fmt, unit=""):
    """'<median><unit> (range <min>-<max>)': the median first, where bench/run_all.py's parser reads it."""
    return f"{fmt.format(statistics.median(values))}{unit} (range {fmt.format(min(values))}-{fmt.format(max(values))})"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=150)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--cuda", action="store_true")
    p.add_argument("--worker", choices=CASES)
    a = p.parse_args()
    if a.worker:
        return worker(a.worker, a.steps, a.cuda)
    times = {case: [] for case in CASES}
    ratios, overheads, in_collectives, calls = [], [], [], []
    for r in range(a.repeats):
        order = CASES[r % len(CASES):] + CASES[:r % len(CASES)]
        round_times = {}
        for case in order:
            round_times[case], spent = launch(case, a.steps, a.cuda)
            times[case].append(round_times[case])
            if spent is not None:
                calls.append(spent[0] / a.steps)
                in_collectives.append(spent[1] / a.steps * 1e3)
        ratios.append(round_times["tfcompat"] / round_times["ddp"])
        overheads.append((round_times["tfcompat"] - round_times["tfcompat-nocomm"]) / a.steps * 1e3)
    print(f"{a.steps} steps per run, {a.repeats} interleaved rounds: medians (range)")
    for case in CASES:
        print(f"{case:16s} {_spread([a.steps / t for t in times[case]], '{:.1f}', ' steps/s')}")
    ratio = statistics.median(ratios)
    print(f"tfcompat / DDP time: {_spread(ratios, '{:.2f}', 'x')} (goal <= 1.15x){'  OVER' if ratio > 1.15 else ''}")
    print(f"all-reduce overhead per step (vs no communication): {_spread(overheads, '{:.2f}', ' ms')}")
    print(f"time in collectives per step (worker 0, {statistics.median(calls):.1f} calls per step): "
          f"{_spread(in_collectives, '{:.2f}', ' ms')}")


if __name__ == "__main__":
    main()
