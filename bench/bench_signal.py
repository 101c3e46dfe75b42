"""tf.signal's rfft and stft against the same torch calls, in one process.

    python bench/bench_signal.py [--device cpu|cuda] [--scale 0.1]

Cases: rfft of a 1024-sample float32 signal and of a [64, 512] batch; stft of one second at 16 kHz with
512-sample Hann frames every 128 samples (torch.stft with center=False computes the same frames), and
with 400-sample frames every 160 zero-padded to fft_length 512 (torch.stft centres a shorter window
inside n_fft, so its equivalent is unfold, window and rfft). Each call of tfcompat is timed right after the same
call of torch, so bursts of load from other processes on a shared machine fall on both alike; prints the
medians of those per-call times and the tfcompat/torch ratio (limit 1.2x); a 16-sample rfft shows the fixed
per-call cost (no limit).
"""
import argparse
import os
import statistics
import sys
import time

import tfcompat  # noqa: F401 - before torch, as a TF program imports it: its OpenMP wait policy holds for both sides
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import print_table


def _inputs(dev):
    g = torch.Generator().manual_seed(0)
    return {"small": torch.randn(16, generator=g).to(dev), "x1024": torch.randn(1024, generator=g).to(dev),
            "batch": torch.randn(64, 512, generator=g).to(dev), "audio": torch.randn(16000, generator=g).to(dev)}


def torch_cases(dev):
    x = _inputs(dev)
    hann512 = torch.hann_window(512, device=dev)
    hann400 = torch.hann_window(400, device=dev)

    def stft_400():
        return torch.fft.rfft(x["audio"].unfold(-1, 400, 160) * hann400, n=512)

    return {"rfft_16": lambda: torch.fft.rfft(x["small"]), "rfft_1024": lambda: torch.fft.rfft(x["x1024"]),
            "rfft_64x512": lambda: torch.fft.rfft(x["batch"]),
            "stft_16k_512/128": lambda: torch.stft(x["audio"], 512, 128, window=hann512, center=False,
                                                   return_complex=True),
            "stft_16k_400/160_fft512": stft_400}


def tfcompat_cases(dev):
    import tfcompat as tf
    x = {k: tf.constant(v.cpu().numpy()) for k, v in _inputs("cpu").items()}
    with tf.device(dev):
        x = {k: tf.identity(v) for k, v in x.items()}
    s = tf.signal
    return {"rfft_16": lambda: s.rfft(x["small"]), "rfft_1024": lambda: s.rfft(x["x1024"]),
            "rfft_64x512": lambda: s.rfft(x["batch"]),
            "stft_16k_512/128": lambda: s.stft(x["audio"], 512, 128),
            "stft_16k_400/160_fft512": lambda: s.stft(x["audio"], 400, 160, fft_length=512)}


LIMITS = {"rfft_16": None, "rfft_1024": 1.2, "rfft_64x512": 1.2, "stft_16k_512/128": 1.2,
          "stft_16k_400/160_fft512": 1.2}
CALLS = {"rfft_16": 20000, "rfft_1024": 20000, "rfft_64x512": 3000, "stft_16k_512/128": 2000,
         "stft_16k_400/160_fft512": 2000}


def paired_medians(ours, theirs, n):
    """Medians (us) of `n` alternating calls of `theirs` then `ours`, after a warm-up."""
    for _ in range(min(n, 50)):
        theirs()
        ours()
    clock = time.perf_counter
    t_ours, t_theirs = [], []
    for _ in range(n):
        t0 = clock()
        theirs()
        t1 = clock()
        ours()
        t2 = clock()
        t_theirs.append(t1 - t0)
        t_ours.append(t2 - t1)
    return statistics.median(t_ours) * 1e6, statistics.median(t_theirs) * 1e6


def check_same_values(ours, theirs):
    """The compared calls compute the same frames (stft's layout is [frames, bins], torch.stft's [bins, frames])."""
    for case in LIMITS:
        a, b = ours[case]().numpy(), theirs[case]().cpu().numpy()
        b = b.T if case.startswith("stft_16k_512") else b
        assert a.shape == b.shape and abs(a - b).max() <= 1e-3 * max(1.0, abs(b).max()), case


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the call counts (0.1 for a quick run)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch CPU threads (1: on a shared machine, waits for busy cores swamp the comparison)")
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    ours = tfcompat_cases("/gpu:0" if a.device == "cuda" else "/cpu:0")
    theirs = torch_cases(torch.device(a.device))
    check_same_values(ours, theirs)
    rows = []
    for case, limit in LIMITS.items():
        t_ours, t_theirs = paired_medians(ours[case], theirs[case], max(10, int(CALLS[case] * a.scale)))
        rows.append((case, t_ours, t_theirs, limit))
    ok = print_table(f"tf.signal on {a.device} (median us/call)", rows)
    print("all within limits" if ok else "SOME CASES OVER THE LIMIT")


if __name__ == "__main__":
    main()
