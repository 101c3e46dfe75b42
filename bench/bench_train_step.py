"""The seed's custom training step (Conv2D 16, Conv2D 16, GlobalAveragePooling2D, Dense 10, Adam,
sparse cross-entropy, batch 32) in tfcompat and in plain torch (channels_last), in one process.

    python bench/bench_train_step.py [--steps 200] [--device cpu|cuda]

Prints ms/step for both (median of the windows: the two steps run in interleaved windows, one of each per round,
so load changes hit them alike), the ratio of the medians with the spread of the per-round ratios (limit 1.10x).
Both run under the OpenMP wait policy `import tfcompat` sets (a bounded spin on a quiet machine, PASSIVE on a busy
one; see tfcompat/_thread_policy.py), which needs tfcompat imported before torch: under libgomp's default spin, other
busy processes made the 2-thread steps of both 10-30x slower at random (93-299 ms/step against 8.8-33 with PASSIVE,
load 7), swamping the ratio.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import tfcompat  # noqa: F401 - before torch, as a TF program imports it: its OpenMP wait policy holds for both sides
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(n):
    with np.load(os.path.join(ROOT, "tfcompat", "_resources", "mnist.npz")) as f:
        x, y = f["x_train"][:n], f["y_train"][:n]
    return (x[..., None] / 255).astype("float32"), y.astype("int64")


def interleaved(runs, sync, rounds=5):
    """{name: (median ms/step, per-round ms/step)}: after 10 warm-up steps each, `rounds` rounds of one window of
    each `(step, batches)` in `runs`."""
    for step, batches in runs.values():
        for b in batches[:10]:
            step(*b)
    sync()
    window = max(1, (min(len(b) for _, b in runs.values()) - 10) // rounds)
    times = {name: [] for name in runs}
    for w in range(rounds):
        for name, (step, batches) in runs.items():
            chunk = batches[10 + w * window: 10 + (w + 1) * window]
            t0 = time.perf_counter()
            for b in chunk:
                step(*b)
            sync()
            times[name].append((time.perf_counter() - t0) / len(chunk) * 1e3)
    return {name: (statistics.median(t), t) for name, t in times.items()}


def tfcompat_step(device):
    import tfcompat as tf
    tf.random.set_seed(0)
    with tf.device(device):
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(16, [3, 3], activation="relu"),
            tf.keras.layers.Conv2D(16, [3, 3], activation="relu"),
            tf.keras.layers.GlobalAveragePooling2D(),
            tf.keras.layers.Dense(10),
        ])
    optimizer = tf.keras.optimizers.Adam()
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_object(y, logits)
        grads = tape.gradient(loss_value, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss_value

    def to_inputs(x, y):
        with tf.device(device):
            return tf.constant(x), tf.constant(y)
    return step, to_inputs


def torch_step(device):
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 16, 3), torch.nn.ReLU(), torch.nn.Conv2d(16, 16, 3), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 10),
    ).to(device=device, memory_format=torch.channels_last)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    lossf = torch.nn.CrossEntropyLoss()

    def step(x, y):
        opt.zero_grad(set_to_none=True)
        loss = lossf(model(x), y)
        loss.backward()
        opt.step()
        return loss

    def to_inputs(x, y):
        return (torch.from_numpy(x).to(device).permute(0, 3, 1, 2), torch.from_numpy(y).to(device))
    return step, to_inputs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    a = p.parse_args()
    x, y = load(a.steps * a.batch)
    sync = torch.cuda.synchronize if a.device == "cuda" else (lambda: None)
    raw = [(x[i:i + a.batch], y[i:i + a.batch]) for i in range(0, len(x), a.batch)]
    runs = {}
    for name, make in (("torch", torch_step), ("tfcompat", tfcompat_step)):
        step, to_inputs = make("/gpu:0" if (a.device == "cuda" and name == "tfcompat") else
                               ("/cpu:0" if name == "tfcompat" else a.device))
        runs[name] = (step, [to_inputs(*b) for b in raw])
    results = interleaved(runs, sync)
    (t_ours, ours), (t_torch, theirs) = results["tfcompat"], results["torch"]
    ratios = [o / t for o, t in zip(ours, theirs)]
    print(f"seed train step, batch {a.batch}, {a.device}: tfcompat {t_ours:.2f} ms/step, torch (channels_last) "
          f"{t_torch:.2f} ms/step, ratio {t_ours / t_torch:.2f} (limit 1.10; per-round ratios "
          f"{min(ratios):.2f}-{max(ratios):.2f}, {torch.get_num_threads()} threads)")


if __name__ == "__main__":
    sys.exit(main())
