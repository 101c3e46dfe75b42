"""`tf.keras.preprocessing.sequence.TimeseriesGenerator`: Keras 1's windowed-batch `PyDataset` as Keras 3 keeps it
(`keras.src.legacy.preprocessing.sequence`). Batches are NumPy arrays built from the user's `data`/`targets` (lists
or arrays); `shuffle` draws rows from NumPy's global generator, as Keras does. Keras's `PyDataset` has no
`get_config`, so Keras's `get_config`/`to_json` raise AttributeError after serializing the data: so do these."""
import json

import numpy as np

from tfcompat.keras.utils_data import PyDataset


class TimeseriesGenerator(PyDataset):
    """Batches of `length`-step windows of `data` (every `sampling_rate`-th step, ending just before row `i`) with
    `targets[i]`, for rows `i` from `start_index + length` to `end_index`, `stride` apart."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0, end_index=None,
                 shuffle=False, reverse=False, batch_size=128, **kwargs):
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is {len(data)} while "
                             f"target length is {len(targets)}")
        self.data = data
        self.targets = targets
        self.length = length
        self.sampling_rate = sampling_rate
        self.stride = stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle = shuffle
        self.reverse = reverse
        self.batch_size = batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index={self.end_index}` is disallowed, "
                             "as no part of the sequence would be left to be used as current step.")

    def __len__(self):
        span = self.batch_size * self.stride
        return (self.end_index - self.start_index + span) // span

    def _rows(self, index):
        if self.shuffle:
            return np.random.randint(self.start_index, self.end_index + 1, size=self.batch_size)
        first = self.start_index + self.batch_size * self.stride * index
        return np.arange(first, min(first + self.batch_size * self.stride, self.end_index + 1), self.stride)

    def __getitem__(self, index):
        rows = self._rows(index)
        samples = np.array([self.data[row - self.length:row:self.sampling_rate] for row in rows])
        targets = np.array([self.targets[row] for row in rows])
        return (samples[:, ::-1, ...] if self.reverse else samples), targets

    @staticmethod
    def _json(values, what):
        if type(values).__module__ == np.__name__:
            values = values.tolist()
        try:
            return json.dumps(values)
        except TypeError as e:
            raise TypeError(f"{what} not JSON Serializable: {values}") from e

    def get_config(self):
        """Keras serializes `data` and `targets`, then asks its `PyDataset` base for a config it does not have."""
        self._json(self.data, "Data")
        self._json(self.targets, "Targets")
        raise AttributeError("'super' object has no attribute 'get_config'")

    def to_json(self, **kwargs):
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)
