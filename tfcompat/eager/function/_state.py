"""Where tf.function's runtime state lives: the per-thread trace state, live variables, `run_functions_eagerly`."""
import threading
import weakref

from tfcompat.framework import variables
from tfcompat.framework.export import tf_export
from tfcompat.ops import deprecation, random_ops


class _TraceState(threading.local):
    """What a trace in this thread has in effect; another thread sees its own (empty) state."""

    def __init__(self):
        self.recorder = None          # the `Recorder` of the trace running in this thread
        self.autograph = True         # the tracing Function's `autograph` (False: a traced tensor as bool raises)
        self.symbols = None           # id(Tensor) -> (label, shape): arguments of a body run symbolically
        self.stdout = None            # the real sys.stdout while a body re-runs quietly (see `_host.quiet`)
        self.callbacks_done = None    # host callback outputs of the replay running now (see `_host`)
        self.shape_only = 0           # depth of runs that only infer shapes (Keras's symbolic calls): TF builds a
                                      # graph it never runs there, so `tf.print` prints nothing


tls = _TraceState()
# a body traced (or run symbolically, or a Keras layer's shape-only call) is TF's graph mode, where
# @deprecated_args warnings are logged
deprecation.graph_check(lambda: tls.recorder is not None or tls.symbols is not None or tls.shape_only > 0)
random_ops.tracing_check(lambda: tls.recorder is not None)

live_vars = weakref.WeakValueDictionary()      # id(variable) -> variable: a trace resolves op inputs to their reads


def _on_variable(v):
    live_vars[id(v)] = v
    rec = tls.recorder
    if rec is not None:
        rec.created(v)


variables._creation_hooks.append(_on_variable)

_run_eagerly = [False]      # process-wide, as TF's switch


def current_recorder():
    """The recorder of the trace running in this thread, or None."""
    return tls.recorder


@tf_export("config.run_functions_eagerly")
def run_functions_eagerly(run_eagerly):
    """Makes every `tf.function` run its Python body on each call (no tracing), as TF's debug mode."""
    _run_eagerly[0] = bool(run_eagerly)


@tf_export("config.functions_run_eagerly")
def functions_run_eagerly():
    """Whether `tf.config.run_functions_eagerly(True)` is in effect."""
    return _run_eagerly[0]
