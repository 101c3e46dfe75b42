"""`tf.Module`: a named container of variables and submodules, found by walking its attributes as TF does.

The walk visits attributes in sorted-name order (dict entries by sorted key, lists in order), yields
this module's matching leaves first, then recurses into each submodule found.
"""
import re
import sys

from tfcompat.framework.context import state
from tfcompat.framework.export import tf_export
from tfcompat.framework.variables import Variable
from tfcompat.util import nest

_VALID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_IGNORED = frozenset(("_self_unconditional_checkpoint_dependencies", "_self_unconditional_dependency_names"))


def _children_added(obj):
    """Lets pending checkpoint restores give `obj`'s new children their saved values (TF's deferred restoration)."""
    checkpoint = sys.modules.get("tfcompat.train.checkpoint")
    if checkpoint is not None:
        checkpoint.notify_new_children(obj)


def _snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


class _ModuleScope:
    """The module's name scope: re-enters the absolute scope captured when the module was built."""

    def __init__(self, scope_name):
        self.name = scope_name

    def __enter__(self):
        self._saved = state.name_scope
        state.name_scope = [self.name[:-1]]
        return self.name

    def __exit__(self, *exc):
        state.name_scope = self._saved
        return False


@tf_export("Module")
class Module:
    """Base class of TF modules: `variables`, `trainable_variables`, `submodules`, `name_scope`."""

    _TF_MODULE_IGNORED_PROPERTIES = frozenset()

    def __setattr__(self, name, value):
        # TF tracks list and dict attributes as ListWrapper / _DictWrapper (they print as such)
        if type(value) is list or type(value) is dict:
            from tfcompat.train.data_structures import wrap
            value = wrap(value)
        object.__setattr__(self, name, value)
        _children_added(self)

    def __init__(self, name=None):
        if name is None:
            name = _snake(type(self).__name__)
        elif not _VALID.match(name):
            raise ValueError(f"'{name}' is not a valid module name. Module names must be valid Python identifiers "
                             "(e.g. a valid class name).")
        self._name = name
        scope = "/".join(s for s in state.name_scope if s)
        self._scope_name = (scope + "/" if scope else "") + name + "/"
        self._name_scope = _ModuleScope(self._scope_name)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return self._name_scope

    @property
    def variables(self):
        return tuple(self._flatten(predicate=_is_variable, expand_composites=True))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=_is_trainable, expand_composites=True))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and not x.trainable))

    @property
    def submodules(self):
        return tuple(self._flatten(predicate=lambda x: isinstance(x, Module)))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None, with_path=False,
                 expand_composites=False):
        """Yields the leaves of this module's attributes matching `predicate`, then those of its submodules."""
        if predicate is None:
            predicate = lambda _: True  # noqa: E731
        return _walk(self, recursive, predicate, attribute_traversal_key, with_path, (), set())

    @classmethod
    def with_name_scope(cls, method):
        """Decorates a method to run inside the module's name scope."""
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        wrapped.__name__ = getattr(method, "__name__", "method")
        wrapped.__doc__ = getattr(method, "__doc__", None)
        wrapped.__wrapped__ = method
        return wrapped


def _is_variable(x):
    return isinstance(x, Variable)


def _is_trainable(x):
    return isinstance(x, Variable) and x.trainable


def _walk(module, recursive, predicate, key, with_path, path, seen, stack=None):
    """TF's module walk: without paths each object is yielded (and a submodule entered) once, by identity; with
    paths every occurrence is, a module already being walked higher up entered only one level."""
    if stack is None:
        stack = []
        seen.add(id(module))
    if id(module) in stack:
        recursive = False
    subs = []
    attrs = vars(module)
    ignored = _IGNORED | getattr(module, "_TF_MODULE_IGNORED_PROPERTIES", frozenset())
    for name in sorted(attrs, key=key):
        if name in ignored:
            continue
        for sub_path, leaf in _leaves(attrs[name], (name,)):
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (path + sub_path, leaf) if with_path else leaf
            if recursive and isinstance(leaf, Module):
                subs.append((path + sub_path, leaf))
    stack.append(id(module))
    for sub_path, sub in subs:
        yield from _walk(sub, recursive, predicate, key, with_path, sub_path, seen, stack)
    stack.pop()


def _leaves(value, path):
    if isinstance(value, Module) or not nest.is_nested(value):
        yield path, value
        return
    if isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            keys = list(value)
        for k in keys:
            yield from _leaves(value[k], path + (k,))
    else:
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
