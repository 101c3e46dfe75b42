"""`fit` of the seed's convnet for one epoch (9600 MNIST samples, batch 32, Adam, sparse CE from logits, verbose=0)
vs a hand-written torch loop doing the same work (channels_last), 7 interleaved runs; prints the ratio (limit 1.05x: issue #19).
`fit` runs its step as a tf.function (Keras's default); the same fit with `run_eagerly=True` is timed in the same
interleaved runs, and both ratios printed.
Times Keras 3's torch backend too when `keras` is importable with KERAS_BACKEND=torch (never a dependency).
`--jit`: also times `fit` with `compile(jit_compile=True)` (one model, compiled once in a warm-up fit, then medians
of 3 epochs) and prints the compile time. `--device cuda`: both sides train on the GPU (the data stays in host
memory, each batch moved to the device, as `fit` on NumPy arrays does). tfcompat is imported before torch, as in a TF
program, so that both sides run under its OpenMP wait policy (see bench_train_step.py)."""
import os
import sys
import statistics
import time

import numpy as np
import tfcompat  # noqa: F401 - before torch, as a TF program imports it: its OpenMP wait policy holds for both sides
import torch

N, BATCH = 9600, 32
DEVICE = sys.argv[sys.argv.index("--device") + 1] if "--device" in sys.argv else "cpu"


def load():
    path = os.path.join(os.path.dirname(__file__), "..", "tfcompat", "_resources", "mnist.npz")
    with np.load(path) as f:
        x, y = f["x_train"][:N], f["y_train"][:N]
    return (x[..., None] / 255.0).astype("float32"), y.astype("int64")


def tfcompat_model(jit_compile="auto", run_eagerly=False):
    import tfcompat as tf
    keras = tf.keras
    model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(16, 3, activation="relu"),
                              keras.layers.Conv2D(16, 3, activation="relu"), keras.layers.GlobalAveragePooling2D(),
                              keras.layers.Dense(10)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"],
                  jit_compile=jit_compile, run_eagerly=run_eagerly)
    return model


def _sync():
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def tfcompat_fit(x, y, model=None):
    import tfcompat as tf
    with tf.device("/gpu:0" if DEVICE == "cuda" else "/cpu:0"):
        model = model or tfcompat_model()
        t = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
        _sync()
    return time.perf_counter() - t


def tfcompat_jit_fits(x, y, repeats=3):
    """(compile time, epoch times) of one `jit_compile=True` model: a 4-step warm-up fit traces and compiles."""
    model = tfcompat_model(jit_compile=True)
    compile_time = tfcompat_fit(x[:BATCH * 4], y[:BATCH * 4], model)
    return compile_time, [tfcompat_fit(x, y, model) for _ in range(repeats)]


def torch_fit(x, y):
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 16, 3), torch.nn.ReLU(), torch.nn.Conv2d(16, 16, 3), torch.nn.ReLU(),
                              torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 10))
    net = net.to(device=DEVICE, memory_format=torch.channels_last)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, eps=1e-7)   # foreach on CPU is slower here (_foreach_sqrt)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    t = time.perf_counter()
    perm = torch.randperm(N)
    correct = torch.zeros((), device=DEVICE)
    total = torch.zeros((), device=DEVICE)
    for i in range(0, N, BATCH):
        idx = perm[i:i + BATCH]
        xb = xt.index_select(0, idx).to(DEVICE).permute(0, 3, 1, 2)
        yb = yt.index_select(0, idx).to(DEVICE)
        logits = net(xb)
        loss = torch.nn.functional.cross_entropy(logits, yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        with torch.no_grad():
            total += loss.detach() * len(idx)
            correct += (logits.argmax(1) == yb).sum()
    float(total)
    _sync()
    return time.perf_counter() - t


def keras_torch_fit(x, y):
    os.environ["KERAS_BACKEND"] = "torch"
    import keras
    model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(16, 3, activation="relu"),
                              keras.layers.Conv2D(16, 3, activation="relu"), keras.layers.GlobalAveragePooling2D(),
                              keras.layers.Dense(10)])
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    t = time.perf_counter()
    model.fit(x, y, batch_size=BATCH, epochs=1, verbose=0)
    return time.perf_counter() - t


def main():
    x, y = load()
    tfcompat_fit(x[:BATCH * 4], y[:BATCH * 4])     # warm-up
    torch_fit(x, y)
    tfcompat_fit(x[:BATCH * 4], y[:BATCH * 4], tfcompat_model(run_eagerly=True))
    ours, eager, theirs = [], [], []
    for _ in range(7):          # interleaved, so that machine noise hits all alike
        ours.append(tfcompat_fit(x, y))
        eager.append(tfcompat_fit(x, y, tfcompat_model(run_eagerly=True)))
        theirs.append(torch_fit(x, y))
    tc, te, tt = statistics.median(ours), statistics.median(eager), statistics.median(theirs)
    ratio = statistics.median(a / b for a, b in zip(ours, theirs))
    ratio_eager = statistics.median(a / b for a, b in zip(eager, theirs))
    print(f"tfcompat fit: {tc:.3f}s  torch loop: {tt:.3f}s  ratio: {ratio:.3f}x (median of paired runs; "
          f"limit 1.05x){'  OVER' if ratio > 1.05 else ''}")
    print(f"tfcompat fit (run_eagerly=True): {te:.3f}s  ratio: {ratio_eager:.3f}x")
    print(f"tfcompat fit tf.function/eager ratio: {statistics.median(a / b for a, b in zip(ours, eager)):.3f}x "
          f"(goal < 1.0: the replayed step is faster than the eager one)")
    if "--jit" in sys.argv[1:]:
        compile_time, times = tfcompat_jit_fits(x, y)
        tj = statistics.median(times)
        print(f"tfcompat fit (jit_compile=True): {tj:.3f}s  ratio to torch: {tj / tt:.3f}x  "
              f"to eager fit: {tj / tc:.3f}x  (warm-up fit with compile: {compile_time:.1f}s)")
    try:
        import importlib.util
        if importlib.util.find_spec("keras") is not None:
            tk = statistics.median(keras_torch_fit(x, y) for _ in range(3))
            print(f"keras (torch backend) fit: {tk:.3f}s  tfcompat/keras: {tc / tk:.3f}x")
    except Exception as e:    # noqa: BLE001 - an optional comparison
        print(f"keras torch backend not timed: {e}")


if __name__ == "__main__":
    main()
