"""`tf.compat.v1.make_template`: a function whose `get_variable` calls create variables on the first call (under a
variable scope unique like `variable_scope(None, default_name=name)`) and reuse them on later calls, in a TF1 graph
(`Template`) and eagerly (`EagerTemplate`, with its own variable store).
"""
from tfcompat.compat.v1.variable_scope import eager_variable_store, variable_scope
from tfcompat.framework import graph_state


class Template:
    """Wraps `func` so that its variables are shared between calls (see the module doc)."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None,
                 create_graph_function=False):
        if custom_getter is not None or create_graph_function:
            raise NotImplementedError("tf.compat.v1.make_template(custom_getter_/create_graph_function_) is not "
                                      "supported by tfcompat")
        self._func, self._name, self._unique_name = func, name, unique_name
        self._variable_scope, self._variables_created, self._variables = None, False, []
        self._store = {}
        if create_scope_now:
            with variable_scope(unique_name, default_name=name) as scope:
                self._variable_scope = scope

    def _created(self):
        graph = graph_state.default_graph()
        if graph is not None:
            return graph.get_collection("variables")
        return list(self._store.values())

    def _call_func(self, args, kwargs):
        before = list(self._created())
        result = self._func(*args, **kwargs)
        new = [v for v in self._created() if all(v is not b for b in before)]
        if self._variables_created:
            trainable = [v for v in new if v.trainable]
            if trainable:
                raise ValueError("Trainable variable created when calling a template after the first time, perhaps "
                                 f"you used tf.Variable when you meant tf.get_variable: {trainable}")
        else:
            self._variables.extend(new)
        self._variables_created = True
        return result

    def __call__(self, *args, **kwargs):
        store = eager_variable_store(self._store) if graph_state.default_graph() is None else _Null()
        with store:
            if self._variable_scope is not None:
                with variable_scope(self._variable_scope, reuse=True if self._variables_created else None):
                    return self._call_func(args, kwargs)
            with variable_scope(self._unique_name, default_name=self._name) as scope:
                self._variable_scope = scope
                return self._call_func(args, kwargs)

    @property
    def name(self):
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name + "/" if name else name

    @property
    def variables(self):
        return list(self._variables)

    @property
    def trainable_variables(self):
        return [v for v in self._variables if v.trainable]

    @property
    def non_trainable_variables(self):
        return [v for v in self._variables if not v.trainable]

    global_variables = variables
    trainable_weights = trainable_variables
    non_trainable_weights = non_trainable_variables
    weights = variables


class EagerTemplate(Template):
    """The template `make_template` makes while executing eagerly."""


class _Null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def make_template(name_, func_, create_scope_now_=False, unique_name_=None, custom_getter_=None, **kwargs):
    """A `Template` (eagerly an `EagerTemplate`) of `func_` with `kwargs` bound."""
    import functools
    func = functools.partial(func_, **kwargs) if kwargs else func_
    cls = Template if graph_state.default_graph() is not None else EagerTemplate
    return cls(name_, func, create_scope_now=create_scope_now_, unique_name=unique_name_,
               custom_getter=custom_getter_)
