"""`keras.datasets.reuters`: 11228 newswires as word-id sequences, 46 topics."""
import numpy as np

from tfcompat.keras.datasets import _download, _text

SHA256 = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113, start_char=1,
              oov_char=2, index_from=3):
    """`(x_train, y_train), (x_test, y_test)`; a seeded shuffle, then the last `test_split` is the test set."""
    f = _download.load_object_npz(_download.get_file(path, origin=_download.BASE + "reuters.npz", file_hash=SHA256))
    [(xs, labels)] = _text.shuffled(seed, (f["x"], f["y"]))
    xs = _text.shift(xs, start_char, index_from)
    if maxlen:
        xs, labels = _text.drop_long(xs, labels, maxlen)
    xs = _text.limit(xs, num_words, skip_top, oov_char)
    n = int(len(xs) * (1 - test_split))
    return (_text.ragged(xs[:n]), np.array(labels[:n])), (_text.ragged(xs[n:]), np.array(labels[n:]))


def get_word_index(path="reuters_word_index.json"):
    """Word -> index (before the `index_from` shift)."""
    return _text.word_index(path, _download.BASE + "reuters_word_index.json", "4d44cc38712099c9e383dc6e5f11a921")


_LABELS = ("cocoa grain veg-oil earn acq wheat copper housing money-supply coffee sugar trade reserves ship cotton "
           "carcass crude nat-gas cpi money-fx interest gnp meal-feed alum oilseed gold tin strategic-metal livestock "
           "retail ipi iron-steel rubber heat jobs lei bop zinc orange pet-chem dlr gas silver wpi hog lead")


def get_label_names():
    """The 46 topic names, indexed by label id (a tuple, as Keras returns)."""
    return tuple(_LABELS.split())
