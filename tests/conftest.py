import os

import pytest

import tfcompat as tf


@pytest.fixture(autouse=True)
def _seed():
    """Each test starts from TF's default random state."""
    if hasattr(tf.random, "set_seed"):
        tf.random.set_seed(None) if False else None
    yield


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
