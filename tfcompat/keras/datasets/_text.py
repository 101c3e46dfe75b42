"""The word-index preprocessing shared by imdb and reuters (Keras's start/oov/index_from convention)."""
import json

import numpy as np

from tfcompat.keras.datasets import _download


def shift(xs, start_char, index_from):
    """Word ids moved up by `index_from`, each sequence starting with `start_char` (unless None)."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in xs]
    return [[w + index_from for w in x] for x in xs]


def drop_long(xs, labels, maxlen):
    """Only the sequences shorter than `maxlen`, with their labels."""
    keep = [i for i, x in enumerate(xs) if len(x) < maxlen]
    if not keep:
        raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no sequence was kept. "
                         "Increase maxlen.")
    return [xs[i] for i in keep], np.asarray(labels)[keep]


def limit(xs, num_words, skip_top, oov_char):
    """Ids outside `[skip_top, num_words)` become `oov_char` (or are dropped when it is None)."""
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]


def shuffled(seed, *pairs):
    rng = np.random.RandomState(seed)
    out = []
    for x, y in pairs:
        indices = np.arange(len(x))
        rng.shuffle(indices)
        out.append((x[indices], y[indices]))
    return out


def word_index(path, origin, md5):
    with open(_download.get_file(path, origin=origin, file_hash=md5)) as f:
        return json.load(f)


def ragged(xs):
    out = np.empty(len(xs), dtype="object")
    out[:] = xs
    return out
