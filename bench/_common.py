"""Shared timing helpers for the benchmarks: medians of repeats, ratio tables."""
import statistics
import time


def per_call_us(fn, n, repeats=7):
    """Median over `repeats` runs of the time per call of `fn`, in microseconds (after a warm-up)."""
    for _ in range(min(n, 50)):
        fn()
    reps = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        reps.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(reps)


def print_table(title, rows, unit="us"):
    """rows: (case, tfcompat_time, torch_time, limit or None)."""
    print(title)
    print(f"{'case':28s} {'tfcompat':>12s} {'torch':>12s} {'ratio':>7s} {'limit':>6s}")
    ok = True
    for case, ours, theirs, limit in rows:
        ratio = ours / theirs
        flag = "" if limit is None or ratio <= limit else "  OVER"
        ok = ok and not flag
        lim = f"{limit:.2f}" if limit else "-"
        print(f"{case:28s} {ours:10.2f}{unit} {theirs:10.2f}{unit} {ratio:7.2f} {lim:>6s}{flag}")
    return ok
