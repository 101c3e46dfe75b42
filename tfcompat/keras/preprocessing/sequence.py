"""`keras.preprocessing.sequence`: `pad_sequences`, and the word2vec helpers `skipgrams` and `make_sampling_table`
(Keras's legacy functions: their draws come from Python's `random` module in Keras's order, so a seeded run gives
Keras's pairs)."""
import random

import numpy as np

from tfcompat.keras.preprocessing.timeseries_generator import TimeseriesGenerator  # noqa: F401
from tfcompat.keras.utils import pad_sequences  # noqa: F401

_EULER_GAMMA = 0.577      # the constant Keras uses


def make_sampling_table(size, sampling_factor=1e-5):
    """The probability of keeping the word of rank i (word2vec's subsampling of frequent words), Zipf frequencies
    estimated as 1 / (i (log i + gamma) + 1/2 - 1 / (12 i))."""
    rank = np.arange(size)
    rank[0] = 1
    inverse_frequency = rank * (np.log(rank) + _EULER_GAMMA) + 0.5 - 1.0 / (12.0 * rank)
    scaled = sampling_factor * inverse_frequency
    return np.minimum(1.0, scaled / np.sqrt(scaled))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    """(couples, labels): each word (non-zero id) of `sequence` paired with its neighbours within `window_size`
    (label 1), then `negative_samples` times as many pairs with random words (label 0)."""
    positive = [0, 1] if categorical else 1
    negative = [1, 0] if categorical else 0
    couples, labels = [], []
    for i, target in enumerate(sequence):
        if not target:
            continue
        if sampling_table is not None and sampling_table[target] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            context = sequence[j]
            if j == i or not context:
                continue
            couples.append([target, context])
            labels.append(positive)
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        targets = [pair[0] for pair in couples]
        random.shuffle(targets)
        for k in range(count):
            couples.append([targets[k % len(targets)], random.randint(1, vocabulary_size - 1)])
        labels.extend([negative] * count)
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10_000_000)      # Keras's 10e6, as the int Python draws it from
        for items in (couples, labels):      # the same permutation for both lists
            random.seed(seed)
            random.shuffle(items)
    return couples, labels
