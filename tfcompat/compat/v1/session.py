"""`tf.compat.v1.Session` and the TF1 graph-building names around it (placeholder, initializers, collections)."""
import collections
import contextlib

from tfcompat.framework import dtypes, errors, graph_state
from tfcompat.framework.export import unsupported_args
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.graph import (Operation, SymbolicTensor, feed_value, is_graph_value, no_op, placeholder as
                                      _placeholder, run_graph, scoped, tf_type_name)
from tfcompat.framework.graph import Graph
from tfcompat.framework.tensor import EagerTensor, storage, wrap
from tfcompat.framework.tensor_shape import TensorShape


def _graph_or_raise(api):
    graph = graph_state.default_graph()
    if graph is None:
        raise RuntimeError(f"{api} is not compatible with eager execution.")
    return graph


@unsupported_args("target", "config", api_name="tf.compat.v1.Session")
class Session:
    """Runs ops of a TF1 graph; holds the values of its variables (uninitialized until their initializers run)."""

    def __init__(self, target="", graph=None, config=None):
        graph = graph if graph is not None else get_default_graph()
        self.graph, self._values, self._closed, self._scopes = graph, {}, False, []

    # -- variable values ------------------------------------------------------------
    def read(self, var):
        t = self._values.get(var._unique_id)
        if t is None:
            name = var.op.name
            raise errors.FailedPreconditionError(
                None, None, f"Could not find variable {name}. This could mean that the variable has been deleted. In "
                f"TF1, it can also mean the variable is uninitialized. Debug info: container=localhost, status error "
                f"message=Container localhost does not exist. (Could not find resource: localhost/{name})")
        return wrap(t)

    def write(self, var, value):
        t = storage(value)
        if t.dtype != var.dtype.torch_dtype:
            raise errors.InvalidArgumentError(
                None, None, f"Trying to assign variable with wrong dtype. Expected {tf_type_name(var.dtype)} got "
                            f"{tf_type_name(dtypes.FROM_STORAGE[t.dtype])}")
        if not var.shape.is_compatible_with(tuple(t.shape)):
            raise errors.InvalidArgumentError(
                None, None, "Trying to assign to variable with tensor with wrong shape. Expected "
                f"[{','.join(map(str, var.shape.as_list()))}] got [{','.join(map(str, t.shape))}]")
        self._values[var._unique_id] = t
        return wrap(t)

    def read_storage(self, var):
        return storage(self.read(var))

    def write_storage(self, var, t):
        self._values[var._unique_id] = t

    def initialized(self, var):
        return var._unique_id in self._values

    # -- running --------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """The values of `fetches` (a nested list/tuple/dict of tensors, variables, operations or their names) as
        NumPy values (None for operations), `feed_dict` giving tensors' values."""
        if options is not None or run_metadata is not None:
            raise NotImplementedError("tf.compat.v1.Session.run(options/run_metadata) is not supported by tfcompat")
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if not self.graph._by_name:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
        feeds = {}
        for key, value in (feed_dict or {}).items():
            tensor = self._element(key, "Cannot interpret feed_dict key as Tensor:")
            if not isinstance(tensor, SymbolicTensor):
                raise TypeError(f"The value of a feed cannot be a tf.Tensor object. {key!r} is not a graph tensor.")
            feeds[id(tensor)] = feed_value(tensor, value)
        targets = []
        structure = _map(lambda f: targets.append(self._element(f)) or targets[-1], fetches)
        memo = run_graph([t for t in targets if is_graph_value(t)], self, feeds)

        def value_of(target):
            if isinstance(target, EagerTensor):
                return target.numpy()
            value = memo[id(target)]
            if isinstance(target, Operation) or value is None:
                return None
            if not isinstance(value, EagerTensor):
                raise NotImplementedError(f"tfcompat's TF1 graph mode: {target.op.type} gave {type(value).__name__}, "
                                          "not one tensor (ops with several outputs are not supported)")
            return value.numpy()
        return _map(value_of, structure)

    def _element(self, fetch, what="Fetch argument"):
        if is_graph_value(fetch) and fetch.graph is not self.graph:
            raise (TypeError if what.startswith("Cannot") else ValueError)(
                f"{what} {fetch!r} cannot be interpreted as a Tensor. (Tensor {fetch} is not an element of this "
                "graph.)")
        if isinstance(fetch, str):
            return self.graph.get_tensor_by_name(fetch) if ":" in fetch else self.graph.get_operation_by_name(fetch)
        if is_graph_value(fetch) or isinstance(fetch, EagerTensor):
            return fetch
        if fetch is None:
            raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
        kind = type(fetch).__name__
        raise TypeError(f'Argument `fetch` = {fetch} has invalid type "{kind}" must be a string or Tensor. (Can not '
                        f'convert a {kind} into a Tensor or Operation.)')

    # -- scopes ---------------------------------------------------------------------
    @contextlib.contextmanager
    def as_default(self):
        """Makes this the session `eval()`, `Operation.run()` and checkpoints use."""
        graph_state.state.sessions.append(self)
        try:
            yield self
        finally:
            graph_state.state.sessions.pop()

    def __enter__(self):
        scopes = [self.graph.as_default(), self.as_default()]
        for scope in scopes:
            scope.__enter__()
        self._scopes.append(scopes)
        return self

    def __exit__(self, *exc):
        for scope in reversed(self._scopes.pop()):
            scope.__exit__(*exc)
        self.close()

    def close(self):
        self._closed = True
        self._values = {}

    @property
    def sess_str(self):
        return ""


class InteractiveSession(Session):
    """A Session that makes itself the default session until closed (for `eval()` in a shell)."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._default = self.as_default()
        self._default.__enter__()

    def close(self):
        if self._default is not None:
            default, self._default = self._default, None
            default.__exit__(None, None, None)
        super().close()


def _map(fn, fetches):
    """`fn` over the leaves of a fetch structure, keeping lists, tuples, namedtuples and dicts."""
    if isinstance(fetches, (list, tuple)):
        items = [_map(fn, f) for f in fetches]
        if isinstance(fetches, list):
            return items
        return type(fetches)(*items) if hasattr(fetches, "_fields") else tuple(items)
    if isinstance(fetches, collections.abc.Mapping):
        return type(fetches)((k, _map(fn, v)) for k, v in fetches.items())
    return fn(fetches)


def placeholder(dtype, shape=None, name=None):
    """A graph input fed through `Session.run(feed_dict=...)`."""
    graph = _graph_or_raise("tf.placeholder()")
    return _placeholder(graph, dtypes.as_dtype(dtype), shape, name)


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TF's argument name
    """A graph input that is `input` unless fed (eagerly: `input`, unchecked, as TF 2 runs it)."""
    default = convert_to_tensor(input)
    graph = graph_state.default_graph()
    if graph is None:
        return default
    shape = TensorShape(shape)
    if not shape.is_compatible_with(default.shape):
        raise ValueError(f"Shapes {default.shape} and {shape} are incompatible")
    return Operation(graph, scoped(name or "PlaceholderWithDefault"), "PlaceholderWithDefault",
                     lambda session: default, output_spec=(default.dtype, shape)).output


def get_default_session():
    """The innermost session entered with `with` or `as_default()`, or None."""
    return graph_state.default_session()


def get_default_graph():
    """The innermost `Graph.as_default()` graph; while executing eagerly TF's global graph, which eager ops leave
    empty (a `Session` of it has nothing to run)."""
    graph = graph_state.default_graph()
    if graph is None:
        if not _GLOBAL:
            _GLOBAL.append(_GlobalGraph())
        return _GLOBAL[0]
    return graph


class _GlobalGraph(Graph):
    """TF's global default graph seen while executing eagerly: its collections are the eager ones, and graph mode is
    installed only once it is made the default graph (merely asking for it costs eager ops nothing)."""

    def __init__(self):
        made, graph_state.graph_made = graph_state.graph_made, lambda: None
        try:
            super().__init__()
        finally:
            graph_state.graph_made = made
        self._collections = _EAGER_COLLECTIONS

    @contextlib.contextmanager
    def as_default(self):
        graph_state.graph_made()
        with super().as_default() as graph:
            yield graph


_GlobalGraph.__name__ = _GlobalGraph.__qualname__ = "Graph"     # TF's repr and type name
_GLOBAL = []


def global_variables(scope=None):
    """The variables of the default graph (none while executing eagerly), in creation order."""
    graph = graph_state.default_graph()
    return [] if graph is None else graph.get_collection("variables", scope)


def trainable_variables(scope=None):
    graph = graph_state.default_graph()
    return [] if graph is None else graph.get_collection("trainable_variables", scope)


def local_variables(scope=None):
    """The default graph's local variables (collection `local_variables`: TF1 metrics' state, ...)."""
    graph = graph_state.default_graph()
    return [] if graph is None else graph.get_collection("local_variables", scope)


def model_variables(scope=None):
    graph = graph_state.default_graph()
    return [] if graph is None else graph.get_collection("model_variables", scope)


class GraphKeys:
    """TF1's standard collection names."""

    GLOBAL_VARIABLES = VARIABLES = "variables"
    LOCAL_VARIABLES, METRIC_VARIABLES, MODEL_VARIABLES = "local_variables", "metric_variables", "model_variables"
    TRAINABLE_VARIABLES, TRAINABLE_RESOURCE_VARIABLES = "trainable_variables", "trainable_resource_variables"
    SUMMARIES, QUEUE_RUNNERS, TABLE_INITIALIZERS = "summaries", "queue_runners", "table_initializer"
    ASSET_FILEPATHS, MOVING_AVERAGE_VARIABLES = "asset_filepaths", "moving_average_variables"
    REGULARIZATION_LOSSES, CONCATENATED_VARIABLES, SAVERS = "regularization_losses", "concatenated_variables", "savers"
    WEIGHTS, BIASES, ACTIVATIONS, UPDATE_OPS, LOSSES = "weights", "biases", "activations", "update_ops", "losses"
    SAVEABLE_OBJECTS, RESOURCES, LOCAL_RESOURCES = "saveable_objects", "resources", "local_resources"
    INIT_OP, LOCAL_INIT_OP, READY_OP = "init_op", "local_init_op", "ready_op"
    READY_FOR_LOCAL_INIT_OP, SUMMARY_OP, GLOBAL_STEP = "ready_for_local_init_op", "summary_op", "global_step"
    EVAL_STEP, TRAIN_OP, COND_CONTEXT, WHILE_CONTEXT = "eval_step", "train_op", "cond_context", "while_context"


_EAGER_COLLECTIONS = {}     # TF's global graph's collections, used while executing eagerly (process-wide, as in TF)


def _collections():
    graph = graph_state.default_graph()
    return graph._collections if graph is not None else _EAGER_COLLECTIONS


def get_collection_ref(key):
    """The list of collection `key` of the default graph (itself: appending adds to the collection)."""
    return _collections().setdefault(key, [])


def get_collection(key, scope=None):
    """A copy of collection `key`; with `scope`, only items whose name starts with it."""
    return [v for v in _collections().get(key, []) if scope is None or getattr(v, "name", "").startswith(scope)]


def add_to_collection(name, value):
    get_collection_ref(name).append(value)


def add_to_collections(names, value):
    for name in [names] if isinstance(names, str) else set(names):
        add_to_collection(name, value)


def variables_initializer(var_list, name="init"):
    """An operation running the initializers of `var_list`."""
    if not var_list:
        return no_op(_graph_or_raise("tf.compat.v1.variables_initializer"), name, ())
    return no_op(var_list[0].graph, name, [v.initializer for v in var_list])


def global_variables_initializer():
    """An operation initializing every variable of the default graph (a no-op while executing eagerly: None)."""
    graph = graph_state.default_graph()
    return None if graph is None else variables_initializer(graph.get_collection("variables"))


initialize_all_variables = global_variables_initializer


def local_variables_initializer():
    """An operation initializing the default graph's local variables (None while executing eagerly)."""
    graph = graph_state.default_graph()
    return None if graph is None else variables_initializer(graph.get_collection("local_variables"))


__all__ = ["Session", "InteractiveSession", "placeholder", "placeholder_with_default", "local_variables_initializer", "GraphKeys", "get_collection", "get_collection_ref", "add_to_collection",
           "add_to_collections", "get_default_session", "get_default_graph", "global_variables",
           "trainable_variables", "local_variables", "model_variables", "variables_initializer", "global_variables_initializer",
           "initialize_all_variables"]
