"""Which strategy and replica context are in effect, per thread (TF's distribution context stack)."""
import threading


class _State(threading.local):
    def __init__(self):
        self.stack = []        # (strategy, replica context or None for cross-replica), innermost last


state = _State()
_default = []                  # [(default strategy, its replica context)], made on first use
_global = []                   # what `experimental_set_strategy` set: the bottom of every thread's stack


def _default_pair():
    if not _default:
        from tfcompat.distribute.strategy import default_strategy_pair
        _default.append(default_strategy_pair())
    return _default[0]


def current():
    """(strategy, replica context or None) in effect in this thread."""
    stack = state.stack
    if stack:
        return stack[-1]
    return _global[0] if _global else _default_pair()


def scoped_strategy():
    """The non-default strategy in effect (a scope, `run`, or `experimental_set_strategy`), else None."""
    stack = state.stack
    if stack:
        return stack[-1][0]
    return _global[0][0] if _global else None


def distributed_replica_context():
    """The replica context when this thread runs a replica of a strategy with several replicas in sync, else None.

    What Keras's optimizer and trainer consult on each step: one thread-local read outside strategies."""
    stack = state.stack
    if not stack:
        return None
    strategy, ctx = stack[-1]
    return ctx if ctx is not None and strategy.num_replicas_in_sync > 1 else None


class enter:
    """Pushes (strategy, replica context) for a `with` block of this thread."""

    __slots__ = ("pair",)

    def __init__(self, strategy, replica_context):
        self.pair = (strategy, replica_context)

    def __enter__(self):
        state.stack.append(self.pair)

    def __exit__(self, *exc):
        state.stack.pop()
