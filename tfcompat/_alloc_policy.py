"""Where glibc's malloc puts tensor buffers: large ones in the heap, not in fresh `mmap`s (set at import, Linux/glibc).

torch's CPU allocator takes each tensor buffer from `malloc`. glibc serves blocks above its mmap threshold (128 KiB at
start) with a new `mmap`, whose pages fault in on first touch and go back to the system on `free`; the threshold only
grows, up to 32 MiB, as such blocks are freed, so how many of a training step's buffers fault in anew depends on the
order of the process's first frees. Measured on 2 cores (`bench/bench_keras_fit.py`, the seed convnet's epoch): fit
took 0.80 s in one process and 1.32 s in the next, its ratio to the torch loop 0.89x-1.21x; with the threshold set
from the start to glibc's own ceiling (32 MiB, trim threshold 64 MiB: the values its dynamic rule converges to) it
takes 0.75-0.76 s, ratio 0.90-0.93x, and the torch loop gets faster too; peak RSS of `fit` on MNIST stays 0.89x the
torch loop's (`bench_memory.py`). Left alone when the user tunes malloc (`MALLOC_*_` variables, `GLIBC_TUNABLES`) or
preloads another allocator."""
import ctypes
import os
import sys

MMAP_THRESHOLD = 32 << 20       # glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit systems
TRIM_THRESHOLD = 64 << 20       # twice the mmap threshold, as glibc's dynamic rule sets it
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3       # mallopt parameters (malloc.h)
_USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")


def wanted(environ, platform):
    """Whether tfcompat sets the thresholds: on Linux, unless the environment already tunes the allocator."""
    if not platform.startswith("linux") or any(k in environ for k in _USER_SETTINGS):
        return False
    return "malloc" not in environ.get("GLIBC_TUNABLES", "") and "malloc" not in environ.get("LD_PRELOAD", "")


def apply():
    """Sets glibc's mmap and trim thresholds; False where there is no glibc `mallopt` (musl, another libc)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        if not hasattr(libc, "gnu_get_libc_version"):      # glibc only
            return False
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


applied = wanted(os.environ, sys.platform) and apply()
