"""`keras.datasets.cifar100`: 32x32 RGB images, 100 fine / 20 coarse classes."""
import os

import numpy as np

from tfcompat.keras.datasets import _cifar, _download

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
SHA256 = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode="fine"):
    """`(x_train, y_train), (x_test, y_test)`; `label_mode` "fine" or "coarse"."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode={label_mode}.')
    path = _download.get_file("cifar-100-python-target", origin=ORIGIN, extract=True, file_hash=SHA256)
    path = os.path.join(path, "cifar-100-python")
    x_train, y_train = _cifar.load_batch(os.path.join(path, "train"), label_key=f"{label_mode}_labels")
    x_test, y_test = _cifar.load_batch(os.path.join(path, "test"), label_key=f"{label_mode}_labels")
    return _cifar.finish(x_train, np.asarray(y_train), x_test, np.asarray(y_test))
