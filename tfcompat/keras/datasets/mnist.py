"""`keras.datasets.mnist`: 28x28 uint8 digits, 60000 train / 10000 test."""
import os

import numpy as np

from tfcompat.keras.datasets import _download

SHA256 = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"
BUNDLED = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "_resources", "mnist.npz")


def load_data(path="mnist.npz"):
    """`(x_train, y_train), (x_test, y_test)`; offline, falls back to the copy bundled with tfcompat."""
    try:
        path = _download.get_file(path, origin=_download.BASE + "mnist.npz", file_hash=SHA256)
    except _download.DownloadError:
        path = BUNDLED
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
