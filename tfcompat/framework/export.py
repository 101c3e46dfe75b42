"""The registry of TF API names tfcompat implements.

`@tf_export("math.add", "add")` records an object under TF's public names
(`tf.math.add`, `tf.add`); `tfcompat/__init__.py` builds the op namespaces from
it and `tools/compat_matrix.py` reads it. What an export lacks is declared once,
where it is defined, and shows as *partial* in the matrix:

- `unsupported=("arg", ...)` (or `@unsupported_args("arg", ...)` on a method):
  arguments TF accepts that tfcompat does not; passing one with a value other
  than its default raises `NotImplementedError` naming it.
- `partial="..."` (or `@partial_api("...")` on a class that is not exported by
  name, such as a Keras layer): any other limit (some values of an argument, some inputs).
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
        return obj if partial is None else partial_api(partial)(obj)
    return register


def partial_api(note):
    """Decorator: `obj` implements only part of TF's API; `note` says what is missing (the matrix shows it)."""
    def declare(obj):
        try:
            obj._tf_partial = note
        except (AttributeError, TypeError):
            PARTIAL[id(obj)] = note
        return obj
    return declare


def unsupported_args(*params, api_name=None):
    """Decorator: `fn` (a function, or a class through its `__init__`) rejects non-default `params`.

    Errors name `api_name`; for a class without one, the class of the object being built.
    """
    def decorate(obj):
        if isinstance(obj, type):
            obj.__init__ = _rejecting(obj.__init__, api_name, params)
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
                raise NotImplementedError(f"{api_name or type(args[0]).__name__}({p}={value!r}) is not supported "
                                          f"by tfcompat")
        return fn(*args, **kwargs)

    wrapper._tf_unsupported = tuple(params)
    return wrapper


def partial_note(obj):
    """What is missing from `obj` (its partial note, its unsupported arguments and its methods'), or None."""
    notes = [getattr(obj, "_tf_partial", None) or PARTIAL.get(id(obj))]
    if getattr(obj, "_tf_unsupported", None):
        notes.append("arguments " + ", ".join(obj._tf_unsupported))
    if isinstance(obj, type):
        names = sorted({name for klass in obj.__mro__[:-1] for name in vars(klass)})
        for name in names:
            member = inspect.getattr_static(obj, name)       # the method this class uses, maybe inherited
            member = getattr(member, "__func__", member)     # classmethod / staticmethod
            if getattr(member, "_tf_unsupported", None):
                label = "constructor" if name == "__init__" else name
                notes.append(f"{label} arguments " + ", ".join(member._tf_unsupported))
    notes = [n for n in notes if n]
    return "; ".join(notes) or None
