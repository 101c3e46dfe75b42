"""`import tfcompat` before torch makes idle OpenMP workers block (OMP_WAIT_POLICY=PASSIVE) unless the user chose."""
import os
import subprocess
import sys

from conftest import REPO

_SCRIPT = "import os, sys\n{first}\nimport tfcompat\nprint(os.environ.get('OMP_WAIT_POLICY'))"


def _policy(first, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    out = subprocess.run([sys.executable, "-c", _SCRIPT.format(first=first)], env=dict(base, **env), cwd=REPO,
                         capture_output=True, text=True, check=True)
    return out.stdout.split()[-1]


def test_tfcompat_first_sets_a_passive_wait_policy():
    assert _policy("") == "PASSIVE"


def test_a_user_choice_or_torch_loaded_first_is_left_alone():
    assert _policy("", OMP_WAIT_POLICY="ACTIVE") == "ACTIVE"
    assert _policy("import torch") == "None"
