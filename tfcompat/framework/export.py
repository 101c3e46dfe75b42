"""The registry of TF API names tfcompat implements.

`@tf_export("math.add", "add")` records an object under TF's public names
(`tf.math.add`, `tf.add`); `tfcompat/__init__.py` builds the op namespaces from
it and `tools/compat_matrix.py` reads it. What an export lacks is declared once,
where it is defined, and shows as *partial* in the matrix:

- `unsupported=("arg", ...)` (or `@unsupported_args("arg", ...)` on a method):
  arguments TF accepts that tfcompat does not; passing one with a value other
  than its default raises `NotImplementedError` naming it.
- `partial="..."`: any other limit (some values of an argument, some inputs).
"""
import functools
import inspect

EXPORTS = {}     # "math.add" -> object (names without the leading "tf.")
PARTIAL = {}     # id(obj) -> note, for objects that take no attributes
_PLAIN = (int, float, str, bytes, type(None))


def tf_export(*names, partial=None, unsupported=()):
    def register(obj):
        if unsupported:
            obj = unsupported_args(*unsupported, api_name="tf." + names[0])(obj)
        for name in names:
            EXPORTS[name] = obj
        if partial is not None:
            try:
                obj._tf_partial = partial
            except (AttributeError, TypeError):
                PARTIAL[id(obj)] = partial
        return obj
    return register


def unsupported_args(*params, api_name=None):
    """Decorator: `fn` (a function, or a class through its `__init__`) rejects non-default `params`."""
    def decorate(obj):
        if isinstance(obj, type):
            obj.__init__ = unsupported_args(*params, api_name=api_name or "tf." + obj.__name__)(obj.__init__)
            return obj
        return _rejecting(obj, api_name or obj.__qualname__, params)
    return decorate


def _rejecting(fn, api_name, params):
    """`fn` wrapped to raise NotImplementedError when one of `params` is passed with a non-default value."""
    signature = inspect.signature(fn)
    names = list(signature.parameters)
    checks = []
    for p in params:
        param = signature.parameters[p]
        position = names.index(p) if param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD else None
        checks.append((p, position, param.default))

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        for p, position, default in checks:
            if p in kwargs:
                value = kwargs[p]
            elif position is not None and position < len(args):
                value = args[position]
            else:
                continue
            if value is not default and not (isinstance(value, _PLAIN) and isinstance(default, _PLAIN)
                                              and value == default):
                raise NotImplementedError(f"{api_name}({p}={value!r}) is not supported by tfcompat")
        return fn(*args, **kwargs)

    wrapper._tf_unsupported = tuple(params)
    return wrapper


def partial_note(obj):
    """What is missing from `obj` (its partial note, its unsupported arguments and its methods'), or None."""
    notes = [getattr(obj, "_tf_partial", None) or PARTIAL.get(id(obj))]
    if getattr(obj, "_tf_unsupported", None):
        notes.append("arguments " + ", ".join(obj._tf_unsupported))
    if isinstance(obj, type):
        for name, member in sorted(vars(obj).items()):
            member = getattr(member, "__func__", member)     # classmethod / staticmethod
            if getattr(member, "_tf_unsupported", None):
                label = "constructor" if name == "__init__" else name
                notes.append(f"{label} arguments " + ", ".join(member._tf_unsupported))
    notes = [n for n in notes if n]
    return "; ".join(notes) or None
