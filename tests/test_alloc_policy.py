"""tfcompat sets glibc's mmap/trim thresholds at import (tensor buffers from the heap, not fresh mmaps) unless the
user tunes the allocator; see tfcompat/_alloc_policy.py for the measurements."""
import subprocess
import sys

from tfcompat import _alloc_policy


def test_the_thresholds_are_set_only_on_linux_and_only_when_the_user_has_not_tuned_malloc():
    assert _alloc_policy.wanted({}, "linux")
    assert not _alloc_policy.wanted({}, "darwin") and not _alloc_policy.wanted({}, "win32")
    for env in ({"MALLOC_MMAP_THRESHOLD_": "1"}, {"MALLOC_TRIM_THRESHOLD_": "1"}, {"MALLOC_TOP_PAD_": "0"},
                {"MALLOC_MMAP_MAX_": "0"}, {"GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=1"},
                {"LD_PRELOAD": "/usr/lib/libjemalloc.so"}):
        assert not _alloc_policy.wanted(env, "linux"), env
    assert _alloc_policy.wanted({"GLIBC_TUNABLES": "glibc.pthread.rseq=0"}, "linux")
    assert (_alloc_policy.MMAP_THRESHOLD, _alloc_policy.TRIM_THRESHOLD) == (32 << 20, 64 << 20)


def test_import_applies_them_on_glibc_and_leaves_a_user_setting_alone():
    code = "import tfcompat._alloc_policy as a; print(a.applied)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    if sys.platform.startswith("linux"):
        import ctypes
        try:
            glibc = hasattr(ctypes.CDLL("libc.so.6"), "gnu_get_libc_version")
        except OSError:
            glibc = False
        assert run.stdout.strip() == str(glibc)
    env = {"MALLOC_MMAP_THRESHOLD_": "131072", "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert run.stdout.strip() == "False"
