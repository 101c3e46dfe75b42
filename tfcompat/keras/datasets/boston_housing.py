"""`keras.datasets.boston_housing`: 13 features, house prices; a seeded shuffle then a train/test split."""
import numpy as np

from tfcompat.keras.datasets import _download

SHA256 = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def check_test_split(test_split):
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 and 1 (exclusive of 1).")


def split(x, y, test_split, seed):
    """Keras's housing split: shuffled by `np.random.RandomState(seed)`, the first `1 - test_split` for training."""
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    n = int(len(x) * (1 - test_split))
    return (np.array(x[:n]), np.array(y[:n])), (np.array(x[n:]), np.array(y[n:]))


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    check_test_split(test_split)
    path = _download.get_file(path, origin=_download.BASE + "boston_housing.npz", file_hash=SHA256)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    return split(x, y, test_split, seed)
