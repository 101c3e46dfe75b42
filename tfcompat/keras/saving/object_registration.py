"""Keras's custom-object registry: `register_keras_serializable`, `custom_object_scope`."""
import threading

GLOBAL_CUSTOM_OBJECTS = {}     # registered name ("package>Name") -> class or function
GLOBAL_CUSTOM_NAMES = {}       # id(class or function) -> registered name
_local = threading.local()


def _scopes():
    stack = getattr(_local, "scopes", None)
    if stack is None:
        stack = _local.scopes = []
    return stack


class CustomObjectScope:
    """`with custom_object_scope({"MyLayer": MyLayer}):` makes the objects visible to deserialization."""

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _scopes().append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _scopes().pop()
        return False


custom_object_scope = CustomObjectScope


def scope_objects():
    """The objects of the enclosing `custom_object_scope`s (innermost last wins)."""
    out = {}
    for objs in _scopes():
        out.update(objs)
    return out


def get_custom_objects():
    """The global registry dict (Keras's `get_custom_objects()`), editable in place."""
    return GLOBAL_CUSTOM_OBJECTS


def register_keras_serializable(package="Custom", name=None):
    """Decorator registering a class or function under `"<package>><name>"` for deserialization."""
    def decorator(arg):
        class_name = name if name is not None else arg.__name__
        registered_name = f"{package}>{class_name}"
        if isinstance(arg, type) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        GLOBAL_CUSTOM_NAMES[id(arg)] = registered_name
        return arg
    return decorator


def get_registered_name(obj):
    """The name `obj` is registered under, else its `__name__`."""
    return GLOBAL_CUSTOM_NAMES.get(id(obj), obj.__name__)


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered (or in scope / `custom_objects` / `module_objects`) under `name`, else None."""
    scoped = scope_objects()
    if name in scoped:
        return scoped[name]
    if name in GLOBAL_CUSTOM_OBJECTS:
        return GLOBAL_CUSTOM_OBJECTS[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None
