"""Atomic, durable replacement of a SavedModel directory: a `kill -9` at any moment leaves the previous model or the
new one at the final name, never half of either.

The new directory is written in full to a sibling `.<name>.tfcompat-tmp-<pid>-<random>`, every file and directory in
it is fsynced, then it takes the final name:
- on Linux, one `renameat2(RENAME_EXCHANGE)` swaps it with the previous directory (the final name always holds a
  complete model), after which the previous one (now at the temporary name) is deleted;
- elsewhere (or where the filesystem refuses the exchange) the previous directory is renamed to
  `.<name>.tfcompat-old-<pid>-<random>`, the new one to the final name, and the old one is deleted. A kill between
  the two renames leaves no directory at the final name: `recover(path)` (called by `tf.saved_model.load`) then
  renames the newest `-old` sibling of a dead writer back, restoring the previous model.
Only a directory that holds a tfcompat SavedModel, or nothing, is replaced; a directory with other files keeps them
(the SavedModel's own entries are then replaced one by one, which is not atomic). The next save to the same place
removes temporaries and old copies of this naming left by dead processes.
"""
import ctypes
import ctypes.util
import os
import secrets
import shutil

from tfcompat.util.atomic_file import TAG, sync_directory

OLD_TAG = ".tfcompat-old-"
_OWN_ENTRIES = frozenset(("tfcompat_saved_model.json", "constants.npz", "variables", "assets"))
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_renameat2 = None
_active = set()         # temporaries this process's saves are writing now (other threads' must not be removed)


def _exchange(a, b):
    """Atomically swaps paths `a` and `b` (Linux renameat2); False when the system cannot."""
    global _renameat2
    if _renameat2 is None:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            _renameat2 = libc.renameat2
            _renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        except (OSError, AttributeError):
            _renameat2 = False
    if not _renameat2:
        return False
    if _renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):            # EINVAL, ENOSYS, EOPNOTSUPP: this filesystem or kernel cannot exchange
        return False
    raise OSError(err, os.strerror(err), a)


def _sibling(path, tag):
    directory, name = os.path.split(path)
    return os.path.join(directory, f".{name}{tag}{os.getpid()}-{secrets.token_hex(4)}")


def _siblings(path, tag):
    """[(full path, pid)] of this project's temporaries of `path` with `tag`."""
    directory, name = os.path.split(path)
    start = f".{name}{tag}"
    try:
        names = os.listdir(directory or ".")
    except OSError:
        return []
    out = []
    for entry in names:
        pid = entry[len(start):].split("-", 1)[0] if entry.startswith(start) else ""
        if pid.isdigit():
            out.append((os.path.join(directory, entry), int(pid)))
    return out


def _alive(pid):
    if pid == os.getpid():
        return False            # this process's own leftovers (its live temporaries are in `_active`)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _remove_stale(path):
    for tag in (TAG, OLD_TAG):
        for full, pid in _siblings(path, tag):
            if full not in _active and not _alive(pid):
                shutil.rmtree(full, ignore_errors=True)


def _sync_tree(root):
    """fsyncs every file and directory under `root`, then `root` itself."""
    for directory, _, files in os.walk(root, topdown=False):
        for f in files:
            fd = os.open(os.path.join(directory, f), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        sync_directory(directory)


def recover(path):
    """If `path` is missing but a dead writer left the previous SavedModel as an `-old` sibling, puts it back."""
    if os.path.lexists(path):
        return
    old = [(os.path.getmtime(full), full) for full, pid in _siblings(path, OLD_TAG)
           if full not in _active and not _alive(pid)]
    if old:
        try:
            os.rename(max(old)[1], path)
        except OSError:
            return
        sync_directory(os.path.dirname(path))


def replace_directory(path, write):
    """Calls `write(tmp)` to fill a new directory `tmp`, then puts it at `path` atomically (see module doc)."""
    if os.path.lexists(path) and not os.path.isdir(path):
        from tfcompat.framework import errors
        raise errors.FailedPreconditionError(None, None, f"{path} is not a directory")
    path = os.path.realpath(path)            # a symlink to a directory: the directory is replaced, the link kept
    parent = os.path.dirname(path)
    os.makedirs(parent, exist_ok=True)
    recover(path)
    _remove_stale(path)
    if os.path.isdir(path) and not set(os.listdir(path)) <= _OWN_ENTRIES:
        _replace_entries(path, write)
        return
    tmp = _sibling(path, TAG)
    mine = [tmp]
    _active.add(tmp)
    try:
        os.mkdir(tmp)
        write(tmp)
        _sync_tree(tmp)
        sync_directory(parent)
        if not os.path.lexists(path):
            os.rename(tmp, path)
        elif _exchange(tmp, path):
            sync_directory(parent)
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            old = _sibling(path, OLD_TAG)
            mine.append(old)
            _active.add(old)
            os.rename(path, old)
            os.rename(tmp, path)
            sync_directory(parent)
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        _active.difference_update(mine)
    sync_directory(parent)


def _replace_entries(path, write):
    """A directory holding other files: writes the SavedModel beside them, replacing its own entries one by one."""
    tmp = _sibling(path, TAG)
    try:
        os.mkdir(tmp)
        write(tmp)
        _sync_tree(tmp)
        marker = os.path.join(path, "tfcompat_saved_model.json")
        if os.path.exists(marker):
            os.unlink(marker)           # a half-replaced directory is then not taken for a SavedModel
        for entry in sorted(os.listdir(tmp), key=lambda e: e == "tfcompat_saved_model.json"):
            target = os.path.join(path, entry)
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target)
            os.replace(os.path.join(tmp, entry), target)
        sync_directory(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
