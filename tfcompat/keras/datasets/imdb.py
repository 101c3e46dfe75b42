"""`keras.datasets.imdb`: 25000 + 25000 movie reviews as word-id sequences, binary sentiment labels."""
import numpy as np

from tfcompat.keras.datasets import _download, _text

SHA256 = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2,
              index_from=3, **kwargs):
    """`(x_train, y_train), (x_test, y_test)`; x are object arrays of int lists."""
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {kwargs}.")
    f = _download.load_object_npz(_download.get_file(path, origin=_download.BASE + "imdb.npz", file_hash=SHA256))
    splits = _text.shuffled(seed, (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"]))
    splits = [(_text.shift(x, start_char, index_from), y) for x, y in splits]
    if maxlen:
        splits = [_text.drop_long(x, y, maxlen) for x, y in splits]
    (x_train, y_train), (x_test, y_test) = splits
    xs = _text.limit(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([y_train, y_test])
    n = len(x_train)
    return (_text.ragged(xs[:n]), labels[:n]), (_text.ragged(xs[n:]), labels[n:])


def get_word_index(path="imdb_word_index.json"):
    """Word -> index (before the `index_from` shift)."""
    return _text.word_index(path, _download.BASE + "imdb_word_index.json", "bfafd718b763782e994055a2d397834f")
