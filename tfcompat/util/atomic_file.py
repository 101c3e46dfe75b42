"""Atomic, durable file writes: a temporary file beside the target, fsync, rename, fsync of the directory.

A kill at any moment leaves either the old file or the new one at the final name, never half a file.
Temporaries are named `.<target name>.tfcompat-tmp-<pid>-<random>`; the next save to the same target
removes those left by dead processes (a killed save), never one a live writer is still filling.
The final file gets the mode a plain `open(path, "w")` gives (0666 less the umask), as TF's files do;
with `keep_mode` an existing file keeps its mode, as Keras's in-place overwrites do.
"""
import os
import secrets
import threading

TAG = ".tfcompat-tmp-"
_active = set()             # this process's temporaries being written (other threads' must not be removed)
_active_lock = threading.Lock()


def temp_path(path):
    """A fresh temporary name for `path`, in the same directory (so the rename stays on one filesystem)."""
    directory, name = os.path.split(path)
    return os.path.join(directory, f".{name}{TAG}{os.getpid()}-{secrets.token_hex(4)}")


def _pid_alive(pid):
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stale(path, any_suffix=False):
    """Deletes temporaries of `path` left by dead processes (or finished ones of this process); with
    `any_suffix`, those of every file whose name starts with `path`'s (a checkpoint's `ckpt-*` files)."""
    directory, name = os.path.split(path)
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return
    start = f".{name}" if any_suffix else f".{name}{TAG}"
    for entry in names:
        if not entry.startswith(start) or TAG not in entry:
            continue
        full = os.path.join(directory, entry)
        pid = entry.rsplit(TAG, 1)[1].split("-", 1)[0]
        if not pid.isdigit():
            continue
        if int(pid) == os.getpid():
            with _active_lock:
                if full in _active:
                    continue
        elif _pid_alive(int(pid)):
            continue
        try:
            os.unlink(full)
        except OSError:
            pass


def sync_directory(directory):
    """fsyncs a directory so that renames and unlinks in it survive a power loss."""
    try:
        fd = os.open(directory or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass          # some filesystems cannot fsync directories; the rename itself is still atomic
    finally:
        os.close(fd)


class AtomicFile:
    """A temporary file beside `path`, open for binary writing as `.file`; `commit()` fsyncs it and renames it
    to `path`, `discard()` deletes it. Nothing appears at `path` before `commit()`."""

    def __init__(self, path):
        path = os.fspath(path)
        self.path = os.path.realpath(path) if os.path.islink(path) else path   # a link's target is rewritten
        remove_stale(self.path)
        self.tmp = temp_path(self.path)
        with _active_lock:
            _active.add(self.tmp)
        try:
            self.file = open(self.tmp, "xb")      # O_EXCL; mode 0666 less the umask
        except BaseException:
            self._forget()
            raise

    def _forget(self):
        with _active_lock:
            _active.discard(self.tmp)

    def commit(self, sync_dir=True, keep_mode=False):
        """Puts the written bytes at `path`: fsync, (optionally the old file's mode), rename, fsync of the directory."""
        try:
            if self.file.closed:                   # filled by name (h5py, zipfile): sync through a new descriptor
                self.file = open(self.tmp, "rb")
            else:
                self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            if keep_mode:
                try:
                    os.chmod(self.tmp, os.stat(self.path).st_mode & 0o7777)
                except FileNotFoundError:
                    pass
            os.replace(self.tmp, self.path)
        except BaseException:
            self.discard()
            raise
        self._forget()
        if sync_dir:
            sync_directory(os.path.dirname(self.path))

    def discard(self):
        """Closes and deletes the temporary file."""
        self.file.close()
        try:
            os.unlink(self.tmp)
        except OSError:
            pass
        self._forget()


def atomic_write(path, write, sync_dir=True, keep_mode=False):
    """Calls `write(tmp)` to fill a temporary file next to `path`, fsyncs it and renames it over `path`.

    `tmp` already exists (empty, mode 0666 less the umask); `write` may open it by name (h5py, zipfile).
    With `sync_dir=False` the caller fsyncs the directory itself (`sync_directory`) after a batch of files;
    with `keep_mode` the file keeps the permission bits of the file it replaces.
    """
    out = AtomicFile(path)
    out.file.close()
    try:
        write(out.tmp)
    except BaseException:
        out.discard()
        raise
    out.commit(sync_dir, keep_mode)
    return out.path


def write_bytes(path, chunks, sync_dir=True):
    """Atomically writes the bytes-like `chunks`, in order, to `path`."""
    out = AtomicFile(path)
    try:
        for chunk in chunks:
            out.file.write(chunk)
    except BaseException:
        out.discard()
        raise
    out.commit(sync_dir)
    return out.path
