"""The state shared by nested layer calls: the `training` flag, as Keras 3 propagates it."""
import threading

_state = threading.local()


def current_training():
    """The `training` value of the innermost enclosing layer call that set one, else None."""
    stack = getattr(_state, "stack", None)
    return stack[-1] if stack else None


def current_depth():
    """How many layer calls enclose this point (0 outside any call)."""
    stack = getattr(_state, "stack", None)
    return len(stack) if stack else 0


def push(training):
    stack = getattr(_state, "stack", None)
    if stack is None:
        stack = _state.stack = []
    stack.append(training)


def pop():
    _state.stack.pop()


def in_symbolic():
    return getattr(_state, "symbolic", 0) > 0


class symbolic_scope:
    """Inside it, layers compute output shapes on placeholder values (no state updates)."""

    def __enter__(self):
        _state.symbolic = getattr(_state, "symbolic", 0) + 1

    def __exit__(self, *exc):
        _state.symbolic -= 1
