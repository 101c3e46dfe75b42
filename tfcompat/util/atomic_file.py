"""Atomic, durable file writes: a temporary file beside the target, fsync, rename, fsync of the directory.

A kill at any moment leaves either the old file or the new one at the final name, never half a file.
Temporaries are named `.<target name>.tfcompat-tmp-<pid>-<random>`; the next save to the same target
removes those left by dead processes (a killed save), never one a live writer is still filling.
The final file gets the mode a plain `open(path, "w")` gives (0666 less the umask), as TF and Keras files do.
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


def remove_stale(path):
    """Deletes temporaries of `path` left by dead processes (or finished ones of this process)."""
    directory, name = os.path.split(path)
    start = f".{name}{TAG}"
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return
    for entry in names:
        if not entry.startswith(start):
            continue
        full = os.path.join(directory, entry)
        pid = entry[len(start):].split("-", 1)[0]
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


def atomic_write(path, write, sync_dir=True):
    """Calls `write(tmp)` to fill a temporary file next to `path`, fsyncs it and renames it over `path`.

    `tmp` already exists (empty, mode 0666 less the umask); `write` may open it by name (h5py, zipfile).
    With `sync_dir=False` the caller fsyncs the directory itself (`sync_directory`) after a batch of files.
    """
    path = os.fspath(path)
    remove_stale(path)
    tmp = temp_path(path)
    with _active_lock:
        _active.add(tmp)
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        with _active_lock:
            _active.discard(tmp)
    if sync_dir:
        sync_directory(os.path.dirname(path))
    return path


def write_bytes(path, chunks, sync_dir=True):
    """Atomically writes the bytes-like `chunks`, in order, to `path`."""
    def write(tmp):
        with open(tmp, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
    return atomic_write(path, write, sync_dir)
