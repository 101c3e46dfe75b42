"""Shared test setup: tests run on the CPU build of torch, offline; each starts with Keras's default config."""
import os
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def _keras_defaults():
    """Keras's global config (floatx, epsilon, image format, dtype policy, name counters) as a new process has it."""
    config = sys.modules.get("tfcompat.keras._config")
    if config is not None:
        config.reset()


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
