"""How idle torch CPU threads wait between ops (set before torch loads): they spin briefly, then block, as the
workers of TF's thread pools do; on a machine already busier than its cores they block at once.

libgomp, torch's OpenMP runtime, reads its wait policy once, when torch loads: this applies when tfcompat is
imported first and the user chose no policy (`OMP_WAIT_POLICY`, `GOMP_SPINCOUNT`). The choice is made from the load
average at import. Measured on 2 cores (a Keras-sized MLP step, 784-128-10, batch 32, and the seed convnet step):
- quiet machine: a bounded spin (`GOMP_SPINCOUNT=100000`) runs the MLP step in 0.83 ms where blocking at once
  (`OMP_WAIT_POLICY=PASSIVE`) takes 2.1 ms (each of the step's small parallel ops woke sleeping workers), the convnet
  step in 4.2 ms where PASSIVE takes 5.0;
- busier than its cores (load 9-11 on 2): PASSIVE 36 ms, the bounded spin 121 ms, libgomp's default spin 20-30x
  slower than PASSIVE (spinning workers wait for descheduled ones).
"""
import os
import sys


def _busy():
    """Whether the machine already runs more work than this process may use cores (1-minute load average)."""
    try:
        return os.getloadavg()[0] >= len(os.sched_getaffinity(0))
    except (AttributeError, OSError):        # no load average (Windows) or affinity (macOS): assume a busy machine
        return True


if "torch" not in sys.modules and "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    if _busy():
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    else:
        os.environ["GOMP_SPINCOUNT"] = "100000"
