"""tf.function tracing is confined to the tracing thread: torch and tf.Tensor are the same for every other thread
and after the trace (the trace uses torch's per-thread modes, not patches)."""
import threading

import numpy as np
import torch

import tfcompat as tf
from tfcompat.framework.tensor import Tensor

_TORCH_METHODS = ("numpy", "tolist", "__array__", "item", "__bool__")
_TENSOR_METHODS = ("__str__", "__repr__", "__format__", "__bool__", "numpy")


def _identities():
    return ({n: torch.Tensor.__dict__.get(n, getattr(torch.Tensor, n)) for n in _TORCH_METHODS},
            {n: getattr(Tensor, n) for n in _TENSOR_METHODS})


def test_another_thread_sees_torch_unchanged_while_a_trace_runs():
    torch_before, tensor_before = _identities()
    inside, release = threading.Event(), threading.Event()
    calls, seen = [], {}

    @tf.function
    def f(x):
        calls.append(1)
        seen["traced"] = x
        seen["str_in_trace"] = str(x)
        inside.set()
        assert release.wait(30)
        return x * 2.0

    def other_thread():
        try:
            assert inside.wait(30)
            seen["torch"] = {n: torch.Tensor.__dict__.get(n, getattr(torch.Tensor, n)) is m
                             for n, m in torch_before.items()}
            t = torch.tensor([1.0, 2.0])
            seen["values"] = (t.numpy().tolist(), t.tolist(), np.asarray(t).tolist(), t[1].item())
            x = seen["traced"]
            seen["repr_other"] = repr(x)
            seen["read_other"] = (x.numpy().tolist(), x._t.tolist(), bool(x[0]))   # no guard for the trace
        finally:
            release.set()

    worker = threading.Thread(target=other_thread)
    worker.start()
    out = f(tf.constant([1.0, 2.0]))
    worker.join(30)
    assert seen["torch"] == {n: True for n in _TORCH_METHODS}
    assert seen["values"] == ([1.0, 2.0], [1.0, 2.0], [1.0, 2.0], 2.0)
    assert seen["str_in_trace"] == 'Tensor("x:0", shape=(2,), dtype=float32)'      # TF 2.21's text
    assert seen["repr_other"] == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    assert seen["read_other"] == ([1.0, 2.0], [1.0, 2.0], True)
    assert out.numpy().tolist() == [2.0, 4.0]
    # the other thread's reads of the traced value added no guard: new values replay without the body
    assert f(tf.constant([5.0, 6.0])).numpy().tolist() == [10.0, 12.0]
    assert calls == [1] and f.experimental_get_tracing_count() == 1
    assert _identities() == (torch_before, tensor_before)


def test_host_reads_inside_the_trace_are_guards():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x * float(np.asarray(x._t).sum()) + len(x._t.tolist()) + x.numpy()[0]

    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [6.0, 9.0]
    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [6.0, 9.0]
    assert calls == [1]                                                      # same values: replayed
    assert f(tf.constant([2.0, 2.0])).numpy().tolist() == [12.0, 12.0]
    assert calls == [1, 1] and f.experimental_get_tracing_count() == 1      # a guard failed: the body ran again


def test_torch_is_unchanged_after_a_failed_trace():
    before = _identities()

    @tf.function
    def f(x):
        x.numpy()
        raise ValueError("stop")

    try:
        f(tf.constant(1.0))
    except ValueError:
        pass
    assert _identities() == before
    assert repr(tf.constant(1.0)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"
