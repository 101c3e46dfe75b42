"""TF1 variable scopes eagerly: `variable_scope` names variables (and ops) and `get_variable` creates one per call.

Inside a `tf.Graph`, `get_variable` uses the graph's variable store with TF1's reuse rules (a name is made once;
`reuse=True` or `AUTO_REUSE` in an enclosing scope returns it). Eagerly, as in TF 2 outside a variable store
(templates, `track_tf1_style_variables`, which TF 2.21 no longer has), it creates a new variable on every call.
"""
import contextlib
import threading
import weakref

import tfcompat as tf
from tfcompat.framework import dtypes, graph_state
from tfcompat.framework.graph_variable import GraphVariable

_scopes = threading.local()


def _stack():
    stack = getattr(_scopes, "stack", None)
    if stack is None:
        stack = _scopes.stack = []
    return stack


class VariableScope:
    """The scope `variable_scope` enters: its full name and its defaults for `get_variable`."""

    def __init__(self, name, initializer=None, dtype=dtypes.float32, reuse=None):
        self.name, self.initializer, self.dtype, self.reuse = name, initializer, dtype, reuse
        self.original_name_scope = name + "/" if name else ""

    def __repr__(self):
        return f"<tf.compat.v1.VariableScope name={self.name!r}>"


_UNSUPPORTED = ("values", "regularizer", "caching_device", "partitioner", "custom_getter", "constraint")


@contextlib.contextmanager
def variable_scope(name_or_scope, default_name=None, values=None, initializer=None, regularizer=None,
                   caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                   use_resource=None, constraint=None, auxiliary_name_scope=True):
    """Prefixes the names of variables made by `get_variable` (and, with `auxiliary_name_scope`, of ops)."""
    given = dict(values=values, regularizer=regularizer, caching_device=caching_device, partitioner=partitioner,
                 custom_getter=custom_getter, constraint=constraint)
    bad = [k for k in _UNSUPPORTED if given[k] is not None]
    if bad:
        raise NotImplementedError(f"tf.compat.v1.variable_scope({bad[0]}=...) is not supported by tfcompat")
    if name_or_scope is None and default_name is None:
        raise TypeError("If default_name is None then name_or_scope is required")
    parent = current_scope()
    if isinstance(name_or_scope, VariableScope):
        full, base = name_or_scope.name, name_or_scope
    else:
        short = name_or_scope if name_or_scope is not None else default_name
        full = f"{parent.name}/{short}" if parent.name else short
        if name_or_scope is None:       # numbered per graph (eagerly, per process), as in TF
            full = _unique_default(graph_state.default_graph() or _EAGER, full)
        base = parent
    scope = VariableScope(full, initializer if initializer is not None else base.initializer,
                          dtypes.as_dtype(dtype) if dtype is not None else base.dtype, reuse)
    _stack().append(scope)
    try:
        if auxiliary_name_scope:
            # ops get a new name scope (unique in a graph, as in TF: `vs_1/`); a scope object entered again keeps
            # the name scope it was first opened with as its `original_name_scope`
            with tf.name_scope(full.rsplit("/", 1)[-1]) as name_scope:
                scope.original_name_scope = (name_or_scope.original_name_scope
                                             if isinstance(name_or_scope, VariableScope) else name_scope)
                yield scope
        else:
            yield scope
    finally:
        _stack().pop()


class name_scope(tf.name_scope):  # noqa: N801 - TF's class name
    """TF1's `name_scope(name, default_name=None, values=None)`: `default_name` when `name` is None; an empty name
    is the root scope."""

    def __init__(self, name, default_name=None, values=None):
        if name is None:
            name = default_name if default_name is not None else ""
        super().__init__(name)


class _Eager:
    """The key of eager variable scopes' default-name counts."""


_EAGER = _Eager()
_default_counts = weakref.WeakKeyDictionary()      # graph -> {variable scope name: times opened by default_name}


def _unique_default(graph, full):
    """`full`, or `full_N` once a `default_name` scope of that name was opened N times in `graph` (TF's rule)."""
    counts = _default_counts.setdefault(graph, {})
    n = counts.get(full, 0)
    counts[full] = n + 1
    return f"{full}_{n}" if n else full


def current_scope():
    stack = _stack()
    return stack[-1] if stack else VariableScope("")


def get_variable_scope():
    """The innermost `variable_scope` (the root scope, named '', outside any)."""
    return current_scope()


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None, collections=None,
                 caching_device=None, partitioner=None, validate_shape=True, use_resource=None, custom_getter=None,
                 constraint=None, synchronization=None, aggregation=None):
    """A new variable named `<scope>/<name>`, initialized by `initializer` (the scope's, else Glorot uniform for
    floats and zeros otherwise); a tensor `initializer` is the value itself."""
    given = dict(collections=collections, caching_device=caching_device,
                 partitioner=partitioner, custom_getter=custom_getter, constraint=constraint)
    bad = [k for k, v in given.items() if v is not None]
    if bad:
        raise NotImplementedError(f"tf.compat.v1.get_variable({bad[0]}=...) is not supported by tfcompat")
    scope = current_scope()
    dtype = dtypes.as_dtype(dtype) if dtype is not None else scope.dtype
    init = initializer if initializer is not None else scope.initializer
    full = f"{scope.name}/{name}" if scope.name else name
    graph = graph_state.default_graph()
    store = None if graph is not None else _eager_store()
    if graph is not None or store is not None:
        existing = _reused(graph, full, shape, store)
        if existing is not None:
            return existing
    value = None
    if isinstance(init, (tf.Tensor, tf.Variable)) or (init is not None and not callable(init)):
        value = tf.convert_to_tensor(init, dtype=dtype)
    else:
        if shape is None:
            raise ValueError(f"Shape of a new variable ({name}) must be fully defined, but instead was <unknown>.")
        if init is None:
            init = tf.keras.initializers.GlorotUniform() if dtype.is_floating else zeros_initializer()
        if graph is None:
            value = init(list(shape), dtype=dtype)
    trainable = True if trainable is None else trainable
    if graph is not None:
        if value is not None:
            initial, shape = value, value.shape
        else:
            shape = list(shape)
            initial = lambda: init(shape, dtype=dtype)  # noqa: E731 - runs at each run of the initializer, as in TF
        var = graph.variable_store[full] = GraphVariable.make(graph, full, initial, dtype, shape, trainable)
    else:
        with tf.name_scope(""):           # get_variable names ignore name scopes, as in TF
            var = tf.Variable(value, name=full, trainable=trainable, dtype=dtype)
        if store is not None:
            store[full] = var
    if regularizer is not None:
        _add_regularization_loss(var, regularizer, graph)
    return var


class _LazyEvalTensor:
    """TF's eager regularization loss: `regularizer(variable)` computed whenever it is converted to a tensor."""

    def __init__(self, regularizer, variable):
        self._regularizer, self._variable = regularizer, variable

    def _value(self):
        return tf.convert_to_tensor(self._regularizer(self._variable))

    def __tf_tensor__(self, dtype=None, name=None):
        value = self._value()
        return value if dtype is None else tf.cast(value, dtype)

    def numpy(self):
        return self._value().numpy()

    @property
    def dtype(self):
        return self._value().dtype

    @property
    def shape(self):
        return self._value().shape


def _add_regularization_loss(var, regularizer, graph):
    """TF adds `regularizer(var)` (when not None) to REGULARIZATION_LOSSES: in a graph a node evaluated by the
    session, eagerly a lazily evaluated tensor."""
    from tfcompat.compat.v1 import session
    if graph is None:
        if regularizer(var) is not None:
            session.add_to_collection("regularization_losses", _LazyEvalTensor(regularizer, var))
        return
    from tfcompat.framework.graph import _eagerly, deferred_call
    with _eagerly():                    # a regularizer giving None adds nothing (tried on zeros of the variable)
        if regularizer(tf.zeros(var.shape, var.dtype)) is None:
            return
    with tf.name_scope(var.op.name + "/Regularizer/"):
        loss = deferred_call(regularizer, (var,), {}, "Regularizer")
    session.add_to_collection("regularization_losses", loss)


def _eager_store():
    """The variable store of the innermost eager template being called (None: a new variable per call)."""
    stores = getattr(_scopes, "stores", None)
    return stores[-1] if stores else None


@contextlib.contextmanager
def eager_variable_store(store):
    """Makes eager `get_variable` calls create their variables in `store` (a dict) and reuse them by name."""
    stores = getattr(_scopes, "stores", None)
    if stores is None:
        stores = _scopes.stores = []
    stores.append(store)
    try:
        yield store
    finally:
        stores.pop()


def _reuse():
    """The effective reuse of the current scope: True or AUTO_REUSE once any enclosing scope set it."""
    for scope in reversed(_stack()):
        if scope.reuse:
            return scope.reuse
    return False


def _reused(graph, full, shape, store=None):
    """The variable `full` of the graph's store (or an eager template's) when the scope reuses it (TF's reuse
    rules), else None."""
    reuse = _reuse()
    existing = (graph.variable_store if graph is not None else store).get(full)
    if existing is not None:
        if not reuse:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set reuse=True or "
                             "reuse=tf.AUTO_REUSE in VarScope?")
        if shape is not None and not existing.shape.is_compatible_with(shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape {tuple(shape)} and found shape "
                             f"{tuple(existing.shape.as_list())}.")
        return existing
    if reuse is True:
        raise ValueError(f"Variable {full} does not exist, or was not created with tf.get_variable(). Did you mean "
                         "to set reuse=tf.AUTO_REUSE in VarScope?")
    return None


class zeros_initializer:  # noqa: N801 - TF1's class name
    """TF1's initializer of zeros (`dtype` fixed at construction, overridable per call)."""

    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return tf.zeros(shape, dtype=dtype or self.dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class ones_initializer(zeros_initializer):  # noqa: N801 - TF1's class name
    """TF1's initializer of ones."""

    def __call__(self, shape, dtype=None, partition_info=None):
        return tf.ones(shape, dtype=dtype or self.dtype)


class constant_initializer:  # noqa: N801 - TF1's class name
    """TF1's initializer of a constant (a scalar broadcast, or values of the variable's shape)."""

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        self.value, self.dtype, self.verify_shape = value, dtypes.as_dtype(dtype), verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        value = tf.constant(self.value, dtype=dtype or self.dtype)
        return tf.broadcast_to(value, shape) if value.shape.rank == 0 else tf.reshape(value, shape)

    def get_config(self):
        return {"value": self.value, "dtype": self.dtype.name, "verify_shape": self.verify_shape}
