"""Reading CIFAR's pickled batches (only NumPy arrays and plain containers are unpickled)."""
import pickle

import numpy as np


class _Restricted(pickle.Unpickler):
    def find_class(self, module, name):
        if module.split(".")[0] == "numpy":
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a CIFAR batch")


def load_batch(fpath, label_key="labels"):
    """`(data (n, 3, 32, 32) uint8, labels list)` of one batch file."""
    with open(fpath, "rb") as f:
        d = {k.decode("utf8"): v for k, v in _Restricted(f, encoding="bytes").load().items()}
    data = d["data"]
    return data.reshape(data.shape[0], 3, 32, 32), d[label_key]


def finish(x_train, y_train, x_test, y_test):
    """Labels as (n, 1) columns, images NHWC unless the Keras image format is channels_first."""
    from tfcompat.keras import backend
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if backend.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test.astype(y_train.dtype))
