"""Keras's `get_file`: the cache layout, sha256/md5 checks, and downloads with short timeouts."""
import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile

TIMEOUT_S = 15
BASE = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def keras_home():
    return os.path.expanduser(os.environ.get("KERAS_HOME", os.path.join("~", ".keras")))


def file_digest(path, algorithm):
    h = hashlib.sha256() if algorithm == "sha256" else hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _valid(path, file_hash):
    if file_hash is None:
        return True
    return file_digest(path, "sha256" if len(file_hash) == 64 else "md5") == file_hash


def _fetch(origin, target):
    """Downloads `origin` to `target` (through a temporary file; a short timeout: never hangs), with Keras's
    progress bar of bytes: urlretrieve's 8 KiB blocks, reported before the first and after each."""
    with urllib.request.urlopen(origin, timeout=TIMEOUT_S) as response, \
            tempfile.NamedTemporaryFile(dir=os.path.dirname(target), delete=False) as tmp:
        length = response.info().get("Content-Length")
        report, block, blocks = _DownloadBar(int(length) if length is not None else None), 8192, 0
        report(0, block)
        while chunk := response.read(block):
            tmp.write(chunk)
            blocks += 1
            report(blocks, block)
    os.replace(tmp.name, target)


class _DownloadBar:
    """Keras's `DLProgbar`: a `Progbar` of the file's bytes (its target None when the size is unknown)."""

    def __init__(self, total):
        from tfcompat.keras.utils_progbar import Progbar
        self.bar, self.finished = Progbar(total), False

    def __call__(self, block_num, block_size):
        current, total = block_num * block_size, self.bar.target
        if total is None or current < total:
            self.bar.update(current)
        elif not self.finished:
            self.bar.update(total)
            self.finished = True


# Keras raises a plain `Exception` when a download fails ("URL fetch failure on <origin>: <errno> -- <reason>"); the
# name lets tfcompat's callers (the bundled-MNIST fallback, the applications' weights hint) say what they catch.
DownloadError = Exception


def get_file(fname, origin, file_hash=None, cache_subdir="datasets", cache_dir=None, extract=False,
             force_download=False):
    """The local path of `fname` in the Keras cache, downloading (and extracting) it when missing or stale."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    base = os.path.expanduser(cache_dir) if cache_dir is not None else keras_home()
    if not os.access(base, os.W_OK):        # Keras: an unwritable (or missing) cache dir means /tmp/.keras
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(), ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
    if os.sep in fname:
        raise ValueError(f"Paths are no longer accepted as the `fname` argument. To specify the file's parent "
                         f"directory, use the `cache_dir` argument. Received: fname={fname}")
    if extract:
        if "." in fname:
            target, out_dir = os.path.join(datadir, fname), os.path.join(datadir, fname.split(".")[0] + "_extracted")
        else:
            target, out_dir = os.path.join(datadir, fname + "_archive"), os.path.join(datadir, fname)
    else:
        target = out_dir = os.path.join(datadir, fname)
    if force_download or not os.path.exists(target) or not _valid(target, file_hash):
        from tfcompat.keras.utils_progbar import print_msg
        if not force_download and os.path.exists(target):
            print_msg("A local file was found, but it seems to be incomplete or outdated because the "
                      "auto file hash does not match the original value of "
                      f"{file_hash} so we will re-download the data.")
        print_msg(f"Downloading data from {origin}")        # as Keras, before it fetches
        try:
            _fetch(origin, target)
        except OSError as e:    # Keras's text (errno/reason, an HTTP error's code/message; timeouts alike)
            cause = (f"{e.code} -- {e.msg}" if isinstance(e, urllib.error.HTTPError) else
                     f"{e.errno} -- {e.reason}" if isinstance(e, urllib.error.URLError) else f"{e.errno} -- {e}")
            raise DownloadError(
                f"URL fetch failure on {origin}: {cause}. Without network access, download {origin} elsewhere and "
                f"place it at {target}" + (f" (sha256 {file_hash})" if file_hash and len(file_hash) == 64 else "") +
                ".") from None
        if not _valid(target, file_hash):
            os.remove(target)
            raise ValueError("Incomplete or corrupted file detected. The auto file hash does not match the provided "
                             f"value of {file_hash}.")     # Keras names its default hash_algorithm, "auto"
    if extract:
        if not os.path.isdir(out_dir):
            _extract(target, out_dir)
        return out_dir
    return target


def _extract(archive, out_dir):
    tmp = out_dir + ".partial"
    shutil.rmtree(tmp, ignore_errors=True)
    if tarfile.is_tarfile(archive):
        with tarfile.open(archive) as t:
            t.extractall(tmp, filter="data")
    elif zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as z:
            z.extractall(tmp)
    else:
        raise ValueError(f"{archive} is neither a tar nor a zip archive.")
    os.replace(tmp, out_dir)


def load_object_npz(path):
    """The arrays of an `.npz` whose object arrays hold pickled lists of ints (only NumPy types unpickle)."""
    import io
    import pickle

    import numpy as np

    class _Restricted(pickle.Unpickler):
        def find_class(self, module, name):
            if module.split(".")[0] == "numpy" or (module, name) in (("builtins", "list"), ("builtins", "int")):
                return super().find_class(module, name)
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a dataset file")

    out = {}
    with zipfile.ZipFile(path) as z:
        for member in z.namelist():
            with z.open(member) as f:
                data = io.BytesIO(f.read())
            version = np.lib.format.read_magic(data)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
                np.lib.format.read_array_header_2_0
            shape, fortran, dtype = read_header(data)
            if dtype.hasobject:
                out[member[:-4]] = _Restricted(data).load()
            else:
                arr = np.frombuffer(data.read(), dtype=dtype)
                out[member[:-4]] = arr.reshape(shape, order="F" if fortran else "C")
    return out
