"""Idle torch CPU threads block rather than spin, as the workers of TF's thread pools do (set before torch loads).

libgomp, torch's OpenMP runtime, reads its wait policy once, when torch loads: this applies when tfcompat is
imported first and the user chose no policy (`OMP_WAIT_POLICY`, `GOMP_SPINCOUNT`). With libgomp's default spin,
each parallel op on a machine busier than its cores waits for descheduled spinning workers: a small Keras `fit`
step measured 20-30x slower at load 11 on 2 cores, and no slower than one thread with this setting.
"""
import os
import sys

if "torch" not in sys.modules and "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
