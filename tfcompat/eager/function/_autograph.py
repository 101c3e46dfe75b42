"""`tf.autograph`: tfcompat converts no code (tf.function runs the Python body itself, control flow on tensors
included), so `to_graph` gives the function as it is, under AutoGraph's name, and `to_code` has no code to show.
What AutoGraph tells users about their code still holds: a lambda it cannot locate in its source (another lambda of
the same signature on its line) is "run as-is" with TF's warning (`warn_if_unlocatable`)."""
import ast
import inspect
import textwrap
import types
import weakref

from tfcompat.framework.export import partial_api, tf_export


class ConversionError(Exception):
    """AutoGraph's error for an entity it cannot convert (TF's `autograph.impl.api.ConversionError`)."""


@tf_export("autograph.to_code")
def to_code(entity, recursive=True, experimental_optional_features=None):
    """Not available: tfcompat runs Python control flow directly and generates no AutoGraph code."""
    raise NotImplementedError("tf.autograph.to_code: tfcompat does not convert Python code with AutoGraph, so it has "
                              "no generated source to return (tf.function runs the Python body directly)")


@tf_export("autograph.to_graph")
@partial_api("returns the Python function itself (named tf__<name>, as AutoGraph's conversion is): tfcompat runs "
             "Python control flow on tensors directly, so calls give what the converted function gives; "
             "no generated source (see to_code)")
def to_graph(entity, recursive=True, experimental_optional_features=None):
    """AutoGraph's converted function: here `entity` itself under TF's `tf__<name>` name (a bound method becomes its
    plain function, as AutoGraph's conversion takes `self` explicitly)."""
    function = entity.__func__ if inspect.ismethod(entity) else entity
    if not inspect.isfunction(function):
        raise ConversionError(f"converting {entity}: ValueError: Cannot apply autograph to a function that doesn't "
                              f"expose a __code__ object. If this is a @tf.function, try passing f.python_function "
                              f"instead.")
    name = f"tf__{function.__name__}"
    qualname = f"outer_factory.<locals>.inner_factory.<locals>.{name}"
    code = function.__code__.replace(co_name=name, co_qualname=qualname)
    converted = types.FunctionType(code, function.__globals__, name, function.__defaults__, function.__closure__)
    converted.__kwdefaults__ = function.__kwdefaults__
    converted.__qualname__ = qualname
    converted.__doc__ = function.__doc__
    return converted


_verbosity = [0]


@tf_export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
    """Sets AutoGraph's log verbosity (kept; tfcompat logs nothing from AutoGraph)."""
    _verbosity[0] = int(level)


@tf_export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
    """Marks `func` as not to be converted by AutoGraph: returns it unchanged (AutoGraph leaves it alone)."""
    def mark(f):
        try:
            _NOT_CONVERTED.add(f)
        except TypeError:       # not weak-referenceable: nothing AutoGraph would convert
            pass
        return f
    return mark if func is None else mark(func)


_NOT_CONVERTED = weakref.WeakSet()
_WARNED = weakref.WeakSet()


def _signature(args):
    return ([a.arg for a in args.posonlyargs + args.args], args.vararg and args.vararg.arg,
            [a.arg for a in args.kwonlyargs], args.kwarg and args.kwarg.arg)


def _same_line_lambdas(fn):
    """Source texts of the lambdas on `fn`'s line with `fn`'s signature, in AutoGraph's (breadth-first) order."""
    try:
        lines, _ = inspect.getsourcelines(fn)
        source = textwrap.dedent("".join(lines))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return []
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == 1]
    params = inspect.signature(fn).parameters.values()
    kinds = inspect.Parameter
    own = ([p.name for p in params if p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)],
           next((p.name for p in params if p.kind is kinds.VAR_POSITIONAL), None),
           [p.name for p in params if p.kind is kinds.KEYWORD_ONLY],
           next((p.name for p in params if p.kind is kinds.VAR_KEYWORD), None))
    return [ast.get_source_segment(source, n) for n in found if _signature(n.args) == own]


def warn_if_unlocatable(fn):
    """AutoGraph's warning for a lambda it cannot convert because its line holds another lambda of the same signature
    (logged once per function, as TF's conversion is cached); functions marked `do_not_convert` are left alone."""
    if getattr(fn, "__name__", None) != "<lambda>" or not hasattr(fn, "__code__") or fn in _WARNED or \
            fn in _NOT_CONVERTED:
        return
    matches = _same_line_lambdas(fn)
    if len(matches) < 2:
        return
    _WARNED.add(fn)
    from tfcompat.ops.misc_ops import get_logger
    listed = "\n".join(f"Match {i}:\n{text}\n" for i, text in enumerate(matches))
    get_logger().warning(
        f"AutoGraph could not transform {fn} and will run it as-is.\nCause: could not parse the source code of {fn}: "
        "found multiple definitions with identical signatures at the location. This error may be avoided by defining "
        f"each lambda on a single line and with unique argument names. The matching definitions were:\n{listed}\n"
        "To silence this warning, decorate the function with @tf.autograph.experimental.do_not_convert")
