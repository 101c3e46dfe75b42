"""Code that runs on the host outside a trace's recording: host callbacks, `tf.init_scope`, quiet re-runs."""
import contextlib
import sys

import torch

from tfcompat.eager.function._state import live_vars, tls
from tfcompat.framework import variables
from tfcompat.framework.tensor import _wrap, storage
from tfcompat.ops import candidate_sampling_ops, config_ops, ctc_ops, debugging_ops, lookup_ops
from tfcompat.util import nest


def host_call(fn, flat_inputs):
    """Runs host callback `fn` on tensor storages; inside a trace it is recorded to run on every call."""
    rec = tls.recorder
    if rec is None or rec.paused:
        with _loud():
            return fn(flat_inputs)
    if rec.grad_depth:
        raise Unreplayable("a host callback in a custom gradient function")
    rec.paused += 1
    try:
        if rec.cb_replay:
            out = rec.cb_replay.pop(0)
        else:
            with _loud():
                out = fn(flat_inputs)
    finally:
        rec.paused -= 1
    rec.cb_log.append(out)
    rec.callback(fn, flat_inputs, out)
    return out


def _strips_debug_ops(*tensors):
    """Whether Grappler's `debug_stripper` removes a failing assert, CheckNumerics or a print here: the option is on and
    a tf.function body runs (traced, or again for a call), the op's tensors (if given) computed from its inputs. A trace
    that strips one is not replayed: its body runs on each call, which reads the option then, as TF's optimizer."""
    if not config_ops.debug_stripper():
        return False
    rec = tls.recorder
    if rec is None:
        return tls.stdout is not None or tls.symbols is not None
    if rec.paused or (tensors and not any(isinstance(storage(t), torch.Tensor) and rec.is_dynamic(storage(t))
                                          for t in tensors)):
        return False
    rec.unreplayable = True
    return True


debugging_ops.register_debug_stripper(_strips_debug_ops)
lookup_ops.register_host_call(host_call)     # table ops run on every call of a traced function
candidate_sampling_ops.register_host_call(host_call)     # so do candidate samplers (fresh draws) and accidental hits
ctc_ops.register_host_call(host_call)        # and the CTCLoss kernel's reading of sparse labels


class Unreplayable(Exception):
    """Raised while a custom gradient function is recorded: it cannot be replayed (see `Recorder.custom`)."""


def logged_callback(fn, inputs):
    """A replay's host callback: runs `fn` and notes its output (a guard failing later does not run it twice)."""
    out = fn(inputs)
    done = tls.callbacks_done
    if done is not None:
        done.append(out)
    return out


def constant_result(value, _inputs):
    """A host callback that already ran: its output."""
    return value


class _Quiet:
    """Python's stdout while the body runs again outside a trace: TF prints from the body only when tracing."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


@contextlib.contextmanager
def quiet():
    saved, tls.stdout = tls.stdout, sys.stdout
    sys.stdout = _Quiet()
    try:
        yield
    finally:
        sys.stdout, tls.stdout = tls.stdout, saved


@contextlib.contextmanager
def _loud():
    """Host callbacks (tf.print, py_function) run with the real stdout."""
    real = tls.stdout
    if real is None or sys.stdout is real:
        yield
        return
    quiet_out, sys.stdout = sys.stdout, real
    try:
        yield
    finally:
        sys.stdout = quiet_out


class _InitScope:
    """`tf.init_scope()` inside a trace: ops run once now, unrecorded; variable changes are kept, not replayed."""

    def __enter__(self):
        rec = tls.recorder
        self._rec = rec
        if rec is not None:
            rec.paused += 1
            self._before = {vid: storage(v) for vid, v in list(live_vars.items())}
        return None

    def __exit__(self, *exc):
        rec = self._rec
        if rec is not None:
            rec.paused -= 1
            for vid, v in list(live_vars.items()):
                t = storage(v)
                if self._before.get(vid) is not t and isinstance(t, torch.Tensor):
                    rec.start[vid] = t
                    rec.watch_variable(v, t)
                    # a variable created in this trace starts from this value (e.g. restored from a checkpoint)
                    rec.new_vars = [(n, t if n is v else t0) for n, t0 in rec.new_vars]
        return False


def init_scope_context():
    """The context `tf.init_scope()` should return: lifts code out of a tf.function trace (see `_InitScope`)."""
    return _InitScope()


variables._init_scope[0] = init_scope_context


# -- next() on a tf.data iterator -------------------------------------------------------------------------------------
def install_iterator_hook():
    """Makes `next()` on a tf.data iterator inside a trace a host callback that fetches the next element on every
    call. Installed once, at the first trace after `tf.data` is imported (no iterator can exist before); outside a
    trace it costs one thread-local attribute read per element."""
    data = sys.modules.get("tfcompat.data.dataset")
    if data is None or getattr(data.OwnedIterator.__next__, "_traced_next", False):
        return
    plain_next = data.OwnedIterator.__next__

    def __next__(self):
        rec = tls.recorder
        if rec is None or rec.paused:
            return plain_next(self)
        flat = host_call(lambda _: [storage(x) for x in nest.flatten(plain_next(self))], [])
        return nest.pack_sequence_as(self.element_spec, [_wrap(t) for t in flat])

    __next__._traced_next = True
    __next__.__doc__ = plain_next.__doc__
    data.OwnedIterator.__next__ = __next__
