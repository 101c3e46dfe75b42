"""`import tfcompat` before torch chooses how idle OpenMP workers wait (a bounded spin on a quiet machine, blocking
at once on a busy one) unless the user chose."""
import os
import subprocess
import sys

from conftest import REPO

_SCRIPT = ("import os, sys\n{first}\nimport tfcompat\n"
           "print(os.environ.get('OMP_WAIT_POLICY'), os.environ.get('GOMP_SPINCOUNT'))")
_FAKE_LOAD = "os.getloadavg = lambda: ({load}, {load}, {load})"


def _policy(first, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    out = subprocess.run([sys.executable, "-c", _SCRIPT.format(first=first)], env=dict(base, **env), cwd=REPO,
                         capture_output=True, text=True, check=True)
    return out.stdout.split()[-2:]


def test_tfcompat_first_spins_briefly_on_a_quiet_machine_and_blocks_on_a_busy_one():
    assert _policy(_FAKE_LOAD.format(load=0.0)) == ["None", "100000"]
    assert _policy(_FAKE_LOAD.format(load=1e6)) == ["PASSIVE", "None"]


def test_a_user_choice_or_torch_loaded_first_is_left_alone():
    assert _policy("", OMP_WAIT_POLICY="ACTIVE") == ["ACTIVE", "None"]
    assert _policy("", GOMP_SPINCOUNT="5") == ["None", "5"]
    assert _policy("import torch") == ["None", "None"]
