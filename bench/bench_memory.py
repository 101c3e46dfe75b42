"""Peak resident memory of `fit` on MNIST against the hand-written torch loop doing the same work (limit 1.1x).

    python bench/bench_memory.py [--examples 60000] [--epochs 1] [--steps N] [--device cpu|cuda]

Each side runs in its own fresh process (the seed's convnet, batch 32, Adam, sparse cross-entropy from logits, the
MNIST training arrays as float32 NHWC) and reports its peak RSS (`getrusage`'s `ru_maxrss`), its RSS once the data
is loaded (before the model exists) and, on CUDA, the peak GPU memory torch allocated. `--steps N` stops each
epoch after N batches (`steps_per_epoch`): the data is still taken in whole, in a fraction of the time.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCH = 32


def rss_mb():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2 ** 20


def load(n):
    """The first `n` training examples as float32 NHWC in [0, 1], converted without a float64 intermediate (so
    that loading the data does not set the peak)."""
    with np.load(os.path.join(ROOT, "tfcompat", "_resources", "mnist.npz")) as f:
        x, y = f["x_train"][:n], f["y_train"][:n]
    x = x[..., None].astype("float32")
    x /= 255.0
    return x, y.astype("int64")


def fit_tfcompat(x, y, epochs, steps, device):
    import tfcompat as tf
    keras = tf.keras
    with tf.device("/gpu:0" if device == "cuda" else "/cpu:0"):
        model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(16, 3, activation="relu"),
                                  keras.layers.Conv2D(16, 3, activation="relu"),
                                  keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
        model.fit(x, y, batch_size=BATCH, epochs=epochs, steps_per_epoch=steps, verbose=0)


def fit_torch(x, y, epochs, steps, device):
    import torch
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3), torch.nn.ReLU(), torch.nn.Conv2d(16, 16, 3), torch.nn.ReLU(),
                              torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 10))
    net = net.to(device=device, memory_format=torch.channels_last)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-7)
    xt, yt = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
    n = len(y)
    stop = n if steps is None else min(n, steps * BATCH)
    for _ in range(epochs):
        perm = torch.randperm(n, device=device)
        correct = torch.zeros((), device=device)
        total = torch.zeros((), device=device)
        for i in range(0, stop, BATCH):
            idx = perm[i:i + BATCH]
            xb = xt.index_select(0, idx).permute(0, 3, 1, 2)
            yb = yt.index_select(0, idx)
            logits = net(xb)
            loss = torch.nn.functional.cross_entropy(logits, yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                total += loss.detach() * len(idx)
                correct += (logits.argmax(1) == yb).sum()
        float(total)


def child(side, examples, epochs, steps, device):
    """Runs one side and prints its figures as one JSON line."""
    import torch
    x, y = load(examples)
    loaded = rss_mb()
    (fit_tfcompat if side == "tfcompat" else fit_torch)(x, y, epochs, steps, device)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gpu = torch.cuda.max_memory_allocated() / 2 ** 20 if device == "cuda" else None
    print(json.dumps({"peak_mb": peak, "loaded_mb": loaded, "gpu_peak_mb": gpu}))


def measure(side, a):
    steps = ["--steps", str(a.steps)] if a.steps else []
    out = subprocess.run([sys.executable, __file__, "--child", side, "--examples", str(a.examples), "--epochs",
                          str(a.epochs), "--device", a.device, *steps], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--examples", type=int, default=60000)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--steps", type=int, default=None, help="batches per epoch (default: the whole data)")
    p.add_argument("--runs", type=int, default=1, help="processes per side (the peak is steady; medians)")
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    p.add_argument("--child", choices=("tfcompat", "torch"), help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return child(a.child, a.examples, a.epochs, a.steps, a.device)
    results = {side: [measure(side, a) for _ in range(a.runs)] for side in ("torch", "tfcompat")}
    med = {side: {k: statistics.median(r[k] for r in rs) if rs[0][k] is not None else None for k in rs[0]}
           for side, rs in results.items()}
    ours, theirs = med["tfcompat"], med["torch"]
    ratio = ours["peak_mb"] / theirs["peak_mb"]
    steps = f", {a.steps} steps per epoch" if a.steps else ""
    print(f"fit, {a.examples} MNIST examples, {a.epochs} epoch(s){steps}, batch {BATCH}, {a.device}")
    for side, r in (("tfcompat fit", ours), ("torch loop", theirs)):
        gpu = f"  GPU peak {r['gpu_peak_mb']:7.1f} MB" if r["gpu_peak_mb"] is not None else ""
        print(f"{side:14s} peak RSS {r['peak_mb']:7.1f} MB  (after loading the data {r['loaded_mb']:7.1f} MB, "
              f"growth {r['peak_mb'] - r['loaded_mb']:6.1f} MB){gpu}")
    print(f"peak RSS ratio tfcompat/torch: {ratio:.2f} (limit 1.10){'  OVER' if ratio > 1.10 else ''}")


if __name__ == "__main__":
    sys.exit(main())
