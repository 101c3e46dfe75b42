"""absltest's per-test temporary files, which `tf.test.TestCase` inherits: `create_tempdir`/`create_tempfile` under
--test_tmpdir (else $TEST_TMPDIR, else `<tmp>/absl_testing`)/<Class>/<test method>, removed when the test ends (unless `cleanup`'s
name is OFF), as path-like `TempDir`/`TempFile` objects."""
import contextlib
import enum
import os
import shutil
import stat
import tempfile


class TempFileCleanup(enum.Enum):
    """When a test's temporary files are removed (absltest's enum; `TestCase.tempfile_cleanup`)."""
    ALWAYS = "always"
    SUCCESS = "success"
    OFF = "never"


ROOT = []       # --test_tmpdir's value, when tf.test.main was given one


def _root():
    if ROOT:
        return ROOT[0]
    return os.environ.get("TEST_TMPDIR", "") or os.path.join(tempfile.gettempdir(), "absl_testing")


def _remove(path):
    if os.path.isfile(path):
        try:
            os.unlink(path)
        except OSError:
            pass
    else:
        shutil.rmtree(path, ignore_errors=True)


def _first_part(path):
    return path.split(os.sep, 1)[0]


class TempDir:
    """A test's temporary directory (`os.PathLike`)."""

    def __init__(self, path):
        self._path = path

    @property
    def full_path(self):
        return self._path

    def __fspath__(self):
        return self._path

    def create_file(self, file_path=None, content=None, mode="w", encoding="utf8", errors="strict"):
        """A file in this directory (a unique name if `file_path` is None), holding `content`."""
        return TempFile._create(self._path, file_path, content, mode, encoding, errors)[0]

    def mkdir(self, dir_path=None):
        """A directory in this directory (a unique name if `dir_path` is None)."""
        path = os.path.join(self._path, dir_path) if dir_path else tempfile.mkdtemp(dir=self._path)
        os.makedirs(path, exist_ok=True)
        return TempDir(path)


class TempFile:
    """A test's temporary file (`os.PathLike`) with text and bytes helpers."""

    def __init__(self, path):
        self._path = path

    @classmethod
    def _create(cls, base_path, file_path, content, mode, encoding, errors):
        if file_path:
            cleanup_path = os.path.join(base_path, _first_part(file_path))
            path = os.path.join(base_path, file_path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if os.path.exists(path) and not os.access(path, os.W_OK):
                os.chmod(path, os.stat(path).st_mode | stat.S_IWUSR)
        else:
            os.makedirs(base_path, exist_ok=True)
            fd, path = tempfile.mkstemp(dir=str(base_path))
            os.close(fd)
            cleanup_path = path
        f = cls(path)
        if content:
            if isinstance(content, str):
                f.write_text(content, mode=mode, encoding=encoding, errors=errors)
            else:
                f.write_bytes(content, mode)
        else:
            f.write_bytes(b"")
        return f, cleanup_path

    @property
    def full_path(self):
        return self._path

    def __fspath__(self):
        return self._path

    def read_text(self, encoding="utf8", errors="strict"):
        with self.open_text(encoding=encoding, errors=errors) as fp:
            return fp.read()

    def read_bytes(self):
        with self.open_bytes() as fp:
            return fp.read()

    def write_text(self, text, mode="w", encoding="utf8", errors="strict"):
        with self.open_text(mode, encoding=encoding, errors=errors) as fp:
            fp.write(text)

    def write_bytes(self, data, mode="wb"):
        with self.open_bytes(mode) as fp:
            fp.write(data)

    def open_text(self, mode="rt", encoding="utf8", errors="strict"):
        if "b" in mode:
            raise ValueError(f'Invalid mode {mode!r}: "b" flag not allowed when opening file in text mode')
        if "t" not in mode:
            mode += "t"
        return self._open(mode, encoding, errors)

    def open_bytes(self, mode="rb"):
        if "t" in mode:
            raise ValueError(f'Invalid mode {mode!r}: "t" flag not allowed when opening file in binary mode')
        if "b" not in mode:
            mode += "b"
        return self._open(mode, None, None)

    @contextlib.contextmanager
    def _open(self, mode, encoding="utf8", errors="strict"):
        with open(self._path, mode=mode, encoding=encoding, errors=errors) as fp:
            yield fp


class TempFilesMixin:
    """`create_tempdir` and `create_tempfile` for a unittest.TestCase."""

    def _tempdir_path_test(self):
        return os.path.join(_root(), type(self).__qualname__.replace("__main__.", ""), self._testMethodName)

    tempfile_cleanup = TempFileCleanup.ALWAYS

    def _add_temp_cleanup(self, path, cleanup):
        policy = getattr(cleanup if cleanup is not None else self.tempfile_cleanup, "name", None)
        if policy == "ALWAYS":
            self.addCleanup(_remove, path)
        elif policy == "SUCCESS":
            self.addCleanup(self._remove_on_success, path)
        elif policy != "OFF":
            raise AssertionError(f"Unexpected cleanup value: {cleanup}")

    def _remove_on_success(self, path):
        outcome = getattr(self, "_outcome", None)
        if outcome is None or getattr(outcome, "success", True):
            _remove(path)

    def create_tempdir(self, name=None, cleanup=None):
        """A fresh (emptied) directory for this test, removed when it ends."""
        test_path = self._tempdir_path_test()
        if name:
            path = os.path.join(test_path, name)
            cleanup_path = os.path.join(test_path, _first_part(name))
        else:
            os.makedirs(test_path, exist_ok=True)
            path = tempfile.mkdtemp(dir=test_path)
            cleanup_path = path
        _remove(cleanup_path)
        os.makedirs(path, exist_ok=True)
        self._add_temp_cleanup(cleanup_path, cleanup)
        return TempDir(path)

    def create_tempfile(self, file_path=None, content=None, mode="w", encoding="utf8", errors="strict",
                        cleanup=None):
        """A file for this test (emptied, then holding `content`), removed when it ends."""
        f, cleanup_path = TempFile._create(self._tempdir_path_test(), file_path, content, mode, encoding, errors)
        self._add_temp_cleanup(cleanup_path, cleanup)
        return f
