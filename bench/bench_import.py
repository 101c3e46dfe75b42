"""`import tfcompat` against `import torch`: whole-process wall time, median of 5 (limit 1.15x)."""
import statistics
import subprocess
import sys
import time


def run(stmt, n=5):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", stmt], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    run("import torch", 1)   # warm the page cache
    t_torch = run("import torch")
    t_ours = run("import tfcompat")
    ratio = t_ours / t_torch
    print(f"import torch    {t_torch:6.3f} s")
    print(f"import tfcompat {t_ours:6.3f} s   ratio {ratio:.2f} (limit 1.15){'  OVER' if ratio > 1.15 else ''}")


if __name__ == "__main__":
    main()
