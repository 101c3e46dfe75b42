"""Per-op overhead of tfcompat against the same torch calls, in one process.

    python bench/bench_eager_ops.py [--device cpu|cuda]

Cases are the seed's small eager operations (shared/bench/eager_ops.py): `tf.add` and
`tf.matmul` on 2x2 int32, `.numpy()`, `w * w` under a tape with `gradient`, and one SGD
step of the seed's linear model. Prints medians and tfcompat/torch ratios with the
project's limits (2x for single ops, 1.5x for the tape cases).
"""
import argparse
import os
import sys

import tfcompat  # noqa: F401 - before torch, as a TF program imports it: its OpenMP wait policy holds for both sides
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import per_call_us, print_table


def torch_cases(dev):
    x = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32, device=dev)
    w = torch.tensor([[1.0]], requires_grad=True, device=dev)
    W = torch.tensor(5.0, requires_grad=True, device=dev)
    B = torch.tensor(10.0, requires_grad=True, device=dev)
    g = torch.Generator(device=dev).manual_seed(0)
    inputs = torch.randn(2000, generator=g, device=dev)
    outputs = inputs * 3 + 2 + torch.randn(2000, generator=g, device=dev)

    def tape():
        loss = w * w
        return torch.autograd.grad(loss, w)

    def linreg_step():
        loss = torch.mean(torch.square(inputs * W + B - outputs))
        gW, gB = torch.autograd.grad(loss, [W, B])
        with torch.no_grad():
            W.sub_(0.01 * gW)
            B.sub_(0.01 * gB)

    return {"add_2x2": lambda: torch.add(x, 1), "matmul_2x2": lambda: torch.matmul(x, x),
            "add_then_numpy": lambda: torch.add(x, 1).cpu().numpy(), "tape_w*w_gradient": tape,
            "linreg_sgd_step": linreg_step}


def tfcompat_cases(dev):
    import tfcompat as tf
    with tf.device(dev):
        x = tf.constant([[1, 2], [3, 4]])
        w = tf.Variable([[1.0]])
        W = tf.Variable(5.0)
        B = tf.Variable(10.0)
        inputs = tf.random.normal([2000])
        outputs = inputs * 3 + 2 + tf.random.normal([2000])
    opt = tf.keras.optimizers.SGD(learning_rate=0.01)

    def tape():
        with tf.GradientTape() as t:
            loss = w * w
        return t.gradient(loss, w)

    def linreg_step():
        with tf.GradientTape() as t:
            loss = tf.reduce_mean(tf.square(inputs * W + B - outputs))
        grads = t.gradient(loss, [W, B])
        opt.apply_gradients(zip(grads, [W, B]))

    return {"add_2x2": lambda: tf.add(x, 1), "matmul_2x2": lambda: tf.matmul(x, x),
            "add_then_numpy": lambda: tf.add(x, 1).numpy(), "tape_w*w_gradient": tape,
            "linreg_sgd_step": linreg_step}


LIMITS = {"add_2x2": 2.0, "matmul_2x2": 2.0, "add_then_numpy": 2.0, "tape_w*w_gradient": 1.5,
          "linreg_sgd_step": 1.5}
CALLS = {"add_2x2": 5000, "matmul_2x2": 5000, "add_then_numpy": 5000, "tape_w*w_gradient": 1000,
         "linreg_sgd_step": 300}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the call counts (0.1 for a quick run)")
    a = p.parse_args()
    dev = "/gpu:0" if a.device == "cuda" else "/cpu:0"
    ours = tfcompat_cases(dev)
    theirs = torch_cases(torch.device(a.device))
    rows = []
    for case, limit in LIMITS.items():
        n = max(10, int(CALLS[case] * a.scale))
        # interleave to share machine noise
        t_theirs = per_call_us(theirs[case], n)
        t_ours = per_call_us(ours[case], n)
        rows.append((case, t_ours, t_theirs, limit))
    ok = print_table(f"eager op overhead on {a.device} (median us/call)", rows)
    print("all within limits" if ok else "SOME CASES OVER THE LIMIT")


if __name__ == "__main__":
    main()
