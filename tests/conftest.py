"""Shared test setup: tests run offline on the CPU (the `device` fixture adds CUDA cases where torch has CUDA); each
starts with Keras's default config."""
import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Device:
    """A device the device-parametrized tests run on: its TF name, torch device and TF's full device string."""

    def __init__(self, kind):
        self.kind = kind
        self.tf = "/GPU:0" if kind == "cuda" else "/CPU:0"
        self.full = "/job:localhost/replica:0/task:0/device:" + ("GPU:0" if kind == "cuda" else "CPU:0")

    def __repr__(self):
        return self.kind


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: runs on the CUDA device (skipped when torch has no CUDA); "
                                       "`pytest -m cuda` selects the CUDA cases")


@pytest.fixture(params=["cpu", pytest.param("cuda", marks=pytest.mark.cuda)])
def device(request):
    """Runs a test on the CPU, and again on the GPU when torch has CUDA (the CUDA case is skipped otherwise)."""
    if request.param == "cuda":
        import torch
        if not torch.cuda.is_available():
            pytest.skip("CUDA is not available")
    return Device(request.param)


@pytest.fixture(autouse=True)
def _keras_defaults():
    """Keras's global config (floatx, epsilon, image format, dtype policy, name counters) and TF's global random
    seed as a new process has them."""
    config = sys.modules.get("tfcompat.keras._config")
    if config is not None:
        config.reset()
    random_ops = sys.modules.get("tfcompat.ops.random_ops")     # and TF's random state: no global seed, op seeds and
    if random_ops is not None:                                   # kernel streams restarted
        random_ops.set_seed(None)


def golden_result(expr):
    """The repr of the value of `expr` (a `!`-prefixed statement sets `_`), or '!Class: message'.

    The golden-value tests compare it with what TF 2.21 printed for the same expression.
    """
    import numpy as np

    import tfcompat as tf
    env = {"tf": tf, "np": np}
    try:
        if expr.startswith("!"):
            exec(expr[1:].replace(";", "\n"), env)
            value = env.get("_")
        else:
            value = eval(expr, env)
        return repr(value)
    except Exception as e:  # noqa: BLE001 - the error is the result
        return "!" + type(e).__name__ + ": " + str(e)
