"""TF's tracked containers: a list or dict assigned to an attribute of a trackable object is wrapped.

`ListWrapper` and `_DictWrapper` are real `list`/`dict` subclasses with TF's repr (`ListWrapper([...])`,
`DictWrapper({...})`); lists and dicts stored in them are wrapped too. tf.train.Checkpoint and tf.Module call
`wrap` on attribute assignment. Like TF's, they announce new elements to pending checkpoint restores.
Divergence: TF's wrappers are views of the assigned object; these are copies.
"""
import sys


def wrap(value):
    """`value` as TF stores it in a trackable attribute: a plain list/dict becomes a tracked wrapper."""
    kind = type(value)
    if kind is list:
        return ListWrapper(value)
    if kind is dict:
        return _DictWrapper(value)
    return value


def _added(container):
    """Lets pending checkpoint restores give `container`'s new elements their saved values."""
    checkpoint = sys.modules.get("tfcompat.train.checkpoint")
    if checkpoint is not None:
        checkpoint.notify_new_children(container)


class ListWrapper(list):
    """A list attribute of a trackable object (TF's `ListWrapper`): its trackable elements are dependencies."""

    __slots__ = ("__weakref__",)

    def __init__(self, iterable=()):
        super().__init__(map(wrap, iterable))

    def append(self, value):
        super().append(wrap(value))
        _added(self)

    def extend(self, values):
        super().extend(map(wrap, values))
        _added(self)

    def insert(self, index, value):
        super().insert(index, wrap(value))
        _added(self)

    def __setitem__(self, index, value):
        super().__setitem__(index, list(map(wrap, value)) if isinstance(index, slice) else wrap(value))
        _added(self)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def copy(self):
        return ListWrapper(self)

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class _DictWrapper(dict):
    """A dict attribute of a trackable object (TF's `_DictWrapper`): its trackable values are dependencies."""

    __slots__ = ("__weakref__",)

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.update(*args, **kwargs)

    def __setitem__(self, key, value):
        super().__setitem__(key, wrap(value))
        _added(self)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def copy(self):
        return _DictWrapper(self)

    def __repr__(self):
        return f"DictWrapper({dict.__repr__(self)})"

    def __str__(self):
        return dict.__repr__(self)
