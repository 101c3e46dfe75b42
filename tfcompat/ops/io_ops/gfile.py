"""`tf.io.gfile`: the local file system with TF's API and errors (paths without a scheme, or `file://`)."""
import collections
import glob as _glob
import os
import shutil

from tfcompat.framework import errors
from tfcompat.framework.export import tf_export
from tfcompat.framework.tensor import Tensor

# The limit of every export that takes a path
LOCAL_ONLY = "local files only (a path with a scheme other than file:// raises NotImplementedError)"


def local_path(path):
    """A local file system path from a str/bytes/PathLike/scalar string tensor."""
    if isinstance(path, Tensor):
        path = path._array()[()]
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = path.decode()
    scheme, sep, rest = path.partition("://")
    if sep and "/" not in scheme:
        if scheme != "file":
            raise NotImplementedError(f"file system scheme '{scheme}' (file: '{path}'): tfcompat's tf.io supports "
                                      "local files only")
        return rest
    return path


def os_error(e, path):
    """TF's error for a failed local file system call."""
    if isinstance(e, FileNotFoundError) or isinstance(e, NotADirectoryError):
        return errors.NotFoundError(None, None, f"{path}; No such file or directory")
    if isinstance(e, IsADirectoryError):
        return errors.FailedPreconditionError(None, None, f"{path}; Is a directory")
    if isinstance(e, PermissionError):
        return errors.PermissionDeniedError(None, None, f"{path}; Permission denied")
    if isinstance(e, FileExistsError):
        return errors.AlreadyExistsError(None, None, f"{path}; File exists")
    return errors.UnknownError(None, None, f"{path}; {e.strerror}")


@tf_export("io.gfile.exists", partial=LOCAL_ONLY)
def exists(path):
    """Whether `path` exists."""
    return os.path.exists(local_path(path))


@tf_export("io.gfile.isdir", partial=LOCAL_ONLY)
def isdir(path):
    """Whether `path` is a directory."""
    return os.path.isdir(local_path(path))


@tf_export("io.gfile.makedirs", partial=LOCAL_ONLY)
def makedirs(path):
    """Creates a directory and its missing parents (no error if it exists)."""
    p = local_path(path)
    try:
        os.makedirs(p, exist_ok=True)
    except OSError as e:
        raise os_error(e, p) from None


@tf_export("io.gfile.mkdir", partial=LOCAL_ONLY)
def mkdir(path):
    """Creates a directory whose parent exists (no error if it exists)."""
    p = local_path(path)
    if os.path.isdir(p):
        return
    try:
        os.mkdir(p)
    except OSError as e:
        raise os_error(e, p) from None


@tf_export("io.gfile.listdir", partial=LOCAL_ONLY)
def listdir(path):
    """The names of the entries of directory `path`."""
    p = local_path(path)
    if not os.path.isdir(p):
        raise errors.NotFoundError(None, None, f"Could not find directory {p}")
    return os.listdir(p)


@tf_export("io.gfile.glob", partial=LOCAL_ONLY)
def glob(pattern):
    """The paths matching a pattern (or a list of patterns), in the order the directories list them (TF's
    unsorted order, as `os.listdir`'s; `tf.io.matching_files` sorts); `*` also matches dot files."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else pattern
    out = []
    for p in patterns:
        out.extend(_glob.glob(local_path(p), include_hidden=True))
    return out


@tf_export("io.gfile.remove", partial=LOCAL_ONLY)
def remove(path):
    """Deletes the file `path`."""
    p = local_path(path)
    try:
        os.remove(p)
    except OSError as e:
        raise os_error(e, p) from None


@tf_export("io.gfile.rmtree", partial=LOCAL_ONLY)
def rmtree(path):
    """Deletes `path` and everything under it."""
    p = local_path(path)
    if not os.path.lexists(p):
        raise errors.NotFoundError(None, None, f"{p} not found")
    if os.path.isdir(p) and not os.path.islink(p):
        shutil.rmtree(p)
    else:
        os.remove(p)


def _check_target(path, overwrite):
    if not overwrite and os.path.exists(path):
        raise errors.AlreadyExistsError(None, None, "file already exists")


@tf_export("io.gfile.rename", partial=LOCAL_ONLY)
def rename(src, dst, overwrite=False):
    """Renames `src` to `dst` (AlreadyExistsError if `dst` exists, unless `overwrite`)."""
    s, d = local_path(src), local_path(dst)
    _check_target(d, overwrite)
    try:
        os.replace(s, d)
    except OSError as e:
        raise os_error(e, s) from None


@tf_export("io.gfile.copy", partial=LOCAL_ONLY)
def copy(src, dst, overwrite=False):
    """Copies file `src` to `dst` (AlreadyExistsError if `dst` exists, unless `overwrite`)."""
    s, d = local_path(src), local_path(dst)
    _check_target(d, overwrite)
    try:
        shutil.copyfile(s, d)
    except OSError as e:
        raise os_error(e, s) from None


FileStatistics = collections.namedtuple("FileStatistics", ["length", "mtime_nsec", "is_directory"])


@tf_export("io.gfile.stat", partial=LOCAL_ONLY)
def stat(path):
    """`length` (bytes), `mtime_nsec` and `is_directory` of `path`."""
    p = local_path(path)
    try:
        st = os.stat(p)
    except OSError as e:
        raise os_error(e, p) from None
    is_dir = os.path.isdir(p)
    return FileStatistics(0 if is_dir else st.st_size, st.st_mtime_ns, is_dir)


@tf_export("io.gfile.walk", partial=LOCAL_ONLY)
def walk(top, topdown=True, onerror=None):
    """`(dirname, subdirectory names, file names)` for each directory under `top`, as `os.walk`."""
    return os.walk(local_path(top), topdown=topdown, onerror=onerror)


@tf_export("io.gfile.join")
def join(path, *paths):
    """Joins path components (an absolute component restarts the path)."""
    return os.path.join(path, *paths)


@tf_export("io.gfile.get_registered_schemes")
def get_registered_schemes():
    """The file system schemes tfcompat supports: local files only."""
    return ["file", ""]


_MODES = {"r": "rb", "w": "wb", "a": "ab", "r+": "r+b", "w+": "w+b", "a+": "a+b"}


@tf_export("io.gfile.GFile", partial=LOCAL_ONLY)
class GFile:
    """A local file with TF's `GFile` API; opened on first use, text modes read `str` (UTF-8)."""

    def __init__(self, name, mode="r"):
        plain = mode.replace("b", "")
        if plain not in _MODES:
            raise errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name = name
        self._path = local_path(name)
        self._mode = mode
        self._binary = "b" in mode
        self._readable = plain[0] == "r" or "+" in plain
        self._writable = plain[0] != "r" or "+" in plain
        self._f = None

    name = property(lambda self: self._name)
    mode = property(lambda self: self._mode)

    def _file(self):
        if self._f is None:
            try:
                self._f = open(self._path, _MODES[self._mode.replace("b", "")])
            except OSError as e:
                raise os_error(e, self._path) from None
        return self._f

    def _reader(self):
        if not self._readable:
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        return self._file()

    def _out(self, data):
        return data if self._binary else data.decode("utf-8")

    def read(self, n=-1):
        """Up to `n` bytes (all when `n` is -1): `bytes` in binary modes, `str` in text modes."""
        return self._out(self._reader().read(-1 if n is None else n))

    def readline(self):
        return self._out(self._reader().readline())

    def readlines(self):
        return [self._out(line) for line in self._reader().readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self._reader().readline()
        if not line:
            raise StopIteration
        return self._out(line)

    next = __next__

    def write(self, file_content):
        """Appends `file_content` (str, encoded as UTF-8, or bytes)."""
        if not self._writable:
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        if isinstance(file_content, str):
            file_content = file_content.encode("utf-8")
        self._file().write(file_content)

    def tell(self):
        return self._file().tell()

    def seek(self, offset=None, whence=0, position=None):
        """Moves to `offset` (or the deprecated `position`) relative to `whence` (0, 1 or 2)."""
        self._file().seek(position if offset is None else offset, whence)

    def seekable(self):
        return True

    def size(self):
        """The file's size in bytes."""
        if self._f is not None:
            self._f.flush()
        return stat(self._path).length

    def flush(self):
        if self._f is not None:
            self._f.flush()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

