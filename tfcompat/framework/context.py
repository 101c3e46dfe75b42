"""The eager context: per-thread tape stack and device scope, as TF keeps them.

Tapes are thread-local (as in TF). `state.recording` counts the tapes of this
thread that are recording now; ops consult it only when an input carries a
torch graph, so code outside tapes pays nothing for autodiff.
"""
import threading

import torch


class _ThreadState(threading.local):
    def __init__(self):
        self.tapes = []          # active GradientTapes / ForwardAccumulators, outermost first
        self.recording = 0       # how many of them record right now
        self.device = None       # torch.device of the innermost tf.device scope, or None
        self.device_name = None  # TF's canonical name of that device
        self.name_scope = []     # tf.name_scope stack


state = _ThreadState()

_default_device = []


def default_device():
    """The device new tensors go to outside any `tf.device` scope: GPU:0 when CUDA is present, as in TF."""
    if not _default_device:
        _default_device.append(torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu"))
    return _default_device[0]


def current_device():
    d = state.device
    return d if d is not None else default_device()


def recording():
    return state.recording > 0
