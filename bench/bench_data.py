"""tf.data vs torch DataLoader: one epoch of the seed's MNIST pipeline, `shuffle(1000).batch(32)`.

Prints the median of `--runs` epochs for each and the ratio tfcompat/torch (goal: <= 1.0).
"""
import argparse
import os
import statistics
import time

import numpy as np
import torch

MNIST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tfcompat", "_resources",
                     "mnist.npz")


def load():
    with np.load(MNIST) as f:
        images, labels = f["x_train"], f["y_train"]
    return (images[..., None] / 255).astype(np.float32), labels.astype(np.int64)


def epoch_tfcompat(images, labels, batch_size):
    import tfcompat as tf
    ds = tf.data.Dataset.from_tensor_slices((images, labels)).shuffle(1000).batch(batch_size)
    start = time.perf_counter()
    n = 0
    for _, y in ds:
        n += y.shape[0]
    assert n == len(labels)
    return time.perf_counter() - start


def epoch_torch(images, labels, batch_size):
    from torch.utils.data import DataLoader, TensorDataset
    loader = DataLoader(TensorDataset(torch.from_numpy(images), torch.from_numpy(labels)), batch_size=batch_size,
                        shuffle=True)
    start = time.perf_counter()
    n = 0
    for _, y in loader:
        n += y.shape[0]
    assert n == len(labels)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    torch.set_num_threads(max(torch.get_num_threads(), 1))
    images, labels = load()
    tf_times = [epoch_tfcompat(images, labels, args.batch_size) for _ in range(args.runs)]
    torch_times = [epoch_torch(images, labels, args.batch_size) for _ in range(args.runs)]
    a, b = statistics.median(tf_times), statistics.median(torch_times)
    print(f"MNIST epoch, {len(labels)} examples, shuffle(1000).batch({args.batch_size}), median of {args.runs}")
    print(f"{'pipeline':<34}{'seconds':>10}")
    print(f"{'tfcompat tf.data':<34}{a:>10.4f}")
    print(f"{'torch DataLoader(shuffle=True)':<34}{b:>10.4f}")
    print(f"{'ratio tfcompat/torch':<34}{a / b:>10.3f}")


if __name__ == "__main__":
    main()
