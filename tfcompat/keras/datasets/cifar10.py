"""`keras.datasets.cifar10`: 32x32 RGB images, 10 classes, 50000 train / 10000 test."""
import os

import numpy as np

from tfcompat.keras.datasets import _cifar, _download

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
SHA256 = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"


def load_data():
    """`(x_train (50000, 32, 32, 3) uint8, y_train (50000, 1)), (x_test, y_test)`."""
    path = _download.get_file("cifar-10-batches-py-target", origin=ORIGIN, extract=True, file_hash=SHA256)
    path = os.path.join(path, "cifar-10-batches-py")
    x_train = np.empty((50000, 3, 32, 32), dtype="uint8")
    y_train = np.empty((50000,), dtype="uint8")
    for i in range(1, 6):
        x, y = _cifar.load_batch(os.path.join(path, f"data_batch_{i}"))
        x_train[(i - 1) * 10000:i * 10000], y_train[(i - 1) * 10000:i * 10000] = x, y
    x_test, y_test = _cifar.load_batch(os.path.join(path, "test_batch"))
    return _cifar.finish(x_train, y_train, x_test, np.asarray(y_test))
