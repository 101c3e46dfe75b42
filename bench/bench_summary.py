"""Writes 100,000 scalars with tf.summary (tfcompat) and with torch.utils.tensorboard.SummaryWriter.

Prints the median of 3 runs of each (writing, then closing so everything is on disk) and the ratio
tfcompat / torch (goal: <= 1.0).
"""
import shutil
import statistics
import sys
import tempfile
import time

N = 100_000


def run_tfcompat(logdir):
    import tfcompat as tf
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
        for i in range(N):
            tf.summary.scalar("loss", i * 0.001, step=i)
    writer.close()


def run_torch(logdir):
    from torch.utils.tensorboard import SummaryWriter
    writer = SummaryWriter(logdir)
    for i in range(N):
        writer.add_scalar("loss", i * 0.001, i)
    writer.close()


def median_time(fn, repeats=3):
    times = []
    for _ in range(repeats):
        logdir = tempfile.mkdtemp()
        start = time.perf_counter()
        fn(logdir)
        times.append(time.perf_counter() - start)
        shutil.rmtree(logdir, ignore_errors=True)
    return statistics.median(times)


def main():
    try:
        import torch.utils.tensorboard  # noqa: F401
    except ImportError as e:
        print(f"torch.utils.tensorboard unavailable: {e}")
        return 1
    t_tf = median_time(run_tfcompat)
    t_torch = median_time(run_torch)
    print(f"tf.summary.scalar (tfcompat)       x{N}: {t_tf:.3f} s ({t_tf / N * 1e6:.1f} us/scalar)")
    print(f"torch SummaryWriter.add_scalar     x{N}: {t_torch:.3f} s ({t_torch / N * 1e6:.1f} us/scalar)")
    print(f"ratio tfcompat / torch: {t_tf / t_torch:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
