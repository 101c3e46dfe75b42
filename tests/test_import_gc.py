"""`import tfcompat` pauses the cyclic collector only while its own modules load (tfcompat/__init__.py)."""
import subprocess
import sys

_REPORT = """
import gc
{before}
stops = []
gc.callbacks.append(lambda phase, info: phase == "stop" and info["generation"] == 2 and stops.append(1))
import torch
torch_stops = len(stops)
import tfcompat
print(gc.isenabled(), len(stops) - torch_stops)
"""


def _run(before=""):
    code = _REPORT.format(before=before)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return out[0] == "True", int(out[1])


def test_the_collector_is_enabled_again_after_the_import_and_made_no_full_pass_during_it():
    enabled, full_passes = _run()
    assert enabled
    assert full_passes == 0


def test_a_collector_the_program_disabled_stays_disabled():
    enabled, _ = _run("gc.disable()")
    assert not enabled
