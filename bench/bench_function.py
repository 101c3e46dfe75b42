"""tf.function replay vs eager: one MLP training step (Dense 64 relu, Dense 10, softmax cross-entropy, SGD,
batch 64), timed as eager tfcompat, tf.function, tf.function(jit_compile=True) and plain eager torch."""
import statistics
import time

import numpy as np
import torch

import tfcompat as tf


def _median_us(step, n=200, warmup=20):
    for _ in range(warmup):
        step()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


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


def _torch_step():
    g = torch.Generator().manual_seed(0)
    w1 = (torch.randn(32, 64, generator=g) * 0.1).requires_grad_()
    b1 = torch.zeros(64, requires_grad=True)
    w2 = (torch.randn(64, 10, generator=g) * 0.1).requires_grad_()
    b2 = torch.zeros(10, requires_grad=True)
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


def main():
    rng = np.random.default_rng(1)
    xn = rng.normal(size=(64, 32)).astype("float32")
    yn = rng.integers(0, 10, size=64).astype("int32")
    x, y = tf.constant(xn), tf.constant(yn)
    xt, yt = torch.from_numpy(xn), torch.from_numpy(yn).long()
    eager = _tf_step()
    traced = tf.function(_tf_step())
    jitted = tf.function(_tf_step(), jit_compile=True)
    torch_step = _torch_step()
    results = {
        "eager tfcompat": _median_us(lambda: eager(x, y)),
        "tf.function": _median_us(lambda: traced(x, y)),
        "tf.function(jit_compile=True)": _median_us(lambda: jitted(x, y)),
        "eager torch": _median_us(lambda: torch_step(xt, yt)),
    }
    base = results["eager torch"]
    for name, us in results.items():
        print(f"{name:32s} {us:9.1f} us/step  {us / base:5.2f}x eager torch  "
              f"{results['eager tfcompat'] / us:5.2f}x faster than eager tfcompat")


if __name__ == "__main__":
    main()
