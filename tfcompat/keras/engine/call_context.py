"""Keras's per-thread call state: the `training` flag of nested layer calls (as Keras 3 propagates it),
symbolic (shape-inference) calls, lazy builds and name scopes.

One thread-local holds it all; each thread starts outside any call, build or symbolic scope.
"""
import threading

from tfcompat.eager.function._state import tls


class _CallState(threading.local):
    def __init__(self):
        self.stack = []       # `training` of each enclosing layer call, outermost first
        self.symbolic = 0     # depth of `symbolic_scope`s
        self.building = 0     # depth of builds run by a layer's first call (Keras warns only for explicit builds)
        self.scopes = []      # Keras name scopes: variables created inside get "<scope>/<name>" paths


# `Layer.__call__` (the eager step's hot path) reads and pushes `state.stack` and `state.scopes` itself: no function
# call per layer call for what is two list operations.
state = _CallState()


def in_symbolic():
    return state.symbolic > 0


class symbolic_scope:
    """Inside it, layers compute output shapes on placeholder values (no state updates; `tf.print` prints nothing,
    as in the graph Keras builds and never runs)."""

    def __enter__(self):
        state.symbolic += 1
        tls.shape_only += 1

    def __exit__(self, *exc):
        state.symbolic -= 1
        tls.shape_only -= 1


def building():
    """Whether a layer is being built by its first call on this thread."""
    return state.building > 0


def enter_build():
    state.building += 1


def exit_build():
    state.building -= 1


def name_scopes():
    """This thread's Keras name-scope stack (mutable: `keras.name_scope` and layer calls push and pop)."""
    return state.scopes
