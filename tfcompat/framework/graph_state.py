"""Per-thread TF1 graph-mode state: the default `tf.Graph` and `Session` stacks (both empty while executing eagerly),
and TF1's global graph once `disable_eager_execution` made one (every thread's outermost default graph)."""
import threading


class _GraphState(threading.local):
    def __init__(self):
        self.graphs = [] if global_graph is None else [global_graph]   # `Graph.as_default()` scopes, innermost last
        self.sessions = []      # `Session.as_default()` scopes, innermost last
        self.io_session = None  # the session checkpoint code reads and writes graph variables through
        self.restores = None    # a list collecting a checkpoint restore's writes to graph variables
        self.feeds = {}         # the feeds of the session run in progress (id(tensor) -> value)


global_graph = None
state = _GraphState()


def set_global_graph(graph):
    """Makes `graph` TF1's global default graph (under every `as_default()` scope), replacing the previous one."""
    global global_graph
    old, global_graph = global_graph, graph
    if old is not None and state.graphs and state.graphs[0] is old:
        state.graphs[0] = graph
    else:
        state.graphs.insert(0, graph)


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
