"""Per-thread TF1 graph-mode state: the default `tf.Graph` and `Session` stacks (both empty while executing eagerly)."""
import threading


class _GraphState(threading.local):
    def __init__(self):
        self.graphs = []        # `Graph.as_default()` scopes, innermost last
        self.sessions = []      # `Session.as_default()` scopes, innermost last
        self.io_session = None  # the session checkpoint code reads and writes graph variables through
        self.restores = None    # a list collecting a checkpoint restore's writes to graph variables
        self.feeds = {}         # the feeds of the session run in progress (id(tensor) -> value)


state = _GraphState()


def default_graph():
    """The innermost default graph, or None while executing eagerly."""
    return state.graphs[-1] if state.graphs else None


def default_session():
    """The innermost default session (TF's `get_default_session()`), or None."""
    return state.sessions[-1] if state.sessions else None


_first_graph_hooks = []


def on_first_graph(hook):
    """Runs `hook()` when the first `tf.Graph` is made (now, if one already was): what graph mode installs."""
    if _first_graph_hooks is None:
        hook()
    else:
        _first_graph_hooks.append(hook)


def graph_made():
    global _first_graph_hooks
    hooks, _first_graph_hooks = _first_graph_hooks, None
    for hook in hooks or ():
        hook()
