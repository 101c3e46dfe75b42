"""Recurrent layers: one `fit` epoch of a Keras LSTM(64) and GRU(64) classifier on (32, 100, 32) sequences (batch 32,
Adam, sparse CE from logits, verbose=0) against a hand-written torch loop over `nn.LSTM`/`nn.GRU` (torch's fused
recurrent kernels) doing the same work; interleaved runs, medians and the ratio (no limit: tfcompat runs Keras's cell
step by step, as TF's CPU kernels do, where torch fuses the whole sequence).

    python bench/bench_rnn.py [--runs 5] [--batches 20] [--device cpu|cuda]

tfcompat is imported before torch, as in a TF program, so both sides run under its OpenMP wait policy."""
import argparse
import statistics
import time

import numpy as np
import tfcompat as tf  # noqa: I001 - before torch (see the docstring)
import torch

STEPS, FEATURES, UNITS, BATCH = 100, 32, 64, 32


def data(batches):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(BATCH * batches, STEPS, FEATURES)).astype("float32")
    return x, rng.integers(0, 2, size=BATCH * batches).astype("int64")


def keras_model(kind):
    keras = tf.keras
    layer = {"LSTM": keras.layers.LSTM, "GRU": keras.layers.GRU}[kind]
    model = keras.Sequential([keras.Input((STEPS, FEATURES)), layer(UNITS), keras.layers.Dense(2)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


def tfcompat_epoch(model, x, y, device):
    with tf.device(device):
        start = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0, shuffle=False)
        return time.perf_counter() - start


class TorchNet(torch.nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.rnn = {"LSTM": torch.nn.LSTM, "GRU": torch.nn.GRU}[kind](FEATURES, UNITS, batch_first=True)
        self.head = torch.nn.Linear(UNITS, 2)

    def forward(self, x):
        return self.head(self.rnn(x)[0][:, -1])


def torch_epoch(net, opt, x, y, device):
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    start = time.perf_counter()
    for i in range(0, len(x), BATCH):
        loss = torch.nn.functional.cross_entropy(net(xt[i:i + BATCH].to(device)), yt[i:i + BATCH].to(device))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    if device == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--batches", type=int, default=20)
    p.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    a = p.parse_args()
    x, y = data(a.batches)
    tf_device = "/gpu:0" if a.device == "cuda" else "/cpu:0"
    for kind in ("LSTM", "GRU"):
        model = keras_model(kind)
        net = TorchNet(kind).to(a.device)
        opt = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-7)
        tfcompat_epoch(model, x[:BATCH * 2], y[:BATCH * 2], tf_device)         # traces the step
        torch_epoch(net, opt, x[:BATCH * 2], y[:BATCH * 2], a.device)
        ours, theirs = [], []
        for _ in range(a.runs):
            ours.append(tfcompat_epoch(model, x, y, tf_device) / a.batches)
            theirs.append(torch_epoch(net, opt, x, y, a.device) / a.batches)
        ratio = statistics.median(o / t for o, t in zip(ours, theirs))
        print(f"Keras {kind}({UNITS}) fit step, {STEPS} steps, batch {BATCH}, {a.device}: tfcompat "
              f"{statistics.median(ours) * 1e3:.1f} ms  torch nn.{kind} {statistics.median(theirs) * 1e3:.1f} ms  "
              f"ratio: {ratio:.2f}")


if __name__ == "__main__":
    main()
