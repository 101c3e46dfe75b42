"""tf.data against a batched torch DataLoader doing the same work on MNIST, in one process.

    python bench/bench_data.py [--runs 5] [--batch-size 32] [--map-examples 12000] [--device cpu|cuda]

Two pipelines, each timed as one pass (epoch) over the data, medians of `--runs` interleaved epochs:
- `shuffle(full).batch`: `from_tensor_slices((x, y)).shuffle(60000).batch(32)` against a `DataLoader` over a
  `BatchSampler(RandomSampler(...))` whose dataset indexes the arrays once per batch (the fastest idiomatic
  torch input path; both draw a uniform permutation per epoch). Goal: at most 1.0x.
- `map+batch+prefetch`: the same shuffle, then a Python-level map per element (scale to [-1, 1] and flip the
  label's parity bit), `batch(32)`, `prefetch(AUTOTUNE)`, against a `DataLoader(shuffle=True, batch_size=32)` whose
  dataset applies the same function in `__getitem__` (default collate), on `--map-examples` examples.
With `--device cuda` the arrays live on the GPU in both (tfcompat places NumPy inputs on the GPU by default).
"""
import argparse
import os
import statistics
import time

import numpy as np
import tfcompat  # noqa: F401 - before torch, as a TF program imports it: its OpenMP wait policy holds for both sides
import torch

MNIST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tfcompat", "_resources",
                     "mnist.npz")


def load():
    with np.load(MNIST) as f:
        images, labels = f["x_train"], f["y_train"]
    return (images[..., None] / 255).astype(np.float32), labels.astype(np.int64)


def _epoch(iterable):
    """Seconds to draw every batch of one pass, and the number of examples seen."""
    start = time.perf_counter()
    n = 0
    for batch in iterable:
        n += batch[1].shape[0]
    return time.perf_counter() - start, n


def _map_fn(x, y):
    """The per-element map both pipelines run: pixels to [-1, 1], the label's lowest bit flipped."""
    return x * 2.0 - 1.0, y ^ 1


class _BatchArrays(torch.utils.data.Dataset):
    """Arrays indexed a whole batch at a time (the index list the BatchSampler yields)."""

    def __init__(self, *arrays):
        self.arrays = arrays

    def __len__(self):
        return len(self.arrays[0])

    def __getitem__(self, idx):
        i = torch.as_tensor(idx, device=self.arrays[0].device)
        return tuple(a.index_select(0, i) for a in self.arrays)


class _MappedRows(torch.utils.data.Dataset):
    """One row of each array at a time, through the map function."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return _map_fn(self.x[i], self.y[i])


def tfcompat_pipelines(x, y, batch_size, device):
    import tfcompat as tf
    with tf.device(device):
        plain = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(y)).batch(batch_size)
        mapped = (tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(y)).map(_map_fn).batch(batch_size)
                  .prefetch(tf.data.AUTOTUNE))
    return plain, mapped


def torch_pipelines(x, y, batch_size, device):
    from torch.utils.data import BatchSampler, DataLoader, RandomSampler
    xt, yt = torch.from_numpy(x).to(device), torch.from_numpy(y).to(device)
    arrays = _BatchArrays(xt, yt)
    plain = DataLoader(arrays, batch_size=None, sampler=BatchSampler(RandomSampler(arrays), batch_size, False))
    mapped = DataLoader(_MappedRows(xt, yt), batch_size=batch_size, shuffle=True)
    return plain, mapped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--map-examples", type=int, default=12000)
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    args = parser.parse_args()
    x, y = load()
    m = args.map_examples
    tf_plain, _ = tfcompat_pipelines(x, y, args.batch_size, "/gpu:0" if args.device == "cuda" else "/cpu:0")
    _, tf_mapped = tfcompat_pipelines(x[:m], y[:m], args.batch_size, "/gpu:0" if args.device == "cuda" else "/cpu:0")
    torch_plain, _ = torch_pipelines(x, y, args.batch_size, args.device)
    _, torch_mapped = torch_pipelines(x[:m], y[:m], args.batch_size, args.device)
    cases = (("shuffle(full).batch", tf_plain, torch_plain, len(y), 1.0),
             ("map+batch+prefetch", tf_mapped, torch_mapped, m, None))
    print(f"MNIST, batch {args.batch_size}, {args.device}, median of {args.runs} interleaved epochs")
    print(f"{'pipeline':24s} {'examples':>8s} {'tfcompat s':>11s} {'torch s':>9s} {'ratio':>6s} {'limit':>6s}")
    for name, ours, theirs, n, limit in cases:
        _epoch(ours), _epoch(theirs)     # warm-up
        a, b = [], []
        for _ in range(args.runs):      # interleaved, so that machine noise hits both alike
            t, seen = _epoch(ours)
            assert seen == n, (name, seen)
            a.append(t)
            t, seen = _epoch(theirs)
            assert seen == n, (name, seen)
            b.append(t)
        ratio = statistics.median(p / q for p, q in zip(a, b))
        over = "  OVER" if limit is not None and ratio > limit else ""
        lim = f"{limit:.2f}" if limit is not None else "-"
        print(f"{name:24s} {n:8d} {statistics.median(a):11.4f} {statistics.median(b):9.4f} {ratio:6.2f} {lim:>6s}"
              f"{over}")


if __name__ == "__main__":
    main()
