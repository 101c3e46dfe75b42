"""Memory over 10,000 steps of the seed's linear-model SGD step under GradientTape (must stay flat).

    python bench/bench_tape_memory.py [--steps 10000] [--device cpu|cuda]

Prints the process's resident memory after warm-up and after the steps, and the growth.
"""
import argparse
import gc
import resource

import tfcompat as tf


def rss_mb():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2 ** 20


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=10000)
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    a = p.parse_args()
    with tf.device("/gpu:0" if a.device == "cuda" else "/cpu:0"):
        W, B = tf.Variable(5.0), tf.Variable(10.0)
        inputs = tf.random.normal([2000])
        outputs = inputs * 3 + 2 + tf.random.normal([2000])
    opt = tf.keras.optimizers.SGD(learning_rate=0.01)

    def step():
        with tf.GradientTape() as t:
            loss = tf.reduce_mean(tf.square(inputs * W + B - outputs))
        grads = t.gradient(loss, [W, B])
        opt.apply_gradients(zip(grads, [W, B]))
        return loss

    for _ in range(500):
        step()
    gc.collect()
    before, objects = rss_mb(), len(gc.get_objects())
    for _ in range(a.steps):
        step()
    gc.collect()
    after = rss_mb()
    print(f"{a.steps} tape steps: RSS {before:.1f} MB -> {after:.1f} MB (growth {after - before:+.1f} MB), "
          f"Python objects {objects} -> {len(gc.get_objects())}")


if __name__ == "__main__":
    main()
