"""tf.function replay vs eager: one MLP training step (Dense 64 relu, Dense 10, softmax cross-entropy, SGD,
batch 64), timed as eager tfcompat, tf.function, tf.function(jit_compile=True) and plain eager torch; then the seed
convnet train step (`bench_train_step.py`) as eager torch (channels_last), eager tfcompat and tf.function.

    python bench/bench_function.py [--rounds 7] [--no-convnet] [--device cpu|cuda]

The variants run in interleaved windows (one window of each per round, so load changes hit them alike); each line
gives the median of the rounds' per-step medians and their spread (min-max), and the replay's overhead per recorded
op: (tf.function - eager torch) / recorded aten ops."""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import tfcompat as tf  # before torch, as a TF program imports it: its OpenMP wait policy holds for both sides
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_train_step  # noqa: E402 the convnet step shared with bench_train_step.py


def interleaved(fns, rounds, n, warmup=20, sync=None):
    """{name: (median us/step, min, max)} over `rounds` rounds of one `n`-call window of each fn (`sync` waits
    for the device after each call)."""
    sync = sync or (lambda: None)
    for fn in fns.values():
        for _ in range(warmup):
            fn()
        sync()
    windows = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            times = []
            for _ in range(n):
                t0 = time.perf_counter()
                fn()
                sync()
                times.append(time.perf_counter() - t0)
            windows[name].append(statistics.median(times) * 1e6)
    return {name: (statistics.median(w), min(w), max(w)) for name, w in windows.items()}


def _tf_step():
    rng = np.random.default_rng(0)
    w1 = tf.Variable(rng.normal(size=(32, 64)).astype("float32") * 0.1)
    b1 = tf.Variable(np.zeros(64, "float32"))
    w2 = tf.Variable(rng.normal(size=(64, 10)).astype("float32") * 0.1)
    b2 = tf.Variable(np.zeros(10, "float32"))
    params = [w1, b1, w2, b2]

    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, w1) + b1)
            logits = tf.matmul(h, w2) + b2
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(0.01 * g)
        return loss
    return step


def _torch_step(device):
    g = torch.Generator().manual_seed(0)
    w1 = (torch.randn(32, 64, generator=g) * 0.1).to(device).requires_grad_()
    b1 = torch.zeros(64, device=device, requires_grad=True)
    w2 = (torch.randn(64, 10, generator=g) * 0.1).to(device).requires_grad_()
    b2 = torch.zeros(10, device=device, requires_grad=True)
    params = [w1, b1, w2, b2]

    def step(x, y):
        h = torch.relu(x @ w1 + b1)
        loss = torch.nn.functional.cross_entropy(h @ w2 + b2, y)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, gr in zip(params, grads):
                p.sub_(0.01 * gr)
        return loss
    return step


def recorded_ops(function):
    """The aten ops (and guards) of a tf.function's one recorded program."""
    program = next(iter(function._concrete[0]._programs.values()))
    return sum(step["op"] != "guard_array" for step in program.steps)


def report(title, results, base, traced, ops):
    print(title)
    for name, (us, lo, hi) in results.items():
        print(f"{name:32s} {us:9.1f} us/step  {us / base:5.2f}x eager torch  (spread {lo:.1f}-{hi:.1f})")
    print(f"replay overhead: {(results[traced][0] - base) / ops:+.2f} us per recorded op ({ops} ops) over eager torch")


def _sync(device):
    return torch.cuda.synchronize if device == "cuda" else None


def _tf_device(device):
    return "/gpu:0" if device == "cuda" else "/cpu:0"


def mlp(rounds, device):
    rng = np.random.default_rng(1)
    xn = rng.normal(size=(64, 32)).astype("float32")
    yn = rng.integers(0, 10, size=64).astype("int32")
    xt, yt = torch.from_numpy(xn).to(device), torch.from_numpy(yn).long().to(device)
    torch_step = _torch_step(device)
    with tf.device(_tf_device(device)):
        x, y = tf.constant(xn), tf.constant(yn)
        eager = _tf_step()
        traced = tf.function(_tf_step())
        jitted = tf.function(_tf_step(), jit_compile=True)
        results = interleaved({
            "eager tfcompat": lambda: eager(x, y),
            "tf.function": lambda: traced(x, y),
            "tf.function(jit_compile=True)": lambda: jitted(x, y),
            "eager torch": lambda: torch_step(xt, yt),
        }, rounds, 200, sync=_sync(device))
    report(f"MLP step, batch 64, {device}:", results, results["eager torch"][0], "tf.function",
           recorded_ops(traced))


def convnet(rounds, device):
    x, y = bench_train_step.load(64)
    step, to_inputs = bench_train_step.tfcompat_step(_tf_device(device))
    t_step, t_inputs = bench_train_step.torch_step(device)
    traced = tf.function(bench_train_step.tfcompat_step(_tf_device(device))[0])
    batch, t_batch = to_inputs(x[:32], y[:32]), t_inputs(x[:32], y[:32])
    with tf.device(_tf_device(device)):
        results = interleaved({
            "convnet eager tfcompat": lambda: step(*batch),
            "convnet tf.function": lambda: traced(*batch),
            "convnet eager torch": lambda: t_step(*t_batch),
        }, rounds, 20, warmup=5, sync=_sync(device))
    ms = {k: (v[0] / 1e3, v[1] / 1e3, v[2] / 1e3) for k, v in results.items()}
    base = ms["convnet eager torch"][0]
    print(f"seed convnet step, batch 32, {device}:")
    for name, (t, lo, hi) in ms.items():
        print(f"{name:32s} {t:9.2f} ms/step  {t / base:5.2f}x eager torch  (spread {lo:.2f}-{hi:.2f})")
    ops = recorded_ops(traced)
    print(f"replay overhead: {(results['convnet tf.function'][0] - results['convnet eager torch'][0]) / ops:+.2f} us "
          f"per recorded op ({ops} ops) over eager torch")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--no-convnet", action="store_true")
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    a = p.parse_args()
    mlp(a.rounds, a.device)
    if not a.no_convnet:
        convnet(a.rounds, a.device)


if __name__ == "__main__":
    main()
