"""`keras.datasets.california_housing`: 8 census features per block group, median house values; the "small"
version is its first 600 samples; a seeded shuffle then a train/test split (as boston_housing)."""
import numpy as np

from tfcompat.keras.datasets import _download
from tfcompat.keras.datasets.boston_housing import check_test_split, split

SHA256 = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    check_test_split(test_split)
    path = _download.get_file(path, origin=_download.BASE + "california_housing.npz", file_hash=SHA256)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    elif version != "large":
        raise ValueError(f"Argument `version` must be one of 'small', 'large'. Received: version={version}")
    return split(x, y, test_split, seed)
