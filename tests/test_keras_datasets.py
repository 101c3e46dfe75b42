"""keras.datasets: cache layout, hash checks, offline MNIST fallback, clear errors; no network (fetch patched)."""
import gzip
import hashlib
import io
import os
import pickle
import tarfile

import numpy as np
import pytest

import tfcompat as tf
from tfcompat.keras.datasets import _download


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    fetched = []

    def offline(origin, target):
        fetched.append(origin)
        raise OSError("network disabled in tests")
    monkeypatch.setattr(_download, "_fetch", offline)
    return tmp_path, fetched


def _serve(monkeypatch, files):
    """Patches the download to write `files[origin]` bytes."""
    fetched = []

    def fetch(origin, target):
        fetched.append(origin)
        with open(target, "wb") as f:
            f.write(files[origin])
    monkeypatch.setattr(_download, "_fetch", fetch)
    return fetched


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def test_mnist_without_an_intact_cache_uses_the_bundled_copy_quietly(home, capsys):
    (x, y), (xt, yt) = tf.keras.datasets.mnist.load_data()
    assert x.shape == (60000, 28, 28) and x.dtype == np.uint8 and xt.shape == (10000, 28, 28)
    assert y[:10].tolist() == [5, 0, 4, 1, 9, 2, 1, 3, 1, 4] and yt[:5].tolist() == [7, 2, 1, 0, 4]
    os.makedirs(home[0] / "datasets")
    (home[0] / "datasets" / "mnist.npz").write_bytes(b"not the file")     # a cached copy whose hash differs
    assert tf.keras.datasets.mnist.load_data()[1][1][:5].tolist() == [7, 2, 1, 0, 4]
    assert home[1] == [] and capsys.readouterr().out == ""     # no download, no re-download notice


def test_bundled_mnist_hash():
    from tfcompat.keras.datasets import mnist
    readme = open(os.path.join(os.path.dirname(mnist.BUNDLED), "README.md")).read()
    assert _download.file_digest(mnist.BUNDLED, "sha256") in readme


def test_mnist_uses_cache_when_hash_matches(home, monkeypatch):
    from tfcompat.keras.datasets import mnist
    buf = io.BytesIO()
    np.savez(buf, x_train=np.zeros((2, 28, 28), np.uint8), y_train=np.array([3, 4], np.uint8),
             x_test=np.zeros((1, 28, 28), np.uint8), y_test=np.array([7], np.uint8))
    data = buf.getvalue()
    os.makedirs(home[0] / "datasets")
    (home[0] / "datasets" / "mnist.npz").write_bytes(data)
    monkeypatch.setattr(mnist, "SHA256", _sha(data))
    (x, y), (xt, yt) = mnist.load_data()
    assert y.tolist() == [3, 4] and yt.tolist() == [7] and home[1] == []


def test_stale_cache_is_downloaded_again(home, monkeypatch):
    good = b"new contents"
    path = home[0] / "datasets" / "f.bin"
    os.makedirs(path.parent)
    path.write_bytes(b"old")
    fetched = _serve(monkeypatch, {"http://x/f.bin": good})
    assert tf.keras.utils.get_file("f.bin", "http://x/f.bin", file_hash=_sha(good)) == str(path)
    assert path.read_bytes() == good and fetched == ["http://x/f.bin"]


def test_missing_file_error_names_the_file(home):
    with pytest.raises(Exception) as info:
        tf.keras.datasets.boston_housing.load_data()
    text = str(info.value)
    assert "boston_housing.npz" in text and os.path.join(str(home[0]), "datasets", "boston_housing.npz") in text
    assert "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5" in text


def test_boston_housing_split(home, monkeypatch):
    from tfcompat.keras.datasets import boston_housing
    buf = io.BytesIO()
    np.savez(buf, x=np.arange(10 * 13, dtype=np.float64).reshape(10, 13), y=np.arange(10.0))
    data = buf.getvalue()
    _serve(monkeypatch, {_download.BASE + "boston_housing.npz": data})
    monkeypatch.setattr(boston_housing, "SHA256", _sha(data))
    (x, y), (xt, yt) = boston_housing.load_data()
    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)
    assert x.shape == (8, 13) and xt.shape == (2, 13)
    assert y.tolist() + yt.tolist() == order.astype(float).tolist()



def test_california_housing_versions_and_split(home, monkeypatch):
    # Keras 3.15: "small" is the first 600 samples, then boston_housing's seeded shuffle and split
    from tfcompat.keras.datasets import california_housing
    buf = io.BytesIO()
    np.savez(buf, x=np.arange(700 * 8, dtype=np.float32).reshape(700, 8), y=np.arange(700.0, dtype=np.float32))
    data = buf.getvalue()
    _serve(monkeypatch, {_download.BASE + "california_housing.npz": data})
    monkeypatch.setattr(california_housing, "SHA256", _sha(data))
    (x, y), (xt, yt) = tf.keras.datasets.california_housing.load_data(version="small", test_split=0.25)
    order = np.arange(600)
    np.random.RandomState(113).shuffle(order)
    assert x.shape == (450, 8) and xt.shape == (150, 8)
    assert y.tolist() + yt.tolist() == order.astype(float).tolist()
    assert len(california_housing.load_data()[0][0]) == 560
    with pytest.raises(ValueError, match="Argument `version` must be one of 'small', 'large'. Received: version=x"):
        california_housing.load_data(version="x")
    with pytest.raises(ValueError, match=r"Invalid `test_split` argument: 1. It must be between 0 and 1 "
                                         r"\(exclusive of 1\)."):
        california_housing.load_data(test_split=1)

def _npz_objects(**arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def _ragged(seqs):
    out = np.empty(len(seqs), dtype=object)
    out[:] = [list(s) for s in seqs]
    return out


def test_imdb_word_ids(home, monkeypatch):
    from tfcompat.keras.datasets import imdb
    data = _npz_objects(x_train=_ragged([[1, 2], [3, 4, 5]]), y_train=np.array([0, 1]),
                        x_test=_ragged([[6]]), y_test=np.array([1]))
    _serve(monkeypatch, {_download.BASE + "imdb.npz": data})
    monkeypatch.setattr(imdb, "SHA256", _sha(data))
    (x, y), (xt, yt) = imdb.load_data(num_words=7, seed=0)
    rows = dict(zip(y.tolist(), [list(r) for r in x]))
    assert rows == {0: [1, 4, 5], 1: [1, 6, 2, 2]} and x.dtype == object
    assert [list(r) for r in xt] == [[1, 2]] and yt.tolist() == [1]
    (x, y), _ = imdb.load_data(maxlen=4)
    assert [list(r) for r in x] == [[1, 4, 5]] and y.tolist() == [0]


def test_reuters_split(home, monkeypatch):
    from tfcompat.keras.datasets import reuters
    data = _npz_objects(x=_ragged([[i, i + 1] for i in range(10)]), y=np.arange(10))
    _serve(monkeypatch, {_download.BASE + "reuters.npz": data})
    monkeypatch.setattr(reuters, "SHA256", _sha(data))
    (x, y), (xt, yt) = reuters.load_data(num_words=100, start_char=None, index_from=0)
    assert len(x) == 8 and len(xt) == 2
    assert all(list(r) == [int(lbl), int(lbl) + 1] for r, lbl in zip(list(x) + list(xt), list(y) + list(yt)))


def test_cifar10_archive_layout(home, monkeypatch):
    from tfcompat.keras.datasets import cifar10
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, n in [(f"data_batch_{i}", 10000) for i in range(1, 6)] + [("test_batch", 3)]:
            batch = {b"data": np.full((n, 3072), len(name), np.uint8), b"labels": [n % 10] * n}
            raw = pickle.dumps(batch)
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size = len(raw)
            t.addfile(info, io.BytesIO(raw))
    data = buf.getvalue()
    _serve(monkeypatch, {cifar10.ORIGIN: data})
    monkeypatch.setattr(cifar10, "SHA256", _sha(data))
    (x, y), (xt, yt) = cifar10.load_data()
    assert x.shape == (50000, 32, 32, 3) and y.shape == (50000, 1) and xt.shape == (3, 32, 32, 3)
    assert yt.tolist() == [[3]] * 3 and y.dtype == np.uint8
    assert (home[0] / "datasets" / "cifar-10-batches-py-target_archive").exists()
    assert (home[0] / "datasets" / "cifar-10-batches-py-target" / "cifar-10-batches-py").is_dir()


def test_fashion_mnist_files(home, monkeypatch):
    files = {}
    for name, n, off in [("train-labels-idx1-ubyte.gz", 2, 8), ("train-images-idx3-ubyte.gz", 2 * 784, 16),
                         ("t10k-labels-idx1-ubyte.gz", 1, 8), ("t10k-images-idx3-ubyte.gz", 784, 16)]:
        files[_download.BASE + name] = gzip.compress(bytes(off) + bytes([7] * n))
    _serve(monkeypatch, files)
    (x, y), (xt, yt) = tf.keras.datasets.fashion_mnist.load_data()
    assert x.shape == (2, 28, 28) and y.tolist() == [7, 7] and xt.shape == (1, 28, 28)
    assert (home[0] / "datasets" / "fashion-mnist" / "t10k-labels-idx1-ubyte.gz").exists()
